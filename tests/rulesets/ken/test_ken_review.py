"""An independent review of ken against the Italian rulebook (ken-il-guerriero.it.md), section by section:
adversarial scenarios (edge values, ordering, simultaneous damage, both readings of the 10-point victory),
each with the half the rules allow and the half they flag. Scenarios that found a bug say so; every
catalogue quote is checked against the rulebook."""
from __future__ import annotations

import pytest

from engine.rulesets.ken import table as T
from tests.rulesets.ken.support import (BET, DESERT, FORTRESS, KEN, NOMADS, RAIDERS, RAOUL, STORM, VILLAGE, VILLAGERS,
                                        WAR, Game, deck)
from tests.rulesets.ken.test_ken_rules import _duel, _two_locations, battle, side, u
from tests.rulesets.quotes import quote_problems

HAPPENING = {"code": "V-AVV", "name": "Avvenimento", "type": "event", "morale": ["grey"], "duration": "avvenimento",
             "green": 3}


def test_every_quote_is_the_rulebooks_own_words():
    # LUOGO-4 reads a table the scan lays out column by column: checked word by word
    assert quote_problems("ken", "ken-il-guerriero.it.md", tables=frozenset({"KEN-LUOGO-4"})) == []


def ahead(lead: int, **opts) -> Game:
    """Ann `lead` Order points ahead, her turn begins (not yet her Order phase)."""
    g = Game(**opts).setup(15 if opts.get("game") == "quick" else 75)
    g.do("order.points", player="Ann", add=lead, effect="BATTAGLIA # (test)")
    g.do("turn", player="Ann")
    return g


# --- La fase Ordine / La Vittoria: a declaration breaking a condition does not end the game ------------


@pytest.mark.parametrize("lead_victory", ["automatic", "declared"])
def test_a_declaration_in_ones_own_order_phase_10_ahead_ends_the_game(lead_victory):
    g = ahead(10, lead_victory=lead_victory)
    g.do("phase", name="order")
    assert g.do("victory.declare", player="Ann") == set()
    assert g.rs.outcome(g.state).winner == "Ann"
    assert "KEN-T-2" in g.do("phase", name="disengage")


@pytest.mark.parametrize("when, lead, player, rule", [
    ("draw", 12, "Ann", "KEN-ORDINE-2"),    # a later phase of her own turn
    ("order", 9, "Ann", "KEN-VITT-1"),      # one point short
    ("order", 0, "Bob", "KEN-ORDINE-2"),    # the opponent, in Ann's Order phase
])
def test_a_declaration_that_breaks_a_condition_is_flagged_and_the_game_goes_on(when, lead, player, rule):
    """Found by the first reading (issue 12): «dovrà attendere la propria Fase di Ordine per dichiararsi
    vincitore»; before the fix the declaration was flagged and ended the game all the same."""
    g = ahead(lead, lead_victory="declared")
    if player == "Bob":
        g.do("order.points", player="Bob", add=12, effect="BATTAGLIA # (test)")
    g.do("phase", name="order")
    if when == "draw":
        g.do("phase", name="draw")
        g.do("draw", player="Ann")
    assert rule in g.do("victory.declare", player=player)
    assert g.state.result is None and g.rs.outcome(g.state) is None
    assert "KEN-T-2" not in g.do("phase", name="presentation" if when == "draw" else "disengage")


def test_exactly_ten_ahead_wins_in_the_order_phase_nine_does_not():
    """«se in questo momento del gioco possiede 10 o più Punti Ordine del suo avversario ha Vinto ed il
    gioco termina» (option lead_victory=automatic, the default)."""
    ten, nine = ahead(10), ahead(9)
    ten.do("phase", name="order")
    nine.do("phase", name="order")
    assert ten.state.result["rule"] == "KEN-VITT-1" and nine.state.result is None
    assert ten.do("victory.declare", player="Ann") == set()  # the announcement confirms it


