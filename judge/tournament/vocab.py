"""The tournament's event kinds: created, player registered/dropped, bye, round paired, result recorded."""
from __future__ import annotations

from typing import Any, Literal

from engine.events import (
    Correction,
    Note,
)
from engine.schema import Payload, PayloadError, event_kind

from judge.tournament.standings import (
    PolicyError,
    get_policy,
)


CREATED = "tournament.created"

# --- the event vocabulary --------------------------------------------------------------------


@event_kind(CREATED)
class TournamentCreated(Payload):
    """Always event 1 of a tournament stream."""

    name: str
    game: str
    policy: str = "mtg"
    policy_options: dict[str, Any] | None = None
    rounds: int = 0          # Swiss rounds planned (0: decided as it goes)
    top_cut: int = 0         # 0: no top cut; else 2, 4, 8, ...
    seed: str = "0"
    best_of: int | None = None          # Swiss matches: best of N games (None: the game's default)
    top_cut_best_of: int | None = None  # top-cut matches (None: the game's default)

    def validate(self) -> None:
        if not self.name.strip():
            raise PayloadError("name", "a tournament needs a name")
        for f in ("best_of", "top_cut_best_of"):
            if getattr(self, f) is not None and getattr(self, f) < 1:
                raise PayloadError(f, "a match is best of 1 game or more")
        if self.rounds < 0:
            raise PayloadError("rounds", "must be 0 or more")
        if self.top_cut and (self.top_cut < 2 or self.top_cut & (self.top_cut - 1)):
            raise PayloadError("top_cut", "a top cut has 2, 4, 8, 16, ... players (0 for none)")
        try:
            get_policy(self.policy, self.policy_options)
        except PolicyError as e:
            raise PayloadError(f"policy_options.{e.field}" if e.field != "policy" else "policy",
                               str(e)) from None


@event_kind("player.registered")
class PlayerRegistered(Payload):
    player: str
    player_id: str | None = None
    decklist: str | None = None

    def validate(self) -> None:
        if not self.player.strip() or self.player != self.player.strip():
            raise PayloadError("player", "a player name is not empty and has no outer spaces")
        if self.player == "-" or self.player.lower() == "bye":
            raise PayloadError("player", f"{self.player!r} is reserved (it means a bye)")


@event_kind("player.dropped")
class PlayerDropped(Payload):
    """The player is not paired again; they stay in the standings and count as an opponent."""

    player: str
    reason: str | None = None


@event_kind("bye.granted")
class ByeGranted(Payload):
    """The organizer gives a player a bye for a round not yet paired (e.g. an award bye)."""

    player: str
    round: int
    reason: str | None = None


@event_kind("round.paired")
class RoundPaired(Payload):
    """A round's pairings as made: tables, players (player2 null: a bye) and the reasons."""

    round: int
    stage: Literal["swiss", "elimination"]
    name: str
    pairings: list[dict[str, Any]]
    seed: str | None = None
    notes: list[str] | None = None


@event_kind("result.recorded")
class ResultRecorded(Payload):
    """A table's result: player1's game wins, player2's game wins, drawn games. Recorded again
    for the same round and table, the later one counts (a correction)."""

    round: int
    table: int
    player1: str
    player2: str
    wins1: int
    wins2: int
    draws: int = 0
    source: Literal["slip", "match"] = "slip"
    matches: list[str] | None = None
    format_override: bool = False  # the organizer recorded game counts the match format does not allow
    # from matches: each match's head and final state hash ({match, position, hash, state_hash}),
    # an anchor of the match in the tournament's own chain; `tablejudge verify` rechecks both
    based_on: list[dict[str, Any]] | None = None

    def validate(self) -> None:
        for f in ("wins1", "wins2", "draws"):
            if getattr(self, f) < 0:
                raise PayloadError(f, "must be 0 or more")


@event_kind("round.sealed")
class RoundSealed(Payload):
    """A closed round's seal: one hash (`seal`) over the tournament's head and the head of every
    match of the round ({stream, position, hash}). Printed on the standings page and the round
    report; `tablejudge verify --seal` proves later that nothing it covers changed or vanished."""

    round: int
    scope: str
    heads: list[dict[str, Any]]
    seal: str


KINDS: dict[str, type[Payload]] = {k.kind: k for k in (
    TournamentCreated, PlayerRegistered, PlayerDropped, ByeGranted, RoundPaired, ResultRecorded,
    RoundSealed, Correction, Note)}
