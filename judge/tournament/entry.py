"""Results entry for scorekeepers: many tables in one atomic batch, the same result twice stored
once, an overwrite shown and refused unless asked for, and undo.

    record_results(t, [(12, "2-1"), (13, "0-2")])          # one batch, one commit
    record_results(t, [(12, "1-2")], overwrite=True, reason="slip misread")
    undo_result(t, 12, reason="typed on the wrong table")   # the previous result counts again

A batch line is `TABLE W-L[-D]` (`12 2-1`, `12 2-1-0`, `12,2-1-0`); `#` starts a comment.
"""
from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.events import RecordedEvent
from engine.match import InputError

from judge.tournament.aggregate import Tournament, overwrite_conflict, slip_text
from judge.tournament.results import OverwriteRefused, parse_slip
from judge.tournament.state import RoundState

LINE_RE = re.compile(r"^\s*(\d+)\s*[ ,;:\t]\s*(\S+)\s*$")
MAX_BATCH = 2000


@dataclass
class Entered:
    """What one line of a batch did: `recorded` (new), `unchanged` (the same result was already
    there: nothing stored), `overwritten` (a different result was there: `old`)."""

    round: int
    table: int
    player1: str
    player2: str
    result: str
    status: str
    old: str | None = None
    event: RecordedEvent | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "player1": self.player1, "player2": self.player2,
                "result": self.result, "status": self.status, "old": self.old,
                "position": None if self.event is None else self.event.position}


class Slip(NamedTuple):
    """One result line: (table, slip), and where it was written (`file:line`), for errors."""

    table: int
    slip: str
    where: str = ""


def parse_entries(text: str, path: str = "<input>") -> list[Slip]:
    """`TABLE W-L[-D]` lines into (table, slip, where); errors name the line and the column."""
    out: list[Slip] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        if not line.strip():
            continue
        m = LINE_RE.match(line)
        if not m:
            raise InputError(f"expected `TABLE W-L-D` (e.g. `12 2-1-0`), got {raw.strip()!r}",
                             where=f"{path}:{n}:1")
        parse_slip(m.group(2), where=f"{path}:{n}:{m.start(2) + 1}", field="result")
        out.append(Slip(int(m.group(1)), m.group(2), f"{path}:{n}"))
        if len(out) > MAX_BATCH:
            raise InputError(f"more than {MAX_BATCH} results in one batch", where=f"{path}:{n}")
    if not out:
        raise InputError("no result in the input", where=path)
    return out


def record_results(t: Tournament, entries: Sequence[tuple[int, str] | Slip], *, round_no: int | None = None,
                   overwrite: bool = False, override_format: bool = False,
                   reason: str | None = None, reason_tables: Collection[int] = ()) -> list[Entered]:
    """Record (table, 'W-L-D') results of one round (default: the current one) in one atomic
    batch. A table given twice with different results, an unknown table, an impossible result
    or (without `overwrite`) a different result already recorded refuses the whole batch; the
    error says where (a `Slip`'s file and line, else "entry N"). `reason` is kept in the event of
    each table overwritten, and of each table in `reason_tables` (an entry that differs from a
    player's report, or settles a dispute: the web desk asks for its reason)."""
    st = t.state()
    given: dict[int, tuple[str, str]] = {}
    done: list[Entered] = []
    drafts = []
    conflicts = []
    for n, item in enumerate(entries, start=1):
        table, slip = item[0], item[1]
        where = (item[2] if len(item) > 2 else "") or (f"entry {n}" if len(entries) > 1 else "")
        try:  # every refusal of this line says where it was written
            w, l, d = parse_slip(slip, field="result", where=where)
            new = f"{w}-{l}-{d}"
            if table in given:
                if given[table][0] != new:
                    raise InputError(f"table {table} is given twice ({given[table][0]}"
                                     + (f" at {given[table][1]}" if given[table][1] else "") + f" and {new})",
                                     field="table")
                continue
            given[table] = (new, where)
            rnd, p = t._find_table(st, table, None, round_no)
            old = rnd.results.get(table)
            line = Entered(rnd.number, table, p.player1, p.player2, new, "recorded")
            if old is not None and slip_text(old) == new:
                line.status = "unchanged"
                line.event = rnd.result_events.get(table)
                done.append(line)
                continue
            if old is not None:
                line.status, line.old = "overwritten", slip_text(old)
                if not overwrite:
                    conflicts.append(overwrite_conflict(rnd, p, new))
            drafts.append(t._result_draft(st, rnd, p, w, l, d, "slip", None, override_format,
                                          reason if old is not None or table in reason_tables else None))
            done.append(line)
        except InputError as e:
            e.where = e.where or where
            raise
    if conflicts:
        raise OverwriteRefused(conflicts)
    events = iter(t.append(st, drafts))
    for line in done:
        if line.status != "unchanged":
            line.event = next(events)
    return done


def current_result_event(rnd: RoundState, table: int) -> RecordedEvent:
    ev = rnd.result_events.get(table)
    if ev is None:
        raise InputError(f"{rnd.name} table {table} has no result to undo", field="table")
    return ev


def undo_result(t: Tournament, table: int, *, round_no: int | None = None,
                reason: str = "undone at the results desk") -> tuple[RecordedEvent, str | None]:
    """Void the result a table has now (a `correction`; the original stays in the log). The
    result it replaced, if any, counts again: returned as its slip (None: the table is pending)."""
    st = t.state()
    rnd, _ = t._find_table(st, table, None, round_no)
    ev = current_result_event(rnd, table)
    (correction,) = t.append(st, [t._draft("correction", {"voids": ev.position, "reason": reason})])
    after = t.state().round(rnd.number)
    back = after.results.get(table) if after else None
    return correction, None if back is None else slip_text(back)
