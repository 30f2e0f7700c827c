"""Rule catalogues are data (rules.toml per game): each loads, every rule has English beside the original,
a bad file is refused with the file, the rule and the field named, and the docs' tables are generated
from the same files (docs/generate.py), so they cannot drift apart."""
from __future__ import annotations

import importlib.util
import os

import pytest

from engine.catalogue import CatalogueError, load, parse, rule_table
from engine.rulesets import available

from tests.conftest import ROOT


def _generator():
    spec = importlib.util.spec_from_file_location("docs_generate", os.path.join(ROOT, "docs", "generate.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(available()))
def test_every_rule_has_its_words_and_an_english_rendering(name):
    rules = available()[name].rules
    assert rules, name
    for r in rules:
        assert r.en.strip(), f"{r.id} has no English rendering (field en in its rules.toml)"
        # the generic table's rules, and a ruleset's checks of its own (OPTCG-DATA-n: the card data),
        # are the tool's: no rulebook to quote, and such a rule's source must say so
        own = r.source.startswith("tablejudge's own check, not a rule of the manual")
        if name != "table" and not own:
            assert r.quote.strip() or r.id.startswith("KEN-T-"), f"{r.id} quotes nothing"
        if own:
            assert not r.quote.strip(), f"{r.id}: a check of the tool's own must not quote as if the rulebook said it"


def test_the_desk_rules_are_a_catalogue_too():
    desk = load("engine", "desk_rules.toml").rules
    assert [r.id for r in desk] == [f"DESK-{n}" for n in range(1, 18)]
    assert all(r.en for r in desk)


def test_docs_rule_tables_are_generated_from_the_catalogues():
    assert _generator().stale_pages() == []


def test_a_changed_catalogue_makes_its_page_stale():
    gen = _generator()
    page = "<!-- BEGIN generated: rules x -->\nold\n<!-- END generated: rules -->\n"
    rules = available()["table"].rules
    assert gen.render(page, "rules", rule_table(rules), "p.md") != page
    assert rule_table(rules) in gen.render(page, "rules", rule_table(rules), "p.md")


@pytest.mark.parametrize("table, entry, message", [
    ("rule", {"id": "X-1", "section": "s", "title": "t", "status": "maybe"}, "status must be one of"),
    ("rule", {"id": "X-1", "section": "s", "title": "t", "status": "recorded"}, "says why"),
    ("rule", {"id": "X-1", "section": "s", "status": "checked"}, "field 'title' is required"),
    ("rule", {"id": "X-1", "section": "s", "title": "t", "status": "checked", "color": "red"}, "unknown field 'color'"),
    ("rule", {"id": "X-1", "section": "s", "title": "t", "status": "checked", "en": 5}, "field 'en' must be text"),
    ("option", {"default": 1}, "field 'name' is required"),
    ("option", {"name": "turns"}, "field 'default' is required"),
    ("option", {"name": "turns", "default": 7, "choices": [6, 10]}, "the default 7 is not one of its choices"),
    ("option", {"name": "turns", "default": 6, "choices": 6}, "field 'choices' must be a list"),
    ("option", {"name": "turns", "default": 6, "help": "x"}, "unknown field 'help'"),
])
def test_a_bad_catalogue_names_file_entry_and_field(table, entry, message):
    with pytest.raises(CatalogueError) as e:
        parse({table: [entry]}, "engine/rulesets/x/rules.toml")
    assert f"engine/rulesets/x/rules.toml: {table} 1" in str(e.value)
    assert message in str(e.value)


def test_a_duplicate_rule_id_is_refused():
    rule = {"id": "X-1", "section": "s", "title": "t", "status": "checked"}
    with pytest.raises(CatalogueError, match="appears twice"):
        parse({"rule": [rule, dict(rule)]}, "x.toml")


def test_options_are_read_from_the_catalogue_with_their_types():
    """Each game's options come from its rules.toml: numbers stay numbers, booleans booleans, and a
    match's options resolve against them (the default when not given, a wrong value refused)."""
    oni = available()["onigashima"]
    turns = next(o for o in oni.options if o.name == "turns")
    assert turns.default == "by-players" and turns.choices == ("by-players", 6, 10, 12)
    assert oni.resolve_options({"turns": 10})["turns"] == 10
    with pytest.raises(ValueError, match="must be one of"):
        oni.resolve_options({"turns": 7})
    ken = {o.name: o for o in available()["ken"].options}
    assert ken["profile_rule"].default is False and ken["profile_rule"].choices == (True, False)


def test_optcg_default_criteria_are_the_criteria_the_procedure_knows():
    from engine.rulesets.optcg.time import CRITERIA

    (option,) = [o for o in available()["optcg"].options if o.name == "end_of_time_criteria"]
    assert option.default == ",".join(CRITERIA)


@pytest.mark.parametrize("name", sorted(available()))
def test_each_games_page_names_every_rule_option_and_kind(name):
    """docs/rulesets/<game>.md: the rule table is generated, the options and event kinds are written
    by hand; a rule, option or kind added to the code and missing from the page fails here."""
    rs = available()[name]
    with open(os.path.join(ROOT, "docs", "rulesets", f"{name}.md"), encoding="utf-8") as f:
        page = f.read()
    missing = ([r.id for r in rs.rules if f"`{r.id}`" not in page]
               + [o.name for o in rs.options if f"`{o.name}`" not in page]
               + [k.kind for k in rs.kinds if f"`{k.kind}`" not in page])
    assert missing == []
