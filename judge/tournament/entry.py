"""Results entry for scorekeepers: many tables in one atomic batch, a result the table already has
stored nothing again, an overwrite shown and refused unless asked for, and undo.

    record_results(t, [(12, "2-1"), (13, "0-2")])          # one batch, one commit
    record_results(t, [(12, "1-2")], overwrite=True, reason="slip misread")
    undo_result(t, 12, reason="typed on the wrong table")   # the previous result counts again

A batch is text or CSV (`parse_entries` tells them apart):

- text: one line per table, `TABLE W-L[-D]` (`12 2-1`, `12 2-1-0`, `12,2-1-0`) or `TABLE double-loss`
  (both players got a match loss); `#` starts a comment;
- CSV: a header naming a `table` and a `result` column (`player1`, `player2` optional, any other
  column ignored), as `tablejudge tournament pairings --csv` writes it; a row with an empty
  result is a table still pending, a row without a table (a bye) is skipped.

Every bad line of a batch is reported at once (`BatchRefused`, each with its file:line and field),
and nothing of the batch is stored.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, NamedTuple

from engine.events import RecordedEvent
from engine.match import InputError
from engine.schema import shown

from judge.io.csvread import line_of, read_rows
from judge.tournament.aggregate import (  # noqa: F401 - JudgesWarning: the batch's refusal
    JudgesWarning, Tournament, check_judges_warnings, kept_as_is, overwrite_conflict, slip_text)
from judge.tournament.names import name_key
from judge.tournament.batch import BatchRefused, conflict_error, refuse  # noqa: F401 - the batch's refusal, said here too
from judge.tournament.tables import ReportsDiffer, against_reports, check_reports, table_list
from judge.tournament.results import OverwriteRefused, SlipOutOfRange, is_double_loss, parse_slip
from judge.tournament.standings import DOUBLE_LOSS, slip_words
from judge.tournament.state import RoundState

LINE_RE = re.compile(r"^\s*(\d+)\s*[ ,;:\t]\s*(\S.*?)\s*$")  # the result: parse_result reads it
MAX_BATCH = 2000
CSV_TABLE, CSV_RESULT, CSV_PLAYERS = "table", "result", ("player1", "player2")


@dataclass
class Entered:
    """What one line of a batch did: `recorded` (new), `unchanged` (the same result was already
    there: nothing stored), `overwritten` (a different result was there: `old`; or the same one,
    recorded again where a warning that blocks closing asked for it: `again`), `pending` (a CSV
    row whose result cell is empty: nothing stored)."""

    round: int
    table: int
    player1: str
    player2: str
    result: str
    status: str
    old: str | None = None
    event: RecordedEvent | None = None

    @property
    def again(self) -> bool:
        """The same result recorded again (the head judge's, settling a warning that blocked closing)."""
        return self.status == "overwritten" and self.old == self.result

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "player1": self.player1, "player2": self.player2,
                "result": self.result, "status": self.status, "old": self.old,
                "position": None if self.event is None else self.event.position}


class Slip(NamedTuple):
    """One result line: (table, slip), where it was written (`file:line`), for errors, and from
    a CSV the players it names (`players`: {column: name}, checked against the pairing) and
    the line's number. An empty slip is a table still pending (a CSV row left blank)."""

    table: int
    slip: str
    where: str = ""
    players: dict[str, str] | None = None
    line: int = 0
    columns: dict[str, int] | None = None  # text: the column of the table's and the result's token

    def at(self, field: str) -> str:
        """`where`, with the column of `field`'s token when the line has one (a text line: QA82 3,
        a refused table or result named only file:line though the docs promise the column)."""
        col = (self.columns or {}).get(field)
        return f"{self.where}:{col}" if col and self.where else self.where


class Entries(list):
    """What `parse_entries` read: the readable lines as Slips, and `errors` for every line it
    could not read. `record_results` reports those errors with the batch's others, so a file's
    every mistake is said at once; `check()` raises them alone."""

    def __init__(self, items: Iterable[Slip] = (), errors: Iterable[tuple[int, InputError]] = (), path: str = ""):
        super().__init__(items)
        self.errors: list[tuple[int, InputError]] = list(errors)
        self.path = path  # the file read, named by a refusal of the batch
        self.tables_refused: set[int] = set()  # tables of lines refused for their result: in the batch

    def check(self) -> "Entries":
        refuse([e for _, e in self.errors], self.path)
        return self


