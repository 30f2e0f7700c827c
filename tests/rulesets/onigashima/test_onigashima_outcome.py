"""Outcome, options, end of time, determinism and the docs page of the onigashima ruleset."""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.match import Match
from engine.store import EventStore
from tests.conftest import ROOT as REPO_ROOT, judged_example


ROOT = Path(REPO_ROOT)



CAMPS2 = ("camps", {"alliance": ["Ann"], "empereurs": ["Bob"]})


def play(tmp_path, events, options=None, players=("Ann", "Bob")):
    store = EventStore.open(str(tmp_path / "t.db"))
    m = Match.create(store, "onigashima", list(players), options=options)
    for kind, payload in events:
        m.record(kind, payload)
    return m


def six_fights(results):
    """results: per turn (alliance character, emperor character, winner or None for a flight)."""
    ev = [CAMPS2]
    for t, (a, e, w) in enumerate(results, 1):
        ev += [("turn", {"number": t}), ("fight.start", {"fighters": {"Ann": a, "Bob": e}}),
               ("fight.end", {"winner": w, "how": "card"} if w else {"how": "flee"})]
    return ev


# Ann defeats Jack and Hatcha (initiative 21 + 11 = 32 victory points, 2 fights); Bob defeats Luffy gear
# fifth (initiative 32, 1 fight): tied under the default reading (ONI-VP, vp_from=initiative)
TIED = six_fights([("Sanji", "Jack", "Ann"), ("Jinbe", "Hatcha", "Ann"),
                   ("Monkey D. Luffy (gear fifth)", "Kanjuro", "Bob"), ("Nami", "Queen", None),
                   ("Brook", "King", None), ("Franky", "Page One", None)])


def test_sample_full_game_records_validates_and_decides(tmp_path):
    m, v = judged_example(tmp_path, "onigashima/full-game-2p.jsonl")
    out = m.ruleset.outcome(v.state)
    pts = m.ruleset.camp_points(v.state)
    leader = "Ann" if pts["alliance"] > pts["empereurs"] else "Bob"
    assert pts["alliance"] != pts["empereurs"]
    assert (out.result, out.winner) == ("win", leader)
    assert pts["alliance"] == v.state.counters["Ann"]["vp"]
    assert sum(len(v.state.zone(p, "won")) for p in ("Ann", "Bob")) == 6


def test_no_outcome_before_the_last_turn(tmp_path):
    m = play(tmp_path, TIED[:-3])
    assert m.ruleset.outcome(m.state()) is None


def test_tie_option_draw_and_fights_won(tmp_path):
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    m = play(tmp_path / "a", TIED)
    assert m.ruleset.camp_points(m.state()) == {"alliance": 32, "empereurs": 32}
    out = m.ruleset.outcome(m.state())
    assert (out.result, out.winner) == ("draw", None)
    m2 = play(tmp_path / "b", TIED, options={"tie": "fights-won"})
    out2 = m2.ruleset.outcome(m2.state())
    assert (out2.result, out2.winner) == ("win", "Ann")


def test_team_winner_is_the_camp(tmp_path):
    ev = [("camps", {"alliance": ["a", "b"], "empereurs": ["c", "d"]})]
    A = ["Sanji", "Jinbe", "Brook", "Nami", "Franky", "Usopp", "Chopper", "Nico Robin", "Killer", "Heat"]
    E = ["King", "Queen", "Jack", "Ulti", "Sasaki", "Page One", "Hatcha", "Kanjuro", "Black Maria", "Who's Who"]
    for t in range(10):
        ev += [("turn", {"number": t + 1}),
               ("fight.start", {"fighters": {["a", "b"][t % 2]: A[t], ["c", "d"][t % 2]: E[t]}}),
               ("fight.end", {"winner": ["c", "d"][t % 2], "how": "card"})]
    m = play(tmp_path, ev, players=("a", "b", "c", "d"))
    assert m.validate().active_findings() == []
    out = m.ruleset.outcome(m.state())
    assert (out.result, out.winner) == ("win", "empereurs")


