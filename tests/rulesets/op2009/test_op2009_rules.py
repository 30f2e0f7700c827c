"""op2009 checks: for every rule the issue lists, a legal case (no finding of that rule) and an
illegal one (the finding, citing the rule). Logs are hand-written and stored in SQLite files."""
from __future__ import annotations

import pytest

from engine.rulesets.op2009 import cards as cards
from tests.rulesets.op2009.builder import (ANN, BOB, CROCO, DECK_ANN, MISS_MONDAY, MR1, NAMI, RUFY, ZORO, Log, hit)


@pytest.fixture
def L(tmp_path):
    log = Log(tmp_path)
    log.register()
    return log


@pytest.fixture
def T3(L):
    """Ready for Ann's third turn: both first turns played, Ann has drawn."""
    L.prepare()
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    return L


def legal(rules: list[str], rule: str) -> bool:
    return rule not in rules


# --- deck construction -------------------------------------------------------------------------


def test_deck_32_cards(tmp_path):
    L = Log(tmp_path)
    assert legal(L.rules("deck.register", player=ANN, cards=DECK_ANN), "OP09-MAZZO-1")
    assert L.rules("deck.register", player=BOB, cards=DECK_ANN[:31]) == ["OP09-MAZZO-1"]


def test_deck_four_per_code(tmp_path):
    L = Log(tmp_path)
    five = DECK_ANN[:27] + ["LK-C01"] * 5
    assert "OP09-MAZZO-2" in L.rules("deck.register", player=ANN, cards=five)
    assert legal(L.rules("deck.register", player=BOB, cards=DECK_ANN), "OP09-MAZZO-2")


def test_deck_straw_hats(tmp_path):
    L = Log(tmp_path)
    assert L.rules("deck.register", player=ANN, cards=DECK_ANN, straw_hats={"LK-W01": 2}) == ["OP09-MAZZO-3"]
    two = [c for c in DECK_ANN if c != "LK-W01"] + ["LK-W01", "LK-W01", "LK-X01", "LK-X01"]
    assert L.rules("deck.register", player=BOB, cards=two, straw_hats={"LK-W01": 2}) == []


def test_sideboard_keeps_the_deck_legal(L):
    L.prepare()
    L.ev("concede", player=BOB)
    assert L.rules("sideboard", player=ANN, out=["LK-W01"], into=["LK-W09"]) == []
    assert "OP09-MAZZO-1" in L.rules("sideboard", player=BOB, out=["BA-W01"], into=[])
    assert L.state().extra["decks"][ANN]["cards"].count("LK-W09") == 1


# --- preparation ---------------------------------------------------------------------------


def test_logbook_six_and_hand_seven(L):
    L.ev("game.start", first=ANN)
    assert L.rules("logbook.deal", player=ANN) == []
    assert L.rules("logbook.deal", player=BOB, count=5) == ["OP09-PREP-3"]
    assert L.rules("hand.deal", player=ANN) == []
    assert L.rules("hand.deal", player=BOB, count=6) == ["OP09-PREP-4"]
    s = L.state()
    assert len(s.zone(ANN, "giornale")) == 6 and len(s.zone(ANN, "mano")) == 7
    assert len(s.zone(ANN, "forziere")) == 32 - 13


def test_loser_of_the_previous_game_starts(L):
    L.prepare(first=ANN)
    L.ev("concede", player=BOB)
    assert L.rules("game.start", first=ANN) == ["OP09-PREP-5"]


def test_loser_starts_legal(L):
    L.prepare(first=ANN)
    L.ev("concede", player=BOB)
    assert L.rules("game.start", first=BOB) == []


def test_pirate_mulligan_once_per_match(L):
    L.ev("game.start", first=ANN)
    L.ev("hand.deal", player=ANN)
    assert L.rules("mulligan.pirate", player=ANN) == []
    assert L.rules("redraw", player=ANN) == []  # the free redraw is not a Mulligan
    L.ev("concede", player=BOB)
    L.ev("game.start", first=BOB)
    L.ev("hand.deal", player=ANN)
    assert L.rules("mulligan.pirate", player=ANN) == ["OP09-PREP-6"]
    assert L.rules("mulligan.pirate", player=BOB) == []


def test_captain_required_and_one_per_space(L):
    L.ev("game.start", first=ANN)
    for p in (ANN, BOB):
        L.ev("logbook.deal", player=p)
        L.ev("hand.deal", player=p)
    L.ev("prep.place", player=ANN, space="capitano", **RUFY)
    assert L.rules("prep.place", player=ANN, space="capitano", **NAMI) == ["OP09-PREP-8"]
    assert L.rules("prep.reveal") == ["OP09-PREP-8"]  # Bob has no Captain


