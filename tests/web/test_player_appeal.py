"""A player appeals a judge's ruling at their own table from the table's page (a real server, the
page's own forms): the appeal is recorded as that player's act (`appeal.filed`), the head judge is
called, and the page lists each decision at the table with its appeal's status. Another table's
ruling, a staff link that is not a player's, an appeal filed or decided already and a ruling
voided since are refused with words, nothing stored."""
from __future__ import annotations

import html as htmllib
import re

from engine.store import EventStore
from tests.web.conftest import player_tokens
from tests.web.matchsetup import mint, optcg_event
from tests.web.test_player_page import csrf_of


def head(api, mid: str) -> int:
    return api.get(f"/api/m/{mid}").json()["match"]["head"]


def last_events(db: str, mid: str, n: int):
    with EventStore.open(db) as store:
        return store.read(mid)[-n:]


def ruling(api, mid: str, text: str) -> int:
    r = api.post(f"/api/m/{mid}/do/ruling", {"text": text})  # the organizer's link: a judge's act
    assert r.status_code == 200, r.text
    return r.json()["position"]


def said(html: str, cls: str) -> str:
    found = re.search(rf'<div class="{cls}"[^>]*>(.*?)</div>', html, re.S)
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", "", found.group(1)))).strip() if found else ""


def table_event(api):
    tid, matches = optcg_event(api)
    tables = {t["table"]: t for t in api.get(f"/api/t/{tid}/tables").json()}
    return tid, matches, tables, player_tokens(api, tid)


def file(api, tid: str, k: str, me: str, appealed: int, reason: str = "the card was still in play",
         page_of: str | None = None, **headers):
    page = api.http.get(f"/t/{tid}/play", params={"k": k, "me": page_of or me}).text
    return api.http.post(f"/t/{tid}/play/appeal", headers=headers,
                         data={"k": k, "csrf": csrf_of(page), "player": me, "appealed": str(appealed),
                               "reason": reason})


def test_a_player_appeals_a_ruling_at_their_own_table_as_themselves(api, server):
    tid, matches, tables, links = table_event(api)
    m1 = matches[1]
    me = tables[1]["player1"]
    r57 = ruling(api, m1, "the attack is legal")
    page = api.http.get(f"/t/{tid}/play", params={"k": links[1], "me": me}).text
    assert 'id="decision-%d"' % r57 in page and "the attack is legal" in page
    assert "Appeal this decision to the head judge" in page

    r = file(api, tid, links[1], me, r57)
    assert r.status_code == 200, r.text
    # in the player's words, as the judge-call notice: the decision by its time and words, no event number
    at = re.search(rf'id="decision-{r57}">\s*<p><span class="muted">([^<]+)</span>', page).group(1)
    assert said(r.text, "flash") == (f"Your appeal of the judge's decision at {at} (“ruling (judge organizer): the "
                                     "attack is legal”) is filed: the head judge is called to your table")
    filed, call = last_events(server.db, m1, 2)
    assert (filed.kind, filed.actor) == ("appeal.filed", me)
    assert filed.payload == {"appealed": r57, "player": me, "reason": "the card was still in play"}
    assert filed.recorded_by == "player link, round 1 table 1"
    # the head judge is called: the judges' queue shows it, and its page decides the appeal
    assert (call.kind, call.actor, call.payload["at"]) == ("judge.call", me, r57)
    queue = api.get(f"/api/t/{tid}/calls").json()
    assert any(c["position"] == call.position and c["reason"].startswith(f"appeal of event {r57}") for c in queue)
    # the call's page: its Appeal list marks the ruling appealed and pending, for the head judge's decision
    staff_call = htmllib.unescape(api.http.get(f"/m/{m1}/call/{call.position}", params={"k": api.token}).text)
    assert f"appealed by {me}, #{filed.position}: pending" in staff_call
    # the appeals file: the appeal on its ruling's page, pending; its call opens no incident of its own
    staff = api.http.get(f"/m/{m1}/appeals", params={"k": api.token}).text
    assert staff.count("<section class=\"incident\"") == 1
    assert f"{me} appeals the action at" in staff and "No decision on this appeal recorded yet: pending" in staff
    # the page lists the appeal as pending, and offers no second one
    li = re.search(rf'id="decision-{r57}">(.*?)</li>', r.text, re.S).group(1)
    assert "pending" in li and f"Appeal filed by {me}" in li and "File my appeal" not in li


