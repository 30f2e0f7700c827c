"""Hiding what a scorekeeper cannot see never adds a finding nor changes the outcome (op2009): what
`hide` keeps and drops, kind by kind; every example log; generated best-of-three matches recorded with
every card named; a later reveal that contradicts the record is a finding at the reveal (OP09-MANO-2)
and only there; a seeded bug (an unknown card that never matches) is caught."""
from __future__ import annotations


import pytest

from engine.rulesets.op2009.ruleset import Op2009Ruleset
from tests.rulesets.hidden import hiding_problems
from tests.rulesets.op2009.builder import ANN, BOB, NAMI, RUFY, ZORO, Log
from tests.rulesets.op2009.games import play_match
from tests.rulesets.tape import Tape

RS = Op2009Ruleset()


@pytest.mark.parametrize("kind, known, hidden", [
    ("hand.deal", {"player": ANN, "count": 7, "cards": ["LK-C01"] * 7}, {"player": ANN, "count": 7}),
    ("mulligan.pirate", {"player": ANN, "cards": ["LK-C01"] * 7}, {"player": ANN}),
    ("redraw", {"player": ANN, "discarded": ["LK-W01"] * 7, "cards": ["LK-C05"] * 7},
     {"player": ANN, "discarded": ["LK-W01"] * 7}),  # the old hand goes face up into the Oceano
    ("fase.iniziale", {"player": ANN, "card": "LK-C09"}, {"player": ANN}),
    ("hand.grow", {"player": ANN, "card": "LK-C09"}, {"player": ANN}),
    ("fase.finale", {"player": ANN, "draw": 2, "drawn": ["LK-C01", "LK-W01"]}, {"player": ANN, "draw": 2}),
    ("fase.finale", {"player": ANN, "discard": ["LK-W01"]}, {"player": ANN, "discard": ["LK-W01"]}),
    ("draw", {"player": ANN, "count": 2, "cards": ["LK-C01", "LK-W01"]}, {"player": ANN, "count": 2}),
    ("move", {"player": ANN, "from_zone": "forziere", "to_zone": "mano", "card": "LK-C01"},
     {"player": ANN, "from_zone": "forziere", "to_zone": "mano"}),  # a search: nobody sees the card
    ("move", {"player": ANN, "from_zone": "mano", "to_zone": "giornale", "card": "LK-C01"},
     {"player": ANN, "from_zone": "mano", "to_zone": "giornale"}),
    ("move", {"player": ANN, "from_zone": "forziere", "to_zone": "oceano", "card": "LK-C01"},
     {"player": ANN, "from_zone": "forziere", "to_zone": "oceano", "card": "LK-C01"}),  # face up
    ("move", {"player": ANN, "from_zone": "oceano", "to_zone": "mano", "card": "LK-C01"},
     {"player": ANN, "from_zone": "oceano", "to_zone": "mano", "card": "LK-C01"}),  # seen leaving
    ("sailor.call", dict(player=ANN, space="marinaio1", **ZORO), dict(player=ANN, space="marinaio1", **ZORO)),
    ("prep.place", dict(player=ANN, space="capitano", **RUFY), dict(player=ANN, space="capitano", **RUFY)),
    ("sideboard", {"player": ANN, "out": ["LK-W01"], "into": ["LK-W09"]},
     {"player": ANN, "out": ["LK-W01"], "into": ["LK-W09"]}),
])
def test_hide_kind_by_kind(kind, known, hidden):
    assert RS.hide(kind, dict(known)) == hidden


def test_the_record_is_not_changed_in_place():
    payload = {"player": ANN, "count": 7, "cards": ["LK-C01"] * 7}
    RS.hide("hand.deal", payload)
    assert payload["cards"] == ["LK-C01"] * 7




def _known_hand(tmp_path):
    """Ann's opening hand named: Rufy, Zoro and five Techniques; Rufy is placed as Captain."""
    log = Log(tmp_path)
    log.register()
    log.ev("game.start", first=ANN)
    for p, hand in ((ANN, ["LK-C01", "LK-C05"] + ["LK-W01"] * 5), (BOB, ["BA-C01", "BA-C03"] + ["BA-W01"] * 5)):
        log.ev("shuffle", player=p)
        log.ev("logbook.deal", player=p)
        log.ev("hand.deal", player=p, cards=hand)
    return log


def test_a_card_the_known_hand_holds_is_no_finding(tmp_path):
    log = _known_hand(tmp_path)
    assert "OP09-MANO-2" not in log.rules("prep.place", player=ANN, space="capitano", **RUFY)


def test_a_reveal_that_contradicts_the_record_is_a_finding_at_the_reveal(tmp_path):
    log = _known_hand(tmp_path)
    findings = log.ev("prep.place", player=ANN, space="capitano", **NAMI)  # Nami was never drawn
    (f,) = [f for f in findings if f.rule == "OP09-MANO-2"]
    assert "LK-C09 leaves Ann's hand" in f.message and "LK-C01" in f.message
    assert log.hand(ANN) == 6  # a card left the hand all the same: the one it held
    # the same placement in the scorekeeper's record (hands unseen) is no finding
    hidden = Log(tmp_path, name="hidden.db")
    hidden.register()
    hidden.ev("game.start", first=ANN)
    hidden.ev("hand.deal", player=ANN)
    assert "OP09-MANO-2" not in hidden.rules("prep.place", player=ANN, space="capitano", **NAMI)


def test_a_seeded_bug_is_caught(tmp_path, monkeypatch):
    """The bug of issue 12: a card named from a hand of unknown cards 'is not in the hand'."""

    def unknown_never_matches(self, s, e):
        named = self.hand_cards(e.kind, e.payload)
        if named is None:
            return []
        player, codes = named
        hand = [c.code for c in s.zone(player, "mano")]
        return [self.flag("OP09-MANO-2", e, f"{c} is not in {player}'s hand") for c in codes if c not in hand]

    monkeypatch.setattr(Op2009Ruleset, "_hand_reveal", unknown_never_matches)
    players, steps = play_match(Tape([3] * 600))
    problems = hiding_problems("op2009", players, steps, tmp_path)
    assert problems and all("OP09-MANO-2" in p for p in problems)
