"""The notation of `table` (the generic ruleset): zones and cards, turns, counters.

    T1 A:                      a turn (turn 1, Ann)
    A: setup deck 40           40 unknown cards into the deck
    A: setup life 2 OP01-013   2 unknown cards and one known into life
    A: draw  / draw 2 / draw OP01-016 ? (2 cards, the first seen)
    A: hand>field OP01-016     a move: FROM>TO, then how many and which card (or #uid)
    A: deck.bottom>life 2      .bottom: from / to the bottom
    A: hand>B.field #c12       to another player's zone, card by instance
    A: reveal hand OP01-013    the top unknown card of a zone becomes known
    A: shuffle deck
    A: counter life -1 / counter life =5
    A: concede / end A "decked out" / end - "agreed draw"
    phase main
"""
from __future__ import annotations

import re
from typing import Any

from engine.notation import (
    Grammar,
    NotationError,
    Verb,
    bare_ok,
)
from engine.notation.forms import (
    draw_payload,
    format_draw,
    format_end_without_winner,
    format_move,
    is_end_without_winner,
    parse_move,
    table_suggestions,
)

_DELTA = re.compile(r"([+-]\d+|=[+-]?\d+)")


class TableGrammar(Grammar):
    turn_kind = "turn"
    verbs = (
        Verb("setup", "setup", ("zone", "count"), rest="cards",
             doc="setup ZONE [N] [CARD...]: N unknown and the listed cards into a zone before play"),
        Verb("draw", "draw", ("count",), rest="cards", doc="draw [N] [CARD...]"),
        Verb("reveal", "reveal", ("zone", "card"), doc="reveal ZONE CARD (uid=ID for one instance)"),
        Verb("shuffle", "shuffle", ("zone",), doc="shuffle ZONE"),
        Verb("concede", "concede", doc="A: concede"),
        Verb("end", "game.end", ("winner", "how"), doc="end A \"how\" (end - \"how\": no winner)"),
        Verb("phase", "phase", ("name",), doc="phase NAME"),
    )
    custom_verbs = {"FROM>TO": "FROM>TO [N] [CARD|#uid]: a move (zone.bottom, B.zone)",
                    "counter": "counter NAME +N|-N|=N"}

    def parse_custom(self, toks, actor, ctx):
        head = toks[0]
        if head.type == "word" and head.value == "counter" and len(toks) >= 3 \
                and toks[2].type == "word" and _DELTA.fullmatch(toks[2].value):
            if toks[1].type not in ("word", "str"):
                raise NotationError("expected a counter name", col=toks[1].col)
            p: dict[str, Any] = {"name": toks[1].value}
            v = toks[2].value
            p["set" if v.startswith("=") else "add"] = int(v.lstrip("="))
            for t in toks[3:]:
                raise NotationError("expected the end of the action", col=t.col)
            if actor in ctx.players:
                p["player"] = actor
            return "counter", p
        if is_end_without_winner(toks):
            return "game.end", self.parse_fields(Verb("end", "game.end", ("how",)), toks[2:], actor, ctx, head.col)
        if head.type == "word" and head.value == "draw" and len(toks) > 1 \
                and all(t.type in ("word", "str") for t in toks[1:]) \
                and not (toks[1].type == "word" and toks[1].value.isdigit()):
            return "draw", draw_payload(toks[1:], actor, ctx)
        return parse_move(toks, actor, ctx)

    def format_custom(self, e, ctx):
        p = e.payload
        if e.kind == "draw":
            return format_draw(e, ctx)
        if e.kind == "move" and p["player"] in ctx.seat_of and e.actor in ctx.players | ctx.seat_of.keys():
            return format_move(e, ctx)
        if e.kind == "move" and e.actor in ctx.seat_of:
            return format_move(e, ctx)
        if e.kind == "counter" and p.get("player") == (e.actor if e.actor in ctx.seat_of else None) \
                and bare_ok(p["name"]):
            v = f"={p['set']}" if p.get("set") is not None else f"{p['add']:+d}"
            return f"counter {p['name']} {v}"
        if e.kind == "game.end" and "winner" not in p:
            return format_end_without_winner(p)
        return None

    def suggestions(self, state, ctx):
        return table_suggestions(state, ctx, draw="draw")


GRAMMAR = TableGrammar