def test_life_points_at_most_six_at_preparation(L):
    L.ev("game.start", first=ANN)
    L.ev("logbook.deal", player=ANN)
    L.ev("hand.deal", player=ANN)
    L.ev("prep.place", player=ANN, space="capitano", **RUFY)          # 3
    assert L.rules("prep.place", player=ANN, space="marinaio1", **ZORO) == []  # 5
    assert L.rules("prep.place", player=ANN, space="marinaio2",
                   **dict(ZORO, card="LK-C20", name="Sanji")) == ["OP09-PREP-9"]  # 7


def test_no_two_characters_of_the_same_name_robin_is_miss_all_sunday(L):
    L.ev("game.start", first=ANN)
    L.ev("logbook.deal", player=ANN)
    L.ev("hand.deal", player=ANN)
    robin = dict(card="CS-C07", name="Robin", life=2, crew="Pirati di Rufy", power=400, damage=1)
    mas = dict(card="BA-C07", name="Miss All Sunday", life=2, crew="Ciurma Nemica", power=400, damage=1)
    assert L.rules("prep.place", player=ANN, space="capitano", **robin) == []
    assert L.rules("prep.place", player=ANN, space="marinaio1", **mas) == ["OP09-PREP-10"]
    assert L.rules("prep.place", player=ANN, space="marinaio2", **dict(ZORO, card="LK-C06")) == []


def test_reveal_moves_life_points_from_the_logbook(L):
    L.prepare()
    s = L.state()
    assert len(s.zone(ANN, "vita_capitano")) == 3 and len(s.zone(ANN, "vita_marinaio1")) == 2
    assert len(s.zone(ANN, "giornale")) == 1


def test_reveal_needs_enough_logbook(L):
    L.ev("game.start", first=ANN)
    for p, cap in ((ANN, RUFY), (BOB, CROCO)):
        L.ev("logbook.deal", player=p, count=2)
        L.ev("hand.deal", player=p)
        L.ev("prep.place", player=p, space="capitano", **cap)
    assert "OP09-PREP-11" in L.rules("prep.reveal")


# --- turn and actions ------------------------------------------------------------------------


def test_turns_alternate_first_player_first(L):
    L.prepare(first=ANN)
    assert L.rules("turn.start", player=BOB) == ["OP09-FASI-1"]


def test_the_initial_draw_is_mandatory(L):
    L.prepare()
    L.ev("turn.start", player=ANN)
    assert L.rules("logbook.update", player=ANN) == ["OP09-INIZ-1"]
    assert L.rules("fase.iniziale", player=ANN) == []
    assert L.rules("fase.iniziale", player=ANN) == ["OP09-INIZ-1"]


def test_three_actions_per_turn(T3):
    for _ in range(3):
        assert T3.rules("logbook.update", player=ANN) == []
    assert T3.rules("logbook.update", player=ANN) == ["OP09-PRINC-1"]


def test_continuous_action_modifiers_sum_as_the_faq_computes():
    # FAQ: BP-T07 on your Ponte (+1) and TD-C21 on the opponent's (-1): 3 - 1 + 1 = 3.
    assert cards.action_budget(["BP-T07"], ["BP-T07"], ["TD-C21"])[0] == 3
    assert cards.action_budget(["BP-T07"], ["BP-T07"], [])[0] == 4
    assert cards.action_budget([], [], ["TD-C21"])[0] == 2
    assert cards.action_budget(["BP-T07"], [], [])[0] == 3  # called this turn: from the next turn


def test_action_budget_with_team_and_foxy_on_the_table(L):
    team = dict(card="BP-T07", name="Nami&Bibi", life=2, crew="Pirati di Rufy", power=500, damage=1)
    foxy = dict(card="TD-C21", name="Foxy", life=1, crew="Pirati di Foxy", power=300, damage=1)
    L.prepare(ann=(RUFY, team), bob=(CROCO, foxy))
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    for _ in range(3):
        assert L.rules("logbook.update", player=ANN) == []
    assert L.rules("logbook.update", player=ANN) == ["OP09-PRINC-1"]
    L.finale(ANN)
    L.begin(BOB)  # Bob: 3 Actions, nothing modifies his
    for _ in range(3):
        assert L.rules("logbook.update", player=BOB) == []
    assert L.rules("logbook.update", player=BOB) == ["OP09-PRINC-1"]


def test_recorded_effect_changes_the_budget(T3):
    T3.ev("effect", player=ANN, card="XX-C01", text="this turn you have 1 Action less", actions=-1)
    T3.ev("logbook.update", player=ANN)
    T3.ev("logbook.update", player=ANN)
    assert T3.rules("logbook.update", player=ANN) == ["OP09-PRINC-1"]


def test_only_the_turn_player_acts(T3):
    assert T3.rules("logbook.update", player=BOB) == ["OP09-PRINC-3"]


