"""docs/rulesets/op2009.md lists every rule id of the ruleset, every event kind, and each policy."""
from __future__ import annotations

import re
from pathlib import Path

from engine.rulesets.op2009.ruleset import RULESET
from engine.rulesets.op2009.time import POLICIES
from tests.conftest import ROOT as REPO_ROOT

ROOT = Path(REPO_ROOT)
DOC = (ROOT / "docs" / "rulesets" / "op2009.md").read_text(encoding="utf-8")


def test_every_rule_id_is_in_the_doc_with_its_status():
    for r in RULESET.rules:
        row = next((line for line in DOC.splitlines() if f"`{r.id}`" in line and line.startswith("|")), None)
        assert row is not None, f"{r.id} missing from docs/rulesets/op2009.md"
        assert f"| {r.status} |" in row, f"{r.id}: status {r.status} not in its row"


def test_the_doc_names_no_rule_the_module_lacks():
    ids = {r.id for r in RULESET.rules}
    mentioned = set(re.findall(r"OP09-[A-Z0-9-]+[0-9A-Z]", DOC))
    assert mentioned <= ids, mentioned - ids


def test_every_event_kind_and_policy_is_documented():
    for k in RULESET.kinds:
        assert f"`{k.kind}`" in DOC, k.kind
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
