"""Ken il Guerriero: a legal and an illegal case for every rule the ruleset marks "checked".

Test names follow the rule ids (KEN-LUOGO-2 -> test_ken_luogo_2_legal / _illegal);
test_every_checked_rule_has_a_legal_and_an_illegal_test enforces it."""
from __future__ import annotations

import sys

import pytest

from engine.rulesets.ken.ruleset import RULES
from tests.rulesets.ken.support import (
    BAT,
    BET,
    COBRA,
    DESERT,
    FORTRESS,
    FURY,
    GUARDS,
    HYAKURETSU,
    JACKET,
    KEN,
    NOMADS,
    RAIDERS,
    RAOUL,
    REI,
    STORM,
    STRIKE,
    TEMPLE,
    VILLAGE,
    VILLAGERS,
    WAR,
    WASTES,
    Game,
    deck,
)


def battle(ann=(), bob=(), **opts) -> Game:
    """Ann plays `ann` in her first turn, Bob `bob` in his; then Ann's second turn, in the Combat phase.
    Each play is a tuple of cards, or a callable(g) for plays that need ids known only then."""
    g = Game(**opts).setup()
    for player, plays in (("Ann", ann), ("Bob", bob)):
        g.turn(player)
        for cards in plays:
            cards(g) if callable(cards) else g.play(player, *cards)
        g.discard_to_7(player)
        g.do("phase", name="combat")
        g.do("phase", name="epilogue")
    g.turn("Ann", upto="combat")
    assert g.findings == [], g.findings
    return g


def u(g: Game, player: str, name: str, zone: str = "forces") -> str:
    return g.uid_of(player, zone, name)


def at(g: Game, location: str, *cards: str, commander: str | None = None) -> dict:
    """A combat group: Ann's cards (by name) against one of Bob's Locations (by name)."""
    group = {"target": u(g, "Bob", location, "territory"), "cards": [u(g, "Ann", c) for c in cards]}
    if commander:
        group["commander"] = u(g, "Ann", commander)
    return group


def attack(g: Game, *groups: dict) -> set[str]:
    """Ann declares her attack with these groups: the rules it breaks."""
    return g.do("combat.attack", player="Ann", groups=list(groups))


def side(damage: int, **kw) -> dict:
    return {"damage": damage, **kw}


# --- La sceneggiatura -----------------------------------------------------------------------------

def register(cards, **opts) -> set[str]:
    return Game(**opts).do("deck.register", player="Ann", cards=cards)


def test_ken_mazzo_1_legal():
    assert register(deck(75)) == set()


def test_ken_mazzo_1_illegal():
    cards = deck(75)
    cards[-1]["count"] += 1  # a sixth "Predone"
    cards[-1]["count"] = 6
    assert "KEN-MAZZO-1" in register(cards)


def test_ken_mazzo_2_legal():
    cards = deck(75) + [dict(KEN, count=12)]  # Masters with Life: no limit
    assert register(cards) == set()


def test_ken_mazzo_2_illegal():
    bat = dict(BAT, count=6)  # a Character WITHOUT Life has the usual limit
    assert "KEN-MAZZO-1" in register(deck(75) + [bat])


def test_ken_mazzo_3_legal():
    cards = deck(75) + [dict(DESERT, name="Deserto 2", count=5), dict(DESERT, name="Deserto 3", count=3)]
    assert register(cards) == set()  # 10 + 8 = 18 Locations in 83 cards


def test_ken_mazzo_3_illegal():
    extra = [dict(DESERT, name=f"Deserto {i}", count=5) for i in range(2, 5)]
    assert "KEN-MAZZO-3" in register(deck(75) + extra)  # 25 Locations in 90 cards


def test_ken_mazzo_4_legal():
    assert register(deck(75) + [dict(STORM, name="Unica", unique=True, count=5)]) == set()


def test_ken_mazzo_4_illegal():
    assert "KEN-MAZZO-4" in register(deck(75) + [dict(STORM, name="Unica", unique=True, count=6)])


def test_ken_mazzo_5_legal():
    cards = [dict(f, count=1) for f in (KEN, BAT, VILLAGERS, GUARDS, RAIDERS, NOMADS, COBRA, VILLAGE, DESERT,
                                        HYAKURETSU, STRIKE, FURY, JACKET, STORM, WAR)]
    assert register(cards, game="quick") == set()


def test_ken_mazzo_5_illegal():
    assert "KEN-MAZZO-5" in register([dict(KEN, count=16)], game="quick")


def test_ken_mazzo_6_legal():
    assert register(deck(80)) == set()


def test_ken_mazzo_6_illegal():
    assert "KEN-MAZZO-6" in register(deck(74))


def test_ken_gloss_max_legal():
    assert register(deck(75) + [dict(STORM, name="Tanti", max=7, count=7)]) == set()


def test_ken_gloss_max_illegal():
    assert "KEN-GLOSS-MAX" in register(deck(75) + [dict(STORM, name="Pochi", max=2, count=3)])


# --- setup, turns, phases --------------------------------------------------------------------------

def test_ken_gioco_2_legal():
    g = Game().setup()
    assert g.do("turn", player="Ann") == set()


def test_ken_gioco_2_illegal():
    g = Game()
    for p in g.players:
        g.do("deck.register", player=p, cards=deck())
    g.do("draw", player="Ann", count=7)
    g.do("draw", player="Bob", count=6)
    assert "KEN-GIOCO-2" in g.do("turn", player="Ann")


def test_ken_seq_1_legal():
    g = Game().setup().turn("Ann", upto="combat")
    assert g.findings == []


def test_ken_seq_1_illegal():
    g = Game().setup().turn("Ann", upto="presentation")
    assert "KEN-SEQ-1" in g.do("phase", name="draw")


def test_ken_seq_2_legal():
    g = Game().setup().turn("Ann", upto="epilogue")
    assert g.do("turn", player="Bob") == set()


def test_ken_seq_2_illegal():
    g = Game().setup().turn("Ann", upto="epilogue")
    assert "KEN-SEQ-2" in g.do("turn", player="Ann")


