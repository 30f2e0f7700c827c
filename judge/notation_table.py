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

from engine.events import RecordedEvent

from .notation import (
    Ctx,
    Grammar,
    NotationError,
    Token,
    Verb,
    bare_ok,
    expand_cards,
    quote,
    write_cards,
)

_MOVE = re.compile(r"(?:([A-Z])\.)?([a-z_0-9]+)(\.bottom|\.top)?>(?:([A-Z])\.)?([a-z_0-9]+)(\.bottom|\.top)?")
_DELTA = re.compile(r"([+-]\d+|=[+-]?\d+)")


def parse_move(toks: list[Token], actor: str, ctx: Ctx, extra: dict[str, Any] | None = None,
               *, from_key: str = "from_where", to_key: str = "to_where") -> tuple[str, dict] | None:
    """`FROM>TO [N] [CARD|?|#uid] key=value...` -> a move payload (table and op2009 share it)."""
    head = toks[0]
    if head.type != "word" or ">" not in head.value:
        return None
    m = _MOVE.fullmatch(head.value)
    if not m:
        raise NotationError("expected a move ZONE>ZONE (e.g. hand>field, deck.bottom>life, hand>B.trash)",
                            col=head.col)
    src_seat, src, src_where, dst_seat, dst, dst_where = m.groups()
    p: dict[str, Any] = {}
    if src_seat:
        who = ctx.player(src_seat)
        if who is None:
            raise NotationError(f"unknown seat {src_seat!r}", col=head.col)
        p["player"] = who
    elif actor in ctx.players:
        p["player"] = actor
    p["from_zone"], p["to_zone"] = ctx.aliases.get(src, src), ctx.aliases.get(dst, dst)
    if src_where:
        p[from_key] = src_where[1:]
    if dst_where:
        p[to_key] = dst_where[1:]
    if dst_seat:
        who = ctx.player(dst_seat)
        if who is None:
            raise NotationError(f"unknown seat {dst_seat!r}", col=head.col)
        p["to_player"] = who
    rest = toks[1:]
    if rest and rest[0].type == "word" and re.fullmatch(r"\d+", rest[0].value):
        p["count"] = int(rest[0].value)
        rest = rest[1:]
    if rest and rest[0].type in ("word", "str") and not (rest[0].type == "word" and "=" in rest[0].value):
        t = rest.pop(0)
        if t.type == "word" and t.value.startswith("#"):
            p["uid"] = t.value[1:]
        elif not (t.type == "word" and t.value == "?"):
            (p["card"],) = expand_cards([t], ctx)
    for t in rest:
        if t.type != "kv":
            raise NotationError("expected key=value or the end of the move", col=t.col)
        if extra is None or t.key not in extra:
            raise NotationError(f"a move has no field {t.key!r}", col=t.col)
        p[t.key] = t.value if t.vtype in ("word", "str") else str(t.value)
    return "move", p


def _short(zone: str, ctx: Ctx) -> str:
    return ctx.alias_of.get(zone, zone)


def format_move(e: RecordedEvent, ctx: Ctx, *, from_key: str = "from_where", to_key: str = "to_where",
                extra: tuple[str, ...] = ()) -> str | None:
    p = dict(e.payload)
    player = p.pop("player")
    src = _short(p.pop("from_zone"), ctx) + (".bottom" if p.pop(from_key, "top") == "bottom" else "")
    dst = _short(p.pop("to_zone"), ctx) + (".bottom" if p.pop(to_key, "top") == "bottom" else "")
    if player != e.actor:
        src = f"{ctx.seat_of[player]}.{src}"
    if "to_player" in p:
        dst = f"{ctx.seat_of[p.pop('to_player')]}.{dst}"
    parts = [f"{src}>{dst}"]
    if p.get("count", 1) != 1:
        parts.append(str(p.pop("count")))
    p.pop("count", None)
    if "uid" in p:
        uid = p.pop("uid")
        if not bare_ok(uid):
            return None
        parts.append("#" + uid)
    elif "card" in p:
        parts.extend(write_cards([p.pop("card")]))
    for k in extra:
        if k in p:
            v = p.pop(k)
            parts.append(f"{k}=" + (v if isinstance(v, str) and bare_ok(v) else quote(str(v))))
    return None if p else " ".join(parts)


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


def is_end_without_winner(toks: list[Token]) -> bool:
    """`end - "how"`: a game over with no winner."""
    return toks[0].type == "word" and toks[0].value == "end" and len(toks) > 1 \
        and toks[1].type == "word" and toks[1].value == "-"


def format_end_without_winner(p: dict) -> str:
    return "end - " + (p["how"] if bare_ok(p["how"]) else quote(p["how"]))


def draw_payload(toks: list[Token], actor: str, ctx: Ctx, *, cards_key: str = "cards") -> dict:
    """`draw CARD CARD ?`: the cards drawn, in order; `?` for one not seen (only after the seen ones)."""
    cards = expand_cards(toks, ctx, allow_unknown=True)
    known = [c for c in cards if c is not None]
    if cards[:len(known)] != known:
        raise NotationError("expected the seen cards first, then ? for the unseen ones", col=toks[0].col)
    p: dict[str, Any] = {"player": actor} if actor in ctx.players else {}
    if len(cards) != 1 or not known:
        p["count"] = len(cards)
    if known:
        p[cards_key] = known
    return p


def format_draw(e: RecordedEvent, ctx: Ctx, *, cards_key: str = "cards", others: tuple[str, ...] = ()) -> str | None:
    p = dict(e.payload)
    if p.pop("player", None) != e.actor or any(k in p for k in others):
        return None
    count = p.pop("count", 1)
    cards = p.pop(cards_key, [])
    if p or len(cards) > count:
        return None
    if not cards:
        return "draw" + ("" if count == 1 else f" {count}")
    return " ".join(["draw"] + write_cards(list(cards) + [None] * (count - len(cards))))


def table_suggestions(state, ctx: Ctx, *, draw: str, zones_from=("hand",), zones_to=None) -> list[str]:
    """Plain candidates: the next turn, a draw, moves out of the active player's hand."""
    out = []
    players = ctx.players
    nxt = players[(players.index(state.active) + 1) % len(players)] if state.active in players else players[0]
    out.append(f"T{state.turn + 1} {ctx.seat_of[nxt]}:")
    active = state.active or players[0]
    seat = ctx.seat_of[active]
    out.append(f"{seat}: {draw}")
    for z in zones_from:
        cards = state.zones.get(active, {}).get(z, [])
        for c in {c.code for c in cards if c.code}:
            for dst in zones_to or [x for x in state.zone_names if x != z]:
                out.append(f"{seat}: {z}>{dst} {c}")
    return out


GRAMMAR = TableGrammar
