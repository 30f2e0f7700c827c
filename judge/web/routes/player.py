"""A table's page, reached by the QR code on its slip: the table, the opponent, the clock, and
the report. Both players use the same link; each says who they are. The opponent confirms by
reporting the same result; a different one sends the table to the judges' queue. The judges'
decisions at the table are listed with their appeals' status, and a player appeals one to the
head judge from here."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from engine.desk import APPEALABLE_KINDS, judge_of
from engine.match import InputError
from judge.desk.actions import appeal_ledger, appealable
from judge.desk.calls import open_call
from judge.tournament.reports import ResultConfirmed
from judge.tournament.tables import table_status
from judge.tournament.rounds import clock_view
from judge.web import views
from judge.web.actions import number, run_action
from judge.web.match_actions import match_scope, run_match_action, table_match
from judge.web.routes.common import (
    HANDLED, app_state, check_csrf, error_status, grant_of, page, page_error, read_form, refused,
)
from judge.web.auth import Forbidden
from judge.web.routes.staff import context

router = APIRouter(include_in_schema=False)


def _view(request: Request, tid: str, g, me: str | None, status: int = 200, call_seen: int | None = None,
          appeals: list[dict] | None = None, **extra) -> HTMLResponse:
    """`call_seen`: the call form's `seen` when the page answers a call (the `seen` that call sent:
    the answer is the same page, so its next tap finds the call it stored and stores nothing).
    `appeals`: the table's `table_appeals`, where the caller has them already."""
    web = app_state(request)
    st = web.desk.tournament(tid).state()
    rnd = st.round(g.round)
    view = table_status(rnd, g.table).to_dict()
    clock = clock_view(rnd)
    mine = next((x for x in clock["tables"] if x["table"] == g.table), None)
    fmt = st.match_format(rnd.stage)
    match_id = rnd.matches.get(g.table)
    # the call form's `seen`: 0 while the table has no match yet (the first call creates it)
    m = web.desk.matches.match(match_id) if match_id else None
    match_head = m.head_position() if m is not None else 0
    if call_seen is not None:
        match_head = min(call_seen, match_head)
    if me not in (view["player1"], view["player2"]):
        me = None
    # `me`'s own call that no judge answered yet: the page says so and offers no second call
    # (QA75 3: a reloaded page showed nothing of it, and a tap was the only way to find out)
    standing = open_call(m.store, match_id, me, web.desk.matches.desk_events.get(match_id, [])) \
        if m is not None and me and not st.is_closed(rnd) else None
    my_call = None if standing is None else {"at": views.local_time(standing.recorded_at),
                                             "reason": standing.payload.get("reason", "")}
    opponent = None if me is None else (view["player2"] if me == view["player1"] else view["player1"])

    def own(slip_table_order: str | None) -> str | None:  # a table-order slip in `me`'s view
        if slip_table_order is None or me is None or me == view["player1"]:
            return slip_table_order
        a, b, d = slip_table_order.split("-")
        return f"{b}-{a}-{d}"

    if appeals is None:
        appeals = table_appeals(web, m) if m is not None else []
    return page(request, "web/play.html", status, title=f"Table {g.table} — {rnd.name}", tid=tid, event_name=st.name,
                closed=st.is_closed(rnd),
                k=g.token, csrf=web.signer.csrf(g.token), round_name=rnd.name, table=view, me=me, opponent=opponent,
                my_report=own(view["reports"].get(me)) if me else None,
                their_report=own(view["reports"].get(opponent)) if opponent else None,
                result_mine=own(view["result"]), clock=clock, mine=mine, fmt=fmt.name,
                choices=views.result_choices(fmt.best_of, fmt.max_wins), position=st.position,
                topic=f"table:{g.round}:{g.table}", match_id=match_id, match_head=match_head, my_call=my_call,
                appeals=appeals, **extra)