def test_the_head_judge_decides_and_the_player_sees_the_decision(api):
    tid, matches, tables, links = table_event(api)
    m1, me = matches[1], tables[1]["player2"]
    r = ruling(api, m1, "no penalty")
    assert file(api, tid, links[1], me, r).status_code == 200
    d = api.post(f"/api/m/{m1}/do/appeal", {"appealed": r, "decision": "overturned", "text": "it was a draw",
                                           "by": me})
    assert d.status_code == 200, d.text
    page = api.http.get(f"/t/{tid}/play", params={"k": links[1], "me": me}).text
    li = re.search(rf'id="decision-{r}">(.*?)</li>', page, re.S).group(1)
    li = re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", "", li)))
    assert f"Appeal filed by {me}, overturned by head judge organizer: it was a draw" in li
    assert not re.search(r"#\d", li), li  # the player's page says when, not event numbers


def test_another_tables_ruling_and_staff_links_are_refused_nothing_stored(api):
    tid, matches, tables, links = table_event(api)
    m1, m2 = matches[1], matches[2]
    r2 = ruling(api, m2, "table 2's ruling")
    before = {m: head(api, m) for m in (m1, m2)}
    # table 1's link on table 2's match: 403, in words
    r = api.post(f"/api/m/{m2}/do/file_appeal", {"player": tables[2]["player1"], "appealed": r2, "reason": "x"},
                 token=links[1])
    assert r.status_code == 403, r.text
    assert r.json()["error"] == (f"this link is the players' link of round 1, table 1: it cannot appeal a judge's "
                                 f"ruling in match {m2} (round 1, table 2); ask a judge at the table")
    # a scorekeeper, a recorder: the appeal is a player's act
    sk = mint(api, tid, "scorekeeper", "Sue")
    rec = mint(api, tid, "recorder", "Sam", match=m2)
    for token in (sk, rec):
        r = api.post(f"/api/m/{m2}/do/file_appeal", {"player": tables[2]["player1"], "appealed": r2, "reason": "x"},
                     token=token)
        assert r.status_code == 403, r.text
        assert "cannot appeal a judge's ruling" in r.json()["error"]
        assert "the table's players do that, with the link of their slip's QR code" in r.json()["error"]
    # someone who does not play at the table, on the page's own form
    r1 = ruling(api, m1, "table 1's ruling")
    before[m1] = head(api, m1)
    r = file(api, tid, links[1], tables[2]["player1"], r1, page_of=tables[1]["player1"])
    assert r.status_code == 422, r.text
    words = said(r.text, "flash error")
    assert f"'{tables[2]['player1']}' does not play in this match ({tables[1]['player1']}, " in words
    assert "an appeal is a player's. Nothing was stored. Tap “I am …” with your own name on this page" in words
    assert "Scan the slip's QR code" not in words  # the link is right: the name is not
    assert {m: head(api, m) for m in (m1, m2)} == before


def test_an_appeal_filed_or_decided_already_or_of_a_voided_ruling_is_refused_in_words(api):
    tid, matches, tables, links = table_event(api)
    m1 = matches[1]
    p1, p2 = tables[1]["player1"], tables[1]["player2"]
    r = ruling(api, m1, "the draw stands")
    assert file(api, tid, links[1], p1, r).status_code == 200
    before = head(api, m1)
    # the opponent's second appeal of the same ruling: one hearing
    again = file(api, tid, links[1], p2, r, reason="me too")
    assert again.status_code == 422, again.text
    words = said(again.text, "flash error")
    # the decision by its time (the player's page lists it so), its number for the staff
    assert re.match(rf"the judge's decision at \d\d:\d\d \S+ \(event {r}\) is already appealed by {p1} at "
                    r"\d\d:\d\d \S+: ", words), words
    assert "the head judge hears both players; wait at your table. Nothing was stored." in words
    # decided: refused, naming the decision
    api.post(f"/api/m/{m1}/do/appeal", {"appealed": r, "decision": "upheld", "text": "stands"})
    before = head(api, m1)
    decided = file(api, tid, links[1], p2, r)
    assert decided.status_code == 422
    assert re.search(rf"the appeal of the judge's decision at [^(]+ \(event {r}\) is already decided: upheld by "
                     rf"head judge organizer at [^(]+ \(event {before}\)", said(decided.text, "flash error"))
    # a ruling voided since the page showed it (a stale page)
    r2 = ruling(api, m1, "a wrong ruling")
    assert api.post(f"/api/m/{m1}/do/undo", {"voids": r2, "reason": "mistake"}).status_code == 200
    before = head(api, m1)
    stale = file(api, tid, links[1], p1, r2)
    assert stale.status_code == 422
    assert re.search(rf"the judge's decision at [^(]+ \(event {r2}\) no longer counts: a correction or a backup "
                     "voided it since your page showed it; reload the page", said(stale.text, "flash error"))
    # not a judge's decision at all (the player's own call)
    call = file(api, tid, links[1], p1, r + 2)
    assert call.status_code == 422
    assert f"event {r + 2} is not a judge's ruling or decision" in said(call.text, "flash error")
    assert head(api, m1) == before


