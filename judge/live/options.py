"""`?` in the live recorder: what can be done now. The ruleset's grammar proposes lines from what
the table knows (the plays affordable from the known cards, the legal attack targets, the blocks
and counters open in the current step); each is judged against the table as it is, and only the
ones the rules do not flag as an error are listed. With unseen cards in a hand the options come
from the known cards only, and the list says so."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.match import InputError, Match
from engine.notation import Ctx, Grammar, NotationError, Suggestion, parse_line
from engine.state import TableState

LiveSession = Any  # judge.live.session.LiveSession (which imports this module)


def open_options(session: "LiveSession") -> list[Suggestion]:
    """The grammar's candidates for this moment that the rules accept."""
    return options(session.match, session.grammar, session.ctx, session.state(), session._default_actor)


def options(match: Match, grammar: Grammar, ctx: Ctx, state: TableState,
            default_actor: Callable[[str], str] | None = None) -> list[Suggestion]:
    """The grammar's candidates for the table `state` (the match's table after its last event, or
    that table as a viewer sees it) that the rules accept: what `?` lists and the web recorder's
    buttons show."""
    head = match.store.head(match.id)
    out: dict[str, Suggestion] = {}
    for cand in grammar.suggestions(state, ctx):
        s = cand if isinstance(cand, Suggestion) else Suggestion(cand)
        if s.line in out:
            continue
        if s.fill:  # a placeholder does not read as a card: judged once completed and sent
            out[s.line] = s
            continue
        try:
            actions = parse_line(s.line, 0, grammar, ctx, default_actor=default_actor)
            batch = match.judge_batch([(a.kind, a.payload, a.actor) for a in actions], after=head, table=state)
        except (NotationError, InputError):
            continue
        if not batch.errors():
            out[s.line] = s
    return list(out.values())


def legal_now(session: "LiveSession") -> list[str]:
    options = open_options(session)
    state = session.state()
    lines = ["  open now (judged against the table; no rule flags them):"]
    groups: dict[str, list[Suggestion]] = {}
    for s in options:
        groups.setdefault(s.group, []).append(s)
    for name, items in groups.items():
        if name:
            lines.append(f"   {name}:")
        for s in items:
            lines.append(f"    {s.line}" + (f"    ({s.why})" if s.why else "") + ("    [to complete]" if s.fill else ""))
    if not options:
        lines.append("    (nothing the grammar proposes: help lists every action)")
    lines += [f"  {note}" for note in session.grammar.suggestion_notes(state, session.ctx)]
    lines.append("  (anything can be recorded: the rules flag, never block)")
    return lines