def test_ken_disimp_1_legal():
    g = Game().setup().turn("Ann", upto="epilogue").turn("Bob", upto="epilogue")
    g.do("turn", player="Ann")
    g.do("phase", name="order")
    assert g.do("phase", name="disengage") == set()
    assert g.do("disengage", player="Ann") == set()


def test_ken_disimp_1_illegal():
    g = Game().setup()
    g.do("turn", player="Ann")
    g.do("phase", name="order")
    assert "KEN-DISIMP-1" in g.do("phase", name="disengage")  # skipped on one's first turn


def test_ken_pesca_1_legal():
    g = Game().setup().turn("Ann", upto="draw", draw=0)
    assert g.do("draw", player="Ann", count=3) == set()
    assert g.do("phase", name="presentation") == set()


def test_ken_pesca_1_illegal():
    g = Game().setup().turn("Ann", upto="draw", draw=0)
    assert "KEN-PESCA-1" in g.do("phase", name="presentation")  # no card drawn
    g2 = Game().setup().turn("Ann", upto="draw", draw=0)
    assert "KEN-PESCA-1" in g2.do("draw", player="Ann", count=4)  # more than 3


def test_ken_pesca_2_legal():
    g = Game().setup(75).turn("Ann", upto="draw", draw=0)
    assert g.do("draw", player="Ann", count=3) == set()
    assert g.state.result is None


def test_ken_pesca_2_illegal():
    """Who finishes the Future deck loses (standard game): the draw is flagged (info) and decides."""
    g = Game().setup(75).turn("Ann", upto="draw", draw=3)  # 65 cards left
    assert "KEN-PESCA-2" not in g.do("draw", player="Ann", count=64, effect="Cerca (test)")
    assert "KEN-PESCA-2" in g.do("draw", player="Ann", count=1, effect="Pesca 1")
    assert g.state.result["winner"] == "Bob"
    assert "KEN-T-2" in g.do("phase", name="presentation")


def test_ken_pres_3_legal():
    g = Game().setup().turn("Ann")  # 8 cards in hand
    g.play("Ann", KEN)
    assert g.do("phase", name="combat") == set()


def test_ken_pres_3_illegal():
    g = Game().setup().turn("Ann")
    assert "KEN-PRES-3" in g.do("phase", name="combat")  # 8 cards in hand
    g2 = Game().setup().turn("Ann", upto="epilogue", discard=False)
    assert "KEN-PRES-3" in {f.rule for f in g2.findings}


def test_ken_pres_1_legal():
    g = Game().setup().turn("Ann")
    assert g.play("Ann", KEN) == set()


def test_ken_pres_1_illegal():
    g = Game().setup().turn("Ann")
    for _ in range(8):
        g.do("move", player="Ann", from_zone="hand", to_zone="past")
    assert "KEN-PRES-1" in g.play("Ann", KEN)


# --- Order points and victory -----------------------------------------------------------------------

def test_ken_ordine_1_legal():
    g = battle(ann=[(KEN,), (VILLAGE, VILLAGERS)])
    g.do("phase", name="epilogue")
    g.turn("Bob", upto="epilogue")
    g.do("turn", player="Ann")
    assert g.do("phase", name="order", green=3) == set()  # Kenshiro 2 + Villaggio 1
    assert g.order("Ann") == 6  # 3 in turn 2, 3 now


def test_ken_ordine_1_illegal():
    g = battle(ann=[(KEN,), lambda g: g.play("Ann", {"code": "M-KEN", "stack": u(g, "Ann", "Kenshiro")})])
    g.do("phase", name="epilogue")
    g.turn("Bob", upto="epilogue")
    g.do("turn", player="Ann")
    # two Lives of Kenshiro: only the top card's green points count (KEN-VITA-2)
    assert "KEN-ORDINE-1" in g.do("phase", name="order", green=4)


def _ahead_by(lead: int, **opts) -> Game:
    g = Game(**opts).setup(15 if opts.get("game") == "quick" else 75)
    g.do("order.points", player="Ann", add=lead, effect="BATTAGLIA # (test)")
    g.do("turn", player="Ann")
    g.do("phase", name="order")
    return g


def test_ken_ordine_2_legal():
    assert _ahead_by(10).do("victory.declare", player="Ann") == set()


def test_ken_ordine_2_illegal():
    g = _ahead_by(10)
    g.do("phase", name="draw")
    g.do("draw", player="Ann")
    assert "KEN-ORDINE-2" in g.do("victory.declare", player="Ann")


def test_ken_vitt_1_legal():
    g = _ahead_by(12)
    assert g.do("victory.declare", player="Ann") == set()
    assert g.rs.outcome(g.state).winner == "Ann"


def test_ken_vitt_1_illegal():
    assert "KEN-VITT-1" in _ahead_by(9).do("victory.declare", player="Ann")


def test_ken_rapido_2_legal():
    g = _ahead_by(10, game="quick", quick_lead_victory=True)
    assert g.do("victory.declare", player="Ann") == set()


def test_ken_rapido_2_illegal():
    assert "KEN-RAPIDO-2" in _ahead_by(10, game="quick").do("victory.declare", player="Ann")


def _quick_to_the_end(ann_points: int, bob_points: int) -> Game:
    g = Game(game="quick").setup(15)
    g.do("order.points", player="Ann", add=ann_points, effect="test")
    g.do("order.points", player="Bob", add=bob_points, effect="test")
    g.turn("Ann", upto="draw", draw=3)
    g.turn("Bob", upto="draw", draw=3)
    g.turn("Ann", upto="draw", draw=3)
    g.turn("Bob", upto="draw", draw=3)
    g.turn("Ann", upto="draw", draw=2)  # Ann's Future is empty: no loss in the quick game
    assert g.state.result is None
    g.turn("Bob", upto="draw", draw=0)
    return g


def test_ken_rapido_1_legal():
    g = _quick_to_the_end(5, 3)
    assert g.do("draw", player="Bob", count=1) == set()  # Bob still has a card: the game goes on
    assert g.state.result is None


def test_ken_rapido_1_illegal():
    g = _quick_to_the_end(5, 3)
    assert "KEN-RAPIDO-1" in g.do("draw", player="Bob", count=2)  # both Futures empty: the game ends
    out = g.rs.outcome(g.state)
    assert (out.result, out.winner) == ("win", "Ann")


