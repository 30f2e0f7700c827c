"""The rulebook's worked example (EXEMPLE D'UN COMBAT, Luffy against Kaido) replays with the
energies the text gives, and the sample match records, validates and decides."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.match import Match
from engine.store import EventStore
from tests.conftest import ROOT as REPO_ROOT, load_jsonl

ROOT = Path(REPO_ROOT)
EXAMPLE = ROOT / "examples" / "onigashima" / "luffy-vs-kaido.jsonl"




@pytest.fixture
def example(tmp_path):
    store = EventStore.open(str(tmp_path / "oni.db"))
    yield load_jsonl(store, EXAMPLE)
    store.close()


def position_of(m: Match, predicate) -> int:
    return next(e.position for e in m.events() if predicate(e))


def energies(m: Match, at: int) -> tuple[int, int]:
    s = m.state(at=at)
    return s.counters["Ann"]["energy"], s.counters["Bob"]["energy"]


def test_worked_example_energies_step_by_step(example):
    m = example
    ev = m.events()
    # 1. transformations: Luffy gear fifth (32 energy), Kaido hybrid (34)
    after_transfo = position_of(m, lambda e: e.kind == "transform" and e.actor == "Bob")
    assert energies(m, after_transfo) == (32, 34)
    attacks = [e.position for e in ev if e.kind == "attack"]
    # 3. Kaido's dice remove 30 from Luffy, the failed dodge (3) leaves them, Fluide Perceptif cancels them
    assert energies(m, attacks[0]) == (2, 34)
    assert energies(m, attacks[0] + 1) == (2, 34)        # dodge 3 < 4 fails
    assert energies(m, attacks[0] + 2) == (32, 34)       # "Il ne perd donc pas d'énergie!"
    # 4. Luffy's attack is dodged with a 4: Kaido loses nothing
    dodge4 = position_of(m, lambda e: e.kind == "dodge" and e.payload["roll"] == 4)
    assert energies(m, dodge4) == (32, 34)
    # 5. Kaido: 20 energies, dodge 2 fails: "il lui en reste 12"
    assert energies(m, attacks[2] + 1) == (12, 34)
    # 6. Luffy: "Kaido perd donc 32 énergies", dodge 1 fails
    assert energies(m, attacks[3] + 1) == (12, 2)
    # 7. Fluide Royal Avancé countered: nothing changes; 8. Ulti (13) dodged on a 5
    ulti_dodge = position_of(m, lambda e: e.kind == "dodge" and e.payload["roll"] == 5)
    assert energies(m, ulti_dodge - 1) == (12, 0)  # 2 - 13, shown as 0 until dodged
    assert energies(m, ulti_dodge) == (12, 2)
    # 9. Océan destructeur, dodge 3 fails: Luffy loses the fight
    assert energies(m, ev[-2].position) == (0, 2)


def test_worked_example_validates_clean_and_scores(example):
    v = example.validate()
    assert [f.to_dict() for f in v.active_findings()] == []
    s = v.state
    assert s.counters["Bob"]["vp"] == 32      # Luffy gear fifth's victory points
    assert [c.code for c in s.zone("Bob", "won")] == ["Monkey D. Luffy (gear fifth)"]
    assert [c.code for c in s.zone("Bob", "spent")] == ["Kaido (forme hybride)"]
    assert example.ruleset.key_counters(s) == {"Ann": {"energy": 0, "vp": 0},
                                               "Bob": {"energy": 2, "vp": 32}}


def test_worked_example_recomputed_damage_matches_the_text(example):
    """The recorded figures (30, 20, 32) are the text's; the tool's recomputation agrees."""
    rs = example.ruleset
    for e in example.events():
        if e.kind == "attack" and e.payload.get("dice"):
            before = example.state(at=e.position - 1)
            assert rs.computed_loss(before, e.payload) == e.payload["energy_lost"]


def test_zoro_example_of_the_golden_rules():
    from engine.rulesets.onigashima.combat import energy_lost
    # "si son résultat de dé est 1, 1, 2, 2, 4 et 6, l'adversaire va perdre 21 énergies"
    assert energy_lost([1, 1, 2, 2, 4, 6], 6, ability_faces=[1, 2, 4], ability_energy=4) == 21
