"""grandline: a legal and an illegal case per checked rule, both readings of every option, outcome,
end of time, determinism and the docs page."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.match import Match
from engine.rulesets.grandline.ruleset import RULESET
from engine.store import EventStore
from tests.conftest import ROOT as REPO_ROOT, judged_example


ROOT = Path(REPO_ROOT)



SETUP = [("setup", {"player": "Ann", "captain": "Luffy", "initiative": 5, "captain_life": 7, "deck": 44, "hand": 5}),
         ("setup", {"player": "Bob", "captain": "Kaido", "initiative": 4, "captain_life": 8, "deck": 44, "hand": 5})]
R1 = [("round", {"number": 1, "start_player": "Ann", "rolls": {"Ann": 6, "Bob": 2}}), ("phase", {"name": "preparation"}),
      ("draw", {"player": "Ann"}), ("draw", {"player": "Bob"}), ("phase", {"name": "action"})]
ZORO = ("play", {"player": "Ann", "card": "Zoro", "type": "character", "cost": 1, "attack": 5, "defence": 4})
JACK = ("play", {"player": "Bob", "card": "Jack", "type": "character", "cost": 1, "attack": 3, "defence": 5, "life": 10})
COMBAT = ("phase", {"name": "combat"})
END = ("phase", {"name": "end"})
BOARD = SETUP + R1 + [ZORO, JACK, COMBAT]
# three players; Bob loses all his life in round 1 and is out, Ann and Cid play on
CID = ("setup", {"player": "Cid", "captain": "Shanks", "initiative": 3, "deck": 44, "hand": 5})
BOB_OUT = SETUP + [CID, ("round", {"number": 1, "start_player": "Ann", "rolls": {"Ann": 6, "Bob": 2, "Cid": 1}}),
                   ("phase", {"name": "preparation"}), ("draw", {"player": "Ann"}), ("draw", {"player": "Bob"}),
                   ("draw", {"player": "Cid"}), ("phase", {"name": "action"}), ("damage", {"player": "Bob", "amount": 10})]


def sub(tmp_path, name):
    d = tmp_path / name
    d.mkdir()
    return d


def play(tmp_path, events, options=None):
    """The events recorded in a fresh match of Ann and Bob (and Cid, when a setup names him)."""
    players = ["Ann", "Bob"] + (["Cid"] if any(k == "setup" and p["player"] == "Cid" for k, p in events) else [])
    store = EventStore.open(str(tmp_path / "g.db"))
    m = Match.create(store, "grandline", players, options=options)
    rec = None
    for kind, payload in events:
        rec = m.record(kind, payload)
    m.last = {f.rule for f in rec.findings} if rec else set()
    return m


def last(tmp_path, events, options=None):
    m = play(tmp_path, events, options)
    m.store.close()
    return m.last


def attack(**kw):
    return ("attack", {"player": "Ann", "attacker": "Zoro", **kw})


CASES = [
    ("GL-DECK", SETUP[:1], [("setup", {"player": "Ann", "captain": "Luffy", "deck": 50})], None),
    ("GL-START", SETUP + R1[:1], SETUP + [("round", {"number": 1, "start_player": "Bob", "rolls": {"Ann": 6, "Bob": 2}})], None),
    ("GL-START", SETUP + R1 + [COMBAT, END, ("round", {"number": 2, "start_player": "Bob"})],
     SETUP + R1 + [COMBAT, END, ("round", {"number": 2, "start_player": "Ann"})], None),
    ("GL-START", SETUP + R1 + [COMBAT, END, ("round", {"number": 2, "start_player": "Ann"})],
     SETUP + R1 + [COMBAT, END, ("round", {"number": 2, "start_player": "Bob"})], {"turn_structure": "initiative"}),
    ("GL-PHASE-ORDER", SETUP + R1, SETUP + R1[:4] + [COMBAT], None),
    ("GL-PHASE-ORDER", None, SETUP + R1 + [("round", {"number": 2, "start_player": "Bob"})], None),
    ("GL-DRAW", SETUP + R1[:4], SETUP + R1[:4] + [("draw", {"player": "Ann"})], None),
    ("GL-DRAW", None, SETUP + R1[:3] + [("phase", {"name": "action"})], None),
    ("GL-COST", SETUP + R1 + [ZORO], SETUP + R1 + [("play", {"player": "Ann", "card": "Nami", "type": "character", "cost": 2})], None),
    ("GL-PLAY-PHASE", SETUP + R1 + [COMBAT, ("play", {"player": "Ann", "card": "Gum", "type": "event", "quick": True})],
     SETUP + R1 + [COMBAT, ("play", {"player": "Ann", "card": "Gum", "type": "event"})], None),
    ("GL-CARD-TYPE", SETUP + R1 + [("play", {"player": "Ann", "card": "Merry", "type": "island"})],
     SETUP + R1 + [("play", {"player": "Ann", "card": "Merry", "type": "treasure"})], {"card_types": "items-islands"}),
    ("GL-ATTACK-PHASE", BOARD + [attack()], SETUP + R1 + [ZORO, attack()], None),
    ("GL-ATTACKER", BOARD + [attack()], BOARD + [attack(attacker="Sanji")], None),
    ("GL-ATTACKER", None, BOARD + [attack(target="Queen")], None),
    ("GL-EXHAUSTED", BOARD + [attack()], BOARD + [attack(), attack()], None),
    ("GL-ATTACK-LIMIT", None, BOARD + [attack(), ("play", {"player": "Ann", "card": "Sanji", "type": "character", "quick": True, "attack": 1}),
                                       ("play", {"player": "Ann", "card": "Usopp", "type": "character", "quick": True, "attack": 1}),
                                       attack(attacker="Sanji"), attack(attacker="Usopp")], None),
    ("GL-BLOCK", BOARD + [attack(blocker="Jack")], BOARD + [attack(blocker="Jack", unblockable=True)], None),
    ("GL-BLOCK", None, BOARD + [attack(blocker="Zoro")], None),
    ("GL-BLOCK", None, BOARD + [("damage", {"player": "Ann", "amount": 0}), attack(blocker="Jack")], {"combat": "compare", "resource": "action-points"}),
    ("GL-HAND-LIMIT", SETUP + R1 + [ZORO, JACK, COMBAT, END, ("round", {"number": 2, "start_player": "Bob"})],
     SETUP + R1 + [COMBAT, END, ("round", {"number": 2, "start_player": "Bob"})], {"hand_limit": 5}),
    ("GL-VISIT", SETUP + [("island.visit", {"player": "Ann", "island": "Wano", "vp": 2})],
     SETUP + [("island.visit", {"player": "Ann", "island": "Wano", "vp": 2}), ("island.visit", {"player": "Ann", "island": "Wano", "vp": 2})], None),
    ("GL-OUT", BOB_OUT + [ZORO], BOB_OUT + [JACK], None),
    ("GL-OUT", BOB_OUT + [COMBAT, END, ("round", {"number": 2, "start_player": "Cid"})],
     BOB_OUT + [COMBAT, END, ("round", {"number": 2, "start_player": "Bob"})], None),
    ("GL-END", SETUP + [("island.visit", {"player": "Ann", "island": "Raftel", "vp": 5})],
     SETUP + [("vp", {"player": "Ann", "add": 10}), ("island.visit", {"player": "Ann", "island": "Raftel", "vp": 5})], None),
]


@pytest.mark.parametrize("rule,legal,illegal,options", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_legal_and_illegal(tmp_path, rule, legal, illegal, options):
    if legal is not None:
        assert last(sub(tmp_path, "legal"), legal, options) == set()
    got = last(sub(tmp_path, "illegal"), illegal, options)
    assert rule in got, got


def test_every_checked_rule_has_cases():
    assert {r.id for r in RULESET.rules if r.status == "checked"} == {c[0] for c in CASES}


# --- both readings of every option ------------------------------------------------------------------

def both(tmp_path, events, option, a, b):
    return (play(sub(tmp_path, "a"), events, {option: a}), play(sub(tmp_path, "b"), events, {option: b}))


def test_option_hand_limit(tmp_path):
    ev = SETUP + R1 + [COMBAT, END, ("round", {"number": 2, "start_player": "Bob"})]  # 6 cards in hand
    six, five = both(tmp_path, ev, "hand_limit", 6, 5)
    assert "GL-HAND-LIMIT" not in six.last and "GL-HAND-LIMIT" in five.last


def test_option_deck_out(tmp_path):
    ev = [("setup", {"player": "Ann", "captain": "Luffy", "deck": 0, "hand": 49}),
          ("setup", {"player": "Bob", "captain": "Kaido", "deck": 44, "hand": 5}),
          ("round", {"number": 1, "start_player": "Ann"}), ("phase", {"name": "preparation"}),
          ("discard", {"player": "Ann", "count": 3}), ("draw", {"player": "Ann"})]
    lose, reshuffle = both(tmp_path, ev, "deck_out", "lose", "reshuffle")
    out = lose.ruleset.outcome(lose.state())
    assert (out.result, out.winner) == ("win", "Bob")
    s = reshuffle.state()
    assert reshuffle.ruleset.outcome(s) is None
    assert (len(s.zone("Ann", "deck")), len(s.zone("Ann", "discard")), len(s.zone("Ann", "hand"))) == (2, 0, 47)


def test_option_life(tmp_path):
    ten, captain = both(tmp_path, SETUP, "life", "player-10", "captain")
    assert ten.state().counters["Ann"]["life"] == 10
    assert captain.state().counters["Ann"]["life"] == 7


def test_option_turn_structure(tmp_path):
    ev = SETUP + R1 + [COMBAT, END, ("round", {"number": 2, "start_player": "Ann"})]
    rotating, initiative = both(tmp_path, ev, "turn_structure", "rotating", "initiative")
    assert "GL-START" in rotating.last and "GL-START" not in initiative.last


def test_option_resource(tmp_path):
    ev = SETUP + R1[:2]
    beli, ap = both(tmp_path, ev, "resource", "beli", "action-points")
    assert [beli.state().counters[p]["beli"] for p in ("Ann", "Bob")] == [1, 1]
    assert [ap.state().counters[p]["ap"] for p in ("Ann", "Bob")] == [5 + 2, 4]   # initiative, +2 first player
    ap_end = play(sub(tmp_path, "c"), ev + [("draw", {"player": "Ann"}), ("draw", {"player": "Bob"}),
                                            ("phase", {"name": "main"}), COMBAT, END], {"resource": "action-points"})
    assert ap_end.state().counters["Ann"]["ap"] == 0  # "Aktionspunkte zurücksetzen"


def test_option_combat(tmp_path):
    equal = ("play", {"player": "Bob", "card": "King", "type": "character", "cost": 0, "attack": 2, "defence": 5})
    ev = SETUP + R1 + [ZORO, ("play", {"player": "Ann", "card": "Zoro", "type": "character", "cost": 0,
                                       "attack": 5, "defence": 4}), equal, COMBAT]
    blocked = ev + [attack(blocker="King")]
    block = play(sub(tmp_path, "a"), blocked, {"combat": "block"})
    s = block.state()
    assert [c.code for c in s.zone("Ann", "discard")][-1:] == ["Zoro"] and "King" in [c.code for c in s.zone("Bob", "discard")]
    compare = play(sub(tmp_path, "b"), ev + [attack(target="King")], {"combat": "compare", "resource": "action-points"})
    s2 = compare.state()
    assert "King" in [c.code for c in s2.zone("Bob", "discard")] and "Zoro" in [c.code for c in s2.zone("Ann", "sea")]
    assert s2.counters["Ann"]["ap"] == 7 - 1 - 1  # Zoro's cost, then 1 for an attack on a character


def test_option_attacks_per_phase(tmp_path):
    extra = [("play", {"player": "Ann", "card": n, "type": "character", "quick": True, "attack": 1}) for n in ("Sanji", "Usopp")]
    ev = BOARD + [attack()] + extra + [attack(attacker="Sanji"), attack(attacker="Usopp")]
    two, unlimited = both(tmp_path, ev, "attacks_per_phase", 2, 0)
    assert "GL-ATTACK-LIMIT" in two.last and unlimited.last == set()


def test_option_captain_damage(tmp_path):
    opts = {"combat": "compare", "resource": "action-points", "life": "captain"}
    ev = SETUP + R1 + [("play", {"player": "Ann", "card": "Usopp", "type": "character", "attack": 3}), COMBAT,
                       ("attack", {"player": "Ann", "attacker": "Usopp"})]
    a = play(sub(tmp_path, "a"), ev, {**opts, "captain_damage": "attack"})
    d = play(sub(tmp_path, "b"), ev, {**opts, "captain_damage": "difference"})
    assert a.state().counters["Bob"]["life"] == 8 - 3
    assert d.state().counters["Bob"]["life"] == 8 - (8 - 3)
    strong = play(sub(tmp_path, "c"), SETUP + R1 + [("play", {"player": "Ann", "card": "Luffy G5", "type": "character", "attack": 9}),
                                                    COMBAT, ("attack", {"player": "Ann", "attacker": "Luffy G5"})], opts)
    out = strong.ruleset.outcome(strong.state())
    assert (out.result, out.winner) == ("win", "Ann")


def test_option_card_types(tmp_path):
    for ctype, allowed in (("item", {"all": True, "items-islands": True, "locations-treasures": False}),
                           ("location", {"all": True, "items-islands": False, "locations-treasures": True})):
        for opt, ok in allowed.items():
            got = last(sub(tmp_path, f"{ctype}-{opt}"), SETUP + R1 + [("play", {"player": "Ann", "card": "x", "type": ctype})],
                       {"card_types": opt})
            assert ("GL-CARD-TYPE" not in got) == ok, (ctype, opt)


def test_option_character_life(tmp_path):
    ev = BOARD + [attack(blocker="Jack")]  # Zoro 5 against Jack defence 5, life 10: equal
    combat_only, life_pool = both(tmp_path, ev, "character_life", "combat-only", "life-pool")
    assert "Jack" in [c.code for c in combat_only.state().zone("Bob", "discard")]   # equal: both destroyed
    jack = [c for c in life_pool.state().zone("Bob", "sea") if c.code == "Jack"][0]
    assert jack.props["life"] == 5


def test_option_same_type_rule(tmp_path):
    ev = SETUP + R1 + [("play", {"player": "Ann", "card": "Zoro", "type": "character", "typ": "Pirat"}),
                       ("play", {"player": "Ann", "card": "Sanji", "type": "character", "typ": "Pirat"})]
    ignore, enforce = both(tmp_path, ev, "same_type_rule", "ignore", "enforce")
    assert [c.code for c in ignore.state().zone("Ann", "sea")] == ["Zoro", "Sanji"]
    assert [c.code for c in enforce.state().zone("Ann", "sea")] == ["Sanji"]


def test_same_name_replaces(tmp_path):
    m = play(tmp_path, SETUP + R1 + [ZORO, ("play", {"player": "Ann", "card": "Zoro", "type": "character"})])
    s = m.state()
    assert [c.code for c in s.zone("Ann", "sea")] == ["Zoro"] and [c.code for c in s.zone("Ann", "discard")] == ["Zoro"]


# --- outcome, end of time ----------------------------------------------------------------------------

def test_sample_match_records_validates_and_decides(tmp_path):
    m, v = judged_example(tmp_path, "grandline/sample-profile.jsonl")
    out = m.ruleset.outcome(v.state)
    assert (out.result, out.winner) == ("win", "Ann") and v.state.counters["Ann"]["vp"] >= 10
    assert m.ruleset.key_counters(v.state)["Ann"] == {"life": 5, "vp": 10, "beli": 3}


def test_life_zero_loses(tmp_path):
    m = play(tmp_path, SETUP + [("damage", {"player": "Bob", "amount": 10})])
    out = m.ruleset.outcome(m.state())
    assert (out.result, out.winner) == ("win", "Ann")


def test_end_of_time_policies(tmp_path):
    m = play(tmp_path, SETUP + [("island.visit", {"player": "Bob", "island": "Wano", "vp": 3}),
                                ("damage", {"player": "Bob", "amount": 4})])
    d = m.ruleset.end_of_time(m.state(), m.events())
    assert (d.result, d.winner, d.branch) == ("win", "Bob", "more-vp")
    assert (m.ruleset.end_of_time(m.state(), m.events(), policy="draw").result) == "draw"
    m2 = play(sub(tmp_path, "b"), SETUP + [("damage", {"player": "Bob", "amount": 4})])
    d2 = m2.ruleset.end_of_time(m2.state(), m2.events())
    assert (d2.result, d2.winner, d2.branch) == ("win", "Ann", "more-life")
    m3 = play(sub(tmp_path, "c"), SETUP)
    assert m3.ruleset.end_of_time(m3.state(), m3.events()).result == "draw"


def test_docs_page_lists_every_contradiction():
    """(Its rules, options and kinds: tests/layout/test_catalogues.py, for every game.)"""
    page = (ROOT / "docs" / "rulesets" / "grandline.md").read_text("utf-8")
    for cid, *_ in RULESET.contradictions:
        assert f"| {cid} |" in page, cid


# --- determinism ----------------------------------------------------------------------------------

move = st.one_of(
    st.tuples(st.just("play"), st.sampled_from(["Ann", "Bob"]), st.integers(0, 6)),
    st.tuples(st.just("attack"), st.sampled_from(["Ann", "Bob"]), st.integers(0, 3)),
    st.tuples(st.just("phase"), st.sampled_from(["preparation", "action", "combat", "end"]), st.just(0)),
    st.tuples(st.just("draw"), st.sampled_from(["Ann", "Bob"]), st.just(0)),
    st.tuples(st.just("visit"), st.sampled_from(["Ann", "Bob"]), st.integers(0, 4)),
)


def to_event(mv):
    kind, who, n = mv
    if kind == "play":
        if not n:
            return "play", {"player": who, "card": "E", "type": "event"}
        return "play", {"player": who, "card": f"C{n}", "type": "character", "attack": n, "defence": 6 - n,
                        **({"life": n} if n % 2 else {})}
    if kind == "attack":
        return "attack", {"player": who, "attacker": f"C{n + 1}", **({"blocker": f"C{n}"} if n else {})}
    if kind == "phase":
        return "phase", {"name": who}
    if kind == "draw":
        return "draw", {"player": who}
    return "island.visit", {"player": who, "island": f"I{n}", "vp": n}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(move, max_size=20), st.sampled_from([{}, {"combat": "compare", "character_life": "life-pool"},
                                                      {"deck_out": "reshuffle", "resource": "action-points"}]))
def test_same_events_same_state_hash(moves, options):
    events = SETUP + [("round", {"number": 1, "start_player": "Ann"})] + [to_event(m) for m in moves]
    hashes = []
    with tempfile.TemporaryDirectory() as d:
        for name in ("one", "two"):
            (Path(d) / name).mkdir()
            m = play(Path(d) / name, events, options)
            hashes += [m.state().state_hash(), m.replayer.state_at(use_snapshots=False).state_hash()]
            m.store.close()
    assert len(set(hashes)) == 1