def test_ken_rapido_1_equal_points_is_a_draw():
    g = _quick_to_the_end(4, 4)
    g.do("draw", player="Bob", count=2)
    assert g.rs.outcome(g.state).result == "draw"


def test_ken_t_2_legal():
    g = _ahead_by(10)
    g.do("victory.declare", player="Ann")
    assert g.do("note", text="players sign the slip") == set()


def test_ken_t_2_illegal():
    g = _ahead_by(10)
    g.do("victory.declare", player="Ann")
    assert "KEN-T-2" in g.do("phase", name="disengage")


# --- playing cards -------------------------------------------------------------------------------

def test_ken_prot_1_legal():
    assert Game().setup().turn("Ann").play("Ann", KEN) == set()


def test_ken_prot_1_illegal():
    g = Game().setup().turn("Ann", upto="draw")
    assert "KEN-PROT-1" in g.play("Ann", KEN)
    g2 = Game().setup().turn("Ann")
    assert "KEN-PROT-1" in g2.play("Bob", RAOUL)  # not Bob's Presentation phase


def test_ken_luogo_1_legal():
    assert Game().setup().turn("Ann").play("Ann", DESERT) == set()


def test_ken_luogo_1_illegal():
    assert "KEN-LUOGO-1" in Game().setup().turn("Ann", upto="draw").play("Ann", DESERT)


def test_ken_luogo_2_legal():
    assert Game().setup().turn("Ann").play("Ann", VILLAGE, VILLAGERS) == set()


def test_ken_luogo_2_illegal():
    assert "KEN-LUOGO-2" in Game().setup().turn("Ann").play("Ann", VILLAGE)


def test_ken_esercito_1_legal():
    alone = dict(NOMADS, name="Nomadi Erranti", code="E-ERR", plays_alone=True)
    assert Game().setup().turn("Ann").play("Ann", {"facts": alone}) == set()


def test_ken_esercito_1_illegal():
    assert "KEN-ESERCITO-1" in Game().setup().turn("Ann").play("Ann", VILLAGERS)


def test_ken_luogo_3_legal():
    assert Game().setup().turn("Ann").play("Ann", TEMPLE, GUARDS) == set()


def test_ken_luogo_3_illegal():
    assert "KEN-LUOGO-3" in Game().setup().turn("Ann").play("Ann", TEMPLE, NOMADS)


def test_ken_luogo_4_legal():
    assert Game().setup().turn("Ann").play("Ann", FORTRESS, NOMADS) == set()  # red Location, grey Army


def test_ken_luogo_4_illegal():
    assert "KEN-LUOGO-4" in Game().setup().turn("Ann").play("Ann", FORTRESS, VILLAGERS)  # red with blue


def test_ken_unica_1_legal():
    unique = dict(WAR, name="Unica", code="V-UNI", unique=True)
    g = Game().setup().turn("Ann")
    assert g.play("Ann", {"facts": unique}) == set()
    assert Game().setup().turn("Ann").play("Ann", {"facts": unique}) == set()


def test_ken_unica_1_illegal():
    unique = dict(WAR, name="Unica", code="V-UNI", unique=True)
    g = Game().setup().turn("Ann")
    g.play("Ann", {"facts": unique})
    assert "KEN-UNICA-1" in g.play("Ann", {"facts": unique})


def test_ken_evento_1_legal():
    g = Game().setup().turn("Ann")
    assert g.play("Ann", WAR) == set()
    assert g.play("Bob", BET) == set()  # PUNTATA: in the opponent's Presentation phase too
    g.do("phase", name="combat")
    assert g.play("Bob", STORM) == set()  # GIOCA E SCARTA: at any time


def test_ken_evento_1_illegal():
    g = Game().setup().turn("Ann")
    assert "KEN-EVENTO-1" in g.play("Bob", WAR)  # PERMANENTE only in one's own Presentation
    g.do("phase", name="combat")
    assert "KEN-EVENTO-1" in g.play("Ann", BET)


HAPPENING = {"code": "V-AVV", "name": "Avvenimento", "type": "event", "morale": ["grey"], "duration": "avvenimento"}


def test_ken_evento_2_legal():
    g = Game().setup().turn("Ann")
    assert g.play("Ann", WAR) == set()
    assert g.do("play", player="Ann", cards=[{"facts": HAPPENING}]) == set()
    assert g.do("play", player="Ann", cards=[{"facts": HAPPENING}]) == set()  # the first went to the Past at once
    assert [c.code for c in g.state.zone("Ann", "past")][-2:] == ["V-AVV", "V-AVV"]
    assert g.play("Bob", WAR) == {"KEN-EVENTO-1"}  # Bob's own Guerra is not Ann's: only the timing is wrong


def test_ken_evento_2_illegal():
    g = Game().setup().turn("Ann")
    g.play("Ann", WAR)
    assert "KEN-EVENTO-2" in g.play("Ann", WAR)  # a second PERMANENTE Guerra beside the first


def test_ken_gloss_durata_legal():
    back = dict(WAR, name="Ritorno", code="V-RIT", duration="riprendi-dopo-uso")
    assert Game().setup().turn("Ann").play("Ann", {"facts": back}) == set()


def test_ken_gloss_durata_illegal():
    back = dict(WAR, name="Ritorno", code="V-RIT", duration="riprendi-dopo-uso")
    assert "KEN-GLOSS-DURATA" in Game().setup().turn("Ann", upto="draw").play("Ann", {"facts": back})


def test_ken_t_3_legal():
    assert Game().setup().turn("Ann").play("Ann", {"code": "M-KEN"}) == set()


def test_ken_t_3_illegal():
    assert "KEN-T-3" in Game().setup().turn("Ann").play("Ann", {"code": "NOT-REGISTERED"})


def test_ken_t_1_legal():
    g = Game().setup().turn("Ann")
    g.play("Ann", DESERT)
    assert g.do("move", player="Ann", from_zone="territory", to_zone="past", uid=u(g, "Ann", "Deserto", "territory")) == set()


def test_ken_t_1_illegal():
    g = Game().setup().turn("Ann")
    assert "KEN-T-1" in g.do("move", player="Ann", from_zone="territory", to_zone="past", uid="c999")


