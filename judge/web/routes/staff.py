"""Staff pages: the organizer's home, a round's page, the scorekeeper's grid, the judges' queue,
the printable slips, the audit trail, and the forms that write (POST /t/{tid}/do/{action})."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from engine.match import InputError
from judge.numbers import whole_number
from judge.tournament import Tournament
from judge.tournament.aggregate import registration_closed, swiss_rounds_left
from judge.tournament.audit import audit_rows
from judge.tournament.tables import every_table, judges_queue, one_device_tables
from judge.tournament.rounds import clock_view
from judge.desk.calls import open_calls_warning, round_open_calls
from judge.web import qr, views
from judge.web.actions import Context, run_action
from judge.web.auth import player_claims
from judge.web.device import device_of
from judge.web.routes.common import (
    HANDLED, app_state, check_csrf, error_status, flash_link, flash_of, grant_of, link, page, page_error, read_form, refused,
    refusal_answer,
)

router = APIRouter(include_in_schema=False)


def base_url(request: Request) -> str:
    web = app_state(request)
    return web.public_url or str(request.base_url).rstrip("/")


def context(request: Request) -> Context:
    web = app_state(request)
    return Context(web.desk, web.signer, lambda: base_url(request), device_of(request))


def staff_page(request: Request, tid: str, template: str, **data) -> HTMLResponse:
    web = app_state(request)
    g = grant_of(request, tid)
    g.require("view", tid)
    t = web.desk.tournament(tid)
    st = t.state()
    return page(request, template, grant=g, k=g.token, csrf=web.signer.csrf(g.token), tid=tid,
                summary=st.summary(), role=g.role, who_name=g.name, position=st.position,
                nav=_nav(tid, g), msg=flash_of(request), **data)


def _nav(tid: str, g) -> list[dict[str, str]]:
    items = [("Desk", f"/t/{tid}"), ("Results grid", f"/t/{tid}/grid"), ("Judges' queue", f"/t/{tid}/queue"),
             ("Slips", f"/t/{tid}/slips"), ("Audit trail", f"/t/{tid}/audit")]
    out = [{"label": a, "href": link(h, g)} for a, h in items]
    out += [{"label": a, "href": h} for a, h in (("Pairings board", f"/t/{tid}/pairings"),
                                                  ("Standings board", f"/t/{tid}/standings"),
                                                  ("Clock", f"/t/{tid}/clock"))]
    return out


@router.get("/", response_class=HTMLResponse)
async def index(request: Request):
    web = app_state(request)
    g = grant_of(request, None, optional=True) if request.query_params.get("k") else None
    ids = web.desk.tournament_ids()
    rows = [web.desk.tournament(i).state().summary() for i in ids]
    csrf = web.signer.csrf(g.token) if g else None
    return page(request, "web/index.html", title="tablejudge serve", tournaments=rows, grant=g,
                k=g.token if g else None, csrf=csrf, msg=flash_of(request))


@router.post("/create")
async def create(request: Request):
    web = app_state(request)
    form = await read_form(request)
    g = grant_of(request, None, form)
    g.require("create", "*")
    check_csrf(request, g, form)
    from judge.web.actions import number, text
    try:
        t = Tournament.create(web.desk.store, name=text(form, "name", limit=200), game=text(form, "game", limit=40),
                              policy=text(form, "policy", required=False, limit=40) or None,  # None: the game's own
                              rounds=number(form, "rounds", required=False, low=0, high=50) or 0,
                              top_cut=number(form, "top_cut", required=False, low=0, high=1024) or 0,
                              seed=text(form, "seed", required=False, limit=40),
                              best_of=number(form, "best_of", required=False, high=9),
                              top_cut_best_of=number(form, "top_cut_best_of", required=False, high=9),
                              recorded_by=g.recorded_by, actor=g.actor)
    except HANDLED as e:
        return _done(request, g, "/", e)
    web.desk.catch_up()
    return _done(request, g, f"/t/{t.id}", None, f"created {t.id}")


def _done(request: Request, g, path: str, error: Exception | None, msg: str | None = None) -> Response:
    """After a form: htmx gets a message fragment (or is sent on to the page); a plain form a 303."""
    is_htmx = request.headers.get("hx-request") == "true"
    if error is not None:
        return refusal_answer(request, error)
    target = flash_link(request, path, g, msg)
    if is_htmx:
        return Response(status_code=204, headers={"HX-Redirect": target})
    return RedirectResponse(target, status_code=303)


@router.post("/t/{tid}/do/{action}")
async def do(request: Request, tid: str, action: str):
    form = await read_form(request)
    g = grant_of(request, tid, form)
    check_csrf(request, g, form)
    back = form.get("back") if isinstance(form.get("back"), str) and form["back"].startswith(f"/t/{tid}") else f"/t/{tid}"
    if action == "mint" and form.get("part") == "staff":
        return _staff_links(request, g, tid, form, back)
    if action == "mint" and form.get("part") == "recorder" and request.headers.get("hx-request") == "true":
        return _recorder_link(request, g, tid, form, back)
    try:
        result = run_action(context(request), g, action, tid, form)
    except HANDLED as e:
        return _done(request, g, back, e)
    if request.headers.get("hx-request") == "true" and form.get("stay"):
        return page(request, "web/_flash.html", result=result)
    if result.get("link") and request.headers.get("hx-request") != "true":
        # a minted link is shown once: a plain form (no JavaScript) gets it on a page of its own,
        # not a redirect that would lose it
        return page(request, "web/done.html", 200, title="Done", result=result, back=link(back, g))
    return _done(request, g, back, None, result["message"])


def staff_rows(st) -> list[dict]:
    return [{"token_id": e.payload["token_id"], "role": e.payload["role"], "name": e.payload["name"],
             "revoked": e.payload["token_id"] in st.revoked, "at": e.recorded_at,
             "made": views.local_time(e.recorded_at)} for e in st.access.values()]


def _staff_links(request: Request, g, tid: str, form: dict, back: str) -> Response:
    """The desk's "Make a link" form: its answer is the staff-links section again, the new link
    shown where the form is (focused), the form empty, the table with the new row; a refusal or
    the question "a second link for the same person?" in the same place. Without JavaScript the
    same section on a page of its own."""
    web = app_state(request)
    minted = error = existing = None
    status = 200
    try:
        minted = run_action(context(request), g, "mint", tid, form)
    except HANDLED as e:
        error, status, existing = page_error(e), error_status(e), getattr(e, "existing", None)
    st = web.desk.tournament(tid).state()
    asked = {"role": form.get("role"), "name": form.get("name")}
    rows = staff_rows(st)
    data = dict(tid=tid, k=g.token, csrf=web.signer.csrf(g.token), staff=rows, minted=minted, error=error,
                asked=asked, existing=next((r for r in rows if r["token_id"] == existing), None))
    if request.headers.get("hx-request") == "true":
        return refused(request, page(request, "web/_staff_links.html", **data), status) if error else \
            page(request, "web/_staff_links.html", **data)
    return page(request, "web/done.html", status, title="Staff link", back=link(back, g), role=g.role,
                staff_section=True, who_name=g.name, **data)


def _recorder_link(request: Request, g, tid: str, form: dict, back: str) -> Response:
    """The round page's "recorder link" form (htmx): its answer is the table's form again with the
    link just made under it (focused, a Copy button), swapped into that table's #mint-tN. A refusal
    is the message fragment (static/live.js shows it by the form); without JavaScript the link
    comes on a page of its own (`do`)."""
    web = app_state(request)
    try:
        minted = run_action(context(request), g, "mint", tid, form)
    except HANDLED as e:
        return _done(request, g, back, e)
    st = web.desk.tournament(tid).state()
    where = next((r.number, table) for r in st.rounds for table, m in r.matches.items() if m == minted["match"])
    return page(request, "web/_recorder_mint.html", tid=tid, k=g.token, csrf=web.signer.csrf(g.token),
                mid=minted["match"], round_no=where[0], table=where[1], minted=minted)


@router.get("/t/{tid}", response_class=HTMLResponse)
async def home(request: Request, tid: str):
    web = app_state(request)
    t = web.desk.tournament(tid)
    st = t.state()
    cur = st.current
    return staff_page(request, tid, "web/desk.html", title=f"{st.name} — desk",
                      players=[{"player": p.player, "id": p.player_id, "late": p.late, "dropped": p.dropped,
                                "dropped_after": p.dropped_after_round, "decklist": bool(p.decklist)}
                               for p in st.players.values()],
                      rounds=[{"number": r.number, "name": r.name, "stage": r.stage, "closed": st.is_closed(r),
                               "missing": len(r.missing()), "tables": len(r.tables())} for r in st.rounds],
                      current=views.round_page(st, cur) if cur else None,
                      warnings=views.warning_list(st, store=t.store), placings=views.placings_or_none(st),
                      bracket=views.bracket(st),
                      standings=views.standings_rows(st),
                      staff=staff_rows(st),
                      queue=len(judges_queue(st)), swiss_left=swiss_rounds_left(st),
                      registration_closed=registration_closed(st),
                      swiss_played=len(st.swiss_rounds), close_confirm=close_confirm(web.desk, t, cur))


def close_confirm(desk, t, rnd) -> str | None:
    """The Close button's question when the round's recorded matches have judge calls still open
    (QA76 9): it lists them with their tables; closing is still the organizer's to choose (a judge
    may have answered at the table without tapping Answered). From the desk's kept calls: no read."""
    if rnd is None or rnd.closed_at is not None:
        return None
    warning = open_calls_warning(round_open_calls(t.store, rnd.matches, desk.matches.desk_events))
    return f"Close {rnd.name}? {warning[0].upper()}{warning[1:]}." if warning else None


