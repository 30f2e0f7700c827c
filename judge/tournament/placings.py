"""After the top cut: final placings for every player. Before and during it: warnings when a
change invalidates something already built on it, and the organizer's recorded choice.

Final placings: the final's winner 1st and loser 2nd; the players who lost in each earlier
elimination round next (semifinal losers 3rd and 4th, quarterfinal losers 5th to 8th), ordered
among themselves by their Swiss standing; then everyone who did not make the cut, in Swiss
standings order. Placings exist only once the final has a result; with no top cut, they are the
Swiss standings once the last declared Swiss round has every result.

Warnings (each has an id; the organizer's `decision.recorded` answers one):
- `stale-bracket:<seeds>`: the Swiss standings now seed the top cut differently from the bracket
  that was paired (a Swiss result changed, a player dropped or was voided after the cut). Choices:
  `reseed` (the top cut is voided, its results too, and paired again from the standings) or
  `keep` with the reason.
- `changed-after-pairing:<position>`: a result of round N changed after round N+1 was paired on
  it. Choices: `repair` (only while round N+1 has no results) or `keep` with the reason.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from engine.events import RecordedEvent
from engine.match import InputError
from engine.store import EventStore

from judge.tournament.aggregate import Tournament, slip_text, top_cut_seeds
from judge.tournament.pairing import PairingError, pair_top_cut
from judge.tournament.seal import Blocker, blocking_problems
from judge.tournament.rounds import repair_drafts, round_voids, state_without
from judge.tournament.state import TournamentState


@dataclass
class Placing:
    place: int
    player: str
    how: str
    swiss_rank: int | None
    player_id: str | None = None  # the member id given at registration

    def to_dict(self) -> dict[str, Any]:
        return {"place": self.place, "player": self.player, "id": self.player_id, "how": self.how,
                "swiss_rank": self.swiss_rank}


SWISS = "Swiss standings"  # how the players who did not make the cut are placed


def final_placings(st: TournamentState) -> list[Placing]:
    """Every player's final place (raises InputError while the top cut is not over)."""
    elim = st.elimination_rounds
    if not elim:
        if st.top_cut_size:
            raise InputError(f"the top cut (top {st.top_cut_size}) has not been paired yet: there are no final "
                             "placings before it is over", field="round")
        return _swiss_only(st)
    final = elim[-1]
    if len(final.tables()) != 1 or not final.complete:
        raise InputError(f"the top cut is not over ({final.name} "
                         + ("has no result yet)" if len(final.tables()) == 1 else "is not the final)"),
                         field="round")
    swiss_rank = {r.player: r.rank for r in st.standings().rows}
    out: list[Placing] = []
    placed: set[str] = set()

    def add(players: list[str], how: str) -> None:
        for p in sorted(players, key=lambda p: swiss_rank.get(p, 10**9)):
            info = st.players.get(p)
            out.append(Placing(len(out) + 1, p, how, swiss_rank.get(p), info.player_id if info else None))
            placed.add(p)

    (p,) = final.tables()
    winner = final.winners()[p.table]
    add([winner], f"won the {final.name}")
    for rnd in reversed(elim):
        winners = rnd.winners()
        losers = [x.player1 if winners.get(x.table) == x.player2 else x.player2 for x in rnd.tables()]
        add([x for x in losers if x not in placed], f"lost in the {rnd.name}")
    rest = [r.player for r in st.standings().rows if r.player not in placed]
    add(rest, SWISS)
    return out


def _swiss_only(st: TournamentState) -> list[Placing]:
    """No top cut: the final Swiss standings are the final placings (QA70 9: `placings` was an
    error and the API null), once the declared Swiss rounds are all paired and every one has its
    results (an open-ended event: every round paired so far)."""
    swiss = st.swiss_rounds
    if not swiss or len(swiss) < st.rounds_planned or not swiss[-1].complete:
        done = sum(r.complete for r in swiss)
        raise InputError(f"the Swiss rounds are not over ({done} of {st.rounds_planned or len(swiss) or '?'} "
                         "complete): with no top cut the final placings are the Swiss standings after the last",
                         field="round")
    return [Placing(r.rank, r.player, SWISS, r.rank, st.players[r.player].player_id if r.player in st.players else None)
            for r in st.standings().rows]