def test_ability_with_action_cost_once_per_turn(T3):
    assert T3.rules("ability", player=ANN, space="marinaio1", card="LK-C05", cost=1, effect="x") == []
    assert T3.rules("ability", player=ANN, space="marinaio1", card="LK-C05", cost=1,
                    effect="x") == ["OP09-ABIL-1"]


def test_update_the_logbook(T3):
    before = len(T3.state().zone(ANN, "giornale"))
    assert T3.rules("logbook.update", player=ANN) == []
    assert len(T3.state().zone(ANN, "giornale")) == before + 1
    T3.ev("move", player=ANN, from_zone="forziere", to_zone="oceano", count=len(T3.state().zone(ANN, "forziere")))
    assert "OP09-GIORN-1" in T3.rules("logbook.update", player=ANN)


def test_call_a_sailor(T3):
    T3.ev("logbook.update", player=ANN)  # the Giornale: 1 + 1 = 2 cards
    nami2 = dict(NAMI, life=3)
    assert T3.rules("sailor.call", player=ANN, space="marinaio2", **nami2) == ["OP09-MARIN-1"]


def test_call_a_sailor_legal_and_occupied(T3):
    assert T3.rules("sailor.call", player=ANN, space="marinaio2", **NAMI) == []
    s = T3.state()
    assert s.zone(ANN, "marinaio2")[-1].props["name"] == "Nami" and len(s.zone(ANN, "vita_marinaio2")) == 1
    assert "OP09-MARIN-1" in T3.rules("sailor.call", player=ANN, space="marinaio1",
                                      **dict(NAMI, card="LK-C30", name="Usop"))


def test_call_a_sailor_same_name(T3):
    assert T3.rules("sailor.call", player=ANN, space="marinaio2",
                    **dict(ZORO, card="JS-C01", life=1)) == ["OP09-PREP-10"]


def test_the_captain_never_moves(T3):
    assert T3.rules("sailor.move", player=ANN, from_space="marinaio1", to_space="marinaio2") == []
    s = T3.state()
    assert s.zone(ANN, "marinaio2")[-1].props["name"] == "Zoro" and len(s.zone(ANN, "vita_marinaio2")) == 2
    assert T3.rules("sailor.move", player=ANN, from_space="capitano", to_space="marinaio1") == ["OP09-MUOV-1"]


def test_grow_the_hand_only_with_four_or_fewer(T3):
    assert T3.hand(ANN) == 5  # 4 after the Fase Finale, +1 drawn
    assert T3.rules("hand.grow", player=ANN) == ["OP09-MANO-1"]


def test_grow_the_hand_legal(T3):
    T3.ev("move", player=ANN, from_zone="mano", to_zone="oceano")  # an effect discards one card
    assert T3.rules("hand.grow", player=ANN) == []


def test_no_action_after_passing(T3):
    T3.ev("pass", player=ANN)
    assert T3.rules("logbook.update", player=ANN) == ["OP09-PASS-1"]


def test_hand_brought_to_four(T3):
    assert T3.rules("fase.finale", player=ANN) == ["OP09-FIN-1"]  # 5 cards kept


def test_hand_brought_to_four_legal(T3):
    assert T3.rules("fase.finale", player=ANN, discard=["LK-W02"]) == []
    assert T3.hand(ANN) == 4


def test_pirate_mulligan_frees_the_opponent_from_the_hand_of_four(L):
    L.ev("game.start", first=ANN)
    for p in (ANN, BOB):
        L.ev("logbook.deal", player=p)
        L.ev("hand.deal", player=p, cards=[RUFY["card"]] if p == ANN else [CROCO["card"]])
    L.ev("mulligan.pirate", player=ANN, cards=[RUFY["card"]])
    L.ev("prep.place", player=ANN, space="capitano", **RUFY)
    L.ev("prep.place", player=BOB, space="capitano", **CROCO)
    L.ev("prep.reveal")
    L.begin(ANN)
    assert L.rules("fase.finale", player=ANN) == ["OP09-FIN-1"]  # Ann keeps 7: not exempt
    L.begin(BOB)
    assert L.rules("fase.finale", player=BOB) == []  # Bob keeps 7 in his first turn: exempt


# --- the Battle ------------------------------------------------------------------------------


def test_no_battle_in_either_players_first_turn(L):
    L.prepare()
    L.begin(ANN)
    assert "OP09-BATT-2" in L.rules("battle.start", player=ANN, attacker="capitano", target="marinaio1")


def test_no_battle_in_the_second_players_first_turn(L):
    L.prepare()
    L.quiet_turn(ANN)
    L.begin(BOB)
    assert "OP09-BATT-2" in L.rules("battle.start", player=BOB, attacker="capitano", target="marinaio1")


def test_battle_in_the_third_turn_is_legal(T3):
    assert T3.rules("battle.start", player=ANN, attacker="capitano", target="marinaio1") == []


