"""Who may write what in a recorded match, on a real server: a recorder's link writes only its own
match (lines, undo, a judge call) and nothing of a judge's; a player's link only calls a judge for
its own table; a scorekeeper records but never rules; every refusal is a 403 with nothing stored."""
from __future__ import annotations

import re

from tests.web.conftest import events, player_tokens
from tests.web.matchsetup import mint, optcg_event, set_up


def head(api, mid: str) -> int:
    r = api.get(f"/api/m/{mid}")
    assert r.status_code == 200, r.text
    return r.json()["match"]["head"]


def test_a_recorder_link_writes_only_its_match_and_nothing_of_a_judges(api, server):
    tid, matches = optcg_event(api)
    m1, m2 = matches[1], matches[2]
    set_up(server.db, m1)
    rec = mint(api, tid, "recorder", "Sam", match=m1)
    before = {m: head(api, m) for m in (m1, m2)}
    tournament_before = len(events(api, tid))

    def refused(r, *mids):
        assert r.status_code == 403, r.text
        assert {m: head(api, m) for m in (m1, m2)} == before  # nothing stored
        assert len(events(api, tid)) == tournament_before

    # another match
    r = api.post(f"/api/m/{m2}/lines", {"line": "T1 A:", "seen": before[m2]}, token=rec)
    refused(r)
    assert r.json()["error"] == (f"this link records only match {m1}; to record match {m2} (round 1, table 2), "
                                 "ask the organizer for that match's recorder link (made on the round's page)")
    refused(api.post(f"/api/m/{m2}/do/call", {"reason": "x"}, token=rec))
    # a judge's actions on its own match
    for action, fields in (("ruling", {"text": "stands"}), ("penalty", {"player": "Player 01", "infraction": "Slow Play",
                                                                      "penalty": "Warning"}),
                           ("backup", {"to": 2, "reason": "x"}), ("extend", {"minutes": 3})):
        refused(api.post(f"/api/m/{m1}/do/{action}", fields, token=rec))
    # a line that acts as a judge
    refused(api.post(f"/api/m/{m1}/lines", {"line": 'judge Kim: ruling "stands"', "seen": before[m1]}, token=rec))
    # the tournament: staff pages, results, the audit
    refused(api.post(f"/api/t/{tid}/do/record_results", {"table": 1, "result": "1-0"}, token=rec))
    refused(api.http.get(f"/t/{tid}", params={"k": rec}))
    refused(api.get(f"/api/t/{tid}/audit", token=rec))
    refused(api.http.get(f"/m/{m2}/record", params={"k": rec}))
    # its own match: a line, then undo as the scorekeeper's correction
    r = api.post(f"/api/m/{m1}/lines", {"line": "T1 A: refresh", "seen": before[m1]}, token=rec)
    assert r.status_code == 200 and r.json()["status"] == "stored", r.text
    r = api.post(f"/api/m/{m1}/do/undo", {"voids": r.json()["head"]}, token=rec)
    assert r.status_code == 200, r.text
    data = api.get(f"/api/m/{m1}").json()
    last = data["events"][-1]
    assert (last["kind"], last["actor"]) == ("correction", "scorekeeper:Sam")
    assert "recorder Sam (link" in last["by"]
    # revoked: refused
    token_id = [e for e in events(api, tid) if e["kind"] == "access.granted"][-1]
    tid_link = re.search(r"link (\w+)", last["by"]).group(1)
    api.do(tid, "revoke", token_id=tid_link)
    assert api.post(f"/api/m/{m1}/lines", {"line": "T1 A:", "seen": head(api, m1)}, token=rec).status_code == 403
    assert token_id


