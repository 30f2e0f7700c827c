"""The readable lines of an OPTCGSim game -> events (a part of the `Converter`, kept apart).

One job: what a `[actor] ...` line or a line without an actor says, and what it tells about the
moves around it (whose effect moved a card, which of two equal Characters was attacked, whether a
Character was K.O.'d in battle). The moves themselves are in `_optcgsim_convert`.

Card references come in two shapes, read alike: `Name ["ID">ID]` (downloaded logs) and
`Name [<mark><link="ID">ID</link></mark>]` (AutoSaved logs).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from engine.rulesets.optcg import table as T

from judge.io.importers._optcgsim_endings import ending
from judge.io.importers._optcgsim_lines import (CARD_REF_PATTERN, DRAW_CARDS, MARKUP, Line, MoveLine, TextLine,
                                                card_ids, plain, strip_refs)

SUMMARY = re.compile(r"^(?P<what>Hand|Board|Trash|Life|Hand before Mulligan|Hand after Mulligan):\s*(?P<val>.*)$")
BATTLE = re.compile(r"^(?P<a>.+?)\[(?P<ap>-?[0-9]{1,9})\]\s+vs\s+(?P<t>.+?)\[(?P<tp>-?[0-9]{1,9})\]$")
HIT = re.compile(r"(?P<who>.+) hit for (?P<n>[0-9]{1,3}) damage")
REST_EFFECT = re.compile(rf"Rest [^\[]+{CARD_REF_PATTERN}")
ACTIVE_EFFECT = re.compile(rf"Set [^\[]+{CARD_REF_PATTERN} to Active")
ATTACH = re.compile(r"Attach ([0-9]{1,3}) Don to ")
BUFF = re.compile(rf"Buff [^\[]+{CARD_REF_PATTERN} (?P<amount>[+-]?[0-9]{{1,6}})(?P<combat> for the Combat)?")
GIVE_KEYWORD = re.compile(rf"Give [^\[]+{CARD_REF_PATTERN} (?P<kw>Rush|Blocker|Double Attack|Banish)")
EFFECT_DRAWS = re.compile(r"Draw (?P<n>[0-9]{1,2}) Cards?")  # an effect's `Card [id]: Draw 2 Card`
DRAW_DON = re.compile(r"Draw [0-9]+ Don")
COUNTER = re.compile(r"Discard (.+) for Counter ([0-9]{1,6})")
META = re.compile(r"(Waiting for a Connection|Attempting to connect|.+ Has Connected|Version is|"
                  r"Opponent is Ready for Rematch)")
SILENT = ("Drew card from deck", "Leader is", "Chose to go", "Deploy ", "Hand before Mulligan")
LOOKAHEAD = 400  # lines: "later this turn" never looks further (a hostile file has no End Turn)
MAX_ANNOTATION = 1_000


class ReadableLines:
    """Mixin of `Converter` (its table, emitter and markers): the readable lines, and the
    look-around helpers the moves use."""

    lines: list[Line]
    index_of: dict[int, int]
    consumed: set[int]
    seats: Any
    _announced_moves: dict[int, str] | None = None  # built once, by _announced

    def _ahead(self, i: int, span: int = LOOKAHEAD) -> Iterator[Line]:
        lines = self.lines
        for k in range(i + 1, min(len(lines), i + 1 + span)):
            yield lines[k]

    def _early_damage_step(self, i: int) -> None:
        """The simulator writes the Life move before the `A[p] vs B[q]` line: judge in the manual's
        order (damage step, then the Life card), using that line's powers."""
        for ln in self._ahead(i, 11):
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
        for ln in self._ahead(i, 39):
            if isinstance(ln, TextLine) and (" attacking " in ln.text or ln.text.endswith("End Turn")):
                return None
            if isinstance(ln, MoveLine) and ln.src == 2 and ln.dst == 6 and ln.player == defender and ln.card == code:
                return self._mirror_uid(defender, ln.src_idx, code)
        return None

    def _destroyed_follows(self, i: int, code: str) -> bool:
        """`A[p] vs B[q]` and then `B Destroyed` right after this move: a K.O. written early."""
        seen_vs = False
        for ln in self._ahead(i, 7):
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

        def usable(player: str) -> bool:
            c = self.rs._field_card(self.state, player, None, target, rested=not want_rested)
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

    def _give_keyword(self, num: int, source: str, target: str, keyword: str, line: int) -> bool:
        """`X: Give Y Rush`: Y (the player's own card on the field, the one played last if two)
        gains the keyword this turn. False when there is no such card (then kept as an effect)."""
        pl = self.P(num)
        cards = [c for c in self.state.zone(pl, "characters") + self.state.zone(pl, "leader") if c.code == target]
        if not cards:
            return False
        self.emit("keyword.gain", {"player": pl, "uid": cards[-1].uid, "card": target, "keyword": keyword,
                                   "by": f"{source}: Give {target} {keyword.title()}"}, num, line=line)
        return True

    def _buff(self, num: int, source: str, target: str, amount: int, combat: bool, line: int) -> bool:
        """`X: Buff Y N [for the Combat]`: Y's power changes by N for this battle (`for the Combat`)
        or this turn. The log does not say whose Y: a card in the battle first, then (a raise) the
        player's own card or (a cut) the opponent's, the one played last if two. False when no
        Leader or Character on the field has that number (then kept as an effect)."""
        b = self.state.extra.get("battle") or {}
        fighting = {b.get("attacker"), b.get("target")} - {None}
        sides = [self.P(num), self.P(3 - num)] if amount >= 0 else [self.P(3 - num), self.P(num)]
        found = [(pl, c) for pl in sides for c in [*reversed(self.state.zone(pl, "characters")),
                                                   *self.state.zone(pl, "leader")] if c.code == target]
        if not found:
            return False
        pl, card = next((hit for hit in found if hit[1].uid in fighting), found[0])
        said = f"{source}: Buff {target} {amount}" + (" for the Combat" if combat else "")
        self.emit("power.mod", {"player": pl, "uid": card.uid, "card": target, "amount": amount,
                                "duration": "battle" if combat else "turn", "by": said}, num, line=line)
        return True

    def _attacked_uid_later(self, i: int, defender: int, code: str) -> str | None:
        for k in range(i + 1, min(len(self.lines), i + 1 + LOOKAHEAD)):
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
        for ln in self._ahead(i):
            if isinstance(ln, TextLine):
                if ln.text.endswith("End Turn"):
                    break
                if " attacking " in ln.text and code in card_ids(ln.text.split(" attacking ", 1)[0]):
                    n += 1
        return n

    def _later_this_turn(self, i: int, code: str) -> bool:
        """Is `code` attacked later this turn? Then the rested one was the opponent's."""
        for ln in self._ahead(i):
            if isinstance(ln, TextLine):
                if ln.text.endswith("End Turn"):
                    return False
                if " attacking " in ln.text and code in card_ids(ln.text.split(" attacking ", 1)[1]):
                    return True
        return False

    def _text_near(self, i: int, needle: str, span: int = 6) -> bool:
        lo, hi = max(0, i - span), min(len(self.lines), i + span)
        return any(isinstance(ln, TextLine) and needle in ln.text for ln in self.lines[lo:hi])

    def _deploy_marker(self, i: int, card: str) -> bool:
        """A bare `[X] Deploy Name [card]` next to the move: played from the hand by its owner, paying
        its cost. 1.43 writes the line before the move; 1.40a before it or right after it (and then
        the line after may be an effect that did not play it: `Sanji: Give Rockstar Rush`), so the
        first readable line after the move is read first."""
        for ln in self._ahead(i, 6):
            if isinstance(ln, MoveLine):
                break
            if isinstance(ln, TextLine) and ln.who is not None:
                if self._is_deploy(ln, card):
                    return True
                break
        for ln in reversed(self.lines[max(0, i - 6):i]):
            if isinstance(ln, TextLine) and ln.who is not None:
                if self._is_deploy(ln, card):
                    return True
                if ":" in strip_refs(ln.rest):
                    return False
        return False

    @staticmethod
    def _is_deploy(ln: TextLine, card: str) -> bool:
        return ln.rest.startswith("Deploy ") and card in card_ids(ln.rest)

    def _replaced_by_play(self, i: int, mv: MoveLine) -> str | None:
        """A Character or Stage trashed to make room for a card played from the hand: the next move
        plays B from the hand into the same area, a bare `[X] Deploy B` is among the readable lines
        around the two moves (with `[X] Trash A` for a Character; none for a Stage) and no effect line
        is. Then B's number, else None. The DON!! rested before belong to B's play, not to an effect."""
        around: list[TextLine] = []
        for ln in reversed(self.lines[max(0, i - 6):i]):
            if isinstance(ln, MoveLine):
                break
            if isinstance(ln, TextLine):
                around.append(ln)
        play = None
        for ln in self._ahead(i, 6):
            if isinstance(ln, MoveLine):
                play = ln
                break
            if isinstance(ln, TextLine):
                around.append(ln)
        if play is None or not (play.player == mv.player and play.src == 1 and play.dst == mv.src):
            return None
        mine = [ln for ln in around if ln.who is not None and self.seats.who(ln.who) == mv.player]
        if any(ln.who is not None and ":" in strip_refs(ln.rest) for ln in around) \
                or not any(self._is_deploy(ln, play.card) for ln in mine):
            return None
        if mv.src == 2 and not any(ln.rest.startswith("Trash ") and card_ids(ln.rest) == [mv.card] for ln in mine):
            return None
        return play.card

    def _by_near(self, line: int) -> str:
        """The effect a move belongs to: the one whose line announced it (`Draw 2 Card`: both draws),
        else the nearest `[X] Card [id]: action` line around it."""
        announced = self._announced().get(line)
        if announced is not None:
            return announced
        idx = self.index_of.get(line, len(self.lines) - 1)
        for k in [*range(idx + 1, min(len(self.lines), idx + 5)), *range(idx - 1, max(-1, idx - 5), -1)]:
            by = _effect_of(self.lines[k])
            if by is not None:
                return by
        return "an effect (not named in the log)"

    def _announced(self) -> dict[int, str]:
        """{move line: effect} for the draws an effect line announces by number (`Draw 2 Card`): the
        next N draws of its player, before another effect line. The nearest-line look-up alone gave
        the second draw, four lines further (its own `Drew card` line between), to no effect."""
        if self._announced_moves is None:
            self._announced_moves = out = {}
            for i, ln in enumerate(self.lines):
                by = _effect_of(ln)
                m = EFFECT_DRAWS.fullmatch(plain(ln.rest.split(":", 1)[1]).strip()) if by else None
                if m is None:
                    continue
                left, player = int(m.group("n")), self.seats.who(ln.who)
                for nxt in self._ahead(i, 12 * left):
                    if left == 0 or _effect_of(nxt) is not None:
                        break
                    if isinstance(nxt, MoveLine) and nxt.player == player and nxt.src == 0 and nxt.dst == 1:
                        out[nxt.n] = by
                        left -= 1
        return self._announced_moves

    def _annotate(self, n: int, text: str, source: str = "optcgsim") -> None:
        if len(text) > MAX_ANNOTATION:
            text = text[:MAX_ANNOTATION] + " [...]"
        self.emit("annotation", {"text": text, "line": n, "source": source}, None, line=n)

    def _unparsed(self, ln: TextLine) -> None:
        self._annotate(ln.n, ln.text)
        self.stats.unparsed += 1

    # ------------------------------------------------------------------ the lines themselves

    def _text(self, i: int, ln: TextLine) -> None:
        if ln.n in self.consumed:
            return
        end = ending(ln)
        if end is not None:
            self._ending(ln, end)
        elif ln.who is None:
            self._bare(ln)
        else:
            self._spoken(i, ln)

    def _bare(self, ln: TextLine) -> None:
        """A line without an actor: a battle's powers, its outcome, the end screen, session lines."""
        text, n = ln.text, ln.n
        b = BATTLE.match(text)
        if b:
            self._flush_rests(None, line=n)
            if self.state.extra.get("battle"):
                self.emit("damage.step", {"attacker_power": int(b.group("ap")),
                                          "target_power": int(b.group("tp"))}, None, line=n)
            return
        if text == "Attack Fails":
            return
        h = HIT.fullmatch(text)
        if h:
            if self.model_life:
                self._damage_without_moves(h, n)
            return
        if text == "GameOver":
            if self.state.result:
                r = self.state.result
                self.emit("game.end", {"how": r["how"] if r["how"] in ("life", "deck-out", "concession") else "other",
                                       "winner": r.get("winner")}, None, line=n)
            return
        if META.match(text):
            self._annotate(n, text, source="optcgsim-meta")
            return
        self._unparsed(ln)

    def _damage_without_moves(self, h: re.Match, n: int) -> None:
        """1.40a writes no Life move: `Leader [id] hit for N damage` takes N Life cards into the hand
        (cards the log does not name; a later play or summary names them)."""
        b = self.state.extra.get("battle")
        if self.state.result is not None:
            return
        defender = b.get("defender") if b else None
        if defender is None:
            ids = card_ids(h.group("who"))
            owners = [p for p in self.state.players
                      if ids and any(c.code == ids[0] for c in self.state.zone(p, "leader"))]
            if len(owners) != 1:
                self._annotate(n, f"{h.group(0)}: whose Leader is not known; no Life card taken")
                return
            defender = owners[0]
        num = self.seats.labels[defender]
        for _ in range(int(h.group("n"))):
            if not self.state.zone(defender, "life"):
                break
            self.emit("life.taken", {"player": defender, "to": "hand"}, num, line=n)

    def _ending(self, ln: TextLine, end: Any) -> None:
        num = self.seats.who(end.who)
        decided = self.state.result is not None or self.outcome is not None
        if decided or (num is None and end.who != "Opponent"):
            if decided and end.certain:
                self._late_result(ln, end, num)
            self._annotate(ln.n, ln.text, source="optcgsim-meta")
            return
        if end.kind == "concession":
            self.emit("concede", {"player": self.P(num)}, num, line=ln.n)
        elif end.kind in ("win", "loss"):
            winner = num if end.kind == "win" else 3 - num
            self.emit("game.end", {"how": "deck-out" if end.deck_out else "other", "winner": self.P(winner)},
                      None, line=ln.n)
        else:
            self._uncertain(ln, end, num)
            return
        self.outcome = {"how": end.kind, "certain": True, "line": ln.n}

    def _late_result(self, ln: TextLine, end: Any, num: int | None) -> None:
        """A result line after a quit or a disconnection (QA79 F6). The first ending line decides (a
        `Quits!` after a concession is a player leaving the end screen, so the order is the rule),
        but a result written after an uncertain end is worth a judge's look: said, not applied."""
        if self.outcome is None or self.outcome["certain"]:
            return
        who = self.P(num) if num is not None else end.who
        verb = {"concession": "concedes", "win": "wins"}.get(end.kind, "loses")
        how = "a quit" if self.outcome["how"] == "quit" else "a disconnection"
        self.warnings.append({"line": ln.n, "text": f"{who} {verb} after the game had already ended by {how} at "
                                                    f"line {self.outcome['line']}; the first ending stands "
                                                    "— a judge may correct it"})

    def _uncertain(self, ln: TextLine, end: Any, num: int | None) -> None:
        """`Quits!` or a disconnection with no result before it: said, not decided."""
        if end.kind == "quit":
            left = num
        else:
            owner = self.seats.owner
            left = (3 - owner if owner else None) if end.who == "Opponent" else num
        # a fact the ruleset knows (`player.left`): `state` and the report say it; it decides nothing
        self.emit("player.left", {"how": end.kind, "line": ln.n, "text": ln.text[:MAX_ANNOTATION]}
                  | ({"player": self.P(left)} if left else {}), left, line=ln.n)
        self.outcome = {"how": end.kind, "certain": False, "line": ln.n,
                        "left": self.P(left) if left else None,
                        "uncertain_winner": self.P(3 - left) if left else None}

    def _spoken(self, i: int, ln: TextLine) -> None:
        who, rest, n = ln.who, ln.rest, ln.n
        num = self.seats.who(who)
        s = SUMMARY.match(rest)
        if s:
            self._summary(n, who, s.group("what"), s.group("val"))
            return
        if num is None:
            self._unparsed(ln)
            return
        if rest.startswith(SILENT) or rest in ("Will select turn order", "Mulligan", "Placing Cards on Bottom of Deck") \
                or DRAW_DON.fullmatch(rest) or (rest.startswith("Trash ") and card_ids(rest)):
            return
        a = ATTACH.match(rest)
        if a:
            self.attach_marker[num] = int(a.group(1))
            return
        if DRAW_CARDS.fullmatch(rest):
            self.draw_marker = num
            return
        if rest == "End Turn":
            self._end_turn(ln, num)
            return
        if " attacking " in rest and self._attack(i, ln, num):
            return
        d = COUNTER.fullmatch(rest)
        if d and card_ids(d.group(1)):
            self.counter_marker[num] = (card_ids(d.group(1))[0], int(d.group(2)))
            return
        if rest.endswith(" Destroyed") and card_ids(rest):
            self.destroyed_marker.add(card_ids(rest)[0])
            return
        if ":" in rest:
            head, tail = rest.split(":", 1)
            ids = card_ids(head)
            if ids:
                self._effect(i, num, ids[0], tail.strip(), n)
                return
        chat = "<size" in rest or "<b>" in rest  # players' chat comes styled (<b><size=24>ggs</size></b>)
        self._annotate(n, MARKUP.sub("", ln.text) if chat else ln.text, source="optcgsim-chat" if chat else "optcgsim")
        if not chat:
            self.stats.unparsed += 1

    def _end_turn(self, ln: TextLine, num: int) -> None:
        self._flush_rests(None, line=ln.n)
        self._flush_refresh(ln.n)
        if self.state.active == self.P(num):
            self.emit("turn.end", {"player": self.P(num)}, num, line=ln.n)
            nxt = 3 - num
            self.emit("turn", {"player": self.P(nxt)}, nxt, line=ln.n)
            self.pending_refresh = nxt
        else:
            self._unparsed(ln)

    def _attack(self, i: int, ln: TextLine, num: int) -> bool:
        a_txt, t_txt = ln.rest.split(" attacking ", 1)
        a_ids, t_ids = card_ids(a_txt), card_ids(t_txt)
        if not (a_ids and t_ids):
            return False
        pl = self.P(num)
        self._flush_rests(None, line=ln.n)
        self._flush_refresh(ln.n)
        payload: dict[str, Any] = {"player": pl, "attacker": a_ids[0], "target": t_ids[0]}
        hint = self.last_attach.get(num)
        card = self.rs._field_card(self.state, pl, hint, None) if hint else None
        if card is not None and card.code == a_ids[0] and not T.is_rested(card):
            payload = {"player": pl, "attacker_uid": hint, "attacker": a_ids[0], "target": t_ids[0]}
        target_uid = self._target_by_lookahead(i, 3 - num, t_ids[0])
        if target_uid:
            payload["target_uid"] = target_uid
        self.emit("attack", payload, num, line=ln.n)
        return True

    def _effect(self, i: int, num: int, code: str, raw: str, n: int) -> None:
        """`[X] Source [id]: what it does`."""
        action = plain(raw)
        if action == "Activate Counter":
            self.event_counter_marker[num] = code
        target = card_ids(raw)
        bare = raw.replace("<b>", "").replace("</b>", "").strip()  # card references kept: the target's id
        g = GIVE_KEYWORD.fullmatch(bare)
        if g and self._give_keyword(num, code, g.group("id") or g.group("id2"), g.group("kw").lower(), n):
            return
        b = BUFF.fullmatch(bare)
        if b and self._buff(num, code, b.group("id") or b.group("id2"), int(b.group("amount")),
                            b.group("combat") is not None, n):
            return
        is_rest = REST_EFFECT.fullmatch(raw)
        if len(target) == 1 and target[0] != "Don" and (is_rest or ACTIVE_EFFECT.fullmatch(raw)):
            self._rest_effect(i, num, code, target[0], "rest" if is_rest else "active", n)
            return
        self.emit("effect", {"player": self.P(num), "card": code, "timing": "other", "text": action[:200]},
                  num, line=n)


def _effect_of(ln: Line) -> str | None:
    """`[X] Card [id]: action` -> "id: action" (what a move's `by` says), else None."""
    if isinstance(ln, TextLine) and ln.who is not None and ":" in ln.rest:
        head, tail = ln.rest.split(":", 1)
        ids = card_ids(head)
        if ids:
            return f"{ids[0]}: {plain(tail)}"[:120]
    return None
