"""A tournament's state, derived by replay of its stream (never stored)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.events import (
    RecordedEvent,
)
from engine.store import StoreError

from judge.tournament.formats import MatchFormat, match_format
from judge.tournament.pairing import (
    Pairing,
)
from judge.tournament.standings import (
    MatchResult,
    Policy,
    Standings,
    compute_standings,
    get_policy,
)
from judge.tournament.vocab import CREATED, ResultRecorded


# --- the state, derived by replay ------------------------------------------------------------


@dataclass
class PlayerInfo:
    player: str
    player_id: str | None = None
    decklist: str | None = None
    registered_after_round: int = 0   # rounds already paired when they registered (late entry > 0)
    dropped_after_round: int | None = None

    @property
    def late(self) -> bool:
        return self.registered_after_round > 0

    @property
    def dropped(self) -> bool:
        return self.dropped_after_round is not None


@dataclass
class RoundState:
    number: int
    stage: str
    name: str
    pairings: list[Pairing]
    seed: str | None
    notes: list[str]
    results: dict[int, ResultRecorded] = field(default_factory=dict)
    corrections: dict[int, int] = field(default_factory=dict)  # table -> times recorded again

    def tables(self) -> list[Pairing]:
        return [p for p in self.pairings if p.player2 is not None]

    def missing(self) -> list[int]:
        return [p.table for p in self.tables() if p.table not in self.results]

    @property
    def complete(self) -> bool:
        return not self.missing()

    def match_results(self) -> list[MatchResult]:
        out = []
        for p in self.pairings:
            if p.player2 is None:
                out.append(MatchResult(self.number, p.player1, None, 0, 0, 0,
                                       self.stage == "elimination", self.name))
            elif p.table in self.results:
                r = self.results[p.table]
                out.append(MatchResult(self.number, r.player1, r.player2, r.wins1, r.wins2, r.draws,
                                       self.stage == "elimination", self.name))
        return out

    def winners(self) -> dict[int, str]:
        out = {}
        for t, r in self.results.items():
            if r.wins1 != r.wins2:
                out[t] = r.player1 if r.wins1 > r.wins2 else r.player2
        return out


@dataclass
class TournamentState:
    id: str
    name: str
    game: str
    policy: Policy
    rounds_planned: int
    top_cut_size: int
    seed: str
    players: dict[str, PlayerInfo] = field(default_factory=dict)
    rounds: list[RoundState] = field(default_factory=list)
    granted_byes: dict[int, dict[str, str | None]] = field(default_factory=dict)
    voided: set[int] = field(default_factory=set)
    position: int = 0
    best_of: int | None = None
    top_cut_best_of: int | None = None
    seals: dict[int, dict[str, Any]] = field(default_factory=dict)  # round -> its latest seal

    def match_format(self, stage: str) -> MatchFormat:
        """The match format of a stage: declared at creation, else the game's documented default."""
        return match_format(self.game, stage, self.top_cut_best_of if stage == "elimination" else self.best_of)

    @property
    def swiss_rounds(self) -> list[RoundState]:
        return [r for r in self.rounds if r.stage == "swiss"]

    @property
    def elimination_rounds(self) -> list[RoundState]:
        return [r for r in self.rounds if r.stage == "elimination"]

    @property
    def current(self) -> RoundState | None:
        return self.rounds[-1] if self.rounds else None

    def results(self) -> list[MatchResult]:
        """Every match result, plus one `missed` entry per Swiss round a late entrant was not
        registered for (the policy's `late_entry_losses` decides whether it is a loss)."""
        played = [m for r in self.rounds for m in r.match_results()]
        missed = [MatchResult(r.number, p, None, 0, 0, 0, False, r.name, missed=True)
                  for p, info in self.players.items() for r in self.swiss_rounds
                  if r.number <= info.registered_after_round]
        return played + missed

    def active_players(self) -> list[str]:
        return [p for p, info in self.players.items() if not info.dropped]

    def standings(self, upto_round: int | None = None) -> Standings:
        """Swiss standings (elimination rounds never count). `upto_round`: as after that round."""
        players = [p for p, i in self.players.items()
                   if upto_round is None or i.registered_after_round <= upto_round]
        dropped = [p for p, i in self.players.items() if i.dropped and (
            upto_round is None or i.dropped_after_round <= upto_round)]
        return compute_standings(self.results(), self.policy, players=players, dropped=dropped,
                                 upto_round=upto_round)

    def last_complete_round(self) -> int | None:
        """The number of the last round with every result in (None before any)."""
        done = [r.number for r in self.rounds if r.complete]
        return done[-1] if done else None

    def opponents(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {p: set() for p in self.players}
        for r in self.swiss_rounds:
            for p in r.tables():
                out.setdefault(p.player1, set()).add(p.player2)
                out.setdefault(p.player2, set()).add(p.player1)
        return out

    def byes(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.swiss_rounds:
            for p in r.pairings:
                if p.player2 is None:
                    out[p.player1] = out.get(p.player1, 0) + 1
        return out

    def summary(self) -> dict[str, Any]:
        cur = self.current
        return {"id": self.id, "name": self.name, "game": self.game, "policy": self.policy.name,
                "rounds_planned": self.rounds_planned, "top_cut": self.top_cut_size,
                "players": len(self.players), "active": len(self.active_players()),
                "match_format": {"swiss": self.match_format("swiss").to_dict(),
                                 "elimination": self.match_format("elimination").to_dict()},
                "rounds_paired": len(self.rounds),
                "current_round": None if cur is None else {
                    "round": cur.number, "name": cur.name, "stage": cur.stage,
                    "missing_results": cur.missing()}}


def replay(events: Sequence[RecordedEvent]) -> TournamentState:
    """Fold a tournament's events into its state. Voided events (core `correction`) are skipped."""
    if not events or events[0].kind != CREATED:
        raise StoreError("not a tournament: the stream does not start with tournament.created")
    voided = {e.payload["voids"] for e in events if e.kind == "correction"}
    c = events[0].payload
    st = TournamentState(
        id=events[0].match, name=c["name"], game=c["game"],
        policy=get_policy(c.get("policy", "mtg"), c.get("policy_options")),
        rounds_planned=c.get("rounds", 0), top_cut_size=c.get("top_cut", 0), seed=c.get("seed", "0"),
        voided=voided, best_of=c.get("best_of"), top_cut_best_of=c.get("top_cut_best_of"))
    for e in events[1:]:
        st.position = e.position
        if e.position in voided:
            continue
        _apply(st, e)
    return st


def _apply(st: TournamentState, e: RecordedEvent) -> None:
    p = e.payload
    if e.kind == "player.registered":
        st.players[p["player"]] = PlayerInfo(p["player"], p.get("player_id"), p.get("decklist"),
                                             registered_after_round=len(st.rounds))
    elif e.kind == "player.dropped":
        if p["player"] in st.players:
            st.players[p["player"]].dropped_after_round = len(st.rounds)
    elif e.kind == "bye.granted":
        st.granted_byes.setdefault(p["round"], {})[p["player"]] = p.get("reason")
    elif e.kind == "round.paired":
        st.rounds.append(RoundState(
            p["round"], p["stage"], p["name"],
            [Pairing(x.get("table"), x["player1"], x.get("player2"), x.get("reason", ""))
             for x in p["pairings"]], p.get("seed"), list(p.get("notes") or [])))
    elif e.kind == "round.sealed":
        st.seals[p["round"]] = p
    elif e.kind == "result.recorded":
        rnd = next((r for r in st.rounds if r.number == p["round"]), None)
        if rnd is not None:
            if p["table"] in rnd.results:
                rnd.corrections[p["table"]] = rnd.corrections.get(p["table"], 0) + 1
            rnd.results[p["table"]] = ResultRecorded.parse(p)
