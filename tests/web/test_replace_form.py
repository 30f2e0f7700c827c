"""A judge's replace form (`/m/ID/replace`): "event N should have read X" from the web, recorded as
`tablejudge log M correction --voids N --instead JSON` records it (one library path, one validator,
the same refusal words), a judge's link only, nothing stored on a refusal."""
from __future__ import annotations

import html
import json
import re

from engine.match import Match
from engine.store import EventStore
from tests.conftest import run_in_process
from tests.web.matchsetup import mint, optcg_event, set_up


def judged_match(api, server) -> tuple[str, str, dict[str, str]]:
    """An optcg match set up (5 Ann's draw of 5 named cards, 9 and 10 each player's 5 Life) and the
    links: (tid, match, role -> token)."""
    tid, matches = optcg_event(api)
    mid = matches[1]
    set_up(server.db, mid)
    links = {"judge": mint(api, tid, "judge", "Zoe"), "scorekeeper": mint(api, tid, "scorekeeper", "Kim"),
             "recorder": mint(api, tid, "recorder", "Sam", match=mid)}
    return tid, mid, links


def log_of(server, mid: str) -> list:
    with EventStore.open(server.db) as store:
        return Match(store, mid).events()


def form_page(api, mid: str, token: str, event: int):
    return api.http.get(f"/m/{mid}/replace", params={"k": token, "event": event})


def boxes(page: str) -> dict[str, str]:
    return {n: html.unescape(v) for n, v in re.findall(r'<input id="box-[^"]*" name="([^"]+)" value="([^"]*)"', page)}


def send(api, mid: str, token: str, event: int, **changes) -> "httpx.Response":  # noqa: F821
    """The form as the page fills it, with `changes` typed over it (`payload_count` is payload.count)."""
    page = form_page(api, mid, token, event)
    assert page.status_code == 200, page.text
    data = boxes(page.text)
    data.update({k.replace("payload_", "payload.", 1): v for k, v in changes.items()})
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    return api.http.post(f"/m/{mid}/replace", data={"k": token, "csrf": csrf, "voids": str(event), **data})


def test_the_form_is_filled_from_the_event_and_records_the_judges_replacement(api, server):
    tid, mid, links = judged_match(api, server)
    bob = log_of(server, mid)[9].actor
    page = form_page(api, mid, links["judge"], 10)
    assert page.status_code == 200, page.text
    assert boxes(page.text) == {"kind": "life.placed", "actor": bob, "payload.player": bob, "payload.count": "5",
                                "payload.cards": "", "payload.by": "", "reason": ""}
    r = send(api, mid, links["judge"], 10, payload_count="4", reason="4 placed")
    assert r.status_code == 303, r.text
    assert r.headers["location"].startswith(f"/m/{mid}/record?")
    last = log_of(server, mid)[-1]
    assert (last.kind, last.actor, last.position) == ("correction", "judge:Zoe", 11)
    assert last.payload == {"voids": 10, "reason": "4 placed", "instead": {
        "kind": "life.placed", "version": 1, "actor": bob, "payload": {"player": bob, "count": 4}}}
    recorder = api.http.get(r.headers["location"]).text
    assert f"event 10 should read: {bob} places 4 Life cards" in html.unescape(recorder)


def test_a_card_name_is_narrowed_by_the_same_resolver_and_said(api, server):
    tid, mid, links = judged_match(api, server)
    ann = log_of(server, mid)[4].actor
    r = send(api, mid, links["judge"], 5, payload_count="2", payload_cards="nami, OP01-013", reason="2 drawn")
    assert r.status_code == 303, r.text
    assert log_of(server, mid)[-1].payload["instead"]["payload"] == {"player": ann, "count": 2,
                                                                     "cards": ["OP01-016", "OP01-013"]}
    said = html.unescape(api.http.get(r.headers["location"]).text)
    assert "= nami → OP01-016, the only Nami seen in this match" in said


