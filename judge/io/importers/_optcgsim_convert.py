"""OPTCGSim moves -> events of the `optcg` vocabulary, for one game (one job: the conversion).

Every `RZ1` move becomes an event (deck -> hand a `draw`, hand -> characters a `play` paying the
DON!! rested just before it, cost area -> attached a `don.attach`, characters -> trash a `ko` or a
`trash`, Life -> hand a `life.taken`, ...), read together with the readable lines around it
(`_optcgsim_text`). Each event is applied to the ruleset's own table as it is made, so that:
- after each move the table's zone counts are compared with the move's `RZ1|CHK` line, and every
  Hand/Board/Trash/Life summary with the table (`_optcgsim_checks`); a mismatch is counted and kept
  in the match: a `RZ1|CHK` count as a `log.count` event (the ruleset flags it, OPTCG-SIM-1), a
  summary as an `annotation` naming the line and zone;
- with `judge`, each event is also judged against the table before it, exactly as `validate`
  judges the stored match, so an import says how many findings it has without reading it back.

A game whose log writes no Life moves (1.40a) gets them modelled: before the first turn each
player's Life cards leave the deck face down (`life.placed`, unnamed; as many as that player's first
`Life: n` summary says, else 5), and each `hit for N damage` line takes N of them into the hand.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from engine.events import TABLE_ACTOR, Draft, RecordedEvent, default_recorder_name
from engine.findings import Finding
from engine.match import EventValidator, InputError, creation_draft
from engine.replay import as_played
from engine.rulesets import get_ruleset
from engine.state import TableState

from judge.io.importers._optcgsim_checks import count_mismatches, summary_mismatch
from judge.io.importers._optcgsim_games import Game
from judge.io.importers._optcgsim_lines import (
    ZONES,
    DRAW_CARDS,
    CheckLine,
    HeaderLine,
    Line,
    MoveLine,
    OtherLine,
    TextLine,
)
from judge.io.importers._optcgsim_seats import Seats, bind
from judge.io.importers._optcgsim_text import ReadableLines
from judge.io.importers._optcgsim_version import has_life_moves
from judge.numbers import whole_number

DEFAULT_COUNTS = [50, 0, 0, 0, 10, 0, 0, 0, 1, 0]  # a fresh game's zones, as the first RZ1|CHK reads


@dataclass
class Stats:
    moves: int = 0
    chk_checked: int = 0
    chk_mismatches: list[dict[str, Any]] = field(default_factory=list)
    summaries_checked: int = 0
    summary_mismatches: list[dict[str, Any]] = field(default_factory=list)
    unparsed: int = 0
    unknown_kind: int = 0      # RZ1|TAG lines of a kind not known here


class Converter(ReadableLines):
    """One game's lines -> drafts (`run()`), with the stats of the log's own checks."""

    def __init__(self, game: Game, path: str, *, recorded_by: str | None = None,
                 facts: dict[str, dict[str, Any]] | None = None, judge: bool = False):
        self.game = game
        self.path = path
        self.recorded_by = recorded_by or default_recorder_name()
        self.facts = facts or {}
        self.judge = judge
        # the game's lines, then its tail's readable lines (chat, GameOver): the tail's RZ1 lines
        # belong to no game (a stream reset's clearing moves)
        self.lines: list[Line] = game.lines + [ln for ln in game.tail if isinstance(ln, TextLine)]
        self.index_of = {ln.n: k for k, ln in enumerate(self.lines)}
        self.stats = Stats()
        self.drafts: list[Draft] = []
        self.findings: list[Finding] = []
        self.outcome: dict[str, Any] | None = None  # what an ending line said (certain or not)
        self.warnings: list[dict[str, Any]] = []  # what the import summary says of this game's lines
        self.rs = get_ruleset("optcg")()
        self.model_life = not has_life_moves(game)

    # ------------------------------------------------------------------ emitting

    def emit(self, kind: str, payload: dict[str, Any], actor: int | str | None = None, *, line: int) -> None:
        actor_name = self.name[actor] if isinstance(actor, int) else (actor or TABLE_ACTOR)
        try:
            draft = self.validator.draft(kind, payload, actor=actor_name, recorded_by=self.recorded_by,
                                         head=len(self.drafts), kind_at=_no_kind)
        except InputError as e:
            raise InputError(f"cannot record {kind}: {e.message}", where=f"{self.path}:{line}",
                             field=e.field) from None
        self.drafts.append(draft)
        # the event as the table sees it; its hash is the store's business, not the table's
        rec = RecordedEvent("import", len(self.drafts), draft.kind, draft.version, draft.actor,
                            draft.payload, "", "", "", "")
        if self.judge:
            # the events before it, as Match and replay give them: a check that names an earlier
            # event by its position (OPTCG-SETUP-6's Life placements) says it here too
            self.findings.extend(self.rs.check(self.state, rec, self._history))
        self.rs.apply(self.state, rec)
        self.state.position = rec.position
        self.made.append(rec)

    def _history(self) -> list[RecordedEvent]:
        return as_played(self.made)

    def P(self, num: int) -> str:
        return self.name[num]

    # ------------------------------------------------------------------ the run

    def run(self) -> list[Draft]:
        self.seats: Seats = bind(self.lines, self.path)
        self.name = self.seats.name
        self.first = self.seats.first
        players = [self.name[1], self.name[2]]
        head = creation_draft("optcg", players, recorded_by=self.recorded_by,
                              event=None, table=None, options=None)
        head = Draft(head.kind, head.version, head.actor, head.payload, head.recorded_by, head.recorded_at)
        self.validator = EventValidator(self.rs, players)
        self.drafts = [head]
        created = RecordedEvent("import", 1, head.kind, head.version, head.actor, head.payload, "", "", "", "")
        self.state: TableState = self.rs.new_state(created)
        self.made: list[RecordedEvent] = []  # the events after `created`, as the table saw them
        self.mirror: dict[int, list[str]] = {1: [], 2: []}
        self.pending_rest: dict[int, int] = {1: 0, 2: 0}
        self.started = False
        self.pending_refresh: int | None = None
        self.draw_marker: int | None = None
        self.counter_marker: dict[int, tuple[str, int]] = {}
        self.event_counter_marker: dict[int, str] = {}
        self.destroyed_marker: set[str] = set()
        self.setup_decided: set[int] = set()
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
            elif isinstance(ln, HeaderLine):
                self._annotate(ln.n, f"RZ1|HDR|{ln.version}|{ln.format}|RZ1", source="optcgsim-meta")
            elif isinstance(ln, OtherLine):
                self._annotate(ln.n, ln.text, source="optcgsim-unknown")
                self.stats.unknown_kind += 1
        self._flush_rests(None, line=self.lines[-1].n)
        return self.drafts

    # ------------------------------------------------------------------ setup

    def _register(self) -> None:
        first_chk: dict[int, list[int]] = {}
        for ln in self.lines:
            if isinstance(ln, CheckLine):
                first_chk.setdefault(ln.player, ln.counts)
                if len(first_chk) == 2:
                    break
        seen = sorted({ln.card for ln in self.lines if isinstance(ln, MoveLine) and ln.card != "Don"})
        for num in (1, 2):
            counts = first_chk.get(num, DEFAULT_COUNTS)
            leader = self.seats.leaders[num]
            payload: dict[str, Any] = {
                "player": self.P(num), "leader": leader, "deck_size": counts[0] + counts[1] + counts[3],
                "don": counts[4] + counts[5] + counts[9], "source": f"OPTCGSim log {os.path.basename(self.path)}"}
            facts = {c: self.facts[c] for c in [leader] + seen if c in self.facts}
            if facts:
                payload["cards"] = facts
            self.emit("deck.registered", payload, num, line=0)
        order = {"first": self.P(self.first)}
        chooser = self.seats.chooser
        if chooser:
            order["chosen_by"] = self.P(chooser)
        self.emit("turn.order", order, chooser, line=0)

    def _draw_line_follows(self, i: int, p: int) -> bool:
        """1.40a writes the draw phase's `[X] Draw 1 Card` after the draw's move (1.43 before it)."""
        for k in range(i + 1, min(len(self.lines), i + 3)):
            ln = self.lines[k]
            if isinstance(ln, TextLine) and ln.who is not None and self.seats.who(ln.who) == p \
                    and DRAW_CARDS.fullmatch(ln.rest):
                self.consumed.add(ln.n)
                return True
        return False

    def _initial_life(self, num: int) -> int:
        """How many Life cards a player places: the Leader's Life if its facts are known, else the
        player's first `Life: n` summary (printed after the first turn, before any damage), else 5."""
        life = self.facts.get(self.seats.leaders[num], {}).get("life")
        if isinstance(life, int) and 0 < life <= 10:
            return life
        for ln in self.lines:
            if isinstance(ln, TextLine) and ln.who is not None and self.seats.who(ln.who) == num \
                    and ln.rest.startswith("Life: "):
                value = whole_number(ln.rest[6:].strip())  # a typed line: "Life: 5555…" is not a count
                if value is not None and 0 < value <= 10:
                    return value
        return 5

    def _start_game(self, line: int) -> None:
        self.started = True
        for num in (self.first, 3 - self.first):
            if num not in self.setup_decided:
                self._decide(num, "keep", line)
        if self.model_life:
            for num in (self.first, 3 - self.first):
                self.emit("life.placed", {"player": self.P(num), "count": self._initial_life(num)}, num, line=line)
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
        replacing = self._replaced_by_play(i, mv) if mv.src in (2, 7) and mv.dst == 6 else None
        if not (mv.src == 9 and mv.dst == 5 and self.pending_refresh is not None):
            if not (mv.src == 1 and mv.dst in (2, 6, 7)) and not replacing:
                self._flush_rests(p, line=line)
            if self.started and not (mv.src == 9 and mv.dst == 5):
                self._flush_refresh(line)
        battle = self.state.extra.get("battle")
        if mv.src == 0 and mv.dst == 0:
            self._deck_order(i, mv)
        elif mv.src == 0 and mv.dst == 1:
            payload = {"player": pl, "cards": [mv.card]}
            if self.started:
                in_draw_phase = self.state.active == pl and self.state.phase in ("refresh", "draw")
                if in_draw_phase and self.draw_marker == p:
                    self.draw_marker = None
                elif not (in_draw_phase and self._draw_line_follows(i, p)):
                    payload["by"] = self._by_near(line)
            self.emit("draw", payload, p, line=line)
        elif mv.src == 0 and mv.dst == 3 and not self.started:
            self.emit("life.placed", {"player": pl, "cards": [mv.card]}, p, line=line)
        elif mv.src == 1 and mv.dst == 0 and not self.started:
            if p not in self.setup_decided:
                self._decide(p, "mulligan", line)
            payload = {"player": pl, "from_zone": "hand", "to_zone": "deck", "card": mv.card, "by": "mulligan"}
            if self.model_life:
                # the deck is shuffled after a mulligan: these cards are somewhere in it, and the
                # Life cards the log does not name are taken from the top, so keep them off the top
                payload["where"] = "bottom"
            self.emit("move", payload, p, line=line)
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
        elif replacing:
            # trashed to make room for the play that follows (a rule, not an effect: no `by`)
            uid = self._mirror_uid(p, mv.src_idx, mv.card) if mv.src == 2 else None
            self.emit("trash", {"player": pl, "card": mv.card, "from_zone": ZONES[mv.src]}
                      | ({"uid": uid} if uid else {}), p, line=line)
            if mv.src == 2:
                self._mirror_pop(p, mv.src_idx, uid)
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

    def _deck_order(self, i: int, mv: MoveLine) -> None:
        prev = self._prev_move(i)
        if prev is not None and prev.src == 0 and prev.dst == 0 and prev.player == mv.player:
            return  # one event per run of deck re-orderings
        by = "cards placed at the bottom of the deck" if self._text_near(i, "Placing Cards on Bottom") else \
            ("shuffled" if not self.started else self._by_near(mv.n))
        self.emit("shuffle", {"player": self.P(mv.player), "by": by}, mv.player, line=mv.n)

    def _prev_move(self, i: int) -> MoveLine | None:
        for k in range(i - 1, max(-1, i - 400), -1):
            ln = self.lines[k]
            if isinstance(ln, MoveLine):
                return ln
            if isinstance(ln, TextLine):
                return None
        return None

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
        for zone, expected, have in count_mismatches(self.state, pl, chk.counts):
            self.stats.chk_mismatches.append({"line": chk.n, "player": pl, "zone": zone, "log": expected,
                                              "replay": have})
            # the log's count, recorded as a fact: the ruleset judges it (OPTCG-SIM-1, a warning
            # `validate` and the report show); a count that agrees adds nothing to the record
            self.emit("log.count", {"player": pl, "zone": zone, "count": expected, "line": chk.n,
                                    "source": "RZ1|CHK"}, None, line=chk.n)

    def _summary(self, n: int, name: str, what: str, val: str) -> None:
        num = self.seats.who(name)
        if num is None or what.startswith("Hand ") or not self.started:
            return
        pl = self.P(num)
        self.stats.summaries_checked += 1
        miss = summary_mismatch(self.state, pl, what, val)
        if miss is None:
            return
        self.stats.summary_mismatches.append({"line": n, "player": pl, "what": what, **miss})
        self._annotate(n, f"summary mismatch: {pl}'s {what} is {miss['log']} in the log, {miss['replay']} "
                          "by replay", source="optcgsim-check")


def _no_kind(position: int) -> None:
    return None