# --- Life --------------------------------------------------------------------------------------------

def test_ken_vita_1_legal():
    g = Game().setup().turn("Ann")
    g.play("Ann", KEN)
    assert g.play("Ann", {"code": "M-KEN", "stack": u(g, "Ann", "Kenshiro")}) == set()
    unit = u(g, "Ann", "Kenshiro")
    from engine.rulesets.ken import table as T
    assert T.lives(g.state, T.resolve_unit(g.state, unit)) == 2


def test_ken_vita_1_illegal():
    g = Game().setup().turn("Ann")
    g.play("Ann", KEN)
    assert "KEN-VITA-1" in g.play("Ann", KEN)  # a second Kenshiro beside the first
    assert "KEN-VITA-1" in g.play("Ann", {"code": "M-RAO", "stack": u(g, "Ann", "Kenshiro")})  # onto another


def test_ken_vita_3_legal():
    g = Game().setup().turn("Ann")
    g.play("Ann", KEN)
    first = u(g, "Ann", "Kenshiro")
    g.play("Ann", {"code": "M-KEN", "stack": first})
    assert g.do("life.top", player="Ann", uid=first) == set()


def test_ken_vita_3_illegal():
    g = Game().setup().turn("Ann")
    g.play("Ann", KEN)
    first = u(g, "Ann", "Kenshiro")
    g.play("Ann", {"code": "M-KEN", "stack": first})
    g.do("phase", name="combat")
    g.do("phase", name="epilogue")
    assert "KEN-VITA-3" in g.do("life.top", player="Ann", uid=first)


def _bobs_turn_after_ken(**options) -> Game:
    """Ann plays Kenshiro in her first turn and ends it; Bob's first turn, at its Presentation."""
    g = _with_ken(**options)
    g.do("phase", name="combat")
    g.do("phase", name="epilogue")
    return g.turn("Bob")


def test_ken_opz_1_legal():
    assert _bobs_turn_after_ken(optional_rule_1=True).play("Bob", RAOUL) == set()


def test_ken_opz_1_illegal():
    assert "KEN-OPZ-1" in _bobs_turn_after_ken(optional_rule_1=True).play("Bob", KEN)
    assert _bobs_turn_after_ken().play("Bob", KEN) == set()  # the optional rule is off by default


# --- assignment ---------------------------------------------------------------------------------------

def _with_ken(**options) -> Game:
    g = Game(**options).setup().turn("Ann")
    g.play("Ann", KEN)
    return g


def _on_kenshiro(code: str, **options) -> set[str]:
    """What the judge says of assigning `code` to Ann's Kenshiro (blue, Hokuto) in her turn 1."""
    g = _with_ken(**options)
    return g.play("Ann", {"code": code, "host": u(g, "Ann", "Kenshiro")})


def test_ken_assegn_1_legal():
    assert _on_kenshiro("T-HYA") == set()


def test_ken_assegn_1_illegal():
    g = Game().setup().turn("Ann")
    g.play("Ann", VILLAGE, VILLAGERS)
    assert "KEN-ASSEGN-1" in g.play("Ann", {"code": "T-HYA", "host": u(g, "Ann", "Villaggi Liberi")})


def test_ken_assegn_2_legal():
    assert _on_kenshiro("Q-GIU") == set()  # grey on blue


def test_ken_assegn_2_illegal():
    assert "KEN-ASSEGN-2" in _on_kenshiro("Q-LAM")  # red on blue


def test_ken_assegn_3_legal():
    assert _on_kenshiro("T-HYA") == set()  # Hokuto on Hokuto


def test_ken_assegn_3_illegal():
    assert "KEN-ASSEGN-3" in _on_kenshiro("T-NAN")  # Nanto on Hokuto


def test_ken_assegn_4_legal():
    g = Game(profile_rule=True).setup().turn("Ann")
    g.play("Ann", BAT)
    assert g.play("Ann", {"code": "Q-GIU", "host": u(g, "Ann", "Bat")}) == set()  # character profile


def test_ken_assegn_4_illegal():
    assert "KEN-ASSEGN-4" in _on_kenshiro("Q-GIU", profile_rule=True)
    assert _on_kenshiro("Q-GIU") == set()  # the Profile rule is optional and off by default


def test_ken_assegn_5_legal():
    g = Game().setup().turn("Ann")
    assert g.play("Ann", DESERT, {"code": "Q-MUR", "host": "#0"}) == set()  # the Location played with it


def test_ken_assegn_5_illegal():
    g = Game().setup().turn("Ann")
    assert "KEN-ASSEGN-5" in g.play("Ann", {"code": "Q-MUR", "host": "c999"})


def test_ken_tecnica_1_legal():
    g = _with_ken()
    ken = u(g, "Ann", "Kenshiro")
    g.play("Ann", {"code": "T-HYA", "host": ken})
    other = dict(HYAKURETSU, name="Hokuto Zankai Sekiken", code="T-ZAN", duration="scartare-dopo-uso")
    assert g.play("Ann", {"facts": other, "host": ken}) == set()  # SCARTARE DOPO L'USO: as many as you like


def test_ken_tecnica_1_illegal():
    g = _with_ken()
    ken = u(g, "Ann", "Kenshiro")
    g.play("Ann", {"code": "T-HYA", "host": ken})
    other = dict(HYAKURETSU, name="Hokuto Zankai Sekiken", code="T-ZAN")
    assert "KEN-TECNICA-1" in g.play("Ann", {"facts": other, "host": ken})  # a second PERMANENTE


def test_ken_tecnica_2_legal():
    g = _with_ken()
    g.do("phase", name="combat")
    assert g.play("Ann", {"code": "T-COL", "host": u(g, "Ann", "Kenshiro")}) == set()


def test_ken_tecnica_2_illegal():
    g = _with_ken()
    ken = u(g, "Ann", "Kenshiro")
    assert "KEN-TECNICA-2" in g.play("Ann", {"code": "T-COL", "host": ken})  # GIOCA E SCARTA: in combat
    g.do("phase", name="combat")
    assert "KEN-TECNICA-2" in g.play("Ann", {"code": "T-HYA", "host": ken})  # PERMANENTE: in Presentation


