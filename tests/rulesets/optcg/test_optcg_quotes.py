"""Every quote of the optcg catalogue is the manual's own text: each part of a quote (parts are joined by
`[...]` where the quote leaves text out) appears in the manual, up to spacing, bold marks and list markers.
A quote that leaves text out without saying so fails here. (A rule with a `source` of its own, about an
imported log's format, quotes that source instead.)"""
from __future__ import annotations

import os
import re

import pytest

from engine.rulesets import get_ruleset
from tests.conftest import FIXTURES

MANUAL = os.path.join(FIXTURES, "optcg", "optcg-bandai-v1.11.zh.md")


def plain(text: str) -> str:
    """Text without layout: no list markers (`- ①`), bold marks or spacing."""
    text = re.sub(r"(?m)^\s*-\s*[①-⑳]?", "", text)
    return re.sub(r"\s+|\*\*", "", text)


TEXT = plain(open(MANUAL, encoding="utf-8").read())
RULES = [r for r in get_ruleset("optcg").rules if r.quote]
MANUALS = [r for r in RULES if not r.source]  # a rule with a source of its own quotes that source


@pytest.mark.parametrize("rule", MANUALS, ids=[r.id for r in MANUALS])
def test_quote_is_the_manuals_text(rule):
    for part in rule.quote.split("[...]"):
        assert plain(part) in TEXT, f"{rule.id}: not in the manual as quoted: {part.strip()[:60]}"


def test_a_quote_that_skips_text_silently_is_caught():
    joined = "將在費用區的 1 張活動狀態咚!!卡，以看得見的方式重疊在自己的領航卡或角色卡下面。這個動作稱為「附加」。在可能的範圍內，可以無限附加咚!!卡。"
    assert plain(joined) not in TEXT
    assert all(plain(p) in TEXT for p in joined.replace("「附加」。", "「附加」。[...]").split("[...]"))


def test_every_rule_quotes_something():
    """Except tablejudge's own checks (OPTCG-DATA-*), which quote nothing rather than pretend to quote
    the manual, and say so in their source."""
    own = [r for r in get_ruleset("optcg").rules if not r.quote]
    assert own and all(r.id.startswith("OPTCG-DATA-") and "not a rule of the manual" in r.source for r in own)
    assert len(RULES) + len(own) == len(get_ruleset("optcg").rules)
