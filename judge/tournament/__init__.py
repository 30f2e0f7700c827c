"""Event-sourced tournaments: players, rounds, pairings, results; standings derived by replay.

    store = EventStore.open("t.db")
    t = Tournament.create(store, name="Pavia 15", game="optcg", policy="mtg", rounds=6, top_cut=8)
    t.register("Ann"); t.register("Bob"); ...
    t.pair()                         # round 1 (Swiss), appended as a round.paired event
    t.record_slip("1-0-0", table=1)  # optcg Swiss is best of one; or t.record_matches([...])
    t.standings()                    # derived from the events, never stored
    t.top_cut()                      # quarterfinals, semifinals, finals

A tournament is a stream of the event log started by `tournament.created`; every organizer action
is one event. A correction is a new event: a result recorded again for the same table supersedes
the earlier one (both stay in the log), and the core `correction` event voids an earlier event.
Pairings are stored as facts (with their seed and reasons), so a changed pairing algorithm never
rewrites history.
"""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal

from engine.events import (
    TABLE_ACTOR,
    Correction,
    Draft,
    Note,
    RecordedEvent,
    default_recorder_name,
)
from engine.match import InputError, Match
from engine.schema import Payload, PayloadError, event_kind
from engine.store import EventStore, MatchNotFound, StoreError
from engine.words import plural

from judge.tournament.formats import MatchFormat, match_format
from judge.tournament.pairing import (
    Pairing,
    PairingError,
    RoundPairing,
    elimination_round_name,
    entrants_from_standings,
    pair_next_elimination,
    pair_swiss,
    pair_top_cut,
)
from judge.tournament.results import parse_slip
from judge.tournament.standings import (
    TIEBREAKER_LABELS,
    TIEBREAKERS,
    MatchResult,
    Policy,
    PolicyError,
    Standings,
    compute_standings,
    format_fraction,
    get_policy,
)
from judge.report.templating import render

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

    def validate(self) -> None:
        for f in ("wins1", "wins2", "draws"):
            if getattr(self, f) < 0:
                raise PayloadError(f, "must be 0 or more")


KINDS: dict[str, type[Payload]] = {k.kind: k for k in (
    TournamentCreated, PlayerRegistered, PlayerDropped, ByeGranted, RoundPaired, ResultRecorded,
    Correction, Note)}


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
    elif e.kind == "result.recorded":
        rnd = next((r for r in st.rounds if r.number == p["round"]), None)
        if rnd is not None:
            if p["table"] in rnd.results:
                rnd.corrections[p["table"]] = rnd.corrections.get(p["table"], 0) + 1
            rnd.results[p["table"]] = ResultRecorded.parse(p)


# --- the aggregate: validate, append, replay -------------------------------------------------