def test_ken_equip_3_legal():
    g = _with_ken()
    ken = u(g, "Ann", "Kenshiro")
    g.play("Ann", {"code": "Q-GIU", "host": ken})
    stack = dict(JACKET, cumulative=True, name="Corazza", code="Q-COR")
    g.play("Ann", {"facts": stack, "host": ken})
    assert g.play("Ann", {"facts": stack, "host": ken}) == set()


def test_ken_equip_3_illegal():
    g = _with_ken()
    ken = u(g, "Ann", "Kenshiro")
    g.play("Ann", {"code": "Q-GIU", "host": ken})
    assert "KEN-EQUIP-3" in g.play("Ann", {"code": "Q-GIU", "host": ken})


def test_ken_gloss_cumulabile_legal():
    g = _with_ken()
    ken = u(g, "Ann", "Kenshiro")
    tech = dict(HYAKURETSU, duration="scartare-dopo-uso", cumulative=True, code="T-CUM", name="Cumulabile")
    g.play("Ann", {"facts": tech, "host": ken})
    assert g.play("Ann", {"facts": tech, "host": ken}) == set()


def test_ken_gloss_cumulabile_illegal():
    g = _with_ken()
    ken = u(g, "Ann", "Kenshiro")
    tech = dict(HYAKURETSU, duration="scartare-dopo-uso", code="T-SDU", name="Una volta")
    g.play("Ann", {"facts": tech, "host": ken})
    assert "KEN-GLOSS-CUMULABILE" in g.play("Ann", {"facts": tech, "host": ken})


# --- combat: attack order, groups, defence ------------------------------------------------------------

def _two_locations(**kw) -> Game:
    """Bob holds Fortezza (played first) and Deserto (played last: the Frontier)."""
    return battle(ann=[(KEN,), (VILLAGE, VILLAGERS), (BAT,)],
                  bob=[(FORTRESS, RAIDERS), (DESERT,), (RAOUL,)], **kw)


def test_ken_comb_1_legal():
    g = _two_locations()
    assert attack(g, at(g, "Deserto", "Kenshiro")) == set()


def test_ken_comb_1_illegal():
    g = _two_locations()
    g.do("phase", name="epilogue")
    assert "KEN-COMB-1" in attack(g, at(g, "Deserto", "Kenshiro"))


def test_ken_comb_2_legal():
    g = _two_locations()
    assert attack(g, at(g, "Deserto", "Kenshiro"), at(g, "Fortezza", "Bat", "Villaggi Liberi")) == set()


def test_ken_comb_2_illegal():
    g = _two_locations()
    assert "KEN-COMB-2" in attack(g, at(g, "Fortezza", "Kenshiro"))  # skips the Frontier


def test_ken_comb_3_legal():
    g = _two_locations()
    assert attack(g, at(g, "Deserto", "Bat")) == set()


def test_ken_comb_3_illegal():
    g = _two_locations()
    assert "KEN-COMB-3" in attack(g, at(g, "Deserto", commander="Kenshiro"))


def test_ken_comb_4_legal():
    """Bob has no Locations: his Protagonists are attacked singly, even Engaged ones."""
    g = battle(ann=[(KEN,)], bob=[(RAOUL,)])
    raoul = u(g, "Bob", "Raoul")
    from engine.rulesets.ken import table as T
    T.set_engaged(g.state, raoul, True)
    assert g.do("combat.attack", player="Ann", groups=[{"target": raoul, "cards": [u(g, "Ann", "Kenshiro")]}]) == set()


def test_ken_comb_4_illegal():
    g = _two_locations()
    assert "KEN-COMB-4" in g.do("combat.attack", player="Ann", groups=[
        {"target": u(g, "Bob", "Raoul"), "cards": [u(g, "Ann", "Kenshiro")]}])
    g2 = battle(ann=[(KEN,)], bob=[(RAOUL,)])
    raoul = u(g2, "Bob", "Raoul")
    g2.do("combat.attack", player="Ann", groups=[{"target": raoul, "cards": [u(g2, "Ann", "Kenshiro")]}])
    assert "KEN-COMB-4" in g2.do("combat.defend", player="Bob", groups=[{"target": raoul, "cards": [raoul]}])


def test_ken_gruppo_1_legal():
    g = _two_locations()
    assert attack(g, at(g, "Deserto", "Villaggi Liberi")) == set()


def test_ken_gruppo_1_illegal():
    g = _two_locations()
    from engine.rulesets.ken import table as T
    T.set_engaged(g.state, u(g, "Ann", "Villaggi Liberi"), True)
    assert "KEN-GRUPPO-1" in attack(g, at(g, "Deserto", "Villaggi Liberi"))


def test_ken_gruppo_2_legal():
    g = battle(ann=[(FORTRESS, NOMADS), (FORTRESS, RAIDERS)], bob=[(DESERT,)])
    assert attack(g, at(g, "Deserto", "Predoni", "Nomadi")) == set()


def test_ken_gruppo_2_illegal():
    g = _two_locations()
    g2 = battle(ann=[(VILLAGE, VILLAGERS), (FORTRESS, RAIDERS)], bob=[(DESERT,)])
    assert "KEN-GRUPPO-2" in attack(g2, at(g2, "Deserto", "Predoni", "Villaggi Liberi"))
    assert g is not None


def test_ken_gruppo_3_legal():
    g = battle(ann=[(TEMPLE, GUARDS), (KEN,)], bob=[(DESERT,)])
    assert attack(g, at(g, "Deserto", "Guardie di Hokuto", commander="Kenshiro")) == set()


def test_ken_gruppo_3_illegal():
    g = battle(ann=[(TEMPLE, GUARDS), (REI,)], bob=[(DESERT,)])
    assert "KEN-GRUPPO-3" in attack(g, at(g, "Deserto", "Guardie di Hokuto", "Rei"))


def test_ken_gruppo_4_legal():
    cobra2 = dict(COBRA, name="Cobra Capo", code="E-CO2")
    covo = dict(FORTRESS, name="Covo", code="L-COV")
    g = battle(ann=[(FORTRESS, COBRA), lambda g: g.play("Ann", {"facts": covo}, {"facts": cobra2})], bob=[(DESERT,)])
    assert attack(g, at(g, "Deserto", "Banda Cobra", "Cobra Capo")) == set()


