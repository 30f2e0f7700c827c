"""What every route needs: the caller's grant (from the token), CSRF on forms, rendering, and
errors turned into status codes (403 forbidden, 404 unknown, 409 conflict or overwrite, 422 input)."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode, urlparse

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from engine.match import InputError
from engine.store import ConflictError, NotAMatch, StoreError
from judge.io.errorshape import line_errors
from judge.io.text import decode
from judge.numbers import whole_number
from judge.report.templating import render
from judge.tournament.reports import ResultConfirmed
from judge.tournament.results import OverwriteRefused
from judge.tournament.tables import ReportsDiffer
from judge.web.recording import UndoRefused
from judge.web.auth import PLAYER, ROOT_TOKEN_ID, Forbidden, Grant, grant_from_claims

MAX_FORM_BYTES = 2_000_000


def app_state(request: Request):
    return request.app.state.web


def token_of(request: Request, form: dict[str, Any] | None = None) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    if form and isinstance(form.get("k"), str):
        return form["k"]
    return request.query_params.get("k")


def grant_of(request: Request, tid: str | None, form: dict[str, Any] | None = None,
             optional: bool = False, expired_ok: bool = False) -> Grant | None:
    """The checked grant of the request's token for tournament `tid` (None: no token and
    `optional`). Refused (Forbidden): a bad signature, another tournament, a revoked staff link,
    a player's link whose round is closed or was paired again."""
    token = token_of(request, form)
    if not token:
        if optional:
            return None
        raise Forbidden("this page needs a link with a token (ask the organizer)")
    web = app_state(request)
    g = grant_from_claims(web.signer.verify(token), token)
    if tid is None:
        if g.tournament != "*":
            raise Forbidden("this link is for one tournament only: open that tournament's pages with it, or ask the organizer for the desk's link")
        return g
    if not g.covers(tid):
        raise Forbidden("this link is for another tournament: use the link (or slip) you were given for this one, or ask the organizer")
    st = web.desk.tournament(tid).state()
    if g.role == PLAYER:
        rnd = st.round(g.round)
        if rnd is None or rnd.paired_at != g.paired_at:
            raise Forbidden("this slip's round was paired again: use the new slip (ask at the desk or look up \"my table\")")
        if st.is_closed(rnd) and not expired_ok:
            raise Forbidden(f"{rnd.name} is closed: this slip's link has expired; use the new round's slip or look up \"my table\"")
        if g.table not in {p.table for p in rnd.tables()}:
            raise Forbidden("no such table in this round: use the slip of your table, or ask at the desk")
    elif g.token_id != ROOT_TOKEN_ID:
        if g.token_id not in st.access or g.token_id in st.revoked:
            raise Forbidden("this staff link was revoked (or never minted here): ask the organizer for a new one")
    return g


def check_csrf(request: Request, grant: Grant, form: dict[str, Any]) -> None:
    """Forms carry `csrf`, the HMAC of the page's own token: a page elsewhere cannot forge one.
    A cross-site Origin is refused outright. (The JSON API takes its token in the Authorization
    header, which a browser never adds by itself: no CSRF there.)"""
    origin = request.headers.get("origin")
    if origin and origin != "null":
        host = request.headers.get("host", "")
        if urlparse(origin).netloc != host:
            raise Forbidden("a form from another site: open the desk's own page and send it from there")
    if request.headers.get("authorization", "").lower().startswith("bearer "):
        return
    web = app_state(request)
    if form.get("csrf") != web.signer.csrf(grant.token):
        raise Forbidden("the form's CSRF token is missing or wrong: reload the page")


async def read_form(request: Request) -> dict[str, Any]:
    """A form (urlencoded or multipart; an uploaded file's text under its field name) or JSON."""
    if int(request.headers.get("content-length") or 0) > MAX_FORM_BYTES:
        raise BodyTooLarge("the form is too large", field="form")
    ctype = request.headers.get("content-type", "")
    if ctype.startswith("application/json"):
        try:
            data = await request.json()
        except ValueError:
            raise InputError("the body is not JSON", field="body") from None
        if not isinstance(data, dict):
            raise InputError("the body must be a JSON object", field="body")
        return data
    try:
        form = await request.form()
    except BodyTooLarge:
        raise
    except Exception:  # a malformed multipart body
        raise InputError("the form could not be read", field="form") from None
    out: dict[str, Any] = {}
    for k, v in form.multi_items():
        if hasattr(v, "read"):
            raw = await v.read()
            out["filename"] = getattr(v, "filename", None) or k
            out[k] = decode(raw, out["filename"])
        else:
            out[k] = v
    return out


