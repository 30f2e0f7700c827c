"""Findings: what the validator says about an event. A list of problems, never an exception."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Rule:
    """One rule of a rulebook as the project knows it.

    `status` is "checked" (a check enforces it), "recorded" (events record it, nothing checks it)
    or "n/a" (does not apply to a recorded log); `why` explains anything but "checked".
    `quote` is the rulebook's own words, in its own language; `en` renders them in English (the
    quote stays the citation). `source` names where the quote comes from when that is not the
    ruleset's rulebook (a log format an importer checks); empty for the rulebook's own rules.
    """

    id: str
    section: str
    title: str
    status: Literal["checked", "recorded", "n/a"]
    quote: str = ""
    why: str = ""
    en: str = ""
    source: str = ""


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    position: int
    message: str
    section: str = ""
    quote: str = ""
    source: str = ""  # the rulebook file
    en: str = ""  # the rule's words in English (the quote stays the citation)
    title: str = ""  # the rule's short English label: the heading where the section is the rulebook's own

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def finding(rule: Rule, position: int, message: str, *, severity: Severity = "error",
            source: str = "") -> Finding:
    """A finding for `rule` at `position`, carrying the rule's citation."""
    return Finding(rule=rule.id, severity=severity, position=position, message=message,
                   section=rule.section, quote=rule.quote, source=rule.source or source, en=rule.en,
                   title=rule.title)
