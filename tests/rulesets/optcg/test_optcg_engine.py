"""optcg: derived power, outcome, end of time (policy bandai), deterministic replay, the docs page,
the example match, the card database and its commands."""
from __future__ import annotations

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.match import Match
from engine.rulesets import get_ruleset
from engine.rulesets.optcg import table as T
from engine.store import EventStore
from judge.io import carddb
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.io.importers import jsonl
from tests.rulesets.optcg.support import CARDS_JSON, HERE, ev, judge, opening, turn_start

A, B = "Ann", "Bob"
ROOT = os.path.dirname(HERE)
EXAMPLE = os.path.join(ROOT, "examples", "optcg", "match.jsonl")


def power_of(state, player, code):
    card = next(c for z in ("leader", "characters") for c in state.zone(player, z) if c.code == code)
    return T.power(state, player, card)


# --- power ---------------------------------------------------------------------------------------

def test_power_is_base_plus_don_in_own_turn_plus_modifiers():
    events = opening() + [ev("don.attach", {"player": A, "card": "OP01-016", "count": 2}),
                          ev("power.mod", {"player": A, "card": "OP01-016", "amount": 1000, "duration": "turn", "by": "x"})]
    s, _, _ = judge(events)
    assert power_of(s, A, "OP01-016") == 2000 + 2000 + 1000
    s, _, _ = judge(events + [ev("turn.end", {"player": A}), ev("turn", {"player": B})])
    # Bob's turn: the DON!! give nothing, the turn's +1000 has ended
    assert power_of(s, A, "OP01-016") == 2000
    s, _, _ = judge(events + [ev("turn.end", {"player": A}), ev("turn", {"player": B}), ev("refresh", {"player": B}),
                              ev("draw", {"player": B}), ev("don", {"player": B})])
    assert len(s.zone(A, "attached")) == 2  # Ann's DON!! return only in Ann's refresh


def test_counter_lasts_for_the_battle_only():
    events = opening() + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                          ev("counter", {"player": B, "card": "OP01-013"})]
    s, _, _ = judge(events)
    assert power_of(s, B, "OP01-001") == 6000
    s, _, _ = judge(events + [ev("damage.step", {}), ev("battle.end")])
    assert power_of(s, B, "OP01-001") == 5000


def test_ko_returns_attached_don_rested():
    events = opening() + [ev("don.attach", {"player": A, "card": "OP01-016", "count": 2}),
                          ev("ko", {"player": A, "card": "OP01-016", "by": "an effect"})]
    s, findings, _ = judge(events)
    assert findings == []
    assert len(s.zone(A, "attached")) == 0
    assert sum(1 for c in s.zone(A, "cost") if T.is_rested(c)) == 2


def test_summary_lines_and_key_counters():
    s, _, rs = judge(opening())
    lines = rs.summary_lines(s)
    assert any("Life 5" in line and "cost area 3 active" in line for line in lines)
    assert any("OP01-016" in line and "power 2000" in line for line in lines)
    assert rs.key_counters(s)[A]["life"] == 5


# --- outcome -------------------------------------------------------------------------------------

def test_outcome_life():
    events = opening() + [ev("life.taken", {"player": B, "by": "x"})] * 5 + [
        ev("don.attach", {"player": A, "card": "OP01-016", "count": 3}),
        ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}), ev("damage.step", {})]
    s, _, rs = judge(events)
    out = rs.outcome(s)
    assert (out.result, out.winner, out.how) == ("win", A, "life")
    assert "Life" in out.explanation[0] or "生命值" in out.explanation[0]


def test_outcome_deck_out_and_concession():
    s, _, rs = judge(opening() + [ev("draw", {"player": A, "count": 39, "by": "x"})])
    assert (rs.outcome(s).winner, rs.outcome(s).how) == (B, "deck-out")
    s, _, rs = judge(opening() + [ev("concede", {"player": A})])
    assert (rs.outcome(s).winner, rs.outcome(s).how) == (B, "concession")
    s, _, rs = judge(opening())
    assert rs.outcome(s) is None


# --- end of time ---------------------------------------------------------------------------------

def _turns(n_after):
    out = []
    players = [B, A]
    for k in range(n_after):
        p = players[k % 2]
        prev = A if p == B else B
        out += [ev("turn.end", {"player": prev}), *turn_start(p)]
    return out


def eot(events, **opts):
    from tests.rulesets.optcg.support import sealed
    s, _, rs = judge(events, options=opts or None)
    return rs.end_of_time(s, sealed(events), policy="bandai")


