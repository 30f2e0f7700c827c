"""Which OPTCGSim version and log variant a file is, and the policy for versions not known here.

One job: read the version lines and the shape of the file, say what it is (`Variant`), and decide
whether it can be imported.

Versions this importer was checked against (docs/rulesets/optcg.md, "OPTCGSim import"):

| family | seen in | what its logs hold |
| --- | --- | --- |
| 1.40 | a real 1.40a.60 AutoSaved log | `RZ1|HDR|1.40a|1|RZ1`, moves; **no** `RZ1|CHK`, no `RZ1|PLY`, no Life or shuffle moves |
| 1.42 | the simulator's decompiled code (second-hand) | `RZ1|HDR|...|2|RZ1`, `RZ1|PLY`, moves each with its `RZ1|CHK` |
| 1.43 | a real 1.43a.1 downloaded log; parsers' test data for 1.43a AutoSaved files | as 1.42, with Life, shuffle and Stage moves |

The policy, chosen and documented:
- **An unknown simulator version is imported, with a warning** naming the version and its line. The
  importer's own checks (each `RZ1|CHK` line, each Hand/Board/Trash/Life summary against the replayed
  table) still run, so a format change shows up as mismatches, counted in the summary.
- **An unknown `RZ1|HDR` format number is refused**, naming the number and the line: that number is
  the simulator's zone-numbering version, so the moves of such a file cannot be read with any
  confidence.
- A file that never states its version is imported with a warning saying so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.match import InputError
from engine.schema import cut

from judge.io.importers._optcgsim_games import Game
from judge.io.importers._optcgsim_lines import HeaderLine, Line, MoveLine, PlayerLine, TextLine, _column

KNOWN_FAMILIES = ("1.40", "1.42", "1.43")
KNOWN_FORMATS = (1, 2)
VERSION = re.compile(r"(?P<family>[0-9]+\.[0-9]+)[a-z]?(\.[0-9]+)?")
OWN_VIEW_ACTORS = ("You", "Opponent")


@dataclass
class Variant:
    versions: list[str] = field(default_factory=list)  # the `Version is` values, in order, distinct
    header: str | None = None          # "1.40a, format 1" from RZ1|HDR
    view: str = "named"                # "own view" ([You]/[Opponent]) or "named" (handles: AutoSaved)
    markup: str = "none"               # "rich" (<mark><link=...>), "plain" (["ID">ID]) or "none"
    checks: str = "RZ1|CHK"            # or "summaries" (a version that writes no check lines)
    player_lines: bool = False         # RZ1|PLY present
    life_moves: str = "in the log"     # or "modelled" (1.40a writes no Life moves)
    games: int = 1
    warnings: list[dict[str, Any]] = field(default_factory=list)
    per_game: list[Variant] = field(default_factory=list)  # each game's own, when a file holds several

    @property
    def version(self) -> str:
        return ", ".join(self.versions) if self.versions else (self.header or "unknown")

    def label(self) -> str:
        own = [g.label() for g in self.per_game]
        if len(set(own)) > 1:  # games of two simulator versions in one file (QA79 F4)
            return "; ".join(f"game {i}: {text}" for i, text in enumerate(own, start=1))
        parts = ["own view ([You]/[Opponent])" if self.view == "own view" else "named players (AutoSaved)",
                 f"{self.markup} card markup" if self.markup != "none" else "no card markup"]
        if self.header:
            parts.append(f"RZ1|HDR {self.header}")
        if self.player_lines:
            parts.append("RZ1|PLY")
        parts.append("RZ1|CHK checked" if self.checks == "RZ1|CHK"
                     else "no RZ1|CHK: summaries checked")
        if self.life_moves == "modelled":
            parts.append("Life moves modelled")
        if self.games != 1:
            parts.append(f"{self.games} games")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label(), "versions": self.versions, "header": self.header, "view": self.view,
                "markup": self.markup, "checks": self.checks, "player_lines": self.player_lines,
                "life_moves": self.life_moves, "games": self.games}


def detect(lines: list[Line], games: list[Game], path: str) -> Variant:
    """The file's variant; with several games, each game's own from its own lines (a session's file
    may hold a 1.40a game and, after an update, a 1.43a one: QA79 F4), and the file's made of them."""
    if len(games) < 2:
        return _detect(lines, games, path)
    own: list[Variant] = []
    for span, g in zip(_spans(lines, games), games):  # a rematch that writes no header is the same client's
        own.append(_detect(span, [g], path, own[-1] if own else None))
    v = Variant(games=len(games), per_game=own)
    v.versions = list(dict.fromkeys(x for g in own for x in g.versions))
    v.header = next((g.header for g in own if g.header), None)
    v.view = "own view" if any(g.view == "own view" for g in own) else "named"
    v.markup = next((m for m in ("rich", "plain") if any(g.markup == m for g in own)), "none")
    v.checks = "RZ1|CHK" if any(g.checks == "RZ1|CHK" for g in own) else "summaries"
    v.player_lines = any(g.player_lines for g in own)
    v.life_moves = "modelled" if any(g.life_moves == "modelled" for g in own) else "in the log"
    # the games' warnings in file order. Each game reads its own span alone (_spans: the first game's
    # starts at the file's start, so the lines before the first game are read once, by it) and a
    # warning with no line (no version stated) is the first game's only: `not in` is a guard
    for g in own:
        v.warnings += [w for w in g.warnings if w not in v.warnings]
    return v


