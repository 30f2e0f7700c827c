"""Pages of a recorded match: the replay viewer (`/m/ID`, deep links `/m/ID#e41`, live), its data and
its saved file; the scorekeeper's recorder (`/m/ID/record`); a judge call at the judges' desk
(`/m/ID/call/N`: the audit at the moment named and the forms for a ruling, a penalty, a backup and
an extension); and the writes (`POST /m/ID/record` a line, `POST /m/ID/do/ACTION`).

Who sees what: anyone may watch a replay, with hidden information hidden; a judge's or an
organizer's link sees the log as recorded. Writes go through judge.web.match_actions (role and
scope checked first: 403 and nothing stored)."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse

from engine.desk import OFF_TABLE_KINDS, PENALTY_LADDER
from judge.desk.actions import appeal_choices
from engine.match import InputError
from engine.timefacts import usage
from judge.desk.calls import ANSWER_KINDS
from judge.desk.audit import audit
from engine.penalty_guide import guide_for, suggest
from judge.desk.penalties import earlier_penalties
from judge.io.files import safe_name
from judge.replay.export import replay_html
from judge.replay.names import names_in
from judge.web.auth import Forbidden, Grant
from judge.web.live import sse_stream
from judge.web.match_actions import MatchScope, match_scope, recorder as recorder_of, require, run_match_action
from judge.web.actions import number
from judge.web.recording import MAX_LINE, LineRefused, last_own_event
from judge.web.replace import box_of, event_at, form_of, refusal
from judge.web.rules import resource, rule_choices, rule_options
from judge.web.timedecide import offer, policy_of, preview
from judge.web.routes.common import (
    HANDLED, app_state, check_csrf, error_body, error_status, grant_of, json_error, link, page, read_form, refused,
    page_error, wants_json, flash_link, flash_of, refusal_answer, moved_answer,
)
from judge.web.routes.staff import context

router = APIRouter(include_in_schema=False)
RECENT = 14  # events shown under the recorder's board


def scope_of(request: Request, mid: str) -> MatchScope:
    return match_scope(app_state(request).desk, mid)


def match_grant(request: Request, scope: MatchScope, form: dict[str, Any] | None = None,
                optional: bool = False) -> Grant | None:
    """The request's grant, checked against the match's tournament (a match of no tournament here:
    only the organizer's own link)."""
    return grant_of(request, scope.tournament, form, optional=optional, expired_ok=True)


def allowed(g: Grant | None, action: str, scope: MatchScope) -> bool:
    if g is None:
        return False
    try:
        require(g, action, scope)
        return True
    except Forbidden:
        return False


# --- the replay -----------------------------------------------------------------------------------


def _decide_link(g: Grant | None, scope: MatchScope, tl: Any) -> dict[str, str] | None:
    """The "Decide again" link (label and href) for a judge's or the organizer's link where a time
    decision is out of date or none decides a time call (the replay's links, the recorder page)."""
    label = offer(tl) if allowed(g, "decide", scope) else None
    return {"label": label, "href": link(f"/m/{scope.match}/decide", g)} if label else None


async def _posted(request: Request, mid: str) -> tuple[dict[str, Any], MatchScope, Grant]:
    """A form posted to match `mid`: its fields, the match's scope and the link's checked grant,
    the CSRF token checked (every write's first four steps, in one place)."""
    form = await read_form(request)
    scope = scope_of(request, mid)
    g = match_grant(request, scope, form)
    check_csrf(request, g, form)
    return form, scope, g


@router.get("/m/{mid}", response_class=HTMLResponse)
async def replay_page(request: Request, mid: str):
    web = app_state(request)
    scope = scope_of(request, mid)
    g = match_grant(request, scope, optional=True)
    tl = web.desk.matches.timeline(mid, hidden=not (g and g.full_view))
    links = [{"label": "save this replay", "href": link(f"/m/{mid}/replay.html", g)}]
    if allowed(g, "record", scope):
        links.append({"label": "recorder", "href": link(f"/m/{mid}/record", g)})
    if g is not None and g.full_view and scope.tournament:
        links.append({"label": "judges' queue", "href": link(f"/t/{scope.tournament}/queue", g)})
    if decide := _decide_link(g, scope, tl):  # the header's "not decided (...: decide again: tablejudge
        links.append(decide)                    # timelimit M)" keeps the terminal's way
    return HTMLResponse(replay_html(tl, inline=False, live_url=f"/m/{mid}/live",
                                    data_url=link(f"/m/{mid}/data.json", g), links=links, base=web.base_path))


@router.get("/m/{mid}/data.json")
async def replay_data(request: Request, mid: str):
    """The viewer's data (from event `from` on: a live page asks only for what is new)."""
    web = app_state(request)
    scope = scope_of(request, mid)
    g = match_grant(request, scope, optional=True)
    start = request.query_params.get("from", "1")
    if not start.isdigit() or len(start) > 9:
        raise InputError("from: an event position", field="from")
    tl = web.desk.matches.timeline(mid, hidden=not (g and g.full_view))
    return JSONResponse(tl.data_from(int(start)), headers={"Cache-Control": "no-store"})


@router.get("/m/{mid}/replay.html")
async def replay_file(request: Request, mid: str):
    """The self-contained replay file (the log inside; hidden information hidden unless a judge's
    or an organizer's link asks)."""
    web = app_state(request)
    scope = scope_of(request, mid)
    g = match_grant(request, scope, optional=True)
    tl = web.desk.matches.timeline(mid, hidden=not (g and g.full_view))
    name = f"{safe_name(mid)}-replay{'-staff' if not tl.match['hidden'] else ''}.html"
    return Response(replay_html(tl, inline=True), media_type="text/html; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/m/{mid}/appeals", response_class=HTMLResponse)
async def appeals_file(request: Request, mid: str):
    """The appeals file (one A4 page per incident, the report as its appendix): judges and the
    organizer only (it shows the judges' actions; the boards on it keep hidden cards hidden)."""
    from judge.report.appeals import render_appeals  # jinja2 and the report load on first use
    web = app_state(request)
    scope = scope_of(request, mid)
    g = match_grant(request, scope)
    require(g, "appeals", scope)
    base = str(request.base_url).rstrip("/")
    html = render_appeals(web.desk.matches.match(mid), base_url=base)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


@router.get("/m/{mid}/live")
async def match_live(request: Request, mid: str):
    """Server-sent events for one recorded match (topic `match`; `calls` for a judge call)."""
    web = app_state(request)
    m = web.desk.matches.match(mid)
    return StreamingResponse(sse_stream(web.desk.broker, mid, m.head_position(), request.is_disconnected),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# --- the recorder ---------------------------------------------------------------------------------


def _recorder(request: Request, scope: MatchScope, g: Grant, status: int = 200, **entry: Any) -> Response:
    web = app_state(request)
    read = web.desk.matches.read(scope.match)  # one read of the log serves the page (when it moved)
    m = read.match
    tl = web.desk.matches.timeline(scope.match, hidden=not g.full_view, read=read)
    by_pos: dict[int, list[dict[str, Any]]] = {}
    for f in tl.findings:
        by_pos.setdefault(f["p"], []).append(f)
    recent = [dict(e, findings=by_pos.get(e["p"], [])) for e in tl.events[-RECENT:]][::-1]
    # the buttons: from the table as this link knows it (a judge's: all of it; a scorekeeper's:
    # hidden cards hidden, but those its own lines named, so a hand it saw drawn offers its plays)
    table = tl.state if g.full_view else web.desk.matches.table_known_to(scope.match, g.recorded_by, read)
    found, notes = recorder_of(m, g).buttons(table) if table is not None and table.result is None else ([], [])
    groups: dict[str, list[Any]] = {}
    for b in found:
        groups.setdefault(b.group, []).append(b)
    mine = last_own_event(tl, g.recorded_by)
    seats = tl.match["seats"]
    # the event list and the buttons name their cards as the board does (a button still sends the number)
    mine_text = mine["text"] if mine else ""
    names = names_in([e["text"] for e in recent] + [b.line for b in found] + [mine_text], table, m.ruleset,
                     web.desk.matches.event_db, known=tl.names)
    return page(request, "web/record.html", status, title=f"Record: {' vs '.join(m.players)}", mid=scope.match,
                k=g.token, csrf=app_state(request).signer.csrf(g.token), role=g.role, who_name=g.name,
                match=tl.match, head=tl.head, board={"board": tl.boards[-1], "names": tl.names}, recent=recent,
                groups=groups, notes=notes, seats=[(seats[p], p) for p in m.players], position=tl.head,
                mine={"position": mine["p"], "text": names.text(mine_text)} if mine else None,
                named=names.text, max_line=MAX_LINE, may_judge=g.full_view, off_table=OFF_TABLE_KINDS,
                replace_url=link(f"/m/{scope.match}/replace", g) if allowed(g, "replace", scope) else None,
                decide=_decide_link(g, scope, tl),
                live=f"/m/{scope.match}/live",
                replay=link(f"/m/{scope.match}", g), self_url=link(f"/m/{scope.match}/record", g), **entry)


@router.get("/m/{mid}/record", response_class=HTMLResponse)
async def recorder(request: Request, mid: str):
    scope = scope_of(request, mid)
    g = match_grant(request, scope)
    require(g, "record", scope)
    return _recorder(request, scope, g, msg=flash_of(request))  # a replace form's answer


@router.post("/m/{mid}/record", response_class=HTMLResponse)
async def record(request: Request, mid: str):
    """One line (typed, or a button's): stored as one transaction, or kept in the box with the
    error's column, or held back because another recorder stored events since the page's `seen`."""
    form, scope, g = await _posted(request, mid)
    line = form.get("line") if isinstance(form.get("line"), str) else ""
    typed = form.get("typed") == "1"
    try:
        result = run_match_action(context(request), g, "line", scope, form)
    except HANDLED as e:
        if wants_json(request) and request.headers.get("hx-request") != "true":  # an API client
            return json_error(e)
        if isinstance(e, LineRefused):
            return refused(request, _recorder(request, scope, g, line=line, error=e.message, col=e.col, typed=True),
                           422)
        if isinstance(e, Forbidden) and not allowed(g, "record", scope):
            raise
        return refused(request, _recorder(request, scope, g, line=line, error=error_body(e)["error"], typed=typed),
                       error_status(e))
    if result["status"] == "moved":
        return _recorder(request, scope, g, line=line, moved=result, typed=typed)
    return _recorder(request, scope, g, done=result, typed=typed)


@router.post("/m/{mid}/do/{action}")
async def match_do(request: Request, mid: str, action: str):
    """line, undo, call, ruling, answer, penalty, backup, extend, time, decide, appeal, replace
    (judge.web.match_actions.MATCH_ACTIONS): htmx gets a message (the page's live parts refresh
    themselves from the match's stream; the recorder's undo and call, the whole recorder); a plain
    form goes back to its page; an API client gets the API's JSON."""
    form, scope, g = await _posted(request, mid)
    back = form.get("back") if isinstance(form.get("back"), str) and form["back"].startswith(("/m/", "/t/")) \
        else f"/m/{mid}"
    is_htmx = request.headers.get("hx-request") == "true"
    # the recorder page's undo and call: the whole recorder comes back (the undo button's number,
    # `seen`, an emptied reason box), not only a message
    on_recorder = is_htmx and form.get("page") == "record" and action in ("undo", "call")
    api_client = wants_json(request) and not is_htmx
    try:
        result = run_match_action(context(request), g, action, scope, form)
    except HANDLED as e:
        if api_client:
            return json_error(e)
        if on_recorder and allowed(g, "record", scope):
            kept = form.get("reason") if action == "call" and isinstance(form.get("reason"), str) else ""
            return refused(request, _recorder(request, scope, g, act_error=error_body(e)["error"], call_reason=kept),
                           error_status(e))
        if action == "time" and back == f"/m/{mid}/decide" and not is_htmx and not isinstance(e, Forbidden):
            # the decide page's facts form (a plain form): the page again, with the refusal and what was
            # typed, not the error page (the facts typed off the table were lost with it)
            typed = form.get("facts") if isinstance(form.get("facts"), str) else ""
            return refused(request, _decide_page(request, scope, g, form, error=e, facts=typed), error_status(e))
        return refusal_answer(request, e)
    if api_client:  # as POST /api/m/ID/do/ACTION answers (a moved log's line: 409, as /api/m/ID/lines)
        return moved_answer(result) or JSONResponse(result)
    if on_recorder:
        return _recorder(request, scope, g, done=dict(result, recorded=[]))
    if is_htmx:
        return page(request, "web/_flash.html", result=result)
    # the decide page's facts form decided under the policy the page showed (or chose): back there, the
    # preview keeps it; without it the page came back under the ruleset's default policy
    kept = {"policy": _policy(form)[0]} if back == f"/m/{mid}/decide" else {}
    return RedirectResponse(flash_link(request, back, g, result["message"], **kept), status_code=303)


# --- a judge's replace form: "event N should have read X" ------------------------------------


def _replace_form(request: Request, scope: MatchScope, g: Grant, position: int, status: int = 200,
                  typed: dict[str, Any] | None = None, error: InputError | None = None) -> Response:
    """The form for event `position`: as the event reads (or as a refused form was typed, with the
    refusal beside the box it names)."""
    web = app_state(request)
    m = web.desk.matches.match(scope.match)
    e = event_at(m, position)
    cannot = refusal(m, g, e)
    shown = error or cannot
    return page(request, "web/replace.html", status, title=f"Replace event {position}", mid=scope.match, k=g.token,
                csrf=web.signer.csrf(g.token), role=g.role, who_name=g.name, form=form_of(m, g, e, typed),
                error=page_error(shown)["said"] if shown else "", error_box=box_of(shown.field) if shown else "",
                sent=error is not None,  # "nothing was stored" only after a form was sent
                cannot=cannot is not None, judge=g.match_actor, recorder=link(f"/m/{scope.match}/record", g),
                replay=link(f"/m/{scope.match}", g) + f"#e{position}")


@router.get("/m/{mid}/replace", response_class=HTMLResponse)
async def replace_page(request: Request, mid: str):
    scope = scope_of(request, mid)
    g = match_grant(request, scope)
    require(g, "replace", scope)
    return _replace_form(request, scope, g, number(dict(request.query_params), "event", low=1, high=10**9))


@router.post("/m/{mid}/replace", response_class=HTMLResponse)
async def replace_post(request: Request, mid: str):
    """The correction the form says, recorded as `log --instead` records it; refused: the form again
    with what was typed and the refusal beside its box (422), nothing stored."""
    form, scope, g = await _posted(request, mid)
    try:
        result = run_match_action(context(request), g, "replace", scope, form)
    except HANDLED as e:
        try:
            position = int(form.get("voids"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            position = None
        if wants_json(request):
            raise
        if isinstance(e, InputError) and position is not None:
            try:  # the form again, with what was typed and the refusal beside its box
                return refused(request, _replace_form(request, scope, g, position, typed=form, error=e), 422)
            except HANDLED:
                pass  # no event `voids` to show the form of: said below
        # a revoked link, a store refusal, no such event: said in the form's area, not as a page
        return refusal_answer(request, e)
    if wants_json(request):
        return JSONResponse(result)
    done = flash_link(request, f"/m/{mid}/record", g, result["message"])
    if request.headers.get("hx-request") == "true":  # the page goes to the recorder, as a plain form's does
        return Response(status_code=200, headers={"HX-Redirect": done})
    return RedirectResponse(done, status_code=303)


# --- "Decide again": the end-of-time decision from the log, previewed, then confirmed ------------


def _decide_page(request: Request, scope: MatchScope, g: Grant, fields: Any, status: int = 200,
                 error: Exception | None = None, facts: str = "") -> Response:
    """What `tablejudge timelimit M --dry-run` decides, with the confirm that records it (or the
    refusal, in words, with what to do). `fields`: the query's or a posted form's (its `policy`,
    checked as the actions check it: a refused one is the preview's refusal). `error`: a refused
    confirm or facts form, said above the preview; `facts`: what the refused facts form said, kept in
    its box (else the facts line the refusal asks to be read, its `?`s to fill in)."""
    web = app_state(request)
    m = web.desk.matches.match(scope.match)
    policy, refusal = _policy(fields)
    p = preview(m, policy, refusal)
    return page(request, "web/decide.html", status, title=f"End of time: {' vs '.join(m.players)}", mid=scope.match,
                k=g.token, csrf=web.signer.csrf(g.token), role=g.role, who_name=g.name, judge=g.match_actor,
                players=m.players, p=p, policy=policy or "", msg=flash_of(request), facts=facts or p.facts_to_read,
                error=page_error(error) if error else None,
                policies=list(m.ruleset.time_policies),
                time_facts=time_facts_form(m) if p.needs_facts or p.no_time_call else None,
                replay=link(f"/m/{scope.match}", g), recorder=link(f"/m/{scope.match}/record", g),
                self_url=link(f"/m/{scope.match}/decide", g))


def _policy(fields: Any) -> tuple[str | None, InputError | None]:
    """The page's policy (policy_of), or its refusal."""
    try:
        return policy_of(fields), None
    except InputError as e:
        return None, e


@router.get("/m/{mid}/decide", response_class=HTMLResponse)
async def decide_page(request: Request, mid: str):
    scope = scope_of(request, mid)
    g = match_grant(request, scope)
    require(g, "decide_page", scope)  # a scorekeeper's or a player's link: 403, in words
    return _decide_page(request, scope, g, request.query_params)


@router.post("/m/{mid}/decide", response_class=HTMLResponse)
async def decide_post(request: Request, mid: str):
    """The confirm: the `decide` match action (timelimit's `run`, the judge its actor). Recorded (or
    already recorded): back to the page, which then says so; refused: the page again, with the
    refusal, nothing stored."""
    form, scope, g = await _posted(request, mid)
    try:
        result = run_match_action(context(request), g, "decide", scope, form)
    except HANDLED as e:
        if wants_json(request):
            return json_error(e)
        if isinstance(e, Forbidden):
            raise
        return refused(request, _decide_page(request, scope, g, form, error_status(e), error=e),
                       error_status(e))
    if wants_json(request):
        return JSONResponse(result)
    return RedirectResponse(flash_link(request, f"/m/{mid}/decide", g, result["message"], policy=_policy(form)[0]),
                            status_code=303)


# --- a judge call at the judges' desk -----------------------------------------------------------


def time_facts_form(m) -> dict[str, Any] | None:
    """What the end-of-time form shows: the facts the ruleset reads, an example line, its policies."""
    facts = m.ruleset.time_facts
    if not facts:
        return None
    players = list(m.players)
    return {"usage": usage(facts, players), "example": " ".join(f"{f.key}={f.example(players)}" for f in facts
                                                               if f.required),
            "policies": list(m.ruleset.time_policies)}


@router.get("/m/{mid}/call/{position}", response_class=HTMLResponse)
async def call_page(request: Request, mid: str, position: int):
    web = app_state(request)
    scope = scope_of(request, mid)
    g = match_grant(request, scope)
    require(g, "call_page", scope)
    m = web.desk.matches.match(mid)
    calls = m.store.read(mid, after=position - 1, upto=position)
    if not calls or calls[0].kind != "judge.call":
        raise InputError(f"event {position} of match {mid} is not a judge call", field="position")
    call = calls[0]
    at = call.payload.get("at") or max(position - 1, 1)
    a = audit(m, at, around=4)
    read = web.desk.matches.read(mid)  # one look at the log serves the timeline and the Appeal list
    tl = web.desk.matches.timeline(mid, hidden=False, read=read)
    guide = guide_for(m.ruleset.name)
    steps: dict[str, int] = {}  # each step's words once: most are the same for every player (the guide's quote)
    suggestions = {}
    for p in m.players:
        earlier = earlier_penalties(m.store, m, p)
        suggestions[p] = {i.id: {k: v if k != "steps" else [steps.setdefault(t, len(steps)) for t in v]
                                 for k, v in suggest(guide, i, p, earlier).to_dict().items()
                                 if k in ("penalty", "floor", "ceiling", "offence", "steps")}
                          for i in guide.infractions}
    answered = [e for e in web.desk.matches.desk_events.get(mid, [])
                if e.kind in ANSWER_KINDS and e.payload.get("call") == position]  # a ruling, an appeal's decision
    # the staleness of the time decisions: the timeline's (a live re-render replays none of them again)
    appealable = appeal_choices(m, {e["p"]: e["text"] for e in tl.events}, events=read.events(), stale=tl.stale)
    finding_rules = [f["rule"] for f in a["findings"] if f["position"] == at]
    cited = finding_rules[0] if finding_rules else ""
    # the rules' and the infractions' words come once per ruleset (judge.web.rules, cached); the page
    # keeps what its forms need without a script, and the cited rule's words
    rules = rule_choices(m.ruleset.name)
    return page(request, "web/call.html", title=f"Judge call: table {scope.table[1] if scope.table else '?'}",
                mid=mid, k=g.token, csrf=web.signer.csrf(g.token), role=g.role, who_name=g.name, tid=None,
                call={"position": position, "caller": call.payload["caller"], "reason": call.payload.get("reason", ""),
                      "at": at, "recorded_at": call.recorded_at, "recorded_by": call.recorded_by},
                audit=a, board={"board": tl.boards[at - 1], "names": tl.names}, match=tl.match, scope=scope,
                rules=rule_options(m.ruleset.name), cited=cited,
                cited_rule=next((r for r in rules if r["id"] == cited), None),
                rules_url=resource(m.ruleset.name).url, guide=guide.to_dict(), suggestions=suggestions, steps=list(steps), answered=answered, position=m.head_position(),
                ladder=list(PENALTY_LADDER), time_facts=time_facts_form(m), appealable=appealable,
                live=f"/m/{mid}/live", replay=link(f"/m/{mid}", g) + f"#e{at}", appeals=link(f"/m/{mid}/appeals", g),
                queue=link(f"/t/{scope.tournament}/queue", g) if scope.tournament else None,
                self_url=link(f"/m/{mid}/call/{position}", g),
                msg=flash_of(request))  # a form sent without htmx comes back here with its answer
