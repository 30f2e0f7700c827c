"""The Tournament aggregate: validate an organizer's command, append its event, replay."""
from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from engine.decisions import outstanding, stale_decisions
from engine.events import (
    TABLE_ACTOR,
    Draft,
    RecordedEvent,
    default_recorder_name,
    unsaid_reason,
)
from engine.match import MAX_NAME, InputError, Match
from engine.names import match_names
from engine.schema import PayloadError, shown
from engine.store import MATCH_CREATED, EventStore, MatchNotFound

from judge.recorders import who_stored
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
from judge.tournament.names import clean_name, did_you_mean, name_key, namesakes, same_names, similar_to
from judge.tournament import seal
from judge.tournament.matchoutcome import appealed_standing, by_names, standing_outcome
from judge.tournament.results import OverwriteRefused, game_counts, is_double_loss, parse_slip, refuse_no_game
from judge.tournament.standings import (
    DOUBLE_LOSS,
    Standings,
    default_policy,
    slip_text,
    slip_words,
)
from judge.tournament.state import PlayerInfo, RoundState, TournamentState, advance, replay
from judge.tournament.batch import refuse
from judge.tournament.tables import against_reports, check_reports, who_entered
from judge.tournament.vocab import CREATED, KINDS


# --- the aggregate: validate, append, replay -------------------------------------------------


def _where_seen(name: str, registered: Any) -> str:
    """Where a name met again was first: registered before, or earlier in the same batch."""
    return "already registered" if name in registered else "given earlier in this list"


def _same_name(name: str, player_id: str | None, registered: dict[str, PlayerInfo],
               batch_id: str | None) -> str:
    """Why a name met again is refused. Players are keyed by their registered name in every event
    (pairings, results, reports, drops, player links), so a second person of the same name cannot
    be registered under it: if the member ids differ, say how to register them apart."""
    where = _where_seen(name, registered)
    other_id = registered[name].player_id if name in registered else batch_id
    said = f"{shown(name)} is {where}" + (f" (member id {other_id})" if other_id else "")
    if not player_id or player_id == other_id:
        return said
    return (f"{said}; if {player_id} is another person with the same name, register them under a name "
            f"that tells the two apart, e.g. {shown(f'{name} ({player_id})')} with member id {player_id} "
            "(players are known by their registered name in pairings, results and standings, so two "
            "cannot share one; --allow-similar does not apply to the very same name)")


def check_game(game: str) -> None:
    """Refuse a game no ruleset plays, saying the nearest ("optgc": did you mean 'optcg'?), as
    `match new` refuses it: a typo would otherwise pick another game's policy and format defaults.
    `Tournament.create` checks it, so the CLI, the web form and any library caller get one wording."""
    from engine.rulesets import UnknownRuleset, get_ruleset
    if not isinstance(game, str) or not game:
        raise InputError("a tournament needs a game (see `tablejudge rulesets`)", field="game")
    try:
        get_ruleset(game)
    except UnknownRuleset as e:
        raise InputError(str(e), field="game") from None