@router.get("/t/{tid}/round/{number}", response_class=HTMLResponse)
async def round_view(request: Request, tid: str, number: int):
    web = app_state(request)
    t = web.desk.tournament(tid)
    st = t.state()
    rnd = st.round(number)
    if rnd is None:
        raise InputError(f"round {number} has not been paired", field="round")
    rows = audit_rows(t.events(), round_no=number)
    return staff_page(request, tid, "web/round.html", title=f"{st.name} — {rnd.name}",
                      round=views.round_page(st, rnd), audit=rows, overrides=[r for r in rows if r["override"]])


@router.get("/t/{tid}/grid", response_class=HTMLResponse)
async def grid(request: Request, tid: str):
    st = app_state(request).desk.tournament(tid).state()
    cur = st.current
    return staff_page(request, tid, "web/grid.html", title=f"{st.name} — results", round=views.round_page(st, cur)
                      if cur else None, example=st.match_format(cur.stage).example if cur else None)


def tournament_calls(desk, st) -> list[dict]:
    """Judge calls from every recorded match of the tournament, open ones first, with `round` and
    `table` as the tournament has them: numbers, as a disputed table's. A match keeps its round and
    table as free text (a match recorded outside a tournament may say "Top 8"), and QA73 6 found the
    queue's calls giving "1" and "8" next to the disputes' 1 and 8."""
    where = {mid: (rnd.number, table, st.is_closed(rnd)) for rnd in st.rounds for table, mid in rnd.matches.items()}
    # `round_closed`: a call still open from a round that is over is listed apart (QA75 3: a round-5
    # call stood among the open ones while round 6 was played)
    rows = [dict(c, round=where[c["match"]][0], table=where[c["match"]][1], round_closed=where[c["match"]][2])
            for c in desk.matches.calls(list(where))]
    # open calls of open rounds, then open ones of closed rounds, then the answered ones (all of
    # them: a closed round does not split the answered); stable: oldest first in each
    return sorted(rows, key=lambda c: (not c["open"], c["open"] and c["round_closed"]))