def placings_or_none(st: TournamentState) -> list[dict[str, Any]] | None:
    """Final placings as plain rows (place, player, id, how, swiss_rank) once the top cut is over,
    else None: what the web desk, the standings sheet and `tournament placings` show."""
    try:
        return [p.to_dict() for p in final_placings(st)]
    except InputError:
        return None


def bracket(st: TournamentState) -> list[dict[str, Any]]:
    """The top cut round by round: each table's players (with their Swiss seed), result and winner."""
    seeds = {r.player: r.rank for r in st.standings().rows}
    out = []
    for rnd in st.elimination_rounds:
        winners = rnd.winners()
        out.append({"number": rnd.number, "name": rnd.name, "tables": [
            {"table": p.table, "player1": p.player1, "player2": p.player2, "seed1": seeds.get(p.player1),
             "seed2": seeds.get(p.player2), "result": None if p.table not in rnd.results else
             slip_text(rnd.results[p.table]),
             "winner": winners.get(p.table)} for p in rnd.tables()]})
    return out


# --- warnings and decisions ---------------------------------------------------------------------


@dataclass
class Warning:
    id: str
    kind: str
    message: str
    choices: list[str]
    decision: RecordedEvent | None = None
    # the match whose out-of-date time decision the result waits for (its "decide again" on the web)
    decide_again: str | None = None
    # the result taken again from this match settles it (seal.Blocker.take_from): {"match", "round", "table"}
    take_from: dict[str, Any] | None = None
    # why taking the match's result again settles nothing yet, and what first (seal.Blocker.still_given)
    still_given: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {"id": self.id, "kind": self.kind, "message": self.message, "choices": self.choices,
             "resolved": self.decision is not None}
        if self.decide_again is not None:
            d["decide_again"] = self.decide_again
        if self.take_from is not None:
            d["take_from"] = self.take_from
        if self.decision is not None:
            d["decision"] = {"choice": self.decision.payload["choice"], "reason": self.decision.payload["reason"],
                             "by": self.decision.recorded_by, "actor": self.decision.actor,
                             "position": self.decision.position}
        return d


def _bracket_now(st: TournamentState) -> list[tuple[str, str]] | None:
    first = st.elimination_rounds[0] if st.elimination_rounds else None
    if first is None:
        return None
    try:
        return [(p.player1, p.player2) for p in pair_top_cut(top_cut_seeds(st), 2 * len(first.tables()))]
    except PairingError:
        return []


def warnings(st: TournamentState, *, include_resolved: bool = False,
             store: EventStore | None = None) -> list[Warning]:
    """What a change invalidated. With the `store`, also each standing result taken from a match
    whose log no longer gives it (seal.standing_problems, the check `verify` makes): no answer
    settles that one (no choices); recording the result again does, and `close` waits for it."""
    out: list[Warning] = []
    if store is not None:
        # no choices: entering the result again settles each
        out += [_blocker_warning(b) for b in blocking_problems(store, st)]
    now = _bracket_now(st)
    if now is not None:
        first = st.elimination_rounds[0]
        paired = [(p.player1, p.player2) for p in first.tables()]
        if paired != now:
            fp = hashlib.sha256(repr(now).encode()).hexdigest()[:10]
            moved = [f"table {i}: {a} vs {b} (paired: {pa} vs {pb})"
                     for i, ((a, b), (pa, pb)) in enumerate(zip(now, paired), start=1) if (a, b) != (pa, pb)]
            wid = f"stale-bracket:{fp}"
            out.append(Warning(wid, "stale-bracket",
                               f"the Swiss standings now seed the {first.name} differently: "
                               + "; ".join(moved), ["reseed", "keep"], st.decisions.get(wid)))
    for ev, rnd_no in st.late_changes:
        nxt = st.round(rnd_no + 1)
        if nxt is None:
            continue
        what = "voided" if ev.kind == "correction" else "recorded again"
        table = ev.payload.get("table")
        wid = f"changed-after-pairing:{ev.position}"
        choices = (["repair", "keep"] if nxt is st.rounds[-1] and not nxt.results and not any(nxt.reports.values())
                   else ["keep"])
        out.append(Warning(wid, "changed-after-pairing",
                           f"a result of round {rnd_no}" + (f" (table {table})" if table else "")
                           + f" was {what} (event {ev.position}) after {nxt.name} was paired on it",
                           choices, st.decisions.get(wid)))
    return out if include_resolved else [w for w in out if w.decision is None]