def test_a_players_link_only_calls_a_judge_for_its_own_table(api, server):
    tid, matches = optcg_event(api)
    m1, m2 = matches[1], matches[2]
    links = player_tokens(api, tid)
    tables = api.get(f"/api/t/{tid}/tables").json()
    before = {m: head(api, m) for m in (m1, m2)}

    def refused(r):
        assert r.status_code == 403, r.text
        assert {m: head(api, m) for m in (m1, m2)} == before

    refused(api.post(f"/api/m/{m2}/do/call", {"player": tables[1]["player1"]}, token=links[1]))
    refused(api.post(f"/api/m/{m1}/do/call", {"player": tables[1]["player1"]}, token=links[1]))  # not at table 1
    refused(api.post(f"/api/m/{m1}/lines", {"line": "T1 A:", "seen": before[m1]}, token=links[1]))
    refused(api.post(f"/api/m/{m1}/do/ruling", {"text": "x"}, token=links[1]))
    refused(api.post(f"/api/m/{m1}/do/undo", {"voids": before[m1]}, token=links[1]))
    # the table page's own call form: its table's match, the caller one of its players
    page = api.http.get(f"/t/{tid}/play", params={"k": links[1], "me": tables[0]["player1"]}).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    refused(api.http.post(f"/t/{tid}/play/call", data={"k": links[1], "csrf": csrf, "player": tables[1]["player2"]}))
    r = api.http.post(f"/t/{tid}/play/call", data={"k": links[1], "csrf": csrf, "player": tables[0]["player1"],
                                                   "reason": "<img src=x onerror=alert(1)>"})
    assert r.status_code == 200 and "A judge is called" in r.text.replace("a judge is called", "A judge is called")
    call = api.get(f"/api/m/{m1}").json()["events"][-1]
    assert (call["kind"], call["actor"]) == ("judge.call", tables[0]["player1"])
    assert "<img" not in r.text.split("Call a judge")[0] or "&lt;img" in r.text
    assert [c["caller"] for c in api.get(f"/api/t/{tid}/calls").json()] == [tables[0]["player1"]]
    # without CSRF: refused
    refused_call = api.http.post(f"/t/{tid}/play/call", data={"k": links[1], "player": tables[0]["player1"]})
    assert refused_call.status_code == 403


def test_a_scorekeepers_tournament_link_writes_no_match_never_rules_and_never_sees_hands(api, server):
    """QA70 #11: a tournament's scorekeeper link recorded into every match of it (the QA's line to
    table 7's match was answered 422 for its content, not 403). docs/serve.md gives the recorder to
    a recorder link for that match, a judge and the organizer: the scorekeeper's link names no
    match, so every write to one is a 403 that says what link does it, and nothing is stored."""
    tid, matches = optcg_event(api)
    m1 = matches[1]
    set_up(server.db, m1)
    sk = mint(api, tid, "scorekeeper", "Lia")
    judge = mint(api, tid, "judge", "Kim")
    n = head(api, m1)
    writes = [("/api/m/{}/lines", {"line": "T1 A: refresh", "seen": n}),
              ("/m/{}/do/line", {"line": "T1 A: refresh", "seen": n}),
              ("/api/m/{}/do/undo", {"voids": n}), ("/api/m/{}/do/call", {"reason": "x"}),
              ("/api/m/{}/do/ruling", {"text": "x"})]
    for path, fields in writes:
        r = api.post(path.format(m1), fields, token=sk)
        assert r.status_code == 403, (path, r.text)
        if "ruling" not in path:  # QA: "it can record event only with a recorder link for match ..."
            what = "call a judge" if "call" in path else "undo events" if "undo" in path else "record the game's events"
            assert r.json()["error"] == (f"this scorekeeper link enters results, not a match's events: to {what} in "
                                         f"match {m1} (round 1, table 1), ask the organizer for that match's "
                                         "recorder link (made on the round's page)"), r.text
    assert api.http.get(f"/m/{m1}/record", params={"k": sk}).status_code == 403
    assert head(api, m1) == n
    # the match's own recorder link records it
    rec = mint(api, tid, "recorder", "Lia", match=m1)
    assert api.post(f"/api/m/{m1}/lines", {"line": "T1 A: refresh", "seen": n}, token=rec).status_code == 200
    assert head(api, m1) > n
    assert api.get(f"/api/m/{m1}", token=sk).json()["match"]["hidden"] is True
    assert api.get(f"/api/m/{m1}", token=judge).json()["match"]["hidden"] is False
    assert api.http.get(f"/api/m/{m1}").json()["match"]["hidden"] is True  # no token: the public view
    r = api.post(f"/api/m/{m1}/do/ruling", {"text": "the refresh stands", "rule": "OPTCG-FLOW-1"}, token=judge)
    assert r.status_code == 200, r.text
    last = api.get(f"/api/m/{m1}", token=judge).json()["events"][-1]
    assert (last["kind"], last["actor"]) == ("judge.ruling", "judge:Kim")