def test_a_lead_gained_in_combat_waits_for_ones_own_next_order_phase():
    """«se durante la Fase di Combattimento [...] ha più di 10 Punti Ordine [...] dovrà attendere la propria
    Fase di Ordine [...] sempre che ancora ci siano le condizioni di vittoria»."""
    g = Game().setup()
    g.turn("Ann", upto="combat")
    g.do("order.points", player="Ann", add=11, effect="BATTAGLIA # (test)")  # 11 ahead in her Combat phase
    g.do("phase", name="epilogue")
    g.turn("Bob", upto="order")
    assert g.state.result is None  # Bob's Order phase: not Ann's
    g.do("phase", name="epilogue")
    g.do("turn", player="Ann")
    g.do("phase", name="order")
    assert g.state.result["winner"] == "Ann"
    lost_it = Game().setup()
    lost_it.turn("Ann", upto="combat")
    lost_it.do("order.points", player="Ann", add=11, effect="BATTAGLIA # (test)")
    lost_it.do("phase", name="epilogue")
    lost_it.turn("Bob", upto="combat")
    lost_it.do("order.points", player="Bob", add=5, effect="BATTAGLIA # (test)")  # the lead falls to 6
    lost_it.do("phase", name="epilogue")
    lost_it.do("turn", player="Ann")
    lost_it.do("phase", name="order")
    assert lost_it.state.result is None  # «sempre che ancora ci siano le condizioni di vittoria»


def test_the_quick_game_ignores_the_lead_unless_the_option_says_otherwise():
    quick = ahead(15, game="quick")
    quick.do("phase", name="order")
    assert quick.state.result is None
    assert "KEN-RAPIDO-2" in quick.do("victory.declare", player="Ann") and quick.state.result is None
    opted = ahead(15, game="quick", quick_lead_victory=True)
    opted.do("phase", name="order")
    assert opted.state.result["winner"] == "Ann"


# --- La fase di Pescata / Presentazione ------------------------------------------------------------------


def test_one_to_three_cards_in_the_draw_phase():
    g = Game().setup().turn("Ann", upto="draw", draw=0)
    assert g.do("draw", player="Ann", count=2) == set()
    assert g.do("draw", player="Ann", count=1) == set()  # three in all, in two draws
    assert "KEN-PESCA-1" in g.do("draw", player="Ann", count=1)  # a fourth
    none = Game().setup().turn("Ann", upto="draw", draw=0)
    assert "KEN-PESCA-1" in none.do("phase", name="presentation")  # «deve almeno pescare 1 carta»


def test_seven_cards_may_be_kept_after_the_presentation_eight_may_not():
    g = Game().setup().turn("Ann")  # 8 in hand
    g.do("move", player="Ann", from_zone="hand", to_zone="past")
    assert g.do("phase", name="combat") == set()
    eight = Game().setup().turn("Ann")
    assert "KEN-PRES-3" in eight.do("phase", name="combat")


def test_the_disengage_phase_is_skipped_only_in_ones_first_turn():
    g = Game().setup().turn("Ann", upto="epilogue")
    g.turn("Bob", upto="epilogue")
    g.do("turn", player="Ann")
    g.do("phase", name="order")
    assert g.do("phase", name="disengage") == set()
    first = Game().setup()
    first.do("turn", player="Ann")
    first.do("phase", name="order")
    assert "KEN-DISIMP-1" in first.do("phase", name="disengage")


# --- La sceneggiatura: edge values ------------------------------------------------------------------------


def test_a_quarter_of_the_deck_in_locations_eighteen_of_seventy_five_nineteen_too_many():
    base = [dict(KEN, count=57)]  # Masters with Life: no limit
    locations = [dict(DESERT, name=f"Deserto {i}", count=n) for i, n in enumerate((5, 5, 5, 3))]
    assert Game().do("deck.register", player="Ann", cards=base + locations) == set()  # 18 in 75
    locations[-1]["count"] = 4
    assert "KEN-MAZZO-3" in Game().do("deck.register", player="Ann", cards=[dict(KEN, count=56)] + locations)  # 19


def test_seventy_five_cards_at_least_and_fifteen_exactly_in_the_quick_game():
    assert Game().do("deck.register", player="Ann", cards=deck(75)) == set()
    short = deck(75)
    short[-1]["count"] -= 1
    assert "KEN-MAZZO-6" in Game().do("deck.register", player="Ann", cards=short)
    assert Game(game="quick").do("deck.register", player="Ann", cards=deck(15)) == set()
    assert "KEN-MAZZO-5" in Game(game="quick").do("deck.register", player="Ann", cards=deck(15) + [dict(STORM, name="X")])


# --- Le carte Evento -------------------------------------------------------------------------------------


