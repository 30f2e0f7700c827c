"""Fuzzed input against a real server: the JSON API from its own OpenAPI schema (schemathesis),
and every HTML form with random fields (hypothesis). Whatever comes in: never a server error, and
the log's hash chain stays whole."""
from __future__ import annotations

import re

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.store import EventStore
from tests.web.conftest import Api, new_event
from tests.web.server import Server
from judge.web.actions import ACTIONS

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    with Server(str(tmp_path_factory.mktemp("fuzz") / "event.db")) as s:
        api = Api(s.url, s.token)
        tid = new_event(api, 9)
        api.do(tid, "pair")
        s.tid = tid
        s.mid = api.do(tid, "create_matches")["matches"]["1"]
        yield s
        api.http.close()


def test_the_json_api_never_fails_on_fuzzed_input(fuzz_server):
    """Every operation of /openapi.json, 25 generated cases each, with the organizer's token and
    the real tournament's and match's ids (so that the fuzzing reaches past authorization into the
    actions)."""
    schema = schemathesis.openapi.from_url(fuzz_server.url + "/openapi.json")
    operations = [r.ok() for r in schema.get_all_operations()]
    assert len(operations) == 17  # every /api route

    for op in operations:
        @given(case=op.as_strategy())
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
        def run(case):
            if "tid" in (case.path_parameters or {}):
                case.path_parameters["tid"] = fuzz_server.tid
            if "mid" in (case.path_parameters or {}):
                case.path_parameters["mid"] = fuzz_server.mid
            response = case.call(headers={"Authorization": f"Bearer {fuzz_server.token}"})
            assert response.status_code < 500, (case.method, case.path, case.body, response.text[:500])

        run()


text = st.one_of(st.text(max_size=40), st.sampled_from(["", "0", "-1", "2-1", "99999999999", "Player 00", "\x00",
                                                        "<script>alert(1)</script>", "' OR 1=1 --", "keep", "reseed"]))


@given(action=st.sampled_from(sorted(ACTIONS)), fields=st.dictionaries(
    st.sampled_from(["names", "player", "reason", "round", "table", "result", "lines", "minutes", "choice",
                     "warning", "role", "name", "token_id", "overwrite", "again", "size", "csv", "player_a",
                     "player_b", "allow_similar"]), text, max_size=6))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_form_refuses_garbage_with_a_message(fuzz_server, action, fields):
    post_garbage(fuzz_server, f"/t/{fuzz_server.tid}", f"/t/{fuzz_server.tid}/do/{action}", fields,
                 (204, 200, 403, 404, 409, 422))


@given(action=st.sampled_from(["record", "do/undo", "do/call", "do/ruling", "do/penalty", "do/backup", "do/extend",
                               "do/time"]),
       fields=st.dictionaries(st.sampled_from(["line", "seen", "typed", "reason", "at", "player", "text", "rule",
                                               "call", "penalty", "infraction", "minutes_late", "to", "minutes",
                                               "facts", "policy", "clock"]),
                              st.one_of(text, st.sampled_from(["A: refresh", "T1 A:", "judge Kim: ruling x", "1", "0",
                                                               "OPTCG-PG-SLOW-PLAY", "Warning", "Suspension"])),
                              max_size=6))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_match_form_refuses_garbage_with_a_message(fuzz_server, action, fields):
    post_garbage(fuzz_server, f"/m/{fuzz_server.mid}/record", f"/m/{fuzz_server.mid}/{action}", fields,
                 (200, 403, 404, 409, 422))


def post_garbage(server, page_path: str, post_path: str, fields: dict, allowed: tuple[int, ...]) -> None:
    """A form posted as a browser would (the page's CSRF token, htmx's header) with garbage fields:
    never a server error, only a refusal the page can show."""
    page = httpx.get(f"{server.url}{page_path}", params={"k": server.token}).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = httpx.post(f"{server.url}{post_path}", data={"k": server.token, "csrf": csrf, **fields},
                   headers={"HX-Request": "true"})
    assert r.status_code < 500, (post_path, fields, r.text[:300])
    assert r.status_code in allowed, (post_path, fields, r.status_code)


def test_the_chain_is_whole_after_the_fuzzing(fuzz_server):
    with EventStore.open(fuzz_server.db) as s:
        assert s.verify(fuzz_server.tid).ok
        assert s.verify(fuzz_server.mid).ok