def test_bad_lines_are_refused_with_their_column_and_store_nothing(api, server):
    tid, matches = optcg_event(api)
    m1 = matches[1]
    set_up(server.db, m1)
    n = head(api, m1)
    bad = "T1 A: refresh · frobnicate 3"
    for line in (bad, "", "A: play", "\x00", "x" * 5000, "T7 A:"):
        r = api.post(f"/api/m/{m1}/lines", {"line": line, "seen": n})
        assert r.status_code == 422, (line, r.text)
        assert head(api, m1) == n
    r = api.http.get(f"/m/{m1}/record", params={"k": api.token})
    csrf = re.search(r'name="csrf" value="([^"]+)"', r.text).group(1)
    r = api.http.post(f"/m/{m1}/record", data={"k": api.token, "csrf": csrf, "line": bad, "seen": str(n), "typed": "1"})
    assert r.status_code == 422
    # the line stays in the box, the cursor goes to the unknown word
    assert f'data-error-col="{bad.index("frobnicate") + 1}"' in r.text and f'value="{bad}"' in r.text
    assert head(api, m1) == n
    r = api.http.post(f"/m/{m1}/record", data={"k": api.token, "line": "T1 A:", "seen": str(n)})
    assert r.status_code == 403 and head(api, m1) == n  # no CSRF token


def test_the_pages_match_writes_answer_an_api_client_in_json(api, server):
    """QA70 #11: `/m/ID/do/{line,call}` with a Bearer token answered 403 and 422 as an HTML page (and
    a done call with a redirect to a page), though the API speaks JSON: a client that sends its
    token in the header gets the API's shapes there too, the error's field included."""
    tid, matches = optcg_event(api)
    m1, m2 = matches[1], matches[2]
    set_up(server.db, m1)
    rec = mint(api, tid, "recorder", "Sam", match=m1)
    n = head(api, m1)
    for path, fields, status in ((f"/m/{m2}/do/line", {"line": "T1 A: refresh", "seen": 1}, 403),
                                 (f"/m/{m1}/do/line", {"line": "T1 A: frobnicate", "seen": n}, 422),
                                 (f"/m/{m1}/record", {"line": "T1 A: frobnicate", "seen": n}, 422),
                                 (f"/m/{m1}/do/ruling", {"text": "x"}, 403)):
        r = api.post(path, fields, token=rec)
        assert r.status_code == status and r.headers["content-type"].startswith("application/json"), (path, r.text)
        assert r.json()["error"], r.json()
        if status == 422:
            assert r.json()["field"] == "line", r.json()
    assert head(api, m1) == n
    r = api.post(f"/m/{m1}/do/call", {"reason": "x"}, token=rec)
    assert r.status_code == 200 and "a judge is called" in r.json()["message"], r.text


def test_a_refusal_page_says_try_again_only_where_trying_again_can_succeed(api, server):
    """QA73 15: the 403 page for another match's link said whom to ask, then "Go back and try
    again." — and the same link gets the same 403 every time. A 403 says to do as the message says;
    a field to correct (422) still says to try again."""
    tid, matches = optcg_event(api)
    m1, m2 = matches[1], matches[2]
    rec = mint(api, tid, "recorder", "Lia", match=m1)
    csrf = re.search(r'name="csrf" value="([^"]+)"', api.http.get(f"/m/{m1}/record", params={"k": rec}).text).group(1)
    for r in (api.http.get(f"/m/{m2}/record", params={"k": rec}),
              api.http.post(f"/m/{m2}/do/line", data={"k": rec, "csrf": csrf, "line": "T1 A: refresh", "seen": "1"})):
        assert r.status_code == 403, r.text
        assert "ask the organizer for that match" in r.text and "try again" not in r.text
        assert "Trying again with this link gets the same answer: do as the message above says." in r.text
    page = api.http.get(f"/t/{tid}", params={"k": api.token}).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = api.http.post(f"/t/{tid}/do/bye", data={"k": api.token, "csrf": csrf, "player": "Nobody at all"})
    assert r.status_code == 422 and "Go back and try again." in r.text, r.text


