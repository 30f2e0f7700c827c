"""The JSON API (documented at /docs): the same actions as the pages, the same reads. Writes take
the token in `Authorization: Bearer TOKEN`; errors are JSON `{error, field?, conflicts?}` with 403
(the token does not allow it), 404, 409 (a different result is there: `conflicts`), 422 (input)."""
from __future__ import annotations

from enum import Enum
from typing import Any

from fastapi import APIRouter, Body, Query, Request
from pydantic import BaseModel, Field

from judge.tournament.audit import audit_rows
from judge.tournament.rounds import clock_view
from judge.web import views
from judge.web.actions import ACTIONS, run_action
from judge.web.match_actions import MATCH_ACTIONS, match_scope, run_match_action
from judge.web.routes.common import app_state, check_csrf, grant_of, moved_answer
from judge.web.routes.staff import context, queue_view, tournament_calls

router = APIRouter(prefix="/api")

ActionName = Enum("ActionName", {a: a for a in ACTIONS if a != "report"}, type=str)
MatchActionName = Enum("MatchActionName", {a: a for a in MATCH_ACTIONS if a != "line"}, type=str)


class Results(BaseModel):
    """One table (`table`, `result`) or many (`lines`: `TABLE W-L[-D]` per line)."""

    lines: str | None = Field(None, max_length=200_000, examples=["12 2-1\n13 0-2"])
    table: int | None = Field(None, ge=1, le=100_000)
    result: str | None = Field(None, max_length=20, examples=["2-1-0"])
    round: int | None = Field(None, ge=1, le=1000)
    overwrite: bool = False
    reason: str | None = Field(None, max_length=500)


class Report(BaseModel):
    """A player's own report (their wins first), with a player's slip link as the token."""

    player: str = Field(..., max_length=200)
    result: str = Field(..., max_length=20, examples=["2-1"])


class Line(BaseModel):
    """One notation line for a recorded match, and the last event the writer saw (`seen`): if the
    log moved since, nothing is stored and the answer lists what moved (`status: moved`)."""

    line: str = Field(..., max_length=4000, examples=["A: attack OP01-001>OP01-001"])
    seen: int = Field(..., ge=0, le=10**9)


class Done(BaseModel):
    message: str
    model_config = {"extra": "allow"}


def _write(request: Request, tid: str, action: str, fields: dict[str, Any]) -> dict[str, Any]:
    g = grant_of(request, tid, None)
    check_csrf(request, g, fields)
    return run_action(context(request), g, action, tid, fields)


@router.get("/tournaments")
async def tournaments(request: Request) -> list[dict[str, Any]]:
    """Every tournament in the log (public)."""
    desk = app_state(request).desk
    return [desk.tournament(i).state().summary() for i in desk.tournament_ids()]


@router.get("/t/{tid}")
async def summary(request: Request, tid: str) -> dict[str, Any]:
    return app_state(request).desk.tournament(tid).state().summary()


@router.get("/t/{tid}/standings")
async def standings(request: Request, tid: str, round: int | None = None) -> dict[str, Any]:
    """Swiss standings after `round` (default: the last complete round), with tiebreakers."""
    st = app_state(request).desk.tournament(tid).state()
    if round is not None and not 0 <= round <= 1000:
        round = None
    return views.standings_rows(st, round)


@router.get("/t/{tid}/pairings")
async def pairings(request: Request, tid: str) -> dict[str, Any] | None:
    st = app_state(request).desk.tournament(tid).state()
    return views.pairings_board(st, st.current) if st.current else None


@router.get("/t/{tid}/clock")
async def clock(request: Request, tid: str) -> dict[str, Any] | None:
    st = app_state(request).desk.tournament(tid).state()
    return clock_view(st.current) if st.current else None


@router.get("/t/{tid}/placings")
async def placings(request: Request, tid: str) -> list[dict[str, Any]] | None:
    """Final placings for every player once the top cut is over (null before)."""
    return views.placings_or_none(app_state(request).desk.tournament(tid).state())


@router.get("/t/{tid}/tables")
async def tables(request: Request, tid: str) -> list[dict[str, Any]]:
    """The current round's tables: status (pending/reported/disputed/confirmed), result, reports. Staff."""
    g = grant_of(request, tid)
    g.require("view", tid)
    st = app_state(request).desk.tournament(tid).state()
    return views.grid(st, st.current) if st.current else []


@router.get("/t/{tid}/queue")
async def queue(request: Request, tid: str) -> list[dict[str, Any]]:
    """The judges' queue as its page shows it: the judge calls (`type` "call", open ones first, as
    /calls gives them), then the disputed tables (`type` "dispute", as /tables gives them), then the
    tables whose two reports came from one device (`type` "one_device": the result stands); `round`
    and `table` are numbers in every item. Staff."""
    g = grant_of(request, tid)
    g.require("view", tid)
    desk = app_state(request).desk
    shown = queue_view(desk, desk.tournament(tid).state())
    return ([{"type": "call", **c} for c in shown["calls"]] + [{"type": "dispute", **v} for v in shown["queue"]]
            + [{"type": "one_device", **v} for v in shown["one_device"]])


@router.get("/t/{tid}/warnings")
async def warnings(request: Request, tid: str, all: bool = False) -> list[dict[str, Any]]:
    g = grant_of(request, tid)
    g.require("view", tid)
    t = app_state(request).desk.tournament(tid)
    return views.warning_list(t.state(), include_resolved=all, store=t.store)


@router.get("/t/{tid}/audit")
async def audit(request: Request, tid: str) -> list[dict[str, Any]]:
    """Every event: who changed what, when and why. Staff."""
    g = grant_of(request, tid)
    g.require("view", tid)
    return audit_rows(app_state(request).desk.tournament(tid).events())


