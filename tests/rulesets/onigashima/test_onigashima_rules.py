"""A legal and an illegal case for every rule the onigashima ruleset checks."""
from __future__ import annotations

import pytest

from engine.match import Match
from engine.rulesets.onigashima.ruleset import RULESET
from engine.store import EventStore

P2 = ["Ann", "Bob"]
CAMPS2 = ("camps", {"alliance": ["Ann"], "empereurs": ["Bob"]})
TURN1 = ("turn", {"number": 1})
# Zoro (initiative 23, 6 dice, defence 6, energy 25) against Jack (21, 6 dice, defence 5, energy 23)
FIGHT = ("fight.start", {"fighters": {"Ann": "Roronoa Zoro", "Bob": "Jack"}})
OPEN = [CAMPS2, TURN1, FIGHT]


def findings(tmp_path, events, players=P2, options=None):
    """Record `events`; return the rule ids flagged on the last one."""
    with EventStore.open(str(tmp_path / "t.db")) as store:
        m = Match.create(store, "onigashima", players, options=options)
        rec = None
        for kind, payload in events:
            rec = m.record(kind, payload)
        return {f.rule for f in rec.findings}


def sub(tmp_path, name):
    d = tmp_path / name
    d.mkdir()
    return d


CASES = [
    # rule, legal events, illegal events, players
    ("ONI-PLAYERS", [CAMPS2], [("camps", {"alliance": ["a", "b", "c", "d"], "empereurs": ["e", "f", "g"]})],
     None, ["a", "b", "c", "d", "e", "f", "g"]),
    ("ONI-CAMPS", [CAMPS2], [("camps", {"alliance": ["Ann", "Bob"], "empereurs": ["Bob"]})], None, None),
    ("ONI-CAMPS", [("camps", {"alliance": ["a", "b", "c"], "empereurs": ["d", "e"]})],
     [("camps", {"alliance": ["a", "b", "c", "d"], "empereurs": ["e"]})],
     ["a", "b", "c", "d", "e"], ["a", "b", "c", "d", "e"]),
    ("ONI-TURNS", [CAMPS2, TURN1], [CAMPS2, ("turn", {"number": 2})], None, None),
    ("ONI-TURNS", None, [("turn", {"number": 1}), ("turn", {"number": 7})], None, None),
    ("ONI-DEAL", [("deal", {"camp": "alliance", "count": 10})],
     [("deal", {"camp": "alliance", "count": 16})], None, None),
    ("ONI-DEAL", [("deal", {"camp": "alliance", "characters": ["Roronoa Zoro", "Sanji", "Jinbe", "Brook", "Nami",
                                                                 "Franky", "Usopp", "Chopper", "Nico Robin", "Killer"]})],
     [("deal", {"camp": "alliance", "characters": ["Kaido", "Sanji", "Jinbe", "Brook", "Nami",
                                                    "Franky", "Usopp", "Chopper", "Nico Robin", "Killer"]})], None, None),
    ("ONI-CAPTAIN", [CAMPS2, ("captain", {"player": "Ann", "character": "Monkey D. Luffy"})],
     [CAMPS2, ("captain", {"player": "Ann", "character": "Kaido"})], None, None),
    ("ONI-CAPTAIN", None, [CAMPS2, ("captain", {"player": "Ann", "character": "Monkey D. Luffy"}),
                           ("captain", {"player": "Ann", "character": "Sanji"})], None, None),
    ("ONI-TURN-FIGHT", OPEN, [CAMPS2, FIGHT], None, None),
    ("ONI-TURN-FIGHT", None, OPEN + [("fight.end", {"winner": "Ann", "how": "card"}), FIGHT], None, None),
    ("ONI-TURN-FIGHT", None, [CAMPS2, TURN1, ("turn", {"number": 2})], None, None),
    ("ONI-ONE-ON-ONE", OPEN, [CAMPS2, TURN1, ("fight.start", {"fighters": {"Ann": "Roronoa Zoro"}})], None, None),
    ("ONI-FIGHT-CAMP", OPEN, [CAMPS2, TURN1, ("fight.start", {"fighters": {"Ann": "King", "Bob": "Jack"}})], None, None),
    ("ONI-HAND", [CAMPS2, ("deal", {"camp": "alliance", "characters": ["Roronoa Zoro"] * 10}), TURN1, FIGHT],
     [CAMPS2, ("deal", {"camp": "alliance", "characters": ["Sanji"] * 10}), TURN1, FIGHT], None, None),
    ("ONI-FIGHT-ONCE", OPEN,
     OPEN + [("fight.end", {"winner": "Ann", "how": "card"}), ("turn", {"number": 2}),
             ("fight.start", {"fighters": {"Ann": "Roronoa Zoro (sabres noirs)", "Bob": "King"}})], None, None),
    ("ONI-TRANSFO-ROLL", OPEN + [("transform", {"player": "Ann", "roll": 4, "need": 4, "to": "Roronoa Zoro (sabres noirs)"})],
     OPEN + [("transform", {"player": "Ann", "roll": 3, "need": 4, "to": "Roronoa Zoro (sabres noirs)"})], None, None),
    ("ONI-TRANSFO-ROLL", None,  # the rulebook's own TRANSFO value for Kaido's hybrid form (4+)
     [CAMPS2, TURN1, ("fight.start", {"fighters": {"Ann": "Sanji", "Bob": "Kaido"}}),
      ("transform", {"player": "Bob", "roll": 3, "to": "Kaido (forme hybride)"})], None, None),
    ("ONI-TRANSFO-FORM", OPEN + [("transform", {"player": "Ann", "roll": 6, "need": 4, "to": "Roronoa Zoro (sabres noirs)"})],
     OPEN + [("transform", {"player": "Ann", "roll": 6, "need": 4, "to": "Sanji (jambe à la diable)"})], None, None),
    ("ONI-TRANSFO-TIME", OPEN + [("transform", {"player": "Ann", "roll": 2, "need": 4})],
     OPEN + [("transform", {"player": "Ann", "roll": 2, "need": 4}), ("transform", {"player": "Ann", "roll": 5, "need": 4})],
     None, None),
    ("ONI-TRANSFO-TIME", None, OPEN + [("attack", {"player": "Ann", "dice": [1, 1, 1, 1, 1, 1]}),
                                       ("transform", {"player": "Bob", "roll": 5, "need": 4})], None, None),
    ("ONI-INITIATIVE", OPEN + [("attack", {"player": "Ann", "dice": [1, 1, 1, 1, 1, 1]})],
     OPEN + [("attack", {"player": "Bob", "dice": [1, 1, 1, 1, 1, 1]})], None, None),
    ("ONI-INITIATIVE", [CAMPS2, TURN1, ("fight.start", {"fighters": {"Ann": "Sanji (jambe à la diable)", "Bob": "King"}}),
                        ("initiative.roll", {"rolls": {"Ann": 2, "Bob": 5}}), ("attack", {"player": "Bob", "dice": [1] * 6})],
     [CAMPS2, TURN1, ("fight.start", {"fighters": {"Ann": "Sanji (jambe à la diable)", "Bob": "King"}}),
      ("initiative.roll", {"rolls": {"Ann": 2, "Bob": 5}}), ("attack", {"player": "Ann", "dice": [1] * 7})], None, None),
    ("ONI-ALTERNATE", OPEN + [("attack", {"player": "Ann", "dice": [1] * 6}), ("attack", {"player": "Bob", "dice": [1] * 6})],
     OPEN + [("attack", {"player": "Ann", "dice": [1] * 6}), ("attack", {"player": "Ann", "dice": [1] * 6})], None, None),
    ("ONI-CARDS-3", OPEN + [("card", {"player": "Ann", "name": f"c{i}", "type": "defense"}) for i in range(3)],
     OPEN + [("card", {"player": "Ann", "name": f"c{i}", "type": "defense"}) for i in range(4)], None, None),
    ("ONI-WEAKNESS", [CAMPS2, ("character.stats", {"name": "Jack", "weaknesses": ["Peur"]}), TURN1, FIGHT,
                      ("card", {"player": "Ann", "name": "Peur", "type": "faiblesse", "weakness": "Peur"})],
     [CAMPS2, ("character.stats", {"name": "Jack", "weaknesses": ["Peur"]}), TURN1, FIGHT,
      ("card", {"player": "Ann", "name": "Orgueil", "type": "faiblesse", "weakness": "Orgueil"})], None, None),
    ("ONI-WEAKNESS-TIME", OPEN + [("card", {"player": "Bob", "name": "Orgueil", "type": "faiblesse", "weakness": "Orgueil"})],
     OPEN + [("attack", {"player": "Ann", "dice": [1] * 6}),
             ("card", {"player": "Bob", "name": "Orgueil", "type": "faiblesse", "weakness": "Orgueil"})], None, None),
    ("ONI-HAKI-CARD", [CAMPS2, ("character.stats", {"name": "Jack", "haki": ["offensif"]}), TURN1, FIGHT,
                       ("card", {"player": "Bob", "name": "Poing", "type": "attaque", "haki": "offensif"})],
     [CAMPS2, ("character.stats", {"name": "Jack", "haki": ["offensif"]}), TURN1, FIGHT,
      ("card", {"player": "Bob", "name": "Royal", "type": "attaque", "haki": "royal"})], None, None),
    ("ONI-DICE", OPEN + [("attack", {"player": "Ann", "dice": [1] * 6})],
     OPEN + [("attack", {"player": "Ann", "dice": [1] * 7})], None, None),
    ("ONI-DICE", OPEN + [("attack", {"player": "Ann", "dice": [1] * 5, "dice_removed": 1})], None, None, None),
    ("ONI-DAMAGE", OPEN + [("attack", {"player": "Ann", "dice": [1, 2, 3, 4, 5, 6], "energy_lost": 2})],
     OPEN + [("attack", {"player": "Ann", "dice": [1, 2, 3, 4, 5, 6], "energy_lost": 3})], None, None),
    ("ONI-DODGE", [CAMPS2, TURN1, ("fight.start", {"fighters": {"Ann": "Monkey D. Luffy (gear fifth)", "Bob": "Jack"}}),
                   ("attack", {"player": "Ann", "dice": [1] * 8}), ("attack", {"player": "Bob", "dice": [6] * 6}),
                   ("dodge", {"player": "Ann", "roll": 2})],
     [CAMPS2, TURN1, ("fight.start", {"fighters": {"Ann": "Monkey D. Luffy (gear fifth)", "Bob": "Jack"}}),
      ("attack", {"player": "Ann", "dice": [1] * 8}), ("attack", {"player": "Bob", "dice": [6] * 6}),
      ("dodge", {"player": "Ann", "roll": 2}), ("dodge", {"player": "Ann", "roll": 6})], None, None),
    ("ONI-DODGE", None, OPEN + [("dodge", {"player": "Ann", "roll": 6})], None, None),
    ("ONI-DODGE", None, [CAMPS2, ("character.stats", {"name": "Roronoa Zoro", "haki": ["offensif"]}), TURN1, FIGHT,
                         ("attack", {"player": "Ann", "dice": [1] * 6}), ("attack", {"player": "Bob", "dice": [6] * 6}),
                         ("dodge", {"player": "Ann", "roll": 6})], None, None),
    ("ONI-ENERGY-ZERO", OPEN + [("attack", {"player": "Ann", "dice": [6] * 6, "ability_faces": [6], "ability_energy": 4}),
                                ("fight.end", {"winner": "Ann"})],
     OPEN + [("attack", {"player": "Ann", "dice": [6] * 6}), ("fight.end", {"winner": "Ann"})], None, None),
    ("ONI-ENERGY-ZERO", None, OPEN + [("attack", {"player": "Ann", "dice": [6] * 6, "ability_faces": [6], "ability_energy": 4}),
                                      ("attack", {"player": "Bob", "dice": [6] * 6})], None, None),
]