def test_every_action_of_both_levels_has_words_and_a_refusal_says_who_takes_it(api, server):
    """QA76 7: a scorekeeper opening the replace form, a call's page or pressing the queue's
    "Answered" got "this scorekeeper link cannot rule, give penalties, back up, replace an event or
    extend time in match ..." (a fixed list, not the act tried, and no step), and the error page
    said "do as the message above says". Every act, of a tournament and of a recorded match, has
    its words; each refusal names the act tried and who takes it; nothing is stored."""
    import html

    from judge.web.actions import ACTIONS as TOURNAMENT_ACTIONS
    from judge.web.auth import ACTION_WORDS, ACTIONS
    from judge.web.match_actions import MATCH_ACTIONS, MATCH_ACTS
    assert set(ACTION_WORDS) == set(ACTIONS)
    assert all(ACTION_WORDS[a.permission] for a in TOURNAMENT_ACTIONS.values())
    assert set(MATCH_ACTIONS) <= set(MATCH_ACTS)
    assert all(permission in ACTIONS and words for permission, words, _ in MATCH_ACTS.values())
    # one table of words: an act that is its permission whole says it as the permission does (review:
    # "record the game's events" here, "record a match's plays" there, for the same act)
    whole = {"line": "record_event", "undo": "undo_event", "call": "call_judge"}
    assert {a: MATCH_ACTS[a] for a in whole} == {a: (p, ACTION_WORDS[p], None) for a, p in whole.items()}

    tid, matches = optcg_event(api)
    m1 = matches[1]
    set_up(server.db, m1)
    r = api.post(f"/api/m/{m1}/do/call", {"reason": "slow play"}, token=mint(api, tid, "judge", "Kim"))
    call = r.json()["position"]
    sk, rec = mint(api, tid, "scorekeeper", "Sam"), mint(api, tid, "recorder", "Ria", match=m1)
    n = head(api, m1)
    where = f"in match {m1} (round 1, table 1): a judge or the organizer does that; call a judge"

    def on_a_call(who: str) -> str:  # on a call already made, "call a judge" is no step (QA80 8)
        return (f"in match {m1} (round 1, table 1): a judge answers the calls, with a judge's link (the organizer "
                f"makes them); this link is a {who}'s")

    def on_an_appeal(who: str) -> str:  # review: the appeal form is on a call's page too, and said "call a judge"
        return (f"in match {m1} (round 1, table 1): a judge records the head judge's decision, with a judge's "
                f"link (the organizer makes them); this link is a {who}'s")
    steps = {"answer": on_a_call, "appeal": on_an_appeal}
    acts = {"ruling": ("record a ruling", {"text": "x"}), "answer": ("mark a judge call answered", {"call": call}),
            "penalty": ("give a penalty", {"player": "Player 01", "infraction": "Slow Play", "penalty": "Warning"}),
            "backup": ("back the game up", {"to": 2, "reason": "x"}), "extend": ("give extra time", {"minutes": 3}),
            "time": ("decide the end of time", {"facts": "turn=1"}),
            "decide": ("decide the end of time again", {}),
            "replace": ("replace an event", {"voids": 9, "reason": "x"}),
            "appeal": ("record an appeal's decision", {"appealed": call, "decision": "upheld", "text": "x"})}
    assert {a for a, (p, _, _) in MATCH_ACTS.items() if p == "judge_match" and a in MATCH_ACTIONS} == set(acts)
    for who, token in (("scorekeeper", sk), ("recorder", rec)):
        for act, (words, fields) in acts.items():
            r = api.post(f"/api/m/{m1}/do/{act}", fields, token=token)
            assert r.status_code == 403, (who, act, r.text)
            step = steps[act](who) if act in steps else where
            assert r.json()["error"] == f"a {who} link cannot {words} {step}"
        # the pages: the replace form, a call's page, the appeals file; the queue's "Answered" form
        for path, words in ((f"/m/{m1}/replace?event=9", "replace an event"),
                            (f"/m/{m1}/call/{call}", "open a judge call's page"),
                            (f"/m/{m1}/appeals", "open the appeals file"),
                            (f"/m/{m1}/decide", "decide the end of time")):
            r = api.http.get(path, params={"k": token})
            said = html.unescape(r.text)
            assert r.status_code == 403 and f"a {who} link cannot {words} " \
                f"{on_a_call(who) if '/call/' in path else where}" in said, r.text
            assert "Nothing was stored" not in said  # a page only opened: nothing was to be stored
    page = api.http.get(f"/t/{tid}/grid", params={"k": sk}).text  # the queue shows it no button: its form's fields
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = api.http.post(f"/m/{m1}/do/answer", data={"k": sk, "csrf": csrf, "call": call}, headers={"Origin": api.url})
    assert r.status_code == 403 and f"cannot mark a judge call answered {on_a_call('scorekeeper')}" \
        in html.unescape(r.text), r.text
    assert "Nothing was stored" in html.unescape(r.text)  # a form sent: its refusal says so
    # a line acting as a judge, and an undo of another's event: who does it, and a judge's way
    r = api.post(f"/api/m/{m1}/lines", {"line": 'judge Kim: ruling "stands"', "seen": n}, token=rec)
    assert r.status_code == 403 and r.json()["error"] == ("this link cannot act as a judge (column 12: judge Kim): "
                                                          "a judge or the organizer does that; call a judge"), r.text
    r = api.post(f"/api/m/{m1}/do/undo", {"voids": 9}, token=rec)
    assert r.status_code == 409 and r.json()["message"] == (
        "not undone: event 9 was recorded by desk, at a terminal, not this link; "
        "this link cannot void another's event: a judge "
        "or the organizer does that; call a judge; nothing stored"), r.text
    r = api.post(f"/api/m/{m1}/do/undo", {"voids": 9})  # the organizer's link: a judge's way
    assert r.status_code == 409 and 'void it with a correction: "replace" on #9' in r.json()["error"], r.text
    assert head(api, m1) == n  # nothing stored


