"""Reading a CSV file a person made (a spreadsheet's export): rows with the line each starts on, so
an error names the line a person can find. Strict quoting: a quote left open is an error at the line
where its row starts (not a cell that swallows the rest of the file); a field over the csv module's
limit is an error, not a traceback. A byte-order mark before the header is dropped."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from engine.match import InputError


def read_rows(text: str, path: str, delimiter: str = ",") -> Iterator[tuple[int, list[str]]]:
    """(line, cells) for every row, blank rows included (callers skip them); InputError at
    `path:line` for a row that cannot be read. `delimiter`: `;` for a spreadsheet saved where the
    decimal separator is a comma."""
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    while True:
        start = _row_start(lines, reader.line_num)
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise InputError(f"unreadable CSV ({e}): the row that starts here", where=f"{path}:{start}") from None
        yield start, row


def _row_start(lines: list[str], read: int) -> int:
    """The line the next row begins on, `read` lines having been read (blank lines skipped)."""
    n = read
    while n < len(lines) and not lines[n].strip():
        n += 1
    return n + 1
