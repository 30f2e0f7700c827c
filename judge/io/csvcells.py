"""CSV cells that a spreadsheet will not run: every CSV this tool writes goes through here.

A cell whose text starts with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by
Excel, LibreOffice and Google Sheets (`=HYPERLINK(...)`, `=cmd|...`, `@SUM(...)`): a player name or a
note typed by anyone could run on the organizer's laptop. As OWASP recommends ("CSV Injection"),
such text is prefixed with a single quote, which spreadsheets show as text. Numbers are written as
numbers (a negative number stays -3), only text is neutralised. A carriage return inside text is
written as a line break, so that the cell is quoted and cannot start a row of its own.
"""
from __future__ import annotations

import csv
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if "\r" in value:
        # the csv module quotes a cell holding its line end ("\n") but not a lone CR, which a
        # spreadsheet reads as a new row: "note: \r=cmd|..." would start a cell with "=". Written
        # as a line break, the cell is quoted and stays one cell.
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    if value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def writer(out: TextIO) -> "SafeWriter":
    return SafeWriter(out)


class SafeWriter:
    """csv.writer whose rows are neutralised cell by cell."""

    def __init__(self, out: TextIO):
        self._w = csv.writer(out, lineterminator="\n")

    def writerow(self, row: list[Any]) -> None:
        self._w.writerow([cell(v) for v in row])