def page(request: Request, template: str, status: int = 200, **data: Any) -> HTMLResponse:
    web = app_state(request)
    return HTMLResponse(render(template, base=web.base_path, **data), status_code=status)


def refused(request: Request, response: Response, status: int) -> Response:
    """A refusal's status. An htmx form gets its message as a fragment with 200 (the refusal is
    in `X-Tablejudge-Refused`): htmx swaps it in, and the browser logs no failed load for it. A
    plain form and the JSON API get the real status."""
    if request.headers.get("hx-request") == "true":
        response.status_code = 200
        response.headers["X-Tablejudge-Refused"] = str(status)
    else:
        response.status_code = status
    return response


def link(path: str, grant: Grant | None = None, **params: Any) -> str:
    q = {k: v for k, v in params.items() if v is not None}
    if grant is not None:
        q["k"] = grant.token
    return path + ("?" + urlencode(q) if q else "")


class BodyTooLarge(InputError):
    """A request body over MAX_FORM_BYTES (a form, a JSON body, an upload; chunked or not): 413."""


class LimitBody:
    """ASGI middleware: a request body is read up to MAX_FORM_BYTES and no further. An announced
    length over it is refused at once (413); a chunked body (no length announced) is read here up
    to the limit, refused past it, and handed on whole. (The JSON API's bodies are read by FastAPI
    before any model limits a field, and it reports a failed read as a bare 400.)"""

    def __init__(self, app: Any, limit: int = MAX_FORM_BYTES):
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        announced = headers.get(b"content-length")
        if announced is not None:
            size = whole_number(announced.decode("latin-1"))  # 5,000 digits: int() raised, a 500
            if size is None or size > self.limit:
                return await self._too_large(scope, receive, send)
            return await self.app(scope, receive, send)
        if b"chunked" not in headers.get(b"transfer-encoding", b"").lower():
            return await self.app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                return await self._too_large(scope, receive, send)
        handed = False

        async def whole() -> dict:
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, whole, send)

    async def _too_large(self, scope: dict, receive: Any, send: Any) -> None:
        error = BodyTooLarge(f"the request body is larger than {self.limit:,} bytes", field="body")
        await JSONResponse(error_body(error), status_code=413)(scope, receive, send)


def error_status(e: Exception) -> int:
    if isinstance(e, BodyTooLarge):
        return 413
    if isinstance(e, Forbidden):
        return 403
    if isinstance(e, (OverwriteRefused, ConflictError, UndoRefused, ResultConfirmed)):
        return 409
    if isinstance(e, (KeyError, NotAMatch)):  # NotAMatch: /m/ given a tournament's id
        return 404
    return 422


def error_body(e: Exception) -> dict[str, Any]:
    body: dict[str, Any] = {"error": str(e) if not isinstance(e, KeyError)
                            else f"no tournament or match {e.args[0]!r} in this log"}
    if isinstance(e, InputError):
        body["message"] = e.message
        if e.field:  # QA82 2: `"field": ""` on a refused batch (a field is said when there is one)
            body["field"] = e.field
    if isinstance(e, InputError) and not isinstance(e, OverwriteRefused):
        # every line refused, each with where and field (a BatchRefused's lines, or the one error),
        # in the shape the CLI's --json gives them: one function builds both (judge/io/errorshape.py)
        body["errors"] = line_errors(getattr(e, "errors", None) or [e])
    if isinstance(e, OverwriteRefused):  # the API's own fields, not the CLI's flags (QA77 8)
        body["message"] = f"{e.what}; {API_REASON if isinstance(e, ReportsDiffer) else API_REPLACE}"
        body["error"] = str(InputError(body["message"], field=e.field, where=e.where))
        body["conflicts"] = e.conflicts
    return body


