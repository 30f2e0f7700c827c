"""Which browser a request came from, as far as the desk needs to know: an opaque random id in a
cookie (`tj_device`, HttpOnly, SameSite=Lax) that a browser gets on its first visit and sends back
after. A player's report keeps it (`result.reported`'s `device`), so that the desk can say when both
reports of a table came from one phone (judge/tournament/tables.py, `one_device`): the result stands
(players do hand one phone around), a judge may look. Only this random id is kept, never an IP
address or a user agent: it says nothing about the person or the phone, only "the same browser"."""
from __future__ import annotations

import re
import secrets

from fastapi import Request, Response

COOKIE = "tj_device"
MAX_AGE = 30 * 24 * 3600  # longer than an event: a phone stays the same device for the whole day
_SHAPE = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16): anything else is not ours


def device_of(request: Request) -> str | None:
    """The device id the browser sent (None: it sent none, or not one of ours: a first visit)."""
    given = request.cookies.get(COOKIE)
    return given if given and _SHAPE.fullmatch(given) else None


# QA83 5: a response meant to be kept by a shared cache (the rules' JSON, `/rules/R.json`, and the static
# files: app.py's SharedFiles) must not carry a device id: a cache at the venue could keep it and hand it
# to every phone it serves, and the one-device flag would then join the reports of strangers. The rule
# is the response's own word, `Cache-Control: public`, not a list of paths kept beside app.py's mounts
# and routes (it drifted from them once): whatever says a shared cache may keep it comes without the
# cookie, and a browser gets its id with the first page it shows.
def shared(response: Response) -> bool:
    """The response tells caches they may keep it for everyone (`Cache-Control: public`)."""
    directives = response.headers.get("cache-control", "").lower().split(",")
    return "public" in (d.split("=", 1)[0].strip() for d in directives)


async def give_device(request: Request, call_next):
    """HTTP middleware: a browser that sent no device id gets one with this answer (not with a
    shared one: `shared`)."""
    response = await call_next(request)
    if device_of(request) is None and not shared(response):
        response.set_cookie(COOKIE, secrets.token_urlsafe(16), max_age=MAX_AGE, path="/", httponly=True,
                            samesite="lax")
    return response