def table_appeals(web, m) -> list[dict]:
    """The judges' decisions at a table that an appeal may name, oldest first, each in the words the
    public replay says it (hidden cards hidden: the timeline as a scorekeeper sees it, cached until
    the log moves) with its appeal's status (judge.desk.actions.appeal_ledger): who filed it and
    when, and the head judge's decision. Only the rows of those kinds are read (the ledger needs no
    other); a log with no judge action an appeal may name (a recorder's own correction is none)
    walks no timeline, and a cached timeline reads nothing more."""
    read = web.desk.matches.read(m.id)
    rows = [e for e in m.store.read_kinds(m.id, APPEALABLE_KINDS + ("appeal.filed", "judge.appeal"))
            if e.position <= read.head]  # as the timeline below stands
    if not any(appealable(e.kind, e.actor) for e in rows):
        return []
    tl = web.desk.matches.timeline(m.id, hidden=True, read=read)
    words = {e["p"]: e["text"] for e in tl.events}
    voided = {e["p"] for e in tl.events if e["void"]}
    out = []
    for a in appeal_ledger(m, rows, voided):
        e, d = a.event, a.decision
        out.append({"position": e.position, "text": words.get(e.position, e.kind), "at": views.local_time(e.recorded_at),
                    "status": a.status,
                    "filed": [{"player": f.payload["player"], "reason": f.payload["reason"], "position": f.position,
                               "at": views.local_time(f.recorded_at)} for f in a.filed],
                    "decision": None if d is None else {"text": d.payload.get("text", ""), "position": d.position,
                                                        "judge": judge_of(d.actor) or d.actor}})
    return out


def _next_step(e: Exception, closed: bool, action: str = "report") -> str:
    """What a player does after a refusal of `action` ("report", "call" or "appeal"; the refusal says what
    was wrong). As the desk's next_step: "again" only where doing it again can succeed."""
    if closed:
        return "Find your table in the current round below, or see the pairings and standings."
    if isinstance(e, ResultConfirmed):  # another tap would be refused the same: a judge changes it
        return "Call a judge with the button below if the result is wrong."
    again = {"call": "call a judge again", "appeal": "appeal again"}.get(action, "report again")
    if isinstance(e, Forbidden) and "CSRF" in str(e):  # the page's form is stale: the same tap is refused the same
        return f"Reload the page, then {again}; if this happens again, ask a judge."
    if isinstance(e, Forbidden):
        return "Scan the slip's QR code again; if this happens again, ask a judge."
    if action == "call":
        return "Check what you typed and call a judge again; if this happens again, ask a judge."
    if action == "appeal" and getattr(e, "field", None) == "player":  # the page's name is not one of the table's
        return "Tap “I am …” with your own name on this page, then appeal again; if this happens again, ask a judge."
    if action == "appeal":
        return "The judges' decisions below are as they stand now; if this is not what you expect, ask a judge."
    return "Check your result and tap again; if this happens again, ask a judge."


def _refusal(request: Request, tid: str, e: Exception, form: dict | None = None,
             action: str = "report") -> Response:
    """A refused request from a table's page, answered with the page itself: the table as it is
    now (a closed round's link still shows it) with the refusal, "nothing was stored", and what
    to do next; a link that shows no table here gets the refusal and the event's links alone.
    (htmx swaps the page's table part, `#table`: an answer without it would blank the screen.)"""
    me = (form or {}).get("player") or request.query_params.get("me")
    me = me if isinstance(me, str) else None
    error = page_error(e)
    try:
        g = grant_of(request, tid, form, expired_ok=True)
        g.require("play_view", tid, g.round, g.table)
    except HANDLED:
        g = None
    if g is not None:
        st = app_state(request).desk.tournament(tid).state()
        error["next"] = _next_step(e, st.is_closed(st.round(g.round)), action)
        response = _view(request, tid, g, me, error=error)
    else:
        error["next"] = _next_step(e, False, action)
        try:
            event_name = app_state(request).desk.tournament(tid).state().name
        except HANDLED:
            event_name = ""
        response = page(request, "web/play.html", title="Not done", tid=tid, event_name=event_name, table=None,
                        error=error, clock={})
    return refused(request, response, error_status(e))


@router.get("/t/{tid}/play", response_class=HTMLResponse)
async def play(request: Request, tid: str, me: str | None = None):
    try:
        g = grant_of(request, tid, expired_ok=True)  # a closed round's page still shows its result
        g.require("play_view", tid, g.round, g.table)
    except HANDLED as e:  # a round paired again, an altered link: said on the page, with the event's links
        return _refusal(request, tid, e)
    return _view(request, tid, g, me)