def queue_view(desk, st) -> dict[str, list[dict]]:
    """What the judges' queue shows: the judge calls (`calls`: open ones of open rounds, open ones
    of closed rounds, then answered), the
    disputed tables (`queue`) and the tables whose two reports came from one device (`one_device`:
    their result stands, a judge may look). The page and /api/t/T/queue both read it, so they list
    the same."""
    views = every_table(st)  # each table's status worked out once for both lists
    return {"calls": tournament_calls(desk, st), "queue": [v.to_dict() for v in judges_queue(st, views)],
            "one_device": [v.to_dict() for v in one_device_tables(st, views)]}


@router.get("/t/{tid}/queue", response_class=HTMLResponse)
async def queue(request: Request, tid: str):
    desk = app_state(request).desk
    st = desk.tournament(tid).state()
    # the Decide box's example follows each round's format (a top cut may be best of three)
    examples = {r.number: st.match_format(r.stage).example + "-0" for r in st.rounds}
    return staff_page(request, tid, "web/queue.html", title=f"{st.name} — judges' queue",
                      **queue_view(desk, st), examples=examples, fragment=request.query_params.get("part"))


@router.get("/t/{tid}/audit", response_class=HTMLResponse)
async def audit(request: Request, tid: str):
    t = app_state(request).desk.tournament(tid)
    return staff_page(request, tid, "web/audit.html", title=f"{t.state().name} — audit trail",
                      audit=list(reversed(audit_rows(t.events()))))


@router.get("/t/{tid}/slips", response_class=HTMLResponse)
async def slips(request: Request, tid: str):
    """The printable slips. The tournament is read here on the event loop, like every route (one
    writer, no lock); only the QR codes, pure work on the links' strings, are drawn in a worker
    thread. Drawn on the loop they held every other request for 2.4 s at 150 tables (QA75 1):
    the 300 phones looking up "my table" just when the organizer prints the new round's slips."""
    web = app_state(request)
    g = grant_of(request, tid)
    g.require("slips", tid)
    st = web.desk.tournament(tid).state()
    n = request.query_params.get("round")
    number = whole_number(n or "")  # a typed URL: "٣" or 5,000 digits are no round (int() took or crashed)
    rnd = st.round(number) if number is not None else st.current
    if rnd is None:
        raise InputError("no round has been paired yet", field="round")
    clock = clock_view(rnd)
    ext = {x["table"]: x for x in clock["tables"]}
    fmt = st.match_format(rnd.stage)
    cards = []
    for p in rnd.tables():
        token = web.signer.sign(player_claims(tid, rnd.number, p.table, rnd.paired_at))
        url = f"{base_url(request)}/t/{tid}/play?k={token}"
        x = ext.get(p.table, {})
        cards.append({"table": p.table, "player1": p.player1, "player2": p.player2, "url": url,
                      "extension": x.get("extra_minutes", 0), "ends_at": x.get("ends_at"),
                      "ends_local": views.local_time(x.get("ends_at"))})
    data = dict(title=f"{st.name} — {rnd.name} slips", round={
        "number": rnd.number, "name": rnd.name, "closed": st.is_closed(rnd)}, cards=cards, fmt=fmt.name,
        byes=[p.player1 for p in rnd.pairings if p.player2 is None], event_name=st.name)
    for card, code in zip(cards, await run_in_threadpool(qr.svgs, [c["url"] for c in cards])):
        card["qr"] = code
    return staff_page(request, tid, "web/slips.html", **data)
