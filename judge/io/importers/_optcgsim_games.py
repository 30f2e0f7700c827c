"""One OPTCGSim log -> its games (an AutoSaved file appends every rematch of a session).

One job: cut the typed lines into games, check each game's move numbering, and give each game a
fingerprint of its content.

Where a game starts. A rematch in the same room writes each client's `Version is ...` and
`[actor] Leader is ...` lines again. So a `Leader is` line that comes after a turn was played (a
`Draw n Card(s)`/`Draw n Don`/`End Turn` line, or a DON!! leaving the DON!! deck) starts the next
game; the header lines just before it (`Version is`, connection lines, `Will select turn order`)
go with it. A sequence number going down or an `RZ1|HDR` line is not required (a rematch that skips
the simulator's stream reset has neither: fixture v2b).

Where a game ends. At its first ending line (`Concedes!`, `Quits!`, `Wins!`, `... Loses`,
`... Has Disconnected`), which is replayed; or, with no ending line (a lethal hit writes none), at an
`RZ1|HDR` line after which no turn is played (the simulator resets its stream at game end). The
lines after the end and before the next game form the game's `tail`: its text is kept (chat,
`GameOver`, `Quits!` after a concession), its `RZ1` lines (the reset's "clearing" moves: DON!!
returning to the cost area) belong to no game and are not replayed.

A stretch with no move at all (a rematch accepted, never started) is not a game. Within a game, move
numbers go up by one (an `RZ1|HDR` line may restart them), and if the game has check lines at all,
each move is followed by the check line of its number: else the file is corrupted or cut.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from engine.match import InputError
from engine.schema import shown

from judge.io.importers._optcgsim_endings import Ending, ending
from judge.io.importers._optcgsim_lines import (
    CheckLine,
    HeaderLine,
    Line,
    MoveLine,
    PlayerLine,
    TextLine,
)

PLAYED = re.compile(r"Draw [0-9]+ (Cards?|Don)|End Turn")
OPENING_KEYS = 40  # move and check lines: the set-up names every card as it leaves the shuffled deck
HEADER_TEXT = ("Version is", "Waiting for a Connection", "Attempting to connect")


@dataclass
class Game:
    index: int                      # 1, 2, ... in the file
    lines: list[Line]               # replayed: from the game's first line to its end
    tail: list[Line] = field(default_factory=list)  # after its end, before the next game
    ending: Ending | None = None    # what its first ending line says, if it has one
    ending_line: int | None = None
    fingerprint: str = ""
    opening: str = ""               # sha256 of its first moves: shared by every copy, cut or whole

    @property
    def first_line(self) -> int:
        return self.lines[0].n

    @property
    def last_line(self) -> int:
        return (self.tail or self.lines)[-1].n

    @property
    def has_checks(self) -> bool:
        return any(isinstance(ln, CheckLine) for ln in self.lines)

    @property
    def moves(self) -> int:
        return sum(1 for ln in self.lines if isinstance(ln, MoveLine))

    @property
    def dropped(self) -> int:
        """RZ1 lines after the game's end (a stream reset's clearing moves): not replayed."""
        return sum(1 for ln in self.tail if not isinstance(ln, TextLine))


@dataclass
class Split:
    games: list[Game]
    not_played: list[tuple[int, int]]  # (first line, last line) of stretches with no move


def split(lines: list[Line], path: str) -> Split:
    if not any(isinstance(ln, MoveLine) for ln in lines):
        if any(isinstance(ln, (HeaderLine, PlayerLine)) or isinstance(ln, TextLine) and ln.rest.startswith("Leader is")
               for ln in lines):  # QA79 F7: said "not an OPTCGSim log" and named no line
            raise InputError("the file ends after a game's opening lines (Leader, header), before its first "
                             "move: it was cut short (saved or copied while the game began); import the "
                             "whole file", where=f"{path}:{lines[-1].n}")
        raise InputError("no RZ1 move lines: not an OPTCGSim game log, an empty one, or one from a "
                         "simulator before 1.40 (whose logs carry no moves)", where=path)
    games: list[Game] = []
    not_played: list[tuple[int, int]] = []
    for seg in _segments(lines):
        game = _cut(seg, len(games) + 1)
        if game.moves == 0:
            not_played.append((seg[0].n, seg[-1].n))
            continue
        check_sequence(game, path, at_file_end=game.last_line == lines[-1].n)
        game.fingerprint = fingerprint(game)
        game.opening = fingerprint(game, OPENING_KEYS)
        games.append(game)
    if not games:
        raise InputError("no game in the file has a move before its end (every RZ1 move line comes "
                         "after a result line)", where=path)
    return Split(games, not_played)


def _played(ln: Line) -> bool:
    if isinstance(ln, TextLine):
        return ln.who is not None and PLAYED.fullmatch(ln.rest) is not None
    return isinstance(ln, MoveLine) and ln.src == 4


def _header_text(ln: Line) -> bool:
    if not isinstance(ln, TextLine):
        return False
    if ln.who is None:
        return ln.text.startswith(HEADER_TEXT) or ln.text.endswith(" Has Connected")
    return ln.rest.startswith("Leader is") or ln.rest == "Will select turn order"


def _segments(lines: list[Line]) -> list[list[Line]]:
    starts = [0]
    played = False
    for i, ln in enumerate(lines):
        if isinstance(ln, TextLine) and ln.who is not None and ln.rest.startswith("Leader is") and played:
            k = i
            while k > starts[-1] + 1 and _header_text(lines[k - 1]):
                k -= 1
            starts.append(k)
            played = False
        elif not played and _played(ln):
            played = True
    return [lines[a:b] for a, b in zip(starts, starts[1:] + [len(lines)])]


def _cut(seg: list[Line], index: int) -> Game:
    for i, ln in enumerate(seg):
        end = ending(ln) if isinstance(ln, TextLine) else None
        if end is not None:
            return Game(index, seg[:i + 1], seg[i + 1:], ending=end, ending_line=ln.n)
    last_play = max((i for i, ln in enumerate(seg) if _played(ln)), default=-1)
    for i, ln in enumerate(seg):
        if i > last_play >= 0 and isinstance(ln, HeaderLine):
            return Game(index, seg[:i], seg[i:])
    return Game(index, seg)


def check_sequence(game: Game, path: str, at_file_end: bool = False) -> None:
    """Move numbers go up by one (an HDR may restart them); with check lines, each move has its own.
    `at_file_end`: the game is the file's last (a move missing its check there is a cut file)."""
    checked = game.has_checks
    rz = [ln for ln in game.lines if isinstance(ln, (MoveLine, CheckLine, HeaderLine))]
    prev_seq: int | None = None
    for i, ln in enumerate(rz):
        if isinstance(ln, HeaderLine):
            prev_seq = None
        elif isinstance(ln, MoveLine):
            if checked:
                nxt = rz[i + 1] if i + 1 < len(rz) else None
                if not isinstance(nxt, CheckLine) or nxt.seq != ln.seq or nxt.player != ln.player:
                    _no_check(ln, _line_after(game, ln), nxt, path, at_file_end)
            if prev_seq is not None and ln.seq != prev_seq + 1:
                raise InputError(f"move sequence jumps from {prev_seq} to {ln.seq}: lines are missing "
                                 "or out of order", where=f"{path}:{ln.n}", field="seq")
            prev_seq = ln.seq
        elif i == 0 or not isinstance(rz[i - 1], MoveLine):
            raise InputError(f"check line {ln.seq} follows no move", where=f"{path}:{ln.n}")


