"""The Appeal form on a call's page lists the judge actions an appeal may name, by the rule
`tablejudge judge appeal` keeps (judge.desk.actions.appealable), and says which already have a
standing decision (QA80 #7: it offered a scorekeeper's void, and hid that #31 was decided)."""
from __future__ import annotations

import html
import re

from engine.match import Match
from engine.store import EventStore
from tests.conftest import run_in_process
from tests.web.decide_setup import played
from tests.web.matchsetup import mint


def options(page: str) -> dict[int, str]:
    select = re.search(r'<select name="appealed"[^>]*>(.*?)</select>', page, re.S).group(1)
    return {int(p): html.unescape(t) for p, t in re.findall(r'<option value="(\d+)">([^<]*)</option>', select)}


def test_the_appeal_form_lists_judge_actions_only_and_marks_decided_ones(api, server):
    tid, mid = played(api, server.db)
    kim = mint(api, tid, "judge", "Kim")
    call = api.post(f"/api/m/{mid}/do/call", {"reason": "was that legal?"}, token=kim).json()["position"]
    ruling = api.post(f"/api/m/{mid}/do/ruling", {"text": "the attack stands", "call": call},
                      token=kim).json()["position"]
    r = api.post(f"/api/m/{mid}/do/appeal", {"appealed": ruling, "decision": "upheld", "text": "legal"}, token=kim)
    assert r.status_code == 200, r.text
    appeal = r.json()["position"]
    with EventStore.open(server.db) as store:  # a scorekeeper's void (a recorder link's correction)
        m = Match(store, mid)
        void = m.record("correction", {"voids": 3, "reason": "misrecorded"}, actor="scorekeeper:Sam").event.position
    listed = options(api.http.get(f"/m/{mid}/call/{call}", params={"k": kim}).text)
    assert void not in listed and ruling in listed, listed
    # the mark first: a phone's closed select cuts off the end of a long option (QA81 L7)
    assert listed[ruling].startswith(f"[decided: upheld, #{appeal}] #{ruling} "), listed
    # the command keeps the same rule: the scorekeeper's void is refused in words, nothing stored
    code, out, err = run_in_process(server.db, "judge", "appeal", mid, str(void), "--decision", "upheld",
                                    "--text", "x", "-j", "HJ")
    assert code == 2 and f"event {void} is a correction recorded by scorekeeper:Sam, not by a judge" in out + err
    with EventStore.open(server.db) as store:
        assert store.head(mid).position == void


def test_a_time_decision_no_longer_current_is_marked_in_the_list(api, server):
    # QA81 M1: a stale decision, and one a later decision superseded, read like the standing one
    from judge.desk.timelimit import run
    from tests.web.decide_setup import stale_match
    tid, mid, stale = stale_match(api, server.db)
    kim = mint(api, tid, "judge", "Kim")
    call = api.post(f"/api/m/{mid}/do/call", {"reason": "time?"}, token=kim).json()["position"]
    listed = options(api.http.get(f"/m/{mid}/call/{call}", params={"k": kim}).text)
    assert listed[stale].startswith(f"[out of date] #{stale} "), listed
    with EventStore.open(server.db) as store:
        again = run(Match(store, mid), judge="Kim").recorded.position  # decided again: it supersedes the stale one
    listed = options(api.http.get(f"/m/{mid}/call/{call}", params={"k": kim}).text)
    assert listed[stale].startswith(f"[out of date, superseded by #{again}] #{stale} "), listed
    assert listed[again].startswith(f"#{again} "), listed  # the standing one, unmarked