def test_a_happening_goes_to_the_past_at_once_and_gives_no_green_points():
    """«AVVENIMENTO la sua Capacità Speciale si attiva nel momento in cui la si gioca e quindi viene
    scartata nel Passato». Found by this review: it stayed in the Destiny for good (and its green points
    counted every Order phase)."""
    g = Game().setup().turn("Ann")
    assert g.do("play", player="Ann", cards=[{"facts": HAPPENING}]) == set()
    assert g.state.zone("Ann", "destiny") == [] and g.state.zone("Ann", "past")[-1].code == "V-AVV"
    assert T.green_points(g.state, "Ann") == 0
    assert "KEN-EVENTO-1" in g.do("play", player="Bob", cards=[{"facts": HAPPENING}])  # only in one's own turn


def test_two_identical_lasting_events_are_not_in_force_together():
    """«Due carte uguali, cioè con lo stesso Nome e Tipo, non possono essere cumulate se non c'è scritto
    Cumulabile». Found by this review: a second Guerra beside the first was accepted."""
    g = Game().setup().turn("Ann")
    assert g.play("Ann", WAR) == set()
    assert g.do("play", player="Ann", cards=[{"facts": dict(WAR, code="V-GU2", name="Guerra Santa")}]) == set()
    assert "KEN-EVENTO-2" in g.play("Ann", WAR)
    cumulative = Game().setup().turn("Ann")
    cumulative.do("play", player="Ann", cards=[{"facts": dict(WAR, cumulative=True)}])
    assert cumulative.do("play", player="Ann", cards=[{"facts": dict(WAR, cumulative=True)}]) == set()


def test_puntata_in_either_presentation_gioca_e_scarta_at_any_time_and_both_leave_at_the_epilogue():
    g = Game().setup().turn("Ann")
    assert g.play("Bob", BET) == set()  # PUNTATA in the opponent's Presentation phase
    g.do("phase", name="combat")
    assert g.play("Bob", STORM) == set()  # GIOCA E SCARTA: any time
    assert "KEN-EVENTO-1" in g.do("play", player="Ann", cards=[{"facts": dict(BET, code="V-PU2", name="Scommessa 2")}])
    g.do("phase", name="epilogue")
    assert g.state.zone("Bob", "destiny") == []


# --- La fase di Combattimento ---------------------------------------------------------------------------


def test_the_first_group_attacks_the_frontier_the_next_the_location_behind_it():
    g = _two_locations()
    desert, fortress = u(g, "Bob", "Deserto", "territory"), u(g, "Bob", "Fortezza", "territory")
    assert g.do("combat.attack", player="Ann", groups=[
        {"target": desert, "cards": [u(g, "Ann", "Kenshiro")]},
        {"target": fortress, "cards": [u(g, "Ann", "Bat")]}]) == set()
    wrong = _two_locations()
    assert "KEN-COMB-2" in wrong.do("combat.attack", player="Ann", groups=[
        {"target": u(wrong, "Bob", "Fortezza", "territory"), "cards": [u(wrong, "Ann", "Bat")]},
        {"target": u(wrong, "Bob", "Deserto", "territory"), "cards": [u(wrong, "Ann", "Kenshiro")]}])


def test_a_grey_army_defends_only_grey_locations_a_red_one_also_grey_ones():
    """«gli Eserciti Neutrali, grigi, possono solo difendere Luoghi Neutrali, grigi»; red ones «i Luoghi
    della stessa Morale [...] ma sempre i Luoghi Neutrali»."""
    g = battle(ann=[(KEN,)], bob=[(FORTRESS, RAIDERS), (DESERT,)])  # Fortezza red, Deserto grey
    desert = u(g, "Bob", "Deserto", "territory")
    g.do("combat.attack", player="Ann", groups=[{"target": desert, "cards": [u(g, "Ann", "Kenshiro")]}])
    assert g.do("combat.defend", player="Bob", groups=[{"target": desert, "cards": [u(g, "Bob", "Predoni")]}]) == set()
    grey = battle(ann=[(KEN,)], bob=[(FORTRESS, NOMADS)])
    fort = u(grey, "Bob", "Fortezza", "territory")
    grey.do("combat.attack", player="Ann", groups=[{"target": fort, "cards": [u(grey, "Ann", "Kenshiro")]}])
    assert "KEN-LUOGO-7" in grey.do("combat.defend", player="Bob", groups=[{"target": fort, "cards": [u(grey, "Bob", "Nomadi")]}])


