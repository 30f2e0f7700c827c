"""An independent review of the grandline profile against the German text (grandline-umfassende-regeln.de.md),
section by section: adversarial scenarios (edge values, ordering, several players, both readings of a
contradiction), each with the half the profile allows and the half it flags. Scenarios that found a bug
say so; every catalogue quote is checked against the text."""
from __future__ import annotations

from tests.rulesets.grandline.test_grandline_rules import (BOB_OUT, CID, COMBAT, END, JACK, R1, SETUP, ZORO,
                                                          attack, play, sub)
from tests.rulesets.quotes import quote_problems

NAMI = ("play", {"player": "Ann", "card": "Nami", "type": "character", "cost": 0, "attack": 2, "defence": 2})
USOPP = ("play", {"player": "Ann", "card": "Usopp", "type": "character", "cost": 0, "attack": 1, "defence": 1})
KING = ("play", {"player": "Bob", "card": "King", "type": "character", "cost": 0, "attack": 4, "defence": 4})
QUEEN = ("play", {"player": "Bob", "card": "Queen", "type": "character", "cost": 0, "attack": 3, "defence": 3})
ROUND2 = [END, ("round", {"number": 2, "start_player": "Bob"}), ("phase", {"name": "preparation"}),
          ("draw", {"player": "Bob"}), ("draw", {"player": "Ann"}), ("phase", {"name": "action"})]


def rules_at_end(tmp_path, name, events, options=None):
    m = play(sub(tmp_path, name), events, options)
    return m.last


def outcome(tmp_path, name, events, options=None):
    m = play(sub(tmp_path, name), events, options)
    o = m.ruleset.outcome(m.state())
    return None if o is None else (o.result, o.winner)


def test_every_quote_is_the_texts_own_words():
    assert quote_problems("grandline", "grandline-umfassende-regeln.de.md") == []


# --- Kampfphase (B): the attack limit is each player's ---------------------------------------------


def test_two_attacks_each_the_other_player_attacks_after_two_of_mine(tmp_path):
    """«Jeder Spieler kann bis zu zwei Angriffe pro Kampfphase ausführen». Found by the first reading
    (issue 12): one count for the table flagged Bob's first attack after two of Ann's."""
    board = SETUP + R1 + [ZORO, NAMI, USOPP, JACK, KING, QUEEN, COMBAT]
    two_each = board + [attack(), attack(attacker="Nami"), ("attack", {"player": "Bob", "attacker": "Jack"}),
                        ("attack", {"player": "Bob", "attacker": "King"})]
    assert rules_at_end(tmp_path, "legal", two_each) == set()
    assert "GL-ATTACK-LIMIT" in rules_at_end(tmp_path, "illegal", two_each + [attack(attacker="Usopp")])


def test_the_attack_limit_counts_each_of_three_players_alone(tmp_path):
    cid_plays = [("play", {"player": "Cid", "card": c, "type": "character", "cost": 0, "attack": 1, "defence": 1})
                 for c in ("Buggy", "Mohji", "Cabaji")]
    board = BOB_OUT[:-1] + [ZORO, NAMI] + cid_plays + [COMBAT]
    cid = lambda a: ("attack", {"player": "Cid", "attacker": a, "target_player": "Ann"})  # noqa: E731
    legal = board + [attack(target_player="Cid"), cid("Buggy"), attack(attacker="Nami", target_player="Cid"), cid("Mohji")]
    assert rules_at_end(tmp_path, "legal", legal) == set()
    assert "GL-ATTACK-LIMIT" in rules_at_end(tmp_path, "illegal", legal + [cid("Cabaji")])


def test_the_count_starts_again_in_the_next_combat_phase_unless_there_is_no_limit(tmp_path):
    board = SETUP + R1 + [ZORO, NAMI, USOPP, COMBAT, attack(), attack(attacker="Nami")]
    next_round = board + ROUND2 + [("phase", {"name": "combat"}), attack(attacker="Usopp")]
    assert rules_at_end(tmp_path, "legal", next_round) == set()
    same_phase = board + [attack(attacker="Usopp")]
    assert "GL-ATTACK-LIMIT" in rules_at_end(tmp_path, "illegal", same_phase)
    assert rules_at_end(tmp_path, "no-limit", same_phase, {"attacks_per_phase": 0}) == set()


# --- Kampfphase (B): exhausting, blocking, life -------------------------------------------------------


def test_an_exhausted_attacker_is_ready_again_after_the_end_phase(tmp_path):
    """«Eine erschöpfte Karte kann nicht erneut angreifen [...] bis sie wieder aufgerichtet wird»; the
    end phase readies every card («Richte alle deine erschöpften Karten wieder auf»)."""
    once = SETUP + R1 + [ZORO, COMBAT, attack()]
    assert rules_at_end(tmp_path, "legal", once + ROUND2 + [("phase", {"name": "combat"}), attack()]) == set()
    assert "GL-EXHAUSTED" in rules_at_end(tmp_path, "illegal", once + [attack()])