def test_end_of_time_continue_until_turn_0_plus_3():
    base = opening() + [ev("time.called", {"clock": "14:35"})]
    d = eot(base + _turns(2))
    assert d.result == "continue" and d.branch == "extra-turns"
    d = eot(base + _turns(3))
    assert d.result == "continue"  # turn 3 + 3 = 6 has begun, not ended
    last = [p for k, _, p in (base + _turns(3)) if k == "turn"][-1]["player"]
    d = eot(base + _turns(3) + [ev("turn.end", {"player": last})])
    assert d.result != "continue"


def test_end_of_time_criteria_in_order():
    base = opening() + [ev("time.called", {"clock": "14:35"})] + _turns(4)
    d = eot(base)  # Ann 5 Life, Bob 5; decks: Ann 37, Bob 37; Characters: Ann 1, Bob 1; nobody took Life
    assert (d.result, d.branch) == ("double-loss", "double-loss")
    assert len(d.steps) >= 5 and d.policy == "bandai"
    d = eot(opening() + [ev("life.taken", {"player": B, "by": "x"}), ev("time.called", {"clock": "1"})] + _turns(4))
    assert (d.result, d.winner, d.branch) == ("win", A, "life")
    d = eot(opening() + [ev("draw", {"player": B, "by": "x"}), ev("time.called", {"clock": "1"})] + _turns(4))
    assert (d.winner, d.branch) == (A, "deck")
    d = eot(opening() + [ev("play", {"player": B, "card": "OP01-016", "by": "x"}),
                         ev("time.called", {"clock": "1"})] + _turns(4))
    assert (d.winner, d.branch) == (B, "characters")
    # equal Life after each took one: the one who took the last Life card loses
    d = eot(opening() + [ev("life.taken", {"player": B, "by": "x"}), ev("life.taken", {"player": A, "by": "x"}),
                         ev("time.called", {"clock": "1"})] + _turns(4))
    assert (d.winner, d.branch) == (B, "last-life")


def test_end_of_time_order_is_an_option():
    events = opening() + [ev("life.taken", {"player": B, "by": "x"}), ev("play", {"player": B, "card": "OP01-016", "by": "x"}),
                          ev("time.called", {"clock": "1"})] + _turns(4)
    assert eot(events).winner == A
    assert eot(events, end_of_time_criteria="characters,life").winner == B


# --- determinism ---------------------------------------------------------------------------------

STEPS = [ev("play", {"player": A, "card": "OP01-013"}), ev("don.attach", {"player": A, "card": "OP01-001"}),
         ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
         ev("counter", {"player": B, "card": "OP01-024"}), ev("damage.step", {}), ev("battle.end"),
         ev("life.taken", {"player": B, "by": "x"}), ev("power.mod", {"player": A, "card": "OP01-001", "amount": 1000, "by": "x"}),
         ev("turn.end", {"player": A}), ev("turn", {"player": B}), ev("refresh", {"player": B}),
         ev("draw", {"player": B}), ev("ko", {"player": A, "card": "OP01-016", "by": "x"})]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(range(len(STEPS))), max_size=12))
def test_replay_is_deterministic(picks):
    events = opening() + [STEPS[i] for i in picks]
    s1, f1, _ = judge(events)
    s2, f2, _ = judge(events)
    assert s1.state_hash() == s2.state_hash()
    assert [f.to_dict() for f in f1] == [f.to_dict() for f in f2]


# --- docs, example -------------------------------------------------------------------------------

def test_every_rule_and_kind_is_in_the_docs():
    doc = open(os.path.join(ROOT, "docs", "rulesets", "optcg.md"), encoding="utf-8").read()
    rs = get_ruleset("optcg")
    for r in rs.rules:
        assert r.id in doc, r.id
    for k in rs.kinds:
        assert f"`{k.kind}`" in doc, k.kind


EXPECTED_EXAMPLE = [  # (rule) of each finding the example match is written to raise, in order
    "OPTCG-FLOW-2", "OPTCG-TERM-12", "OPTCG-BATTLE-2", "OPTCG-BATTLE-4", "OPTCG-BATTLE-5",
    "OPTCG-BATTLE-10", "OPTCG-COST-1", "OPTCG-PLAY-2",
]


def test_example_match_raises_exactly_the_expected_findings(tmp_path):
    store = EventStore.open(str(tmp_path / "ex.db"))
    s = jsonl.import_file(store, EXAMPLE)
    m = Match(store, s.match)
    v = m.validate()
    assert [f.rule for f in v.active_findings()] == EXPECTED_EXAMPLE
    out = m.ruleset.outcome(v.state)
    assert (out.winner, out.how) == ("Ann", "life")


