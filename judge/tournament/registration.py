"""Registrations from a CSV file: one player per row, columns `name` (or `player`), an optional
member id (`member_id`, `id`, `player_id`) and an optional `decklist` (the list's text; a quoted
cell may span lines). Errors name the file, the line and the column; nothing is registered from a
file with an error."""
from __future__ import annotations

from engine.match import InputError

from judge.io.csvread import read_rows
from judge.tournament.aggregate import Entry, Tournament
from judge.tournament.names import clean_name

NAME_COLUMNS = ("name", "player")
ID_COLUMNS = ("member_id", "member id", "id", "player_id")
DECK_COLUMNS = ("decklist", "deck")
MAX_ROWS = 5000


def _column(header: list[str], names: tuple[str, ...]) -> str | None:
    folded = {h.strip().casefold(): h for h in header}
    return next((folded[n] for n in names if n in folded), None)


def read_registrations(text: str, path: str = "<csv>") -> list[Entry]:
    """Entries from CSV text, in file order; blank rows skipped."""
    return [entry for _, entry in _read(text, path)]


def _read(text: str, path: str) -> list[tuple[int, Entry]]:
    """(line, entry) for each player row: the line names a row the batch later refuses."""
    rows = read_rows(text, path)  # a byte-order mark dropped; a row that cannot be read: its line
    first = next(rows, None)
    header = list(first[1]) if first else []
    name_col = _column(header, NAME_COLUMNS)
    if name_col is None:
        raise InputError(f"no name column (the header has {', '.join(header) or 'nothing'}; expected "
                         f"one of {', '.join(NAME_COLUMNS)})", field="name", where=f"{path}:1")
    id_col, deck_col = _column(header, ID_COLUMNS), _column(header, DECK_COLUMNS)
    entries: list[tuple[int, Entry]] = []
    for line, cells in rows:
        if len(cells) > len(header):
            raise InputError(f"more cells than the header has columns ({len(header)})", where=f"{path}:{line}")
        row = dict(zip(header, cells))
        if not any((v or "").strip() for v in row.values()):
            continue
        name = clean_name(row.get(name_col) or "")
        if not name:
            raise InputError("the name is empty", field=name_col, where=f"{path}:{line}")
        entries.append((line, Entry(name, (row.get(id_col) or "").strip() or None if id_col else None,
                                    (row.get(deck_col) or "").strip() or None if deck_col else None)))
        if len(entries) > MAX_ROWS:
            raise InputError(f"more than {MAX_ROWS} registrations", where=f"{path}:{line}")
    if not entries:
        raise InputError("no player in the file", where=path)
    return entries


def import_registrations(t: Tournament, text: str, path: str = "<csv>", *,
                         allow_similar: bool = False) -> list:
    """Register every player of a CSV file in one atomic batch (events returned); an error in
    the file, a name already registered or a near-duplicate, or a member id another player holds
    names its line (and the id's column) and registers nobody."""
    read = _read(text, path)
    lines = [line for line, _ in read]
    try:
        return t.register_many([entry for _, entry in read], allow_similar=allow_similar)
    except InputError as e:
        # the batch says "entry N" (nothing, for one row): the person wants the file's line
        if e.where.startswith("entry "):
            n = int(e.where.split()[1])
            e.where = f"{path}:{lines[n - 1] if n - 1 < len(lines) else '?'}"
        elif not e.where and len(lines) == 1:
            e.where = f"{path}:{lines[0]}"
        if e.field == "player_id":  # a member id held by another player: the file's own column
            first = next(read_rows(text, path), None)
            e.field = _column(list(first[1]) if first else [], ID_COLUMNS) or e.field
        raise
