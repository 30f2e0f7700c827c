"""A ruleset's rules and penalty guide served once (`/rules/RULESET.json`, judge.web.rules): a judge's
call page was ~149 KB on a phone over the hall's Wi-Fi, ~62 KB of it the rules' and the guide's
words, the same on every call page of the ruleset (review). The page links them by their version,
with an ETag and a 304 for a browser that has them; the page keeps its forms whole without them."""
from __future__ import annotations

import html
import json
import re

import pytest

from engine.penalty_guide import guide_for
from engine.rulesets import get_ruleset
from judge.web import rules as rules_module
from judge.web.rules import label
from tests.web.matchsetup import mint, optcg_event, set_up


def call_page(api, server) -> tuple[str, str]:
    """An optcg match's call page as a judge opens it: (page, mid)."""
    tid, matches = optcg_event(api)
    mid = matches[1]
    set_up(server.db, mid)
    kim = mint(api, tid, "judge", "Kim")
    call = api.post(f"/api/m/{mid}/do/call", {"reason": "was that legal?"}, token=kim).json()["position"]
    r = api.http.get(f"/m/{mid}/call/{call}", params={"k": kim})
    assert r.status_code == 200, r.text
    return r.text, mid


def desk_data(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="desk-data">(.*?)</script>', page, re.S).group(1))


def test_the_call_page_links_the_rules_and_no_longer_embeds_their_words(api, server):
    page, _ = call_page(api, server)
    rules = get_ruleset("optcg").rules
    words = html.unescape(page)
    # before: every rule's quote and English, and every infraction's, were in the page (desk-data)
    assert not [r.id for r in rules if r.quote and r.quote in words], "a rule's quote is still in the page"
    assert not [r.id for r in rules if r.en and r.en in words]
    # (an infraction's quote stays: the suggestion's first step cites it, per player)
    assert not [i.id for i in guide_for("optcg").infractions if i.description in words]
    data = desk_data(page)
    assert "rules" not in data and "infractions" not in data
    assert re.fullmatch(r"/rules/optcg\.json\?v=[0-9a-f]{16}", data["rules_url"]), data
    # without a script the forms are whole: every rule is offered in both selects, every infraction in its own
    for form in ("ruling-form", "backup-form"):
        select = re.search(rf'id="{form}".*?<select name="rule"[^>]*>(.*?)</select>', page, re.S).group(1)
        assert re.findall(r'<option value="([^"]*)"', select)[1:len(rules) + 1] == [r.id for r in rules]
    # a desk rule's title is a sentence: its option says the id and the title's start (the words come once picked)
    desk11 = re.search(r'<option value="DESK-11">([^<]*)</option>', page).group(1)
    assert desk11.startswith("DESK-11 — A penalty given from the game") and desk11.endswith("…") and len(desk11) < 75
    infractions = re.search(r'<select name="infraction"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="([^"]*)"', infractions) == [i.id for i in guide_for("optcg").infractions]


def test_the_rules_carry_an_etag_and_are_not_sent_again_to_a_browser_that_has_them(api, server):
    page, _ = call_page(api, server)
    url = desk_data(page)["rules_url"]
    r = api.http.get(url)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    tag = r.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{64}"', tag) and tag[1:17] == url.rsplit("=", 1)[1]  # the link names the content
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"  # a versioned link never changes
    battle = next(x for x in r.json()["rules"] if x["id"] == "OPTCG-BATTLE-8")
    assert battle["quote"] == "若攻擊對手的領航卡…造成該張領航卡 1 傷害。" and battle["en"]
    assert [i["id"] for i in r.json()["infractions"]] == [i.id for i in guide_for("optcg").infractions]
    for sent in (tag, f"W/{tag}", f'"other", {tag}', "*"):
        again = api.http.get(url, headers={"If-None-Match": sent})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag, sent
    assert api.http.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    # unversioned (or an old version): asked again each time, answered 304 while the content is the same
    plain = api.http.get("/rules/optcg.json?v=0000")
    assert plain.headers["cache-control"] == "public, no-cache" and plain.headers["etag"] == tag
    assert api.http.get("/rules/optcg.json", headers={"If-None-Match": tag}).status_code == 304
    other = api.http.get("/rules/op2009.json")
    assert other.status_code == 200 and other.headers["etag"] != tag
    unknown = api.http.get("/rules/optgc.json")
    assert unknown.status_code == 404 and "did you mean 'optcg'" in unknown.json()["error"], unknown.text


def test_each_suggestion_step_is_said_once_on_the_page(api, server):
    # the page shrinks (the rules' words out; each suggestion step said once): asserted by what is no
    # longer in it, above; here only that the suggestions' steps are each said once
    page, _ = call_page(api, server)
    data = desk_data(page)
    assert len(data["steps"]) == len(set(data["steps"]))
    ann = next(iter(data["suggestions"].values()))
    assert all(isinstance(n, int) and n < len(data["steps"]) for s in ann.values() for n in s["steps"])


def test_the_rule_choices_are_made_once_per_ruleset_not_on_every_call_page(monkeypatch):
    """The call page built every rule's entry and label again on each render, for a list that only the
    ruleset (code, loaded once) decides: made once per process per ruleset now, as the resource is."""
    loads = []
    real = rules_module.load_catalogue
    monkeypatch.setattr(rules_module, "load_catalogue", lambda *a: loads.append(a) or real(*a))
    rules_module.rule_choices.cache_clear()
    rules_module.rule_options.cache_clear()
    first = rules_module.rule_choices("optcg")
    assert rules_module.rule_choices("optcg") is first and len(loads) == 1  # the second page: nothing built
    assert [r["id"] for r in first][:len(get_ruleset("optcg").rules)] == [r.id for r in get_ruleset("optcg").rules]
    options = rules_module.rule_options("optcg")
    assert rules_module.rule_options("optcg") is options and options[0] == (first[0]["id"], label(first[0]))
    assert rules_module.rule_choices("grandline") is not first and len(loads) == 2  # each ruleset its own


def test_the_shared_rule_choices_cannot_be_changed_by_a_caller():
    """One copy serves every page: a caller changing a rule's words would change them for every later
    call page of the ruleset. Read-only."""
    import pytest

    rule = rules_module.rule_choices("optcg")[0]
    with pytest.raises(TypeError):
        rule["title"] = "changed"  # type: ignore[index]
    assert rules_module.rule_choices("optcg")[0]["title"] != "changed"
