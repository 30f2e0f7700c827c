"""Every event kind of every ruleset is described in plain words: never the generic
`kind field=value` dump of Ruleset.describe (engine/rulesets/base.py), which `tablejudge events`, `log`
and the HTML report timeline would otherwise show."""
from __future__ import annotations

import glob
import json
import os

import pytest

from engine.rulesets import available, get_ruleset
from engine.rulesets.base import Ruleset

from tests.conftest import ROOT, run_cli
from tests.rulesets.describe_samples import event, generic_fallback, samples

RULESETS = sorted(available())


@pytest.mark.parametrize("name", RULESETS)
def test_every_kind_has_plain_words(name):
    rs = get_ruleset(name)()
    for kind, cls in rs.vocabulary().items():
        payloads = samples(name, kind, cls, rs.zones)
        assert payloads, f"{name}: no sample payload for {kind!r} (add one to HAND_WRITTEN)"
        for payload in payloads:
            cls.parse(payload)  # the sample is a real payload of the kind
            text = rs.describe(event(kind, payload))
            assert text.strip(), f"{name} {kind}: empty description"
            why = generic_fallback(text, kind, payload)
            assert why is None, f"{name} {kind}: {text!r} {why}"


def test_the_fallback_detector_catches_the_generic_form():
    generic = Ruleset.describe(get_ruleset("optcg")(), event("don", {"player": "Ann", "count": 1}))
    assert generic == "don player=Ann, count=1"
    assert generic_fallback(generic, "don", {"player": "Ann", "count": 1})
    assert generic_fallback("battle.end", "battle.end", {})


@pytest.mark.parametrize("kind,payload,words", [
    ("don", {"player": "Ann", "count": 1}, "Ann takes 1 DON!!"),
    ("refresh", {"player": "Ann"}, "Ann: refresh phase"),
    ("turn.end", {"player": "Ann"}, "Ann ends the turn"),
    ("counter", {"player": "Bob", "card": "OP06-038", "kind": "event", "paid": 1},
     "Bob counters with OP06-038 (event, paid 1)"),
    ("move", {"player": "Ann", "from_zone": "hand", "to_zone": "deck", "where": "bottom", "by": "mulligan"},
     "Ann moves a card from the hand to the bottom of deck (by mulligan)"),
    ("deck.registered", {"player": "Ann", "leader": "OP01-001", "deck_size": 50},
     "Ann registers a deck: Leader OP01-001, 50 cards, 10 DON!!"),
    ("life.taken", {"player": "Bob", "card": "OP01-016", "to": "trigger"},
     "Bob takes 1 damage: OP01-016 revealed for its [Trigger]"),
    ("ko", {"player": "Bob", "uid": "c12"}, "Bob's card c12 is K.O.'d"),
    ("battle.end", {}, "the battle ends"),
])
def test_optcg_words_a_judge_reads_aloud(kind, payload, words):
    assert get_ruleset("optcg")().describe(event(kind, payload)) == words


def test_op2009_leaves_judge_actions_to_the_desk_words():
    rs = get_ruleset("op2009")()
    text = rs.describe(event("judge.penalty", {"player": "Ann", "penalty": "Caution", "infraction": "slow play"},
                             actor="judge:Zoe"))
    assert text.startswith("penalty (judge Zoe): Caution to Ann")


EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*", "*.jsonl")))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_example_event_in_plain_words(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    rs = get_ruleset(lines[0]["payload"]["ruleset"])()
    for line in lines:
        payload = line.get("payload", {})
        text = rs.describe(event(line["kind"], payload, line.get("actor", "-")))
        assert generic_fallback(text, line["kind"], payload) is None, f"{line['kind']}: {text!r}"


def test_events_command_shows_plain_words(tmp_path):
    db = str(tmp_path / "log.db")
    imported = run_cli("import", os.path.join(ROOT, "examples", "optcg", "match.jsonl"), "--json", db=db)
    assert imported.returncode in (0, 1), imported.stderr
    match = json.loads(imported.stdout)
    match_id = (match[0] if isinstance(match, list) else match).get("match")
    out = run_cli("events", match_id, db=db)
    assert out.returncode == 0, out.stderr
    assert "Ann takes 2 DON!!" in out.stdout and "ends the turn" in out.stdout
    assert "player=" not in out.stdout
