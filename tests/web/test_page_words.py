"""Words a page shows a person (QA75 6): no programmer's `field 'x':` prefix on a player's phone,
the web's way to replace a result (not a CLI flag), and examples that follow the event's match
format (a best-of-one event's grid said `12 2-1`, its judges' queue `2-1-0`: both refused there)."""
from __future__ import annotations

import html as htmllib
import re

from tests.web.conftest import events, new_event, player_tokens


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_a_players_refusal_reads_without_the_field_prefix(api):
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    k = player_tokens(api, tid)[1]
    for who, slip in ((t1["player1"], "2-0"), (t1["player2"], "0-2")):  # both agree: confirmed
        assert api.post(f"/api/t/{tid}/report", {"player": who, "result": slip}, token=k).status_code == 200
    page = api.http.get(f"/t/{tid}/play", params={"k": k, "me": t1["player1"]}).text
    r = api.http.post(f"/t/{tid}/play", data={"k": k, "csrf": csrf_of(page), "player": t1["player1"],
                                              "result": "0-2-0"})
    assert r.status_code == 409
    said = htmllib.unescape(re.search(r'id="refusal">(.*?)</div>', r.text, re.S).group(1))
    assert "result is confirmed" in said and "field '" not in said, said
    # the API keeps the field (a client marks its input by it)
    r = api.post(f"/api/t/{tid}/report", {"player": t1["player1"], "result": "0-2"}, token=k)
    assert r.json()["field"] == "result" and r.json()["error"].startswith("field 'result': ")


def test_a_result_to_replace_is_told_the_web_way_on_a_page(api):
    tid = new_event(api, 4)
    api.do(tid, "pair")
    api.post(f"/api/t/{tid}/results", {"table": 1, "result": "2-0"})
    grid = api.http.get(f"/t/{tid}/grid", params={"k": api.token}).text
    before = len(events(api, tid))
    r = api.http.post(f"/t/{tid}/do/record_results", data={"k": api.token, "csrf": csrf_of(grid), "entry": "1 0-2"})
    assert r.status_code == 409
    said = htmllib.unescape(re.search(r'role="alert">(.*?)</div>', r.text, re.S).group(1))
    assert "table 1 has" in said and "answer Replace" in said and "--overwrite" not in said, said
    assert len(events(api, tid)) == before


def test_a_best_of_one_events_examples_are_best_of_one(api):
    tid = new_event(api, 4, game="optcg")  # optcg: Swiss best of one
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    grid = api.http.get(f"/t/{tid}/grid", params={"k": api.token}).text
    assert 'placeholder="12 1-0"' in grid and "<kbd>12 1-0</kbd>" in grid and "<kbd>12.1.0</kbd>" in grid
    assert "2-1" not in grid
    r = api.http.post(f"/t/{tid}/do/record_results", data={"k": api.token, "csrf": csrf_of(grid), "entry": "12"})
    assert "type the table and the result: 12 1-0 (or 12.1.0)" in htmllib.unescape(r.text)
    k = player_tokens(api, tid)[1]
    for who in ("player1", "player2"):  # both say they won: disputed
        api.post(f"/api/t/{tid}/report", {"player": t1[who], "result": "1-0"}, token=k)
    queue = api.http.get(f"/t/{tid}/queue", params={"k": api.token}).text
    assert re.search(r'name="result"[^>]*placeholder="1-0-0"', queue), queue
    # the example a judge copies is recorded, not refused
    r = api.post(f"/api/t/{tid}/do/resolve", {"table": 1, "result": "1-0-0", "reason": "seen"})
    assert r.status_code == 200, r.text


def test_who_recorded_an_event_at_a_terminal_is_said_as_where_on_every_page(api, server):
    """Review: "recorded by root" (the OS user at a terminal) was shown raw on the recorder page,
    a call's page, the replay and the appeals file (only the undo refusal said where). Every page
    says it as engine.events.recorder_words does; a link's name stays as it is; the log keeps the name."""
    from engine.store import EventStore
    from tests.web.matchsetup import mint, optcg_event, set_up
    tid, matches = optcg_event(api)
    mid = matches[1]
    set_up(server.db, mid)  # recorded by "desk", at a terminal
    judge = mint(api, tid, "judge", "Kim")
    r = api.post(f"/api/m/{mid}/do/call", {"reason": "a question"}, token=judge)
    call = r.json()["position"]
    where = "desk, at a terminal"
    recorder = htmllib.unescape(api.http.get(f"/m/{mid}/record", params={"k": judge}).text)
    assert f"{where} · " in recorder and "judge Kim (link " in recorder
    page = htmllib.unescape(api.http.get(f"/m/{mid}/call/{call}", params={"k": judge}).text)
    assert f"recorded by {where})" in page and f'<td class="muted">{where}<br>' in page
    assert f'<td class="muted">desk<br>' not in page
    rows = api.http.get(f"/m/{mid}/data.json", params={"k": judge}).json()["events"]
    said = {e["by"] for e in rows}
    assert where in said and all(by == where or "(link " in by for by in said), said
    appeals = htmllib.unescape(api.http.get(f"/m/{mid}/appeals", params={"k": judge}).text)
    assert f"recorded by {where} at " in appeals and "recorded by desk at " not in appeals
    with EventStore.open(server.db) as store:  # the stored name is unchanged
        assert {e.recorded_by for e in store.read(mid)[1:call - 1]} == {"desk"}
