"""Reading a CSV file a person made (a spreadsheet's export): rows with the line each starts on, so
an error names the line a person can find. Strict quoting: a quote left open is an error at the line
where its row starts (not a cell that swallows the rest of the file); a field over the csv module's
limit is an error, not a traceback. A byte-order mark before the header is dropped."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence

from engine.match import InputError


def read_rows(text: str, path: str, delimiter: str = ",") -> Iterator[tuple[int, list[str]]]:
    """(line, cells) for every row, blank rows included (callers skip them); InputError at
    `path:line` for a row that cannot be read. `delimiter`: `;` for a spreadsheet saved where the
    decimal separator is a comma."""
    text = text.removeprefix("\ufeff")
    lines = split_lines(text)  # (numbered as the errors' lines are: one piece for both)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    while True:
        start = _row_start(lines, reader.line_num)
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            _, problem = cell_starts(lines, start, delimiter)
            if problem is None:
                raise InputError(f"unreadable CSV ({e}): the row that starts here", where=f"{path}:{start}") from None
            (line, col), words = problem
            raise InputError(f"unreadable CSV ({e}): {words}", where=f"{path}:{line}:{col}") from None
        yield start, row


def line_of(where: str, path: str) -> int:
    """The line of a `read_rows` error's `where` ("PATH:LINE" or "PATH:LINE:COLUMN")."""
    return int(where[len(path) + 1:].split(":")[0])


def split_lines(text: str) -> list[str]:
    """The text's lines as `read_rows` numbers them (a byte-order mark dropped): for `cell_starts`."""
    return text.removeprefix("\ufeff").split("\n")


def cell_starts(lines: Sequence[str], line: int, delimiter: str = ","
                ) -> tuple[list[tuple[int, int]], tuple[tuple[int, int], str] | None]:
    """Where each cell of the row starting on `line` (1-based) starts, as (line, column), both
    1-based (a quoted cell may span lines), and the problem that makes the row unreadable, if
    any: ((line, column), words). An error names the cell a person can find in the file (QA75 4:
    the docs promise file, line and column). Read again only for a row an error is about."""
    starts = [(line, 1)]
    quote_at: tuple[int, int] | None = None  # where an open quote was opened
    i = line - 1
    while i < len(lines):
        text, j, cell_start = lines[i], 0, starts[-1] == (i + 1, 1)
        while j < len(text):
            ch = text[j]
            if quote_at is not None:
                if ch == '"' and text[j + 1:j + 2] == '"':
                    j += 1  # a doubled quote inside quotes
                elif ch == '"':
                    quote_at = None
                    after = text[j + 1:j + 2]
                    if after not in ("", delimiter, "\r"):
                        return starts, ((i + 1, j + 2), "text after the closing quote of a cell")
            elif ch == '"' and cell_start:
                quote_at = (i + 1, j + 1)
            elif ch == delimiter:
                starts.append((i + 1, j + 2))
                cell_start = True
                j += 1
                continue
            elif ch == "\r":
                break
            cell_start = False
            j += 1
        if quote_at is None:
            return starts, None
        i += 1
    return starts, (quote_at, "a quote opened here is never closed")


def _row_start(lines: list[str], read: int) -> int:
    """The line the next row begins on, `read` lines having been read (blank lines skipped)."""
    n = read
    while n < len(lines) and not lines[n].strip():
        n += 1
    return n + 1