class Tournament:
    def __init__(self, store: EventStore, tournament_id: str, recorded_by: str | None = None):
        self.store = store
        self.id = tournament_id
        self.recorded_by = recorded_by or default_recorder_name()
        created = store.created(tournament_id)
        if created.kind != CREATED:
            raise InputError(f"{tournament_id!r} is a {created.kind.split('.')[0]}, not a tournament",
                             field="tournament")

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, store: EventStore, *, name: str, game: str, policy: str = "mtg",
               policy_options: dict[str, Any] | None = None, rounds: int = 0, top_cut: int = 0,
               seed: str | int | None = None, tournament_id: str | None = None,
               recorded_by: str | None = None, best_of: int | None = None,
               top_cut_best_of: int | None = None) -> "Tournament":
        payload = {"name": name, "game": game, "policy": policy, "rounds": rounds,
                   "top_cut": top_cut, "seed": str(seed if seed is not None else uuid.uuid4().hex[:8])}
        if best_of is not None:
            payload["best_of"] = best_of
        if top_cut_best_of is not None:
            payload["top_cut_best_of"] = top_cut_best_of
        if policy_options:
            payload["policy_options"] = dict(policy_options)
        draft = _draft(CREATED, payload, recorded_by)
        tid = tournament_id or "t-" + uuid.uuid4().hex[:8]
        store.create(tid, [draft])
        return cls(store, tid, recorded_by)

    @classmethod
    def open(cls, store: EventStore, ref: str, recorded_by: str | None = None) -> "Tournament":
        ids = store.stream_ids(CREATED)
        if ref in ids:
            return cls(store, ref, recorded_by)
        hits = [t for t in ids if t.startswith(ref)] if len(ref) >= 3 else []
        if len(hits) == 1:
            return cls(store, hits[0], recorded_by)
        if len(hits) > 1:
            raise MatchNotFound(f"{ref!r} is ambiguous: {', '.join(hits[:5])}")
        raise MatchNotFound(f"no tournament {ref!r} in {store.describe()} (see `tablejudge tournament list`)")

    @staticmethod
    def list_ids(store: EventStore) -> list[str]:
        return store.stream_ids(CREATED)

    # --- reading ----------------------------------------------------------------------------

    def events(self) -> list[RecordedEvent]:
        return self.store.read(self.id)

    def state(self, upto: int | None = None) -> TournamentState:
        return replay(self.store.read(self.id, upto=upto))

    def standings(self, upto_round: int | None = None) -> Standings:
        return self.state().standings(upto_round)

    # --- organizer actions ------------------------------------------------------------------

    def register(self, player: str, *, player_id: str | None = None,
                 decklist: str | None = None) -> RecordedEvent:
        st = self.state()
        player = player.strip() if isinstance(player, str) else player
        if player in st.players:
            raise InputError(f"{player!r} is already registered", field="player")
        if st.elimination_rounds:
            raise InputError("the top cut has started: no more entries", field="player")
        return self._append(st, "player.registered",
                            {"player": player, "player_id": player_id, "decklist": decklist})

    def register_many(self, players: Sequence[str]) -> list[RecordedEvent]:
        """Register several players in one atomic batch (all or none)."""
        st = self.state()
        if st.elimination_rounds:
            raise InputError("the top cut has started: no more entries", field="player")
        seen = set(st.players)
        drafts = []
        for p in players:
            p = p.strip() if isinstance(p, str) else p
            if p in seen:
                raise InputError(f"{p!r} is already registered", field="player")
            seen.add(p)
            drafts.append(_draft("player.registered", {"player": p}, self.recorded_by))
        return self.store.append(self.id, drafts, expected_position=st.position or 1)

    def record_round(self, slips: Sequence[tuple[int, str]], *,
                     override_format: bool = False) -> list[RecordedEvent]:
        """Results of the current round as (table, 'W-L-D') pairs, appended in one atomic batch."""
        st = self.state()
        drafts = []
        for table, slip in slips:
            w, l, d = parse_slip(slip, field="slip")
            rnd, p = self._find_table(st, table, None, None)
            drafts.append(self._result_draft(st, rnd, p, w, l, d, "slip", None, override_format))
        return self.store.append(self.id, drafts, expected_position=st.position or 1)

    def drop(self, player: str, reason: str | None = None) -> RecordedEvent:
        st = self.state()
        info = self._player(st, player)
        if info.dropped:
            raise InputError(f"{player!r} already dropped (after round {info.dropped_after_round})",
                             field="player")
        return self._append(st, "player.dropped", {"player": player, "reason": reason})

    def grant_bye(self, player: str, round_no: int | None = None, reason: str | None = None) -> RecordedEvent:
        st = self.state()
        info = self._player(st, player)
        if info.dropped:
            raise InputError(f"{player!r} has dropped", field="player")
        nxt = len(st.rounds) + 1
        round_no = round_no or nxt
        if round_no < nxt:
            raise InputError(f"round {round_no} is already paired; a bye is given before pairing",
                             field="round")
        if player in st.granted_byes.get(round_no, {}):
            raise InputError(f"{player!r} already has a bye for round {round_no}", field="player")
        return self._append(st, "bye.granted", {"player": player, "round": round_no, "reason": reason})

    def pair(self, *, explain: bool = True) -> RoundPairing:
        """Pair the next Swiss round (the previous round must be complete)."""
        st = self.state()
        self._previous_complete(st)
        if st.elimination_rounds:
            raise InputError("the top cut has started: use `top-cut` for its next round", field="round")
        if st.rounds_planned and len(st.swiss_rounds) >= st.rounds_planned:
            raise InputError(f"all {st.rounds_planned} Swiss rounds are paired"
                             + (f"; next is the top {st.top_cut_size} (`top-cut`)" if st.top_cut_size else ""),
                             field="round")
        active = st.active_players()
        if len(active) < 2:
            raise InputError("fewer than two active players: nothing to pair", field="players")
        round_no = len(st.rounds) + 1
        standings = st.standings()
        entrants = entrants_from_standings(standings.rows, st.policy.order, seed=st.seed,
                                           round_no=round_no, active=active)
        granted = [p for p in st.granted_byes.get(round_no, {}) if p in set(active)]
        rp = pair_swiss(entrants, round_no=round_no, seed=st.seed, opponents=st.opponents(),
                        byes=st.byes(), granted_byes=granted, explain=True)
        self._append(st, "round.paired", {
            "round": round_no, "stage": "swiss", "name": f"Round {round_no}",
            "pairings": [_pairing_dict(p) for p in rp.pairings], "seed": rp.seed,
            "notes": rp.notes or None})
        if not explain:
            rp.pairings = [Pairing(p.table, p.player1, p.player2) for p in rp.pairings]
        return rp

    def top_cut(self, size: int | None = None) -> RoundPairing:
        """Pair the next single-elimination round: the first one seeded by the Swiss standings
        (dropped players are not seeded), the next ones from the winners."""
        st = self.state()
        self._previous_complete(st)
        elim = st.elimination_rounds
        round_no = len(st.rounds) + 1
        if not elim:
            size = size or st.top_cut_size
            if not size:
                raise InputError("this tournament has no top cut (give --size)", field="size")
            if not st.swiss_rounds:
                raise InputError("no Swiss round has been played", field="round")
            seeded = [r.player for r in st.standings().rows if not r.dropped and r.played]
            try:
                pairings = pair_top_cut(seeded, size)
            except PairingError as e:
                raise InputError(str(e), field="size") from None
            left = size
        else:
            last = elim[-1]
            try:
                pairings = pair_next_elimination(last.pairings, last.winners())
            except PairingError as e:
                raise InputError(str(e), field="round") from None
            left = 2 * len(pairings)
        name = elimination_round_name(left)
        self._append(st, "round.paired", {
            "round": round_no, "stage": "elimination", "name": name,
            "pairings": [_pairing_dict(p) for p in pairings]})
        return RoundPairing(round_no, pairings, "", [], [name])

    def record_slip(self, slip: str, *, table: int | None = None, player: str | None = None,
                    round_no: int | None = None, override_format: bool = False) -> RecordedEvent:
        """A result slip `W-L-D`: game wins of the table's first player (or of `player`), losses, draws.
        Game counts the match format cannot produce are refused unless `override_format`."""
        w, l, d = parse_slip(slip, field="slip")
        st = self.state()
        rnd, pairing = self._find_table(st, table, player, round_no)
        if player is not None and player == pairing.player2:
            w, l = l, w
        return self._record(st, rnd, pairing, w, l, d, "slip", None, override_format)

    def record_matches(self, match_refs: Sequence[str], *, round_no: int | None = None,
                       override_format: bool = False) -> RecordedEvent:
        """A result from recorded matches (one game each): each match's outcome, replayed."""
        if not match_refs:
            raise InputError("give at least one match", field="match")
        st = self.state()
        outcomes = []
        players: set[str] | None = None
        for ref in match_refs:
            m = Match.open(self.store, ref)
            if players is None:
                players = set(m.players)
            elif set(m.players) != players:
                raise InputError(f"match {m.id} is between {', '.join(m.players)}, not the players "
                                 "of the other matches given", field="match")
            outcome = m.ruleset.outcome(m.state())
            if outcome is None:
                raise InputError(f"match {m.id} has no outcome yet (the game is not over)", field="match")
            if outcome.result == "double-loss":
                raise InputError(f"match {m.id} ended in a double loss, which a W-L-D result cannot "
                                 "express; record the ruling as a slip", field="match")
            outcomes.append((m.id, outcome))
        assert players is not None
        if len(players) != 2:
            raise InputError("a tournament match has two players", field="match")
        a, _ = sorted(players)
        rnd, pairing = self._find_table(st, None, a, round_no)
        if {pairing.player1, pairing.player2} != players:
            raise InputError(f"{', '.join(sorted(players))} are not paired together in round "
                             f"{rnd.number} (table {pairing.table}: {pairing.player1} vs {pairing.player2})",
                             field="match")
        w = sum(1 for _, o in outcomes if o.result == "win" and o.winner == pairing.player1)
        l = sum(1 for _, o in outcomes if o.result == "win" and o.winner == pairing.player2)
        d = sum(1 for _, o in outcomes if o.result == "draw")
        return self._record(st, rnd, pairing, w, l, d, "match", [mid for mid, _ in outcomes], override_format)

    def correct(self, position: int, reason: str) -> RecordedEvent:
        """Void an earlier event (a mistaken registration, drop, bye, result or the last pairing)."""
        st = self.state()
        events = self.events()
        if not 2 <= position <= len(events):
            raise InputError(f"the tournament's events are 1..{len(events)}; event 1 cannot be voided",
                             field="position")
        target = events[position - 1]
        if target.kind in ("correction", "note"):
            raise InputError(f"event {position} is a {target.kind}; it cannot be voided", field="position")
        if position in st.voided:
            raise InputError(f"event {position} is already void", field="position")
        if target.kind == "round.paired":
            rnd = st.rounds[-1] if st.rounds else None
            if rnd is None or rnd.number != target.payload["round"] or rnd.results:
                raise InputError("only the last round's pairing can be voided, before any result of it",
                                 field="position")
        return self._append(st, "correction", {"voids": position, "reason": reason})

    # --- helpers ----------------------------------------------------------------------------

    def _append(self, st: TournamentState, kind: str, payload: dict[str, Any]) -> RecordedEvent:
        draft = _draft(kind, {k: v for k, v in payload.items() if v is not None}, self.recorded_by)
        (event,) = self.store.append(self.id, [draft], expected_position=st.position or 1)
        return event

    @staticmethod
    def _player(st: TournamentState, player: str) -> PlayerInfo:
        if player not in st.players:
            raise InputError(f"{player!r} is not registered (players: {', '.join(list(st.players)[:10])}"
                             f"{', ...' if len(st.players) > 10 else ''})", field="player")
        return st.players[player]

    @staticmethod
    def _previous_complete(st: TournamentState) -> None:
        cur = st.current
        if cur is not None and not cur.complete:
            raise InputError(f"{cur.name} still misses results for table(s) "
                             f"{', '.join(map(str, cur.missing()))}", field="round")

    @staticmethod
    def _find_table(st: TournamentState, table: int | None, player: str | None,
                    round_no: int | None) -> tuple[RoundState, Pairing]:
        if not st.rounds:
            raise InputError("no round has been paired yet", field="round")
        if round_no is None:
            rnd = st.rounds[-1]
        else:
            rnd = next((r for r in st.rounds if r.number == round_no), None)
            if rnd is None:
                raise InputError(f"round {round_no} has not been paired", field="round")
        if table is not None:
            hit = next((p for p in rnd.tables() if p.table == table), None)
            if hit is None:
                raise InputError(f"{rnd.name} has no table {table} (tables 1..{len(rnd.tables())})",
                                 field="table")
        elif player is not None:
            hit = next((p for p in rnd.pairings if player in (p.player1, p.player2)), None)
            if hit is None:
                raise InputError(f"{player!r} is not paired in {rnd.name}", field="player")
            if hit.player2 is None:
                raise InputError(f"{player!r} has a bye in {rnd.name}: no result to record", field="player")
        else:
            raise InputError("say which table (or which player)", field="table")
        return rnd, hit

    def _record(self, st: TournamentState, rnd: RoundState, p: Pairing, w: int, l: int, d: int,
                source: str, matches: list[str] | None, override_format: bool = False) -> RecordedEvent:
        draft = self._result_draft(st, rnd, p, w, l, d, source, matches, override_format)
        (event,) = self.store.append(self.id, [draft], expected_position=st.position or 1)
        return event

    def _result_draft(self, st: TournamentState, rnd: RoundState, p: Pairing, w: int, l: int, d: int,
                      source: str, matches: list[str] | None, override_format: bool = False) -> Draft:
        if rnd.stage == "elimination" and w == l:
            raise InputError(f"{rnd.name} is single elimination: the result needs a winner, got "
                             f"{w}-{l}-{d}", field="slip")
        if w + l + d == 0:
            raise InputError("a result with no game at all (0-0-0); record the games played",
                             field="slip")
        fmt = st.match_format(rnd.stage)
        problem = fmt.problem(w, l, d)
        if problem and not override_format:
            where = f"{rnd.name} table {p.table} ({p.player1} vs {p.player2})"
            why = "declared for this tournament" if fmt.declared else f"the default for {st.game}"
            raise InputError(f"{where}: {w}-{l}-{d} is impossible in a {fmt.name} match ({why}): "
                             f"{problem}; if the table really played this, record it with the format "
                             "override (`--override-format`)", field="match" if source == "match" else "slip")
        payload = {"round": rnd.number, "table": p.table, "player1": p.player1, "player2": p.player2,
                   "wins1": w, "wins2": l, "draws": d, "source": source, "matches": matches,
                   "format_override": True if problem else None}
        return _draft("result.recorded", {k: v for k, v in payload.items() if v is not None},
                      self.recorded_by)


