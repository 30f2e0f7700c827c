"""Shapes several games' notations share, so each is written once:

- moves `FROM>TO [N] [CARD|?|#uid]` (table, op2009, optcg, ken), draws `draw CARD ?` and game ends;
- phases `/name` with any unique prefix (ken, grandline);
- per-seat numbers `N-N` in seat order (scores, points);
- plain suggestions for `?` (the next turn, a draw, moves out of the hand).
"""
from __future__ import annotations

import re
from typing import Any

from engine.events import RecordedEvent
from engine.notation.game import probe
from engine.notation.grammar import Grammar, Verb
from engine.notation.lexer import NotationError, Token
from engine.notation.values import Ctx, bare_ok, expand_cards, quote, write_cards
from engine.schema import shown

# --- moves, draws, game ends ---------------------------------------------------------------------

_MOVE = re.compile(r"(?:([A-Z])\.)?([a-z_0-9]+)(\.bottom|\.top)?>(?:([A-Z])\.)?([a-z_0-9]+)(\.bottom|\.top)?")


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
            raise NotationError(f"unknown seat {shown(src_seat)}", col=head.col)
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
            raise NotationError(f"unknown seat {shown(dst_seat)}", col=head.col)
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
            raise NotationError(f"a move has no field {shown(t.key)}", col=t.col)
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


# --- phases: /name, any unique prefix (ken and grandline share this) ------------------------------


def phase_verbs(names: tuple[str, ...], positional: tuple[str, ...] = (), what: str = "") -> tuple[Verb, ...]:
    """Verbs named /NAME (so help and completion offer them); parse_phase reads them."""
    return tuple(Verb("/" + n, "phase", positional, doc=f"/{n}{what}: the {n} phase"
                      + (" (any unique prefix)" if i == 0 else "")) for i, n in enumerate(names))


def parse_phase(grammar: Grammar, toks: list[Token], actor: str, ctx: Ctx, names: tuple[str, ...],
                positional: tuple[str, ...] = ()) -> tuple[str, dict] | None:
    head = toks[0]
    if head.type != "word" or not head.value.startswith("/") or len(head.value) < 2:
        return None
    word = head.value[1:]
    hits = [n for n in names if n == word] or [n for n in names if n.startswith(word)]
    if len(hits) != 1:
        raise NotationError(f"expected a phase: {', '.join('/' + n for n in names)}"
                            + (f" ('/{word}' could be {' or '.join(hits)})" if hits else ""), col=head.col)
    p = grammar.parse_fields(Verb("/" + hits[0], "phase", positional), toks[1:], actor, ctx, head.col)
    if "name" in p:
        raise NotationError("the phase is named by the /word: expected no name=", col=head.col)
    return "phase", {"name": hits[0], **p}


def format_phase(grammar: Grammar, e, ctx: Ctx, positional: tuple[str, ...] = ()) -> str | None:
    if e.kind != "phase":
        return None
    rest = {k: v for k, v in e.payload.items() if k != "name"}
    name = e.payload["name"]
    return grammar.format_fields(Verb("/" + name, "phase", positional), with_event(e, rest), ctx)


def with_event(e, payload):
    """A copy of event `e` with another payload (to format part of it with the generic machinery)."""
    return probe(e.match, e.position, e.kind, e.version, e.actor, payload)


def seat_numbers(values: dict[str, Any], ctx: Ctx) -> str | None:
    """{player: N} for every player, N >= 0, as `N-N` in seat order (else None)."""
    if sorted(values) != sorted(ctx.players) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values.values()):
        return None
    return "-".join(str(values[p]) for p in ctx.players)


def read_seat_numbers(tok: Token, ctx: Ctx) -> dict[str, int]:
    nums = tok.value.split("-")
    if len(nums) != len(ctx.players):
        raise NotationError(f"expected one number per player in seat order ({'-'.join(ctx.player_at)}), "
                            f"got {len(nums)}", col=tok.col)
    return {p: int(n) for p, n in zip(ctx.players, nums)}
