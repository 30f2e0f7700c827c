"""docs/rulesets/op2009.md names no rule the ruleset lacks, and each end-of-time policy."""
from __future__ import annotations

import re
from pathlib import Path

from engine.rulesets.op2009.ruleset import RULESET
from engine.rulesets.op2009.time import POLICIES
from tests.conftest import ROOT as REPO_ROOT

ROOT = Path(REPO_ROOT)
DOC = (ROOT / "docs" / "rulesets" / "op2009.md").read_text(encoding="utf-8")


def test_the_doc_names_no_rule_the_module_lacks():
    ids = {r.id for r in RULESET.rules}
    mentioned = set(re.findall(r"OP09-[A-Z0-9-]+[0-9A-Z]", DOC))
    assert mentioned <= ids, mentioned - ids


def test_every_policy_is_documented():
    """(Every rule with its status, option and event kind: tests/layout/test_catalogues.py.)"""
    for p in POLICIES:
        assert f"`{p}`" in DOC, p


def test_every_rule_has_an_italian_quote_or_a_reason():
    for r in RULESET.rules:
        assert r.quote, r.id
        if r.status != "checked":
            assert r.why, f"{r.id} is {r.status} without a reason"


def test_every_rulebook_section_has_rules():
    headings = (ROOT / "tests" / "fixtures" / "op2009" / "op2009-mm25.headings.txt").read_text(encoding="utf-8")
    sections = " ".join(r.section for r in RULESET.rules).casefold()
    for key in ("Costruzione del Mazzo", "Preparazione", "Condizioni di vittoria", "Fasi di gioco",
                "Carte Tecnica", "Fase iniziale", "Fase principale", "Cominciare una Battaglia",
                "Selezionare un Personaggio avversario", "Chiamare Rinforzi", "Utilizzare Carte Tecnica",
                "Chiamare Carte Squadra", "Passare", "Confrontare le Forze", "Subire Danni",
                "Scartare le carte utilizzate", "Attivare una Abilità Speciale", "Aggiornare il Giornale",
                "Chiamare sul Ponte un nuovo Marinaio", "Muovere", "Aumentare la Mano", "Fase finale",
                "Glossario", "Carta Personaggio", "Priorità", "Cappelli di Paglia", "Carte Speciali", "Situazione Fine Tempo",
                "Errata"):
        assert key.casefold() in headings.casefold(), f"{key!r} is not a heading of the rulebook"
        assert key.casefold() in sections, f"no rule cites the section {key!r}"
