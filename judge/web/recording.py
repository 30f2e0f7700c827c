"""The match recorder's core, for the web page (and any program): one notation line in, stored as
one transaction or not at all; the buttons for what is open now; undo as a correction.

The line goes through the same pieces as the terminal recorder: the ruleset's grammar
(engine/notation: `parse_line`) into actions, each validated (`Match.draft`) and judged on a copy of
the table, then stored together by `Match.record_many` right after the event the line was judged
against (one transaction: a lost race stores nothing). Record, then judge: an illegal move is
stored and comes back with its findings.

Two recorders: the page says which event it last showed (`seen`). If the log has moved since,
nothing is stored: the outcome lists what the other recorder stored (and which of it repeats this
line), and the page asks before storing the line after them (`seen` = the new head).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.desk import JUDGE_ONLY_KINDS
from engine.events import JUDGE_PREFIX, TABLE_ACTOR, RecordedEvent
from engine.findings import Finding
from engine.match import InputError, Match, Recorded
from engine.notation import NotationError, check_turn_number, grammar_for, make_ctx, parse_line, probe
from engine.replay import VOIDING_KINDS
from engine.state import TableState
from engine.store import ConflictError

MAX_LINE = 4000
# judge actions written with no prefix on the line are the recorder's own (a judge's link: the judge's)
OWN_KINDS = frozenset(JUDGE_ONLY_KINDS) | {"time.called", "round.start", "judge.call", "correction"}


class LineRefused(InputError):
    """A line that could not be stored: nothing of it was. `col`: 1-based column of the problem."""

    def __init__(self, message: str, col: int = 1, field: str = "line"):
        super().__init__(message, field=field)
        self.col = max(1, col)


@dataclass
class LineOutcome:
    status: str                                  # "stored" or "moved" (nothing stored: look first)
    head: int                                    # the log's last event now
    recorded: list[Recorded] = field(default_factory=list)
    moved: list[RecordedEvent] = field(default_factory=list)   # stored by others since `seen`
    repeats: list[int] = field(default_factory=list)           # of those, the ones this line repeats

    def to_dict(self, describe: Callable[[RecordedEvent], str]) -> dict[str, Any]:
        return {"status": self.status, "head": self.head,
                "recorded": [{"position": r.event.position, "kind": r.event.kind, "text": describe(r.event),
                              "findings": [f.to_dict() for f in r.findings]} for r in self.recorded],
                "moved": [{"position": e.position, "text": describe(e), "by": e.recorded_by,
                           "at": e.recorded_at, "repeat": e.position in self.repeats} for e in self.moved]}


def parse(match: Match, text: str, own_actor: str) -> list[Any]:
    """The actions of a line; LineRefused (with the column) if it does not read."""
    if not isinstance(text, str) or not text.strip():
        raise LineRefused("type an action (or tap one of the buttons)")
    if len(text) > MAX_LINE or "\x00" in text:
        raise LineRefused(f"a line has at most {MAX_LINE:,} characters", col=MAX_LINE)
    grammar = grammar_for(match.ruleset)
    ctx = make_ctx(match.players, match.ruleset, grammar)
    try:
        return parse_line(text, 0, grammar, ctx,
                          default_actor=lambda kind: own_actor if kind in OWN_KINDS else TABLE_ACTOR)
    except NotationError as e:
        raise LineRefused(e.message, col=e.col) from None


def record_line(match: Match, text: str, *, own_actor: str, recorded_by: str, seen: int,
                may_act_as_judge: bool) -> LineOutcome:
    """Store one line as one transaction after event `seen` (the last the page showed), or report
    what moved since. LineRefused: malformed (nothing stored, `col` says where). PermissionError: a
    line acting as a judge from a link that is not a judge's."""
    actions = parse(match, text, own_actor)
    if not may_act_as_judge:
        for a in actions:
            if a.actor.startswith(JUDGE_PREFIX):
                raise PermissionError(f"only a judge's link records as a judge (column {a.col}: "
                                      f"{a.actor[len(JUDGE_PREFIX):]!r})")
    head_event = match.store.head(match.id)
    head = head_event.position
    if seen != head:
        return _moved(match, actions, seen, head, recorded_by)
    drafts, findings = judge_actions(match, actions, head, recorded_by)
    try:
        events = match.record_many(drafts, expected_position=head)
    except ConflictError:
        return _moved(match, actions, seen, match.head_position(), recorded_by)
    return LineOutcome("stored", events[-1].position,
                       [Recorded(e, [_at(f, e.position) for f in fs]) for e, fs in zip(events, findings)])