def _pairing_dict(p: Pairing) -> dict[str, Any]:
    d: dict[str, Any] = {"table": p.table, "player1": p.player1, "player2": p.player2}
    if p.reason:
        d["reason"] = p.reason
    return d


def _draft(kind: str, payload: dict[str, Any], recorded_by: str | None) -> Draft:
    try:
        parsed = KINDS[kind].parse(payload)
    except PayloadError as e:
        # PayloadError's text already names its field; InputError names it again: pass the bare message
        raise InputError(e.message, field=f"payload.{e.field}" if e.field else "payload") from None
    return Draft(kind, parsed.version, TABLE_ACTOR, parsed.to_dict(),
                 recorded_by or default_recorder_name())


def pairings_by_name(rnd: RoundState) -> list[dict[str, Any]]:
    """Every player of a round alphabetically, with table, opponent and result so far (the sheet
    by name). The result is the player's own: their game wins first."""
    rows = []
    for p in rnd.pairings:
        r = rnd.results.get(p.table) if p.table is not None and p.player2 is not None else None
        rows.append({"player": p.player1, "table": p.table, "opponent": p.player2,
                     "result": None if r is None else f"{r.wins1}-{r.wins2}-{r.draws}"})
        if p.player2 is not None:
            rows.append({"player": p.player2, "table": p.table, "opponent": p.player1,
                         "result": None if r is None else f"{r.wins2}-{r.wins1}-{r.draws}"})
    return sorted(rows, key=lambda r: (r["player"].casefold(), r["player"]))