def test_zero_life_points_lose_one_does_not(tmp_path):
    """«Wenn ein Spieler 0 oder weniger Lebenspunkte hat, verliert er das Spiel»: the edge is 0."""
    zoro9 = ("play", {"player": "Ann", "card": "Zoro", "type": "character", "cost": 0, "attack": 9, "defence": 4})
    zoro10 = ("play", {"player": "Ann", "card": "Zoro", "type": "character", "cost": 0, "attack": 10, "defence": 4})
    assert outcome(tmp_path, "nine", SETUP + R1 + [zoro9, COMBAT, attack()]) is None
    assert outcome(tmp_path, "ten", SETUP + R1 + [zoro10, COMBAT, attack()]) == ("win", "Ann")


def test_equal_attack_and_defence_destroy_both_a_higher_attack_only_the_blocker(tmp_path):
    """(B) «Wenn der Angriffswert gleich dem Verteidigungswert ist, werden sowohl die angreifende als auch
    die verteidigende Karte zerstört»; with the (A) reading (combat=compare) only the defender goes."""
    equal = SETUP + R1 + [ZORO, ("play", {"player": "Bob", "card": "Drake", "type": "character", "cost": 0,
                                          "attack": 2, "defence": 5}), COMBAT, attack(blocker="Drake")]
    m = play(sub(tmp_path, "equal"), equal)
    s = m.state()
    assert [c.code for c in s.zone("Ann", "sea")] == [] and [c.code for c in s.zone("Bob", "sea")] == []
    higher = SETUP + R1 + [ZORO, QUEEN, COMBAT, attack(blocker="Queen")]
    s = play(sub(tmp_path, "higher"), higher).state()
    assert [c.code for c in s.zone("Ann", "sea")] == ["Zoro"] and s.zone("Bob", "sea") == []


def test_an_unblockable_attack_is_not_blocked_a_blockable_one_may_be(tmp_path):
    board = SETUP + R1 + [ZORO, JACK, COMBAT]
    assert rules_at_end(tmp_path, "legal", board + [attack(blocker="Jack")]) == set()
    assert "GL-BLOCK" in rules_at_end(tmp_path, "illegal", board + [attack(blocker="Jack", unblockable=True)])


# --- Vorbereitungsphase, Endphase -----------------------------------------------------------------------


def test_one_draw_each_in_the_preparation_phase(tmp_path):
    start = SETUP + R1[:2]
    assert rules_at_end(tmp_path, "legal", start + [("draw", {"player": "Ann"}), ("draw", {"player": "Bob"}),
                                                    ("phase", {"name": "action"})]) == set()
    assert "GL-DRAW" in rules_at_end(tmp_path, "missed", start + [("draw", {"player": "Ann"}),
                                                                  ("phase", {"name": "action"})])
    assert "GL-DRAW" in rules_at_end(tmp_path, "twice", start + [("draw", {"player": "Ann", "count": 2})])


def test_beli_are_kept_from_round_to_round(tmp_path):
    """(B) «Erhöhe deine Beli um 1» each preparation phase, and nothing resets them: a card of cost 2
    is affordable in round 2, not in round 1."""
    nico = ("play", {"player": "Ann", "card": "Robin", "type": "character", "cost": 2, "attack": 3, "defence": 3})
    assert rules_at_end(tmp_path, "round2", SETUP + R1 + [COMBAT] + ROUND2 + [nico]) == set()
    assert "GL-COST" in rules_at_end(tmp_path, "round1", SETUP + R1 + [nico])


def test_a_hand_of_six_is_kept_seven_is_one_too_many(tmp_path):
    """(B) «Wenn du mehr als sechs Karten auf deiner Hand hast, musst du [...] abwerfen»: checked when
    the next round begins."""
    six = SETUP + R1 + [COMBAT, END, ("round", {"number": 2, "start_player": "Bob"})]  # 5 + 1 drawn
    assert rules_at_end(tmp_path, "six", six) == set()
    seven = [("setup", {"player": "Ann", "captain": "Luffy", "deck": 43, "hand": 6}), SETUP[1]]
    assert "GL-HAND-LIMIT" in rules_at_end(tmp_path, "seven", seven + R1 + [COMBAT, END,
                                                                             ("round", {"number": 2, "start_player": "Bob"})])


