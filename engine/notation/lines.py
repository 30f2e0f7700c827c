"""Body lines: turn headers, actor prefixes, separators and trailing comments, into actions.

A line is actions separated by `·` or `;`. Each action may begin with a turn header (`T3 A:`) or an
actor prefix (`B:`, `judge Kim:`, `scorekeeper Luca:`); the actor holds for the actions after it
until the next prefix, so one line can follow a whole battle:

    A: attack ST01-012>OP01-069 · damage · B: ko OP01-069 · battle.end

records A's attack, A's damage step, then B's K.O. and B's battle.end. A line with no prefix at all
is the table's (`default_actor` may say otherwise per kind: the live recorder makes judge actions
the judge's).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from engine.events import JUDGE_PREFIX, SCOREKEEPER_PREFIX, TABLE_ACTOR
from engine.notation.grammar import Action, Grammar
from engine.notation.lexer import NotationError, Token, tokenize
from engine.notation.values import Ctx
from engine.replacing import replacement_field
from engine.schema import InputError, shown

# --- lines: turn headers, actor prefixes, separators, trailing comments ------------------------


_TURN = re.compile(r"T(\d*)")
# the words that open a named actor prefix: `judge Kim:` is judge:Kim, `scorekeeper Luca:` ...
ROLE_WORDS = {"judge": JUDGE_PREFIX, "scorekeeper": SCOREKEEPER_PREFIX}


def parse_line(line: str, lineno: int, grammar: Grammar, ctx: Ctx, *,
               default_actor: Callable[[str], str] | None = None) -> list[Action]:
    """The actions of one body line, each with its column and its own text. `default_actor(kind)`
    gives the actor of an action written with no prefix on the line (default: the table).

    A NotationError names the column, and (`action`, `action_text`) the action it happened in."""
    toks = tokenize(line, lineno)
    out: list[Action] = []
    actor: str | None = None  # the last prefix seen on this line
    for number, group in enumerate(_groups(toks), start=1):
        text = _span(line, group)
        try:
            actor = _parse_group(group, lineno, grammar, ctx, default_actor, actor, number, text, out)
        except NotationError as e:
            raise NotationError(e.message, line=lineno, col=e.col, action=number,
                                action_text=text) from None
    return out


def _groups(toks: list[Token]) -> list[list[Token]]:
    """The tokens of each action (split at the separators), refusing empty actions."""
    groups: list[list[Token]] = [[]]
    for t in toks:
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
    return groups


def _span(line: str, group: list[Token]) -> str:
    start = group[0].col - 1
    last = group[-1]
    return line[start:last.col - 1 + len(last.text)]


def _parse_group(g: list[Token], lineno: int, grammar: Grammar, ctx: Ctx,
                 default_actor: Callable[[str], str] | None, actor: str | None, number: int,
                 text: str, out: list[Action]) -> str | None:
    """One action (with its optional turn header or actor prefix) appended to `out`; returns the
    actor in force after it."""
    i = 0
    head = g[0]
    if head.type == "word" and _TURN.fullmatch(head.value) and grammar.turn_kind:
        if len(g) < 2:
            raise NotationError("expected the player whose turn begins (T3 A:)", col=head.col + len(head.text))
        actor, i = _read_actor(g, 1, ctx, need=True)
        if actor not in ctx.players:
            raise NotationError("expected a player after the turn header (T3 A:)", col=g[1].col)
        n = _TURN.fullmatch(head.value).group(1)  # type: ignore[union-attr]
        out.append(Action(actor, grammar.turn_kind, grammar.turn_event(int(n) if n else None, actor),
                          lineno, head.col, turn_number=int(n) if n else None, text=text, index=number))
        if i == len(g):
            return actor
    else:
        switched, i = _read_actor(g, 0, ctx, need=False)
        if switched is not None:
            actor = switched
            if i == len(g):
                last = g[-1]
                raise NotationError(f"expected an action after '{_prefix_text(g)}'",
                                    col=last.col + len(last.text))
    body = g[i:]
    trailing: list[Token] = []
    while len(body) > 1 and body[-1].type == "comment":
        trailing.insert(0, body.pop())
    kind, payload = grammar.parse_action(body, actor or TABLE_ACTOR, ctx)
    try:
        who = actor if actor is not None else (default_actor(kind) if default_actor else TABLE_ACTOR)
    except NotationError as e:  # the recorder refuses this kind without a prefix: point at it
        raise NotationError(e.message, col=e.col or body[0].col) from None
    out.append(Action(who or TABLE_ACTOR, kind, payload, lineno, body[0].col, text=text, index=number))
    for c in trailing:
        out.append(Action(TABLE_ACTOR, "note", {"text": c.value}, lineno, c.col, text=text, index=number))
    return actor


def _prefix_text(g: list[Token]) -> str:
    return " ".join(t.text for t in g)


def _read_actor(toks: list[Token], i: int, ctx: Ctx, *, need: bool) -> tuple[str | None, int]:
    if i >= len(toks):
        return None, i
    t = toks[i]
    if t.type == "word" and t.value in ROLE_WORDS and i + 1 < len(toks):
        nxt = toks[i + 1]
        if nxt.type == "word" and nxt.value.endswith(":") and len(nxt.value) > 1:
            return ROLE_WORDS[t.value] + nxt.value[:-1], i + 2
        if nxt.type == "str" and nxt.colon:
            return ROLE_WORDS[t.value] + nxt.value, i + 2
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


# --- turn numbers as the live recorder checks them ------------------------------------------------


def turn_number_problem(grammar: Grammar, a: Action, before: int, after: int) -> str | None:
    """What is wrong with the number an action gives its turn, judged against the turn the table
    was in just before it and just after it, or None. The live recorder refuses such a line ("checked, never
    renumbered"): a header where the ruleset derives the number must name the turn the log reaches,
    and one where the number is written into the event (table, ken, onigashima `T3`, grandline
    `R3`) must be the next turn. Reading a file, a written number is a fact the rules judge instead
    (game.check_turn_number)."""
    counted = grammar.counted_kind or grammar.turn_kind
    if counted is None or a.kind != counted:
        return None
    stored = "number" in grammar.hints(a.kind)
    n = a.payload.get("number") if stored else a.turn_number
    if n is None:
        return None
    expected = before + 1 if stored else after
    if n == expected:
        return None
    word = grammar.counted_word
    return (f"the log expects {word}{expected} here, the line says {word}{n}: write {word}{expected} "
            f"(or {word} alone for the next one)")


def input_message(e: InputError) -> str:
    """A refused action's input error in the notation's words: a missing value is "expected a
    value for X", never a field path. The terminal's `live` and the web's recorder say it so: the
    web wrapped str(e) ("field 'line': field 'payload.voids': ...", QA80 8)."""
    msg = e.message
    # a field of the line is named as typed (`count`); one inside a replacement's JSON by its whole
    # path, as `log --instead` names it (engine.replacing.replacement_field): one spelling
    name = e.field.split(".", 1)[1] if e.field.startswith("payload.") and not \
        e.field.startswith(replacement_field()) else e.field
    if msg.startswith("required"):
        return f"expected a value for {name}"
    return f"{name}: {msg}" if name else msg
