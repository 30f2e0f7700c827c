"""What QA83 found on the web desk, on a real server: the Register, CSV import and Bye forms were still
offered once registration had closed (each refused when posted); the rules' JSON, sent to be kept by any
cache for a year, carried the browser's device cookie (a cache at the venue could hand one device id to
many phones: that id flags "both reports from one device"); HEAD on it was 405."""
from __future__ import annotations

import re

import httpx
from fastapi.responses import PlainTextResponse
from fastapi.testclient import TestClient

from engine.match import Match
from engine.store import EventStore
from judge.tournament.aggregate import Tournament, registration_closed
from judge.web.app import create_app
from judge.web.rules import resource
from tests.web.conftest import events, new_event
from tests.web.test_desk_phone_qa import csrf_of

FORMS = ("Register (one name a line)", "Import a CSV file", "Give the bye")


def test_the_desk_says_registration_is_closed_instead_of_offering_its_forms(api, server):
    tid = new_event(api, 4, rounds="1", top_cut="0")
    desk = api.http.get(f"/t/{tid}", params={"k": api.token}).text
    assert all(f in desk for f in FORMS) and 'id="registration-closed"' not in desk
    api.do(tid, "pair")  # round 1 of 1: registration closes
    desk = api.http.get(f"/t/{tid}", params={"k": api.token}).text
    assert not [f for f in FORMS if f in desk], "a form registration refuses is still offered"
    with EventStore.open(server.db) as store:
        closed = registration_closed(Tournament(store, tid).state())
    assert closed and closed.startswith("all 1 Swiss rounds are paired (round 1 of 1)")
    said = re.search(r'<p class="muted" id="registration-closed">(.*?)</p>', desk, re.S).group(1)
    assert said == f"No more entries or byes: {closed}."  # the refusal's own words, made once
    # a direct post (no JavaScript, an old page) is still refused, in the same words; nothing stored
    before = len(events(api, tid))
    r = api.http.post(f"/t/{tid}/do/register", data={"k": api.token, "csrf": csrf_of(api, f"/t/{tid}"),
                                                       "names": "Zed"})
    assert r.status_code == 422 and closed in r.text.replace("&#39;", "'"), r.text
    assert len(events(api, tid)) == before


def test_the_rules_and_static_files_carry_no_device_cookie_and_answer_head(api):
    version = resource("optcg").version
    with httpx.Client(base_url=api.url, timeout=30) as phone:  # a first visit: no device id yet
        rules = phone.get(f"/rules/optcg.json?v={version}")
        assert rules.status_code == 200 and rules.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert "set-cookie" not in rules.headers, rules.headers  # a shared cache keeps it: nobody's own
        assert "set-cookie" not in phone.get("/rules/optcg.json").headers
        for path in ("/static/copy.js", "/replay-assets/replay.js"):
            static = phone.get(path)
            assert static.status_code == 200 and "set-cookie" not in static.headers, path
        page = phone.get("/")  # a page a phone shows still gives the device its id
        assert page.headers["set-cookie"].startswith("tj_device=")
        head = phone.head(f"/rules/optcg.json?v={version}")
        assert head.status_code == 200 and head.content == b"", head.status_code
        assert head.headers["etag"] == rules.headers["etag"]
        assert head.headers["content-length"] == str(len(rules.content))
        assert head.headers["cache-control"] == rules.headers["cache-control"] and "set-cookie" not in head.headers
        assert phone.head("/rules/optcg.json", headers={"If-None-Match": rules.headers["etag"]}).status_code == 304
        assert phone.head("/rules/optgc.json").status_code == 404


def test_the_cookie_rule_is_the_responses_own_cache_control_not_a_list_of_paths(tmp_path):
    """The paths without a cookie were a list kept by hand beside app.py's mounts: a new route a cache
    may keep got the cookie unless someone remembered the list. Now what says `Cache-Control: public`
    gets none, wherever it is served, and the static files say it (with `no-cache`: asked again)."""
    store = EventStore.open(str(tmp_path / "event.db"))
    app = create_app(store, "s" * 32)

    @app.get("/a-new-shared-thing")
    async def shared_thing():
        return PlainTextResponse("the same for everyone", headers={"Cache-Control": "max-age=60, PUBLIC"})

    @app.get("/a-new-private-thing")
    async def private_thing():
        return PlainTextResponse("yours", headers={"Cache-Control": "private, max-age=60"})

    try:
        with TestClient(app) as phone:
            assert "set-cookie" not in phone.get("/a-new-shared-thing").headers
            assert phone.get("/a-new-private-thing").headers["set-cookie"].startswith("tj_device=")
            phone.cookies.clear()
            for path in ("/static/copy.js", "/replay-assets/replay.js"):
                static = phone.get(path)
                assert static.headers["cache-control"] == "public, no-cache" and "set-cookie" not in static.headers
                again = phone.get(path, headers={"If-None-Match": static.headers["etag"]})  # a 304 as well
                assert again.status_code == 304 and "set-cookie" not in again.headers, path
            assert phone.get("/").headers["set-cookie"].startswith("tj_device=")
    finally:
        store.close()


def test_pages_link_their_files_by_content_so_a_phone_keeps_them_without_asking_again(tmp_path):
    """The pages' scripts and styles were linked bare (`/static/htmx.min.js`): with `no-cache` a
    phone asked for each again on every page it opened, a round trip apiece on a venue's Wi-Fi. Now
    each link carries its file's content hash, and a link so versioned may be kept for good."""
    import hashlib
    import re

    from judge.web.app import STATIC

    store = EventStore.open(str(tmp_path / "event.db"))
    app = create_app(store, "s" * 32)
    try:
        with TestClient(app) as phone:
            html = phone.get("/").text
            links = re.findall(r'(?:href|src)="(/(?:static|replay-assets)/[^"]+)"', html)
            assert links and all("?v=" in link for link in links), links
            css = next(link for link in links if link.startswith("/static/web.css"))
            assert css.endswith(hashlib.sha256((STATIC / "web.css").read_bytes()).hexdigest()[:10])
            kept = phone.get(css)
            assert kept.status_code == 200 and kept.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert "set-cookie" not in kept.headers
            mid = Match.create(store, "optcg", ["Ann", "Bob"], recorded_by="test").id
            viewer = phone.get(f"/m/{mid}").text  # the replay viewer's page: its own template
            files = re.findall(r'(?:href|src)="(/replay-assets/[^"]+)"', viewer)
            assert files and all("?v=" in f for f in files), files
            for other in ("/static/web.css", "/static/web.css?v=deadbeef00", "/static/web.css?v="):
                # not the link of today's content (an old server's page, a typed one): asked again
                assert phone.get(other).headers["cache-control"] == "public, no-cache", other
    finally:
        store.close()
