"""Reading an OPTCGSim game log into typed lines (no events yet): moves, checks, player lines, text.

Format notes: shared/reference/optcgsim-log.md. A malformed `RZ1|` line, a move without its check
line, or checks out of step are a corrupted or truncated file: InputError naming the line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.match import InputError
from engine.schema import shown

from judge.io.importers import read_text

ZONES = {0: "deck", 1: "hand", 2: "characters", 3: "life", 4: "don_deck", 5: "cost", 6: "trash",
         7: "stage", 8: "leader", 9: "attached"}
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\ufeff"), None)
CARD_REF = re.compile(r'\s*\["(?P<id>[^"]+)">[^\]]*\]|\s*\[<mark><link="(?P<id2>[^"]+)">[^\]]*\]')


@dataclass
class MoveLine:
    n: int
    seq: int
    player: int
    card: str
    src: int
    src_idx: int
    dst: int
    dst_idx: int
    flags: list[int]

    @property
    def rested(self) -> bool:
        return len(self.flags) > 2 and self.flags[2] == 1


@dataclass
class CheckLine:
    n: int
    seq: int
    player: int
    counts: list[int]


@dataclass
class PlayerLine:
    n: int
    player: int
    name: str
    leader: str


@dataclass
class TextLine:
    n: int
    text: str


Line = MoveLine | CheckLine | PlayerLine | TextLine


def clean(text: str) -> str:
    return text.translate(INVISIBLE).strip()


def card_ids(text: str) -> list[str]:
    return [m.group("id") or m.group("id2") for m in CARD_REF.finditer(text)]


def strip_refs(text: str) -> str:
    return CARD_REF.sub("", text).strip()


def read(path: str) -> list[Line]:
    text = read_text(path)
    if text and not text.endswith(("\n", "\r")):
        last = text.count("\n") + 1
        raise InputError("the last line has no line end: the file is truncated (OPTCGSim ends every "
                         "line, the last included)", where=f"{path}:{last}")
    out: list[Line] = []
    for n, rawline in enumerate(text.splitlines(), start=1):
        line = clean(rawline)
        if not line:
            continue
        if line.startswith("RZ1|"):
            out.append(_rz1(line, path, n))
        else:
            out.append(TextLine(n, line))
    _check_sequence(out, path)
    return out


def _ints(parts: list[str], path: str, n: int, what: str) -> list[int]:
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise InputError(f"corrupted {what} line: expected numbers, got {'|'.join(parts)!r}",
                         where=f"{path}:{n}") from None


def _rz1(line: str, path: str, n: int) -> Line:
    parts = line.split("|")
    if len(parts) > 1 and parts[1] == "CHK":
        if len(parts) != 14:
            raise InputError(f"corrupted check line: {len(parts)} fields, expected 14 "
                             "(RZ1|CHK|seq|player|10 zone counts); truncated?", where=f"{path}:{n}")
        seq, player, *counts = _ints(parts[2:], path, n, "check")
        _player(player, path, n)
        if any(c < 0 for c in counts):
            raise InputError("corrupted check line: a negative zone count", where=f"{path}:{n}")
        return CheckLine(n, seq, player, counts)
    if len(parts) > 1 and parts[1] == "PLY":
        if len(parts) < 5:
            raise InputError("corrupted player line: expected RZ1|PLY|n|name|leader", where=f"{path}:{n}")
        (player,) = _ints(parts[2:3], path, n, "player")
        _player(player, path, n)
        return PlayerLine(n, player, parts[3], parts[4])
    if len(parts) < 11:
        raise InputError(f"corrupted move line: {len(parts)} fields, expected at least 11 "
                         "(RZ1|seq|player|card|from|index|to|index|flags); truncated?", where=f"{path}:{n}")
    card = parts[3]
    if not card or not re.fullmatch(r"[A-Za-z0-9!-]+", card):
        raise InputError(f"corrupted move line: {shown(card)} is not a card number", where=f"{path}:{n}")
    seq, player, src, src_idx, dst, dst_idx, *flags = _ints(parts[1:3] + parts[4:], path, n, "move")
    _player(player, path, n)
    for z in (src, dst):
        if z not in ZONES:
            raise InputError(f"corrupted move line: zone {z} is not one of 0..9", where=f"{path}:{n}")
    if src_idx < 0 or dst_idx < 0:
        raise InputError("corrupted move line: a negative index", where=f"{path}:{n}")
    return MoveLine(n, seq, player, card, src, src_idx, dst, dst_idx, flags)


def _player(p: int, path: str, n: int) -> None:
    if p not in (1, 2):
        raise InputError(f"player {p} is not 1 or 2", where=f"{path}:{n}")


def _check_sequence(lines: list[Line], path: str) -> None:
    """Each move is followed by the check line of the same sequence number; numbers go up by one."""
    rz = [ln for ln in lines if isinstance(ln, (MoveLine, CheckLine))]
    if not any(isinstance(ln, MoveLine) for ln in rz):
        raise InputError("no RZ1 move lines: not an OPTCGSim game log (or an empty one)", where=path)
    prev_seq = None
    for i, ln in enumerate(rz):
        if isinstance(ln, MoveLine):
            nxt = rz[i + 1] if i + 1 < len(rz) else None
            if not isinstance(nxt, CheckLine) or nxt.seq != ln.seq or nxt.player != ln.player:
                got = "the end of the file" if nxt is None else f"line {nxt.n}"
                raise InputError(f"move {ln.seq} has no matching RZ1|CHK line (found {got}): "
                                 "the file is truncated or corrupted", where=f"{path}:{ln.n}")
            if prev_seq is not None and ln.seq != prev_seq + 1:
                raise InputError(f"move sequence jumps from {prev_seq} to {ln.seq}: lines are missing "
                                 "or out of order", where=f"{path}:{ln.n}")
            prev_seq = ln.seq
        elif i == 0 or not isinstance(rz[i - 1], MoveLine):
            raise InputError(f"check line {ln.seq} follows no move", where=f"{path}:{ln.n}")