def record_text(wins: int, losses: int, draws: int, byes: int, missed: int = 0) -> str:
    """W-L-D with the byes and missed rounds said: a bye counts as a won match, a round missed by a
    late entry as a lost one, so `2-1-0 (1 bye)` is one match won at the table and one bye."""
    said = ([f"{byes} bye{'s' if byes != 1 else ''}"] if byes else []) + (
        [f"{missed} missed"] if missed else [])
    return f"{wins}-{losses}-{draws}" + (f" ({', '.join(said)})" if said else "")


def pairings_by_table(rnd: RoundState) -> list[dict[str, Any]]:
    rows = []
    for p in rnd.pairings:
        r = rnd.results.get(p.table) if p.table is not None else None
        rows.append({"table": p.table, "player1": p.player1, "player2": p.player2,
                     "result": None if r is None else f"{r.wins1}-{r.wins2}-{r.draws}",
                     "reason": p.reason})
    return rows


def standings_page(st: TournamentState, round_no: int | None = None) -> str:
    """The printable sheet: standings (after `round_no`, default the latest Swiss round) and the
    pairings of that round's successor (or of the current round), by table and by name."""
    if round_no is None:
        round_no = st.last_complete_round()  # a round in progress (its byes too) is not counted yet
    standings = st.standings(round_no) if round_no is not None else st.standings(0)
    swiss = [r for r in st.swiss_rounds if round_no is not None and r.number <= round_no]
    after = swiss[-1].name if swiss else ""
    if round_no is None:
        rnd = st.rounds[-1] if st.rounds else None
    else:
        rnd = next((r for r in st.rounds if r.number == round_no + 1), None) or next(
            (r for r in st.rounds if r.number == round_no), None)
    rows = []
    for r in standings.rows:
        rows.append({
            "rank": r.rank, "player": r.player, "points": r.points,
            "record": record_text(r.wins, r.losses, r.draws, r.byes, r.missed), "dropped": r.dropped, "played": r.played,
            "tiebreakers": [(f"{r.tiebreakers.get(k):g}" if k == "h2h" and r.tiebreakers.get(k) is not None
                             else "" if k == "h2h" else format_fraction(r.tiebreakers.get(k)))
                            for k in standings.policy.order]})
    return render(
        "standings.html",
        title=f"{st.name} — standings" + (f" after {after}" if after else ""),
        event_name=st.name,
        subtitle=f"{st.game} · {plural(len(st.players), 'player')} · {len(st.swiss_rounds)} of "
                 f"{st.rounds_planned or '?'} Swiss rounds paired" + (
                     f" · top {st.top_cut_size}" if st.top_cut_size else ""),
        policy_name=standings.policy.name,
        policy_order="points, then " + ", then ".join(TIEBREAKERS[k] for k in standings.policy.order),
        standings_round=after,
        tiebreak_columns=[{"label": TIEBREAKER_LABELS[k], "help": TIEBREAKERS[k]} for k in standings.policy.order],
        rows=rows, warnings=standings.warnings,
        pairings_round=rnd.name if rnd else "",
        by_table=pairings_by_table(rnd) if rnd else [],
        by_name_columns=_halves(pairings_by_name(rnd)) if rnd else [],
        any_byes=any(r.byes for r in standings.rows),
        any_missed=any(r.missed for r in standings.rows),
        source=st.id,
        generated_at=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    )


def _halves(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The by-name list in two side-by-side tables (each with its own header; CSS columns would
    split one table and leave the second half without one)."""
    if len(rows) < 12:
        return [rows]
    half = (len(rows) + 1) // 2
    return [rows[:half], rows[half:]]