def test_a_number_the_card_data_lacks_is_recorded_and_said_to_the_judge(api, server):
    """QA78 LOW-3: a replacement naming OP99-999 (a typo?) is recorded, and the form's answer says so."""
    tid, mid, links = judged_match(api, server)
    r = send(api, mid, links["judge"], 5, payload_count="2", payload_cards="OP99-999, OP01-013", reason="2 drawn")
    assert r.status_code == 303, r.text
    assert log_of(server, mid)[-1].payload["instead"]["payload"]["cards"] == ["OP99-999", "OP01-013"]
    said = html.unescape(api.http.get(r.headers["location"]).text)
    assert "notice: OP99-999 is not in the card data (cards.db or the card snapshot): a typo? see `tablejudge cards find`" in said


def test_a_scorekeeper_or_a_recorder_is_refused_403_and_nothing_is_stored(api, server):
    tid, mid, links = judged_match(api, server)
    before = len(log_of(server, mid))
    for role in ("scorekeeper", "recorder"):
        page = form_page(api, mid, links[role], 10)
        assert page.status_code == 403, (role, page.text)
        assert "replace an event" in page.text and "Trying again with this link gets the same answer" in page.text
    # the judge's form, sent with a scorekeeper's link and its own CSRF token
    judge_page = form_page(api, mid, links["judge"], 10).text
    data = {**boxes(judge_page), "voids": "10", "reason": "x", "payload.count": "4"}
    for role in ("scorekeeper", "recorder"):
        csrf = re.search(r'name="csrf" value="([^"]+)"', api.http.get(
            f"/m/{mid}" if role == "scorekeeper" else f"/m/{mid}/record", params={"k": links[role]}).text)
        data_role = {**data, "k": links[role], "csrf": csrf.group(1) if csrf else ""}
        r = api.http.post(f"/m/{mid}/replace", data=data_role)
        assert r.status_code == 403, (role, r.text)
        assert "Nothing was stored" in r.text
    r = api.http.post(f"/m/{mid}/replace", data={**data, "k": links["judge"], "csrf": "forged"})
    assert r.status_code == 403 and "CSRF" in r.text
    assert len(log_of(server, mid)) == before


def cli_refusal(db: str, mid: str, voids: int, instead: dict) -> str:
    """What `tablejudge log M correction --instead` says to the terminal when it refuses (without
    the `field '...':` prefix, which a page leaves out)."""
    code, _, err = run_in_process(db, "log", mid, "correction", "--actor", "judge:Zoe", "--voids", voids,
                                  "--reason", "x", "--instead", json.dumps(instead))
    assert code == 2, err
    return re.sub(r"^field '[^']*': ", "", err.strip().removeprefix("error: "))


def refusal(page: str) -> tuple[str, str]:
    """The form's refusal and the box it marks."""
    m = re.search(r'<div class="flash error" role="alert" id="replace-error" data-box="([^"]+)">(.*?) — nothing',
                  page, re.S)
    assert m, page[:3000]
    marked = re.findall(r'name="([^"]+)" value="[^"]*"[^>]*aria-invalid="true"', page)
    assert marked == [m.group(1)], marked
    return html.unescape(m.group(2)), m.group(1)


def test_another_kind_is_refused_in_the_form_with_the_terminals_words(api, server):
    tid, mid, links = judged_match(api, server)
    before = len(log_of(server, mid))
    bob = log_of(server, mid)[9].actor
    r = send(api, mid, links["judge"], 10, kind="draw", payload_count="4", reason="x")
    assert r.status_code == 422, r.text
    said, box = refusal(r.text)
    assert box == "kind"
    assert said == cli_refusal(server.db, mid, 10, {"kind": "draw", "actor": bob,
                                                    "payload": {"player": bob, "count": 4}})
    # the terminal's words without its `field '...':` prefix, as every page says a refusal (QA76)
    assert said.startswith("event 10 is a life.placed; its replacement must be one")
    assert boxes(r.text)["kind"] == "draw" and boxes(r.text)["payload.count"] == "4"  # kept as typed
    assert len(log_of(server, mid)) == before


