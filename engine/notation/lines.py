"""Body lines: turn headers, actor prefixes, separators and trailing comments, into actions."""
from __future__ import annotations

import re
from collections.abc import Callable

from engine.events import JUDGE_PREFIX, TABLE_ACTOR
from engine.notation.grammar import Action, Grammar
from engine.notation.lexer import NotationError, Token, tokenize
from engine.notation.values import Ctx
from engine.schema import shown

# --- lines: turn headers, actor prefixes, separators, trailing comments ------------------------


_TURN = re.compile(r"T(\d*)")


def parse_line(line: str, lineno: int, grammar: Grammar, ctx: Ctx, *,
               default_actor: Callable[[str], str] | None = None) -> list[Action]:
    """The actions of one body line. `default_actor(kind)` gives the actor of an action written
    without a prefix (the live recorder makes judge actions the judge's); default: the table."""
    try:
        toks = tokenize(line, lineno)
        return _parse_tokens(toks, lineno, grammar, ctx, default_actor)
    except NotationError as e:
        raise NotationError(e.message, line=lineno, col=e.col)


def _parse_tokens(toks: list[Token], lineno: int, grammar: Grammar, ctx: Ctx,
                  default_actor: Callable[[str], str] | None) -> list[Action]:
    out: list[Action] = []
    i = 0
    actor: str | None = None
    if toks and toks[0].type == "word" and _TURN.fullmatch(toks[0].value) and grammar.turn_kind:
        head = toks[0]
        if len(toks) < 2:
            raise NotationError("expected the player whose turn begins (T3 A:)", col=head.col + len(head.text))
        actor, i = _read_actor(toks, 1, ctx, need=True)
        n = _TURN.fullmatch(head.value).group(1)  # type: ignore[union-attr]
        if actor not in ctx.players:
            raise NotationError("expected a player after the turn header (T3 A:)", col=toks[1].col)
        out.append(Action(actor, grammar.turn_kind, grammar.turn_event(int(n) if n else None, actor),
                          lineno, head.col, turn_number=int(n) if n else None))
        if i < len(toks) and toks[i].type == "sep":
            i += 1
    else:
        actor, i = _read_actor(toks, 0, ctx, need=False)
    explicit = actor is not None
    groups: list[list[Token]] = [[]]
    for t in toks[i:]:
        if t.type == "sep":
            if not groups[-1]:
                raise NotationError("expected an action before the separator", col=t.col)
            groups.append([])
        else:
            groups[-1].append(t)
    if not groups[-1]:
        if len(groups) > 1:
            raise NotationError("expected an action after the separator", col=toks[-1].col + 1)
        groups.pop()
    for g in groups:
        trailing: list[Token] = []
        while len(g) > 1 and g[-1].type == "comment":
            trailing.insert(0, g.pop())
        try:
            kind, payload = grammar.parse_action(g, actor or TABLE_ACTOR, ctx)
        except NotationError as e:
            raise NotationError(e.message, line=lineno, col=e.col)
        who = actor if explicit else (default_actor(kind) if default_actor else TABLE_ACTOR)
        out.append(Action(who or TABLE_ACTOR, kind, payload, lineno, g[0].col))
        for c in trailing:
            out.append(Action(TABLE_ACTOR, "note", {"text": c.value}, lineno, c.col))
    return out


def _read_actor(toks: list[Token], i: int, ctx: Ctx, *, need: bool) -> tuple[str | None, int]:
    if i >= len(toks):
        return None, i
    t = toks[i]
    if t.type == "word" and t.value == "judge" and i + 1 < len(toks):
        nxt = toks[i + 1]
        if nxt.type == "word" and nxt.value.endswith(":") and len(nxt.value) > 1:
            return JUDGE_PREFIX + nxt.value[:-1], i + 2
        if nxt.type == "str" and nxt.colon:
            return JUDGE_PREFIX + nxt.value, i + 2
    ref = None
    if t.type == "word" and t.value.endswith(":") and len(t.value) > 1:
        ref = t.value[:-1]
    elif t.type == "str" and t.colon:
        ref = t.value
    elif need and t.type == "word":
        ref = t.value
    if ref is None:
        return None, i
    name = ctx.player(ref)
    if name is None:
        raise NotationError(f"unknown player {shown(ref)}: expected "
                            f"{', '.join(f'{ctx.seat_of[p]} ({p})' for p in ctx.players)} or judge NAME",
                            col=t.col)
    return name, i + 1
