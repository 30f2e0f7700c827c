"""Who is who in one OPTCGSim game: player numbers 1 and 2 <-> handles, `[You]`/`[Opponent]`,
Leaders, who goes first, and whose log it is.

One job: bind the log's labels to the move lines' player numbers, from the data, never by assumption
(player 1 is the log's owner in every real log seen, but a parser's notes say that need not hold):
- a named `[X] Drew card from deck: ...` line is followed by the move of that draw, whose player
  number is X's;
- a `[You]`/`[Opponent] Draw n Card(s)` line is followed by that draw's move;
- an `RZ1|PLY|n|handle|leader` line (1.42+) names player n. It can be stale (a rematch that did not
  write a new one): where it disagrees with the draws or the `Leader is` lines, those win and a
  warning says so.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.events import JUDGE_PREFIX, TABLE_ACTOR
from engine.match import InputError
from engine.names import placeholder

from judge.io.importers._optcgsim_lines import DRAW_CARDS, MAX_NAME, Line, MoveLine, PlayerLine, TextLine, card_ids

OWN = ("You", "Opponent")


@dataclass
class Seats:
    name: dict[int, str]                 # player number -> the match's player name
    labels: dict[str, int]               # "You", "Opponent", handles -> player number
    leaders: dict[int, str]
    first: int
    chooser: int | None
    owner: int | None                    # the log's owner (whose "Hand before Mulligan" it shows)
    warnings: list[dict[str, Any]] = field(default_factory=list)

    def who(self, label: str) -> int | None:
        return self.labels.get(label)


def bind(lines: list[Line], path: str) -> Seats:
    names: dict[int, str] = {}
    name_line: dict[int, int] = {}
    ply: dict[int, PlayerLine] = {}
    own: dict[str, int] = {}
    warnings: list[dict[str, Any]] = []
    for i, ln in enumerate(lines):
        if isinstance(ln, PlayerLine):
            ply.setdefault(ln.player, ln)
            continue
        if not isinstance(ln, TextLine) or ln.who is None:
            continue
        who, rest = ln.who, ln.rest
        if who not in OWN and rest.startswith("Drew card from deck"):
            nxt = _next_move(lines, i, lambda mv: mv.src == 0 and mv.dst == 1)
            if nxt is not None and nxt.player not in names:
                names[nxt.player] = who
                name_line[nxt.player] = ln.n
        elif who in OWN and DRAW_CARDS.fullmatch(rest):
            nxt = _next_move(lines, i, lambda mv: mv.src == 0 and mv.dst == 1)
            if nxt is not None:
                own.setdefault(who, nxt.player)
    for num, p in sorted(ply.items()):
        if num not in names:
            names[num] = p.name
            name_line[num] = p.n
        elif names[num] != p.name:
            warnings.append({"line": p.n, "text": f"RZ1|PLY names player {num} {p.name!r}, the draws "
                                                  f"{names[num]!r}: the draws are followed"})
    if "You" in own and "Opponent" not in own:
        own["Opponent"] = 3 - own["You"]
    if "Opponent" in own and "You" not in own:
        own["You"] = 3 - own["Opponent"]
    own.setdefault("You", 1)
    own.setdefault("Opponent", 2)
    for num, handle in names.items():
        if len(handle) > MAX_NAME:
            raise InputError(f"a player's handle of {len(handle)} characters (at most {MAX_NAME})",
                             where=f"{path}:{name_line[num]}")
    label = {k: names.get(k) or placeholder(k) for k in (1, 2)}
    if label[1] == label[2]:
        label = {1: label[1] + " (1)", 2: label[2] + " (2)"}
    for k, v in label.items():
        if v == TABLE_ACTOR or v.startswith(JUDGE_PREFIX):
            label[k] = placeholder(k)
    labels = {**{v: k for k, v in label.items()}, **{n: k for k, n in names.items()}, **own}
    seats = Seats(label, labels, {}, 1, None, None, warnings)
    _leaders_and_order(seats, lines, ply, path)
    return seats


def _leaders_and_order(seats: Seats, lines: list[Line], ply: dict[int, PlayerLine], path: str) -> None:
    first: int | None = None
    for ln in lines:
        if not isinstance(ln, TextLine) or ln.who is None:
            continue
        num = seats.who(ln.who)
        rest = ln.rest
        if num is None:
            continue
        if rest.startswith("Leader is"):
            ids = card_ids(rest)
            if ids:
                seats.leaders.setdefault(num, ids[0])
        elif rest == "Will select turn order":
            seats.chooser = num
        elif rest.startswith("Chose to go") and first is None:
            first = num if rest.endswith("First") else 3 - num
        elif rest.startswith("Hand before Mulligan") and seats.owner is None:
            seats.owner = num
    for num, p in ply.items():
        if num not in seats.leaders:
            seats.leaders[num] = p.leader
        elif seats.leaders[num] != p.leader:
            seats.warnings.append({"line": p.n, "text": f"RZ1|PLY gives player {num} the Leader {p.leader}, "
                                                        f"the `Leader is` line {seats.leaders[num]}: "
                                                        "the `Leader is` line is followed"})
    for num in (1, 2):
        if num not in seats.leaders:
            raise InputError(f"the log never names player {num}'s Leader (no 'Leader is' or RZ1|PLY line)",
                             where=path)
    seats.first = first or next((ln.player for ln in lines if isinstance(ln, MoveLine) and ln.src == 4), 1)
    if seats.owner is None and any(ln.who in OWN for ln in lines
                                   if isinstance(ln, TextLine) and ln.rest != "Will select turn order"):
        seats.owner = seats.who("You")


def _next_move(lines: list[Line], i: int, pred: Callable[[MoveLine], bool], limit: int = 8) -> MoveLine | None:
    seen = 0
    for ln in lines[i + 1:i + 64]:
        if isinstance(ln, MoveLine):
            seen += 1
            if pred(ln):
                return ln
            if seen >= limit:
                return None
    return None