def test_an_unknown_card_name_is_refused_naming_the_field_and_nothing_is_stored(api, server):
    tid, mid, links = judged_match(api, server)
    before = len(log_of(server, mid))
    ann = log_of(server, mid)[4].actor
    r = send(api, mid, links["judge"], 5, payload_count="2", payload_cards="zzzzq, OP01-013", reason="x")
    assert r.status_code == 422, r.text
    said, box = refusal(r.text)
    assert box == "payload.cards"
    assert said == cli_refusal(server.db, mid, 5, {"actor": ann, "payload": {"player": ann, "count": 2,
                                                                             "cards": ["zzzzq", "OP01-013"]}})
    assert "no card is called 'zzzzq'" in said
    assert len(log_of(server, mid)) == before


def test_an_event_that_cannot_be_replaced_says_why_and_offers_no_form(api, server):
    tid, mid, links = judged_match(api, server)
    for event, words in ((1, "event 1 creates the match and cannot be voided"),):
        page = form_page(api, mid, links["judge"], event)
        assert page.status_code == 200
        assert words in html.unescape(page.text) and 'id="replace-form"' not in page.text
        assert "nothing was stored" not in page.text  # only opened: nothing was sent (QA76)
    api.post(f"/api/m/{mid}/do/call", {"reason": "look"}, token=links["recorder"])
    call = log_of(server, mid)[-1]
    page = html.unescape(form_page(api, mid, links["judge"], call.position).text)
    assert f"event {call.position} is a judge.call, not a game event" in page and 'id="replace-form"' not in page


def test_the_recorder_offers_replace_beside_game_events_to_a_judge_only(api, server):
    tid, mid, links = judged_match(api, server)
    judge = api.http.get(f"/m/{mid}/record", params={"k": links["judge"]}).text
    offered = sorted(int(p) for p in re.findall(r'data-replace="(\d+)"', judge))
    assert offered == list(range(2, 11))
    assert 'action="/m/' + mid + '/replace"' in judge  # an older event, by its number
    sam = api.http.get(f"/m/{mid}/record", params={"k": links["recorder"]}).text
    assert "data-replace=" not in sam and "/replace" not in sam


def test_the_api_replaces_with_the_forms_fields_and_refuses_as_the_terminal(api, server):
    tid, mid, links = judged_match(api, server)
    bob = log_of(server, mid)[9].actor
    fields = {"voids": 10, "reason": "4 placed", "actor": bob, "payload.player": bob, "payload.count": 4}
    r = api.post(f"/api/m/{mid}/do/replace", {**fields, "kind": "draw"}, token=links["judge"])
    assert r.status_code == 422 and r.json()["field"] == "payload.instead.kind", r.text
    r = api.post(f"/api/m/{mid}/do/replace", fields, token=links["scorekeeper"])
    assert r.status_code == 403, r.text
    assert len(log_of(server, mid)) == 10
    r = api.post(f"/api/m/{mid}/do/replace", fields, token=links["judge"])
    assert r.status_code == 200 and r.json()["position"] == 11, r.text
    assert log_of(server, mid)[-1].payload["instead"]["payload"] == {"player": bob, "count": 4}


def test_a_scorekeepers_void_does_not_overrule_the_judges_replacement(api, server):
    """QA76 #2: the recorder link's `void 10 "hmm"` was stored and superseded judge Zoe's correction."""
    tid, mid, links = judged_match(api, server)
    r = send(api, mid, links["judge"], 10, payload_count="4", reason="4 placed")
    assert r.status_code == 303, r.text
    head = len(log_of(server, mid))
    r = api.post(f"/api/m/{mid}/lines", {"line": 'void 10 "hmm"', "seen": head}, token=links["recorder"])
    assert r.status_code == 422, r.text
    assert f"event 10 was replaced by judge Zoe's correction {head}: only a judge can correct it again" \
        in r.json()["error"], r.text
    assert len(log_of(server, mid)) == head


def test_a_recorders_undo_of_its_event_a_judge_corrected_says_only_a_judge_acts(api, server):
    """QA77 #2: Sam's undo of Sam's own event that judge Zoe had since voided said only "already
    void"; it names the judge's correction and who acts now, in the library's words."""
    tid, mid, links = judged_match(api, server)
    head = len(log_of(server, mid))
    r = api.post(f"/api/m/{mid}/lines", {"line": "A: don", "seen": head}, token=links["recorder"])
    assert r.status_code == 200, r.text
    mine = head + 1
    r = api.post(f"/api/m/{mid}/lines", {"line": f'void {mine} "not so"', "seen": mine}, token=links["judge"])
    assert r.status_code == 200, r.text
    r = api.post(f"/api/m/{mid}/do/undo", {"voids": mine}, token=links["recorder"])
    assert r.status_code == 409, r.text
    assert (f"not undone: event {mine} was voided by judge Zoe's correction {mine + 1}: only a judge can "
            "correct it again; call a judge; nothing stored") == r.json()["message"], r.text
    assert len(log_of(server, mid)) == mine + 1