@router.post("/t/{tid}/play", response_class=HTMLResponse)
async def report(request: Request, tid: str):
    form = await read_form(request)
    me = form.get("player") if isinstance(form.get("player"), str) else None
    try:
        g = grant_of(request, tid, form)
        check_csrf(request, g, form)
        result = run_action(context(request), g, "report", tid, form)
    except HANDLED as e:
        return _refusal(request, tid, e, form)
    return _view(request, tid, g, me, notice=result["message"])


@router.post("/t/{tid}/play/appeal", response_class=HTMLResponse)
async def appeal(request: Request, tid: str):
    """A player appeals a judge's ruling at their own table to the head judge (`appeal.filed` in
    the table's recorded match, the player its actor; match_actions._file_appeal). The link's own
    table only: the match is the one its round gives that table."""
    form = await read_form(request)
    me = form.get("player") if isinstance(form.get("player"), str) else None
    try:
        g = grant_of(request, tid, form)
        check_csrf(request, g, form)
        g.require("appeal_ruling", tid, g.round, g.table)
        ctx = context(request)
        rnd = ctx.desk.tournament(tid).state().round(g.round)
        if rnd is None or rnd.matches.get(g.table) is None:
            raise InputError(f"no judge has ruled at table {g.table} yet: there is nothing to appeal", field="appealed")
        # where the log says the match belongs (not the grant's own table): require() checks it
        done = run_match_action(ctx, g, "file_appeal", match_scope(ctx.desk, rnd.matches[g.table]), form)
    except HANDLED as e:
        return _refusal(request, tid, e, form, "appeal")
    # in the player's words, as the judge-call notice: the decision by its time and words (their page
    # lists it so), no event numbers (the API's message keeps them for the staff's programs); the
    # notice says the head judge is called: the page's own line for the call is not said twice
    m = ctx.desk.matches.match(rnd.matches[g.table])
    appeals = table_appeals(app_state(request), m)
    appealed = next((a for a in appeals if a["position"] == done["appealed"]), None)
    what = "" if appealed is None else f" of the judge's decision at {appealed['at']} (“{appealed['text']}”)"  # voided meanwhile
    return _view(request, tid, g, me, call_said=True, appeals=appeals,
                 notice=f"Your appeal{what} is filed: the head judge is called to your table")


@router.post("/t/{tid}/play/call", response_class=HTMLResponse)
async def call_judge(request: Request, tid: str):
    """A player calls a judge to their own table: a `judge.call` in the table's recorded match
    (created for it if the round has none yet), at the moment the log has reached."""
    form = await read_form(request)
    me = form.get("player") if isinstance(form.get("player"), str) else None
    try:
        g = grant_of(request, tid, form)
        check_csrf(request, g, form)
        g.require("call_judge", tid, g.round, g.table)
        ctx = context(request)
        done = run_match_action(ctx, g, "call", table_match(ctx, g, tid), form)
    except HANDLED as e:
        return _refusal(request, tid, e, form, "call")
    # in a player's words: where the judge comes and what the call says (the call also records the
    # moment of the game's log it was made at: the judge sees it, the player need not)
    # the answer keeps the `seen` the call sent: rendering the head now (the call included) made the
    # second tap of this same page a new call about the first (QA70 #4)
    seen = number(form, "seen", required=False, low=0, high=10**9)  # checked by the call already
    if done.get("repeat"):  # a second tap, or the page reloaded while the table's call is open
        return _view(request, tid, g, me, call_seen=seen, call_said=True, notice=f"A judge is already called to {done['where']}, "
                     f"called at {done['called_at']} (nothing more sent): stay at your table")
    reason = form.get("reason").strip() if isinstance(form.get("reason"), str) else ""
    # the notice says the call stands: the page's own line for it (my_call) is not said twice
    return _view(request, tid, g, me, call_seen=seen, call_said=True, notice=f"A judge is called to table {g.table}"
                 + (f" (“{reason}”)" if reason else "") + ": stay at your table")
