"""Whole games: read a text into a match's drafts (turn numbers checked against the derived table), and
write a match back as canonical text."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.events import TABLE_ACTOR, RecordedEvent
from engine.match import InputError
from engine.notation.grammar import Action, Grammar, grammar_for, make_ctx
from engine.notation.header import Header, format_header, parse_header
from engine.notation.lexer import NotationError, tokenize
from engine.notation.lines import parse_line
from engine.replay import Fold
from engine.replacing import StandingAfter
from engine.rulesets import Ruleset
from engine.state import TableState
from engine.schema import shown

# --- tracking the table while reading or writing (turn numbers are derived) -------------------


def probe(match_id: str, position: int, kind: str, version: int, actor: str, payload: dict,
          recorded_by: str = "", recorded_at: str = "") -> RecordedEvent:
    return RecordedEvent(match_id, position, kind, version, actor, payload, recorded_at, recorded_by, "", "")


# --- whole games ---------------------------------------------------------------------------------


def format_game(created: RecordedEvent, events: Sequence[RecordedEvent], ruleset: Ruleset, *,
                match_id: str | None = None, cards: Callable[[Ruleset], Any] | None = None) -> str:
    """A whole log (match.created first, then the rest) as canonical notation text. With the card
    data (`cards`, as for read_game), a decklist whose facts are the card data's is written as a
    short [Deck] tag (it reads back as the same event)."""
    grammar = grammar_for(ruleset)
    ctx = make_ctx(created.payload["players"], ruleset, grammar)
    lookup = cards(ruleset) if cards is not None else None
    if lookup is not None:
        ctx.card_fill = lookup.fill
    body = [e for e in events if e.position != created.position]
    decks: list[tuple[str, str]] = []
    for e in body:  # the leading decklists go into the header
        text = grammar.deck_text(e, ctx)
        if text is None:
            break
        decks.append((e.actor, text))
    lines = format_header(created.payload, match_id, decks, ctx)
    lines.append("")
    tracker = Fold(ruleset, created)  # the table as the file is written: replay's own fold
    turn_actor = None  # a turn header's line takes the first action of that player too
    for i, e in enumerate(body):
        tracker.push(e)
        if i < len(decks):
            continue
        line = grammar.format_event(e, ctx, turn_number=tracker.state.turn)
        if turn_actor == e.actor and line.startswith(ctx.actor_text(e.actor) + " "):
            lines[-1] += line[len(ctx.actor_text(e.actor)):]
            turn_actor = None
            continue
        turn_actor = e.actor if grammar.is_turn_header(e, ctx) else None
        lines.append(line)
    return "\n".join(lines) + "\n"


@dataclass
class ReadGame:
    """A notation file read and validated: the match.created draft and every event's draft, with the
    line each came from."""

    header: Header
    created: Any  # engine.events.Draft
    drafts: list[Any]
    lines: list[int]
    # how the card data picked a card for a name, with the line it was said on: (line, note), in the
    # card data's own words ("nami → OP09-050, the only Nami in Ann's deck colours (Blue)")
    notes: list[tuple[int, str]] = field(default_factory=list)
    # card numbers the card data does not hold (a typo?), with the line: (line, notice). Said, not
    # stored: the card data is not part of the log, so judging later cannot tell (carddb `fill`)
    notices: list[tuple[int, str]] = field(default_factory=list)


def read_game(text: str, path: str = "", *, recorded_by: str | None = None,
              cards: Callable[[Ruleset], Any] | None = None,
              continues: TableState | None = None) -> ReadGame:
    """Parse and validate a whole notation file; nothing is stored. Raises NotationError (an
    InputError) naming FILE:LINE:COL and what was expected there.

    `cards(ruleset)` may give the card data for the file's game (judge.io.carddb.match_cards): an
    object with `resolve(word, state, player, field)` (a card's name -> its number, as the table stands),
    `complete(kind, payload, table, kind_at)` (the facts a payload carries, e.g. a decklist's; a
    correction's replacement, JSON as typed, with its names resolved), `take_notes()` (how the
    names since the last call were narrowed: kept with their line in ReadGame.notes, for the import's
    summary to show) and `take_notices()` (card numbers since the last call that the card data lacks:
    ReadGame.notices, likewise); None for no card data.

    `continues`: the table of the match the file is appended to (`import --match`), at its last
    event. A turn header's number may then count on from the match (the file continues it) or from
    the file's own start (a whole game imported again, or a grown copy of it): the first numbered
    header says which, and every later one must agree with that count."""
    from engine.match import EventValidator, creation_draft
    from engine.rulesets import get_ruleset

    lines = text.splitlines()
    try:
        header = parse_header(lines)
    except NotationError as e:
        raise e.at(path, 0) from None
    try:
        created = creation_draft(header.ruleset, header.players, event=header.event,
                                 round=header.round, table=header.table,
                                 options=header.options or None, recorded_by=recorded_by)
    except InputError as e:
        raise NotationError(e.message, line=1, col=1, path=path) from None
    ruleset = get_ruleset(header.ruleset)(header.options)
    grammar = grammar_for(ruleset)
    ctx = make_ctx(created.payload["players"], ruleset, grammar)
    lookup = cards(ruleset) if cards is not None else None
    validator = EventValidator(ruleset, ctx.players)
    created_event = probe(header.match or "", 1, "match.created", created.version, TABLE_ACTOR,
                          created.payload)
    tracker = Fold(ruleset, created_event)  # the table as the file is read
    counts = [Count("the log" if continues is None else "the file alone", tracker)]
    if continues is not None:
        counts.append(Count("the match", Fold(ruleset, created_event, base=continues.to_dict(),
                                              base_pos=continues.position), continues.position))
    if lookup is not None:
        ctx.card_ref = lambda word, player, field: lookup.resolve(word, tracker.state, player, field)
        # a replacement (`void N instead={..}`) is JSON as typed: its names resolved as `log --instead`'s
        ctx.card_fill = lambda kind, payload: lookup.complete(kind, payload, lambda: tracker.state, kinds.get)
    drafts: list[Any] = []
    where: list[int] = []
    notes: list[tuple[int, str]] = []
    notices: list[tuple[int, str]] = []
    kinds = {1: "match.created"}
    corrections = StandingAfter()  # the file's corrections so far (no log beneath)

    def noted(line: int) -> None:
        if lookup is not None:
            notes.extend((line, n) for n in lookup.take_notes())
            notices.extend((line, n) for n in lookup.take_notices())

    def add(kind: str, actor: str, payload: dict, line: int, col: int) -> Any:
        head = len(drafts) + 1
        try:
            if ctx.card_fill is not None:
                payload = ctx.card_fill(kind, payload)
            d = validator.draft(kind, payload, actor=actor, recorded_by=recorded_by, head=head,
                                kind_at=kinds.get, corrections=corrections)
        except InputError as e:
            msg = e.message if not e.field else f"{e.field}: {e.message}"
            raise NotationError(msg, line=line, col=col, path=path) from None
        drafts.append(d)
        where.append(line)
        kinds[head + 1] = kind
        corrections.note(head + 1, d)
        for c in counts:
            c.fold.push(probe("", c.start + head + 1, d.kind, d.version, d.actor, d.payload))
        return d

    for seat, deck, line, col in header.decks:
        player = ctx.player(seat)
        if player is None:
            raise NotationError(f"[Deck] names {shown(seat)}, not a seat ({', '.join(ctx.player_at)})",
                                line=line, col=col, path=path)
        ctx.speaker = player  # a [Deck] tag's names are that player's cards (card_ref), as a deck line's
        try:
            kind, actor, payload = grammar.deck_event(player, tokenize(deck, line), ctx)
        except NotationError as e:
            raise NotationError(f"in the decklist: {e.message}", line=line, col=col, path=path) from None
        add(kind, actor, payload, line, col)
        noted(line)
    for idx in range(header.lines, len(lines)):
        lineno = idx + 1
        if not lines[idx].strip():
            continue
        if lines[idx].lstrip().startswith("["):
            raise NotationError("a tag after the first action: tags belong in the header block",
                                line=lineno, col=1, path=path)
        try:
            actions = parse_line(lines[idx], lineno, grammar, ctx)
        except NotationError as e:
            raise e.at(path, lineno) from None
        for a in actions:
            add(a.kind, a.actor, a.payload, lineno, a.col)
            counts = check_turn_number(grammar, a, counts, path)
        noted(lineno)  # after add: a replacement's names are resolved (and noted) there
    if not drafts and not header.players:
        raise NotationError("the file holds no game", line=1, col=1, path=path)
    return ReadGame(header, created, drafts, where, notes, notices)


@dataclass
class Count:
    """One way of counting a file's turns: its table (`fold`), named for a refusal, with the
    position its first event would take less one."""

    name: str
    fold: Fold
    start: int = 0


def check_turn_number(grammar: Grammar, a: Action, counts: list[Count], path: str = "") -> list[Count]:
    """A turn header's number, where the ruleset derives it, must be the turn the log reaches by one
    of `counts` (a file appended to a match: the match's, or the file's own); the counts it agrees
    with are kept for the next header."""
    if a.turn_number is None or a.kind != grammar.turn_kind or "number" in grammar.hints(a.kind):
        return counts
    kept = [c for c in counts if c.fold.state.turn == a.turn_number]
    if kept:
        return kept
    said = ", ".join(f"{c.name} makes this turn {c.fold.state.turn}" for c in counts)
    expected = " or ".join(f"T{t}" for t in dict.fromkeys(c.fold.state.turn for c in counts))
    raise NotationError(f"{said}, the header says T{a.turn_number}: expected {expected} (or T alone)",
                        line=a.line, col=a.col, path=path)


def normalise(text: str) -> str:
    """Text up to whitespace (what the round trip compares)."""
    return re.sub(r"\s+", "", text)
