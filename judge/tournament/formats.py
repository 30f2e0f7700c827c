"""Match formats (best of N games) and the game counts a result slip may have.

Best of N: the match ends when a player has won a majority of the N games (N // 2 + 1: ceil(N/2)
for the usual odd N; best of two is won 2-0), and at most N games are played;
a drawn game counts as a game played (our reading: MTG's rule that a drawn game does not count
toward the N is not applied, so `2-1-1` in a best of three is refused unless overridden).
A tournament declares its format (`best_of`, `top_cut_best_of` in `tournament.created`); without
one, the game's documented default below applies (docs/tournaments.md, "Match format").
"""
from __future__ import annotations

from dataclasses import dataclass

NAMES = {1: "best of one", 3: "best of three", 5: "best of five"}

# game -> (Swiss best-of, top-cut best-of), with the source of each default
GAME_DEFAULTS: dict[str, tuple[int, int, str]] = {
    "optcg": (1, 3, "Bandai ONE PIECE CARD GAME Tournament Rules Manual §5.2 (secondary sources): "
                    "Swiss best-of-1, top cut best-of-3"),
    "op2009": (3, 3, "MM25 rulebook: \"Nel caso di incontri al meglio delle tre partite\""),
}
FALLBACK = (3, 3, "no documented format for this game: best of three (MTG practice)")


def name(best_of: int) -> str:
    return NAMES.get(best_of, f"best of {best_of}")


@dataclass(frozen=True)
class MatchFormat:
    best_of: int
    declared: bool      # False: the game's default
    source: str         # why this format

    @property
    def name(self) -> str:
        return name(self.best_of)

    @property
    def max_wins(self) -> int:
        return self.best_of // 2 + 1  # a majority of N: ceil(N/2) for odd N

    @property
    def example(self) -> str:
        """A won match's W-L in this format, for a form's example: `1-0` in a best of one, `2-1` in
        a best of three (QA75 6: a best-of-one event's grid said `12 2-1`, which it refuses)."""
        return f"{self.max_wins}-{min(self.max_wins - 1, self.best_of - self.max_wins)}"

    def problem(self, wins1: int, wins2: int, draws: int) -> str | None:
        """Why a W-L-D result cannot happen in this format (None: it can)."""
        if max(wins1, wins2) > self.max_wins:
            return f"a player wins at most {self.max_wins} game{'s' if self.max_wins != 1 else ''}"
        if wins1 + wins2 + draws > self.best_of:
            return (f"at most {self.best_of} game{'s are' if self.best_of != 1 else ' is'} played, "
                    "drawn games included")
        return None

    def to_dict(self) -> dict:
        return {"best_of": self.best_of, "name": self.name, "declared": self.declared, "source": self.source}


def match_format(game: str, stage: str, declared: int | None) -> MatchFormat:
    """The format of a `stage` ("swiss" or "elimination") match: the declared one, else the game's."""
    if declared:
        return MatchFormat(declared, True, "declared by the organizer")
    swiss, top, source = GAME_DEFAULTS.get(game, FALLBACK)
    return MatchFormat(top if stage == "elimination" else swiss, False, f"default for {game}: {source}")
