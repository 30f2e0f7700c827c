"""A ruleset's rule catalogue, read from the `rules.toml` beside its code.

Each `[[rule]]` has `id`, `section`, `title` (a short English label), `status` (checked, recorded or
n/a), `quote` (the rulebook's own words, in its language), `en` (an English rendering of the quote) and
`why` (required for anything not checked); `source`, only when the quote is not the rulebook's (a
rule about an imported log's format cites that format's documentation). A ruleset whose text contradicts itself may list
`[[contradiction]]` tables too. Each `[[option]]` is a documented choice where the rulebook is silent or
contradicts itself: `name`, `default`, `choices` (optional: any value when absent) and `doc`. The
catalogue is data, so a new game writes TOML, not Python literals, and the docs' rule tables are
generated from the same file (`rule_table`).
"""
from __future__ import annotations

import importlib
import os
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.findings import Rule

STATUSES = ("checked", "recorded", "n/a")
RULE_KEYS = {"id", "section", "title", "status", "quote", "en", "why", "source"}
REQUIRED = ("id", "section", "title", "status")


class CatalogueError(ValueError):
    """A rules.toml that does not say what a catalogue must: names the file, the rule and the field."""


OPTION_KEYS = {"name", "default", "choices", "doc"}


@dataclass(frozen=True)
class Option:
    """A named ruleset option: where a rulebook is silent or contradicts itself, a documented choice."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    doc: str = ""


@dataclass(frozen=True)
class Catalogue:
    rules: tuple[Rule, ...]
    contradictions: tuple[tuple[str, str, str, str], ...] = ()  # (id, what, default reading, option)
    options: tuple[Option, ...] = ()


@cache
def load(package: str, filename: str = "rules.toml") -> Catalogue:
    """The catalogue in `package`'s `rules.toml` (a ruleset passes its own `__package__`)."""
    where = f"{package.replace('.', '/')}/{filename}"
    try:
        data = tomllib.loads(read_beside(package, filename))
    except tomllib.TOMLDecodeError as e:
        raise CatalogueError(f"{where}: {e}") from None
    return parse(data, where)


def read_beside(package: str, filename: str) -> str:
    """The file beside the package's code: read straight from its folder when the package is one
    (every install but a zip), which spares each CLI start importlib.resources' set-up."""
    module = importlib.import_module(package)
    folder = os.path.dirname(getattr(module, "__file__", None) or "")
    path = os.path.join(folder, filename)
    if folder and os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            return f.read()
    from importlib import resources

    return resources.files(package).joinpath(filename).read_text(encoding="utf-8")


def parse(data: dict, where: str) -> Catalogue:
    rules: list[Rule] = []
    seen: set[str] = set()
    for n, entry in enumerate(data.get("rule", []), 1):
        at = f"{where}: rule {n}" + (f" ({entry['id']})" if isinstance(entry.get("id"), str) else "")
        unknown = sorted(set(entry) - RULE_KEYS)
        if unknown:
            raise CatalogueError(f"{at}: unknown field {unknown[0]!r} (fields: {', '.join(sorted(RULE_KEYS))})")
        for key in REQUIRED:
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise CatalogueError(f"{at}: field {key!r} is required and must be text")
        for key in RULE_KEYS - set(REQUIRED):
            if not isinstance(entry.get(key, ""), str):
                raise CatalogueError(f"{at}: field {key!r} must be text")
        if entry["status"] not in STATUSES:
            raise CatalogueError(f"{at}: status must be one of {', '.join(STATUSES)}, not {entry['status']!r}")
        if entry["status"] != "checked" and not entry.get("why"):
            raise CatalogueError(f"{at}: a rule that is {entry['status']!r} says why (field 'why')")
        if entry["id"] in seen:
            raise CatalogueError(f"{at}: id {entry['id']!r} appears twice")
        seen.add(entry["id"])
        rules.append(Rule(entry["id"], entry["section"], entry["title"], entry["status"],
                          entry.get("quote", ""), entry.get("why", ""), entry.get("en", ""), entry.get("source", "")))
    contradictions = tuple((c["id"], c["what"], c["default"], c["option"])
                           for c in data.get("contradiction", []))
    return Catalogue(tuple(rules), contradictions, _options(data.get("option", []), where))


def _options(entries: list[dict[str, Any]], where: str) -> tuple[Option, ...]:
    options: list[Option] = []
    for n, entry in enumerate(entries, 1):
        at = f"{where}: option {n}" + (f" ({entry['name']})" if isinstance(entry.get("name"), str) else "")
        unknown = sorted(set(entry) - OPTION_KEYS)
        if unknown:
            raise CatalogueError(f"{at}: unknown field {unknown[0]!r} (fields: {', '.join(sorted(OPTION_KEYS))})")
        if not isinstance(entry.get("name"), str) or not entry["name"]:
            raise CatalogueError(f"{at}: field 'name' is required and must be text")
        if "default" not in entry:
            raise CatalogueError(f"{at}: field 'default' is required")
        choices = entry.get("choices", [])
        if not isinstance(choices, list):
            raise CatalogueError(f"{at}: field 'choices' must be a list")
        if choices and entry["default"] not in choices:
            raise CatalogueError(f"{at}: the default {entry['default']!r} is not one of its choices")
        if not isinstance(entry.get("doc", ""), str):
            raise CatalogueError(f"{at}: field 'doc' must be text")
        if any(o.name == entry["name"] for o in options):
            raise CatalogueError(f"{at}: option {entry['name']!r} appears twice")
        options.append(Option(entry["name"], entry["default"], tuple(choices), entry.get("doc", "")))
    return tuple(options)


def load_rules(package: str) -> tuple[Rule, ...]:
    return load(package).rules


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def rule_table(rules: tuple[Rule, ...]) -> str:
    """The docs' rule table (Markdown), one row per rule, generated from the catalogue. Status is
    checked, recorded (the events record it; nothing to flag) or n/a (nothing a log can show)."""
    rows = ["| id | section | rule | status | why (if not checked) | rulebook's words | English |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rules:
        quote = _cell(r.quote) + (f" (source: {_cell(r.source)})" if r.source else "")
        rows.append(f"| `{r.id}` | {_cell(r.section)} | {_cell(r.title)} | {r.status} | {_cell(r.why)} | "
                    f"{quote or '—'} | {_cell(r.en) or '—'} |")
    return "\n".join(rows) + "\n"


def contradiction_table(contradictions: tuple[tuple[str, str, str, str], ...]) -> str:
    """The docs' table of a text's contradictions: the reading chosen and the option for the other."""
    rows = ["| id | contradiction | reading chosen (default) | option |", "| --- | --- | --- | --- |"]
    rows += [f"| {cid} | {_cell(what)} | {_cell(default)} | `{_cell(option)}` |"
             for cid, what, default, option in contradictions]
    return "\n".join(rows) + "\n"