def test_the_players_list_of_decisions_reads_the_rows_it_needs_not_the_whole_log(api, server, monkeypatch):
    """A table's page is rendered on every live refresh: its list of decisions reads the rows of the
    kinds it shows, and the whole log only where its timeline must be walked again. A recorder's own
    undo (a correction no appeal may name) walks nothing."""
    from types import SimpleNamespace

    from engine.match import Match
    from judge.web.desk import Desk
    from judge.web.routes.player import table_appeals

    tid, matches, tables, links = table_event(api)
    full_reads: list[str] = []
    real_read = EventStore.read

    def read(self, mid, *a, **kw):
        full_reads.append(mid)
        return real_read(self, mid, *a, **kw)

    with EventStore.open(server.db) as store:
        web = SimpleNamespace(desk=Desk(store))
        m2 = Match(store, matches[2])
        note = m2.record("note", {"text": "a slip"}, actor="scorekeeper:Sam").event.position
        m2.record("correction", {"voids": note, "reason": "undo"}, actor="scorekeeper:Sam")
        monkeypatch.setattr(EventStore, "read", read)
        assert table_appeals(web, web.desk.matches.match(matches[2])) == []
        assert full_reads == []  # no judge action: nothing walked
        r = ruling(api, matches[1], "the attack is legal")
        m1 = web.desk.matches.match(matches[1])
        assert [a["position"] for a in table_appeals(web, m1)] == [r]  # the timeline walked once
        full_reads.clear()
        assert [a["position"] for a in table_appeals(web, m1)] == [r]
        assert full_reads == []  # the next render: the cached timeline and the few rows


def test_two_players_filing_the_same_appeal_at_once_store_one(api, server, monkeypatch):
    """Two servers on one log: both players of a table file an appeal of the same ruling at the same
    moment. Each server's check ("already filed?") reads the log before either records; the filing
    lands only right after the log its check read, so the one that lost the race is checked again
    and refused in words, naming who filed first. One filing, one head judge's call."""
    import judge.desk.actions as desk_actions
    from engine.match import InputError, Match

    tid, matches, tables, links = table_event(api)
    mid = matches[1]
    p1, p2 = tables[1]["player1"], tables[1]["player2"]
    r = ruling(api, mid, "the attack is legal")
    real_ledger = desk_actions.appeal_ledger
    raced = []

    def ledger_then_the_other_server_files(match, events=None, voided=None):
        rows = real_ledger(match, events, voided)
        if not raced:  # the other server files while this one has checked and not yet recorded
            raced.append(True)
            with EventStore.open(server.db) as other:
                desk_actions.appeal_to_head_judge(Match(other, mid), appealed=r, player=p2, reason="me first")
        return rows

    monkeypatch.setattr(desk_actions, "appeal_ledger", ledger_then_the_other_server_files)
    with EventStore.open(server.db) as store:
        m = Match(store, mid)
        m.head_position()  # this server knows the log as the page showed it
        try:
            desk_actions.appeal_to_head_judge(m, appealed=r, player=p1, reason="the card was still in play")
            refused = None
        except InputError as e:
            refused = e
        filed = [e for e in store.read(mid) if e.kind == "appeal.filed"]
    assert [(e.actor, e.payload["appealed"]) for e in filed] == [(p2, r)]
    assert refused is not None and refused.field == "appealed"
    assert f"is already appealed by {p2} at " in str(refused)
    assert "the head judge hears both players; wait at your table" in str(refused)
