"""Which browser a request came from, as far as the desk needs to know: an opaque random id in a
cookie (`tj_device`, HttpOnly, SameSite=Lax) that a browser gets on its first visit and sends back
after. A player's report keeps it (`result.reported`'s `device`), so that the desk can say when both
reports of a table came from one phone (judge/tournament/tables.py, `one_device`): the result stands
(players do hand one phone around), a judge may look. Only this random id is kept, never an IP
address or a user agent: it says nothing about the person or the phone, only "the same browser"."""
from __future__ import annotations

import re
import secrets

from fastapi import Request

COOKIE = "tj_device"
MAX_AGE = 30 * 24 * 3600  # longer than an event: a phone stays the same device for the whole day
_SHAPE = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16): anything else is not ours


def device_of(request: Request) -> str | None:
    """The device id the browser sent (None: it sent none, or not one of ours: a first visit)."""
    given = request.cookies.get(COOKIE)
    return given if given and _SHAPE.fullmatch(given) else None


# the same for every browser, and meant to be kept by caches: the rules' JSON (`/rules/R.json?v=`, sent
# "public, max-age=31536000, immutable") and the static files (app.py's mounts). QA83 5: a device id sent
# with one could be kept by a shared cache at the venue and handed to every phone it serves, and the
# one-device flag would then join the reports of strangers. They stay public (they are nobody's), and
# come without the cookie: a browser gets its id with the first page it shows.
SHARED = ("/rules/", "/static/", "/replay-assets/")


async def give_device(request: Request, call_next):
    """HTTP middleware: a browser that sent no device id gets one with this answer (not with a
    shared resource, SHARED)."""
    response = await call_next(request)
    if device_of(request) is None and not request.url.path.startswith(SHARED):
        response.set_cookie(COOKIE, secrets.token_urlsafe(16), max_age=MAX_AGE, path="/", httponly=True,
                            samesite="lax")
    return response