def test_ken_gruppo_4_illegal():
    g = battle(ann=[(FORTRESS, COBRA), (FORTRESS, RAIDERS)], bob=[(DESERT,)])
    assert "KEN-GRUPPO-4" in attack(g, at(g, "Deserto", "Banda Cobra", "Predoni"))


def test_ken_gruppo_6_legal():
    test_ken_comb_2_legal()


def test_ken_gruppo_6_illegal():
    g = _two_locations()
    ken = u(g, "Ann", "Kenshiro")
    assert "KEN-GRUPPO-6" in g.do("combat.attack", player="Ann", groups=[
        {"target": u(g, "Bob", "Deserto", "territory"), "cards": [ken]},
        {"target": u(g, "Bob", "Fortezza", "territory"), "cards": [ken]}])


def test_ken_maestro_2_legal():
    g = _two_locations()
    assert attack(g, at(g, "Deserto", "Bat", "Villaggi Liberi", commander="Kenshiro")) == set()


def test_ken_maestro_2_illegal():
    g = _two_locations()
    assert "KEN-MAESTRO-2" in attack(g, at(g, "Deserto", "Kenshiro", "Bat"))  # a fighting Master is alone
    g2 = _two_locations()
    assert "KEN-MAESTRO-2" in attack(g2, at(g2, "Deserto", "Villaggi Liberi", commander="Bat"))  # only a Master commands


def _attacked(**kw) -> Game:
    g = _two_locations(**kw)
    attack(g, at(g, "Deserto", "Kenshiro"), at(g, "Fortezza", "Bat", "Villaggi Liberi"))
    return g


def test_ken_difesa_1_legal():
    g = _attacked()
    assert g.do("combat.defend", player="Bob", groups=[
        {"target": u(g, "Bob", "Fortezza", "territory"), "cards": [u(g, "Bob", "Predoni")], "commander": u(g, "Bob", "Raoul")}]) == set()


def test_ken_difesa_1_illegal():
    g = _attacked()
    fort = u(g, "Bob", "Fortezza", "territory")
    assert "KEN-DIFESA-1" in g.do("combat.defend", player="Bob", groups=[
        {"target": fort, "cards": [u(g, "Bob", "Predoni")]}, {"target": fort, "cards": [u(g, "Bob", "Raoul")]}])
    assert "KEN-DIFESA-1" in _attacked().do("combat.defend", player="Ann", groups=[
        {"target": fort, "cards": [u(g, "Ann", "Bat")]}])


def test_ken_luogo_6_legal():
    g = battle(ann=[(KEN,)], bob=[(TEMPLE, GUARDS)])
    temple = u(g, "Bob", "Tempio di Hokuto", "territory")
    g.do("combat.attack", player="Ann", groups=[{"target": temple, "cards": [u(g, "Ann", "Kenshiro")]}])
    assert g.do("combat.defend", player="Bob", groups=[{"target": temple, "cards": [u(g, "Bob", "Guardie di Hokuto")]}]) == set()


def test_ken_luogo_6_illegal():
    g = battle(ann=[(KEN,)], bob=[(TEMPLE, GUARDS), (BAT,)])
    temple = u(g, "Bob", "Tempio di Hokuto", "territory")
    g.do("combat.attack", player="Ann", groups=[{"target": temple, "cards": [u(g, "Ann", "Kenshiro")]}])
    assert "KEN-LUOGO-6" in g.do("combat.defend", player="Bob", groups=[{"target": temple, "cards": [u(g, "Bob", "Bat")]}])


def test_ken_luogo_7_legal():
    g = _attacked()
    assert g.do("combat.defend", player="Bob", groups=[
        {"target": u(g, "Bob", "Deserto", "territory"), "cards": [u(g, "Bob", "Predoni")]}]) == set()  # grey: all


def test_ken_luogo_7_illegal():
    g = battle(ann=[(KEN,)], bob=[(FORTRESS, NOMADS)])
    fort = u(g, "Bob", "Fortezza", "territory")
    g.do("combat.attack", player="Ann", groups=[{"target": fort, "cards": [u(g, "Ann", "Kenshiro")]}])
    assert "KEN-LUOGO-7" in g.do("combat.defend", player="Bob", groups=[{"target": fort, "cards": [u(g, "Bob", "Nomadi")]}])


# --- abilities -------------------------------------------------------------------------------------

def test_ken_abil_1_legal():
    g = _attacked()
    assert g.do("ability", player="Ann", uid=u(g, "Ann", "Bat"), name="Cerca") == set()
    assert g.do("ability", player="Ann", uid=u(g, "Ann", "Villaggi Liberi"), name="+1 Attacco") == set()


def test_ken_abil_1_illegal():
    g = _attacked()
    g.do("ability", player="Ann", uid=u(g, "Ann", "Bat"), name="Cerca")
    assert "KEN-ABIL-1" in g.do("ability", player="Ann", uid=u(g, "Ann", "Bat"), name="Cerca")


def _commanded(lives: int) -> Game:
    plays = [(KEN,), (VILLAGE, VILLAGERS)] + [
        (lambda g: g.play("Ann", {"code": "M-KEN", "stack": u(g, "Ann", "Kenshiro")}))] * (lives - 1)
    g = battle(ann=plays, bob=[(DESERT,)])
    attack(g, at(g, "Deserto", "Villaggi Liberi", commander="Kenshiro"))
    return g


def test_ken_abil_2_legal():
    g = _commanded(2)
    assert g.do("ability", player="Ann", uid=u(g, "Ann", "Villaggi Liberi"), name="Carica", lives=2,
                school="Hokuto") == set()


def test_ken_abil_2_illegal():
    g = _commanded(1)
    assert "KEN-ABIL-2" in g.do("ability", player="Ann", uid=u(g, "Ann", "Villaggi Liberi"), name="Carica", lives=2)


def test_ken_vita_7_legal():
    g = _commanded(1)
    assert g.do("ability", player="Ann", uid=u(g, "Ann", "Villaggi Liberi"), name="Carica", lives=1) == set()