def test_damage_is_simultaneous_each_side_loses_one_life_esempio_1():
    """Esempio 1: Kenshiro (3 Attack) against Raoul (Defence 1), Raoul (4) against Kenshiro (Defence 2):
    both lose a Life at once, Raoul's only Life is gone; a Life absorbs any amount of damage."""
    g = _duel(ann_lives=3)
    ken, raoul = u(g, "Ann", "Kenshiro"), u(g, "Bob", "Raoul")
    before = (g.state.counters["Ann"]["order"], g.state.counters["Bob"]["order"])
    assert g.do("combat.damage", target=g.desert, attacker=side(3, vanquished=[raoul]), defender=side(4)) == set()
    assert T.lives(g.state, T.resolve_unit(g.state, ken)) == 2 and T.resolve_unit(g.state, raoul) is None
    assert g.state.counters["Ann"]["order"] - before[0] == 4 and g.state.counters["Bob"]["order"] - before[1] == 3
    wrong = _duel(ann_lives=3)
    assert "KEN-VITA-5" in wrong.do("combat.damage", target=wrong.desert, attacker=side(3),
                                    defender=side(4, vanquished=[u(wrong, "Ann", "Kenshiro")]))


def test_an_undefended_location_is_conquered_a_defended_one_that_holds_is_not():
    """«Se non è stato designato nessun gruppo a difesa di un Luogo attaccato, quel Luogo è
    automaticamente conquistato»."""
    g = _two_locations()
    desert = u(g, "Bob", "Deserto", "territory")
    g.do("combat.attack", player="Ann", groups=[{"target": desert, "cards": [u(g, "Ann", "Kenshiro")]}])
    g.do("combat.defend", player="Bob", groups=[])
    assert g.do("combat.end", conquered=[desert]) == set()
    held = _two_locations()
    desert = u(held, "Bob", "Deserto", "territory")
    held.do("combat.attack", player="Ann", groups=[{"target": desert, "cards": [u(held, "Ann", "Bat")]}])
    held.do("combat.defend", player="Bob", groups=[{"target": desert, "cards": [u(held, "Bob", "Raoul")]}])
    held.do("combat.damage", target=desert, attacker=side(1), defender=side(4))
    assert "KEN-CONQ-1" in held.do("combat.end", conquered=[desert])


def test_the_top_life_at_the_start_of_a_combat_once_attacker_first():
    """«all'inizio di ogni combattimento, in questo ultimo caso una sola volta prima decide l'attaccante e
    poi il difensore». Found by this review: a second choice, or the attacker choosing after the
    defender, was accepted."""
    def duel() -> Game:
        g = battle(ann=[(KEN,), lambda g: g.play("Ann", {"code": "M-KEN", "stack": u(g, "Ann", "Kenshiro")})],
                   bob=[(DESERT,), (RAOUL,), lambda g: g.play("Bob", {"code": "M-RAO", "stack": u(g, "Bob", "Raoul")})])
        desert = u(g, "Bob", "Deserto", "territory")
        g.do("combat.attack", player="Ann", groups=[{"target": desert, "cards": [u(g, "Ann", "Kenshiro")]}])
        return g
    g = duel()
    ann_lives = [c.uid for c in g.state.zone("Ann", "forces")]
    bob_lives = [c.uid for c in g.state.zone("Bob", "forces")]
    assert g.do("life.top", player="Ann", uid=ann_lives[0]) == set()
    assert g.do("life.top", player="Bob", uid=bob_lives[0]) == set()
    assert "KEN-VITA-3" in g.do("life.top", player="Ann", uid=ann_lives[1])  # a second time
    late = duel()
    late.do("life.top", player="Bob", uid=[c.uid for c in late.state.zone("Bob", "forces")][0])
    assert "KEN-VITA-3" in late.do("life.top", player="Ann", uid=[c.uid for c in late.state.zone("Ann", "forces")][0])


def test_an_inhabited_location_needs_its_army_an_uninhabited_one_does_not():
    g = Game().setup().turn("Ann")
    assert g.play("Ann", DESERT) == set()
    assert g.play("Ann", VILLAGE, VILLAGERS) == set()
    assert "KEN-LUOGO-2" in g.do("play", player="Ann", cards=[{"facts": dict(VILLAGE, code="L-VI2", name="Villaggio 2")}])
