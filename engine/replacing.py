"""A correction that replaces: "event N should have read X".

A `correction` voids event N ("it never happened"). With `instead` it also says what N should have
read: `{"kind", "version", "actor", "payload"}`, an event of N's own kind. The log keeps N as it
was recorded (immutable) and the correction after it; replay plays X in N's place, so what came
after N is judged on the table as corrected (a Life card taken at turn 3 comes off the corrected
set-up, not off a set-up placed again at turn 6).

The choices, all in one place:

- only a judge (`judge:NAME`) replaces, and only a game event: a judge action, the clock, a slip,
  a note, a correction or a backup is changed by recording the next one (a penalty's override, a
  correction voiding it), as before; event 1 is never voided, so never replaced;
- the replacement is of N's kind (a different act is voided and recorded as what it was) and is
  checked like any event of that kind when the correction is recorded (schema, text, limits, the
  events its fields name must come before N);
- several corrections of the same N: the latest wins (a plain one after a replacement voids N
  outright again; a replacement after a plain one replaces it); but once a judge's correction
  stands on N, only a judge may correct N again or back up past it (a scorekeeper's `void N` does
  not overrule a judge), and a replacement the same as the standing one is refused (a double submit);
- its actor is checked as any event's (a player, the table, a judge or scorekeeper by name); one that
  is not a player of the match nor the table is flagged at the correction (DESK-16: the judge's own
  name copied in would say the judge made the play), not refused;
- its own findings are said at N, their words naming the correction they come from (a later event's
  findings on the corrected table, such as the first turn's set-up check, stay at that event);
- hidden information: a viewer gets X hidden as an event of its kind is (`hide`), so a replacement
  shows no more than the event it replaces would.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace as _with
from typing import Any, NamedTuple

from engine.events import RecordedEvent
from engine.findings import Finding
from engine.superseding import superseded  # noqa: F401 - one rule, kept importable from here

INSTEAD_FIELDS = ("kind", "version", "actor", "payload")
WHERE = "payload.instead"  # the correction's field that holds the replacement


def replacement_field(inside: str = "") -> str:
    """A field of a replacement named as every refusal names it, from the event down
    (`payload.instead.payload.count`): the schema, the validator and the card names alike."""
    return f"{WHERE}.{inside}" if inside else WHERE


class Replacement(NamedTuple):
    """What event `event.position` should have read, and the correction (`by`) that says so."""

    by: int
    event: RecordedEvent


def replacement_of(correction: RecordedEvent) -> RecordedEvent | None:
    """The event a correction plays in its target's place (None: it only voids). It stands at the
    target's position; its time and recorder are the correction's (that is when it was said)."""
    p = correction.payload
    x = p.get("instead") if correction.kind == "correction" else None
    if not isinstance(x, dict):
        return None
    return RecordedEvent(correction.match, p["voids"], x.get("kind", ""), x.get("version", 1),
                         x.get("actor", "-"), x.get("payload") or {}, correction.recorded_at,
                         correction.recorded_by, "", "")


def noted(table: dict[int, Replacement], correction: RecordedEvent) -> bool:
    """Update `table` (position -> its replacement) with one more correction: the latest
    correction of a position decides. True if that changed what is played there."""
    if correction.kind != "correction":
        return False
    target = correction.payload["voids"]
    event = replacement_of(correction)
    before = table.get(target)
    if event is None:
        table.pop(target, None)
        return before is not None
    table[target] = Replacement(correction.position, event)
    return True


class StandingCorrection(NamedTuple):
    """The correction that last said what an event is (the latest of its corrections decides): who
    said it, and what the event should have read (None: void outright)."""

    position: int
    actor: str
    instead: dict[str, Any] | None


def standing(events: Iterable[tuple[int, Any]],
             into: dict[int, StandingCorrection] | None = None) -> dict[int, StandingCorrection]:
    """Each event the corrections among `events` ((position, event), in order; an event: anything
    with kind, actor and payload, a draft included) correct, with its standing correction, added to
    `into`. What the validator asks before a correction or a backup changes an event a judge ruled on."""
    out = {} if into is None else into
    for position, e in events:
        if e.kind == "correction":
            out[e.payload["voids"]] = StandingCorrection(position, e.actor, e.payload.get("instead"))
    return out


class StandingAfter:
    """`engine.match.Corrections` for a recorder drafting events one after another (a batch, an
    import, a notation file): called with n, the standing correction of each event after n.

    Two sources, the later standing over the earlier as the latest correction decides:
    `earlier`, the (position, event) pairs before the first draft (the log, or a worker's lines
    before its chunk), read at the first question and kept: once per batch or import, and never
    where no correction or backup is drafted; then the drafts `note`d since, all of them (each
    comes after any n asked). One piece for the four recorders: the one-process import used to
    read the log again for each correction line (k reads where the batch read once)."""

    __slots__ = ("_earlier", "_read", "_noted")

    def __init__(self, earlier: Callable[[], Iterable[tuple[int, Any]]] | None = None):
        self._earlier = earlier
        self._read: list[tuple[int, Any]] | None = None if earlier is not None else []
        self._noted: dict[int, StandingCorrection] = {}

    def note(self, position: int, event: Any) -> None:
        """One more draft, at `position` (not a correction: nothing to note)."""
        standing([(position, event)], into=self._noted)

    def __call__(self, position: int) -> dict[int, StandingCorrection]:
        if self._read is None:
            assert self._earlier is not None
            self._read = [(p, e) for p, e in self._earlier() if e.kind == "correction"]
        out = standing((p, e) for p, e in self._read if p > position)
        out.update(self._noted)
        return out


def replacements(events: Sequence[RecordedEvent]) -> dict[int, Replacement]:
    """Every position the corrections among `events` replace, with what plays there."""
    table: dict[int, Replacement] = {}
    for e in events:
        noted(table, e)
    return table


def marks(events: Sequence[RecordedEvent], voided: set[int]) -> dict[int, dict[str, Any]]:
    """What a listing of the log says beside an event beyond "void": the correction that replaced
    it (`replaced_by`), or, of a correction, the later one of the same event that superseded it
    (`superseded_by`). `events list` and its JSON say these; a stale time decision a later one
    superseded (`superseded_by_event`), or one still waiting for a new decision (`out_of_date`, with
    the command that decides again in `decide_again`), is marked by the caller (engine/decisions.py)."""
    out: dict[int, dict[str, Any]] = {}
    for p, r in replacements(events).items():
        if p in voided:
            out[p] = {"replaced_by": r.by}
    for p, by in superseded(events).items():
        out.setdefault(p, {})["superseded_by"] = by
    return out


def mark_words(mark: dict[str, Any] | None, void: bool) -> str:
    """The listing's words for an event's mark: "(replaced by correction 64)", "(superseded by
    correction 65)", "(void)"."""
    mark = mark or {}
    if "replaced_by" in mark:
        return f" (replaced by correction {mark['replaced_by']})"
    if "superseded_by" in mark:
        return f" (superseded by correction {mark['superseded_by']})"
    if "superseded_by_event" in mark:  # a stale time decision decided again (engine/decisions.py)
        return f" (superseded by event {mark['superseded_by_event']})"
    if "out_of_date" in mark:  # a stale time decision not yet decided again
        return f" ({mark['out_of_date']}: decide again)"
    return " (void)" if void else ""


def from_correction(f: Finding, by: int) -> Finding:
    """A finding on a replacement: said at the replaced event, naming the correction it comes from."""
    return _with(f, message=f"{f.message} (event {f.position} as correction {by} has it read)")


def hide(ruleset: Any, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """`ruleset.hide` for any event, a replacing correction included: its replacement is hidden as
    an event of the replacement's kind is, so a viewer learns no card the replaced event would hide."""
    x = payload.get("instead") if kind == "correction" else None
    if not isinstance(x, dict):
        return ruleset.hide(kind, payload)
    inner = ruleset.hide(x.get("kind", ""), dict(x.get("payload") or {}))
    return {**payload, "instead": {**x, "payload": inner}}


def describe(correction: RecordedEvent, describe_event: Any) -> str | None:
    """A replacing correction in words (None: a plain one): what event N should have read."""
    event = replacement_of(correction)
    if event is None:
        return None
    return (f"correction: event {event.position} should read: {describe_event(event)} "
            f"({correction.payload.get('reason', '')})")
