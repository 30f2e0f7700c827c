"""An independent review of op2009 against the MM25 rulebook (op2009-mm25.it.md), section by section:
adversarial scenarios (edge values, ordering, simultaneous events), each with the half the rules allow
and the half they forbid. Scenarios that found a bug say so; the fix is in the ruleset.

Every catalogue quote is also checked against the rulebook's text (tests/fixtures/rulebooks/)."""
from __future__ import annotations

import pytest

from judge.desk.timelimit import decide, run
from tests.rulesets.op2009.builder import ANN, BOB, CROCO, MR1, NAMI, RUFY, ZORO, Log, hit
from tests.rulesets.quotes import quote_problems

ROBIN = dict(card="CS-C07", name="Robin", life=2, crew="Pirati di Rufy", power=400, damage=1)
MISS_ALL_SUNDAY = dict(card="BA-C07", name="Miss All Sunday", life=2, crew="Ciurma Nemica", power=400, damage=1)
KONIS = dict(card="JO-C27", name="Konis", life=1, crew="Cittadini", power=100, damage=1)
BIBI_TEAM = dict(card="BP-T07", name="Nami&Bibi", life=2, crew="Pirati di Rufy", power=500, damage=1,
                 crews=["Pirati di Rufy", "Regno di Alabasta"], partner="BP-C01")


@pytest.fixture
def L(tmp_path):
    log = Log(tmp_path)
    log.register()
    return log