def _spans(lines: list[Line], games: list[Game]) -> list[list[Line]]:
    """Each game's lines in the file: from after the previous game's last (its tail) to its own last;
    the last game's to the end of the file."""
    out, start = [], 0
    ends = [g.last_line for g in games[:-1]] + [lines[-1].n if lines else 0]
    for end in ends:
        stop = start
        while stop < len(lines) and lines[stop].n <= end:
            stop += 1
        out.append(lines[start:stop])
        start = stop
    return out


def _detect(lines: list[Line], games: list[Game], path: str, before: Variant | None = None) -> Variant:
    """`before`: the previous game's, whose version and header a game that states none goes on with."""
    v = Variant(games=len(games))
    headers: list[HeaderLine] = []
    for ln in lines:
        if isinstance(ln, TextLine):
            if ln.who is None:
                if ln.text.startswith("Version is "):
                    _version(v, ln)
            elif ln.who in OWN_VIEW_ACTORS and ln.rest != "Will select turn order":
                v.view = "own view"
            if v.markup != "rich" and "[" in ln.text:
                if '<link="' in ln.text:
                    v.markup = "rich"
                elif '["' in ln.text:
                    v.markup = "plain"
        elif isinstance(ln, HeaderLine):
            headers.append(ln)
        elif isinstance(ln, PlayerLine):
            v.player_lines = True
    for h in headers:
        if h.format not in KNOWN_FORMATS:
            # not field="format": that reads as the --format option, which has nothing to do with it
            raise InputError(f"the log's format number (RZ1|HDR field 4) is {h.format} (simulator {h.version}), "
                             f"not one this importer reads ({', '.join(map(str, KNOWN_FORMATS))}): its zone "
                             "numbers may mean something else, so the file is not imported",
                             where=_column(path, h.n, ["RZ1", "HDR", h.version], 3))
    if headers:
        v.header = f"{headers[0].version}, format {headers[0].format}"
        if not v.versions:
            fam = VERSION.match(headers[0].version)
            if not fam or fam.group("family") not in KNOWN_FAMILIES:
                v.warnings.append({"line": headers[0].n, "text": _unknown(headers[0].version)})
    elif before is not None:
        v.header = before.header
    if not v.versions and not headers and before is not None:
        v.versions = list(before.versions)
    elif not v.versions and not headers:
        v.warnings.append({"line": None, "text": "the log does not state its simulator version "
                                                 "(no `Version is` or RZ1|HDR line)"})
    if not any(g.has_checks for g in games):
        v.checks = "summaries"
    if any(not has_life_moves(g) for g in games):
        v.life_moves = "modelled"
    return v


def has_life_moves(game: Game) -> bool:
    """Does the log record the Life cards (deck -> Life at set-up)? 1.40a does not."""
    return any(isinstance(ln, MoveLine) and ln.dst == 3 for ln in game.lines)


def _version(v: Variant, ln: TextLine) -> None:
    value = cut(ln.text[len("Version is "):].strip(), 40)  # shown in the table and warnings: said when cut
    if value in v.versions:
        return
    v.versions.append(value)
    m = VERSION.fullmatch(value)
    if not m or m.group("family") not in KNOWN_FAMILIES:
        v.warnings.append({"line": ln.n, "text": _unknown(value)})
    elif len(v.versions) > 1:
        v.warnings.append({"line": ln.n, "text": f"the two clients report different versions "
                                                 f"({', '.join(v.versions)})"})


def _unknown(version: str) -> str:
    return (f"simulator version {version!r} is not one this importer was checked against "
            f"({', '.join(KNOWN_FAMILIES)}): imported; its RZ1|CHK and summary checks say whether "
            "the replay agrees with the log")