def test_energy_from_option(tmp_path):
    ev = [CAMPS2, ("turn", {"number": 1}), ("fight.start", {"fighters": {"Ann": "Roronoa Zoro", "Bob": "Jack"}}),
          ("attack", {"player": "Ann", "dice": [1, 2, 3, 4, 5, 6], "energy_lost": 5})]
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    by_dice = play(tmp_path / "a", ev)
    by_table = play(tmp_path / "b", ev, options={"energy_from": "table"})
    assert by_dice.state().counters["Bob"]["energy"] == 23 - 2     # 5 and 6 against defence 5
    assert by_table.state().counters["Bob"]["energy"] == 23 - 5    # the table's figure
    for m in (by_dice, by_table):
        assert [f.rule for f in m.validate().active_findings()] == ["ONI-DAMAGE"]


def test_turns_option(tmp_path):
    ev = TIED + [("turn", {"number": 7})]
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    six = play(tmp_path / "a", ev)
    ten = play(tmp_path / "b", ev, options={"turns": 10})
    assert "ONI-END" in {f.rule for f in six.validate().active_findings()}
    assert ten.validate().active_findings() == []
    assert ten.ruleset.outcome(ten.state()) is None


def test_end_of_time_policies(tmp_path):
    m = play(tmp_path, TIED[:7])  # Ann leads 32 to 0 after two fights
    s, events = m.state(), m.events()
    d = m.ruleset.end_of_time(s, events)
    assert (d.result, d.winner, d.branch, d.policy) == ("win", "Ann", "vp-lead", "vp-lead")
    d2 = m.ruleset.end_of_time(s, events, policy="unfinished-draw")
    assert (d2.result, d2.winner) == ("draw", None)
    assert d.rule == "ONI-END" and "Points de Victoire" in d.quote


def test_end_of_time_after_the_game_is_the_outcome(tmp_path):
    m = play(tmp_path, TIED, options={"tie": "fights-won"})
    d = m.ruleset.end_of_time(m.state(), m.events(), policy="unfinished-draw")
    assert (d.result, d.winner, d.branch) == ("win", "Ann", "game-over")


def test_character_table_marks_every_guess():
    from engine.rulesets.onigashima import characters as data
    t = data.table()
    assert len(t["characters"]) > 70
    for row in t["characters"]:
        for f in ("initiative", "dice", "defence", "energy"):
            assert isinstance(row[f], int), (row["name"], f)
        if row["guessed"]:
            assert row["note"], row["name"]
    page_one = data.lookup("page one")
    assert page_one["guessed"] == ["defence", "haki"]
    luffy = data.lookup("Monkey.D.Luffy (Gear Fifth)")
    assert (luffy["initiative"], luffy["dice"], luffy["defence"], luffy["energy"]) == (32, 8, 6, 32)


# --- determinism ----------------------------------------------------------------------------------

die = st.integers(1, 6)
step = st.one_of(
    st.tuples(st.just("attack"), st.sampled_from(["Ann", "Bob"]), st.lists(die, min_size=1, max_size=8)),
    st.tuples(st.just("dodge"), st.sampled_from(["Ann", "Bob"]), die),
    st.tuples(st.just("card"), st.sampled_from(["Ann", "Bob"]), st.integers(0, 15)),
    st.tuples(st.just("transform"), st.sampled_from(["Ann", "Bob"]), die),
)


def to_event(s):
    kind, player, arg = s
    if kind == "attack":
        return "attack", {"player": player, "dice": arg, "ability_faces": [6], "ability_energy": 3}
    if kind == "dodge":
        return "dodge", {"player": player, "roll": arg}
    if kind == "card":
        return "card", {"player": player, "name": "x", "type": "attaque", "damage": arg, "cancel": arg % 2 == 0}
    return "transform", {"player": player, "roll": arg, "need": 4,
                         "to": "Monkey D. Luffy (gear fourth)" if player == "Ann" else "Kaido (forme animale)"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=15), st.booleans())
def test_same_events_same_state_hash(steps, end):
    events = [CAMPS2, ("turn", {"number": 1}),
              ("fight.start", {"fighters": {"Ann": "Monkey D. Luffy", "Bob": "Kaido"}})]
    events += [to_event(s) for s in steps]
    if end:
        events.append(("fight.end", {"winner": "Ann", "how": "card"}))
    hashes = []
    with tempfile.TemporaryDirectory() as d:
        for name in ("one", "two"):
            (Path(d) / name).mkdir()
            m = play(Path(d) / name, events)
            hashes.append(m.state().state_hash())
            hashes.append(m.replayer.state_at(use_snapshots=False).state_hash())
            m.store.close()
    assert len(set(hashes)) == 1
