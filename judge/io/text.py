"""Reading a user's text file: UTF-8 (a byte-order mark accepted), and when it is not, an InputError
that says where: the file, the line and the column of the first bad byte ("reg.csv:3:5: not UTF-8
text"). Every importer, results file, registration CSV, decklist and uploaded form file reads
through here."""
from __future__ import annotations

from engine.match import InputError


def decode(raw: bytes, where: str) -> str:
    """`raw` as text; InputError at `where:line:column` of the first byte that is not UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        start = raw.rfind(b"\n", 0, e.start) + 1
        line = raw.count(b"\n", 0, e.start) + 1
        column = len(raw[start:e.start].decode("utf-8", "replace")) + 1
        raise InputError(f"not UTF-8 text (byte 0x{raw[e.start]:02x}; save the file as UTF-8)",
                         where=f"{where}:{line}:{column}") from None


def read_bytes(path: str, what: str = "") -> bytes:
    """A file's bytes; InputError naming the file (and `what` it was to be) when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise InputError(f"cannot read {what or path}: {e.strerror or e}", where=path) from None


def read_text(path: str) -> str:
    """A file's text; InputError naming the file when it cannot be read, or the place of a bad byte."""
    return decode(read_bytes(path), path)
