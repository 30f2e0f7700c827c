"""An OPTCGSim game log's text -> typed lines (no games, no events yet).

One job: read every line and say what kind it is, refusing a line of a known kind that is broken.

| kind | grammar (fields split on `|`) |
| --- | --- |
| `HeaderLine` | `RZ1|HDR|<simulator version>|<format n>|RZ1` (5 fields; 1.40a writes format 1, 1.42+ format 2) |
| `PlayerLine` | `RZ1|PLY|<1 or 2>|<handle>|<Leader card>` (5 fields; 1.42+) |
| `CheckLine` | `RZ1|CHK|<seq>|<player>|<10 zone counts>` (14 fields; 1.42+) |
| `MoveLine` | `RZ1|<seq>|<player>|<card>|<from>|<index>|<to>|<index>|<flags...>` (13 fields in every real log; at least 11 accepted) |
| `OtherLine` | `RZ1|<TAG>|...` with a tag this importer does not know: kept and counted, never fatal |
| `TextLine` | everything else: `[actor] rest` or a line without an actor |

Format notes, field by field and with sources: docs/rulesets/optcg.md ("OPTCGSim import") and
shared/reference/optcgsim-log.md. A broken line of a known kind (a short check line, a zone that is
not 0..9, a last line cut without its line end) is a corrupted or truncated file: InputError naming
the line and the field. A Unity `Player.log` (the simulator's live log) is recognised and refused.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.match import InputError
from engine.schema import shown, visible

from judge.io.cardformats import NUMBER
from judge.io.text import read_text
from judge.numbers import MAX_DIGITS, whole_number

ZONES = {0: "deck", 1: "hand", 2: "characters", 3: "life", 4: "don_deck", 5: "cost", 6: "trash",
         7: "stage", 8: "leader", 9: "attached"}
# Invisible characters: U+200B sits before the '#' of every handle; the byte sequence of U+200B read
# as Windows-1252 ("â€‹", a mojibake some saves are said to carry) is removed too.
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\ufeff"), None)
MOJIBAKE_ZWSP = "\u00e2\u20ac\u2039"
# A card named in a text line, in either markup the simulator writes: ["OP09-020">name] or
# [<mark><link="OP09-020">name]
CARD_REF_PATTERN = r'\[(?:"(?P<id>[^"]+)">[^\]]*|<mark><link="(?P<id2>[^"]+)">[^\]]*)\]'
CARD_REF = re.compile(r"\s*" + CARD_REF_PATTERN)
# Unity rich-text tags the simulator writes around effect names and chat (<b>, <size=24>, <color=#f00>,
# <i>, <mark>, <link="...">): markup for its own log window, not words; removed wherever text is kept.
MARKUP = re.compile(r"</?(?:b|i|u|s|color|size|mark|link|font|material|sup|sub|alpha|noparse|nobr|"
                    r"lowercase|uppercase|smallcaps|voffset|cspace|mspace|indent|margin|width)"
                    r"(?:=[^<>]*)?>", re.I)
SPEAKER = re.compile(r"^\[(?P<who>[^\]]*)\]\s*(?P<rest>.*)$")
# a player's own draw step said as text ("Draw 1 Card"): the seats are bound by it, and it is read as a draw
DRAW_CARDS = re.compile(r"Draw [0-9]+ Cards?")
# A move's card: a card number in the card data's shape (OP01-016, ST23-002, P-001, a printing
# suffix such as _p1 kept) or `Don`. OPTCGSim writes the real number of every card, hidden ones
# included (an own-view log names the opponent's draws too; no public log or parser shows a token
# for "unknown"), so anything else (`Unknown`, `0`, `?`) is a corrupted or hand-edited line,
# refused: read as a card id it made every later play of that card "not in hand".
CARD = rf"(?:Don|{NUMBER.pattern}(?:_[a-z][0-9]{{1,3}})?)"
CARD_NUMBER = re.compile(CARD)
TAG = re.compile(r"[A-Z]+")
# A well-formed move or check line, read in one match (the field-by-field path below only runs to
# say what is wrong with a line that does not match). [0-9], not \d: \d takes any script's digits
# ("٣"), which int() reads as 3 (QA79 F5: such a line was imported as another game).
FAST_MOVE = re.compile(r"RZ1\|([0-9]{1,9})\|([12])\|(" + CARD + r")\|([0-9])\|([0-9]{1,6})\|([0-9])\|([0-9]{1,6})"
                       r"((?:\|-?[0-9]{1,9}){3,})")
FAST_CHECK = re.compile(r"RZ1\|CHK\|([0-9]{1,9})\|([12])((?:\|[0-9]{1,3}){10})")
MOVE_FIELDS = ("seq", "player", "card", "fromZone", "fromIndex", "toZone", "toIndex")
CHECK_ZONES = ("deck", "hand", "characters", "life", "donDeck", "costArea", "trash", "stage", "leader",
               "attachedDon")
CARD_SHAPE = (" (e.g. OP01-016, or Don): OPTCGSim names every card, hidden ones too, so this line "
              "was damaged or edited")
MAX_COUNT = 1_000      # no zone of a real game holds more; a larger count is a corrupted line
MAX_INDEX = 100_000    # DON!! on a card is 100*slot + n (9900 + n on the Leader)
MAX_FLAG = 999_999_999  # a flag holds a power change (-1000) or 0/1; the fast path takes 9 digits
MAX_NAME = 64          # characters in a handle
MAX_VERSION = 32


@dataclass(slots=True)
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
    key: str = ""  # the line without its sequence number: what two copies of a game share

    @property
    def rested(self) -> bool:
        return len(self.flags) > 2 and self.flags[2] == 1


@dataclass(slots=True)
class CheckLine:
    n: int
    seq: int
    player: int
    counts: list[int]
    key: str = ""


@dataclass(slots=True)
class PlayerLine:
    n: int
    player: int
    name: str
    leader: str


@dataclass(slots=True)
class HeaderLine:
    n: int
    version: str
    format: int


@dataclass(slots=True)
class OtherLine:
    """An `RZ1|TAG|...` line of a kind this importer does not know (a newer simulator's)."""

    n: int
    text: str
    escaped: bool = False  # it held control characters, kept written out (`\u001b`): see parse


@dataclass(slots=True)
class TextLine:
    n: int
    text: str
    who: str | None = None  # the actor in `[who] rest`; None for a line without one
    rest: str = ""
    escaped: bool = False


Line = MoveLine | CheckLine | PlayerLine | HeaderLine | OtherLine | TextLine


def clean(text: str) -> str:
    if text.isascii():  # most lines, every RZ1 line: nothing invisible to remove
        return text.strip()
    if MOJIBAKE_ZWSP in text:
        text = text.replace(MOJIBAKE_ZWSP, "")
    return text.translate(INVISIBLE).strip()


def card_ids(text: str) -> list[str]:
    return [m.group("id") or m.group("id2") for m in CARD_REF.finditer(text)]


def strip_refs(text: str) -> str:
    return CARD_REF.sub("", text).strip()


def plain(text: str) -> str:
    """Text as people read it: no card references, no rich-text markup."""
    return MARKUP.sub("", strip_refs(text)).strip()


def read(path: str) -> list[Line]:
    return parse(read_text(path), path)


def parse(text: str, path: str) -> list[Line]:
    if text and not text.strip("\x00"):  # QA79 F7: was called "truncated", as a half-written file is
        raise InputError(f"the file holds only NUL bytes ({len(text):,}): zero-filled, as a crash or a failed "
                         "copy leaves a file, with nothing of a game in it; get the file again", where=path)
    if text and not text.endswith(("\n", "\r")):
        last = text.count("\n") + 1
        raise InputError("the last line has no line end: the file is truncated (OPTCGSim ends every "
                         "line, the last included). If the game is still being played, the simulator is "
                         "still writing it: import it when the game is over; else get the whole file "
                         "again (an AutoSaved file, or Download Combat Log). A cut file is not imported "
                         "in part: its last game would be stored as another match without its end",
                         where=f"{path}:{last}")
    out: list[Line] = []
    append = out.append
    for n, rawline in enumerate(text.splitlines(), start=1):
        line = clean(rawline)
        if not line:
            continue
        escaped = not line.isprintable() and not line.startswith("RZ1|") and line != visible(line)
        if escaped:
            # A typed line (chat, an effect's words) or a crash's zero-filled tail with control
            # characters is kept written out and warned about, not fatal: one ESC in a player's chat
            # refused the whole file (QA79 F3). RZ1 lines are the game's data: checked field by field.
            line = visible(line)
        if line.startswith("RZ1|"):
            m = FAST_MOVE.fullmatch(line)
            if m is not None and int(m.group(5)) <= MAX_INDEX and int(m.group(7)) <= MAX_INDEX:
                g = m.groups()
                append(MoveLine(n, int(g[0]), int(g[1]), g[2], int(g[3]), int(g[4]), int(g[5]), int(g[6]),
                                [int(f) for f in g[7][1:].split("|")], line[m.end(1) + 1:]))
                continue
            m = FAST_CHECK.fullmatch(line)
            if m is not None:
                append(CheckLine(n, int(m.group(1)), int(m.group(2)), [int(c) for c in m.group(3)[1:].split("|")],
                                 "CHK|" + line[m.end(1) + 1:]))
                continue
            append(_rz1(line, path, n))
        elif line[0] == "[":
            m = SPEAKER.match(line)
            if m is None:
                append(TextLine(n, line, escaped=escaped))
                continue
            who = m.group("who")
            if who == "ReplaySync":
                raise InputError("this is Unity's Player.log (the simulator's live log: `[ReplaySync]` "
                                 "lines), not a game log; import the combat log the simulator saves "
                                 "(its AutoSaved folder, or Download Combat Log)", where=f"{path}:{n}")
            append(TextLine(n, line, who, m.group("rest"), escaped))
        else:
            append(TextLine(n, line, escaped=escaped))
    return out


def _where(path: str, n: int) -> str:
    return f"{path}:{n}"


def _column(path: str, n: int, parts: list[str], k: int) -> str:
    """`path:line:column` of field `k` of a line split on `|`."""
    return f"{path}:{n}:{len('|'.join(parts[:k])) + 2}"


def _int(text: str, path: str, n: int, what: str, name: str) -> int:
    # whole_number refuses what int() takes and the simulator never writes ("1_000", " 7", "٣") and
    # what int() cannot take (more than 4,300 digits: a ValueError, once an "internal error")
    value = whole_number(text, negative=True)
    if value is None:
        digits = text.removeprefix("-")  # a sign is no digit: "-" and 18 digits is 18 digits
        said = (f"a number of {len(digits):,} digits (at most {MAX_DIGITS})"
                if digits.isascii() and digits.isdigit() else f"{shown(text)}, not a number")
        raise InputError(f"corrupted {what} line: {name} is {said}", where=_where(path, n), field=name)
    return value


def _rz1(line: str, path: str, n: int) -> Line:
    parts = line.split("|")
    tag = parts[1] if len(parts) > 1 else ""
    if tag == "CHK":
        return _check(parts, path, n)
    if tag == "PLY":
        return _player_line(parts, path, n)
    if tag == "HDR":
        return _header(parts, path, n)
    if TAG.fullmatch(tag):
        shown_line = visible(line)  # a kind not known here is text to keep, as a typed line is
        return OtherLine(n, shown_line, shown_line != line)
    return _move(parts, path, n)


def _header(parts: list[str], path: str, n: int) -> HeaderLine:
    if len(parts) != 5 or parts[4] != "RZ1":
        raise InputError(f"corrupted header line: {len(parts)} fields, expected RZ1|HDR|version|format|RZ1",
                         where=_where(path, n))
    version = parts[2]
    if not version or len(version) > MAX_VERSION:
        raise InputError("corrupted header line: no simulator version", where=_where(path, n), field="version")
    return HeaderLine(n, version, _int(parts[3], path, n, "header", "format number (field 4)"))


def _player_line(parts: list[str], path: str, n: int) -> PlayerLine:
    if len(parts) < 5:
        raise InputError(f"corrupted player line: {len(parts)} fields, expected RZ1|PLY|n|handle|leader",
                         where=_where(path, n))
    player = _player(_int(parts[2], path, n, "player", "player"), path, n)
    # The simulator does not escape a `|` in a handle; the Leader is always the last field, so a
    # handle holding one is still read whole.
    name, leader = "|".join(parts[3:-1]).strip(), parts[-1].strip()
    if not name or len(name) > MAX_NAME:
        raise InputError(f"corrupted player line: a handle of 1 to {MAX_NAME} characters expected",
                         where=_where(path, n), field="handle")
    if not CARD_NUMBER.fullmatch(leader) or leader == "Don":
        raise InputError(f"corrupted player line: {shown(leader)} is not a card number{CARD_SHAPE}",
                         where=_column(path, n, parts, len(parts) - 1), field="leader")
    return PlayerLine(n, player, name, leader)


def _check(parts: list[str], path: str, n: int) -> CheckLine:
    if len(parts) != 14:
        raise InputError(f"corrupted check line: {len(parts)} fields, expected 14 "
                         "(RZ1|CHK|seq|player|10 zone counts); truncated?", where=_where(path, n))
    seq = _int(parts[2], path, n, "check", "seq")
    player = _player(_int(parts[3], path, n, "check", "player"), path, n)
    counts = [_int(p, path, n, "check", name) for p, name in zip(parts[4:], CHECK_ZONES)]
    for c, name in zip(counts, CHECK_ZONES):
        if not 0 <= c <= MAX_COUNT:
            raise InputError(f"corrupted check line: {name} count {c} (0..{MAX_COUNT})",
                             where=_where(path, n), field=name)
    return CheckLine(n, seq, player, counts, "CHK|" + "|".join(parts[3:]))


def _move(parts: list[str], path: str, n: int) -> MoveLine:
    if len(parts) < 11:
        raise InputError(f"corrupted move line: {len(parts)} fields, expected 13 "
                         "(RZ1|seq|player|card|from|index|to|index|flags); truncated?", where=_where(path, n))
    card = parts[3]
    if not CARD_NUMBER.fullmatch(card):
        raise InputError(f"corrupted move line: {shown(card)} is not a card number{CARD_SHAPE}",
                         where=_column(path, n, parts, 3), field="card")
    seq, player, src, src_idx, dst, dst_idx = (
        _int(parts[i], path, n, "move", MOVE_FIELDS[i - 1]) for i in (1, 2, 4, 5, 6, 7))
    flags = [_int(p, path, n, "move", f"flag {k}") for k, p in enumerate(parts[8:], start=1)]
    _player(player, path, n)
    for z, name in ((src, "fromZone"), (dst, "toZone")):
        if z not in ZONES:
            raise InputError(f"corrupted move line: zone {z} is not one of 0..9", where=_where(path, n), field=name)
    for i, name in ((src_idx, "fromIndex"), (dst_idx, "toIndex")):
        if not 0 <= i <= MAX_INDEX:
            raise InputError(f"corrupted move line: index {i} (0..{MAX_INDEX})", where=_where(path, n), field=name)
    for k, f in enumerate(flags, start=1):
        if not -MAX_FLAG <= f <= MAX_FLAG:
            raise InputError(f"corrupted move line: flag {k} is {f} (-{MAX_FLAG:,}..{MAX_FLAG:,})",
                             where=_where(path, n), field=f"flag {k}")
    if seq < 0:
        raise InputError("corrupted move line: a negative sequence number", where=_where(path, n), field="seq")
    return MoveLine(n, seq, player, card, src, src_idx, dst, dst_idx, flags, "|".join(parts[2:]))


def _player(p: int, path: str, n: int) -> int:
    if p not in (1, 2):
        raise InputError(f"player {p} is not 1 or 2", where=_where(path, n), field="player")
    return p
