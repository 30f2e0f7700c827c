from __future__ import annotations

import httpx
import pytest

from tests.web.server import Server


@pytest.fixture
def server(tmp_path):
    with Server(str(tmp_path / "event.db")) as s:
        yield s


class Api:
    """The JSON API as a client program uses it: a token in the Authorization header."""

    def __init__(self, url: str, token: str):
        self.url, self.token = url, token
        self.http = httpx.Client(base_url=url, timeout=30)

    def headers(self, token: str | None = None) -> dict:
        return {"Authorization": f"Bearer {token or self.token}"}

    def get(self, path: str, token: str | None = None, **kw):
        return self.http.get(path, headers=self.headers(token), **kw)

    def post(self, path: str, json: dict | None = None, token: str | None = None):
        return self.http.post(path, json=json or {}, headers=self.headers(token))

    def do(self, tid: str, action: str, token: str | None = None, **fields):
        r = self.post(f"/api/t/{tid}/do/{action}", fields, token)
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def api(server):
    a = Api(server.url, server.token)
    yield a
    a.http.close()


EVENTS_MADE: dict[str, int] = {}  # events created per server (its URL): new_event


def new_event(api: Api, players: int = 8, **form) -> str:
    """Create a tournament through the organizer's form, register players; returns its id."""
    html = api.http.get("/", params={"k": api.token}).text
    import re
    csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    # each event of one server's log its own name: a second "Test event" is refused (found by name)
    made = EVENTS_MADE[api.url] = EVENTS_MADE.get(api.url, 0) + 1
    name = "Test event" if made == 1 else f"Test event {made}"
    data = {"k": api.token, "csrf": csrf, "name": name, "game": "op2009", "rounds": "3", "top_cut": "4",
            "seed": "7", **form}
    r = api.http.post("/create", data=data)
    assert r.status_code == 303, r.text
    tid = re.search(r"/t/(t-[0-9a-f]+)", r.headers["location"]).group(1)
    if players:
        api.do(tid, "register", names="\n".join(f"Player {i:02d}" for i in range(players)))
    return tid


def player_tokens(api: Api, tid: str, round_no: int | None = None) -> dict[int, str]:
    """Each table's player link (from the printable slips, as the QR codes carry them)."""
    import re
    params = {"k": api.token, **({"round": round_no} if round_no else {})}
    html = api.http.get(f"/t/{tid}/slips", params=params).text
    out = {}
    for table, token in re.findall(r'data-slip-table="(\d+)".*?/play\?k=([^"&]+)"', html, re.S):
        out[int(table)] = token
    return out


def events(api: Api, tid: str) -> list[dict]:
    r = api.get(f"/api/t/{tid}/audit")
    assert r.status_code == 200, r.text
    return r.json()
