"""A recorded match for one tournament table, made by hand (`match new --event T --round R --table N`,
`live new` alike), and the matches that name a tournament's table without being linked to it.

QA81 M5: `match new --event <tournament id> --round 1 --table 2` made a match that only carried the
labels: the round report showed "—" for its tournament result, and `tournament matches` then made a
second match for the same table without a word. A tournament's id as the event now means that
table's match: the round and table must be in its pairings, with those players, and the table must
have no match yet; the match is linked as `tournament matches` links its own (a `round.matches`
event by the tournament's actor). QA83 6: so does a tournament's name (the one tournament so called,
as `tournament` commands read it; the match is labelled by the id), and a match labelled with the
name before is one that names the table. So does the one tournament whose id it begins (QA: a
shortened id was a free label without a word), as `tournament` commands read it. Any other event
label stays a free label, and `match new` says it was taken as one.

    m = new_match(store, "optcg", ["Ann", "Bob"], event=t_id, round="1", table="2")   # the CLI's one way
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.events import RecordedEvent
from engine.match import InputError, Match
from engine.schema import shown
from engine.store import MATCH_CREATED, ConflictError, EventStore, MatchNotFound

from judge.numbers import whole_number
from judge.tournament.aggregate import Tournament
from judge.tournament.names import name_key
from judge.tournament.pairing import Pairing
from judge.tournament.state import RoundState, TournamentState
from judge.tournament.tables import table_list


def new_match(store: EventStore, ruleset: str, players: Sequence[str], *, event: str | None = None,
              round: str | None = None, table: str | None = None, options: dict[str, Any] | None = None,
              match_id: str | None = None, recorded_by: str | None = None,
              warnings: list[str] | None = None, notes: list[str] | None = None) -> Match:
    """`Match.create`, and with a tournament as `event` (its id or name, or the one id it begins, as
    `tournament` commands read it: Tournament.find) that table's match, linked (InputError
    before anything is stored when the pairings have no such table, or it has a match; MatchNotFound
    when it begins several tournaments' ids). An older match naming the table without being linked
    to it: a sentence in `warnings` (the new match is the table's; the older one's record does not
    count for it). An event naming no tournament is a free label, said in `notes` (QA: a mistyped
    or shortened tournament id was stored as a free label without a word); one read as the start of a
    tournament's id is said there too."""
    def create(label: str | None) -> Match:
        return Match.create(store, ruleset, list(players), event=label, round=round, table=table,
                            options=options, match_id=match_id, recorded_by=recorded_by)
    tid = Tournament.find(store, event) if event else None
    if tid is not None and notes is not None and tid != event and Tournament.exact(store, event) is None:
        # the start of an id: said, as a free label is, since the match is linked and the player's
        # penalties count with that tournament's (review: `--event spring` became spring-2025's silently)
        name = store.created(tid).payload.get("name", "")
        notes.append(f"{shown(event)} read as tournament {tid} ({shown(name)}), the one id it begins: the match is "
                     "that tournament's (give its whole id or its name to be sure)")
    if event and tid is None and notes is not None:
        short = [t for t in Tournament.list_ids(store) if t.startswith(event)] if len(event) < 3 else []
        hint = (f" (it begins {', '.join(short[:3])}{' ...' if len(short) > 3 else ''}, but a prefix is read as "
                "an id from 3 characters on)" if short else "")
        notes.append(f"no tournament is called or has the id {shown(event)}{hint}: it is the match's event as a "
                     "free label, linked to no tournament (`tablejudge tournament list` lists the tournaments)")
    if tid is None or (round is None and table is None):
        # a free label, or the tournament's match of no round: labelled by the id as below, whatever
        # was typed (its penalties count with the tournament's: judge.desk.penalties, `same_event`)
        return create(tid or event)
    t = Tournament(store, tid, recorded_by)
    plan = table_plan(t, round_no=round, table=table, players=players)
    m = create(tid)  # labelled by the id, as `tournament matches` labels its own, whatever was typed
    if plan is not None:
        link_table_match(t, plan, m.id, m.ruleset.name)
        if warnings is not None:
            warnings.extend(_older_unlinked(t, plan, m.id))
    return m


def _older_unlinked(t: Tournament, plan: TablePlan, mid: str) -> list[str]:
    """The warning for matches that named the table before `mid` was made and linked to it (review:
    `match new` said nothing, and the judge recording in the older one saw it count for nothing)."""
    st = t.state()
    rnd = st.round(plan.round)
    older = [e.match for e in unlinked_matches(t.store, st, rnd).get(plan.table, []) if e.match != mid] \
        if rnd is not None else []
    if not older:
        return []
    ids, one = ", ".join(older), len(older) == 1
    return [f"match {ids} {'names' if one else 'name'} table {plan.table} of {rnd.label} of {t.id} too but "
            f"{'is' if one else 'are'} not linked to it: {mid} is the table's match now and only its record "
            f"counts for the table; record the table in {mid}, and if {ids} already {'holds' if one else 'hold'} "
            f"some of its play, record that in {mid} too (`tablejudge events {older[0]}` shows it)"]


def tournament_named(store: EventStore, event: str | None) -> str | None:
    """The tournament a match's event label names: its exact id, or the name of exactly one
    tournament (QA83 6: an organizer types the event's name; a name two tournaments share is
    refused, listing their ids). None: a free label (a prefix of an id too: a stored label that
    happens to start like an id must not tie a match to a tournament; `match new --event` reads a
    prefix when the match is made, and labels it by the id: new_match)."""
    return Tournament.exact(store, event) if event else None


def names_it(store: EventStore, st: TournamentState) -> Callable[[Any], bool]:
    """Does a match's event label name tournament `st`? (`_names_tournament`.)"""
    return _names_tournament(store, st.id, st.name)