@router.post("/t/{tid}/results", response_model=Done)
async def results(request: Request, tid: str, body: Results) -> dict[str, Any]:
    """Record results (scorekeeper, judge, organizer). The same result again stores nothing; a
    different one already there is refused (409, `conflicts`) unless `overwrite`."""
    return _write(request, tid, "record_results", body.model_dump(exclude_none=True))


@router.post("/t/{tid}/report", response_model=Done)
async def report(request: Request, tid: str, body: Report) -> dict[str, Any]:
    """A player's report with their slip's link (its table and round only)."""
    return _write(request, tid, "report", body.model_dump())


@router.post("/t/{tid}/do/{action}", response_model=Done)
async def act(request: Request, tid: str, action: ActionName,
        fields: dict[str, Any] = Body(default_factory=dict,
                                      examples=[{"player": "Ann", "reason": "left early"}])) -> dict[str, Any]:
    """Any other action by name, fields as on its form: register (`names`), import_csv (`csv`),
    drop/bye (`player`, `reason`), pair, unpair (`reason`, `again`), swap (`player_a`, `player_b`,
    `reason`), close, top_cut (`size`, `end_swiss_early`), decide (`warning`, `choice`, `reason`), undo_result
    (`table`), resolve (`table`, `result`, `reason`), clock_start (`minutes`), clock_extend
    (`table`, `minutes`, `reason`), clock_call, mint (`role`, `name`; a recorder's link for one
    recorded match: role `recorder` and `match`), revoke (`token_id`), create_matches (`round`: a
    recorded match per table)."""
    return _write(request, tid, action.value, fields)


# --- recorded matches -----------------------------------------------------------------------------


def _match_grant(request: Request, mid: str, optional: bool = False):
    scope = match_scope(app_state(request).desk, mid)
    return scope, grant_of(request, scope.tournament, None, optional=optional, expired_ok=True)


@router.get("/m/{mid}")
async def match_replay(request: Request, mid: str, start: int = Query(1, alias="from", ge=1, le=10**9)) -> dict[str, Any]:
    """A recorded match event by event: each event in words with who recorded it, the board after
    it, the findings (with the rule's English and original words), from event `from` on. Hidden
    information is hidden unless the token is a judge's or an organizer's."""
    scope, g = _match_grant(request, mid, optional=True)
    tl = app_state(request).desk.matches.timeline(mid, hidden=not (g and g.full_view))
    return tl.data_from(start)


@router.post("/m/{mid}/lines", response_model=Done,
             responses={409: {"description": "nothing stored: another recorder stored events since `seen` "
                                             "(the body: `status` \"moved\", the new events and who stored them)"}})
async def match_line(request: Request, mid: str, body: Line) -> Any:
    """Record one notation line (a recorder's link for this match, or staff): one transaction, or
    nothing (422 with the column; 409 with `status: moved`, the events and who stored them, when
    another recorder stored events since `seen`)."""
    scope, g = _match_grant(request, mid)
    check_csrf(request, g, {})
    out = run_match_action(context(request), g, "line", scope, body.model_dump())
    return moved_answer(out) or out


@router.post("/m/{mid}/do/{action}", response_model=Done)
async def match_act(request: Request, mid: str, action: MatchActionName,
                    fields: dict[str, Any] = Body(default_factory=dict,
                                                  examples=[{"text": "the attack stands", "rule": "OPTCG-BATTLE-2"}])) -> dict[str, Any]:
    """undo (`voids`, required: the event to void, 422 without it, 409 if no longer this link's own
    undoable event; `reason`),
    call (`reason`, `at`: default the last game event, `seen`: a repeat after it stores nothing; a
    player's link also `player`, and stores nothing while that player's call is open), and a judge's ruling
    (`text`, `rule`, `call`), answer (`call`: an open judge call, `text`: a note, default "answered at
    the table"; a ruling that answers it, the queue's "Answered"; 422 if the call is answered already),
    penalty (`player`, `infraction`: the penalty guide's id or name,
    `penalty`, `reason`, `minutes_late`), backup (`to`, `reason`, `rule`), extend (`minutes`,
    `reason`: the table's time on the round clock), time (`facts`: what the table shows, as
    `timelimit --facts`; `policy`; `clock`: a table nobody recorded), appeal (`appealed`: the judge
    action's event, `decision`: upheld, overturned or changed, `text`: why, `by`: who appealed,
    `override`: why it replaces a decision given already on that action, 422 without it; as
    `tablejudge judge appeal` records it), replace (`voids`, `reason`, `kind`, `actor` and a
    `payload.FIELD` per field: what event `voids` should have read, as the replace form sends it;
    recorded as `tablejudge log M correction --instead` records it), decide (`seen`: the head the
    preview was decided on, required; `policy`: as `timelimit --policy`; what `tablejudge timelimit M`
    records, the link's judge its actor; a log moved since `seen` is refused), file_appeal (a player's
    link, its own table only: `player`, `appealed`: a judge's action that counts, `reason`; recorded as
    `appeal.filed`, the player its actor, with a judge call about it unless that player's call is open;
    422 if that action's appeal is filed and waiting, or decided, already)."""
    scope, g = _match_grant(request, mid)
    check_csrf(request, g, {})
    return run_match_action(context(request), g, action.value, scope, fields)


@router.get("/t/{tid}/calls")
async def calls(request: Request, tid: str) -> list[dict[str, Any]]:
    """Judge calls from the tournament's recorded matches: open ones of open rounds, open ones of
    closed rounds (`round_closed`), then answered ones with the ruling that answered each. Staff."""
    g = grant_of(request, tid)
    g.require("view", tid)
    desk = app_state(request).desk
    return tournament_calls(desk, desk.tournament(tid).state())
