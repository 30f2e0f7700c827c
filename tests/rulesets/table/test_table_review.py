"""An adversarial review of the `table` ruleset (written by someone who did not write it): edge values,
ordering, hidden cards, two players' zones, the end of the game. Each scenario has a legal half (its
last event raises nothing) and an illegal half (its last event raises the named rule).

The table has no rulebook: its rules are the physical facts of a card table (rules.toml, TABLE-1..4).
What the review found and changed is listed in docs/rulesets/table.md ("Hidden information").
"""
from __future__ import annotations

import pytest

from tests.rulesets.hidden import Shadow, assert_hiding_adds_nothing

A, B = "Ann", "Bob"


def ev(kind, actor="-", **payload):
    return (kind, actor, payload)


def judge(steps):
    sh = Shadow("table", [A, B])
    for kind, actor, payload in steps:
        sh.push(kind, actor, payload)
    return sh


def last(steps):
    sh = judge(steps)
    position = len(steps) + 1
    return [f for f in sh.findings if f.position == position]


def start(deck=10, hand=()):
    """Both decks set up face down (unknown cards); Ann's turn 1; Ann holds `hand` (known) if given."""
    out = [ev("setup", A, player=A, zone="deck", count=deck), ev("setup", B, player=B, zone="deck", count=deck),
           ev("turn", A, player=A, number=1)]
    if hand:
        out.append(ev("draw", A, player=A, count=len(hand), cards=list(hand)))
    return out


def uid_of(steps, player, zone, code):
    """An instance id as `tablejudge state` shows it after `steps` (never guessed)."""
    return judge(steps).uid(player, zone, code)


HIDDEN_HAND = start() + [ev("draw", A, player=A, count=3)]
KNOWN_HAND = start(hand=("OP01-016", "OP01-013"))
ON_FIELD = KNOWN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="field", card="OP01-016")]
FIELD_ID = uid_of(ON_FIELD, A, "field", "OP01-016")
HAND_ID = uid_of(KNOWN_HAND, A, "hand", "OP01-013")

SCENARIOS = [
    # (name, rule, legal, illegal)
    ("a card played from a hand nobody saw; from an empty hand", "TABLE-1",
     HIDDEN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="field", card="OP01-016")],
     start() + [ev("move", A, player=A, from_zone="hand", to_zone="field", card="OP01-016")]),
    ("a card played from a known hand that holds it; that holds only others", "TABLE-1",
     KNOWN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="field", card="OP01-013")],
     KNOWN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="field", card="ST01-006")]),
    ("moving as many cards as the zone holds; one more", "TABLE-1",
     HIDDEN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="trash", count=3)],
     HIDDEN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="trash", count=4)]),
    ("drawing the whole deck; one card more", "TABLE-1",
     start(deck=3) + [ev("draw", A, player=A, count=3)],
     start(deck=3) + [ev("draw", A, player=A, count=4)]),
    ("a card moved by its id from the zone it is in; from the other player's zone", "TABLE-1",
     ON_FIELD + [ev("move", A, player=A, from_zone="field", to_zone="trash", uid=FIELD_ID)],
     ON_FIELD + [ev("move", B, player=B, from_zone="field", to_zone="trash", uid=FIELD_ID)]),
    ("a card given to the other player's field, then taken from there; taken from one's own", "TABLE-1",
     KNOWN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="field", card="OP01-016", to_player=B),
                   ev("move", B, player=B, from_zone="field", to_zone="trash", card="OP01-016")],
     KNOWN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="field", card="OP01-016", to_player=B),
                   ev("move", A, player=A, from_zone="field", to_zone="trash", card="OP01-016")]),
    ("turns 1, 2, 3; turn 1 then 3", "TABLE-2",
     start() + [ev("turn", B, player=B, number=2), ev("turn", A, player=A, number=3)],
     start() + [ev("turn", B, player=B, number=3)]),
    ("a turn without a number, then the next number; a number repeated", "TABLE-2",
     start() + [ev("turn", B, player=B), ev("turn", A, player=A, number=3)],
     start() + [ev("turn", B, player=B, number=2), ev("turn", A, player=A, number=2)]),
    ("a judge's note after a concession; a move after it", "TABLE-3",
     HIDDEN_HAND + [ev("concede", B, player=B), ev("note", "judge:Kim", text="slip signed")],
     HIDDEN_HAND + [ev("concede", B, player=B), ev("move", A, player=A, from_zone="hand", to_zone="field")]),
    ("a counter before the announced end; after it", "TABLE-3",
     start() + [ev("counter", A, name="life", player=A, add=-1), ev("game.end", winner=A, how="life")],
     start() + [ev("game.end", winner=A, how="life"), ev("counter", A, name="life", player=A, add=-1)]),
    ("a card of a known hand shown again; a card the known hand cannot hold", "TABLE-4",
     KNOWN_HAND + [ev("reveal", A, player=A, zone="hand", card="OP01-016")],
     KNOWN_HAND + [ev("reveal", A, player=A, zone="hand", card="ST01-006")]),
    ("a revealed id shown as what it is known to be; as another card", "TABLE-4",
     KNOWN_HAND + [ev("reveal", A, player=A, zone="hand", card="OP01-013", uid=HAND_ID)],
     KNOWN_HAND + [ev("reveal", A, player=A, zone="hand", card="ST01-006", uid=HAND_ID)]),
    ("a reveal in a zone with cards; in an empty zone", "TABLE-1",
     HIDDEN_HAND + [ev("reveal", A, player=A, zone="hand", card="OP01-025")],
     start() + [ev("reveal", A, player=A, zone="hand", card="OP01-025")]),
    ("the top card shown, then drawn as itself; drawn as another card", "TABLE-4",
     start() + [ev("reveal", A, player=A, zone="deck", card="OP01-024"),
                ev("draw", A, player=A, cards=["OP01-024"])],
     start() + [ev("reveal", A, player=A, zone="deck", card="OP01-024"),
                ev("draw", A, player=A, cards=["OP01-025"])]),
    ("the top card shown, the deck shuffled, another card drawn; no shuffle", "TABLE-4",
     start() + [ev("reveal", A, player=A, zone="deck", card="OP01-024"), ev("shuffle", A, player=A, zone="deck"),
                ev("draw", A, player=A, cards=["OP01-025"])],
     start() + [ev("reveal", A, player=A, zone="deck", card="OP01-024"), ev("phase", name="main"),
                ev("draw", A, player=A, cards=["OP01-025"])]),
    ("a card put at the bottom of the deck taken back from the bottom as itself; as another card", "TABLE-4",
     KNOWN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="deck", card="OP01-013", to_where="bottom"),
                   ev("move", A, player=A, from_zone="deck", to_zone="hand", card="OP01-013", from_where="bottom")],
     KNOWN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="deck", card="OP01-013", to_where="bottom"),
                   ev("move", A, player=A, from_zone="deck", to_zone="hand", card="OP01-016", from_where="bottom")]),
    ("two counters set and changed; a move from a zone of the wrong player", "TABLE-1",
     start() + [ev("counter", A, name="life", player=A, set=5), ev("counter", B, name="life", player=B, add=-2)],
     KNOWN_HAND + [ev("move", B, player=B, from_zone="hand", to_zone="field", card="OP01-016")]),
]