def parse_entries(text: str, path: str = "<input>") -> Entries:
    """A batch's lines into Slips. CSV when the file is a `.csv` or its first line is a header
    naming a `table` and a `result` column; else `TABLE W-L[-D]` lines. A line that cannot be read
    is kept in `errors` (file:line:column and field), the others are read on."""
    # a Windows file's byte-order mark, read here for every way in: the CLI's file (judge/io/text.py
    # drops it too) and the web's `lines` (QA82 2: the API refused `\ufeff6 1-0` on line 1)
    text = text.removeprefix("\ufeff")
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if PurePath(path).suffix.lower() == ".csv" or _is_results_header(first):
        out = _parse_csv(text, path, _delimiter(first))
    else:
        out = _parse_text(text, path)
    out.path = path
    if not out and not out.errors:
        raise InputError("no result in the input", where=path)
    return out


def _is_results_header(line: str) -> bool:
    return any(CSV_TABLE in cells and CSV_RESULT in cells
               for cells in ({c.strip().strip('"').strip().casefold() for c in line.split(sep)} for sep in ",;"))


def _delimiter(line: str) -> str:
    """`;` for a spreadsheet that saves CSV so (a comma is its decimal separator), else `,`."""
    return ";" if ";" in line and "," not in line else ","


def _parse_text(text: str, path: str) -> Entries:
    out = Entries()
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        if not line.strip():
            continue
        m = LINE_RE.match(line)
        if not m:  # no table number first, or nothing after it
            lead = re.match(r"\s*\d+\s*[ ,;:\t]?\s*", line)
            out.errors.append((n, InputError(f"expected `TABLE W-L-D` (e.g. `12 2-1-0`, or `12 double-loss`), "
                                             f"got {shown(raw.strip())}", field="result" if lead else "table",
                                             where=f"{path}:{n}:{lead.end() + 1 if lead else 1}")))
            continue
        try:
            parse_result(m.group(2), where=f"{path}:{n}:{m.start(2) + 1}", field="result")
        except InputError as e:
            out.errors.append((n, e))
            out.tables_refused.add(int(m.group(1)))
            continue
        out.append(Slip(int(m.group(1)), m.group(2), f"{path}:{n}", None, n,
                        {"table": m.start(1) + 1, "result": m.start(2) + 1}))
        if len(out) + len(out.errors) > MAX_BATCH:
            raise InputError(f"more than {MAX_BATCH} results in one batch", where=f"{path}:{n}")
    return out


def _parse_csv(text: str, path: str, delimiter: str = ",") -> Entries:
    """A results CSV (the strict reader: its line numbers are the lines a person sees)."""
    out = Entries()
    rows = read_rows(text, path, delimiter)
    head = next(rows, None)
    header = [c.strip().casefold() for c in head[1]] if head else []
    missing = [c for c in (CSV_TABLE, CSV_RESULT) if c not in header]
    if missing:
        raise InputError(f"a results CSV needs a header naming the columns table and result (player1, "
                         f"player2 optional: `table,player1,player2,result`); the first line "
                         f"{'has ' + ', '.join(map(shown, header)) if header else 'is empty'}",
                         field=missing[0], where=f"{path}:{head[0] if head else 1}")
    if "opponent" in header and "player1" not in header:
        raise InputError("these are the pairings by name (each player's own result, every table twice); a "
                         "results file is by table: `tablejudge tournament pairings T --csv` (`--by table`)",
                         field=CSV_RESULT, where=f"{path}:{head[0]}")
    twice = next((c for c in (CSV_TABLE, CSV_RESULT, *CSV_PLAYERS) if header.count(c) > 1), None)
    if twice:
        raise InputError(f"the header names the column {twice} twice", field=twice, where=f"{path}:{head[0]}")
    col = {c: header.index(c) for c in (CSV_TABLE, CSV_RESULT, *CSV_PLAYERS) if c in header}
    try:
        for n, cells in rows:
            if not any(c.strip() for c in cells):
                continue
            where = f"{path}:{n}"
            cell = {c: _uncell(cells[i]) if i < len(cells) else "" for c, i in col.items()}
            table, result = cell[CSV_TABLE], cell[CSV_RESULT]
            if not table:
                if result:  # a bye's row has no table; a result needs one
                    out.errors.append((n, InputError("a result needs its table (a bye has no result to "
                                                     "record)", field=CSV_TABLE, where=where)))
                continue
            if not (table.isascii() and table.isdigit() and len(table) <= 6):
                out.errors.append((n, InputError(f"a table number is a whole number, got {shown(table)}",
                                                 field=CSV_TABLE, where=where)))
                continue
            if result:
                try:
                    parse_result(result, where=where, field=CSV_RESULT)
                except InputError as e:
                    out.errors.append((n, e))
                    out.tables_refused.add(int(table))
                    continue
            players = {c: cell[c] for c in CSV_PLAYERS if c in cell}
            out.append(Slip(int(table), result, where, players or None, n))
            if len(out) + len(out.errors) > MAX_BATCH:
                raise InputError(f"more than {MAX_BATCH} results in one batch", where=where)
    except InputError as e:
        if not e.where.startswith(f"{path}:") or "unreadable CSV" not in e.message:
            raise
        out.errors.append((line_of(e.where, path), e))  # a quote left open: the rest is unreadable
    return out