def test_one_battle_per_character_per_turn(T3):
    T3.battle(ANN, "capitano", "marinaio1", [hit(BOB, "marinaio1", 1)])
    assert "OP09-BATT-1" in T3.rules("battle.start", player=ANN, attacker="capitano", target="marinaio1")


def test_lk_c18_errata_allows_a_second_battle(T3):
    T3.battle(ANN, "capitano", "marinaio1", [hit(BOB, "marinaio1", 1)])
    assert T3.rules("battle.start", player=ANN, attacker="capitano", target="marinaio1", via="LK-C18") == []


def test_a_prevented_battle_uses_the_characters_battle(T3):
    T3.ev("battle.prevented", player=ANN, attacker="capitano", card="RK-C06")
    assert "OP09-BATT-1" in T3.rules("battle.start", player=ANN, attacker="capitano", target="marinaio1")


def test_sailors_face_each_other(T3):
    assert T3.rules("battle.start", player=ANN, attacker="marinaio1", target="marinaio1") == []


def test_sailor_cannot_pass_the_sailor_facing_it(T3):
    assert T3.rules("battle.start", player=ANN, attacker="marinaio1", target="capitano") == ["OP09-BATT-3"]


def test_sailor_attacks_the_captain_through_an_empty_space(T3):
    T3.ev("sailor.move", player=ANN, from_space="marinaio1", to_space="marinaio2")
    # Ann's Zoro now in marinaio2 faces Bob's empty marinaio2: he may attack Bob's Captain.
    assert T3.rules("battle.start", player=ANN, attacker="marinaio2", target="capitano") == []


def test_captain_attacks_captain_only_with_a_free_space_beside(L):
    L.prepare(bob=(CROCO, MR1, dict(MISS_MONDAY)))
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    assert L.rules("battle.start", player=ANN, attacker="capitano", target="capitano") == ["OP09-BATT-3"]


def test_override_card_allows_the_target(L):
    L.prepare(bob=(CROCO, MR1, dict(MISS_MONDAY)))
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    assert L.rules("battle.start", player=ANN, attacker="marinaio1", target="capitano", via="CS-C07", cost=3) == []


def test_override_card_used_outside_what_it_allows(T3):
    assert T3.rules("battle.start", player=ANN, attacker="capitano", target="marinaio1",
                    via="LK-C19", cost=2) == ["OP09-BATT-3"]


def facing_a_preventer(L):
    """Ann's turn 3; Bob's Sailor is Miss Merry Christmas (RK-C20), who prevents Battles from
    Characters of 3 or more initial Life Points."""
    mmc = dict(card="RK-C20", name="Miss Merry Christmas", life=1, crew="Ciurma Nemica", power=300, damage=1)
    L.prepare(bob=(CROCO, mmc))
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)


def test_preventer_card_and_its_override(L):
    facing_a_preventer(L)
    # Rufy has 3 initial Life Points: RK-C20 prevents him; Zoro (2) may attack her.
    assert L.rules("battle.start", player=ANN, attacker="capitano", target="marinaio1") == ["OP09-FAQ-PRIO-2"]
    L.ev("battle.end")  # a judge stops the illegal Battle; the log keeps it
    assert L.rules("battle.start", player=ANN, attacker="marinaio1", target="marinaio1") == []


def test_override_beats_preventer(L):
    facing_a_preventer(L)
    assert L.rules("battle.start", player=ANN, attacker="capitano", target="marinaio1", via="CS-C07", cost=3) == []


def test_sb_c06_targets_the_fewest_life_points(L):
    L.prepare(bob=(CROCO, MR1))
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    assert L.rules("battle.start", player=ANN, attacker="capitano", target="capitano",
                   via="SB-C06") == ["OP09-ERR-SB-C06"]
    L.ev("battle.end")
    assert L.rules("battle.start", player=ANN, attacker="marinaio1", target="marinaio1", via="SB-C06") == []


