"""The notation of `grandline` (One Piece Card Game - Umfassende Regeln, German profile). Cards are
named as printed (Zoro, "Monkey D. Luffy"); phases are `/name` (any unique prefix: `/p`, `/c`).

    A: setup "Monkey D. Luffy" 5 deck=44 hand=5   setup: captain [initiative] (captain_life= deck= hand=)
    R1 A 6-2 / R2 B / R B                   round: number (or none: the next), start player, the
                                            start-player rolls in seat order
    /preparation /main /action /combat /end phase
    A: draw / A: draw 2                     draw
    A: play Zoro character 1 6 4            play: card type [cost attack defence life] (typ= quick)
    A: attack Zoro / attack Zoro>Queen      attack: direct / at a card ("A" > "B" when quoted)
    A: attack Zoro blocked Jack             ...blocked (target_player= unblockable)
    A: discard / discard 2 / discard Zoro   discard
    B: destroy Zoro "reason"                destroy (by an effect)
    B: dmg 2 "reason"                       damage: life lost to an effect
    A: visit Wano 4                         island.visit: island vp
    A: vp 2 "reason" · A: concede           vp, concede
"""
from __future__ import annotations

import re
from typing import Any

from engine.notation import Grammar, NotationError, Verb, bare_ok, quote
from engine.notation.forms import (
    format_phase,
    parse_phase,
    phase_verbs,
    read_seat_numbers,
    seat_numbers,
    with_event,
)

PHASES = ("preparation", "main", "action", "combat", "end")
_ROUND = re.compile(r"R(\d*)")
_SCORE = re.compile(r"\d+(?:-\d+)+")


