"""The tournament's event kinds: created, player registered/dropped, bye, round paired, result recorded."""
from __future__ import annotations

from typing import Any, Literal

from engine.events import (
    Note,
    Void,  # a stream's correction only voids (a match's may replace: engine/replacing.py)
)
from engine.match import MAX_NAME
from engine.schema import Payload, PayloadError, event_kind, shown

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
            raise PayloadError("player", f"{shown(self.player)} is reserved (it means a bye)")
        if len(self.player) > MAX_NAME:  # a recorded match's seats hold no longer name
            raise PayloadError("player", f"a player name is at most {MAX_NAME} characters; this one has "
                                         f"{len(self.player):,}: {shown(self.player[:MAX_NAME])}...")


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
    source: Literal["slip", "match", "players", "judge"] = "slip"
    matches: list[str] | None = None
    format_override: bool = False  # the organizer recorded game counts the match format does not allow
    reason: str | None = None      # why (a judge's ruling on a dispute, an overwrite)
    # from matches: each match's head and final state hash ({match, position, hash, state_hash}),
    # an anchor of the match in the tournament's own chain; `tablejudge verify` rechecks both
    based_on: list[dict[str, Any]] | None = None
    # both players got a match loss (a double loss: no game counted, wins1 = wins2 = draws = 0)
    double_loss: bool = False

    def validate(self) -> None:
        for f in ("wins1", "wins2", "draws"):
            if getattr(self, f) < 0:
                raise PayloadError(f, "must be 0 or more")
        if self.double_loss and (self.wins1 or self.wins2 or self.draws):
            raise PayloadError("double_loss", "a double loss counts no game: wins1, wins2 and draws are 0")


@event_kind("round.sealed")
class RoundSealed(Payload):
    """A closed round's seal: one hash (`seal`) over the tournament's head and the head of every
    match of the round ({stream, position, hash}). Printed on the standings page and the round
    report; `tablejudge verify --seal` proves later that nothing it covers changed or vanished."""

    round: int
    scope: str
    heads: list[dict[str, Any]]
    seal: str


# --- the event desk's kinds (tablejudge serve and the CLI alike) -------------------------------


@event_kind("result.reported")
class ResultReported(Payload):
    """One player's own report of their table's result (game counts in table order: player1's
    wins first). Two reports that agree make the result (`result.recorded`, source `players`);
    two that disagree put the table in the judges' queue. A report never overwrites anything.
    `device`: the opaque random id of the browser it came from (judge/web/device.py; never an IP
    address or a user agent), kept so the desk can say when both reports of a table came from one
    device."""

    round: int
    table: int
    player: str
    wins1: int
    wins2: int
    draws: int = 0
    device: str | None = None

    def validate(self) -> None:
        for f in ("wins1", "wins2", "draws"):
            if getattr(self, f) < 0:
                raise PayloadError(f, "must be 0 or more")


@event_kind("round.closed")
class RoundClosed(Payload):
    """The organizer closes a round: every result is in; the players' links for it expire."""

    round: int


@event_kind("pairing.swapped")
class PairingSwapped(Payload):
    """An organizer's manual pairing: two players of a round trade seats (before either table has
    a result). An override, shown on the round page with its reason."""

    round: int
    players: list[str]
    reason: str

    def validate(self) -> None:
        if len(self.players) != 2 or self.players[0] == self.players[1]:
            raise PayloadError("players", "a swap names two different players")
        if not self.reason.strip():
            raise PayloadError("reason", "say why the pairing is changed by hand")


@event_kind("clock.started")
class ClockStarted(Payload):
    """The round clock starts (when this event is recorded) with the round's length."""

    round: int
    minutes: int

    def validate(self) -> None:
        if not 1 <= self.minutes <= 600:
            raise PayloadError("minutes", "a round lasts 1 to 600 minutes")


@event_kind("clock.extended")
class ClockExtended(Payload):
    """A judge gives one table extra minutes (a long ruling, a deck check)."""

    round: int
    table: int
    minutes: int
    reason: str | None = None

    def validate(self) -> None:
        if not 1 <= self.minutes <= 120:
            raise PayloadError("minutes", "an extension is 1 to 120 minutes")


@event_kind("clock.time_called")
class ClockTimeCalled(Payload):
    """Time is called at one table (calling time for the room is one of these per table)."""

    round: int
    table: int


@event_kind("decision.recorded")
class DecisionRecorded(Payload):
    """The organizer's answer to a warning that a change invalidated something built on it:
    `keep` (with the reason) or `reseed`/`repair` (done in the same batch)."""

    warning: str
    choice: Literal["keep", "reseed", "repair"]
    reason: str

    def validate(self) -> None:
        if not self.reason.strip():
            raise PayloadError("reason", "say why")


@event_kind("access.granted")
class AccessGranted(Payload):
    """A staff link was minted (the token's id, never the token): role, the person's name, scope
    (a recorder's link: the one recorded match it writes)."""

    token_id: str
    role: Literal["judge", "scorekeeper", "organizer", "recorder"]
    name: str
    match: str | None = None

    def validate(self) -> None:
        if (self.role == "recorder") != (self.match is not None):
            raise PayloadError("match", "a recorder's link names its match; no other link names one")


@event_kind("access.revoked")
class AccessRevoked(Payload):
    token_id: str
    reason: str | None = None


@event_kind("round.matches")
class RoundMatches(Payload):
    """Recorded matches created from a round's pairings: one match stream per table."""

    round: int
    ruleset: str
    matches: list[dict[str, Any]]   # {"table": n, "match": id}, and "linked": true for a match made before, linked
    source: str | None = None       # "match new": one table's match made by hand, then linked


KINDS: dict[str, type[Payload]] = {k.kind: k for k in (
    TournamentCreated, PlayerRegistered, PlayerDropped, ByeGranted, RoundPaired, ResultRecorded,
    ResultReported, RoundClosed, PairingSwapped, ClockStarted, ClockExtended, ClockTimeCalled,
    DecisionRecorded, AccessGranted, AccessRevoked, RoundMatches, RoundSealed,
    Void, Note)}
