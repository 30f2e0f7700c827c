"""A whole number typed by a person or read from a user's file, as an int, or None when it is not one.

One check for every place that turns user text into a number: Python's int() takes " 7", "1_000"
and non-ASCII digits ("٣" is 3), and raises ValueError on more than 4,300 digits (QA79 F1: a
5,000-digit field of an OPTCGSim log ended in "internal error"). Callers say what and where in
their own refusal; nothing here raises."""
from __future__ import annotations

import re

MAX_DIGITS = 18  # every count, index, sequence number or table of this toolkit fits; int64 does too
_WHOLE = re.compile(r"-?[0-9]+")


def whole_number(text: str, *, negative: bool = False, digits: int = MAX_DIGITS) -> int | None:
    """`text` (ASCII digits only, a leading `-` if `negative`, at most `digits` of them) as an int."""
    if len(text) > digits + 1 or not _WHOLE.fullmatch(text):
        return None
    if text[0] == "-" and not negative or len(text.lstrip("-")) > digits:
        return None
    return int(text)
