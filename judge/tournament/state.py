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
    dropped_at: int | None = None     # the drop's event position (a refusal names it)

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
    paired_at: int = 0                                         # position of its round.paired
    closed_at: int | None = None                               # position of its round.closed
    result_events: dict[int, RecordedEvent] = field(default_factory=dict)  # table -> the result's event
    # table -> player -> that player's latest report (a result.reported event)
    reports: dict[int, dict[str, RecordedEvent]] = field(default_factory=dict)
    clock: RecordedEvent | None = None                         # the latest clock.started
    extensions: dict[int, list[RecordedEvent]] = field(default_factory=dict)
    time_called: dict[int, RecordedEvent] = field(default_factory=dict)
    overrides: list[RecordedEvent] = field(default_factory=list)  # organizer/judge overrides, in order
    matches: dict[int, str] = field(default_factory=dict)      # table -> recorded match id

    def tables(self) -> list[Pairing]:
        return [p for p in self.pairings if p.player2 is not None]

    @property
    def label(self) -> str:
        """The round in a sentence: `round 4` (Swiss), `Quarterfinals (round 9)` (a top-cut round
        by its name, with the number --round takes)."""
        return f"round {self.number}" if self.stage == "swiss" else f"{self.name} (round {self.number})"

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
                                       self.stage == "elimination", self.name, double_loss=r.double_loss))
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
    sealed_at: dict[int, int] = field(default_factory=dict)         # round -> its latest seal's position
    # round -> the events that changed its results (a result recorded, a result voided), in log order:
    # one after a seal of the round makes that seal stale (stale_seals, judge/tournament/seal.py)
    result_changes: dict[int, list[RecordedEvent]] = field(default_factory=dict)
    # the organizer's answers to warnings (warning id -> decision.recorded event)
    decisions: dict[str, RecordedEvent] = field(default_factory=dict)
    # results changed (recorded again or voided) after a later round was paired: (event, round)
    late_changes: list[tuple[RecordedEvent, int]] = field(default_factory=list)
    access: dict[str, RecordedEvent] = field(default_factory=dict)   # token id -> access.granted
    revoked: set[str] = field(default_factory=set)
    # (position, upto_round) -> the standings of this state: one page asks for them several times
    # (the bracket's seeds, the placings, the warnings' seeding); an event folded in moves `position`.
    # `position` alone says when an entry is stale (standings() drops the others), but the round is
    # part of the key too: one state is asked for the standings after different rounds, e.g. the
    # pairings board's points before the round (judge.web.views.points_before: round - 1) beside the
    # standings after the last complete round, or `tournament standings --round N` for an old round.
    _standings: dict[tuple[int, int | None], Standings] = field(default_factory=dict, repr=False, compare=False)

    def round(self, number: int) -> RoundState | None:
        return next((r for r in self.rounds if r.number == number), None)

    def changes_after(self, round_no: int, position: int) -> list[RecordedEvent]:
        """The events after `position` that changed round `round_no`'s results."""
        return [e for e in self.result_changes.get(round_no, ()) if e.position > position]

    def stale_seals(self) -> dict[int, RecordedEvent]:
        """Rounds whose latest seal no longer matches their results (a late correction, and no seal
        since): round -> the first event that changed them after the seal."""
        out = {}
        for r, at in sorted(self.sealed_at.items()):
            later = self.changes_after(r, at)
            if later:
                out[r] = later[0]
        return out

    def is_closed(self, rnd: RoundState) -> bool:
        """Closed by the organizer, or implicitly by pairing a later round."""
        return rnd.closed_at is not None or rnd is not self.rounds[-1]

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
        """Swiss standings (elimination rounds never count). `upto_round`: as after that round.
        Computed once per state and round (every later event moves `position`): read them, do not
        change them."""
        if upto_round is not None and upto_round >= max([len(self.rounds), *(r.number for r in self.rounds)]):
            upto_round = None  # as after the last round paired: the same standings, computed once
        key = (self.position, upto_round)
        if key not in self._standings:
            players = [p for p, i in self.players.items()
                       if upto_round is None or i.registered_after_round <= upto_round]
            dropped = [p for p, i in self.players.items() if i.dropped and (
                upto_round is None or i.dropped_after_round <= upto_round)]
            if any(k[0] != self.position for k in self._standings):
                self._standings.clear()  # an older state's: never asked for again
            self._standings[key] = compute_standings(self.results(), self.policy, players=players, dropped=dropped,
                                                     upto_round=upto_round)
        return self._standings[key]

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
        advance(st, e, events)
    return st


