"""Ruleset registry. A ruleset is found, with no edits here, as either

- a package in this folder (engine/rulesets/<game>/) whose `__init__` sets `RULESET = <Ruleset subclass>`, or
- an installed distribution's entry point in the group `tablejudge.rulesets`, naming that class.

A game's package holds everything of that game, in files with one job each (a game has those it needs):

- `__init__.py`: `RULESET`, and a line on the game and its own extra files
- `vocab.py`: the event kinds (payload schemas)
- `ruleset.py`: apply/check, outcome, deck checks, end of time when short
- `rules.toml`: the rule catalogue (id, section, status, quote in the rulebook's language, en)
- `notation.py`: its notation grammar (the notation core finds it beside the package's `__init__`)
- `words.toml`: its events in plain words, one template per kind (syntax: engine/words.py); the
  few kinds whose words need a choice or a sum are said in ruleset.py's `describe()`, or in a
  `words.py` when there are many (optcg, op2009)
- `table.py`: table helpers (zones, derived values); `time.py`: the end-of-time procedure;
  card facts and data files
- and docs/rulesets/<game>.md, which describes the game as the tool knows it.

See base.py for the interface.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from engine.rulesets.base import Decision, Option, Outcome, Ruleset
from engine.schema import shown

__all__ = ["Decision", "Option", "Outcome", "Ruleset", "available", "get_ruleset", "UnknownRuleset"]


class UnknownRuleset(LookupError):
    pass


@cache
def available() -> dict[str, type[Ruleset]]:
    found: dict[str, type[Ruleset]] = {}
    for mod in pkgutil.iter_modules(__path__):
        if not mod.ispkg or mod.name.startswith("_"):
            continue
        cls = getattr(importlib.import_module(f"{__name__}.{mod.name}"), "RULESET", None)
        if cls is not None:
            found[cls.name] = cls
    from importlib.metadata import entry_points  # here: a built-in game's start-up never pays for it

    for ep in entry_points(group="tablejudge.rulesets"):
        cls = ep.load()
        found.setdefault(cls.name, cls)
    return dict(sorted(found.items()))


def get_ruleset(name: str) -> type[Ruleset]:
    # Fast path: a built-in ruleset lives in the package of its own name (keeps start-up quick).
    if name.isidentifier() and not name.startswith("_"):
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
        else:
            cls = getattr(module, "RULESET", None)
            if cls is not None and cls.name == name:
                return cls
    rulesets = available()
    if name not in rulesets:
        close = ruleset_named(name) or _close_ruleset(name, rulesets)
        hint = f": did you mean {close!r}?" if close else ""
        raise UnknownRuleset(f"unknown ruleset {shown(name)}{hint} (available: {', '.join(rulesets)})")
    return rulesets[name]


def ruleset_named(name: str) -> str | None:
    """The ruleset `name` means with its case ignored ("OPTCG" -> "optcg"), when exactly one
    does; else None. The CLI takes that name; a file's or a payload's name is stored as written,
    so there it is only suggested."""
    if name in available():
        return name
    same = [r for r in available() if r.casefold() == name.casefold()]
    return same[0] if len(same) == 1 else None


def _close_ruleset(name: str, rulesets: dict[str, type[Ruleset]]) -> str | None:
    """The one ruleset name nearest a misspelling ("optgc" -> "optcg"), or None."""
    import difflib

    close = difflib.get_close_matches(name.casefold(), list(rulesets), n=1, cutoff=0.6)
    return close[0] if close else None
