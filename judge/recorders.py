"""Who stored an event, in words for the person reading a conflict: the web's "not stored: the log
moved" answer and the live recorder's "the log moved before your line was stored". One wording for
both, so the web and the terminal name the same writer the same way (the pages' own wording of a
recorder is engine.events.recorder_words, which this builds on)."""
from __future__ import annotations

from engine.events import JUDGE_PREFIX, RecordedEvent, recorded_on_the_web, recorder_words


def who_stored(e: RecordedEvent) -> str:
    """The writer of `e`: a web link's name as it is; a judge's event stored outside the web by the
    judge it names (`judge:W1 (tester, at a terminal)`: QA78 LOW-2, "by root" named only the OS
    user); anything else as recorder_words says it."""
    if not recorded_on_the_web(e.recorded_by) and e.actor.startswith(JUDGE_PREFIX):
        return f"{e.actor} ({recorder_words(e.recorded_by)})"
    return recorder_words(e.recorded_by)
