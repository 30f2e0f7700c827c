"""Who acts on a recorder's line that names no actor (no `Ann:`, no `judge Kim:`): one rule for the
terminal recorder (`tablejudge live`) and the web's, which had each written it.

A judge's action is the judge's (refused where the recorder has no judge to give it to); the other
desk actions are the judge's, else the recorder's own; a correction is whoever typed it (judge:Kim,
scorekeeper:Sam); everything else is the table's."""
from __future__ import annotations

from engine.desk import JUDGE_ONLY_KINDS
from engine.events import TABLE_ACTOR
from engine.notation import NotationError

# Desk actions written without a prefix: a judge's, else the recorder's own.
JUDGE_DEFAULT_KINDS = frozenset(JUDGE_ONLY_KINDS | {"time.called", "round.start", "judge.call"})


def default_actor(kind: str, *, me: str, judge: str | None, no_judge: str) -> str:
    """The actor of a `kind` line with no prefix, typed on a recorder whose own acts are `me`'s and
    whose judge is `judge` (None: none). `no_judge`: how this recorder's user gets a judge's action
    recorded, said when one is typed with no judge to give it to."""
    if kind in JUDGE_ONLY_KINDS:
        if judge is None:
            raise NotationError(f"{kind} is a judge's action: {no_judge}")
        return judge
    if kind in JUDGE_DEFAULT_KINDS:
        return judge or me
    if kind == "correction":
        return me
    return TABLE_ACTOR
