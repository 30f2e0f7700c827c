"""The app factory: `create_app(store, secret)` gives a FastAPI app serving the event desk over
one event log. Pages are jinja2 templates (templates/web/), htmx and the page scripts are served
from the package (judge/web/static/), the JSON API is documented at /docs (/openapi.json)."""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from engine.store import EventStore
from judge.web.auth import Signer, organizer_claims
from judge.web.desk import Desk
from judge.web.device import give_device
from judge.report.templating import environment, template_dir
from judge.web.routes import api, matches, player, public, staff
from judge.web.routes.common import HANDLED, LimitBody, html_error, json_error, wants_json

STATIC = Path(__file__).resolve().parent / "static"


class SharedFiles(StaticFiles):
    """Files the same for every browser: said so (`Cache-Control: public`), so that a cache may keep
    them and the device id never rides on one (judge/web/device.py, `shared`). The pages link them
    with their content's hash (`asset`, `?v=`): such a link names one content for ever, so a phone
    keeps it without asking again (a venue's Wi-Fi makes each re-check a round trip). A link
    without `v` (an old page, a hand-typed URL) gets `no-cache`: asked again, a 304 while unchanged."""

    def __init__(self, *, directory: Path, prefix: str):
        super().__init__(directory=str(directory))
        self.prefix = prefix  # where it is mounted: "/static/"

    async def get_response(self, path: str, scope):  # type: ignore[no-untyped-def]
        response = await super().get_response(path, scope)
        # `immutable` only for the link the pages give today: another `v` (a page of a server still
        # on the old version, behind the same name; a typed one) would be kept for a year with
        # today's content under a link that names other content
        given = [part[2:] for part in scope.get("query_string", b"").split(b"&") if part.startswith(b"v=")]
        current = given and asset(self.prefix + path).rsplit("?v=", 1)[1].encode() == given[0]
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if current else "public, no-cache"
        return response


@lru_cache(maxsize=None)
def asset(url: str) -> str:
    """`url` with its file's content hash (`/static/web.css?v=1a2b3c4d5e`), for the templates:
    a new version of a file is a new link. Files are package data, read once per process."""
    folders = {"/static/": STATIC, "/replay-assets/": template_dir() / "replay"}
    for prefix, folder in folders.items():
        if url.startswith(prefix):
            data = (folder / url[len(prefix):]).read_bytes()
            return f"{url}?v={hashlib.sha256(data).hexdigest()[:10]}"
    raise ValueError(f"asset(): {url!r} is not under {', '.join(folders)}")


@dataclass
class WebState:
    desk: Desk
    signer: Signer
    public_url: str | None = None      # what QR codes point at (the LAN address); else the request's
    base_path: str = ""
    tasks: list = field(default_factory=list)

    def organizer_token(self) -> str:
        return self.signer.sign(organizer_claims())


def create_app(store: EventStore, secret: str, *, public_url: str | None = None,
               poll_seconds: float = 0.25) -> FastAPI:
    web = WebState(Desk(store, poll_seconds), Signer(secret), public_url.rstrip("/") if public_url else None)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        task = asyncio.create_task(web.desk.follow())
        try:
            yield
        finally:
            web.desk.broker.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app = FastAPI(title="tablejudge serve", version="1",
                  description="The event desk: tournaments, results, reports and boards over the event log. "
                              "Every write is an event with its actor. Authenticate with `Authorization: Bearer "
                              "TOKEN` (the organizer's link printed by `tablejudge serve`, a staff link minted on the "
                              "organizer page, or a player's slip link).",
                  lifespan=lifespan)
    app.state.web = web
    environment().globals["asset"] = asset  # versioned links to the files below (templates/web/)
    app.mount("/static", SharedFiles(directory=STATIC, prefix="/static/"), name="static")
    # the replay viewer's script and styles: the same files the saved replay carries inline
    app.mount("/replay-assets", SharedFiles(directory=template_dir() / "replay", prefix="/replay-assets/"),
              name="replay-assets")
    for module in (staff, public, player, matches, api):
        app.include_router(module.router)

    async def handled(request: Request, exc: Exception):
        if wants_json(request):
            return json_error(exc)
        return html_error(request, exc)

    for exc in HANDLED:
        app.add_exception_handler(exc, handled)

    async def invalid(request: Request, exc: RequestValidationError):
        """FastAPI's own answer echoes the input (a 20 MB body back; a number out of float range
        made it fail with a 500): say what is wrong and where, and nothing of the value."""
        # `errors` as every other 422 has them (judge/io/errorshape.py): `field` and `message` each
        errors = [{"field": ".".join(str(p) for p in e.get("loc", ())[1:]) or "body",
                   "message": str(e.get("msg", "not valid"))[:200]} for e in exc.errors()[:20]]
        first = errors[0] if errors else {"field": "body", "message": "not valid"}
        return JSONResponse({"error": f"{first['field']}: {first['message']}", "field": first["field"],
                             "errors": errors}, status_code=422)

    app.add_exception_handler(RequestValidationError, invalid)
    app.add_middleware(LimitBody)  # the body is cut at MAX_FORM_BYTES, announced or chunked

    app.middleware("http")(give_device)  # the device id a player's report keeps (device.py)

    @app.middleware("http")
    async def headers(request: Request, call_next):
        response = await call_next(request)
        # links carry tokens: never leak them in a Referer; pages frame nothing and are framed by nothing
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        if not request.url.path.startswith(("/docs", "/redoc")):
            response.headers.setdefault("Content-Security-Policy",
                                        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                        "script-src 'self'; frame-ancestors 'none'; form-action 'self'")
        return response

    return app


GRACEFUL_SECONDS = 5.0


def run(app: FastAPI, host: str, port: int) -> None:
    """Serve `app` with uvicorn until SIGINT or SIGTERM. A shutdown is prompt: new connections are
    refused, every open page's live stream ends at once (pages say "reconnecting…"), and a request
    still running after GRACEFUL_SECONDS is cancelled; then the follower stops."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            app.state.web.desk.broker.close()  # before uvicorn waits for the connections to end
            await super().shutdown(sockets)

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=GRACEFUL_SECONDS)
    Server(config).run()