@pytest.mark.parametrize("rule,legal,illegal,legal_players,illegal_players", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_legal_and_illegal(tmp_path, rule, legal, illegal, legal_players, illegal_players):
    assert legal or illegal
    if legal is not None:
        # the legal case raises no finding at all on its last event
        assert findings(sub(tmp_path, "legal"), legal, players=legal_players or P2) == set()
    if illegal is not None:
        got = findings(sub(tmp_path, "illegal"), illegal, players=illegal_players or P2)
        assert rule in got, got


def test_captain_6p_kaido_and_big_mom(tmp_path):
    six = ["a", "b", "c", "d", "e", "f"]
    camps = ("camps", {"alliance": ["a", "b", "c"], "empereurs": ["d", "e", "f"]})
    start = [("turn", {"number": 1}), ("fight.start", {"fighters": {"a": "Sanji", "d": "Queen"}})]
    legal = [camps, ("captain", {"player": "d", "character": "Kaido"}),
             ("captain", {"player": "e", "character": "Big Mom"}), ("captain", {"player": "f", "character": "Jack"})]
    illegal = [camps, ("captain", {"player": "d", "character": "Kaido"}),
               ("captain", {"player": "e", "character": "King"}), ("captain", {"player": "f", "character": "Jack"})]
    assert findings(sub(tmp_path, "l"), legal + start, players=six) == set()
    assert "ONI-CAPTAIN-6P" in findings(sub(tmp_path, "i"), illegal + start, players=six)


def test_quota_5_players(tmp_path):
    """5 players: the team of 2 fights 6 times each, the team of 3 four times each."""
    five = ["a", "b", "c", "d", "e"]
    ev = [("camps", {"alliance": ["a", "b", "c"], "empereurs": ["d", "e"]})]
    allies = ["Sanji", "Jinbe", "Brook", "Nami", "Franky"]
    emp = ["King", "Queen", "Jack", "Ulti", "Sasaki"]
    for t in range(5):
        ev += [("turn", {"number": t + 1}),
               ("fight.start", {"fighters": {"a": allies[t], "d": emp[t]}}),
               ("fight.end", {"winner": "d", "how": "card"})]
    # a's fourth fight is within its share of 4 (d's fourth within 6); a's fifth is over it
    assert ev[11][0] == "fight.start" and ev[14][0] == "fight.start"
    assert findings(sub(tmp_path, "l"), ev[:12], players=five) == set()
    assert findings(sub(tmp_path, "i"), ev[:15], players=five) == {"ONI-QUOTA"}


def test_end_nothing_after_the_last_turn(tmp_path):
    ev = [CAMPS2]
    A = ["Sanji", "Jinbe", "Brook", "Nami", "Franky", "Usopp", "Chopper"]
    E = ["King", "Queen", "Jack", "Ulti", "Sasaki", "Page One", "Hatcha"]
    for t in range(6):
        ev += [("turn", {"number": t + 1}), ("fight.start", {"fighters": {"Ann": A[t], "Bob": E[t]}}),
               ("fight.end", {"winner": "Ann", "how": "card"})]
    assert findings(sub(tmp_path, "l"), ev) == set()
    assert "ONI-END" in findings(sub(tmp_path, "i"), ev + [("turn", {"number": 7})])


def test_guessed_data_gives_warnings_not_errors(tmp_path):
    """Page One's defence is guessed in the scanned table: a damage disagreement is a warning."""
    with EventStore.open(str(tmp_path / "t.db")) as store:
        m = Match.create(store, "onigashima", P2)
        for kind, payload in [CAMPS2, TURN1, ("fight.start", {"fighters": {"Ann": "Sanji", "Bob": "Page One"}}),
                              ("attack", {"player": "Ann", "dice": [4, 4, 4, 4, 4, 4], "energy_lost": 0})]:
            rec = m.record(kind, payload)
        assert [(f.rule, f.severity) for f in rec.findings] == [("ONI-DAMAGE", "warning")]


def test_every_checked_rule_has_cases():
    checked = {r.id for r in RULESET.rules if r.status == "checked"}
    covered = {c[0] for c in CASES} | {"ONI-CAPTAIN-6P", "ONI-QUOTA", "ONI-END"}
    assert checked == covered