def test_an_empty_reason_and_the_same_replacement_twice_are_refused_in_the_form(api, server):
    """QA76 #8 (`(...5 Life cards ())` was stored) and a double submit (stored twice)."""
    tid, mid, links = judged_match(api, server)
    before = len(log_of(server, mid))
    r = send(api, mid, links["judge"], 10, payload_count="4", reason="  ")
    assert r.status_code == 422, r.text
    said, box = refusal(r.text)
    assert box == "reason" and "needs its reason" in said and not said.startswith("field")
    assert len(log_of(server, mid)) == before
    assert send(api, mid, links["judge"], 10, payload_count="4", reason="4 placed").status_code == 303
    r = send(api, mid, links["judge"], 10, payload_count="4", reason="4 placed")
    assert r.status_code == 422, r.text
    assert f'id="replace-error">event 10 already reads so: correction {before + 1} says the same — nothing was ' \
           'stored' in r.text
    assert len(log_of(server, mid)) == before + 1


def test_a_message_in_a_crafted_link_is_not_shown_as_the_desks(api, server):
    """QA76: `/m/ID/record?msg=ANY+TEXT` showed ANY TEXT as a confirmation."""
    tid, mid, links = judged_match(api, server)
    for path in (f"/m/{mid}/record", f"/t/{tid}"):
        token = links["recorder"] if "/m/" in path else links["judge"]
        page = api.http.get(path, params={"k": token, "msg": "Judge says: Bob wins"})
        assert page.status_code == 200, page.text
        assert "Bob wins" not in page.text
        forged = api.http.get(path, params={"k": token, "msg": "Judge says: Bob wins", "ms": "x" * 24})
        assert "Bob wins" not in forged.text
    r = send(api, mid, links["judge"], 10, payload_count="4", reason="4 placed")  # the server's own is shown
    assert "should read" in html.unescape(api.http.get(r.headers["location"]).text)


def test_a_refusal_with_no_form_to_show_is_said_in_the_form_area(api, server):
    """Review: a refusal whose event has no form to show again (`voids` names no event) built the
    form a second time inside the handler, which failed again: the answer was the whole error page.
    Now said where the form's answer goes (200 with the status in X-Tablejudge-Refused), nothing
    stored."""
    tid, mid, links = judged_match(api, server)
    page = form_page(api, mid, links["judge"], 10)
    data = boxes(page.text)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    before = len(log_of(server, mid))
    r = api.http.post(f"/m/{mid}/replace", data={"k": links["judge"], "csrf": csrf, **data, "voids": "999",
                                                 "reason": "miscounted"}, headers={"HX-Request": "true"})
    assert (r.status_code, r.headers.get("x-tablejudge-refused")) == (200, "422"), r.text
    assert "<html" not in r.text and "999" in html.unescape(r.text) and len(log_of(server, mid)) == before


def test_a_ruling_sent_without_htmx_comes_back_to_the_call_page_saying_so(api, server):
    """Review: the call page dropped the sealed confirmation its plain forms come back with."""
    tid, mid, links = judged_match(api, server)
    call = api.post(f"/api/m/{mid}/do/call", {"reason": "slow play"}, token=links["judge"]).json()["position"]
    page = api.http.get(f"/m/{mid}/call/{call}", params={"k": links["judge"]}).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = api.http.post(f"/m/{mid}/do/ruling", data={"k": links["judge"], "csrf": csrf, "text": "play on",
                                                     "call": str(call), "back": f"/m/{mid}/call/{call}"})
    assert r.status_code == 303 and "/call/" in r.headers["location"], r.headers
    back = api.http.get(r.headers["location"]).text
    assert re.search(r'<div class="flash" role="status">[^<]*#\d+', back), back