class Tournament:
    """`actor`: who acts (`-` for the organizer at the CLI; the web desk passes `organizer`,
    `judge:NAME`, `scorekeeper:NAME` or a player's name). A long-lived instance keeps its state
    and reads only the events appended since (see `state`)."""

    def __init__(self, store: EventStore, tournament_id: str, recorded_by: str | None = None,
                 actor: str = TABLE_ACTOR):
        self.store = store
        self.id = tournament_id
        self.recorded_by = recorded_by or default_recorder_name()
        self.actor = actor
        self._cache = _StreamCache()
        created = store.created(tournament_id)
        if created.kind != CREATED:
            raise InputError(f"{shown(tournament_id)} is a {created.kind.split('.')[0]}, not a tournament",
                             field="tournament")

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, store: EventStore, *, name: str, game: str, policy: str | None = None,
               policy_options: dict[str, Any] | None = None, rounds: int = 0, top_cut: int = 0,
               seed: str | int | None = None, tournament_id: str | None = None,
               recorded_by: str | None = None, best_of: int | None = None,
               top_cut_best_of: int | None = None, actor: str = TABLE_ACTOR,
               same_name: bool = False) -> "Tournament":
        """A new tournament. A name another tournament has (as `named` folds it: case, spaces and
        accents aside) is refused unless `same_name`: by name, neither would be found any more,
        each lookup refused as ambiguous (QA85 5: "spring" beside "Spring" was created silently)."""
        check_game(game)  # before anything is stored
        # stored as chosen, the game's own when none was (standings.default_policy)
        payload = {"name": name, "game": game, "policy": policy or default_policy(game), "rounds": rounds,
                   "top_cut": top_cut, "seed": str(seed if seed is not None else uuid.uuid4().hex[:8])}
        if best_of is not None:
            payload["best_of"] = best_of
        if top_cut_best_of is not None:
            payload["top_cut_best_of"] = top_cut_best_of
        if policy_options:
            payload["policy_options"] = dict(policy_options)
        draft = _draft(CREATED, payload, recorded_by, actor)
        # after the payload's own checks: a bad field is said first, as for any name
        taken = [] if same_name else cls._called(store, name)
        if taken:
            said = ", ".join(f"{shown(e.payload['name'])} ({e.match})" for e in taken[:3])
            raise InputError(f"a tournament is already called {said}: names are matched regardless of case, "
                             "spaces and accents, so neither could be found by name any more. Nothing was "
                             "stored. Choose another name (e.g. with the date), or, from the command line, "
                             "add --same-name and give each by its id", field="name")
        tid = tournament_id or "t-" + uuid.uuid4().hex[:8]
        store.create(tid, [draft])
        return cls(store, tid, recorded_by, actor)

    @classmethod
    def open(cls, store: EventStore, ref: str, recorded_by: str | None = None,
             actor: str = TABLE_ACTOR) -> "Tournament":
        """The tournament `ref` names (`find`), else MatchNotFound saying so."""
        tid = cls.find(store, ref)
        if tid is not None:
            return cls(store, tid, recorded_by, actor)
        first = store.event_at(ref, 1)
        if first is not None and first.kind == MATCH_CREATED:  # a match's id where a tournament's belongs
            raise MatchNotFound(f"{ref} is a match, not a tournament: see `tablejudge state {ref}` "
                                "(`tablejudge tournament list` lists the tournaments)")
        raise MatchNotFound(f"no tournament {shown(ref)} in {store.describe()} (see `tablejudge tournament list`)")

    @classmethod
    def find(cls, store: EventStore, ref: str) -> str | None:
        """The id of the tournament `ref` names: its exact id or name (`exact`), else the one id it
        begins (3 characters at least); None: none. A name is read before a prefix: "spring" is
        the tournament called so, not spring-2025. A prefix several ids begin: MatchNotFound,
        listing them. `open` and `match new --event` (judge.tournament.tablematch) read so."""
        tid = cls.exact(store, ref)
        if tid is not None:
            return tid
        hits = [t for t in cls.list_ids(store) if t.startswith(ref)] if len(ref) >= 3 else []
        if len(hits) > 1:
            raise MatchNotFound(f"{shown(ref)} is ambiguous: it begins the ids of {', '.join(hits[:5])}"
                                f"{' ...' if len(hits) > 5 else ''}; give more of the id")
        return hits[0] if hits else None

    @classmethod
    def exact(cls, store: EventStore, ref: str) -> str | None:
        """The id of the tournament `ref` names exactly: its id, else its name (`id_named`: the
        event's name, as an organizer types it, QA83 6; a name several share is refused). None:
        no tournament is named so. `find` reads so, and a match's event label (judge.tournament.tablematch
        `tournament_named`: a label that begins like an id names no tournament)."""
        if ref in cls.list_ids(store):
            return ref
        return cls.id_named(store, ref)

    @staticmethod
    def list_ids(store: EventStore) -> list[str]:
        return store.stream_ids(CREATED)

    @staticmethod
    def named(store: EventStore, name: str) -> list[str]:
        """The ids of the tournaments called `name`, case, spaces and accents aside (name_key)."""
        return [e.match for e in Tournament._called(store, name)]

    @staticmethod
    def _called(store: EventStore, name: str) -> list[RecordedEvent]:
        """The creation events of the tournaments `named` finds: the one fold, for lookups and `create`."""
        key = name_key(name) if isinstance(name, str) else ""
        return [e for e in store.created_events(CREATED) if key and name_key(e.payload["name"]) == key]

    @classmethod
    def id_named(cls, store: EventStore, name: str) -> str | None:
        """The id of the one tournament called `name` (None: none is); two or more so called are
        refused, listing their ids (the name says no one tournament: its id does)."""
        ids = cls.named(store, name)
        if len(ids) > 1:
            raise MatchNotFound(f"{shown(name)} is the name of {len(ids)} tournaments: {', '.join(ids[:5])}"
                                f"{' ...' if len(ids) > 5 else ''}; give one's id")
        return ids[0] if ids else None

    # --- reading ----------------------------------------------------------------------------

    def events(self) -> list[RecordedEvent]:
        self.state()
        return list(self._cache.events)

    def state(self, upto: int | None = None) -> TournamentState:
        """The state now (or as after event `upto`). Now: the events appended since the last call
        are read and folded in; a correction among them replays the stream (it voids an earlier
        event). The returned state is this instance's own: read it, do not change it."""
        if upto is not None:
            return replay(self.store.read(self.id, upto=upto))
        c = self._cache
        new = self.store.read(self.id, after=len(c.events))
        if c.state is None or any(e.kind == "correction" for e in new):
            c.events.extend(new)
            c.state = replay(c.events)
        else:
            for e in new:
                c.events.append(e)
                advance(c.state, e, c.events)
        return c.state

    def with_actor(self, actor: str, recorded_by: str | None = None) -> "Tournament":
        """The same tournament (and cached state) acting for someone else."""
        other = Tournament.__new__(Tournament)
        other.__dict__.update(self.__dict__)
        other.actor, other.recorded_by = actor, recorded_by or self.recorded_by
        return other

    def standings(self, upto_round: int | None = None) -> Standings:
        return self.state().standings(upto_round)

    # --- organizer actions ------------------------------------------------------------------

    def register(self, player: str, *, player_id: str | None = None,
                 decklist: str | None = None, allow_similar: bool = False) -> RecordedEvent:
        (event,) = self.register_many([Entry(player, player_id, decklist)], allow_similar=allow_similar)
        return event

    def register_many(self, players: Sequence["str | Entry"], *, allow_similar: bool = False,
                      errors: Sequence[tuple[int, InputError]] = (), source: str = "") -> list[RecordedEvent]:
        """Register several players in one atomic batch (all or none). A name that differs from a
        registered one only by case, spaces or accents is refused unless `allow_similar`; a member
        id another player holds (registered, or earlier in the batch) is refused, naming them.
        Every refused entry is said at once (judge/tournament/batch.py: one error as itself,
        several as BatchRefused), each where it was written (an Entry's `where`, else "entry N"),
        with `errors` (the batch's lines its reader could not read, by line) and in line order."""
        st = self.state()
        closed = registration_closed(st)
        if closed is not None:
            raise InputError(f"{closed}; nothing stored", field="player")
        seen = list(st.players)
        batch_ids: dict[str, str | None] = {}  # member ids of this batch's names (a twin within the file)
        holders = {i.player_id.strip(): name for name, i in st.players.items() if i.player_id and i.player_id.strip()}
        drafts = []
        refused = list(errors)
        for n, item in enumerate(players, start=1):
            e = item if isinstance(item, Entry) else Entry(item)
            where = e.where or (f"entry {n}" if len(players) > 1 else "")
            try:
                p, draft = self._registrable(st, e, seen, holders, batch_ids, allow_similar)
            except InputError as err:  # the entry's own checks (a name too long): say which entry
                err.where = err.where or where
                refused.append((e.line or n, err))
                continue
            seen.append(p)
            batch_ids[p] = e.player_id or None
            pid = e.player_id.strip() if isinstance(e.player_id, str) else e.player_id
            if pid:
                holders[pid] = p
            drafts.append(draft)
        refused.sort(key=lambda x: x[0])
        refuse([err for _, err in refused], source)
        return self.store.append(self.id, drafts, expected_position=st.position or 1)

    def _registrable(self, st: TournamentState, e: "Entry", seen: list[str], holders: dict[str, str],
                     batch_ids: dict[str, str | None], allow_similar: bool) -> tuple[str, Any]:
        """The name `e` registers under (cleaned) and its event's draft, or the InputError refusing it."""
        p = clean_name(e.player) if isinstance(e.player, str) else e.player
        if isinstance(p, str) and len(p) > MAX_NAME:  # before the payload's generic text limit
            raise InputError(f"a player name is at most {MAX_NAME} characters; this one has {len(p):,}: "
                             f"{shown(p[:MAX_NAME])}...", field="player")
        if p in seen:
            raise InputError(_same_name(p, e.player_id, st.players, batch_ids.get(p)), field="player")
        twin = similar_to(p, seen)
        if twin is not None and not allow_similar:
            raise InputError(f"{shown(e.player)} looks like {shown(twin)}, {_where_seen(twin, st.players)} "
                             "(same name but for case, spaces or accents); if they are two people, register with "
                             "--allow-similar", field="player")
        pid = e.player_id.strip() if isinstance(e.player_id, str) else e.player_id
        holder = holders.get(pid) if pid else None
        if holder is not None:  # exports would show the id twice, for two people
            raise InputError(f"member id {shown(pid)} is held by {shown(holder)}, "
                             f"{_where_seen(holder, st.players)}: a member id is one player's; check the id "
                             f"given for {shown(p)}", field="player_id")
        # the draft runs the payload's own checks (a type, a text limit): refused here, not at append
        return p, self._draft("player.registered", {"player": p, "player_id": e.player_id or None,
                                                    "decklist": e.decklist or None})

    def drop(self, player: str, reason: str | None = None) -> RecordedEvent:
        st = self.state()
        player = resolve_player(st, player)
        info = st.players[player]
        if info.dropped:
            raise InputError(f"{shown(player)} already dropped (after round {info.dropped_after_round})",
                             field="player")
        return self._append(st, "player.dropped", {"player": player, "reason": reason})

    def grant_bye(self, player: str, round_no: int | None = None, reason: str | None = None) -> RecordedEvent:
        st = self.state()
        player = resolve_player(st, player)
        info = st.players[player]
        if info.dropped:
            raise InputError(f"{shown(player)} has dropped", field="player")
        nxt = len(st.rounds) + 1
        round_no = nxt if round_no is None else round_no
        if round_no < nxt:
            raise InputError(f"round {round_no} is already paired; a bye is given before pairing"
                             if round_no >= 1 else f"rounds are numbered from 1, got {round_no}", field="round")
        if st.rounds_planned and round_no > st.rounds_planned:
            raise InputError(f"the tournament has {st.rounds_planned} Swiss rounds: there is no round {round_no}",
                             field="round")
        if player in st.granted_byes.get(round_no, {}):
            raise InputError(f"{shown(player)} already has a bye for round {round_no}", field="player")
        return self._append(st, "bye.granted", {"player": player, "round": round_no, "reason": reason})

    def pair(self, *, explain: bool = True) -> RoundPairing:
        """Pair the next Swiss round (the previous round must be complete)."""
        st = self._sealed_before_next(self.state())
        rp, draft = self.swiss_round_draft(st)
        self.store.append(self.id, [draft], expected_position=st.position or 1)
        if not explain:
            rp.pairings = [Pairing(p.table, p.player1, p.player2) for p in rp.pairings]
        return rp

    def swiss_round_draft(self, st: TournamentState) -> tuple[RoundPairing, Draft]:
        """The next Swiss round of `st`, paired, and its round.paired draft (not appended)."""
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
        draft = self._draft("round.paired", {
            "round": round_no, "stage": "swiss", "name": f"Round {round_no}",
            "pairings": [_pairing_dict(p) for p in rp.pairings], "seed": rp.seed,
            "notes": rp.notes or None})
        return rp, draft

    def top_cut(self, size: int | None = None, *, end_swiss_early: bool = False) -> RoundPairing:
        """Pair the next single-elimination round: the first one seeded by the Swiss standings
        (dropped players are not seeded), the next ones from the winners. The first is refused
        while declared Swiss rounds remain, unless the organizer ends Swiss early
        (`end_swiss_early`; the round's notes record it)."""
        st = self.state()
        if not st.elimination_rounds:  # refused before anything is stored (the round's seal included)
            self._swiss_over(st, end_swiss_early)
        st = self._sealed_before_next(st)
        rp, draft = self.elimination_round_draft(st, size, end_swiss_early=end_swiss_early)
        self.store.append(self.id, [draft], expected_position=st.position or 1)
        return rp

    def elimination_round_draft(self, st: TournamentState, size: int | None = None, *,
                                end_swiss_early: bool = False) -> tuple[RoundPairing, Draft]:
        """The next elimination round of `st` and its round.paired draft (not appended). The
        first one needs every declared Swiss round played, or `end_swiss_early` (`_swiss_over`)."""
        self._previous_complete(st)
        elim = st.elimination_rounds
        round_no = len(st.rounds) + 1
        notes = None
        if not elim:
            size = size or st.top_cut_size
            if not size:
                raise InputError("this tournament has no top cut (give --size)", field="size")
            if not st.swiss_rounds:
                raise InputError("no Swiss round has been played", field="round")
            if self._swiss_over(st, end_swiss_early):
                notes = [f"Swiss ended early by the organizer: {len(st.swiss_rounds)} of the "
                         f"{st.rounds_planned} Swiss rounds declared were played"]
            try:
                pairings = pair_top_cut(top_cut_seeds(st), size)
            except PairingError as e:
                raise InputError(str(e), field="size") from None
            left = size
        else:
            last = elim[-1]
            try:
                pairings = pair_next_elimination(last.pairings, last.winners())
            except PairingError as e:
                raise InputError(str(e) + (" (final placings: `tablejudge tournament placings`)"
                                           if "over" in str(e) else ""), field="round") from None
            left = 2 * len(pairings)
        name = elimination_round_name(left)
        draft = self._draft("round.paired", {
            "round": round_no, "stage": "elimination", "name": name,
            "pairings": [_pairing_dict(p) for p in pairings], "notes": notes})
        return RoundPairing(round_no, pairings, "", [], [name, *(notes or [])]), draft

    def record_slip(self, slip: str, *, table: int | None = None, player: str | None = None,
                    round_no: int | None = None, override_format: bool = False,
                    overwrite: bool = False, reason: str | None = None) -> RecordedEvent:
        """A result slip `W-L-D`: game wins of the table's first player (or of `player`), losses, draws;
        or `double-loss`: both players get a match loss (docs/tournaments.md, "Double loss").
        Game counts the match format cannot produce are refused unless `override_format`; a
        different result already recorded for the table is refused (OverwriteRefused, showing
        it) unless `overwrite`; the same result again stores nothing, whatever the `reason` (the
        event that recorded it is returned)."""
        double_loss = is_double_loss(slip)
        w, l, d = (0, 0, 0) if double_loss else parse_slip(slip, field="slip")
        st = self.state()
        if player is not None:  # a name typed: the registered one it means
            player = resolve_player(st, player, st.round(round_no) if round_no else None)
        rnd, pairing = self._find_table(st, table, player, round_no)
        if player is not None and player == pairing.player2:
            w, l = l, w
        # the rule a results batch follows too: overriding a player's report takes --overwrite and
        # a reason
        against = against_reports(rnd, pairing, slip_words(w, l, d, double_loss))
        check_reports([against] if against else [], overwrite=overwrite, reason=reason)
        return self._record(st, rnd, pairing, w, l, d, "slip", None, override_format, overwrite, reason,
                            double_loss=double_loss)

    def record_matches(self, match_refs: Sequence[str], *, round_no: int | None = None,
                       override_format: bool = False, overwrite: bool = False,
                       reason: str | None = None) -> RecordedEvent:
        """A result from recorded matches: each match's outcome, replayed, as game counts (game_counts:
        one game per match, or the games a match of several games gives, e.g. op2009's best of three).
        `reason`: kept with the result (why it overwrites one)."""
        if not match_refs:
            raise InputError("give at least one match", field="match")
        st = self.state()
        outcomes = []
        players: set[str] | None = None
        for ref in match_refs:
            m = Match.open(self.store, ref)
            # the players as named now: a seat the log knew as "Player 2" and a later copy named
            # is that player here (the match's events keep the seat's name)
            names = match_names(m)
            if players is None:
                players = set(names.values())
            elif set(names.values()) != players:
                raise InputError(f"match {m.id} is between {', '.join(names.values())}, not the players "
                                 "of the other matches given", field="match")
            events = m.events()
            stale = stale_decisions(m.replayer, events)
            try:
                outcome, state = standing_outcome(m, events, stale)
            except Exception as e:  # noqa: BLE001 - a ruleset bug: a refusal in words, not "internal error"
                raise InputError(f"match {m.id}'s result cannot be read: its ruleset ({m.ruleset.name}) failed "
                                 f"on it ({type(e).__name__}: {e}); enter the result by hand "
                                 "(`tablejudge tournament result T W-L-D --table N`) and report the bug",
                                 field="match") from e
            if outcome is None:
                waiting = outstanding(stale)
                raise InputError(f"match {m.id} has no outcome yet: " + (
                    f"{waiting.words()}: decide again: {waiting.redo(m.id)}" if waiting else "the game is not over"),
                    field="match")
            # the match still gives a decision overturned on appeal: refused on the match itself, not on a
            # tournament warning (QA88 1: none was open once the head judge's result was entered); one rule
            # for a first take, a take again and the desk's take_again
            if (a := appealed_standing(events, stale)) is not None:
                raise InputError(f"{seal.still_given_words(m.id, a)}; nothing was recorded", field="match")
            if outcome.result == "double-loss":
                raise InputError(f"match {m.id} ended in a double loss, which a game count cannot "
                                 "express; if both players lose the match, record it as one: `tablejudge "
                                 "tournament result T --double-loss --table N`", field="match")
            outcomes.append((m.id, by_names(outcome, names), _basis(m, events, state)))  # the games each won too
        assert players is not None
        if len(players) != 2:
            raise InputError("a tournament match has two players", field="match")
        a, _ = sorted(players)
        rnd, pairing = self._find_table(st, None, a, round_no)
        if {pairing.player1, pairing.player2} != players:
            raise InputError(f"{', '.join(sorted(players))} are not paired together in round "
                             f"{rnd.number} (table {pairing.table}: {pairing.player1} vs {pairing.player2})",
                             field="match")
        counts = [game_counts(o, pairing.player1, pairing.player2) for _, o, _ in outcomes]
        w, l, d = (sum(c[i] for c in counts) for i in range(3))
        return self._record(st, rnd, pairing, w, l, d, "match", [mid for mid, _, _ in outcomes], override_format,
                            overwrite, reason, based_on=[b for _, _, b in outcomes])

    def correct(self, position: int, reason: str) -> RecordedEvent:
        """Void an earlier event (a mistaken registration, drop, bye, result or the last pairing)."""
        st = self.state()
        events = self.events()
        if not 2 <= position <= len(events):
            raise InputError(f"there is no event {position} to void: the tournament's events are 1..{len(events)}"
                             if position != 1 else "event 1 creates the tournament and cannot be voided",
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

    # --- round seals (judge/tournament/seal.py) ----------------------------------------------

    def seal_round(self, round_no: int | None = None) -> RecordedEvent:
        """Seal a round (default: the last complete one) as the log stands now: a `round.sealed`
        event whose hash covers the tournament's head and every match of the round. Done when a
        round is closed, and before the next round is paired if it was not."""
        st = self.state()
        if round_no is None:
            round_no = st.last_complete_round()
            if round_no is None:
                raise InputError("no round is complete yet: nothing to seal", field="round")
        rnd = st.round(round_no)
        if rnd is None:
            raise InputError(f"round {round_no} has not been paired", field="round")
        if not rnd.complete:
            raise InputError(f"{rnd.name} still misses results for table(s) "
                             f"{', '.join(map(str, rnd.missing()))}: a round is sealed once closed",
                             field="round")
        return self._append(st, seal.SEALED, seal.seal_payload(self.store, st, round_no))

    @staticmethod
    def _swiss_over(st: TournamentState, end_swiss_early: bool) -> bool:
        """Before the top cut's first round: every declared Swiss round played, or InputError
        unless `end_swiss_early`. True: Swiss ends early (rounds remain)."""
        left = swiss_rounds_left(st)
        if left and not end_swiss_early:
            paired = len(st.swiss_rounds)
            played = sum(1 for r in st.swiss_rounds if r.complete)
            how = ("pair the next Swiss round, or end Swiss early on purpose (`top-cut --end-swiss-early`; on "
                   "the desk: \"End Swiss early\")")
            if played == paired:
                said = f"{played} of the {st.rounds_planned} Swiss rounds declared {'has' if played == 1 else 'have'} "
                said += f"been played: {how}"
            else:  # the current round is paired, its results are not all in
                said = (f"{paired} of the {st.rounds_planned} Swiss rounds declared {'has' if paired == 1 else 'have'} "
                        f"been paired and {played or 'none'} played ({st.swiss_rounds[-1].name} still misses "
                        f"results): finish it, then {how}")
            raise InputError(said, field="round")
        return bool(left)

    def _sealed_before_next(self, st: TournamentState) -> TournamentState:
        """Before the next round is paired: seal the current one if it is complete and was never
        sealed (an organizer who pairs on without closing), refused as `tournament close` refuses
        while a result of it may not be sealed (seal.closing_blockers: QA85 1, pairing sealed over
        a result resting on a decision overturned on appeal after close had refused it)."""
        cur = st.current
        if cur is not None and cur.complete and cur.number not in st.seals:
            if behind := seal.closing_blockers(self.store, st, {e.position for e in cur.result_events.values()}):
                raise InputError(f"{cur.name} cannot be sealed, so the next round is not paired: "
                                 + "; ".join(behind), field="round")
            self.seal_round(cur.number)
            return self.state()
        return st

    # --- helpers ----------------------------------------------------------------------------

    def _append(self, st: TournamentState, kind: str, payload: dict[str, Any]) -> RecordedEvent:
        (event,) = self.store.append(self.id, [self._draft(kind, payload)], expected_position=st.position or 1)
        return event

    def _draft(self, kind: str, payload: dict[str, Any]) -> Draft:
        """A validated draft by this instance's actor (None fields left out)."""
        return _draft(kind, {k: v for k, v in payload.items() if v is not None}, self.recorded_by, self.actor)

    def append(self, st: TournamentState, drafts: Sequence[Draft]) -> list[RecordedEvent]:
        """Append drafts made against `st` as one atomic batch: if anyone wrote since `st` was
        read, ConflictError and nothing stored."""
        return self.store.append(self.id, list(drafts), expected_position=st.position or 1)

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
            if hit is None and player not in st.players:
                raise not_registered(st, player, rnd)
            if hit is None:
                raise not_paired(st, player, rnd)
            if hit.player2 is None:
                raise InputError(f"{shown(player)} has a bye in {rnd.name}: no result to record", field="player")
        else:
            raise InputError("say which table (or which player)", field="table")
        return rnd, hit

    def _record(self, st: TournamentState, rnd: RoundState, p: Pairing, w: int, l: int, d: int,
                source: str, matches: list[str] | None, override_format: bool = False,
                overwrite: bool = False, reason: str | None = None, *,
                based_on: list[dict[str, Any]] | None = None, double_loss: bool = False) -> RecordedEvent:
        old = rnd.results.get(p.table)
        new = slip_words(w, l, d, double_loss)
        if kept_as_is(self.store, st, rnd, {p.table: new}, overwrite=overwrite, reason=reason,
                      based_on=bool(based_on)):
            return rnd.result_events[p.table]  # the event that recorded it
        draft = self._result_draft(st, rnd, p, w, l, d, source, matches, override_format, reason,
                                   based_on=based_on, double_loss=double_loss)
        if old is not None and not overwrite and slip_text(old) != new:
            raise OverwriteRefused([overwrite_conflict(rnd, p, new)])
        if old is not None:  # settling a judge's warning with --overwrite says why (QA86 8)
            check_judges_warnings(self.store, st, [rnd.result_events[p.table]], overwrite=overwrite, reason=reason)
        (event,) = self.store.append(self.id, [draft], expected_position=st.position or 1)
        return event

    def _result_draft(self, st: TournamentState, rnd: RoundState, p: Pairing, w: int, l: int, d: int,
                      source: str, matches: list[str] | None, override_format: bool = False,
                      reason: str | None = None, *, based_on: list[dict[str, Any]] | None = None,
                      double_loss: bool = False, field: str | None = None) -> Draft:
        """`field`: what a refusal names (default: `match` for recorded matches, else `slip`, the
        CLI's argument; a results batch and a player's report say `result`, their column)."""
        field = field or ("match" if source == "match" else "slip")
        if rnd.stage == "elimination" and double_loss:
            raise InputError(f"{rnd.name} is single elimination: a double loss would leave nobody to go on: "
                             "the result needs a winner", field=field)
        if rnd.stage == "elimination" and w == l:
            raise InputError(f"{rnd.name} is single elimination: the result needs a winner, got "
                             f"{w}-{l}-{d}", field=field)
        refuse_no_game(w, l, d, double_loss, field=field, how=(
            "report the games played, or, if both players got a match loss (a double loss), ask a judge: "
            "a judge or the organizer records it" if source == "players" else
            f"record the games played, or, if both players got a match loss (a double loss), record that: "
            f"`{p.table} {DOUBLE_LOSS}` in a results file, `tablejudge tournament result T --double-loss "
            f"--table {p.table}` alone"))
        fmt = st.match_format(rnd.stage)
        problem = None if double_loss else fmt.problem(w, l, d)
        if problem and not override_format:
            where = f"{rnd.name} table {p.table} ({p.player1} vs {p.player2})"
            why = "declared for this tournament" if fmt.declared else f"the default for {st.game}"
            # a player reports on their phone: no command line there, the staff can record it
            how = ("ask a judge: a judge or the organizer can record it" if source == "players" else
                   "an organizer records it with the format override (`tablejudge tournament result ... "
                   "--override-format`; the web desk does not override formats)")
            raise InputError(f"{where}: {w}-{l}-{d} is impossible in a {fmt.name} match ({why}): "
                             f"{problem}; if the table really played this, {how}", field=field)
        payload = {"round": rnd.number, "table": p.table, "player1": p.player1, "player2": p.player2,
                   "wins1": w, "wins2": l, "draws": d, "source": source, "matches": matches,
                   "format_override": True if problem else None, "reason": reason, "based_on": based_on,
                   "double_loss": True if double_loss else None}
        return self._draft("result.recorded", payload)


class Entry(NamedTuple):
    """A registration: the player's name, member id and decklist (both optional); from a file,
    where it was written (`where`, file:line) and its line, for the errors refusing it."""

    player: str
    player_id: str | None = None
    decklist: str | None = None
    where: str = ""
    line: int = 0


class _StreamCache:
    """The events read so far and their state, shared by the instances `with_actor` makes."""

    def __init__(self) -> None:
        self.events: list[RecordedEvent] = []
        self.state: TournamentState | None = None


def kept_as_is(store: EventStore, st: TournamentState, rnd: RoundState, entered: dict[int, str], *,
               overwrite: bool = False, reason: str | None = None, based_on: bool = False) -> set[int]:
    """The tables of `rnd` among `entered` (table -> the result entered, slip_words) that keep the
    result they have, nothing stored: the same result again, whatever the reason given (a double
    submit, a batch entered twice). Unless it is taken again from a match corrected since
    (`based_on`: it then rests on the match as it is); or entered by hand with `overwrite` and a
    `reason` where a warning that blocks closing asks for it (the head judge's result after an
    appeal, seal.settled_by_entering_again): recorded again, it is the head judge's ruling (QA85
    3: "unchanged", and the round stayed blocked). One rule for `tournament result` (one table)
    and a batch (`tournament results`, the web's grid: judge/tournament/entry.py), which asks once
    for all its tables."""
    same = {n: rnd.result_events[n] for n, new in entered.items()
            if n in rnd.results and slip_text(rnd.results[n]) == new}
    if based_on:
        return {n for n, e in same.items() if not seal.out_of_date(store, e)}
    if not (same and overwrite and reason):
        return set(same)
    settled = seal.settled_by_entering_again(store, st, {e.position for e in same.values()})
    return {n for n, e in same.items() if e.position not in settled}


def again_words(matches: Sequence[str] | None) -> str:
    """How a table given the result it had, recorded again, is said: taken again from its matches
    (`matches`: the result's, on the match as it stands now), or entered by hand, the head judge's
    result (kept_as_is). The single `tournament result` and a batch say it alike; QA86 1 read the
    batch's "the head judge's result" beside `result --match`'s "unchanged" as a disagreement."""
    if matches:
        return f"taken again from match {', '.join(matches)} (the table had this result)"
    return "recorded again by hand (the table had this result), the head judge's result"


class JudgesWarning(InputError):
    """An entry that would replace a standing result carrying a warning a judge settles
    (seal.JUDGES_WARNINGS), made by someone who does not settle it (a scorekeeper's link): nothing
    was stored. The web answers 403 with it and who does (QA86 1)."""


def check_judges_warnings(store: EventStore, st: TournamentState, replaced: Sequence[RecordedEvent], *,
                          judge: bool = True, overwrite: bool = False, reason: str | None = None) -> None:
    """Refuse entering results over the standing result events `replaced` (recorded again or
    overwritten) where one carries a warning a judge settles (a result its match no longer gives,
    one on a time decision the head judge overturned on appeal): a result entered over it is taken
    as the head judge's (docs/judging.md), so `judge` False (a scorekeeper) is refused
    (JudgesWarning, QA86 1; an undo too: undone, the table is entered again), and an `overwrite` that settles it says why: no `reason`, refused
    (QA86 8: `--overwrite` alone settled it; the web's button asks for one). One rule for
    `tournament result` and a batch (the web's grid). The matches of `replaced` are read only when
    there may be something to refuse."""
    if not replaced or (judge and (reason or not overwrite)):
        return
    found = seal.judges_warnings(store, st, {e.position for e in replaced})
    if not found:
        return
    b = found[0]
    p = b.event.payload
    where = (f"round {p.get('round')} table {p.get('table')}'s result (event {b.event.position}) has a warning a "
             f"judge settles ({b.kind}:{b.event.position})")
    if not judge:
        raise JudgesWarning(f"{where}: a result entered over it (or after undoing it) is taken as the head judge's; "
                            "nothing was recorded", field="result")
    raise InputError(f"{where}, which this overwrite settles: say why with --reason (e.g. --reason \"appeal, "
                     "event N\" or \"decided again after a correction\"), kept with the result; nothing was recorded",
                     field="reason")


def registration_closed(st: TournamentState) -> str | None:
    """Why no player can register now (None: registration is open): the words of
    `register_many`'s refusal, and what the web desk says in place of its Register forms (QA83 3)."""
    if st.elimination_rounds:
        return "the top cut has started: no more entries"
    if st.rounds_planned and len(st.swiss_rounds) >= st.rounds_planned:
        # QA82 1: a player registered now plays no round yet lands in the final placings with a
        # match loss per round (late entry), changing them silently; nothing is recorded
        n = st.rounds_planned
        placed = f"{n} match losses" if st.policy.late_entry_losses else "no match played"
        return (f"all {n} Swiss rounds are paired (round {n} of {n}): a player registered now "
                f"would play no round and be placed with {placed}; registration is closed")
    return None


def resolve_player(st: TournamentState, player: str, rnd: RoundState | None = None,
                   field: str = "player") -> str:
    """The registered name a typed one means, wherever a player is named (`result --player`,
    `drop`, `bye`, `swap`, `report`): the name itself, else the one registered name it equals
    case, spaces and accents aside (name_key, as registration folds: "gül  öztürk" is "Gül
    Öztürk", as a results CSV's player columns are read). Two or more such names: ambiguous,
    listed with their tables; none: `not_registered`."""
    if player in st.players:
        return player
    hits = list(same_names(player, st.players)) if name_key(player) else []  # a blank name means nobody
    if len(hits) == 1:
        return hits[0]
    if hits:
        where = _seat_words(st, rnd)
        said = [shown(n) + (f" ({where(n)})" if where(n) else "") for n in hits]
        raise InputError(f"{shown(player)} is ambiguous: it is {', '.join(said[:-1])} or {said[-1]} but for case, "
                         "spaces or accents; give the name exactly as registered", field=field)
    raise not_registered(st, player, rnd, field)


def drop_words(st: TournamentState, ev: RecordedEvent) -> str:
    """What a drop says, the CLI's and the web desk's: `Maria Rossi dropped (event 12); also
    registered: Maria Rossi (M99999), not dropped`. QA70 #7: `drop "maria rossi"` dropped one of
    two namesakes without a word about the other, and the organizer could not tell which went."""
    player = ev.payload["player"]
    said = [f"{n}, {'dropped earlier' if st.players[n].dropped else 'not dropped'}"
            for n in namesakes(player, st.players)]
    return f"{player} dropped (event {ev.position})" + (f"; also registered: {'; '.join(said)}" if said else "")


def _seat_words(st: TournamentState, rnd: RoundState | None) -> Callable[[str], str | None]:
    """What to say after a player's name: their table in `rnd` (default: the current round)."""
    rnd = rnd if rnd is not None else st.current
    seats = {} if rnd is None else {who: p for p in rnd.pairings for who in (p.player1, p.player2)
                                    if who is not None}

    def where(name: str) -> str | None:
        if rnd is None:
            return None
        p = seats.get(name)
        if p is None:  # in the top cut most players are not: nothing worth saying
            return f"not paired in {rnd.name}" if rnd.stage == "swiss" else None
        return "a bye" if p.player2 is None else f"table {p.table}"

    return where


def not_paired(st: TournamentState, player: str, rnd: RoundState, field: str = "player") -> InputError:
    """A registered player with no seat in `rnd`: dropped (said so, with the drop's event: QA75 7
    said only "not paired in Round 2" of a player who dropped after round 1), or registered after
    it was paired."""
    info = st.players.get(player)
    if info is not None and info.dropped and info.dropped_after_round < rnd.number:
        return InputError(f"{shown(player)} dropped after round {info.dropped_after_round} (event "
                          f"{info.dropped_at}): not paired in {rnd.name}", field=field)
    return InputError(f"{shown(player)} is not paired in {rnd.name}", field=field)


def not_registered(st: TournamentState, player: str, rnd: RoundState | None = None,
                   field: str = "player") -> InputError:
    """`'Zzz' is not registered`, with the registered names it may mean (judge/tournament/names.py:
    case, spaces and accents aside, or a part of a name) and each one's table in `rnd` (default:
    the current round); with none near it, the players when they are few."""
    hint = did_you_mean(player, st.players, _seat_words(st, rnd))
    if not hint:
        hint = (f"players: {', '.join(st.players)}" if len(st.players) <= 10 else
                f"no registered name is near it ({len(st.players)} players; `tablejudge tournament pairings T "
                "--by name` lists them)")
    return InputError(f"{shown(player)} is not registered; {hint}", field=field)


def overwrite_conflict(rnd: RoundState, p: Pairing, new: str) -> dict[str, Any]:
    """What OverwriteRefused shows for a table: the result it has, by whom, and the new one."""
    ev = rnd.result_events[p.table]
    return {"round": rnd.number, "table": p.table, "player1": p.player1, "player2": p.player2,
            "old": slip_text(rnd.results[p.table]), "new": new, "by": who_stored(ev), "at": ev.recorded_at,
            "position": ev.position, "who": who_entered(ev)}


def swiss_rounds_left(st: TournamentState) -> int:
    """Declared Swiss rounds not paired yet (0: all played, none declared, or the top cut has
    started). The one rule for the CLI's `top-cut` and the web desk: the top cut starts when this
    is 0, or when the organizer ends Swiss early on purpose."""
    if not st.rounds_planned or st.elimination_rounds:
        return 0
    return max(0, st.rounds_planned - len(st.swiss_rounds))


def top_cut_seeds(st: TournamentState) -> list[str]:
    """The players the top cut is seeded from, best first: the Swiss standings without the
    dropped and those who never played."""
    return [r.player for r in st.standings().rows if not r.dropped and r.played]


def _basis(m: Match, events: Sequence[RecordedEvent], state: Any) -> dict[str, Any]:
    """What a result from a match rests on: the match's head (an anchor in the tournament's chain)
    and the state hash of its final table (`state`, replayed from `events`): the head the outcome
    was read at, not the store's head read again (an event appended in between would be claimed
    as read), and no second replay."""
    head = events[-1]
    return {"match": m.id, "position": head.position, "hash": head.hash, "state_hash": state.state_hash()}


def _pairing_dict(p: Pairing) -> dict[str, Any]:
    d: dict[str, Any] = {"table": p.table, "player1": p.player1, "player2": p.player2}
    if p.reason:
        d["reason"] = p.reason
    return d


def _draft(kind: str, payload: dict[str, Any], recorded_by: str | None, actor: str = TABLE_ACTOR) -> Draft:
    try:
        parsed = KINDS[kind].parse(payload)
    except PayloadError as e:
        # PayloadError's text already names its field; InputError names it again: pass the bare message
        raise InputError(e.message, field=f"payload.{e.field}" if e.field else "payload") from None
    if (unsaid := unsaid_reason(kind, payload)) is not None:  # a new correction says why (an export's is taken as is)
        raise InputError(unsaid, field="reason")
    return Draft(kind, parsed.version, actor, parsed.to_dict(),
                 recorded_by or default_recorder_name())
