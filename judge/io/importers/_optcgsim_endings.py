"""What an OPTCGSim ending line means (one job: the line -> an `Ending`).

| line | meaning | certain? |
| --- | --- | --- |
| `[X] Concedes!` | X lost by concession | yes (real logs) |
| `[X] Wins!` | X won | yes (in parsers' code, not in a real log seen) |
| `[X] Loses`, `[X] Out of Cards, Loses` | X lost (the second by deck-out) | yes (parsers' code) |
| `[X] Out of Cards, Wins` | X won: the other ran out of cards | yes (parsers' code) |
| `[X] Quits!` | X left the game | **no**: after a result it is X leaving the end screen; alone, an uncertain loss |
| `Opponent Has Disconnected!` | the other client left | **no**: alone, an uncertain win for the log's owner |
| `<handle> Has Disconnected`, `<handle> has left the game` | that player left | **no** (seen only in one parser's synthetic data) |

A lethal hit writes no ending line: the table derives it (damage on a Leader with no Life left).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from judge.io.importers._optcgsim_lines import TextLine

LOSES = re.compile(r"(Out of Cards, )?Loses!?")
LEFT = re.compile(r"(?P<who>.+?) (Has Disconnected!?|has left the game)")


@dataclass(frozen=True)
class Ending:
    kind: str        # "concession", "win", "loss", "quit", "disconnect"
    who: str         # the actor label as written ("You", "Opponent", a handle)
    deck_out: bool = False

    @property
    def certain(self) -> bool:
        return self.kind in ("concession", "win", "loss")


def ending(ln: TextLine) -> Ending | None:
    if ln.who is not None:
        rest = ln.rest
        if rest == "Concedes!":
            return Ending("concession", ln.who)
        if rest == "Quits!":
            return Ending("quit", ln.who)
        if rest in ("Wins!", "Out of Cards, Wins"):
            return Ending("win", ln.who, deck_out=rest != "Wins!")
        m = LOSES.fullmatch(rest)
        if m:
            return Ending("loss", ln.who, deck_out=m.group(1) is not None)
        return None
    m = LEFT.fullmatch(ln.text)
    if m and "[" not in m.group("who"):
        return Ending("disconnect", m.group("who"))
    return None
