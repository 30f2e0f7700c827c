"""Who stored an event, in words for the person reading a conflict: the web's "not stored: the log
moved" answer, the live recorder's "the log moved before your line was stored", an undo refused.
One wording for all, so the web and the terminal name the same writer the same way."""
from __future__ import annotations

import re

from engine.events import JUDGE_PREFIX, RecordedEvent

_LINK_RECORDER = re.compile(r"\(link [^()]+\)$|^player link, ")  # the web Grant.recorded_by's shapes


def recorder_words(recorded_by: str) -> str:
    """Who recorded an event, for a web page: a link's name as it is; anything else was recorded
    outside the web desk (QA77 7: "recorded by root" was the OS user at a terminal). Whether that
    name was typed (--by, $TABLEJUDGE_USER) or the OS user's is not in the event, so it is said
    as where, not who."""
    if _LINK_RECORDER.search(recorded_by):
        return recorded_by
    return f"{recorded_by} (at a terminal or by an import, not a web link)"


def who_stored(e: RecordedEvent) -> str:
    """The writer of `e`: a web link's name as it is; a judge's event stored outside the web by the
    judge it names (`judge:W1`: QA78 LOW-2, "by root" named only the OS user), with where and as
    which user; anything else as recorder_words says it."""
    if not _LINK_RECORDER.search(e.recorded_by) and e.actor.startswith(JUDGE_PREFIX):
        return f"{e.actor} (at a terminal or by an import, as {e.recorded_by})"
    return recorder_words(e.recorded_by)