def _blocker_warning(b: Blocker) -> Warning:
    """A warning no answer settles (seal.Blocker), as `warnings` lists it: its id is KIND:POSITION, the
    standing result's event."""
    take = ({"match": b.take_from, "round": b.event.payload.get("round"), "table": b.event.payload.get("table")}
            if b.take_from else None)
    return Warning(f"{b.kind}:{b.event.position}", b.kind, b.words, [], decide_again=b.decide_again,
                   take_from=take, still_given=b.still_given)


def take_again(t: Tournament, warning_id: str, reason: str) -> RecordedEvent:
    """Settle a warning that blocks closing (seal.blocking_problems) by taking its table's result from
    the match again, as `tournament result T --match M --round R --overwrite --reason ...` does (the
    same record_matches): after a judge decided the match's time again, say. Only a warning whose
    words say the match's result settles it (`take_from`); the result is recorded with `reason`. Where
    the match still gives the decision the head judge overturned, refused with what to do first."""
    st = t.state()
    _, _, at = warning_id.rpartition(":")
    # only the result the id names is checked (its match read once), not every warning of the event
    w = next((_blocker_warning(b) for b in blocking_problems(t.store, st, only={int(at)})
              if f"{b.kind}:{b.event.position}" == warning_id), None) if at.isdigit() else None
    w = w or next((w for w in warnings(st) if w.id == warning_id), None)  # one an organizer answers
    if w is None:
        raise InputError(f"no open warning {warning_id!r} (it may be settled already)", field="warning")
    if w.take_from is None and w.still_given is not None:  # QA86 2: it said "taken again" of the old result
        raise InputError(f"{w.still_given}; nothing was recorded", field="warning")
    if w.take_from is None:
        raise InputError(f"warning {warning_id!r} is not settled by taking a match's result again: "
                         f"{w.message}", field="warning")
    return t.record_matches([w.take_from["match"]], round_no=w.take_from["round"], overwrite=True, reason=reason)


def decide(t: Tournament, warning_id: str, choice: str, reason: str) -> list[RecordedEvent]:
    """The organizer's answer to a warning, recorded with the reason. `reseed` voids the top cut
    (its pairings and results) and pairs its first round again; `repair` re-pairs the last round."""
    st = t.state()
    w = next((w for w in warnings(st) if w.id == warning_id), None)
    if w is None:
        # the warnings read from the store (a result's basis, an appeal, a match's decision) have no
        # answer to choose: said as they are, their commands, not "answered already" (QA85 3)
        told = next((w for w in warnings(st, store=t.store) if w.id == warning_id and not w.choices), None)
        if told is not None:
            raise InputError(f"warning {warning_id!r} has no answer to choose (nothing was recorded): it is "
                             f"settled by recording the result again, as it says: {told.message}", field="warning")
        raise InputError(f"no open warning {warning_id!r} (it may be answered already)", field="warning")
    if choice not in w.choices:
        raise InputError(f"{choice!r} is not a choice for this warning ({', '.join(w.choices)})", field="choice")
    decision = t._draft("decision.recorded", {"warning": warning_id, "choice": choice, "reason": reason})
    if choice == "keep":
        return t.append(st, [decision])
    if choice == "repair":
        _, drafts = repair_drafts(t, st, f"re-paired: {reason}")
        return t.append(st, [decision] + drafts)
    # reseed: void the top cut (pairings, results, reports, clock), then pair its first round again
    size = 2 * len(st.elimination_rounds[0].tables())
    voids = round_voids(t, st, st.elimination_rounds, f"re-seeded: {reason}")
    _, pairing = t.elimination_round_draft(state_without(t, st, voids), size, end_swiss_early=True)
    return t.append(st, [decision] + voids + [pairing])
