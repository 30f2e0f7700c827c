"""Registrations from a CSV file: one player per row, columns `name` (or `player`), an optional
member id (`member_id`, `id`, `player_id`) and an optional `decklist` (the list's text; a quoted
cell may span lines). Every error is said at once, each naming the file, the line and the column;
nothing is registered from a file with an error. A member id that only looks like another
player's (`lookalike_ids`) is a warning."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.match import InputError
from engine.schema import shown

from judge.io.csvread import cell_starts, line_of, read_rows, split_lines
from judge.tournament.aggregate import Entry, Tournament
from judge.tournament.batch import BatchRefused, refuse
from judge.tournament.names import clean_name

NAME_COLUMNS = ("name", "player")
ID_COLUMNS = ("member_id", "member id", "id", "player_id")
DECK_COLUMNS = ("decklist", "deck")
MAX_ROWS = 5000


def _column(header: list[str], names: tuple[str, ...]) -> str | None:
    folded = {h.strip().casefold(): h for h in header}
    return next((folded[n] for n in names if n in folded), None)


@dataclass
class Registrations:
    """A registrations CSV read once: the player rows as Entries (each with its file:line), (line,
    error) for each row that cannot be read (the batch says them with the rows it refuses), the
    file's name and member-id columns (a refusal names the cell by the file's own column), and
    the file's lines (`at`: where a row's cell is, for a refusal of it)."""
    path: str
    entries: list[Entry]
    errors: list[tuple[int, InputError]]
    id_col: str | None
    name_col: str = ""
    header: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()

    def at(self, line: int, column: str) -> str:
        """`file:line:col` of the cell of the `column` in the row starting on `line` (the row's
        line when it has no such cell)."""
        starts, _ = cell_starts(self.lines, line)
        k = self.header.index(column) if column in self.header else len(starts)
        return f"{self.path}:{line}" if k >= len(starts) else "{}:{}:{}".format(self.path, *starts[k])


def read_registrations(text: str, path: str = "<csv>") -> list[Entry]:
    """Entries from CSV text, in file order; blank rows skipped; a row that cannot be read refuses
    the file (every such row said at once)."""
    read = parse_registrations(text, path)
    refuse([e for _, e in read.errors], path)
    return read.entries


def parse_registrations(text: str, path: str = "<csv>") -> Registrations:
    """Read a registrations CSV once: `lookalike_ids` looks at its entries and `register_parsed`
    registers them (the CLI does both; review: the file was parsed twice)."""
    rows = read_rows(text, path)  # a byte-order mark dropped; a row that cannot be read: its line
    first = next(rows, None)
    header = list(first[1]) if first else []
    name_col = _column(header, NAME_COLUMNS)
    if name_col is None:
        raise InputError(f"no name column (the header has {', '.join(header) or 'nothing'}; expected "
                         f"one of {', '.join(NAME_COLUMNS)})", field="name", where=f"{path}:1")
    id_col, deck_col = _column(header, ID_COLUMNS), _column(header, DECK_COLUMNS)
    read = Registrations(path, [], [], id_col, name_col, tuple(header), tuple(split_lines(text)))
    entries, errors = read.entries, read.errors
    try:
        for line, cells in rows:
            where = f"{path}:{line}"
            if len(cells) > len(header):  # at the first cell past the header's columns
                starts, _ = cell_starts(read.lines, line)
                errors.append((line, InputError(f"more cells than the header has columns ({len(header)})",
                                                where="{}:{}:{}".format(path, *starts[len(header)]))))
                continue
            row = dict(zip(header, cells))
            if not any((v or "").strip() for v in row.values()):
                continue
            name = clean_name(row.get(name_col) or "")
            if not name:
                errors.append((line, InputError("the name is empty", field=name_col, where=read.at(line, name_col))))
                continue
            entries.append(Entry(name, (row.get(id_col) or "").strip() or None if id_col else None,
                                 (row.get(deck_col) or "").strip() or None if deck_col else None, where, line))
            if len(entries) > MAX_ROWS:
                raise InputError(f"more than {MAX_ROWS} registrations", where=where)
    except InputError as e:  # a quote left open: the rest of the file is unreadable
        if "unreadable CSV" not in e.message or not e.where.startswith(f"{path}:"):
            raise
        errors.append((line_of(e.where, path), e))
    if not entries and not errors:
        raise InputError("no player in the file", where=path)
    return read


def import_registrations(t: Tournament, text: str, path: str = "<csv>", *,
                         allow_similar: bool = False) -> list:
    """Register every player of a CSV file in one atomic batch (events returned): see
    `register_parsed`."""
    return register_parsed(t, parse_registrations(text, path), allow_similar=allow_similar)


def register_parsed(t: Tournament, read: Registrations, *, allow_similar: bool = False) -> list:
    """Register the players of a read CSV file in one atomic batch (events returned). Every row
    refused — one that cannot be read, a name already registered or a near-duplicate, a member
    id another player holds — is said at once, each naming its line (and the id's own column),
    and nobody is registered (judge/tournament/batch.py)."""
    try:
        return t.register_many(read.entries, allow_similar=allow_similar, errors=read.errors, source=read.path)
    except InputError as e:
        said = getattr(e, "errors", [e])
        by_where = {entry.where: entry.line for entry in read.entries}
        for x in said:  # a refused entry: named by the file's own column and the cell's line:col
            column = read.id_col if x.field == "player_id" else read.name_col if x.field == "player" else None
            if column and x.where in by_where:
                x.field, x.where = column, read.at(by_where[x.where], column)
        if isinstance(e, BatchRefused):  # its text was made from the errors: made again
            raise BatchRefused(said, read.path) from None
        if not e.where:  # the whole file refused (registration closed): named as the file, no cell (QA83 4)
            e.where, e.field = read.path, ""
        raise


def lookalike_ids(entries: Sequence[Entry], registered: dict[str, Any]) -> list[str]:
    """Warnings, not refusals (member ids are the organizer's own, in any format): a member id of
    `entries` that differs from another player's (registered, `registered`: name -> PlayerInfo,
    or earlier in `entries`) only by characters that look alike — l, I, | and 1; O and 0 — or by
    case. QA70: `M1000l` (a letter l) was taken beside `M10001`."""
    seen: dict[str, tuple[str, str]] = {}  # folded id -> (id, whose it is, in words)
    for name, info in registered.items():
        if info.player_id and info.player_id.strip():
            seen.setdefault(_fold_id(info.player_id.strip()), (info.player_id.strip(), f"held by {shown(name)}"))
    out = []
    for e in entries:
        pid = (e.player_id or "").strip()
        if not pid:
            continue
        key = _fold_id(pid)
        other = seen.get(key)
        if other is not None and other[0] != pid:  # the very same id is refused, not warned about
            out.append((f"{e.where}: " if e.where else "") + f"member id {shown(pid)} of {shown(e.player)} looks "
                       f"like {shown(other[0])}, {other[1]} (l, I and 1, O and 0 look alike): check it")
        # QA73 14: a same-file look-alike said "held by 'Gus'" though the batch (Gus too) was refused
        seen.setdefault(key, (pid, f"given for {shown(e.player)} "
                                   + (f"on line {e.line} of this file" if e.line else "in this list")))
    return out


_LOOKALIKE = str.maketrans({"l": "1", "I": "1", "|": "1", "O": "0", "o": "0"})


def _fold_id(pid: str) -> str:
    return pid.translate(_LOOKALIKE).casefold()