def third_turn(L: Log, **prepare) -> Log:
    """Both first turns played; Ann has drawn in her second turn (turn 3)."""
    L.prepare(**prepare)
    L.quiet_turn(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    return L


def both_pass(L: Log, first: str = BOB) -> None:
    L.ev("battle.pass", player=first)
    L.ev("battle.pass", player=ANN if first == BOB else BOB)


def test_every_quote_is_the_rulebooks_own_words():
    assert quote_problems("op2009", "op2009-mm25.it.md") == []


# --- Preparazione -----------------------------------------------------------------------------


def test_hand_before_the_giornale_is_no_offence_but_a_giornale_of_seven_is(L):
    """«Invertire l'ordine con cui vengono assegnate carte alla Mano e al Giornale di Bordo non è
    passibile di Richiamo Ufficiale»; the Giornale is «Le prime 6 carte»."""
    L.ev("game.start", first=ANN)
    assert L.rules("hand.deal", player=ANN) == []
    assert L.rules("logbook.deal", player=ANN) == []
    assert L.rules("logbook.deal", player=BOB, count=7) == ["OP09-PREP-3"]


def test_after_the_preparation_the_ponte_may_hold_more_than_six_life_points(L):
    """«In seguito sul Ponte possono essere presenti Personaggi con qualunque somma di Punti Vita»: the
    limit of 6 is the preparation's only (PREP-9); a placement after the reveal is not a placement."""
    third_turn(L)  # Ann: Rufy 3 + Zoro 2
    for _ in range(3):
        L.ev("logbook.update", player=ANN)
    L.ev("pass", player=ANN)
    L.finale(ANN)
    L.quiet_turn(BOB)
    L.begin(ANN)
    assert L.rules("sailor.call", player=ANN, space="marinaio2", **dict(ZORO, card="LK-C20", name="Sanji",
                                                                         life=3)) == []  # 8 in all
    assert "OP09-PREP-8" in L.rules("prep.place", player=ANN, space="marinaio2", **NAMI)


def test_the_pirate_mulligan_is_once_per_match_not_per_game(L):
    L.ev("game.start", first=ANN)
    L.ev("hand.deal", player=BOB)
    assert L.rules("mulligan.pirate", player=BOB) == []
    L.ev("concede", player=ANN)
    L.ev("game.start", first=ANN)  # Ann lost game 1 and starts game 2
    L.ev("hand.deal", player=BOB)
    assert L.rules("redraw", player=BOB) == []  # the free redraw, as often as wanted
    assert L.rules("mulligan.pirate", player=BOB) == ["OP09-PREP-6"]


def test_after_a_drawn_game_either_player_starts_after_a_lost_one_the_loser(L):
    """«inizierà le partite successive alla prima il giocatore sconfitto nella partita precedente»:
    a drawn game has no loser."""
    L.ev("game.start", first=ANN)
    L.ev("game.end", how="agreed draw")
    assert L.rules("game.start", first=ANN) == []
    L.ev("concede", player=BOB)
    assert L.rules("game.start", first=ANN) == ["OP09-PREP-5"]


# --- Muovere ----------------------------------------------------------------------------------


def test_a_move_with_one_space_empty_is_legal_with_both_empty_it_moves_nothing(tmp_path):
    """«È possibile utilizzare questa Azione anche se uno dei due spazi Personaggio è vuoto». Found by
    this review: a move with both Sailor spaces empty was not flagged."""
    one = Log(tmp_path, name="one.db")
    one.register()
    third_turn(one)  # Ann: Zoro in marinaio1, marinaio2 empty
    assert one.rules("sailor.move", player=ANN, from_space="marinaio1", to_space="marinaio2") == []
    none = Log(tmp_path, name="none.db")
    none.register()
    third_turn(none, ann=(RUFY,))
    assert none.rules("sailor.move", player=ANN, from_space="marinaio1", to_space="marinaio2") == ["OP09-MUOV-1"]


# --- Selezionare un Personaggio avversario -----------------------------------------------------


def test_the_captain_may_attack_any_sailor_a_sailor_only_the_one_facing_it(L):
    third_turn(L, ann=(RUFY, ZORO), bob=(CROCO, MR1, dict(MR1, card="BA-C10", name="Mr. 3", life=1)))
    assert L.rules("battle.start", player=ANN, attacker="capitano", target="marinaio2") == []
    L.ev("battle.pass", player=ANN)
    L.ev("battle.pass", player=BOB)
    L.ev("battle.end")
    assert L.rules("battle.start", player=ANN, attacker="marinaio1", target="marinaio2") == ["OP09-BATT-3"]


# --- Chiamare Rinforzi: simultaneous losses -----------------------------------------------------


def test_a_reinforcement_of_another_crew_can_defeat_ones_own_captain(tmp_path):
    """The 1 damage of a Reinforcement of another crew is real damage: a Captain at 1 Life Point is
    defeated by its own call, and the game is over («Sconfigge il Capitano avversario»)."""
    same = Log(tmp_path, name="same.db")
    same.register()
    third_turn(same, ann=(dict(RUFY, life=1), ZORO))
    same.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    assert same.rules("reinforce", player=ANN, card="LK-C05", name="Zoro", crew="Pirati di Rufy") == []
    assert same.state().extra["game"]["over"] is False
    other = Log(tmp_path, name="other.db")
    other.register()
    third_turn(other, ann=(dict(RUFY, life=1), ZORO))
    other.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    other.ev("reinforce", player=ANN, card="BP-C01", name="Bibi", crew="Regno di Alabasta", damage=1)
    g = other.state().extra["games"][-1]
    assert (g["winner"], g["rule"]) == (BOB, "OP09-VITT-1")
    assert other.rules("battle.pass", player=BOB) == ["OP09-PARTITA-1"]


# --- Utilizzare Carte Tecnica ----------------------------------------------------------------


def test_a_removed_limited_technique_counts_as_never_played(L):
    """«Una Carta Tecnica rimossa in qualunque modo conta come se non fosse mai stata giocata per
    qualunque effetto o limitazione». Found by this review: the Limit still counted the removed card."""
    third_turn(L)
    L.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    L.ev("technique", player=ANN, card="LK-W01", usable_by="Rufy", limit=1)
    L.ev("move", player=ANN, actor=BOB, from_zone="tecniche", to_zone="oceano", card="LK-W01", by_card="RK-W11")
    L.ev("battle.pass", player=BOB)
    assert L.rules("technique", player=ANN, card="LK-W01", usable_by="Rufy", limit=1) == []
    L.ev("battle.pass", player=BOB)
    assert L.rules("technique", player=ANN, card="LK-W01", usable_by="Rufy", limit=1) == ["OP09-CARTE-3"]


# --- Chiamare Carte Squadra -----------------------------------------------------------------------


def test_a_team_card_needs_one_of_its_two_characters_fighting(tmp_path):
    """«Una Carta Squadra può essere chiamata sul Ponte quando uno dei due Personaggi che compongono la
    Squadra è impegnato in una Battaglia». Found by this review: any fighter of a listed crew passed."""
    for name, ann, want in (("nami.db", (RUFY, dict(NAMI, life=2)), []), ("zoro.db", (RUFY, ZORO), ["OP09-BATT-9"])):
        L = Log(tmp_path, name=name)
        L.register()
        third_turn(L, ann=ann)
        L.ev("battle.start", player=ANN, attacker="marinaio1", target="marinaio1")
        L.ev("reinforce", player=ANN, card="BP-C01", name="Bibi", crew="Regno di Alabasta", damage=1)
        L.ev("battle.pass", player=BOB)
        assert L.rules("team.call", player=ANN, **BIBI_TEAM) == want, name


def test_robin_as_a_reinforcement_is_legal_as_a_second_sailor_it_is_not(tmp_path):
    """«Il rinforzo può essere un Personaggio già presente sul ponte»; but Robin and Miss All Sunday
    «non possono essere presenti contemporaneamente sul Ponte»."""
    L = Log(tmp_path)
    L.register()
    third_turn(L, ann=(RUFY, ROBIN))
    L.ev("battle.start", player=ANN, attacker="marinaio1", target="marinaio1")
    assert L.rules("reinforce", player=ANN, card="BA-C07", name="Miss All Sunday", crew="Ciurma Nemica",
                   damage=1) == []
    both_pass(L)
    L.ev("damage", hits=[hit(BOB, "marinaio1", 1)])
    L.ev("battle.end")
    assert L.rules("sailor.call", player=ANN, space="marinaio2", **dict(MISS_ALL_SUNDAY, life=1)) == ["OP09-PREP-10"]


# --- Subire Danni, victory conditions: edge values ----------------------------------------------


def test_a_defeated_konis_is_no_trophy_another_character_is(tmp_path):
    """JO-C27 (FAQ Priorità): «Quando questo Personaggio viene sconfitto non diventerà un Trofeo, ma
    andrà scartato nell'Oceano». Found by this review: Konis became a Trophy and counted toward 6."""
    for name, sailor, trophies in (("konis.db", KONIS, []), ("mr3.db", dict(KONIS, card="BA-C10", name="Mr. 3"),
                                                              ["BA-C10"])):
        L = Log(tmp_path, name=name)
        L.register()
        third_turn(L, bob=(CROCO, sailor))
        L.ev("battle.start", player=ANN, attacker="marinaio1", target="marinaio1")
        both_pass(L)
        assert L.rules("damage", hits=[hit(BOB, "marinaio1", 1)]) == []
        s = L.state()
        assert [c.code for c in s.zone(BOB, "trofei")] == trophies, name
        assert L.m.ruleset.trophy_life(s, BOB) == len(trophies)


@pytest.mark.parametrize("left, need, loses", [(1, 1, False), (1, 2, True), (0, 1, True)])
def test_the_fase_finale_draws_what_the_forziere_has_or_loses(tmp_path, left, need, loses):
    """«L'avversario è costretto a pescare una carta dal Forziere [...] ma non può farlo»: the hand of 4
    is compulsory, so a Forziere that runs out during it loses; exactly enough does not."""
    L = Log(tmp_path)
    L.register()
    third_turn(L)
    L.ev("move", player=ANN, from_zone="forziere", to_zone="oceano", by_card="XX-W01",
         count=len(L.state().zone(ANN, "forziere")) - left)
    L.ev("pass", player=ANN)
    L.ev("move", player=ANN, from_zone="mano", to_zone="oceano", count=L.hand(ANN) - (4 - need))
    L.ev("fase.finale", player=ANN, draw=need)
    games = L.state().extra["games"]
    assert bool(games) == loses
    if loses:
        assert (games[-1]["winner"], games[-1]["rule"]) == (BOB, "OP09-VITT-3")


def test_a_hand_of_four_needs_nothing_and_takes_nothing(tmp_path):
    L = Log(tmp_path)
    L.register()
    third_turn(L)
    L.ev("pass", player=ANN)
    L.ev("move", player=ANN, from_zone="mano", to_zone="oceano", count=L.hand(ANN) - 4)
    assert L.rules("fase.finale", player=ANN) == []
    L.quiet_turn(BOB)
    L.begin(ANN)
    L.ev("pass", player=ANN)
    L.ev("move", player=ANN, from_zone="mano", to_zone="oceano", count=L.hand(ANN) - 4)
    assert L.rules("fase.finale", player=ANN, draw=1) == ["OP09-FIN-1"]


def test_both_captains_at_once_is_a_draw_and_nothing_follows_it(L):
    """«Se i giocatori raggiungono contemporaneamente uno di questi 3 obiettivi [...] la partita termina
    con un pareggio»; a drawn game scores nobody, and play stops (the next game starts)."""
    third_turn(L)
    L.ev("battle.start", player=ANN, attacker="capitano", target="capitano")
    L.ev("modifier", player=ANN, space="capitano", card="LK-W01", damage=2)
    L.ev("modifier", player=BOB, space="capitano", card="BA-W01", damage=2)
    both_pass(L)
    assert L.rules("damage", hits=[hit(ANN, "capitano", 3), hit(BOB, "capitano", 3)]) == []
    assert L.state().extra["score"] == {ANN: 0, BOB: 0}
    assert L.rules("battle.end") == ["OP09-PARTITA-1"]
    assert L.rules("game.start", first=BOB) == []


# --- Fase principale: the Action budget -----------------------------------------------------------


def test_a_zero_action_ability_fits_in_a_full_turn_a_fourth_action_does_not(L):
    third_turn(L)
    for _ in range(3):
        L.ev("logbook.update", player=ANN)
    assert L.rules("ability", player=ANN, space="capitano", card="LK-C01", cost=0, effect="looks") == []
    assert L.rules("logbook.update", player=ANN) == ["OP09-PRINC-1"]


# --- Situazione Fine Tempo: the recorded score ------------------------------------------------------


def _concede(L: Log, loser: str) -> None:
    games = L.state().extra["games"]
    first = (ANN if games[-1]["winner"] == BOB else BOB) if games else ANN
    L.prepare(first=first)
    L.ev("concede", player=loser)


def test_time_while_sideboarding_at_1_0_records_2_1_with_a_game_in_progress_1_0(tmp_path):
    """Found by the first reading (issue 12): the decision said 2-1, the state kept 1-0. Between games
    at 1-0 each player is given a game («1 punto vittoria a testa»): result, games and games_won say
    2-1. With a game in progress at 1-0 (VANT-1) no game is awarded: the score stays 1-0."""
    side = Log(tmp_path, name="side.db")
    side.register()
    _concede(side, BOB)
    side.ev("sideboard", player=BOB, out=["BA-W01"], into=["BA-W09"])
    side.time()
    run(side.m)
    s = side.state()
    assert s.result["score"] == {ANN: 2, BOB: 1} == s.extra["score"]
    assert side.m.ruleset.key_counters(s)[ANN]["games_won"] == 2
    assert [g["winner"] for g in s.extra["games"]] == [ANN, ANN, BOB]
    assert side.rules("game.start", first=BOB) == ["OP09-PARTITA-1"]  # the match is over
    playing = Log(tmp_path, name="playing.db")
    playing.register()
    _concede(playing, BOB)  # Ann 1-0; Bob lost and starts game 2
    playing.prepare(first=BOB)
    playing.quiet_turn(BOB)
    playing.begin(ANN)
    playing.time()
    playing.ev("pass", player=ANN)
    playing.finale(ANN)
    d = decide(playing.m, None).decision
    assert (d.winner, d.branch) == (ANN, "vantaggio/vince-chi-e-avanti")
    run(playing.m)
    assert playing.state().result["score"] == {ANN: 1, BOB: 0}
