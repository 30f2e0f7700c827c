"""When the log moved under a recorder: the other recorder's events as lines (who recorded each,
and when), and how much of a typed line repeats them (two recorders typing the same turn)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.events import RecordedEvent
from engine.match import Match
from engine.notation import Action
from engine.schema import PayloadError


def event_line(e: RecordedEvent, text: str) -> str:
    """`[laptop2 14:32:05] #14 B: counter OP01-024`: the event as typed, who recorded it, when."""
    when = e.recorded_at[11:19] if len(e.recorded_at) >= 19 else e.recorded_at
    return f"  [{e.recorded_by} {when}] #{e.position} {text}"


def _key(kind: str, actor: str, payload: dict[str, Any]) -> tuple:
    import json
    return kind, actor, json.dumps(payload, sort_keys=True, ensure_ascii=False)


def normalised(match: Match, a: Action) -> tuple | None:
    """An action as it would be stored (defaults dropped), to compare with stored events."""
    v = match.validator
    cls = v.vocab.get(a.kind)
    if cls is None:
        return None
    try:
        payload = cls.parse(a.payload, v.ctx).to_dict()
    except (PayloadError, ValueError, TypeError):
        return None
    return _key(a.kind, a.actor, payload)


def repeated(match: Match, actions: Sequence[Action], moved: Sequence[RecordedEvent]) -> tuple[int, list[RecordedEvent]]:
    """How many of the line's first actions the moved events already hold, in a row (the longest
    such start of the line), and those events. (0, []) when the line does not start with them."""
    mine = [normalised(match, a) for a in actions]
    theirs = [_key(e.kind, e.actor, e.payload) for e in moved]
    best, where = 0, 0
    for start in range(len(theirs)):
        n = 0
        while n < len(mine) and start + n < len(theirs) and mine[n] is not None and mine[n] == theirs[start + n]:
            n += 1
        if n > best:
            best, where = n, start
    return best, list(moved[where:where + best])


def describe_moved(moved: Sequence[RecordedEvent], line_of: Callable[[RecordedEvent], str]) -> list[str]:
    return [event_line(e, line_of(e)) for e in moved]