def _uncell(text: str) -> str:
    """A cell as this tool's CSV writer meant it: outer spaces dropped, and the `'` it puts before
    text a spreadsheet would run as a formula (`'=Bob`: judge/io/csvcells.py) taken off again."""
    text = text.strip()
    if text.startswith("'") and text[1:2] in ("=", "+", "-", "@"):
        return text[1:]
    return text


def parse_result(text: str, *, where: str = "", field: str = "result") -> tuple[int, int, int, bool]:
    """A batch line's result: `W-L[-D]` as a slip -> (wins, losses, draws, False), or
    `double-loss` -> (0, 0, 0, True): both players got a match loss."""
    if is_double_loss(text):
        return 0, 0, 0, True
    try:
        return (*parse_slip(text, where=where, field=field), False)
    except SlipOutOfRange:  # written right, but over the limit: said as such
        raise
    except InputError as e:
        raise InputError(f"a result is written W-L-D (e.g. 2-1-0) or {DOUBLE_LOSS}, got {shown(text)}",
                         field=e.field, where=e.where) from None


def record_results(t: Tournament, entries: Sequence[tuple[int, str] | Slip], *, round_no: int | None = None,
                   overwrite: bool = False, override_format: bool = False,
                   reason: str | None = None, override_reports: bool = True,
                   settle_judges_warnings: bool = True) -> list[Entered]:
    """Record (table, 'W-L-D') results of one round (default: the current one) in one atomic
    batch. A table given twice (the same result or another: another table's number was likely
    mistyped, so its result is missing), an unknown table, an impossible result,
    a CSV's player who is not at that table, or (without `overwrite`) a different result already
    recorded refuses the whole batch. Every such line is reported at once, each naming where it
    was written (a `Slip`'s file and line, else "entry N"), with the lines `parse_entries` could
    not read, and with them the entries overriding a player's report: one error raised as
    itself, several as BatchRefused; different results already recorded, and nothing else, as
    OverwriteRefused (each conflict with its `where`). An entry
    that differs from a player's own report, or settles a disputed table, overrides what a player
    said: refused as ReportsDiffer unless `overwrite`, and with `overwrite` it needs a `reason`
    (InputError, field `reason`); `override_reports` False refuses it even so (a scorekeeper
    enters slips, judges decide disputes). `reason` is kept in the event of each table
    overwritten or overriding a report. `settle_judges_warnings` False refuses (JudgesWarning) an
    entry over a result carrying a warning a judge settles (check_judges_warnings: a scorekeeper's
    link, QA86 1); settled with `overwrite`, it takes a `reason`."""
    st = t.state()
    given: dict[int, tuple[str, str]] = {}
    done: list[Entered] = []
    drafts: dict[int, Any] = {}  # id(line) -> its draft, stored in the order of `done`
    same: list[tuple[Entered, tuple[Any, ...]]] = []  # a table given the result it has (below)
    conflicts: list[tuple[int, dict[str, Any]]] = []
    against: list[tuple[int, dict[str, Any]]] = []  # entries overriding a player's report
    errors: list[tuple[int, InputError]] = list(getattr(entries, "errors", ()))
    repeats: list[tuple[int, int, tuple[str, str], str, RoundState, str]] = []  # a table given again

    def stage(line: Entered, order: int, where: str, rnd: RoundState, p: Any, w: int, l: int, d: int,
              double_loss: bool) -> None:
        """A line to store: checked against the players' reports, and its draft made."""
        reported = against_reports(rnd, p, line.result)
        if reported is not None:
            against.append((order, {**reported, "where": where}))
        drafts[id(line)] = t._result_draft(st, rnd, p, w, l, d, "slip", None, override_format,
                                           reason if line.old is not None or reported is not None else None,
                                           double_loss=double_loss, field=CSV_RESULT)

    for n, item in enumerate(entries, start=1):
        table, slip = item[0], item[1]
        where = (item[2] if len(item) > 2 else "") or (f"entry {n}" if len(entries) > 1 else "")
        order = (item[4] if len(item) > 4 else 0) or n
        try:  # every refusal of this line says where it was written
            rnd, p = t._find_table(st, table, None, round_no)
            if len(item) > 3 and item[3]:
                _check_players(rnd, p, item[3])
            if not slip:  # a CSV row left blank: pending (a result recorded since stays as it is)
                if table not in rnd.results:
                    done.append(Entered(rnd.number, table, p.player1, p.player2, "", "pending"))
                continue
            w, l, d, double_loss = parse_result(slip, field="result")
            new = slip_words(w, l, d, double_loss)
            if table in given:
                # refused, the same result or not: a table typed twice usually means another
                # table's number was mistyped, and that table's result is missing (said below,
                # once every line is read; QA83 7: a different result got no such hint)
                at = item.at("table") if isinstance(item, Slip) else where
                repeats.append((order, table, given[table], new, rnd, at))
                continue
            given[table] = (new, where)
            old = rnd.results.get(table)
            line = Entered(rnd.number, table, p.player1, p.player2, new, "recorded")
            done.append(line)
            if old is not None and slip_text(old) == new:
                line.status, line.event = "unchanged", rnd.result_events.get(table)
                same.append((line, (item, order, where, rnd, p, w, l, d, double_loss)))
                continue
            if old is not None:
                line.status, line.old = "overwritten", slip_text(old)
                if not overwrite:
                    conflicts.append((order, {**overwrite_conflict(rnd, p, new), "where": where}))
            stage(line, order, where, rnd, p, w, l, d, double_loss)
        except InputError as e:
            e.where = e.where or (item.at(e.field) if isinstance(item, Slip) else where)
            errors.append((order, e))
    # the same result again stores nothing, unless a warning that blocks closing asks for it
    # (`--overwrite --reason`): the rule `tournament result` follows (kept_as_is), asked once
    # for the batch's tables of each round (a batch is one round's)
    for number in {line.round for line, _ in same}:
        rnd = st.round(number)
        assert rnd is not None
        kept = kept_as_is(t.store, st, rnd, {line.table: line.result for line, _ in same if line.round == number},
                          overwrite=overwrite, reason=reason)
        for line, (item, order, where, *args) in same:
            if line.round == number and line.table not in kept:
                line.status, line.old, line.event = "overwritten", line.result, None  # recorded again
                try:
                    stage(line, order, where, *args)
                except InputError as e:
                    e.where = e.where or (item.at(e.field) if isinstance(item, Slip) else where)
                    errors.append((order, e))
    against.sort(key=lambda x: x[0])  # in line order, those recorded again among them
    # the batch's tables, those of lines refused too (QA82 4)
    in_batch = {item[0] for item in entries} | getattr(entries, "tables_refused", set())
    errors += [(order, _repeated(table, first, new, rnd, set(given), in_batch, where))
               for order, table, first, new, rnd, where in repeats]
    if errors:  # every problem of the batch at once: stored results and players' reports too
        errors += [(order, conflict_error(c)) for order, c in conflicts]
        try:
            check_reports([c for _, c in against], overwrite=overwrite, reason=reason,
                          override_reports=override_reports)
        except ReportsDiffer:
            errors += [(order, conflict_error(c)) for order, c in against]
        except InputError as e:  # --overwrite without a reason: the batch's, said first
            errors.append((0, e))
        errors.sort(key=lambda x: x[0])
        refuse([e for _, e in errors], getattr(entries, "path", ""))
    check_reports([c for _, c in against], overwrite=overwrite, reason=reason, override_reports=override_reports)
    # before the overwrite asked for: nobody is asked to confirm what their link may not do
    check_judges_warnings(t.store, st, [e for line in done if line.status == "overwritten"
                                        and (e := st.round(line.round).result_events.get(line.table)) is not None],
                          judge=settle_judges_warnings, overwrite=overwrite, reason=reason)
    if conflicts:
        raise OverwriteRefused([c for _, c in conflicts])
    staged = [line for line in done if id(line) in drafts]
    for line, event in zip(staged, t.append(st, [drafts[id(line)] for line in staged])):
        line.event = event
    return done