@pytest.mark.parametrize("name,rule,legal,illegal", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_legal_half_raises_nothing(name, rule, legal, illegal):
    found = last(legal)
    assert found == [], [f"{f.rule}: {f.message}" for f in found]


@pytest.mark.parametrize("name,rule,legal,illegal", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_illegal_half_raises_its_rule(name, rule, legal, illegal):
    found = last(illegal)
    assert rule in {f.rule for f in found}, [f"{f.rule}: {f.message}" for f in found]


def test_at_least_fifteen_scenarios_and_the_docs_say_how_many():
    import os
    from tests.conftest import ROOT
    assert len(SCENARIOS) >= 15
    page = open(os.path.join(ROOT, "docs", "rulesets", "table.md"), encoding="utf-8").read()
    assert f"test_table_review.py`: {len(SCENARIOS)} scenarios" in page


@pytest.mark.parametrize("name,rule,legal,illegal", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_every_scenario_keeps_the_invariant(name, rule, legal, illegal, tmp_path):
    """Hidden as a scorekeeper records them, neither half gains a finding (real SQLite logs); the legal
    half, a true record, also leaves the hidden table knowing nothing the known one does not."""
    for half, steps in (("legal", legal), ("illegal", illegal)):
        (tmp_path / half).mkdir()
        assert_hiding_adds_nothing("table", steps, tmp_path / half, knowledge=half == "legal")


# --- what the review changed, beyond the scenarios ----------------------------------------------

def test_a_card_out_of_a_hidden_zone_gets_the_same_id_known_or_hidden(tmp_path):
    """The id a recorder reads off the field must not depend on what the record knew of the hand."""
    from tests.rulesets.hidden import hide_steps
    steps = KNOWN_HAND + [ev("move", A, player=A, from_zone="hand", to_zone="field", card="OP01-013")]
    known, hidden = judge(steps), judge(hide_steps("table", steps))
    assert [c.uid for c in known.state.zone(A, "field")] == [c.uid for c in hidden.state.zone(A, "field")]
    assert known.state.zone(A, "field")[0].code == hidden.state.zone(A, "field")[0].code == "OP01-013"


def test_an_unseen_card_leaving_a_hand_makes_its_known_cards_unknown():
    """Which card went is not recorded, so the table no longer claims the hand holds the known one."""
    sh = judge(KNOWN_HAND + [ev("draw", A, player=A, count=1),
                             ev("move", A, player=A, from_zone="hand", to_zone="deck", to_where="bottom")])
    assert [c.code for c in sh.state.zone(A, "hand")] == [None, None]
    assert sh.findings == []


def test_a_hidden_setup_is_a_count():
    from engine.rulesets import get_ruleset
    rs = get_ruleset("table")()
    assert rs.hide("setup", {"player": A, "zone": "life", "count": 2, "cards": ["OP01-013"]}) == \
        {"player": A, "zone": "life", "count": 3}
    assert rs.hide("setup", {"player": A, "zone": "field", "cards": ["OP01-013"]}) == \
        {"player": A, "zone": "field", "cards": ["OP01-013"]}
    assert rs.hide("move", {"player": A, "from_zone": "hand", "to_zone": "field", "card": "X", "uid": "c3"}) == \
        {"player": A, "from_zone": "hand", "to_zone": "field", "card": "X"}
    assert rs.hide("move", {"player": A, "from_zone": "hand", "to_zone": "deck", "card": "X"}) == \
        {"player": A, "from_zone": "hand", "to_zone": "deck"}
