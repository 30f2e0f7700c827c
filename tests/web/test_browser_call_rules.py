"""A judge's call page on a phone with the rules' words fetched once (`/rules/RULESET.json`, review:
the page was ~149 KB, ~62 KB of it those words on every call page): a rule's quote still shows where
it showed (beside the ruling's and the backup's select), the infraction's words and the guide's
suggestion beside the penalty form; a second call page of the ruleset takes the words from the
browser's cache. Screenshots in test-artifacts/serve-call-rules/."""
from __future__ import annotations

import os

import pytest

from tests.browser import needs_chromium
from tests.conftest import ROOT
from tests.web.hall import WAIT
from tests.web.matchsetup import mint, served_match
from tests.web.test_browser_match_phone import SMALL_PHONE

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-call-rules")
QUOTE = "若攻擊對手的領航卡…造成該張領航卡 1 傷害。"  # OPTCG-BATTLE-8's own words


def sent(page) -> list[int]:
    """The bytes each fetch of the rules' words took over the network on this page (0: the cache)."""
    return page.evaluate("performance.getEntriesByType('resource').filter(e => e.name.includes('/rules/'))"
                         ".map(e => e.transferSize)")


def test_a_rule_quote_shows_beside_its_select_with_the_words_fetched_once(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        kim = mint(api, tid, "judge", "Kim")
        calls = [api.post(f"/api/m/{mid}/do/call", {"reason": why}, token=kim).json()["position"]
                 for why in ("was that legal?", "and that?")]
        page = hall.page(b.new_context(**SMALL_PHONE))
        page.goto(f"{server.url}/m/{mid}/call/{calls[0]}?k={kim}")
        for form, box in (("ruling-form", "#ruling-cite"), ("backup-form", "#backup-cite")):
            page.select_option(f"#{form} select[name=rule]", "OPTCG-BATTLE-8")
            page.locator(f"{box} .quote", has_text=QUOTE).wait_for(timeout=WAIT)
            assert "deal 1 damage to that Leader" in page.locator(box).inner_text()
        page.select_option("#penalty-form select[name=player]", index=1)
        page.select_option("#penalty-form select[name=infraction]", "OPTCG-PG-LOOKING-AT-UNNECESSARY-CARDS")
        page.locator("#infraction-cite .quote", has_text="should not have been visible").wait_for(timeout=WAIT)
        suggestion = page.locator("#suggestion").inner_text()
        assert "The guide suggests Warning" in suggestion and "Looking at Unnecessary Cards" in suggestion
        hall.shot(page, "call-page-rule-quote")
        assert sent(page) and all(size > 10_000 for size in sent(page)), sent(page)  # over the network
        # another call page of the ruleset: the words come from the cache, and still show
        page.goto(f"{server.url}/m/{mid}/call/{calls[1]}?k={kim}")
        page.select_option("#ruling-form select[name=rule]", "OPTCG-BATTLE-8")
        page.locator("#ruling-cite .quote", has_text=QUOTE).wait_for(timeout=WAIT)
        assert sent(page) == [0], sent(page)  # nothing over the network: the browser's cache
        assert not hall.errors, hall.errors
