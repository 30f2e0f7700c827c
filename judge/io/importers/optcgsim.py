"""OPTCGSim game logs -> an `optcg` match, all or nothing.

Every `RZ1` move becomes an event of the optcg vocabulary (draw, play, don, don.attach, ko, life.taken,
...), read together with the readable lines around it (who attacks whom, counters, End Turn,
concession). After each move the projected zone counts (the ruleset's own replay of the events so
far) are compared with the log's `RZ1|CHK` counts, and every `Hand/Board/Trash/Life` summary with the
projected zones; a mismatch is reported with its line and zone (and kept in the match as an
annotation). Lines the importer does not understand are kept as `annotation` events and counted.

Card facts: if a local card database is found (`$TABLEJUDGE_CARDS`, or `cards.db` beside the log), the
Leaders' and seen cards' facts are copied into `deck.registered` (from it and the card snapshot);
otherwise the checks that need facts stay silent. Not from the snapshot alone: the log does not say
which plays and power changes came from effects, so with every card's facts known the checks would
flag effect plays as unpaid (3 errors and 32 power warnings on tests/fixtures/optcgsim/esempio.log).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from engine.events import TABLE_ACTOR, Draft, RecordedEvent
from engine.match import EventValidator, InputError, creation_draft, new_match_id
from engine.rulesets import get_ruleset
from engine.rulesets.optcg import table as T
from engine.state import TableState
from engine.store import EventStore

from judge.io.importers import ImportSummary, findings_after
from judge.io.importers._optcgsim_parse import (
    ZONES,
    CheckLine,
    MoveLine,
    PlayerLine,
    TextLine,
    card_ids,
    read,
    strip_refs,
)

SPEAKER = re.compile(r"^\[(?P<who>[^\]]+)\]\s*(?P<rest>.*)$")
SUMMARY = re.compile(r"^(?P<what>Hand|Board|Trash|Life|Hand before Mulligan|Hand after Mulligan):\s*(?P<val>.*)$")
BATTLE = re.compile(r"^(?P<a>.+?)\[(?P<ap>-?\d+)\]\s+vs\s+(?P<t>.+?)\[(?P<tp>-?\d+)\]$")


@dataclass
class Stats:
    moves: int = 0
    chk_checked: int = 0
    chk_mismatches: list[dict[str, Any]] = field(default_factory=list)
    summaries_checked: int = 0
    summary_mismatches: list[dict[str, Any]] = field(default_factory=list)
    unparsed: int = 0
    last_summary: dict[str, dict[str, Any]] = field(default_factory=dict)


def import_file(store: EventStore, path: str, *, match: str | None = None,
                recorded_by: str | None = None) -> ImportSummary:
    if match:
        raise InputError("an OPTCGSim log creates its own match: drop --match", where=path, field="match")
    conv = Converter(path, recorded_by=recorded_by, cards_db=find_cards_db(path))
    drafts = conv.run()
    match_id = new_match_id()
    events = store.create(match_id, drafts)
    findings = findings_after(store, match_id, 1)
    st = conv.stats
    return ImportSummary(file=path, match=match_id, events=len(events), created=True, findings=findings,
                         extra={"moves": st.moves, "chk_checked": st.chk_checked,
                                "chk_mismatches": len(st.chk_mismatches),
                                "unparsed_lines": st.unparsed,
                                "summaries_checked": st.summaries_checked,
                                "summary_mismatches": len(st.summary_mismatches)})


def convert(path: str, *, cards_db: str | None = None) -> "Converter":
    """Parse and convert without storing (for tests and tools): the converter holds drafts and stats."""
    conv = Converter(path, cards_db=cards_db)
    conv.run()
    return conv


def find_cards_db(path: str) -> str | None:
    env = os.environ.get("TABLEJUDGE_CARDS")
    if env and os.path.exists(env):
        return env
    beside = os.path.join(os.path.dirname(os.path.abspath(path)), "cards.db")
    return beside if os.path.exists(beside) else None


class Converter:
    def __init__(self, path: str, *, recorded_by: str | None = None, cards_db: str | None = None):
        self.path = path
        self.recorded_by = recorded_by
        self.cards_db = cards_db
        self.lines = read(path)
        self.stats = Stats()
        self.drafts: list[Draft] = []
        self.rs = get_ruleset("optcg")()

    # ------------------------------------------------------------------ identities

    def _bind_players(self) -> None:
        """Player numbers <-> names and You/Opponent, from the lines around the first moves."""
        names: dict[int, str] = {}
        you: dict[str, int] = {}
        for i, ln in enumerate(self.lines):
            if isinstance(ln, PlayerLine):
                names.setdefault(ln.player, ln.name)
            if not isinstance(ln, TextLine):
                continue
            m = SPEAKER.match(ln.text)
            if not m:
                continue
            who, rest = m.group("who"), m.group("rest")
            nxt = self._next_move(i, lambda mv: mv.src == 0 and mv.dst == 1)
            if rest.startswith("Drew card from deck") and nxt is not None and who not in ("You", "Opponent"):
                names.setdefault(nxt.player, who)
            if who in ("You", "Opponent") and re.fullmatch(r"Draw \d+ Cards?", rest) and nxt is not None:
                you.setdefault(who, nxt.player)
        if "You" in you and "Opponent" not in you:
            you["Opponent"] = 3 - you["You"]
        if "Opponent" in you and "You" not in you:
            you["You"] = 3 - you["Opponent"]
        you.setdefault("You", 1)
        you.setdefault("Opponent", 2)
        self.num_of_you = you
        labels = {1: names.get(1) or "Player 1", 2: names.get(2) or "Player 2"}
        if labels[1] == labels[2]:
            labels = {1: labels[1] + " (1)", 2: labels[2] + " (2)"}
        for k, v in labels.items():
            if v == TABLE_ACTOR or v.startswith("judge:"):
                labels[k] = f"Player {k}"
        self.name = labels
        self.num_of_name = {v: k for k, v in labels.items()} | {n: k for k, n in names.items()}

    def _next_move(self, i: int, pred, limit: int = 8) -> MoveLine | None:
        seen = 0
        for ln in self.lines[i + 1:]:
            if isinstance(ln, MoveLine):
                seen += 1
                if pred(ln):
                    return ln
                if seen >= limit:
                    return None
        return None

    def who(self, label: str) -> int | None:
        if label in self.num_of_you:
            return self.num_of_you[label]
        return self.num_of_name.get(label)

    # ------------------------------------------------------------------ emitting

    def emit(self, kind: str, payload: dict[str, Any], actor: int | str | None = None, *, line: int) -> None:
        actor_name = self.name[actor] if isinstance(actor, int) else (actor or TABLE_ACTOR)
        try:
            draft = self.validator.draft(kind, payload, actor=actor_name, recorded_by=self.recorded_by,
                                         head=len(self.drafts), kind_at=lambda n: None)
        except InputError as e:
            raise InputError(f"cannot record {kind}: {e.message}", where=f"{self.path}:{line}",
                             field=e.field) from None
        self.drafts.append(draft)
        rec = RecordedEvent.seal(match="import", position=len(self.drafts), kind=draft.kind,
                                 version=draft.version, actor=draft.actor, payload=draft.payload,
                                 recorded_at="", recorded_by="", prev_hash="")
        self.rs.apply(self.state, rec)
        self.state.position = rec.position

    def P(self, num: int) -> str:
        return self.name[num]

    # ------------------------------------------------------------------ the run

    def run(self) -> list[Draft]:
        self._bind_players()
        players = [self.name[1], self.name[2]]
        head = creation_draft("optcg", players, recorded_by=self.recorded_by,
                              event=None, table=None, options=None)
        head = Draft(head.kind, head.version, head.actor, head.payload, head.recorded_by, head.recorded_at)
        self.validator = EventValidator(self.rs, players)
        self.drafts = [head]
        created = RecordedEvent.seal(match="import", position=1, kind=head.kind, version=head.version,
                                     actor=head.actor, payload=head.payload, recorded_at="",
                                     recorded_by="", prev_hash="")
        self.state: TableState = self.rs.new_state(created)
        self.mirror: dict[int, list[str]] = {1: [], 2: []}
        self.pending_rest: dict[int, int] = {1: 0, 2: 0}
        self.started = False
        self.pending_refresh: int | None = None
        self.draw_marker: int | None = None
        self.counter_marker: dict[int, tuple[str, int]] = {}
        self.event_counter_marker: dict[int, str] = {}
        self.destroyed_marker: set[str] = set()
        self.setup_decided: set[int] = set()
        self.bottom_marker = False
        self.consumed: set[int] = set()
        self.attach_marker: dict[int, int] = {}
        self.last_attach: dict[int, str] = {}
        self._register()
        self.position_at_line: dict[int, int] = {}
        for i, ln in enumerate(self.lines):
            self.position_at_line[ln.n] = len(self.drafts)  # the match's last event before this line
            if isinstance(ln, MoveLine):
                self.stats.moves += 1
                self._move(i, ln)
            elif isinstance(ln, CheckLine):
                self._check(ln)
            elif isinstance(ln, TextLine):
                self._text(i, ln)
        self._flush_rests(None, line=self.lines[-1].n)
        return self.drafts

    # ------------------------------------------------------------------ setup

    def _register(self) -> None:
        leaders: dict[int, str] = {}
        first: int | None = None
        chooser: int | None = None
        first_chk: dict[int, list[int]] = {}
        for ln in self.lines:
            if isinstance(ln, PlayerLine):
                leaders.setdefault(ln.player, ln.leader)
            elif isinstance(ln, CheckLine):
                first_chk.setdefault(ln.player, ln.counts)
            elif isinstance(ln, TextLine):
                m = SPEAKER.match(ln.text)
                if not m:
                    continue
                num = self.who(m.group("who"))
                rest = m.group("rest")
                if rest.startswith("Leader is") and num is not None and card_ids(rest):
                    leaders.setdefault(num, card_ids(rest)[0])
                elif rest == "Will select turn order" and num is not None:
                    chooser = num
                elif rest.startswith("Chose to go") and num is not None:
                    first = num if rest.endswith("First") else 3 - num
        self.first = first or self._first_don_player()
        db = None
        if self.cards_db:
            from judge.io.carddb import CardDB
            db = CardDB(self.cards_db)
        seen = sorted({ln.card for ln in self.lines if isinstance(ln, MoveLine) and ln.card != "Don"})
        for num in (1, 2):
            if num not in leaders:
                raise InputError(f"the log never names player {num}'s Leader (no 'Leader is' or RZ1|PLY line)",
                                 where=self.path)
            counts = first_chk.get(num, [50, 0, 0, 0, 10, 0, 0, 0, 1, 0])
            facts = db.facts_for([leaders[num]] + seen) if db else {}
            payload = {"player": self.P(num), "leader": leaders[num], "deck_size": counts[0] + counts[1] + counts[3],
                       "don": counts[4] + counts[5] + counts[9], "source": f"OPTCGSim log {os.path.basename(self.path)}"}
            if facts:
                payload["cards"] = facts
            self.emit("deck.registered", payload, num, line=0)
        order = {"first": self.P(self.first)}
        if chooser:
            order["chosen_by"] = self.P(chooser)
        self.emit("turn.order", order, chooser, line=0)

    def _first_don_player(self) -> int:
        for ln in self.lines:
            if isinstance(ln, MoveLine) and ln.src == 4:
                return ln.player
        return 1

    def _start_game(self, line: int) -> None:
        self.started = True
        for num in (self.first, 3 - self.first):
            if num not in self.setup_decided:
                self._decide(num, "keep", line)
        self.emit("turn", {"player": self.P(self.first)}, self.first, line=line)
        self.pending_refresh = self.first

    def _decide(self, num: int, decision: str, line: int) -> None:
        if num != self.first and self.first not in self.setup_decided:
            self._decide(self.first, "keep", line)  # the simulator asks the first player first
        self.setup_decided.add(num)
        payload = {"player": self.P(num), "decision": decision}
        if decision == "mulligan":
            payload["return_hand"] = False
        self.emit("mulligan", payload, num, line=line)

    def _flush_refresh(self, line: int) -> None:
        if self.pending_refresh is not None:
            num, self.pending_refresh = self.pending_refresh, None
            self.emit("refresh", {"player": self.P(num)}, num, line=line)

    def _flush_rests(self, num: int | None, *, line: int, by: str | None = None) -> None:
        for p in ((num,) if num else (1, 2)):
            if self.pending_rest[p]:
                n, self.pending_rest[p] = self.pending_rest[p], 0
                self.emit("don.rest", {"player": self.P(p), "count": n, "by": by or self._by_near(line)}, p, line=line)

    # ------------------------------------------------------------------ moves

    def _move(self, i: int, mv: MoveLine) -> None:
        p, pl = mv.player, self.P(mv.player)
        line = mv.n
        if mv.src == 5 and mv.dst == 5:
            if mv.rested:
                self.pending_rest[p] += 1
            else:
                self._flush_rests(p, line=line)
                self.emit("don.activate", {"player": pl, "by": self._by_near(line)}, p, line=line)
            return
        if not self.started and mv.src == 4:
            self._start_game(line)
        if not (mv.src == 9 and mv.dst == 5 and self.pending_refresh is not None):
            if not (mv.src == 1 and mv.dst in (2, 6, 7)):
                self._flush_rests(p, line=line)
            if self.started and not (mv.src == 9 and mv.dst == 5):
                self._flush_refresh(line)
        battle = self.state.extra.get("battle")
        if mv.src == 0 and mv.dst == 0:
            self._deck_order(i, mv)
        elif mv.src == 0 and mv.dst == 1:
            payload = {"player": pl, "cards": [mv.card]}
            if self.started:
                if self.draw_marker == p and self.state.active == pl and self.state.phase in ("refresh", "draw"):
                    self.draw_marker = None
                else:
                    payload["by"] = self._by_near(line)
            self.emit("draw", payload, p, line=line)
        elif mv.src == 0 and mv.dst == 3 and not self.started:
            self.emit("life.placed", {"player": pl, "cards": [mv.card]}, p, line=line)
        elif mv.src == 1 and mv.dst == 0 and not self.started:
            if p not in self.setup_decided:
                self._decide(p, "mulligan", line)
            self.emit("move", {"player": pl, "from_zone": "hand", "to_zone": "deck", "card": mv.card,
                               "by": "mulligan"}, p, line=line)
        elif mv.src == 4 and mv.dst == 5:
            payload = {"player": pl, "count": 1}
            if mv.rested:
                payload["rested"] = True
            if not (self.state.active == pl and self.state.phase in ("refresh", "draw", "don")):
                payload["by"] = self._by_near(line)
            self.emit("don", payload, p, line=line)
        elif mv.src == 1 and mv.dst in (2, 7):
            self._play(i, mv)
        elif mv.src == 1 and mv.dst == 6:
            self._hand_to_trash(i, mv, battle)
        elif mv.src == 5 and mv.dst == 9:
            self._attach(i, mv)
        elif mv.src == 9 and mv.dst == 5:
            carrier = self._carrier(p, mv.src_idx)
            payload = {"player": pl, "rested": mv.rested}
            if carrier:
                payload["uid"] = carrier
            if self.pending_refresh is None and not mv.rested:
                payload["by"] = self._by_near(line)
            self.emit("don.detach", payload, p, line=line)
        elif mv.src == 2 and mv.dst == 6:
            if battle and battle.get("defender") == pl and battle.get("step") != "damage" and \
                    battle.get("target_code") == mv.card and self._destroyed_follows(i, mv.card):
                self._early_damage_step(i)
                battle = self.state.extra.get("battle")
            uid = self._mirror_uid(p, mv.src_idx, mv.card)
            in_battle = battle and battle.get("step") == "damage" and battle.get("target") == uid
            payload = {"player": pl, "card": mv.card} | ({"uid": uid} if uid else {})
            if mv.card in self.destroyed_marker or in_battle:
                self.destroyed_marker.discard(mv.card)
                if not in_battle:
                    payload["by"] = self._by_near(line)
                self.emit("ko", payload, p, line=line)
            else:
                payload |= {"from_zone": "characters", "by": self._by_near(line)}
                self.emit("trash", payload, p, line=line)
            self._mirror_pop(p, mv.src_idx, uid)
        elif mv.src == 3 and mv.dst in (1, 6):
            if battle and battle.get("defender") == pl and battle.get("step") != "damage":
                self._early_damage_step(i)
                battle = self.state.extra.get("battle")
            payload = {"player": pl, "card": mv.card, "to": "hand" if mv.dst == 1 else "trash"}
            if not (battle and battle.get("defender") == pl and battle.get("step") == "damage"):
                payload["by"] = self._by_near(line)
            self.emit("life.taken", payload, p, line=line)
        else:
            self._generic(i, mv)
        self._mirror_sync(p)

    def _early_damage_step(self, i: int) -> None:
        """The simulator writes the Life move before the `A[p] vs B[q]` line: judge in the manual's
        order (damage step, then the Life card), using that line's powers."""
        for ln in self.lines[i + 1:i + 12]:
            if isinstance(ln, TextLine):
                b = BATTLE.match(ln.text)
                if b:
                    self.consumed.add(ln.n)
                    self.emit("damage.step", {"attacker_power": int(b.group("ap")),
                                              "target_power": int(b.group("tp"))}, None, line=ln.n)
                    return
                if " attacking " in ln.text or ln.text.endswith("End Turn"):
                    return

    def _target_by_lookahead(self, i: int, defender: int, code: str) -> str | None:
        """Two copies of a Character: the K.O. move later in this battle names the slot attacked."""
        for ln in self.lines[i + 1:i + 40]:
            if isinstance(ln, TextLine) and (" attacking " in ln.text or ln.text.endswith("End Turn")):
                return None
            if isinstance(ln, MoveLine) and ln.src == 2 and ln.dst == 6 and ln.player == defender and ln.card == code:
                return self._mirror_uid(defender, ln.src_idx, code)
        return None

    def _destroyed_follows(self, i: int, code: str) -> bool:
        """`A[p] vs B[q]` and then `B Destroyed` right after this move: a K.O. written early."""
        seen_vs = False
        for ln in self.lines[i + 1:i + 8]:
            if isinstance(ln, TextLine):
                if BATTLE.match(ln.text):
                    seen_vs = True
                elif seen_vs and ln.text.endswith(" Destroyed") and code in card_ids(ln.text):
                    return True
                elif seen_vs:
                    return False
        return False

    def _rest_effect(self, i: int, num: int, source: str, target: str, action: str, line: int) -> None:
        """`X: Rest Y` / `X: Set Y to Active`: whose Y? The log does not say; decide from the table."""
        me, them = self.P(num), self.P(3 - num)
        want_rested = action == "rest"

        def candidate(player: str):
            return self.rs._field_card(self.state, player, None, target, rested=not want_rested)

        def usable(player: str) -> bool:
            c = candidate(player)
            return c is not None and T.is_rested(c) != want_rested

        own, other = usable(me), usable(them)
        if own and other:
            # attacked later this turn: it was the opponent's; else a cost paid with one's own
            mine = sum(1 for c in self.state.zone(me, "characters") + self.state.zone(me, "leader")
                       if c.code == target and not T.is_rested(c))
            owner = them if want_rested and (self._later_this_turn(i, target)
                                             or self._later_attacks_with(i, target) >= mine) else me
        elif own or other:
            owner = me if own else them
        else:
            self._annotate(line, f"{source}: {action} {target}: no such card to {action}", source="optcgsim")
            return
        kind = "rest" if want_rested else "set.active"
        payload = {"player": owner, "card": target, "by": f"{source}: {'Rest' if want_rested else 'Set active'} {target}"}
        if want_rested and owner == them:
            uid = self._attacked_uid_later(i, 3 - num, target)
            if uid:
                payload["uid"] = uid
        self.emit(kind, payload, num, line=line)

    def _attacked_uid_later(self, i: int, defender: int, code: str) -> str | None:
        for k in range(i + 1, len(self.lines)):
            ln = self.lines[k]
            if isinstance(ln, TextLine):
                if ln.text.endswith("End Turn"):
                    return None
                if " attacking " in ln.text and code in card_ids(ln.text.split(" attacking ", 1)[1]):
                    return self._target_by_lookahead(k, defender, code)
        return None

    def _later_attacks_with(self, i: int, code: str) -> int:
        """How many attacks with `code` follow this turn (each needs an active copy)."""
        n = 0
        for ln in self.lines[i + 1:]:
            if isinstance(ln, TextLine):
                if ln.text.endswith("End Turn"):
                    break
                if " attacking " in ln.text and code in card_ids(ln.text.split(" attacking ", 1)[0]):
                    n += 1
        return n

    def _later_this_turn(self, i: int, code: str) -> bool:
        """Is `code` attacked later this turn? Then the rested one was the opponent's."""
        for ln in self.lines[i + 1:]:
            if isinstance(ln, TextLine):
                if ln.text.endswith("End Turn"):
                    return False
                if " attacking " in ln.text:
                    if code in card_ids(ln.text.split(" attacking ", 1)[1]):
                        return True
        return False

    def _deck_order(self, i: int, mv: MoveLine) -> None:
        prev = self._prev_move(i)
        if prev is not None and prev.src == 0 and prev.dst == 0 and prev.player == mv.player:
            return  # one event per run of deck re-orderings
        by = "cards placed at the bottom of the deck" if self._text_near(i, "Placing Cards on Bottom") else \
            ("shuffled" if not self.started else self._by_near(mv.n))
        self.emit("shuffle", {"player": self.P(mv.player), "by": by}, mv.player, line=mv.n)

    def _prev_move(self, i: int) -> MoveLine | None:
        for ln in reversed(self.lines[:i]):
            if isinstance(ln, MoveLine):
                return ln
            if isinstance(ln, TextLine):
                return None
        return None

    def _text_near(self, i: int, needle: str, span: int = 6) -> bool:
        lo, hi = max(0, i - span), min(len(self.lines), i + span)
        return any(isinstance(ln, TextLine) and needle in ln.text for ln in self.lines[lo:hi])

    def _play(self, i: int, mv: MoveLine) -> None:
        p, pl = mv.player, self.P(mv.player)
        deploy = self._deploy_marker(i, mv.card)
        payload: dict[str, Any] = {"player": pl, "card": mv.card, "area": "character" if mv.dst == 2 else "stage",
                                   "paid": self.pending_rest[p]}
        self.pending_rest[p] = 0
        if not deploy:
            payload["by"] = self._by_near(mv.n)
        if mv.rested:
            payload["rested"] = True
            payload.setdefault("by", self._by_near(mv.n))
        if mv.dst == 2 and len(self.state.zone(pl, "characters")) >= 5:
            payload["trash_uid"] = None  # the log trashes with its own move, before this one
            payload.pop("trash_uid")
        self.emit("play", payload, p, line=mv.n)
        if mv.dst == 2:
            new = self.state.zone(pl, "characters")[-1].uid
            self.mirror[p].insert(min(mv.dst_idx, len(self.mirror[p])), new)

    def _deploy_marker(self, i: int, card: str) -> bool:
        """A bare `[X] Deploy Name [card]` just before: played from the hand by its owner."""
        for ln in reversed(self.lines[max(0, i - 6):i]):
            if isinstance(ln, TextLine):
                m = SPEAKER.match(ln.text)
                if m and m.group("rest").startswith("Deploy ") and card in card_ids(m.group("rest")):
                    return True
                if m and ":" in strip_refs(m.group("rest")):
                    return False
        return False

    def _hand_to_trash(self, i: int, mv: MoveLine, battle: dict | None) -> None:
        p, pl = mv.player, self.P(mv.player)
        defending = battle and battle.get("defender") == pl and battle.get("step") != "damage"
        if p in self.counter_marker and self.counter_marker[p][0] == mv.card:
            _, amount = self.counter_marker.pop(p)
            self._flush_rests(p, line=mv.n)
            self.emit("counter", {"player": pl, "card": mv.card, "kind": "character", "amount": amount}, p, line=mv.n)
        elif self.event_counter_marker.get(p) == mv.card or (defending and self.pending_rest[p]):
            self.event_counter_marker.pop(p, None)
            paid, self.pending_rest[p] = self.pending_rest[p], 0
            self.emit("counter", {"player": pl, "card": mv.card, "kind": "event", "paid": paid}, p, line=mv.n)
        elif self.pending_rest[p] and self.state.active == pl:
            paid, self.pending_rest[p] = self.pending_rest[p], 0
            self.emit("play", {"player": pl, "card": mv.card, "area": "event", "paid": paid}, p, line=mv.n)
        else:
            self._flush_rests(p, line=mv.n)
            self.emit("trash", {"player": pl, "from_zone": "hand", "card": mv.card, "by": self._by_near(mv.n)},
                      p, line=mv.n)

    def _attach(self, i: int, mv: MoveLine) -> None:
        p, pl = mv.player, self.P(mv.player)
        target = self._carrier(p, mv.dst_idx)
        payload: dict[str, Any] = {"player": pl}
        if target:
            payload["to"] = target
        else:
            payload["card"] = self.state.zone(pl, "leader")[0].code if mv.dst_idx >= 9900 else mv.card
        if self.attach_marker.get(p, 0) > 0:
            self.attach_marker[p] -= 1
        else:
            payload["by"] = self._by_near(mv.n)
        self.emit("don.attach", payload, p, line=mv.n)
        if target:
            self.last_attach[p] = target

    def _carrier(self, p: int, idx: int) -> str | None:
        """The card a DON!! index points at: 99xx the Leader, 100*i + k the i-th Character."""
        pl = self.P(p)
        if idx >= 9900:
            leader = self.state.zone(pl, "leader")
            return leader[0].uid if leader else None
        slot = idx // 100
        chars = self.mirror[p]
        return chars[slot] if slot < len(chars) else None

    def _generic(self, i: int, mv: MoveLine) -> None:
        p, pl = mv.player, self.P(mv.player)
        src, dst = ZONES[mv.src], ZONES[mv.dst]
        if "leader" in (src, dst) or mv.card == "Don" and src not in ("don_deck", "cost", "attached"):
            self._annotate(mv.n, f"move not applied: {mv.card} {src} -> {dst}")
            return
        if mv.card == "Don" and dst == "don_deck":
            self.emit("don.minus", {"player": pl, "source": "attached" if src == "attached" else "cost",
                                    "by": self._by_near(mv.n)}, p, line=mv.n)
            return
        payload: dict[str, Any] = {"player": pl, "from_zone": src, "to_zone": dst, "card": mv.card,
                                   "by": self._by_near(mv.n)}
        if src == "characters":
            uid = self._mirror_uid(p, mv.src_idx, mv.card)
            if uid:
                payload["uid"] = uid
        if dst == "deck" and mv.dst_idx == 0:
            payload["where"] = "bottom"
        self.emit("move", payload, p, line=mv.n)
        if src == "characters":
            self._mirror_pop(p, mv.src_idx, payload.get("uid"))
        if dst == "characters":
            self.mirror[p].insert(min(mv.dst_idx, len(self.mirror[p])), self.state.zone(pl, "characters")[-1].uid)

    # --- the Character mirror: OPTCGSim's slot order -> our card instances ---------------------

    def _mirror_uid(self, p: int, idx: int, code: str) -> str | None:
        chars = self.mirror[p]
        if idx < len(chars):
            hit = self.rs._field_card(self.state, self.P(p), chars[idx], None, zones=("characters",))
            if hit is not None and hit.code in (code, None):
                return chars[idx]
        return None

    def _mirror_pop(self, p: int, idx: int, uid: str | None) -> None:
        chars = self.mirror[p]
        if uid in chars:
            chars.remove(uid)
        elif idx < len(chars):
            chars.pop(idx)

    def _mirror_sync(self, p: int) -> None:
        """Keep the mirror to the cards really there (an effect may have moved one we did not see)."""
        live = [c.uid for c in self.state.zone(self.P(p), "characters")]
        self.mirror[p] = [u for u in self.mirror[p] if u in live] + [u for u in live if u not in self.mirror[p]]

    # ------------------------------------------------------------------ checks

    def _check(self, chk: CheckLine) -> None:
        self.stats.chk_checked += 1
        pl = self.P(chk.player)
        for zi, expected in enumerate(chk.counts):
            zone = ZONES[zi]
            have = len(self.state.zone(pl, zone))
            if have != expected:
                miss = {"line": chk.n, "player": pl, "zone": zone, "log": expected, "replay": have}
                self.stats.chk_mismatches.append(miss)
                self._annotate(chk.n, f"RZ1|CHK mismatch: {pl}'s {zone} holds {have} by replay, "
                                      f"{expected} by the log", source="optcgsim-check")

    def _summary(self, n: int, name: str, what: str, val: str) -> None:
        num = self.who(name)
        if num is None or what.startswith("Hand ") or not self.started:
            return
        pl = self.P(num)
        if what == "Life":
            got: Any = len(self.state.zone(pl, "life"))
            want: Any = int(val) if val.strip().lstrip("-").isdigit() else val
        else:
            zone = {"Hand": "hand", "Board": "characters", "Trash": "trash"}[what]
            got = sorted(c.code or "?" for c in self.state.zone(pl, zone))
            want = sorted(x.strip() for x in val.strip("[] ").split(",") if x.strip())
        self.stats.summaries_checked += 1
        self.stats.last_summary.setdefault(pl, {})[what] = want
        if got != want:
            self.stats.summary_mismatches.append({"line": n, "player": pl, "what": what, "log": want, "replay": got})
            self._annotate(n, f"summary mismatch: {pl}'s {what} is {want} in the log, {got} by replay",
                           source="optcgsim-check")

    # ------------------------------------------------------------------ readable lines

    def _by_near(self, line: int) -> str:
        """The effect a move belongs to: the nearest `[X] Card [id]: action` line around it."""
        idx = next((k for k, ln in enumerate(self.lines) if ln.n >= line), len(self.lines) - 1)
        best = None
        for k in list(range(idx + 1, min(len(self.lines), idx + 5))) + list(range(idx - 1, max(-1, idx - 5), -1)):
            ln = self.lines[k]
            if isinstance(ln, TextLine):
                m = SPEAKER.match(ln.text)
                if m and ":" in m.group("rest") and card_ids(m.group("rest").split(":", 1)[0]):
                    ids = card_ids(m.group("rest").split(":", 1)[0])
                    action = strip_refs(m.group("rest").split(":", 1)[1])
                    best = f"{ids[0]}: {action}"[:120]
                    break
        return best or "an effect (not named in the log)"

    def _annotate(self, n: int, text: str, source: str = "optcgsim") -> None:
        self.emit("annotation", {"text": text, "line": n, "source": source}, None, line=n)

    def _text(self, i: int, ln: TextLine) -> None:
        text, n = ln.text, ln.n
        if n in self.consumed:
            return
        m = SPEAKER.match(text)
        if m is None:
            b = BATTLE.match(text)
            if b:
                self._flush_rests(None, line=n)
                if self.state.extra.get("battle"):
                    self.emit("damage.step", {"attacker_power": int(b.group("ap")),
                                              "target_power": int(b.group("tp"))}, None, line=n)
                return
            if text in ("Attack Fails", "GameOver") or re.fullmatch(r".+ hit for \d+ damage", text):
                if text == "GameOver" and self.state.result:
                    r = self.state.result
                    self.emit("game.end", {"how": r["how"] if r["how"] in ("life", "deck-out", "concession") else "other",
                                           "winner": r.get("winner")}, None, line=n)
                return
            self._annotate(n, text, source="optcgsim-meta" if _meta(text) else "optcgsim")
            if not _meta(text):
                self.stats.unparsed += 1
            return
        who, rest = m.group("who"), m.group("rest")
        num = self.who(who)
        s = SUMMARY.match(rest)
        if s:
            self._summary(n, who, s.group("what"), s.group("val"))
            return
        if num is None:
            self._annotate(n, text)
            self.stats.unparsed += 1
            return
        pl = self.P(num)
        if rest.startswith("Drew card from deck") or rest.startswith("Leader is") or \
                rest in ("Will select turn order", "Mulligan") or rest.startswith("Chose to go") or \
                re.fullmatch(r"Draw \d+ Don", rest) or rest.startswith("Deploy ") or \
                rest == "Placing Cards on Bottom of Deck" or \
                (rest.startswith("Trash ") and card_ids(rest)):
            return
        a = re.match(r"Attach (\d+) Don to ", rest)
        if a:
            self.attach_marker[num] = int(a.group(1))
            return
        if re.fullmatch(r"Draw \d+ Cards?", rest):
            self.draw_marker = num
            return
        if rest == "End Turn":
            self._flush_rests(None, line=n)
            self._flush_refresh(n)
            if self.state.active == pl:
                self.emit("turn.end", {"player": pl}, num, line=n)
                nxt = 3 - num
                self.emit("turn", {"player": self.P(nxt)}, nxt, line=n)
                self.pending_refresh = nxt
            else:
                self._annotate(n, text)
                self.stats.unparsed += 1
            return
        if rest in ("Concedes!", "Quits!"):
            if self.state.result is None:
                self.emit("concede", {"player": pl}, num, line=n)
            elif rest == "Quits!":
                self._annotate(n, text, source="optcgsim-meta")
            return
        if " attacking " in rest:
            a_txt, t_txt = rest.split(" attacking ", 1)
            a_ids, t_ids = card_ids(a_txt), card_ids(t_txt)
            if a_ids and t_ids:
                self._flush_rests(None, line=n)
                self._flush_refresh(n)
                payload = {"player": pl, "attacker": a_ids[0], "target": t_ids[0]}
                hint = self.last_attach.get(num)
                card = self.rs._field_card(self.state, pl, hint, None) if hint else None
                if card is not None and card.code == a_ids[0] and not T.is_rested(card):
                    payload = {"player": pl, "attacker_uid": hint, "attacker": a_ids[0], "target": t_ids[0]}
                target_uid = self._target_by_lookahead(i, 3 - num, t_ids[0])
                if target_uid:
                    payload["target_uid"] = target_uid
                self.emit("attack", payload, num, line=n)
                return
        d = re.fullmatch(r"Discard (.+) for Counter (\d+)", rest)
        if d and card_ids(d.group(1)):
            self.counter_marker[num] = (card_ids(d.group(1))[0], int(d.group(2)))
            return
        if rest.endswith(" Destroyed") and card_ids(rest):
            self.destroyed_marker.add(card_ids(rest)[0])
            return
        if ":" in rest and card_ids(rest.split(":", 1)[0]):
            code = card_ids(rest.split(":", 1)[0])[0]
            action = strip_refs(rest.split(":", 1)[1]).replace("<b>", "").replace("</b>", "").strip()
            if action == "Activate Counter":
                self.event_counter_marker[num] = code
            target = card_ids(rest.split(":", 1)[1])
            raw = rest.split(":", 1)[1].strip()
            is_rest = re.fullmatch(r'Rest [^\[]+\["[^"]+">[^\]]*\]', raw)
            is_active = re.fullmatch(r'Set [^\[]+\["[^"]+">[^\]]*\] to Active', raw)
            if len(target) == 1 and target[0] != "Don" and (is_rest or is_active):
                self._rest_effect(i, num, code, target[0], "rest" if is_rest else "active", n)
                return
            self.emit("effect", {"player": pl, "card": code, "timing": "other", "text": action[:200]}, num, line=n)
            return
        self._annotate(n, text, source="optcgsim-chat" if "<size" in rest or "<b>" in rest else "optcgsim")
        if not ("<size" in rest or "<b>" in rest):
            self.stats.unparsed += 1


def _meta(text: str) -> bool:
    return bool(re.match(r"(Waiting for a Connection|Your Client Has Connected|Opponent Has (Dis)?[Cc]onnected|Version is)", text))