def test_ken_vita_7_illegal():
    g = _commanded(1)
    assert "KEN-VITA-7" in g.do("ability", player="Ann", uid=u(g, "Ann", "Villaggi Liberi"), name="Carica",
                                lives=1, school="Nanto")


# --- damage ------------------------------------------------------------------------------------------

def _duel(ann_lives: int = 1) -> Game:
    """Kenshiro (alone) attacks the Desert; Raoul defends it."""
    plays = [(KEN,)] + [(lambda g: g.play("Ann", {"code": "M-KEN", "stack": u(g, "Ann", "Kenshiro")}))] * (ann_lives - 1)
    return _kenshiro_attacks_desert(battle(ann=plays, bob=[(DESERT,), (RAOUL,)]), "Raoul")


def _kenshiro_attacks_desert(g: Game, defender: str) -> Game:
    """Ann's Kenshiro (alone) attacks Bob's Desert (kept as g.desert); Bob's `defender` defends it."""
    g.desert = u(g, "Bob", "Deserto", "territory")
    attack(g, at(g, "Deserto", "Kenshiro"))
    g.do("combat.defend", player="Bob", groups=[{"target": g.desert, "cards": [u(g, "Bob", defender)]}])
    return g


def test_ken_vita_5_legal():
    g = _duel(2)
    raoul, ken = u(g, "Bob", "Raoul"), u(g, "Ann", "Kenshiro")
    assert g.do("combat.damage", target=g.desert, attacker=side(3, vanquished=[raoul]),
                defender=side(4, vanquished=[])) == set()
    from engine.rulesets.ken import table as T
    assert T.lives(g.state, T.resolve_unit(g.state, ken)) == 1  # 2 damage past the Defence: one Life only


def test_ken_vita_5_illegal():
    g = _duel(2)
    ken = u(g, "Ann", "Kenshiro")
    assert "KEN-VITA-5" in g.do("combat.damage", target=g.desert, attacker=side(3),
                                defender=side(4, vanquished=[ken]))


def test_ken_danni_1_legal():
    g = _duel()
    assert g.do("combat.damage", target=g.desert, attacker=side(5, effects=[{"effect": "Scommessa", "attack": 2}]),
                defender=side(4)) == set()


def test_ken_danni_1_illegal():
    g = _duel()
    assert "KEN-DANNI-1" in g.do("combat.damage", target=g.desert, attacker=side(5), defender=side(4))


def _fig10() -> Game:
    """Fig. 10: 5 damage on a group of two: the first card (Defence 2, Resistance 2) and a second
    (Defence 1, Resistance 2)."""
    first = {"code": "E-PR1", "name": "Prima carta", "type": "army", "morale": ["grey"], "attack": 0, "defence": 2,
             "resistance": 2, "ochre": 2}
    second = {"code": "E-PR2", "name": "Seconda carta", "type": "army", "morale": ["grey"], "attack": 0, "defence": 1,
              "resistance": 2, "ochre": 1}
    five = {"code": "E-CIN", "name": "Cinque", "type": "army", "morale": ["grey"], "attack": 5, "defence": 9,
            "resistance": 9, "plays_alone": True}
    g = battle(ann=[({"facts": dict(DESERT, code="L-D1")}, {"facts": five}),
                    lambda g: g.do("play", player="Ann", cards=[{"facts": dict(WASTES)}])],
               bob=[(DESERT,), lambda g: g.do("play", player="Bob", cards=[{"facts": first}, {"facts": second}],
                                              effect="test: Armies without a Location")])
    desert = u(g, "Bob", "Deserto", "territory")
    g.do("combat.attack", player="Ann", groups=[{"target": desert, "cards": [u(g, "Ann", "Cinque")]}])
    g.do("combat.defend", player="Bob", groups=[{"target": desert, "cards": [u(g, "Bob", "Prima carta"),
                                                                             u(g, "Bob", "Seconda carta")]}])
    g.desert = desert
    return g


def test_ken_danni_2_legal():
    g = _fig10()
    first = u(g, "Bob", "Prima carta")
    assert g.do("combat.damage", target=g.desert, attacker=side(5, vanquished=[first]), defender=side(0)) == set()


def test_ken_danni_2_illegal():
    g = _fig10()
    assert "KEN-DANNI-2" in g.do("combat.damage", target=g.desert, attacker=side(5, vanquished=[]), defender=side(0))


def test_ken_danni_3_legal():
    test_ken_danni_2_legal()


def test_ken_danni_3_illegal():
    g = _fig10()
    first, second = u(g, "Bob", "Prima carta"), u(g, "Bob", "Seconda carta")
    assert "KEN-DANNI-3" in g.do("combat.damage", target=g.desert, attacker=side(5, vanquished=[first, second]),
                                 defender=side(0))


def _rei_defends(**lethal) -> Game:
    g = battle(ann=[(KEN,), lambda g: g.play("Ann", {"code": "M-KEN", "stack": u(g, "Ann", "Kenshiro")})],
               bob=[(DESERT,), (REI,), lambda g: g.play("Bob", {"code": "P-REI", "stack": u(g, "Bob", "Rei")})])
    return _kenshiro_attacks_desert(g, "Rei")


def test_ken_pers_2_legal():
    g = _rei_defends()
    rei = u(g, "Bob", "Rei")
    assert g.do("combat.damage", target=g.desert, attacker=side(4, lethal=u(g, "Ann", "Kenshiro"), vanquished=[rei],
                                                                 effects=[{"effect": "Mortale", "attack": 1}]),
                defender=side(3)) == set()
    assert rei not in {c.uid for c in g.state.zone("Bob", "forces")}
    assert any(c.uid == rei for c in g.state.zone("Bob", "removed"))  # Morta: removed from the game


def test_ken_pers_2_illegal():
    g = _rei_defends()
    assert "KEN-PERS-2" in g.do("combat.damage", target=g.desert,
                                attacker=side(4, lethal=u(g, "Ann", "Kenshiro"), vanquished=[],
                                              effects=[{"effect": "Mortale", "attack": 1}]), defender=side(3))


def test_ken_gloss_mortale_legal():
    test_ken_pers_2_legal()