def _repeated(table: int, first: tuple[str, str], new: str, rnd: RoundState, given: set[int],
              in_batch: set[int], where: str) -> InputError:
    """A table given a second time (`first`: the result and where of the first time; `new` the
    second result): refused, the same result or not, as a mistyped table number leaves another
    table's result out of the batch; the round's tables still without one are
    named, the one meant is likely among them: those not in the batch at all, and apart those on
    lines of it refused here (`in_batch` but not `given`: QA82 4 called them "not in this batch")."""
    missing = [n for n in rnd.missing() if n not in given]
    absent = [n for n in missing if n not in in_batch]
    refused = [n for n in missing if n in in_batch]
    said = "; ".join(([f"{rnd.name} tables without a result, not in this batch: {table_list(absent)}"]
                      if absent else [])
                     + ([f"tables on lines refused here, without a result yet: {table_list(refused)}"]
                        if refused else []))
    result, at = first
    twice = (f" (at {at} too), with the same result" if at else ", with the same result") if result == new \
        else f" ({result}" + (f" at {at}" if at else "") + f" and {new})"
    return InputError(f"table {table} is given twice{twice}: was one of them meant for another table? "
                      + (said or f"every other table of {rnd.name} has a result")
                      + "; give each table once", field="table", where=where)


def _check_players(rnd: RoundState, p: Any, named: dict[str, str]) -> None:
    """A CSV's player1/player2 must be the pairing's (case, spaces and accents aside: the same
    name to judge/tournament/names.py); the result is read in the order the pairing has."""
    seated = {"player1": p.player1, "player2": p.player2}
    for col, name in named.items():
        if not name or name_key(name) == name_key(seated[col]):
            continue
        other = "player2" if col == "player1" else "player1"
        swapped = name_key(name) == name_key(seated[other])
        raise InputError(f"{rnd.name} table {p.table} is {p.player1} (player1) vs {p.player2} (player2), "
                         f"not {shown(name)} as {col}"
                         + ("; player1 and player2 are swapped: the result is player1's games first, so "
                            "write the row in the pairing's order" if swapped else ""), field=col)


def current_result_event(rnd: RoundState, table: int) -> RecordedEvent:
    ev = rnd.result_events.get(table)
    if ev is None:
        raise InputError(f"{rnd.name} table {table} has no result to undo", field="table")
    return ev


def undo_result(t: Tournament, table: int, *, round_no: int | None = None,
                reason: str = "undone at the results desk",
                settle_judges_warnings: bool = True) -> tuple[RecordedEvent, str | None]:
    """Void the result a table has now (a `correction`; the original stays in the log). The
    result it replaced, if any, counts again: returned as its slip (None: the table is pending).
    `settle_judges_warnings` False (a scorekeeper's link) refuses it over a result carrying a warning
    a judge settles (JudgesWarning): undone, then entered again, it was the head judge's (QA86 1)."""
    st = t.state()
    rnd, _ = t._find_table(st, table, None, round_no)
    ev = current_result_event(rnd, table)
    check_judges_warnings(t.store, st, [ev], judge=settle_judges_warnings)
    (correction,) = t.append(st, [t._draft("correction", {"voids": ev.position, "reason": reason})])
    after = t.state().round(rnd.number)
    back = after.results.get(table) if after else None
    return correction, None if back is None else slip_text(back)
