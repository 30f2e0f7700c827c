"""What is the same on every judge call page of a ruleset, served once and cached (`GET
/rules/RULESET.json`): every rule a ruling or backup may cite, with its words, and the penalty
guide's infractions with theirs. It was ~62 KB of every call page (of ~149 KB), sent again on each
page a judge opens on a phone over the hall's Wi-Fi; the page now links it with its version and its
script fetches it (judge/web/static/desk.js), while the forms work without it (no JS: the selects
name each rule and infraction, the cited rule's words are on the page).

    r = resource("optcg")      # Resource(body, etag, version), made once per ruleset
    rule_choices("optcg")      # every rule a ruling may cite, with its words (once per ruleset too)
    rule_options("optcg")      # ((id, label), ...): the selects' options
    r.url                      # "/rules/optcg.json?v=<version>": what the page links
    label(rule)                # "OPTCG-BATTLE-8 — Battle step": a rule's <option> words

Public: the rulebooks' and the guide's words, nothing of an event (no token, as the replay assets)."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from engine.catalogue import load as load_catalogue
from engine.penalty_guide import guide_for
from engine.rulesets import get_ruleset

LABEL_TITLE = 60  # characters of a rule's title in its <option>: the desk's rules have a sentence for one


# Made once per process per ruleset, as `resource` is (the call page built them again on every render,
# ~300 rules with their words, for a list that cannot change): a ruleset's rules are a class attribute of
# code (engine/rulesets, `Ruleset.rules`) and the desk's come from a file shipped with the package, both
# loaded once; a new rule is a new release, hence a new process. Read-only (tuples of read-only
# mappings): every caller shares the one copy, and a page that changed a rule's words would change
# them for every later page.
@cache
def rule_choices(ruleset: str) -> tuple[Mapping[str, str], ...]:
    """Every rule a ruling on `ruleset` (its name) may cite: the ruleset's and the desk's, each with
    its words (UnknownRuleset for a name no ruleset has). Read-only: `dict(rule)` for a copy."""
    desk = load_catalogue("engine", "desk_rules.toml").rules
    return tuple(MappingProxyType({"id": r.id, "title": r.title, "section": r.section, "en": r.en, "quote": r.quote})
                 for r in list(get_ruleset(ruleset).rules) + list(desk))


@cache
def rule_options(ruleset: str) -> tuple[tuple[str, str], ...]:
    """The call page's rule <option>s: (id, label) of each of rule_choices(ruleset); made once, as it."""
    return tuple((r["id"], label(r)) for r in rule_choices(ruleset))


def label(rule: Mapping[str, str]) -> str:
    """A rule's words in a select: its id and its title, cut at a word near LABEL_TITLE characters.
    The select is on the page twice (ruling, backup) and a phone's picker shows a line of each; the
    rule's full words show beside it once picked (the page's cite box)."""
    title = rule["title"]
    if len(title) > LABEL_TITLE:
        title = title[:LABEL_TITLE].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return f"{rule['id']} — {title}"


@dataclass(frozen=True)
class Resource:
    ruleset: str
    body: bytes
    etag: str      # a strong ETag: the body's hash, quoted
    version: str   # the hash's start, in the page's link: a new version is a new URL

    @property
    def url(self) -> str:
        return f"/rules/{self.ruleset}.json?v={self.version}"


@cache
def resource(ruleset: str) -> Resource:
    """The ruleset's rules and its guide's infractions as JSON, with their hash (UnknownRuleset for a
    name no ruleset has). Made once per process: both come from files shipped with the code."""
    rs = get_ruleset(ruleset)
    data = {"ruleset": rs.name, "rules": [dict(r) for r in rule_choices(rs.name)],
            "infractions": [i.to_dict() for i in guide_for(rs.name).infractions]}
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    digest = hashlib.sha256(body).hexdigest()
    return Resource(rs.name, body, f'"{digest}"', digest[:16])
