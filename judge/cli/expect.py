"""`--expect N` for `log` and `import`: the writer says which event it last saw. If the log has
moved since, it is shown what moved (each event, who recorded it and when); at a terminal it is
asked whether to store after them (judged against the table as it is now); otherwise, or if it
says no, nothing is stored and the exit code is 3. Never silent."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from engine.events import RecordedEvent
from engine.store import ConflictError, EventStore, MatchNotFound


def moved_lines(events: list[RecordedEvent], describe: Callable[[RecordedEvent], str]) -> list[str]:
    return [f"  #{e.position} [{e.recorded_by} at {e.recorded_at}] {describe(e)}" for e in events]


def confirm_expected(store: EventStore, match: str, expected: int, *, what: str,
                     describe: Callable[[RecordedEvent], str],
                     repeats: Callable[[list[RecordedEvent]], list[RecordedEvent]] | None = None,
                     ask: bool | None = None) -> int:
    """The position to append after: `expected` when the log still ends there; the new end when
    it moved and the writer, shown what moved, says to store anyway. Raises ConflictError (exit 3,
    nothing stored) otherwise. `repeats(moved)` names moved events that say what this write says."""
    head = store.head(match)
    if head is None:
        raise MatchNotFound(f"no match {match!r}")
    if head.position == expected:
        return expected
    if head.position < expected:
        raise ConflictError.stale(match, expected, head.position)
    moved = store.read(match, after=expected)
    click.echo(f"the log moved since event {expected}: {len(moved)} new event"
               f"{'s' if len(moved) != 1 else ''}:", err=True)
    for line in moved_lines(moved, describe):
        click.echo(line, err=True)
    same = repeats(moved) if repeats else []
    if same:
        click.echo(f"your {what} repeats " + ", ".join(f"#{e.position} (by {e.recorded_by})" for e in same)
                   + ": it is probably stored already", err=True)
    ask = sys.stdin.isatty() if ask is None else ask
    if ask and click.confirm(f"store your {what} after them anyway (judged against the table as it is now)?",
                             default=False, err=True):
        return head.position
    raise ConflictError.stale(match, expected, head.position)


def same_event(kind: str, actor: str, payload: dict[str, Any]) -> Callable[[list[RecordedEvent]], list[RecordedEvent]]:
    def find(moved: list[RecordedEvent]) -> list[RecordedEvent]:
        return [e for e in moved if (e.kind, e.actor, e.payload) == (kind, actor, payload)]
    return find