def test_battle_actions_alternate_attacker_first(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("battle.pass", player=BOB) == ["OP09-BATT-4"]


def test_battle_actions_alternate_legal(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("battle.pass", player=ANN) == []
    assert T3.rules("battle.pass", player=BOB) == []


def test_reinforcement_of_another_crew_costs_one_damage(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("reinforce", player=ANN, card="LK-C10", name="Wapol", crew="Pirati di Wapol") == ["OP09-BATT-6"]


def test_reinforcement_of_another_crew_with_its_damage(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("reinforce", player=ANN, card="LK-C10", name="Wapol", crew="Pirati di Wapol", damage=1) == []
    s = T3.state()
    assert len(s.zone(ANN, "vita_capitano")) == 2 and len(s.zone(ANN, "rinforzi")) == 1


def test_reinforcement_same_crew_is_free(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("reinforce", player=ANN, card="LK-C09", name="Nami", crew="Pirati di Rufy") == []


@pytest.mark.parametrize("fighter,reinforcement,cost", [
    (["Pirati di Rufy"], "Cittadini", 0),
    (["Ciurma Nemica"], "Cittadini", 1),
    (["Cittadini"], "Pirati di Rufy", 0),
    (["Cittadini"], "Ciurma Nemica", 1),
    (["Pirati di Rufy", "Regno di Alabasta"], "Regno di Alabasta", 0),
    (["Marina"], "Pirati di Rufy", 1),
])
def test_reinforcement_cost_exceptions(fighter, reinforcement, cost):
    from engine.rulesets.op2009.ruleset import reinforcement_cost
    assert reinforcement_cost(fighter, reinforcement) == cost


def test_citizens_reinforcing_the_enemy_crew_cost_damage(L):
    L.prepare()
    L.quiet_turn(ANN)
    L.begin(BOB)
    L.ev("pass", player=BOB)
    L.finale(BOB)
    L.begin(ANN)
    L.ev("pass", player=ANN)
    L.finale(ANN)
    L.begin(BOB)
    L.ev("battle.start", player=BOB, attacker="capitano", target="marinaio1")
    assert L.rules("reinforce", player=BOB, card="BA-C10", name="Terracotta", crew="Cittadini") == ["OP09-BATT-6"]


def test_techniques_only_during_a_battle(T3):
    assert T3.rules("technique", player=ANN, card="LK-W01", usable_by="Rufy") == ["OP09-BATT-7"]


def test_technique_usable_by_the_character_or_its_reinforcements(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("technique", player=ANN, card="LK-W02", usable_by="Nami") == ["OP09-CARTE-1"]
    T3.ev("battle.pass", player=BOB)
    T3.ev("reinforce", player=ANN, card="LK-C09", name="Nami", crew="Pirati di Rufy")
    T3.ev("battle.pass", player=BOB)
    assert T3.rules("technique", player=ANN, card="LK-W02", usable_by="Nami") == []


def test_technique_limit_per_battle(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("technique", player=ANN, card="LK-W01", usable_by="Rufy", limit=1) == []
    T3.ev("battle.pass", player=BOB)
    assert T3.rules("technique", player=ANN, card="LK-W01", usable_by="Rufy", limit=1) == ["OP09-CARTE-3"]


def test_special_cards_not_during_battle_actions(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("technique", player=ANN, card="BP-W13", usable_by="Chiunque") == []  # before any action
    T3.ev("battle.pass", player=ANN)
    assert T3.rules("technique", player=BOB, card="BP-W05", usable_by="Chiunque") == ["OP09-FAQ-SPEC-1"]
    T3.ev("battle.pass", player=BOB)
    assert T3.rules("technique", player=ANN, card="JS-W28", usable_by="Chiunque") == []  # after both passed


def test_nothing_is_played_after_both_passed(T3):
    T3.both_pass(ANN, "capitano", "marinaio1")
    assert T3.rules("reinforce", player=ANN, card="LK-C09", name="Nami", crew="Pirati di Rufy") == ["OP09-BATT-11"]


def test_team_card_needs_its_partner_as_reinforcement(L):
    L.prepare(ann=(RUFY, NAMI))
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    L.ev("battle.start", player=ANN, attacker="marinaio1", target="marinaio1")
    team = dict(card="BP-T07", name="Nami&Bibi", life=1, crew="Pirati di Rufy", power=500, damage=1,
                crews=["Pirati di Rufy", "Regno di Alabasta"], partner="BP-C01")
    assert L.rules("team.call", player=ANN, **team) == ["OP09-BATT-9"]


def test_team_card_replaces_the_character(L):
    nami2 = dict(NAMI, life=2)
    L.prepare(ann=(RUFY, nami2))
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    L.ev("battle.start", player=ANN, attacker="marinaio1", target="marinaio1")
    L.ev("reinforce", player=ANN, card="BP-C01", name="Bibi", crew="Regno di Alabasta", damage=1)
    L.ev("battle.pass", player=BOB)
    team = dict(card="BP-T07", name="Nami&Bibi", life=2, crew="Pirati di Rufy", power=500, damage=1,
                crews=["Pirati di Rufy", "Regno di Alabasta"], partner="BP-C01")
    assert L.rules("team.call", player=ANN, **team) == []
    s = L.state()
    assert s.zone(ANN, "marinaio1")[-1].code == "BP-T07" and len(s.zone(ANN, "vita_marinaio1")) == 2


def test_team_cards_are_never_reinforcements(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert "OP09-BATT-10" in T3.rules("reinforce", player=ANN, card="BP-T07", name="Nami&Bibi",
                                      crew="Pirati di Rufy", team=True)


def test_power_comparison_and_damage(T3):
    T3.both_pass(ANN, "capitano", "marinaio1")
    # Rufy 500 beats Mr. 1 400: Mr. 1 takes Rufy's damage 1. Recording it the other way is flagged.
    assert T3.rules("damage", hits=[hit(ANN, "capitano", 1)]) == ["OP09-BATT-12"]


def test_power_comparison_and_damage_legal(T3):
    T3.both_pass(ANN, "capitano", "marinaio1")
    assert T3.rules("damage", hits=[hit(BOB, "marinaio1", 1)]) == []


def test_tie_both_deal_damage(T3):
    T3.both_pass(ANN, "marinaio1", "marinaio1")
    assert T3.rules("damage", hits=[hit(BOB, "marinaio1", 1)]) == ["OP09-BATT-12"]


def test_damage_before_both_passed(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert T3.rules("damage", hits=[hit(BOB, "marinaio1", 1)]) == ["OP09-BATT-12"]


def test_life_cards_go_from_the_top_to_the_hand_and_zero_is_a_trophy(T3):
    s = T3.state()
    top = s.zone(BOB, "vita_marinaio1")[-1].uid
    hand = T3.hand(BOB)
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    T3.ev("modifier", player=ANN, space="capitano", card="LK-W01", damage=1)
    T3.ev("battle.pass", player=ANN)
    T3.ev("battle.pass", player=BOB)
    assert T3.rules("damage", hits=[hit(BOB, "marinaio1", 2)]) == []
    s = T3.state()
    assert s.zone(BOB, "mano")[-2].uid == top and T3.hand(BOB) == hand + 2
    assert s.zone(BOB, "marinaio1") == [] and s.zone(BOB, "trofei")[-1].props["name"] == "Mr. 1"


def test_used_cards_go_to_the_ocean(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    T3.ev("technique", player=ANN, card="LK-W01", usable_by="Rufy")
    T3.ev("battle.pass", player=BOB)
    T3.ev("reinforce", player=ANN, card="LK-C09", name="Nami", crew="Pirati di Rufy")
    assert T3.rules("battle.end") == []
    s = T3.state()
    assert s.zone(ANN, "tecniche") == [] and s.zone(ANN, "rinforzi") == []
    assert sorted(c.code for c in s.zone(ANN, "oceano")[-2:]) == ["LK-C09", "LK-W01"]
    assert T3.rules("battle.end") == ["OP09-BATT-14"]


# --- Miss Monday --------------------------------------------------------------------------------


@pytest.mark.parametrize("total,after", [(-1, 0), (0, 1), (1, 2), (2, 2), (3, 2), (4, 2)])
def test_miss_monday_clamp_as_the_text_says(total, after):
    # "Se i punti danno del personaggio sono 1 o minori di 1, va aggiunto il bonus dato da Miss Monday.
    #  Se i punti danno sono 3 o più, l'effetto di Miss Monday li riduce a 2."
    assert cards.miss_monday_damage(total) == after


def _bob_mr1_battle(L: Log, **mod) -> None:
    L.prepare(bob=(CROCO, MR1, dict(MISS_MONDAY)))
    L.quiet_turn(ANN)
    L.begin(BOB)
    L.ev("pass", player=BOB)
    L.finale(BOB)
    L.quiet_turn(ANN)
    L.begin(BOB)
    L.ev("battle.start", player=BOB, attacker="marinaio1", target="marinaio1")
    L.ev("modifier", player=BOB, space="marinaio1", card="BA-W01", power=100, **mod)
    L.ev("battle.pass", player=ANN)
    L.ev("battle.pass", player=BOB)


def test_miss_monday_adds_one_to_the_enemy_crew(L):
    _bob_mr1_battle(L)                      # Mr. 1 (1 damage) + Miss Monday = 2
    assert L.rules("damage", hits=[hit(ANN, "marinaio1", 1)]) == ["OP09-FAQ-CONT-2"]


def test_miss_monday_adds_one_to_the_enemy_crew_legal(L):
    _bob_mr1_battle(L)
    assert L.rules("damage", hits=[hit(ANN, "marinaio1", 2)]) == []


def test_miss_monday_reduces_three_to_two(L):
    _bob_mr1_battle(L, damage=2)            # 1 + 2 = 3: Miss Monday reduces it to 2
    assert L.rules("damage", hits=[hit(ANN, "marinaio1", 2)]) == []


def test_miss_monday_reduces_three_to_two_illegal(tmp_path):
    L = Log(tmp_path)
    L.register()
    _bob_mr1_battle(L, damage=2)
    assert L.rules("damage", hits=[hit(ANN, "marinaio1", 3)]) == ["OP09-FAQ-CONT-2"]


# --- victory conditions ----------------------------------------------------------------------


def test_captain_defeated_wins_the_game(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="capitano")
    T3.ev("modifier", player=ANN, space="capitano", card="LK-W01", power=100, damage=2)
    T3.ev("battle.pass", player=BOB)
    T3.ev("battle.pass", player=ANN)
    assert T3.rules("damage", hits=[hit(BOB, "capitano", 3)]) == []
    g = T3.state().extra["games"][-1]
    assert (g["winner"], g["rule"]) == (ANN, "OP09-VITT-1")
    assert T3.rules("battle.end") == ["OP09-PARTITA-1"]  # nothing after the game's end


def test_trophies_worth_six_win_the_game(L):
    mr3 = dict(card="BA-C20", name="Mr. 3", life=3, crew="Ciurma Nemica", power=100, damage=1)
    mr5 = dict(card="BA-C21", name="Mr. 5", life=3, crew="Ciurma Nemica", power=100, damage=1)
    L.prepare(bob=(CROCO, mr3))
    L.quiet_turn(ANN)
    L.begin(BOB)
    for _ in range(3):
        L.ev("logbook.update", player=BOB)
    L.finale(BOB)
    L.begin(ANN)
    L.battle(ANN, "capitano", "marinaio1", [hit(BOB, "marinaio1", 3)],
             modifier=dict(space="capitano", card="LK-W01", damage=2))
    L.finale(ANN)
    s = L.state()
    assert L.m.ruleset.trophy_life(s, BOB) == 3 and not s.extra["game"]["over"]
    L.begin(BOB)
    assert L.rules("sailor.call", player=BOB, space="marinaio1", **mr5) == []
    assert L.rules("damage", hits=[hit(BOB, "marinaio1", 3)], cause="tecnica", card="LK-W05") == []
    g = L.state().extra["games"][-1]
    assert (g["winner"], g["rule"]) == (ANN, "OP09-VITT-2")


def test_cannot_draw_loses(T3):
    T3.ev("move", player=ANN, from_zone="forziere", to_zone="oceano", by_card="XX-W01",
          count=len(T3.state().zone(ANN, "forziere")))
    T3.ev("pass", player=ANN)
    T3.ev("move", player=ANN, from_zone="mano", to_zone="oceano", count=2)  # 3 cards: must draw 1
    assert T3.rules("fase.finale", player=ANN, draw=1) == []
    g = T3.state().extra["games"][-1]
    assert (g["winner"], g["rule"]) == (BOB, "OP09-VITT-3")


def test_optional_draw_from_an_empty_forziere_does_not_lose(T3):
    T3.ev("move", player=ANN, from_zone="forziere", to_zone="oceano", count=len(T3.state().zone(ANN, "forziere")))
    T3.ev("draw", player=ANN, card="JS-C09", forced=False)
    assert T3.state().extra["game"]["over"] is False


def _captains_tie(T3: Log, technique: str | None = None) -> list[str]:
    T3.ev("battle.start", player=ANN, attacker="capitano", target="capitano")
    if technique:
        T3.ev("technique", player=ANN, card=technique, usable_by="Chiunque")
    else:
        T3.ev("battle.pass", player=ANN)
    T3.ev("modifier", player=ANN, space="capitano", card="LK-W01", damage=2)
    T3.ev("modifier", player=BOB, space="capitano", card="BA-W01", damage=2)
    T3.ev("battle.pass", player=BOB)
    T3.ev("battle.pass", player=ANN)
    return T3.rules("damage", hits=[hit(ANN, "capitano", 3), hit(BOB, "capitano", 3)])


def test_both_at_the_same_time_is_a_draw(T3):
    assert _captains_tie(T3) == []
    g = T3.state().extra["games"][-1]
    assert (g["winner"], g["rule"]) == (None, "OP09-VITT-4")
    assert T3.state().extra["score"] == {ANN: 0, BOB: 0}


def test_one_alone_is_not_a_draw(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="capitano")
    T3.ev("modifier", player=ANN, space="capitano", card="LK-W01", power=100, damage=2)
    T3.ev("battle.pass", player=BOB)
    T3.ev("battle.pass", player=ANN)
    T3.ev("damage", hits=[hit(BOB, "capitano", 3)])
    assert T3.state().extra["games"][-1]["winner"] == ANN


def test_cs_w03_user_loses_when_both_reach_a_condition(T3):
    _captains_tie(T3, technique="CS-W03")
    g = T3.state().extra["games"][-1]
    assert (g["winner"], g["rule"]) == (BOB, "OP09-ERR-CS-W03")


def test_best_of_three_match_result(L):
    L.prepare(first=ANN)
    L.ev("concede", player=BOB)
    assert L.state().result is None
    L.prepare(first=BOB)
    L.ev("concede", player=BOB)
    r = L.state().result
    assert (r["result"], r["winner"], r["score"]) == ("win", ANN, {ANN: 2, BOB: 0})
    assert L.rules("game.start", first=BOB) == ["OP09-PARTITA-1"]


def test_single_game_option(tmp_path):
    L = Log(tmp_path, options={"games": 1})
    L.register()
    L.prepare()
    L.ev("concede", player=ANN)
    assert L.state().result["winner"] == BOB


# --- errata and FAQ --------------------------------------------------------------------------


def test_ce_c07_takes_no_damage_from_the_opponents_techniques(L):
    cec07 = dict(card="CE-C07", name="Wiper", life=2, crew="Shandia", power=400, damage=1)
    L.prepare(bob=(CROCO, cec07))
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    L.ev("battle.start", player=ANN, attacker="marinaio1", target="marinaio1")
    L.ev("technique", player=ANN, card="LK-W07", usable_by="Zoro")
    assert L.rules("damage", hits=[hit(BOB, "marinaio1", 1)], cause="tecnica", card="LK-W07") == ["OP09-ERR-CE-C07"]
    assert L.rules("damage", hits=[hit(ANN, "marinaio1", 1)], cause="tecnica", card="LK-W07") == []


def test_js_w06_conditions(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    T3.ev("battle.pass", player=ANN)
    assert "OP09-ERR-JS-W06" in T3.rules("technique", player=BOB, card="JS-W06", usable_by="Robin")


def test_js_w06_legal(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    T3.ev("technique", player=ANN, card="LK-W03", usable_by="Rufy", limit=1)
    T3.ev("reinforce", player=BOB, card="CS-C07", name="Robin", crew="Ciurma Nemica")
    assert T3.rules("technique", player=ANN, card="LK-W04", usable_by="Rufy") == []
    assert T3.rules("technique", player=BOB, card="JS-W06", usable_by="Robin") == []


def test_sb_c14_not_during_preparation(L):
    L.ev("game.start", first=ANN)
    assert L.rules("ability", player=ANN, space="marinaio1", card="SB-C14", effect="draw 3") == ["OP09-ERR-SB-C14"]


def test_sb_c14_after_preparation(T3):
    assert T3.rules("ability", player=ANN, space="marinaio1", card="SB-C14", effect="draw 3") == []


def test_js_w45_cannot_be_moved_by_the_opponent(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    T3.ev("technique", player=ANN, card="JS-W45", usable_by="Chiunque")
    assert T3.rules("move", actor=BOB, player=ANN, from_zone="tecniche", to_zone="oceano", card="JS-W45",
                    by_card="RK-W11") == ["OP09-ERR-JS-W45"]
    assert T3.rules("move", actor=ANN, player=ANN, from_zone="tecniche", to_zone="oceano", card="JS-W45") == []


def test_straw_hat_cards_never_return_from_the_ocean(tmp_path):
    L = Log(tmp_path)
    hats = [c for c in DECK_ANN if c != "LK-W01"] + ["LK-W01", "LK-W01", "LK-X01", "LK-X01"]
    L.ev("deck.register", player=ANN, cards=hats, straw_hats={"LK-W01": 2})
    L.ev("deck.register", player=BOB, cards=DECK_ANN)
    L.prepare()
    L.ev("move", player=ANN, from_zone="mano", to_zone="oceano", card="LK-W01")
    assert L.rules("move", player=ANN, from_zone="oceano", to_zone="mano", card="LK-W01",
                   by_card="ES-W01") == ["OP09-FAQ-CAPP-1"]
    L.ev("move", player=ANN, from_zone="mano", to_zone="oceano", card="LK-X01")
    assert L.rules("move", player=ANN, from_zone="oceano", to_zone="mano", card="LK-X01", by_card="ES-W01") == []


def test_no_more_life_points_than_printed(T3):
    assert T3.rules("move", player=ANN, from_zone="giornale", to_zone="vita_capitano") == ["OP09-GLOS-1"]
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    T3.ev("reinforce", player=ANN, card="LK-C10", name="Wapol", crew="Pirati di Wapol", damage=1)
    assert T3.rules("move", player=ANN, from_zone="giornale", to_zone="vita_marinaio1") == ["OP09-GLOS-1"]


def test_nothing_before_a_game_starts(L):
    assert L.rules("turn.start", player=ANN) == ["OP09-PARTITA-1"]


def test_a_full_turn_without_findings(T3):
    T3.ev("logbook.update", player=ANN)
    T3.battle(ANN, "capitano", "marinaio1", [hit(BOB, "marinaio1", 1)])
    T3.ev("sailor.call", player=ANN, space="marinaio2", **NAMI)
    T3.finale(ANN)
    assert T3.all_findings() == []


def test_damage_to_an_unknown_player_is_flagged_not_a_crash(T3):
    assert T3.rules("damage", hits=[hit("Zed", "capitano", 1)], cause="effetto") == ["OP09-BATT-13"]
    assert T3.state().extra["game"]["over"] is False