# --- card database and commands ------------------------------------------------------------------

def test_card_db_import_show_and_facts(tmp_path):
    db = carddb.CardDB(str(tmp_path / "cards.db"))
    assert db.import_file(CARDS_JSON) == 18
    leader = db.get("OP01-001")
    assert leader["category"] == "leader" and leader["life"] == 5 and leader["cost"] is None
    assert db.get("ST01-006")["keywords"] == ["Blocker"]
    assert db.get("OP01-031")["keywords"] == []  # "gains [Rush]" under a condition is not its own
    facts = db.facts_for(["OP01-025", "ZZ99-999"])
    assert list(facts) == ["OP01-025"] and facts["OP01-025"]["keywords"] == ["Rush"]
    payload = carddb.registration_payload(db, "Ann", "OP01-001", ["OP01-025"] * 2)
    assert payload["cards"]["OP01-001"]["life"] == 5


def test_decklist_parsing_reports_unreadable_lines():
    cards, problems = carddb.parse_decklist("4xOP01-016\n2 x OP01-013 # note\nOP01-024 x3\n\nrubbish\n")
    assert cards == ["OP01-016"] * 4 + ["OP01-013"] * 2 + ["OP01-024"] * 3
    assert len(problems) == 1 and ":5:" in problems[0]


def test_cli_cards_and_deck_check(tmp_path, capsys):
    cards = str(tmp_path / "cards.db")
    assert run_guarded(cli, ["cards", "import", CARDS_JSON, "--cards", cards]) == 0
    assert run_guarded(cli, ["cards", "show", "OP01-025", "--cards", cards, "--json"]) == 0
    capsys.readouterr()
    good = tmp_path / "good.txt"
    good.write_text("\n".join(["4xOP01-013", "4xOP01-016", "4xOP01-024", "4xOP01-025", "4xST01-006", "4xST01-012",
                               "4xOP02-013", "4xOP01-051", "4xOP01-029", "4xOP01-026", "4xST01-017", "4xOP01-030",
                               "2xOP01-031"]) + "\n")
    assert run_guarded(cli, ["deck", "check", str(good), "--leader", "OP01-001", "--cards", cards, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    bad = tmp_path / "bad.txt"
    bad.write_text("5xOP01-013\n4xOP01-070\n4xXX01-001\n")
    assert run_guarded(cli, ["deck", "check", str(bad), "--leader", "OP01-001", "--cards", cards, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {f["rule"] for f in report["findings"]} == {"OPTCG-DECK-2", "OPTCG-DECK-3", "OPTCG-DECK-4", "OPTCG-DATA-1"}
    assert report["unknown"] == ["XX01-001"]
    assert run_guarded(cli, ["cards", "show", "NOPE-001", "--cards", cards]) == 2


def test_a_deck_registered_without_card_facts_is_not_called_unknown():
    """QA 2026-11-26: every imported OPTCGSim game said "unknown card number(s): OP14-020" for a
    Leader the card data knows: the import had recorded no facts, which is not the same thing.
    QA78 LOW-4: it then said so as a breach of the 50-card rule (OPTCG-DECK-2); with no card facts a
    deck is not judged on what only they say (OPTCG-DATA-2, info), while its size still is."""
    from engine.rulesets.optcg.ruleset import RULESET, check_deck

    rs = RULESET({})
    found = check_deck(rs, "Ann", "OP14-020", [], {}, deck_size=50)
    assert [(f.rule, f.severity) for f in found] == [("OPTCG-DATA-2", "info")]
    assert found[0].message.startswith("not judged: no card data") and "unknown" not in found[0].message
    assert not found[0].quote and "not a rule of the manual" in found[0].source  # quotes no rulebook
    short = check_deck(rs, "Ann", "OP14-020", [], {}, deck_size=49)  # a size needs no card facts
    assert {f.rule for f in short} == {"OPTCG-DECK-2", "OPTCG-DATA-2"}
    facts = {"OP01-001": {"category": "leader", "colors": ["red"], "life": 5}}
    (unknown,) = [f for f in check_deck(rs, "Ann", "OP01-001", ["ZZ99-001"] * 50, facts) if f.rule == "OPTCG-DATA-1"]
    assert "unknown card number" in unknown.message
    assert "ZZ99-001 is not in the card data (cards.db or the card snapshot): a typo?" in unknown.message
