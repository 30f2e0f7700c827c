"""Reading a user's text file: UTF-8 (a byte-order mark accepted), and when it is not, an InputError
that says where: the file, the line and the column of the first bad byte ("reg.csv:3:5: not UTF-8
text"; lines counted as the readers split them, str.splitlines()). UTF-16 (what Windows
Notepad and PowerShell's `>` write: a byte-order mark, or none but a NUL byte beside every ASCII
character) is recognised and decoded, not misread as a truncated or
foreign file. Every importer, results file, registration CSV, decklist and uploaded form file reads
through here."""
from __future__ import annotations

from engine.match import InputError


SNIFF = 512  # bytes looked at to tell UTF-16 without a byte-order mark


def utf16(raw: bytes) -> str | None:
    """The codec if `raw` is UTF-16: a byte-order mark, or NULs in a quarter or more of the odd
    (LE) or even (BE) positions of its start and few in the others (UTF-8 text holds no NUL; a
    CJK or accented character may put one on the other side)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    head = raw[:SNIFF - SNIFF % 2]
    if len(head) < 4:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    enough = max(1, len(head) // 8)  # at least one NUL: a short UTF-8 line has none on either side
    if odd >= enough and even * 4 <= odd:
        return "utf-16-le"
    if even >= enough and odd * 4 <= even:
        return "utf-16-be"
    return None


def decode(raw: bytes, where: str) -> str:
    """`raw` as text; InputError at `where:line:column` of the first byte that is not UTF-8."""
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):  # before UTF-16's mark, its first half
        # QA73 14: read as UTF-16, every character came with a NUL ("the header has \u0000n\u0000a…")
        raise InputError("not UTF-8 text (it looks like UTF-32): save it as CSV UTF-8", where=where)
    codec = utf16(raw)
    if codec:
        try:
            return raw.decode(codec).removeprefix("\ufeff")
        except UnicodeDecodeError as e:
            raise InputError(f"this file is UTF-16 but damaged at byte {e.start} ({e.reason}): save it as UTF-8",
                             where=where) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte 0x{e.object[e.start]:02x}; save the file as UTF-8)",
                         where=f"{where}:{place(e.object, e.start)}") from None


def place(raw: bytes, at: int) -> str:
    """"line:column" of byte `at`, counted as the readers count: they split with str.splitlines()
    (LF, CRLF, a lone CR, but also U+2028, \\x0c, \\x1c-\\x1e, \\x85 ...), so the same call does here.
    Counting LF and CR alone put a bad byte after a U+2028 on the line before the readers' (and an
    old Mac or OPTCGSim file with CR-only ends was once said to be all on line 1)."""
    # the bytes before the first bad one are UTF-8; the readers never see a byte-order mark
    lines = (raw[:at].decode("utf-8-sig", "replace") + "x").splitlines()  # "x": the bad byte's line
    return f"{len(lines)}:{len(lines[-1])}"


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
