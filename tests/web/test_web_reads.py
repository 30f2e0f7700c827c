"""Review: the web desk read a match's whole log several times for one answer (at an event 300
phones hit these pages). Counted here on the app in this process, with a spy on its store's reads
of the match's stream."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from engine.store import EventStore
from judge.web.app import create_app
from tests.web.conftest import Api
from tests.web.matchsetup import mint, optcg_event, set_up


@pytest.fixture
def app_api(tmp_path) -> Iterator[tuple]:
    """The app over a fresh log in this process, an optcg event with table 1's match set up:
    (store, api, tid, mid)."""
    db = str(tmp_path / "event.db")
    store = EventStore.open(db)
    app = create_app(store, "s" * 32)
    with TestClient(app, follow_redirects=False) as client:
        api = Api("http://testserver", app.state.web.organizer_token())
        api.http.close()
        api.http = client
        tid, matches = optcg_event(api)
        set_up(db, matches[1])
        app.state.web.desk.catch_up()
        yield store, api, tid, matches[1]
    store.close()


@contextmanager
def reads_of(store: EventStore, mid: str) -> Iterator[list[tuple[int, int | None]]]:
    """The reads of stream `mid` made meanwhile, each as (after, upto)."""
    seen: list[tuple[int, int | None]] = []
    real = store.read_dicts

    def spy(match, *, after=0, upto=None):
        if match == mid:
            seen.append((after, upto))
        return real(match, after=after, upto=upto)

    store.read_dicts = spy
    try:
        yield seen
    finally:
        del store.read_dicts


def head(api, mid: str) -> int:
    return api.get(f"/api/m/{mid}").json()["match"]["head"]


def line(api, mid: str, token: str, text: str) -> None:
    r = api.post(f"/api/m/{mid}/lines", {"line": text, "seen": head(api, mid)}, token=token)
    assert r.status_code == 200 and r.json()["status"] == "stored", r.text


def test_a_scorekeepers_recorder_page_reads_the_moved_log_once(app_api):
    """The timeline, the table as this link knows it and its last own event each read the log
    (3 or 4 reads once the match had moved): now one read serves all three."""
    store, api, tid, mid = app_api
    sam = mint(api, tid, "recorder", "Sam", match=mid)
    line(api, mid, sam, "T1 A: refresh · don 1")
    with reads_of(store, mid) as reads:
        r = api.http.get(f"/m/{mid}/record", params={"k": sam})
    assert r.status_code == 200, r.text
    assert "Undo my #" in r.text  # the undo button names Sam's own last event
    assert len(reads) == 1, reads
    line(api, mid, sam, "A: pass")  # the log moves again: still one read, not one per use
    with reads_of(store, mid) as reads:
        assert api.http.get(f"/m/{mid}/record", params={"k": sam}).status_code == 200
    assert len(reads) == 1, reads
    with reads_of(store, mid) as reads:  # nothing moved: the page's caches answer, no read at all
        assert api.http.get(f"/m/{mid}/record", params={"k": sam}).status_code == 200
    assert reads == []


def test_a_judge_call_reads_the_log_once(app_api, monkeypatch):
    """The web's call read the log twice before storing: the calls since the page's `seen` (a
    double tap stores one call), then the whole log again for the last game event. Now once."""
    import judge.web.match_actions as match_actions
    store, api, tid, mid = app_api
    sam = mint(api, tid, "recorder", "Sam", match=mid)
    line(api, mid, sam, "T1 A: refresh")
    seen = head(api, mid)
    line(api, mid, sam, "A: don 1")  # stored since the page's `seen`: the double-tap check looks
    game = head(api, mid)
    before_storing: list[list] = []
    real = match_actions.desk_record
    with reads_of(store, mid) as reads:
        monkeypatch.setattr(match_actions, "desk_record",
                            lambda *a, **k: before_storing.append(list(reads)) or real(*a, **k))
        r = api.post(f"/api/m/{mid}/do/call", {"reason": "why", "seen": seen}, token=sam)
        again = api.post(f"/api/m/{mid}/do/call", {"reason": "why", "seen": seen}, token=sam)
    assert r.status_code == 200 and f"about event {game}" in r.json()["message"], r.text
    assert "already called" in again.json()["message"] and len(before_storing) == 1  # the double tap
    assert len(before_storing[0]) == 1, before_storing


def test_a_calls_page_rendered_again_replays_no_time_decision(app_api, monkeypatch):
    """Review: the call page's Appeal list worked the time decisions' staleness out again on every
    live re-render (a replay of the log per decision), though the cached timeline knew it. Now the
    timeline carries it: a second render of an unmoved log replays none; the marks are the same."""
    import engine.decisions as decisions
    from judge.desk.actions import appeal_choices
    from engine.match import Match
    store, api, tid, mid = app_api
    judge = mint(api, tid, "judge", "Kim")
    r = api.post(f"/api/m/{mid}/do/call", {"reason": "slow play"}, token=judge)
    call = r.json()["position"]
    api.http.get(f"/m/{mid}/call/{call}", params={"k": judge})  # the timeline walked and kept
    worked_out: list[int] = []
    real = decisions.stale_decisions
    monkeypatch.setattr(decisions, "stale_decisions", lambda *a, **k: worked_out.append(1) or real(*a, **k))
    page = api.http.get(f"/m/{mid}/call/{call}", params={"k": judge})
    assert page.status_code == 200 and f'value="{call}"' in page.text, page.text
    assert worked_out == []
    # the same marks as the list worked out alone
    tl = api.http.app.state.web.desk.matches.timeline(mid, hidden=False)
    words = {e["p"]: e["text"] for e in tl.events}
    alone = appeal_choices(Match(store, mid), words)
    assert worked_out and appeal_choices(Match(store, mid), words, stale=tl.stale) == alone