def test_an_empty_deck_loses_only_when_a_card_must_be_drawn(tmp_path):
    """(B) «Wenn du keine Karten mehr in deinem Deck hast, verlierst du das Spiel» is read at the draw:
    an empty deck before the draw is no loss yet (option deck_out=lose)."""
    empty = [("setup", {"player": "Ann", "captain": "Luffy", "deck": 0, "hand": 49}), SETUP[1],
             ("round", {"number": 1, "start_player": "Ann"}), ("phase", {"name": "preparation"})]
    assert outcome(tmp_path, "before", empty) is None
    assert outcome(tmp_path, "draw", empty + [("draw", {"player": "Ann"})]) == ("win", "Bob")


# --- Spielphasen (B): the start player, several players -------------------------------------------------


def test_the_start_player_passes_clockwise_among_three(tmp_path):
    three = SETUP + [CID, ("round", {"number": 1, "start_player": "Bob", "rolls": {"Ann": 1, "Bob": 6, "Cid": 3}}),
                     ("phase", {"name": "preparation"})] + [("draw", {"player": p}) for p in ("Ann", "Bob", "Cid")] + [
                     ("phase", {"name": "action"}), COMBAT, END]
    assert rules_at_end(tmp_path, "cid", three + [("round", {"number": 2, "start_player": "Cid"})]) == set()
    assert "GL-START" in rules_at_end(tmp_path, "ann", three + [("round", {"number": 2, "start_player": "Ann"})])


def test_a_player_who_lost_is_out_and_the_others_play_on(tmp_path):
    """Found by this review: with three players, Bob at 0 life points could still play cards, be
    attacked, and be the next start player, while the rotation wanted him. Rule GL-OUT."""
    assert outcome(tmp_path, "on", BOB_OUT) is None
    assert rules_at_end(tmp_path, "ann-plays", BOB_OUT + [ZORO]) == set()
    assert "GL-OUT" in rules_at_end(tmp_path, "bob-plays", BOB_OUT + [JACK])
    assert "GL-OUT" in rules_at_end(tmp_path, "bob-attacked", BOB_OUT + [ZORO, COMBAT, attack(target_player="Bob")])
    ended = BOB_OUT + [("damage", {"player": "Cid", "amount": 10})]
    assert outcome(tmp_path, "ended", ended) == ("win", "Ann")


def test_the_rotation_skips_a_player_who_lost(tmp_path):
    base = BOB_OUT + [COMBAT, END]
    assert rules_at_end(tmp_path, "skip", base + [("round", {"number": 2, "start_player": "Cid"})]) == set()
    got = rules_at_end(tmp_path, "bob", base + [("round", {"number": 2, "start_player": "Bob"})])
    assert {"GL-OUT", "GL-START"} <= got


# --- Endphase (A): islands and victory points -------------------------------------------------------------


def test_an_island_is_visited_once_by_each_player(tmp_path):
    visit = lambda p: ("island.visit", {"player": p, "island": "Wano", "vp": 2})  # noqa: E731
    assert rules_at_end(tmp_path, "each", SETUP + [visit("Ann"), visit("Bob")]) == set()
    assert "GL-VISIT" in rules_at_end(tmp_path, "twice", SETUP + [visit("Ann"), visit("Bob"), visit("Ann")])


def test_nine_victory_points_are_not_ten(tmp_path):
    """«Der erste Spieler, der 10 Siegpunkte erreicht, gewinnt das Spiel»; after the win nothing counts."""
    nine = SETUP + [("vp", {"player": "Ann", "add": 9})]
    assert outcome(tmp_path, "nine", nine) is None
    ten = nine + [("island.visit", {"player": "Ann", "island": "Raftel", "vp": 1})]
    assert outcome(tmp_path, "ten", ten) == ("win", "Ann")
    assert "GL-END" in rules_at_end(tmp_path, "after", ten + [("vp", {"player": "Bob", "add": 10})])
    assert outcome(tmp_path, "after2", ten + [("vp", {"player": "Bob", "add": 10})]) == ("win", "Ann")


# --- Kampfphase (A): the other reading ------------------------------------------------------------------


def test_compare_captain_attack_equal_to_life_wins_below_it_does_not(tmp_path):
    """(A) «Wenn der Angriffswert höher oder gleich dem Lebenswert ist, wird der Kapitän besiegt».
    With life=captain Bob's Captain has 8."""
    opts = {"combat": "compare", "life": "captain", "resource": "action-points"}
    hitter = lambda a: ("play", {"player": "Ann", "card": "Zoro", "type": "character", "cost": 0,  # noqa: E731
                                 "attack": a, "defence": 1})
    for attack_value, want in ((7, None), (8, ("win", "Ann"))):
        ev = SETUP + R1 + [hitter(attack_value), COMBAT, attack()]
        assert outcome(tmp_path, f"a{attack_value}", ev, opts) == want
