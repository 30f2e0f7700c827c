"""The Tournament aggregate: validate an organizer's command, append its event, replay."""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from engine.events import (
    TABLE_ACTOR,
    Draft,
    RecordedEvent,
    default_recorder_name,
)
from engine.match import InputError, Match
from engine.schema import PayloadError
from engine.store import ConflictError, EventStore, MatchNotFound

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
from judge.tournament import seal
from judge.tournament.results import parse_slip
from judge.tournament.standings import (
    Standings,
)
from judge.tournament.state import PlayerInfo, RoundState, TournamentState, replay
from judge.tournament.vocab import CREATED, KINDS


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
        events = self.store.append(self.id, drafts, expected_position=st.position or 1)
        self._seal_if_closed(st.current.number if st.current else None)
        return events

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
        st = self._sealed_before_next(st)
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
        st = self._sealed_before_next(st)
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
            outcomes.append((m.id, outcome, _basis(m)))
        assert players is not None
        if len(players) != 2:
            raise InputError("a tournament match has two players", field="match")
        a, _ = sorted(players)
        rnd, pairing = self._find_table(st, None, a, round_no)
        if {pairing.player1, pairing.player2} != players:
            raise InputError(f"{', '.join(sorted(players))} are not paired together in round "
                             f"{rnd.number} (table {pairing.table}: {pairing.player1} vs {pairing.player2})",
                             field="match")
        w = sum(1 for _, o, _ in outcomes if o.result == "win" and o.winner == pairing.player1)
        l = sum(1 for _, o, _ in outcomes if o.result == "win" and o.winner == pairing.player2)
        d = sum(1 for _, o, _ in outcomes if o.result == "draw")
        return self._record(st, rnd, pairing, w, l, d, "match", [mid for mid, _, _ in outcomes],
                            override_format, based_on=[b for _, _, b in outcomes])

    def correct(self, position: int, reason: str) -> RecordedEvent:
        """Void an earlier event (a mistaken registration, drop, bye, result or the last pairing)."""
        st = self.state()
        events = self.events()
        if not 2 <= position <= len(events):
            raise InputError(f"the tournament's events are 1..{len(events)}; event 1 cannot be voided",
                             field="position")
        target = events[position - 1]
        if target.kind in ("correction", "note", seal.SEALED):
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
                source: str, matches: list[str] | None, override_format: bool = False, *,
                based_on: list[dict[str, Any]] | None = None) -> RecordedEvent:
        draft = self._result_draft(st, rnd, p, w, l, d, source, matches, override_format, based_on)
        (event,) = self.store.append(self.id, [draft], expected_position=st.position or 1)
        self._seal_if_closed(rnd.number)
        return event

    # --- round seals (judge/tournament/seal.py) ----------------------------------------------

    def seal_round(self, round_no: int | None = None) -> RecordedEvent:
        """Seal a round (default: the last complete one) as the log stands now: a `round.sealed`
        event whose hash covers the tournament's head and every match of the round."""
        st = self.state()
        if round_no is None:
            round_no = st.last_complete_round()
            if round_no is None:
                raise InputError("no round is complete yet: nothing to seal", field="round")
        rnd = next((r for r in st.rounds if r.number == round_no), None)
        if rnd is None:
            raise InputError(f"round {round_no} has not been paired", field="round")
        if not rnd.complete:
            raise InputError(f"{rnd.name} still misses results for table(s) "
                             f"{', '.join(map(str, rnd.missing()))}: a round is sealed once closed",
                             field="round")
        return self._append(st, seal.SEALED, seal.seal_payload(self.store, st, round_no))

    def _seal_if_closed(self, round_no: int | None) -> None:
        """After a result: if it closed its round, seal the round. Losing a race to another writer
        leaves the round unsealed (it is sealed before the next round is paired): the result
        itself is stored, and that is what the caller asked for."""
        if round_no is None:
            return
        st = self.state()
        rnd = next((r for r in st.rounds if r.number == round_no), None)
        if rnd is not None and rnd.complete:
            try:
                self.seal_round(round_no)
            except ConflictError:
                pass

    def _sealed_before_next(self, st: TournamentState) -> TournamentState:
        cur = st.current
        if cur is not None and cur.complete and cur.number not in st.seals:
            self.seal_round(cur.number)
            return self.state()
        return st

    def _result_draft(self, st: TournamentState, rnd: RoundState, p: Pairing, w: int, l: int, d: int,
                      source: str, matches: list[str] | None, override_format: bool = False,
                      based_on: list[dict[str, Any]] | None = None) -> Draft:
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
                   "format_override": True if problem else None, "based_on": based_on}
        return _draft("result.recorded", {k: v for k, v in payload.items() if v is not None},
                      self.recorded_by)


def _basis(m: Match) -> dict[str, Any]:
    """What a result from a match rests on: the match's head (an anchor in the tournament's chain)
    and the state hash of its final table."""
    head = m.store.head(m.id)
    assert head is not None
    return {"match": m.id, "position": head.position, "hash": head.hash,
            "state_hash": m.state(at=head.position).state_hash()}


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