def test_a_link_for_another_tournament_is_refused_before_any_act_and_stores_nothing(api, server):
    """The grant is taken for the match's tournament (routes.common.grant_of) before any act is
    checked: a judge's link of one tournament opens and writes nothing of another's matches, nor of
    a match of no tournament (the organizer's own link only); said in words, nothing stored. (Review:
    Grant.require and match_actions.require had their own "another tournament" words, never reached.)"""
    from engine.match import Match
    from engine.store import EventStore
    tid_a, _ = optcg_event(api)
    tid_b, matches_b = optcg_event(api)
    with EventStore.open(server.db) as store:
        loose = Match.create(store, "optcg", ["Ann", "Bob"]).id  # a match of no tournament
    judge_a = mint(api, tid_a, "judge", "Kim")
    mid = matches_b[1]
    start = {m: head(api, m) for m in (mid, loose)}
    another = "this link is for another tournament: use the link (or slip) you were given for this one"
    r = api.post(f"/api/m/{mid}/do/ruling", {"text": "x"}, token=judge_a)
    assert r.status_code == 403 and r.json()["error"].startswith(another), r.text
    r = api.post(f"/api/t/{tid_b}/do/resolve", {"table": 1, "result": "2-0", "reason": "x"}, token=judge_a)
    assert r.status_code == 403 and r.json()["error"].startswith(another), r.text
    for page in (f"/m/{mid}/decide", f"/m/{mid}/record", f"/t/{tid_b}"):
        r = api.http.get(page, params={"k": judge_a})
        assert r.status_code == 403 and another in r.text.replace("&#39;", "'"), (page, r.text)
    r = api.post(f"/api/m/{loose}/do/ruling", {"text": "x"}, token=judge_a)
    assert r.status_code == 403 and r.json()["error"].startswith("this link is for one tournament only"), r.text
    assert {m: head(api, m) for m in (mid, loose)} == start
    assert api.post(f"/api/m/{loose}/do/ruling", {"text": "x"}).status_code == 200  # the organizer's own link
