"""The round report: every match of a round on one page, with links to each match's report."""
from __future__ import annotations

import os

from datetime import datetime, timezone
from typing import Any

from engine.match import InputError, Match
from engine.integrity import verify_match
from engine.names import names_now, shown_players
from engine.store import EventStore

from judge import desk
from judge.report.templating import render
from judge.report.files import DEFAULT_DIR, natural_key, report_name, report_path, write_file
from judge.report.match import write_match_report
from judge.report.views import result_text
from judge.replay.hiding import STAFF_WARNING
from judge.tournament.aggregate import Tournament
from judge.tournament.state import TournamentState
from judge.tournament.seal import seal_events, token as seal_token
from judge.tournament.tables import TableView, table_status


class TournamentStates:
    """Each tournament's state in this log, folded at most once for one page (review: `report
    --round` folded a tournament up to three times: to match `--event` with its name, for its
    tables, and for the hint when nothing was chosen)."""

    def __init__(self, store: EventStore):
        self.store = store
        self.ids = set(Tournament.list_ids(store))
        self._states: dict[str, TournamentState] = {}

    def state(self, tid: str) -> TournamentState:
        if tid not in self._states:
            self._states[tid] = Tournament(self.store, tid).state()
        return self._states[tid]


def tournament_tables(states: TournamentStates, events: set[str]) -> dict[str, TableView]:
    """Each recorded match of these tournaments -> its table as the tournament has it (the
    result, who entered it, the players' reports: judge.tournament.tables, as `tournament
    pairings`, the standings and the web desk read it). QA80 4: the round page read the match
    logs only, and said "not decided" of every table whose result the players, the scorekeeper
    or a judge entered in the tournament (most tables: few matches are recorded event by event)."""
    out: dict[str, TableView] = {}
    for tid in sorted(events & states.ids):
        for rnd in states.state(tid).rounds:
            for table, mid in rnd.matches.items():
                out[mid] = table_status(rnd, table)
    return out


def event_labels(states: TournamentStates, event: str) -> set[str]:
    """The match event labels `--event` names: the label itself, or a tournament's id when
    `event` is its name (a tournament's matches carry its id as their event label). QA80 8:
    `--event "Store OPTCG"` was refused, and the hint did not show the label it wanted."""
    return {event} | {tid for tid in states.ids if states.state(tid).name == event}


def event_words(states: TournamentStates, label: str) -> str:
    """An event label for a hint: a tournament's id with its name (`t-91d5506a (Store OPTCG)`)."""
    if label in states.ids:
        return f"{label} ({states.state(label).name})"
    return label


def tournament_row(view: TableView | None) -> dict[str, Any] | None:
    """A table's tournament result for the round page, and where it came from; None for a match
    no tournament table holds."""
    if view is None:
        return None
    return {"result": None if view.result is None else f"{view.player1} {view.result} {view.player2}",
            "who": view.result_who, "position": view.result_position, "status": view.status}


# --- the round report ------------------------------------------------------------------------


def round_context(store: EventStore, round_label: str, event: str | None = None, *,
                  staff: bool = False) -> dict[str, Any]:
    """The round page's rows. `staff`: each match as the staff sees it (its finding counts
    included); otherwise as a public viewer does, like the match reports beside it."""
    rows = []
    verified = {}  # each match's verdict, for its own report (write_round_report): verified once
    chosen, in_round = [], set()  # in_round: the round's event labels, for the hint when none is chosen
    states = TournamentStates(store)  # one fold of each tournament for the whole page
    wanted = None if event is None else event_labels(states, event)
    for mid in store.match_ids():
        c = store.created(mid).payload
        if str(c.get("round")) != str(round_label):
            continue
        in_round.add(c.get("event") or "")
        if wanted is None or c.get("event") in wanted:
            chosen.append((mid, c))
    tables = tournament_tables(states, {c["event"] for _, c in chosen if c.get("event")})
    for mid, c in chosen:
        m = Match(store, mid)
        r = desk.review(m, hidden=not staff)
        active = r.active_findings()
        slip = r.slip()
        # as `verify` judges it, on the review's log and stale decisions (not read or replayed again)
        verify = verified[mid] = verify_match(store, mid, events=r.log, stale=r.stale)
        seats = names_now(r.state)
        rows.append({
            "id": mid, "table": c.get("table"), "event": c.get("event"), "players": shown_players(seats),
            "ruleset": c["ruleset"],
            "result": result_text(r.outcome.result, r.outcome.winner, seats) if r.outcome
            else r.not_decided() or "not decided",
            "how": r.outcome.how if r.outcome else "",
            "slip": (result_text(slip["result"], slip.get("winner"), seats) + ("" if slip["complete"] else " (unconfirmed)"))
            if slip else "",
            "errors": sum(1 for f in active if f.severity == "error"),
            "warnings": sum(1 for f in active if f.severity == "warning"),
            "tournament": tournament_row(tables.get(mid)),
            "findings": len(active), "events": len(r.events), "verified": verify.ok, "verdict": verify.verdict(),
            "href": report_name(mid, staff),  # the name write_match_report gives it: a staff page links staff pages
        })
    if not rows:
        labels = sorted(event_words(states, e) for e in in_round if e)
        raise InputError(f"no match has round {round_label!r}"
                         + (f" in event {event!r}" if event else "")
                         + (f" (its events: {', '.join(labels)}; --event takes a label or a tournament's name)"
                            if event and labels else " (see `tablejudge matches`)"),
                         field="event" if event and in_round else "round")
    rows.sort(key=lambda r: (natural_key(r["table"]), r["id"]))
    events = sorted({r["event"] for r in rows if r["event"]})
    ids = {r["id"] for r in rows}
    seals = [{"tournament": e.match, "position": e.position, "token": seal_token(e.match, e.payload)}
             for e in seal_events(store) if str(e.payload.get("round")) == str(round_label)
             and any(h.get("stream") in ids for h in e.payload.get("heads") or ())]
    return {"staff": staff, "staff_warning": STAFF_WARNING,
            "title": f"Round {round_label}" + (f" — {', '.join(events)}" if events else ""),
            "round": round_label, "event": event or ", ".join(events),
            "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
            "matches": rows, "seals": seals, "verified": verified,
            "totals": {"matches": len(rows), "findings": sum(r["findings"] for r in rows),
                       "errors": sum(r["errors"] for r in rows),
                       # neither the log nor the tournament holds a result
                       "undecided": sum(1 for r in rows if r["result"].startswith("not decided")
                                        and not (r["tournament"] and r["tournament"]["result"]))}}


def write_round_report(store: EventStore, round_label: str, *, event: str | None = None,
                       out_dir: str = DEFAULT_DIR, with_matches: bool = True,
                       staff: bool = False) -> tuple[list[str], list[str]]:
    """Write the round page (and, by default, each match's report next to it, so its links work):
    (the files, the ids of the round's matches whose log failed verification — their rows say
    FAILED, and `tablejudge report --round` exits 1 for them, as for one match)."""
    ctx = round_context(store, round_label, event, staff=staff)
    if not with_matches:  # QA81 L8: the page linked match pages it did not write; link only those there
        for row in ctx["matches"]:
            if not os.path.isfile(os.path.join(out_dir, row["href"])):
                row["href"] = None
    paths = [write_file(report_path(out_dir, f"round-{round_label}", staff),
                        render("round.html", **ctx))]
    if with_matches:
        for row in ctx["matches"]:
            paths.append(write_match_report(Match(store, row["id"]), out_dir,
                                            verify=ctx["verified"][row["id"]], staff=staff))
    return paths, [row["id"] for row in ctx["matches"] if not row["verified"]]
