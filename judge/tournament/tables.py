"""A table of a round as the desk sees it (the players' reports against the recorded result), and
the rule for an entry that overrides what a player reported: one module that the tournament
(`Tournament.record_slip`), a results batch (entry.py) and the players' reports (reports.py) share,
below all three (it imports none of them).

A table's status: `pending` (nothing yet), `reported` (one player's report, waiting for the
other's), `disputed` (the two latest reports differ, or a report differs from the recorded
result: a judge decides), `confirmed` (a result is recorded and no later report disputes it).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.events import TABLE_ACTOR, RecordedEvent
from engine.match import InputError
from engine.schema import shown

from judge.recorders import who_stored
from judge.tournament.results import OverwriteRefused
from judge.tournament.standings import slip_text
from judge.tournament.state import RoundState, TournamentState

PENDING, REPORTED, DISPUTED, CONFIRMED = "pending", "reported", "disputed", "confirmed"


def table_list(numbers: Sequence[int]) -> str:
    """Table numbers in words, runs joined: `1-3, 5, 7-150` (QA75 7: `show` listed 150 numbers)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def who_entered(ev: RecordedEvent) -> str:
    """Who a recorded result is by, in words: "both players", "judge Kim", "scorekeeper Sam",
    "organizer" (the actor, with its role's colon as a space), "recorded matches"."""
    source = ev.payload.get("source", "slip")
    if source == "players":
        return "both players"
    if source == "match":
        return "recorded matches"
    if ev.actor == TABLE_ACTOR:  # the organizer at a terminal (the CLI acts as `-`): never a bare "-"
        return "organizer"
    return ev.actor.replace(":", " ", 1)


@dataclass
class TableView:
    """One table of a round as the desk sees it."""

    round: int
    table: int
    player1: str
    player2: str
    status: str
    result: str | None                 # the recorded result, table order
    result_by: str | None              # who stored it, as pages say it (judge.recorders.who_stored)
    reports: dict[str, str]            # player -> their report, table order (wins1-wins2-draws)
    result_position: int | None = None
    result_who: str | None = None      # who entered the result, in words ("scorekeeper Sam", "both players")
    # both players' latest reports came from one device (the same browser: the web desk's device id);
    # the result stands (players hand one phone around), the desk flags it for a judge to look
    one_device: bool = False

    def to_dict(self) -> dict[str, Any]:
        # the flag in words, for the pages and the API alike (docs/serve.md says what it means)
        flag = f"both reports of table {self.table} came from one device" if self.one_device else None
        return dict(self.__dict__, one_device_flag=flag, reports_said=self.reports_said())

    def reports_said(self) -> list[str]:
        """Each report as its reporter said it (`Sara Bruno: I lost 0-1`): the one wording of a
        report for the round page, the judges' queue (web and CLI) and the grid. QA73 5: the round
        page listed them in table order unlabelled, and a player's loss read as a claimed win."""
        return [f"{who}: {in_own_words(self, who, slip)}" for who, slip in self.reports.items()]


def in_own_words(view: TableView, player: str, slip: str) -> str:
    """A report (table order, as `TableView.reports` keeps it) from its reporter's side, as the
    player tapped it: `I won 1-0`, `I lost 0-2`, `a draw 1-1-1`. QA70 10: the CLI's queue said
    `Alice Gentile: 0-1-0` in table order, and a judge read it as Alice admitting a loss."""
    parts = slip.split("-")
    if len(parts) != 3 or not all(x.isdigit() for x in parts):  # a double loss: the same either side
        return slip
    w, l, d = (int(x) for x in parts)
    if player == view.player2:
        w, l = l, w
    games = f"{w}-{l}" + (f"-{d}" if d else "")
    return f"I won {games}" if w > l else f"I lost {games}" if w < l else f"a draw {games}"


def table_status(rnd: RoundState, table: int) -> TableView:
    p = next((x for x in rnd.tables() if x.table == table), None)
    if p is None:
        raise InputError(f"{rnd.name} has no table {table}", field="table")
    reports = rnd.reports.get(table, {})
    said = {player: slip_text(ev.payload) for player, ev in reports.items()}
    res_ev = rnd.result_events.get(table)
    result = None if res_ev is None else slip_text(res_ev.payload)
    res_at = 0 if res_ev is None else res_ev.position
    later = {v for pl, v in said.items() if reports[pl].position > res_at}
    if result is not None:
        status = DISPUTED if any(v != result for v in later) else CONFIRMED
    elif len(set(said.values())) > 1:
        status = DISPUTED
    elif said:
        status = REPORTED
    else:
        status = PENDING
    devices = {ev.payload.get("device") for ev in reports.values()}
    one_device = len(reports) == 2 and len(devices) == 1 and None not in devices
    return TableView(rnd.number, table, p.player1, p.player2, status, result,
                     None if res_ev is None else who_stored(res_ev), said,
                     None if res_ev is None else res_ev.position, None if res_ev is None else who_entered(res_ev),
                     one_device)