def judge_actions(match: Match, actions: list[Any], head: int, recorded_by: str) -> tuple[list[Any], list[list[Finding]]]:
    """Validate each action and play the line on a copy of the table: its drafts and each one's
    findings. LineRefused (the action's column) on bad input or a wrong turn number."""
    table = match.state(at=head).copy()
    grammar = grammar_for(match.ruleset)
    drafts, findings = [], []
    for k, a in enumerate(actions):
        try:
            d = match.draft(a.kind, a.payload, actor=a.actor, recorded_by=recorded_by, head=head + k)
        except InputError as e:
            raise LineRefused(f"{e}", col=a.col) from None
        ev = probe(match.id, head + k + 1, d.kind, d.version, d.actor, d.payload, d.recorded_by)
        try:
            fs = match.ruleset.check(table, ev)
        except Exception as err:  # noqa: BLE001 - a ruleset bug: stored and flagged by replay (DESK-10)
            fs = []
            del err
        if d.kind not in VOIDING_KINDS:  # a void's effect needs the whole log; replay shows it
            try:
                match.ruleset.apply(table, ev)
            except Exception:  # noqa: BLE001 - replay keeps it and flags it (DESK-10)
                pass
        table.position = ev.position
        try:
            check_turn_number(grammar, a, table)
        except NotationError as e:
            raise LineRefused(e.message, col=a.col) from None
        drafts.append(d)
        findings.append(fs)
    return drafts, findings


def _moved(match: Match, actions: list[Any], seen: int, head: int, recorded_by: str) -> LineOutcome:
    moved = match.store.read(match.id, after=max(seen, 1), upto=head) if seen < head else []
    wanted = []
    for a in actions:
        try:
            d = match.draft(a.kind, a.payload, actor=a.actor, head=head)
            wanted.append((d.kind, d.actor, d.payload))
        except InputError:
            continue
    repeats = [e.position for e in moved if (e.kind, e.actor, e.payload) in wanted]
    return LineOutcome("moved", head, moved=moved, repeats=repeats)


def _at(f: Finding, position: int) -> Finding:
    from dataclasses import replace
    return replace(f, position=position)


# --- undo ---------------------------------------------------------------------------------------


def last_own_event(match: Match, recorded_by: str) -> RecordedEvent | None:
    """The last event this link recorded that still counts (never another recorder's)."""
    voided = set(match.state().voided)
    for e in reversed(match.store.read(match.id, after=1)):
        if e.recorded_by == recorded_by and e.position not in voided and e.kind not in VOIDING_KINDS:
            return e
    return None


def undo(match: Match, *, actor: str, recorded_by: str, reason: str | None = None) -> tuple[Recorded, RecordedEvent]:
    """A correction voiding this link's own last event; the original stays in the log."""
    target = last_own_event(match, recorded_by)
    if target is None:
        raise InputError("nothing of yours to undo (a judge voids another's event with a correction)",
                         field="undo")
    rec = match.record("correction", {"voids": target.position,
                                      "reason": reason or "undone on the recorder page"},
                       actor=actor, recorded_by=recorded_by)
    return rec, target


# --- the buttons: what is open now ----------------------------------------------------------------


@dataclass
class Button:
    line: str
    why: str
    group: str


def buttons(match: Match, state: TableState) -> tuple[list[Button], list[str]]:
    """Lines the ruleset's grammar proposes now (its `suggestions` hook), kept when the rules raise
    no error against `state`; and the grammar's notes on what it could not know (unseen hands)."""
    grammar = grammar_for(match.ruleset)
    ctx = make_ctx(match.players, match.ruleset, grammar)
    out: list[Button] = []
    seen_lines = set()
    try:
        proposed = grammar.suggestions(state, ctx)
        notes = list(getattr(grammar, "suggestion_notes", lambda s, c: [])(state, ctx))
    except Exception:  # noqa: BLE001 - a grammar bug leaves the notation box, not a broken page
        return [], ["(the buttons could not be worked out for this table: type the line)"]
    for item in proposed:
        line = getattr(item, "line", item)
        if line in seen_lines:
            continue
        seen_lines.add(line)
        try:
            actions = parse_line(line, 0, grammar, ctx)
            ok = all(_acceptable(match, state, a) for a in actions if a.kind != grammar.turn_kind) \
                if len(actions) > 1 else _acceptable(match, state, actions[0])
        except (NotationError, InputError, IndexError):
            continue
        if ok:
            out.append(Button(line, getattr(item, "why", ""), getattr(item, "group", "") or "actions"))
    return out, notes


def _acceptable(match: Match, state: TableState, a: Any) -> bool:
    d = match.draft(a.kind, a.payload, actor=a.actor, head=state.position)
    e = probe(match.id, state.position + 1, d.kind, d.version, d.actor, d.payload)
    try:
        return not any(f.severity == "error" for f in match.ruleset.check(state.copy(), e))
    except Exception:  # noqa: BLE001
        return False