def same_event(store: EventStore, label: str) -> Callable[[Any], bool]:
    """Does a match's event label name the same event as `label` (another match's)? Where `label`
    names a tournament (`tournament_named`), any label that names it (`names_it`: its id, or its
    name, as matches made before they were labelled by the id carry it); a free label, itself
    exactly. One reading for the tournament's tables and the penalties that escalate across it."""
    try:
        tid = tournament_named(store, label)
    except MatchNotFound:  # a name several tournaments share: no one tournament's, a free label
        tid = None
    if tid is None:
        return lambda event: event == label
    return _names_tournament(store, tid, store.created(tid).payload["name"])


def _names_tournament(store: EventStore, tid: str, name: str) -> Callable[[Any], bool]:
    """Its id does, and its name (case, spaces and accents aside) when no other tournament has it:
    as `tournament_named` reads `--event`."""
    key = name_key(name) if Tournament.named(store, name) == [tid] else None
    return lambda event: isinstance(event, str) and (event == tid or name_key(event) == key)


@dataclass(frozen=True)
class TablePlan:
    round: int
    table: int


def table_plan(t: Tournament, *, round_no: str | int | None, table: str | int | None,
               players: Sequence[str]) -> TablePlan | None:
    """What a match for table `table` of round `round_no` would be linked as; InputError (nothing
    stored) when the round or table is not in the pairings (saying which are), the players are not
    that table's, or the table has a match already (naming it). No table: None, once the round is
    known to be paired (a match of the round, not of a table: the round's seal covers it, as
    judge/tournament/seal.py says; `tournament result --match` takes its result)."""
    st = t.state()
    rnd = _round(st, round_no)
    if table is None:
        return None
    number = _number(table, "table", f"--table N ({rnd.label}'s tables: {_tables(rnd)})")
    p = next((x for x in rnd.tables() if x.table == number), None)
    if p is None:
        raise InputError(f"{rnd.label} of {t.id} has no table {number} (its tables: {_tables(rnd)})",
                         field="table")
    if number in rnd.matches:
        raise InputError(f"table {number} of {rnd.label} already has a recorded match: {rnd.matches[number]} "
                         f"(record into it: `tablejudge log {rnd.matches[number]} ...`)", field="table")
    if not plays_table(players, p):
        raise InputError(f"table {number} of {rnd.label} is {p.player1} vs {p.player2}, not "
                         f"{' vs '.join(players)}", field="players")
    return TablePlan(rnd.number, number)


def plays_table(players: Sequence[str], p: Pairing) -> bool:
    """Are `players` the table's two? The one check for `match new --event` (the names typed) and
    `tournament matches` (a match's stored names, which an import may carry unstripped): outer
    spaces, Unicode ones too, aside on both paths as Match.create strips them (review: one path
    stripped, the other compared as stored, so a name gave two answers)."""
    return sorted(x.strip() for x in players) == sorted([p.player1, p.player2])


def link_table_match(t: Tournament, plan: TablePlan, mid: str, ruleset: str) -> None:
    """Link the match `mid`, just made, to its table as a `round.matches` event. Another writer
    linking a match to the same table first: the new match stays as made, unlinked, and the
    refusal names both."""
    st = t.state()
    rnd = st.round(plan.round)
    if rnd is not None and plan.table not in rnd.matches:
        try:
            t.append(st, [t._draft("round.matches", {"round": plan.round, "ruleset": ruleset,
                                                     "matches": [{"table": plan.table, "match": mid}],
                                                     "source": "match new"})])
            return
        except ConflictError:
            st = t.state()
            rnd = st.round(plan.round)
    other = rnd.matches.get(plan.table) if rnd is not None else None
    raise ConflictError(t.id, st.position + 1,
                        f"match {mid} was created but not linked to table {plan.table}: "
                        + (f"the table got match {other} meanwhile" if other else "the round changed meanwhile"))


def unlinked_matches(store: EventStore, st: TournamentState, rnd: RoundState) -> dict[int, list[RecordedEvent]]:
    """Table -> the `match.created` of each match whose labels name this tournament (its id, or its
    name: QA83 6), round and table but that is not linked to it (made with `match new --event`
    before it linked them, or imported from another log)."""
    linked = set(rnd.matches.values())
    ours = names_it(store, st)
    out: dict[int, list[RecordedEvent]] = {}
    for created in store.created_events(MATCH_CREATED):
        p = created.payload
        if not ours(p.get("event")) or str(p.get("round")) != str(rnd.number) or created.match in linked:
            continue
        try:
            out.setdefault(int(str(p.get("table"))), []).append(created)
        except ValueError:  # a table label that is no number names no table of the pairings
            continue
    return out


def _round(st: TournamentState, round_no: str | int | None) -> RoundState:
    rounds = ", ".join(str(r.number) for r in st.rounds) or "none paired yet"
    number = _number(round_no, "round", f"--round R (its rounds: {rounds})")
    rnd = st.round(number)
    if rnd is None:
        raise InputError(f"{st.id} has no round {number} (its rounds: {rounds})", field="round")
    return rnd


def _number(value: str | int | None, field: str, wanted: str) -> int:
    """A round or table number; a tournament's match needs both (the pairings say which)."""
    if value is None:
        raise InputError(f"a match for a tournament needs {wanted}", field=field)
    number = whole_number(str(value).strip())  # ASCII digits, as every other number read (not int(): "١", "1_0")
    if number is None:
        raise InputError(f"--{field} must be a number with a tournament's id as --event, got {value!r}; "
                         f"{wanted}", field=field)
    return number


def _tables(rnd: RoundState) -> str:
    return table_list([p.table for p in rnd.tables()]) or "none"