def round_tables(rnd: RoundState) -> list[TableView]:
    return [table_status(rnd, p.table) for p in rnd.tables()]


def every_table(st: TournamentState) -> list[TableView]:
    """Every table of every round, in round and table order."""
    return [v for rnd in st.rounds for v in round_tables(rnd)]


def judges_queue(st: TournamentState, views: list[TableView] | None = None) -> list[TableView]:
    """Every disputed table, in round and table order (a dispute is never forgotten by moving on).
    `views`: every_table(st), if the caller has it already (the queue page asks twice)."""
    return [v for v in (every_table(st) if views is None else views) if v.status == DISPUTED]


def one_device_tables(st: TournamentState, views: list[TableView] | None = None) -> list[TableView]:
    """Every table whose two reports came from one device, in round and table order: flagged for a
    judge to look at, whatever its status (a confirmed result stands)."""
    return [v for v in (every_table(st) if views is None else views) if v.one_device]


class ReportsDiffer(OverwriteRefused):
    """Entries that differ from a player's own report, or settle a disputed table: nothing was
    stored. Recording them anyway takes `overwrite` and a reason (the reason is kept in the event,
    and the round lists it under its overrides). `conflicts`: one dict per table, as
    OverwriteRefused's, with `reports` (player -> their report), `disputed`, `needs_reason` and
    `said` (the table in words); the web desk answers 409 with them and the grid asks for the
    reason, the CLI lists them as a refused batch."""

    def __init__(self, conflicts: list[dict[str, Any]]):
        more = f" and {len(conflicts) - 5} more" if len(conflicts) > 5 else ""
        self.what = "; ".join(c["said"] for c in conflicts[:5]) + more + ": nothing was stored"
        InputError.__init__(self, self.what + "; to record it anyway, record it again with overwrite and a reason "
                            "(--overwrite --reason ...)", field="table")
        self.conflicts = conflicts


def against_reports(rnd: RoundState, p: Any, new: str) -> dict[str, Any] | None:
    """The conflict of entering `new` (table order, or double-loss) at pairing `p`'s table, when
    it differs from a player's report or the table is disputed: it overrides what a player said,
    so it needs a reason. None when no report stands against it, or the table has `new` already."""
    view: TableView = table_status(rnd, p.table)
    disputed = view.status == DISPUTED
    if view.result == new or (not disputed and all(s == new for s in view.reports.values())):
        return None
    said = ", ".join(f"{who} reported {s}" for who, s in view.reports.items())
    what = "is disputed" if disputed else "has a different report"
    decided = _decision_words(rnd.result_events.get(p.table))
    return {"round": rnd.number, "table": p.table, "player1": p.player1, "player2": p.player2,
            "old": view.result, "new": new, "by": view.result_by, "reports": view.reports,
            "disputed": disputed, "needs_reason": True, "decided": decided,
            "said": f"table {p.table} {what} ({said}"
                    + (f"; {decided}, which the entry would replace" if decided else "") + f"; the entry says {new})"}


def _decision_words(ev: RecordedEvent | None) -> str | None:
    """A recorded result that settled the players' reports (a judge's decision, or an entry over
    them with its reason), in words: `decided by judge Kim (1-0-0, 'seen on camera', event 412)`.
    QA75 5: the refusal of an entry that would replace it spoke of the players' reports only."""
    if ev is None or not ev.payload.get("reason"):
        return None
    how = "decided" if ev.payload.get("source") == "judge" else "recorded over the reports"
    return f"{how} by {who_entered(ev)} ({slip_text(ev.payload)}, {shown(ev.payload['reason'])}, event {ev.position})"


def check_reports(against: Sequence[dict[str, Any]], *, overwrite: bool, reason: str | None,
                  override_reports: bool = True) -> None:
    """The rule for entries overriding a player's report (`against_reports`' conflicts), one place
    for a batch (`record_results`) and one slip (`Tournament.record_slip`): refused as
    ReportsDiffer unless `overwrite` (and `override_reports`), and with it only with a reason."""
    if against and (not overwrite or not override_reports):
        raise ReportsDiffer(list(against))
    if against and not (reason or "").strip():
        raise InputError("; ".join(c["said"] for c in against[:5]) + ": recording this needs a reason "
                         "(it differs from a player's report, or settles a dispute)", field="reason")