def advance(st: TournamentState, e: RecordedEvent, events: Sequence[RecordedEvent]) -> None:
    """Apply one more event (`events`: the stream so far, for what a correction voids). A
    correction of an event already applied cannot be folded forward: replay the stream instead."""
    st.position = e.position
    if e.position in st.voided:
        return
    if e.kind == "correction":
        target = events[e.payload["voids"] - 1] if 0 < e.payload["voids"] <= len(events) else None
        if target is not None and target.kind == "result.recorded":
            r = target.payload["round"]
            st.result_changes.setdefault(r, []).append(e)
            if any(x.number > r for x in st.rounds):
                st.late_changes.append((e, r))
        return
    _apply(st, e)


def _apply(st: TournamentState, e: RecordedEvent) -> None:
    p = e.payload
    if e.kind == "player.registered":
        st.players[p["player"]] = PlayerInfo(p["player"], p.get("player_id"), p.get("decklist"),
                                             registered_after_round=len(st.rounds))
    elif e.kind == "player.dropped":
        if p["player"] in st.players:
            st.players[p["player"]].dropped_after_round = len(st.rounds)
            st.players[p["player"]].dropped_at = e.position
    elif e.kind == "bye.granted":
        st.granted_byes.setdefault(p["round"], {})[p["player"]] = p.get("reason")
    elif e.kind == "round.paired":
        st.rounds.append(RoundState(
            p["round"], p["stage"], p["name"],
            [Pairing(x.get("table"), x["player1"], x.get("player2"), x.get("reason", ""))
             for x in p["pairings"]], p.get("seed"), list(p.get("notes") or []), paired_at=e.position))
    elif e.kind == "round.sealed":
        st.seals[p["round"]] = p
        st.sealed_at[p["round"]] = e.position
    elif e.kind == "result.recorded":
        rnd = st.round(p["round"])
        st.result_changes.setdefault(p["round"], []).append(e)
        if rnd is not None:
            if p["table"] in rnd.results:
                rnd.corrections[p["table"]] = rnd.corrections.get(p["table"], 0) + 1
            rnd.results[p["table"]] = ResultRecorded.parse(p)
            rnd.result_events[p["table"]] = e
            if p.get("format_override") or p.get("source") == "judge" or p["table"] in rnd.corrections:
                rnd.overrides.append(e)
            if any(x.number > rnd.number for x in st.rounds):
                st.late_changes.append((e, rnd.number))
    else:
        _apply_desk(st, e)


def _apply_desk(st: TournamentState, e: RecordedEvent) -> None:
    """The event desk's kinds: reports, closing, manual pairings, the round clock, decisions, access."""
    p = e.payload
    rnd = st.round(p["round"]) if "round" in p else None
    if e.kind == "result.reported" and rnd is not None:
        rnd.reports.setdefault(p["table"], {})[p["player"]] = e
    elif e.kind == "round.closed" and rnd is not None:
        rnd.closed_at = e.position
    elif e.kind == "pairing.swapped" and rnd is not None:
        a, b = p["players"]
        swap = {a: b, b: a}
        rnd.pairings = [Pairing(x.table, swap.get(x.player1, x.player1),
                                None if x.player2 is None else swap.get(x.player2, x.player2),
                                f"swapped by hand: {p['reason']}" if {a, b} & {x.player1, x.player2} else x.reason)
                        for x in rnd.pairings]
        rnd.overrides.append(e)
    elif e.kind == "clock.started" and rnd is not None:
        rnd.clock = e
        rnd.extensions.clear()
        rnd.time_called.clear()
    elif e.kind == "clock.extended" and rnd is not None:
        rnd.extensions.setdefault(p["table"], []).append(e)
    elif e.kind == "clock.time_called" and rnd is not None:
        rnd.time_called.setdefault(p["table"], e)
    elif e.kind == "round.matches" and rnd is not None:
        rnd.matches.update({m["table"]: m["match"] for m in p["matches"]})
    elif e.kind == "decision.recorded":
        st.decisions[p["warning"]] = e
        if st.rounds:
            st.rounds[-1].overrides.append(e)
    elif e.kind == "access.granted":
        st.access[p["token_id"]] = e
    elif e.kind == "access.revoked":
        st.revoked.add(p["token_id"])