def _line_after(game: Game, line: Line) -> Line | None:
    """The line of the game right after `line` (looked up only for a refusal: not on every import)."""
    k = next(i for i, ln in enumerate(game.lines) if ln is line)
    return game.lines[k + 1] if k + 1 < len(game.lines) else None


def _no_check(move: MoveLine, following: Line | None, nxt: Line | None, path: str,
              at_file_end: bool) -> None:
    """A move without its check line. The simulator writes the check on the very next line: when
    that line is text (junk, a damaged check line), it is the place to look at, so it is named."""
    if isinstance(following, TextLine):
        raise InputError(f"this line should be move {move.seq}'s RZ1|CHK line (the move is on line "
                         f"{move.n}) but holds {shown(following.text, 40)}: the file is corrupted",
                         where=f"{path}:{following.n}")
    # nothing after the move in the game: the file stops there (a copy saved mid-game), or the game
    # does (its result line, or the next game's header)
    got = f"line {nxt.n}" if nxt is not None else "the end of the file" if at_file_end else "the end of the game"
    raise InputError(f"move {move.seq} has no matching RZ1|CHK line (found {got}): "
                     "the file is truncated or corrupted", where=f"{path}:{move.n}")


def fingerprint(game: Game, keys: int | None = None) -> str:
    """sha256 of the game's move stream (its RZ1 move and check lines without their line and
    sequence numbers: a rematch that skipped the stream reset numbers its moves on from the last game).
    The same game saved twice (a later AutoSaved file repeats the session's earlier games; a
    downloaded log and an AutoSaved one of the same game differ only in their readable lines) has
    the same stream; two different games never do (every card drawn is named, in order).
    With `keys`, of the stream's first `keys` lines only: the game's opening, the same in a copy
    cut short (a crash) and in the whole game."""
    h = hashlib.sha256()
    stream = (ln for ln in game.lines if isinstance(ln, (MoveLine, CheckLine)))
    for k, ln in enumerate(stream):
        if keys is not None and k >= keys:
            break
        h.update(ln.key.encode("ascii", "replace"))
        h.update(b"\n")
    return h.hexdigest()