# The web desk's way to replace a result, where the library's message names the CLI's flag
WEB_REPLACE = "to replace it, type the entry again in the results grid and answer Replace, with a reason"
# The JSON API's way: its request's fields
API_REPLACE = 'to replace it, send it again with "overwrite": true'
API_REASON = 'to record it anyway, send it again with "overwrite": true and a "reason"'


def page_error(e: Exception) -> dict[str, Any]:
    """error_body for a page, with `said`: the words a person reads. Without the programmer's
    `field 'result':` prefix (QA75 6: on a player's phone; `field` still names the input), and
    the web's step instead of a CLI flag for a result to replace, or an error's own `on_page` words
    (judge.desk.timelimit.NoTimeCalled)."""
    body = error_body(e)
    if isinstance(e, OverwriteRefused):  # ReportsDiffer too
        body["said"] = f"{e.what}; {WEB_REPLACE}"
    elif getattr(e, "on_page", None):  # a refusal whose terminal words name a command or a payload
        body["said"] = e.on_page  # type: ignore[attr-defined]
    elif isinstance(e, InputError):
        body["said"] = ": ".join(p for p in (e.where, e.message) if p)
    else:
        body["said"] = body["error"]
    return body


HANDLED = (Forbidden, InputError, StoreError, KeyError)


def wants_json(request: Request) -> bool:
    """An API client: a path under /api/, `Accept: application/json`, or a token in the
    Authorization header (a page sends its link's token in the form or the URL, never a header).
    It gets the JSON error shape on every route, never an HTML page (QA70 #11)."""
    return (request.url.path.startswith("/api/") or request.headers.get("accept", "").startswith("application/json")
            or request.headers.get("authorization", "").lower().startswith("bearer "))


def json_error(e: Exception) -> JSONResponse:
    return JSONResponse(error_body(e), status_code=error_status(e))


def moved_answer(out: dict[str, Any]) -> JSONResponse | None:
    """A line held back because another recorder stored events since `seen` stored nothing: a 409
    with the events and who stored them, so a client reading only the code does not take it for
    stored (QA78 LOW-2); None for a stored answer. Every route that answers a line in JSON uses it
    (review: /m/ID/do/line answered an API client 200)."""
    return JSONResponse(out, status_code=409) if out.get("status") == "moved" else None


def next_step(e: Exception) -> str:
    """What the error page tells the user to do (after "Nothing was stored." for a form sent). "Try
    again" only where a retry can succeed (a lost race, a field to correct); QA73 15: a 403 for another match's link
    ended "Go back and try again.", and the same link gets the same 403 however often it tries."""
    if isinstance(e, (Forbidden, ResultConfirmed)):  # the message says who can do it, or whom to call
        return "Trying again with this link gets the same answer: do as the message above says."
    if error_status(e) == 404:
        return "Check the link: trying it again gets the same answer."
    return "Go back and try again."


def html_error(request: Request, e: Exception) -> Response:
    """The error page of a refused plain (non-htmx) request: every page route answers with this."""
    return page(request, "web/error.html", error_status(e), title="Not done", error=page_error(e),
                next_step=next_step(e), sent=request.method not in ("GET", "HEAD"))  # a page opened stores nothing


def refusal_answer(request: Request, e: Exception) -> Response:
    """A refused form's answer: for htmx, the words as a fragment where the form's answer goes
    (200, the status in X-Tablejudge-Refused), not a whole page swapped into it; for a plain form,
    the error page."""
    if request.headers.get("hx-request") == "true":
        return refused(request, page(request, "web/_flash.html", error=page_error(e)), error_status(e))
    return html_error(request, e)


def flash_link(request: Request, path: str, grant: Grant | None, msg: str | None, **params: Any) -> str:
    """`link` (with `params`) carrying a message this server says after a form (`?msg=`), sealed
    (`ms`): pages show only a sealed one (`flash_of`)."""
    seal = app_state(request).signer.flash(msg) if msg else None
    return link(path, grant, msg=msg, ms=seal, **params)


def flash_of(request: Request) -> str | None:
    """The page's `?msg=` if this server sealed it, else None: a crafted link's words are not shown."""
    q = request.query_params
    return app_state(request).signer.flash_text(q.get("msg"), q.get("ms"))