def test_ken_gloss_mortale_illegal():
    g = _rei_defends()
    assert "KEN-GLOSS-MORTALE" in g.do("combat.damage", target=g.desert, attacker=side(3, lethal=u(g, "Bob", "Rei")),
                                       defender=side(3))


def test_ken_gloss_massacratore_legal():
    g = _rei_defends()
    ken = u(g, "Ann", "Kenshiro")
    assert g.do("combat.damage", target=g.desert, attacker=side(4, massacre=ken, effects=[{"effect": "Massacratore", "attack": 1}]),
                defender=side(3)) == set()
    g.do("combat.end")
    assert any(c.uid == g.desert for c in g.state.zone("Bob", "removed"))  # conquered and removed from the game


def test_ken_gloss_massacratore_illegal():
    g = _rei_defends()
    assert "KEN-GLOSS-MASSACRATORE" in g.do("combat.damage", target=g.desert,
                                            attacker=side(3, massacre=u(g, "Bob", "Rei")), defender=side(3))


def test_ken_tecnica_3_legal():
    g = _duel()
    ken = u(g, "Ann", "Kenshiro")
    g.play("Ann", {"code": "T-COL", "host": ken}, {"code": "S-FUR", "host": ken})
    strike, fury = u(g, "Ann", "Colpo Improvviso", "assigned"), u(g, "Ann", "Furia", "assigned")
    assert g.do("combat.damage", target=g.desert, attacker=side(5, uses=[strike, fury]), defender=side(4)) == set()
    assert {c.uid for c in g.state.zone("Ann", "past")} >= {strike, fury}  # GIOCA E SCARTA: to the Past after damage


def test_ken_tecnica_3_illegal():
    g = _duel()
    ken = u(g, "Ann", "Kenshiro")
    g.play("Ann", {"code": "T-COL", "host": ken})
    g.play("Ann", {"facts": dict(STRIKE, name="Secondo Colpo", code="T-SEC"), "host": ken})
    uses = [u(g, "Ann", "Colpo Improvviso", "assigned"), u(g, "Ann", "Secondo Colpo", "assigned")]
    assert "KEN-TECNICA-3" in g.do("combat.damage", target=g.desert, attacker=side(5, uses=uses), defender=side(4))


# --- end of combat: conquest and Order points -------------------------------------------------------------

def test_ken_conq_1_legal():
    g = _attacked()
    fort, desert = u(g, "Bob", "Fortezza", "territory"), u(g, "Bob", "Deserto", "territory")
    g.do("combat.defend", player="Bob", groups=[{"target": fort, "cards": [u(g, "Bob", "Predoni")]}])
    g.do("combat.damage", target=fort, attacker=side(3), defender=side(3))  # Predoni vanquished; Bat too
    assert g.do("combat.end", conquered=[desert, fort]) == set()  # the Desert was not defended
    assert g.state.zone("Bob", "territory") == []


def test_ken_conq_1_illegal():
    g = _attacked()
    fort, desert = u(g, "Bob", "Fortezza", "territory"), u(g, "Bob", "Deserto", "territory")
    g.do("combat.defend", player="Bob", groups=[{"target": fort, "cards": [u(g, "Bob", "Predoni")],
                                                 "commander": u(g, "Bob", "Raoul")}])
    g.do("combat.damage", target=fort, attacker=side(3), defender=side(3))
    # Raoul (the Commander) still stands at the Fortress: it is not conquered
    assert "KEN-CONQ-1" in g.do("combat.end", conquered=[desert, fort])


def test_ken_ocra_1_legal():
    g = _attacked()
    fort = u(g, "Bob", "Fortezza", "territory")
    g.do("combat.defend", player="Bob", groups=[{"target": fort, "cards": [u(g, "Bob", "Predoni")]}])
    g.do("combat.damage", target=fort, attacker=side(3), defender=side(3))
    # Ann: 3 green this turn + Predoni 1 + Deserto 1 + Fortezza 2 (conquered); Bob: Bat 1
    assert g.do("combat.end", order={"Ann": 7, "Bob": 1}) == set()


def test_ken_ocra_1_illegal():
    g = _attacked()
    fort = u(g, "Bob", "Fortezza", "territory")
    g.do("combat.defend", player="Bob", groups=[{"target": fort, "cards": [u(g, "Bob", "Predoni")]}])
    g.do("combat.damage", target=fort, attacker=side(3), defender=side(3))
    assert "KEN-OCRA-1" in g.do("combat.end", order={"Ann": 9, "Bob": 1})


def test_ken_ocra_2_legal():
    g = _two_locations()
    raoul = u(g, "Bob", "Raoul")
    assert g.do("order.points", player="Ann", add=4, effect="Sfida vinta (test)", for_card=raoul) == set()


def test_ken_ocra_2_illegal():
    g = _two_locations()
    raoul = u(g, "Bob", "Raoul")
    g.do("move", player="Bob", from_zone="forces", to_zone="past", uid=raoul, effect="Tempesta")
    assert "KEN-OCRA-2" in g.do("order.points", player="Ann", add=4, effect="ochre claimed", for_card=raoul)


# --- every checked rule is tested both ways ---------------------------------------------------------

def test_every_checked_rule_has_a_legal_and_an_illegal_test():
    names = set(dir(sys.modules[__name__]))
    missing = []
    for r in RULES:
        if r.status == "checked":
            stem = "test_" + r.id.lower().replace("-", "_")
            for case in ("legal", "illegal"):
                if f"{stem}_{case}" not in names:
                    missing.append(f"{stem}_{case}")
    assert missing == []


@pytest.mark.parametrize("rule", [r for r in RULES if r.status != "checked"], ids=lambda r: r.id)
def test_rules_not_checked_say_why(rule):
    assert rule.why.strip()


def test_findings_count_cards_and_groups_from_one():
    """QA 2026-11-26: "card 0 (Tempio di Hokuto)", "group 0: ...", "a army"."""
    g = Game().setup().turn("Ann", upto="draw")
    found = g.play("Ann", KEN)
    assert "KEN-PROT-1" in found
    words = [f.message for f in g.last if f.rule == "KEN-PROT-1"][0]
    assert words.startswith("card 1 (Kenshiro): a ") or words.startswith("card 1 (Kenshiro): an "), words