class GrandlineGrammar(Grammar):
    counted_kind, counted_word = "round", "R"  # R3 A: the live recorder checks the number
    verbs = phase_verbs(PHASES) + (
        Verb("phase", "phase", ("name",), doc="phase NAME (or /NAME)"),
        Verb("setup", "setup", ("captain", "initiative"),
             doc="A: setup CAPTAIN [INITIATIVE] (captain_life= deck= hand=)"),
        Verb("draw", "draw", ("count",), doc="A: draw [N]"),
        Verb("play", "play", ("card", "type", "cost", "attack", "defence", "life"),
             doc="A: play CARD TYPE [COST ATTACK DEFENCE LIFE] (typ= quick)"),
        Verb("discard", "discard", ("count", "card"), doc="A: discard [N] [CARD]"),
        Verb("destroy", "destroy", ("card", "reason"), doc="B: destroy CARD [\"reason\"]: by an effect"),
        Verb("dmg", "damage", ("amount", "reason"), doc="B: dmg N [\"reason\"]: life lost to an effect"),
        Verb("visit", "island.visit", ("island", "vp"), doc="A: visit ISLAND VP"),
        Verb("vp", "vp", ("add", "reason"), doc="A: vp N [\"reason\"]"),
    )
    custom_verbs = {
        "R": "R1 A [6-2]: round 1, A starts (the start-player rolls in seat order); R A: the next round",
        "attack": "A: attack ATTACKER[>TARGET] [blocked BLOCKER] (target_player= unblockable)",
    }

    def parse_custom(self, toks, actor, ctx):
        head = toks[0]
        phase = parse_phase(self, toks, actor, ctx, PHASES)  # None for anything but a /word
        if phase is not None or head.type != "word":
            return phase
        if _ROUND.fullmatch(head.value):
            return "round", self._parse_round(toks, actor, ctx)
        if head.value == "attack" and len(toks) > 1 and toks[1].type in ("word", "str"):
            return "attack", self._parse_attack(toks, actor, ctx)
        return None

    # R1 A 6-2
    def _parse_round(self, toks, actor, ctx) -> dict:
        head = toks[0]
        p: dict[str, Any] = {}
        rest = list(toks[1:])
        if rest and rest[0].type in ("word", "str") and ctx.player(rest[0].value):
            p["start_player"] = ctx.player(rest.pop(0).value)
        elif not rest or rest[0].type != "kv":
            raise NotationError(f"expected the start player ({', '.join(ctx.player_at)}): R1 A",
                                col=rest[0].col if rest else head.col + len(head.text))
        if head.value[1:]:
            p["number"] = int(head.value[1:])
        if rest and rest[0].type == "word" and _SCORE.fullmatch(rest[0].value):
            p["rolls"] = read_seat_numbers(rest.pop(0), ctx)
        return self.with_fields(p, Verb(head.value, "round"), rest, actor, ctx, head.col)

    def _format_round(self, e, ctx) -> str | None:
        p = dict(e.payload)
        start = p.pop("start_player")
        if start not in ctx.seat_of:
            return None
        n = p.pop("number", None)
        parts = [f"R{'' if n is None else n}", ctx.seat_of[start]]
        if "rolls" in p:
            score = seat_numbers(p["rolls"], ctx) if p["rolls"] is not None else None
            if score is not None:
                parts.append(score)
                p.pop("rolls")
        if p:
            parts.append(self.format_fields(Verb("R", "round"), with_event(e, p), ctx)[2:])
        return " ".join(parts)

    # attack Zoro>Queen blocked Jack
    def _parse_attack(self, toks, actor, ctx) -> dict:
        t = toks[1]
        p: dict[str, Any] = {}
        rest = toks[2:]
        if t.type == "word" and ">" in t.value:
            p["attacker"], _, p["target"] = t.value.partition(">")
            if not p["attacker"] or not p["target"]:
                raise NotationError("expected ATTACKER>TARGET", col=t.col)
        else:
            p["attacker"] = t.value
            if rest and rest[0].type == "word" and rest[0].value == ">":
                if len(rest) < 2 or rest[1].type not in ("word", "str"):
                    raise NotationError("expected the target after '>'", col=rest[0].col + 1)
                p["target"] = rest[1].value
                rest = rest[2:]
        if rest and rest[0].type == "word" and rest[0].value == "blocked":
            if len(rest) < 2 or rest[1].type not in ("word", "str"):
                raise NotationError("expected the blocker after 'blocked'", col=rest[0].col + 7)
            p["blocker"] = rest[1].value
            rest = rest[2:]
        return self.with_fields(p, Verb("attack", "attack"), rest, actor, ctx, toks[0].col)

    def _format_attack(self, e, ctx) -> str | None:
        p = dict(e.payload)
        if p.get("player") != e.actor:
            return None
        attacker, target = p.pop("attacker"), p.pop("target", "direct")
        ok = bare_ok(attacker, ("blocked",)) and bare_ok(target, ("blocked",))
        if target == "direct":
            parts = ["attack", attacker if ok else quote(attacker)]
        elif ok:
            parts = ["attack", f"{attacker}>{target}"]
        else:
            parts = ["attack", quote(attacker), ">", quote(target)]
        if "blocker" in p and p["blocker"] is not None:
            b = p.pop("blocker")
            parts += ["blocked", b if bare_ok(b) else quote(b)]
        rest = self.format_fields(Verb("attack", "attack"), with_event(e, p), ctx)[len("attack"):]
        return " ".join(parts) + rest

    def format_custom(self, e, ctx):
        if e.kind == "phase":
            return format_phase(self, e, ctx)
        if e.kind == "round":
            return self._format_round(e, ctx)
        if e.kind == "attack":
            return self._format_attack(e, ctx)
        return None

    def suggestions(self, state, ctx):
        players = ctx.players
        out = []
        start = state.active or players[0]
        nxt = players[(players.index(state.active) + 1) % len(players)] if state.active in players else players[0]
        out.append(f"R{state.turn + 1} {ctx.seat_of[nxt]}")
        if state.phase in PHASES:
            out += [f"/{n}" for n in PHASES[PHASES.index(state.phase) + 1:]]
        else:
            out.append("/preparation")
        order = players[players.index(start):] + players[:players.index(start)]
        for p in order:
            seat = ctx.seat_of[p]
            out.append(f"{seat}: draw")
            for c in sorted({c.code for c in state.zones.get(p, {}).get("sea", []) if c.code}):
                out.append(f"{seat}: attack {c if bare_ok(c, ('blocked',)) else quote(c)}")
        return out


GRAMMAR = GrandlineGrammar
