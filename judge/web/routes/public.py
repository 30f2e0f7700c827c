"""Pages for everyone in the hall, no token: the pairings and standings boards (large print, live,
printable A4), the projector clock, "my table" by name, final placings, and the live stream.
They show what the wall sheets show, nothing more: no links that write. And a ruleset's rules and
penalty guide (`/rules/RULESET.json`, judge.web.rules): the books' words, which call pages fetch once."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse

from engine.match import InputError
from engine.rulesets import UnknownRuleset
from judge.tournament.rounds import clock_view
from judge.web import views
from judge.web.rules import resource
from judge.web.live import sse_stream
from judge.web.routes.common import app_state, page

router = APIRouter(include_in_schema=False)


def _board(request: Request, tid: str, template: str, **data) -> HTMLResponse:
    st = app_state(request).desk.tournament(tid).state()
    return page(request, template, tid=tid, summary=st.summary(), event_name=st.name, position=st.position,
                printable=request.query_params.get("print") == "1", part=request.query_params.get("part"), **data)


@router.get("/t/{tid}/pairings", response_class=HTMLResponse)
async def pairings(request: Request, tid: str):
    st = app_state(request).desk.tournament(tid).state()
    board = views.pairings_board(st, st.current) if st.current else None
    return _board(request, tid, "web/pairings.html", title=f"{st.name} — pairings", board=board)


@router.get("/t/{tid}/standings", response_class=HTMLResponse)
async def standings(request: Request, tid: str):
    st = app_state(request).desk.tournament(tid).state()
    return _board(request, tid, "web/standings.html", title=f"{st.name} — standings",
                  standings=views.standings_rows(st), placings=views.placings_or_none(st))


@router.get("/t/{tid}/clock", response_class=HTMLResponse)
async def clock(request: Request, tid: str):
    st = app_state(request).desk.tournament(tid).state()
    view = clock_view(st.current) if st.current else {"running": False, "tables": [], "name": ""}
    return _board(request, tid, "web/clock.html", title=f"{st.name} — clock", clock=view)


@router.get("/t/{tid}/me", response_class=HTMLResponse)
async def my_table(request: Request, tid: str, name: str = ""):
    """A player's table this round, found by name (case, spaces and accents ignored): a dropped
    player is told so, and players registered under a similar name are listed apart (views.my_table)."""
    st = app_state(request).desk.tournament(tid).state()
    if len(name) > 200:
        raise InputError("a name has at most 200 characters", field="name")
    mine = views.my_table(st, st.current, name) if name.strip() and st.current else {"found": [], "others": []}
    return _board(request, tid, "web/me.html", title=f"{st.name} — my table", query=name, **mine,
                  round_name=st.current.name if st.current else "")


@router.get("/t/{tid}/live")
async def live(request: Request, tid: str):
    """Server-sent events: `changed` with the topics an update touched (see judge.web.live)."""
    web = app_state(request)
    position = web.desk.tournament(tid).state().position
    return StreamingResponse(sse_stream(web.desk.broker, tid, position, request.is_disconnected),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# a versioned link (`?v=` the content's hash, as the call page links it) never changes: a phone keeps it;
# any other is asked again each time, and answered 304 while its ETag still matches
FOREVER, ASK_AGAIN = "public, max-age=31536000, immutable", "public, no-cache"


@router.api_route("/rules/{ruleset}.json", methods=["GET", "HEAD"])
async def rules(request: Request, ruleset: str, v: str = ""):
    """The ruleset's rules and its guide's infractions, with their words (judge.web.rules). HEAD
    answers as GET does, the server sending no body (QA83 5: it was 405). No device cookie with it
    (judge/web/device.py, `shared`: it says `public`): a cache may keep it for everyone."""
    try:
        r = resource(ruleset)
    except UnknownRuleset as e:
        return JSONResponse({"error": str(e), "field": "ruleset"}, status_code=404)
    headers = {"ETag": r.etag, "Cache-Control": FOREVER if v == r.version else ASK_AGAIN}
    if {r.etag, "*"} & _tags(request.headers.get("if-none-match", "")):
        return Response(status_code=304, headers=headers)
    return Response(r.body, media_type="application/json", headers=headers)


def _tags(header: str) -> set[str]:
    """The entity tags of an If-None-Match header (weak ones compared by their value, RFC 9110 13.1.2)."""
    return {t.strip().removeprefix("W/") for t in header.split(",")}
