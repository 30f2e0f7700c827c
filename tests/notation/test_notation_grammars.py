"""The grammars of ken, onigashima and grandline: their example games round-trip and show their
findings, every JSONL example of those rulesets is written in the short forms and reads back to
the same state, generated logs survive export and import (hypothesis, on the rulesets' own event
generators extended with every short form's corner cases), parse errors name line, column and
what was expected and store nothing, the live recorder's `?` and completion work, and the docs'
annotated games import."""
from __future__ import annotations

import glob
import json
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.match import InputError, Match
from engine.rulesets import get_ruleset
from engine.store import EventStore
from judge.io.importers import jsonl as jsonl_import
from judge.io.importers import notation as notation_import
from judge.live import LiveSession
from engine.notation import Verb, grammar_for, make_ctx, normalise

from tests.conftest import ROOT, run_cli
from tests.notation.support import assert_round_trip
from tests.rulesets.grandline.test_grandline_rules import move as grandline_move
from tests.rulesets.grandline.test_grandline_rules import to_event as grandline_event
from tests.rulesets.ken.test_ken_replay import _EVENTS as KEN_EVENTS
from tests.rulesets.onigashima.test_onigashima_outcome import step as onigashima_step
from tests.rulesets.onigashima.test_onigashima_outcome import to_event as onigashima_event

RULESETS = ("ken", "onigashima", "grandline")

# The findings each example game was written to show: (rule, severity, position).
EXPECTED = {
    "ken/village-raid.txt": [("KEN-PESCA-1", "error", 52), ("KEN-LUOGO-2", "error", 58),
                             ("KEN-PROT-1", "error", 58)],
    "onigashima/zoro-vs-king.txt": [("ONI-ALTERNATE", "error", 14), ("ONI-DODGE", "warning", 19),
                                    ("ONI-DAMAGE", "error", 22)],
    "grandline/east-blue-cup.txt": [("GL-DRAW", "error", 22), ("GL-ATTACKER", "error", 28),
                                    ("GL-HAND-LIMIT", "error", 31), ("GL-ATTACK-LIMIT", "error", 40),
                                    ("GL-EXHAUSTED", "error", 40)],
}


def test_each_grammar_has_an_example_game_with_its_expectation():
    mine = sorted(os.path.relpath(p, os.path.join(ROOT, "examples"))
                  for r in RULESETS for p in glob.glob(os.path.join(ROOT, "examples", r, "*.txt")))
    assert mine == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_imports_with_its_findings_and_round_trips(tmp_path, name):
    path = os.path.join(ROOT, "examples", name)
    db = str(tmp_path / "ex.db")
    r = run_cli("import", path, "--json", db=db)
    assert r.returncode == 0, r.stderr
    match = json.loads(r.stdout)["match"]
    r = run_cli("validate", match, "--json", db=db)
    got = [(f["rule"], f["severity"], f["position"]) for f in json.loads(r.stdout)["findings"]]
    assert got == EXPECTED[name]
    out = run_cli("export", match, "--format", "notation", "-o", "-", db=db)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert normalise(out.stdout) == normalise(text)
    # canonical: one event per line, exactly as exported
    assert out.stdout.strip().splitlines() == text.strip().splitlines()


# --- every JSONL example of these rulesets: short forms, same state ----------------------------

# kinds every grammar writes in a short form when the values are plain (the rest may be generic)
SHORT = {
    "ken": {"turn", "phase", "draw", "disengage", "play", "move", "combat.attack", "combat.defend",
            "combat.damage", "combat.end", "deck.register"},
    "onigashima": {"camps", "deal", "captain", "turn", "fight.start", "initiative.roll", "transform",
                   "card", "attack", "dodge", "fight.end"},
    "grandline": {"setup", "round", "phase", "draw", "play", "attack", "discard", "island.visit"},
}


def _generic(grammar, e, ctx) -> str:
    return grammar.format_fields(Verb(e.kind, e.kind), e, ctx, e.kind)


@pytest.mark.parametrize("path", sorted(p for r in RULESETS
                                        for p in glob.glob(os.path.join(ROOT, "examples", r, "*.jsonl"))))
def test_jsonl_examples_use_the_short_forms_and_read_back(tmp_path, path):
    store = EventStore.open(str(tmp_path / "j.db"))
    try:
        original = Match(store, jsonl_import.import_file(store, path).match)
        grammar = grammar_for(original.ruleset)
        ctx = make_ctx(original.players, original.ruleset, grammar)
        seen = set()
        for e in original.events()[1:]:
            if e.kind in SHORT[original.ruleset.name]:
                seen.add(e.kind)
                body, generic = grammar.format_event(e, ctx), _generic(grammar, e, ctx)
                assert "=" not in generic or not body.endswith(generic), body
        assert seen
        assert_round_trip(store, original, tmp_path)
    finally:
        store.close()


# --- generated logs ------------------------------------------------------------------------------

NAMES = st.sampled_from(["Zoro", "Monkey D. Luffy", "Who's Who", "c7", "blocked", "first", "12", "a>b",
                         "x,y", "T3", "R2", "/order", "-", "?", "ü"])
IDS = st.sampled_from(["c1", "c10", "c25", "#1", "c,2", "-", "a>b", "!c3"])
SEAT_PLAYER = st.sampled_from(["Ann", "Bob Lee"])
ACTOR = st.sampled_from(["self", "self", "self", "-", "judge:Kim"])


def _rename(events):
    """The existing generators play Ann and Bob; our match seats Ann and Bob Lee (a quoted name)."""
    def fix(v):
        if v == "Bob":
            return "Bob Lee"
        if isinstance(v, dict):
            return {fix(k) if k == "Bob" else k: fix(x) for k, x in v.items()}
        if isinstance(v, list):
            return [fix(x) for x in v]
        return v
    return [(k, fix(p)) for k, p in events]


_SIDE = st.fixed_dictionaries({"damage": st.integers(0, 12)}, optional={
    "uses": st.lists(IDS, max_size=2), "vanquished": st.lists(IDS, max_size=2), "waves": st.integers(1, 2),
    "lethal": IDS, "massacre": IDS,
    "effects": st.lists(st.fixed_dictionaries({"effect": NAMES, "attack": st.integers(-3, 3)}), max_size=1)})
KEN_MORE = st.one_of(
    st.builds(lambda p, n, g: ("phase", {"name": n, **({"green": g} if g is not None else {})}),
              SEAT_PLAYER, st.sampled_from(["order", "disengage", "draw", "presentation", "combat", "epilogue"]),
              st.one_of(st.none(), st.integers(0, 5))),
    st.builds(lambda p, cs, n, ef: ("draw", {"player": p, "count": n, "cards": cs,
                                             **({"effect": ef} if ef else {})}),
              SEAT_PLAYER, st.lists(st.sampled_from(["M-KEN", "P-BAT", "Carta Unica"]), max_size=2),
              st.integers(2, 3), st.one_of(st.none(), NAMES)),
    st.builds(lambda p, entries, ef: ("play", {"player": p, "cards": entries, **({"effect": ef} if ef else {})}),
              SEAT_PLAYER, st.lists(st.fixed_dictionaries({"code": st.sampled_from(["L-VIL", "a b", "X@Y", "M+K"])},
                                                          optional={"host": IDS, "stack": IDS}), min_size=1, max_size=3),
              st.one_of(st.none(), NAMES)),
    st.builds(lambda p, groups: ("combat.defend", {"player": p, "groups": groups}), SEAT_PLAYER,
              st.lists(st.fixed_dictionaries({"target": IDS, "cards": st.lists(IDS, min_size=1, max_size=2)},
                                             optional={"commander": IDS}), max_size=2)),
    st.builds(lambda t, a, d: ("combat.damage", {"target": t, "attacker": a, "defender": d}), IDS, _SIDE, _SIDE),
    st.builds(lambda c, o: ("combat.end", {**({"conquered": c} if c is not None else {}),
                                           **({"order": o} if o is not None else {})}),
              st.one_of(st.none(), st.lists(IDS, max_size=2)),
              st.one_of(st.none(), st.fixed_dictionaries({"Ann": st.integers(0, 12), "Bob Lee": st.integers(0, 12)}),
                        st.just({"Ann": 3}))),
    st.builds(lambda p, a, b, n, c, ef: ("move", {"player": p, "from_zone": a, "to_zone": b, "count": n,
                                                  **({"code": c} if c else {}), **({"effect": ef} if ef else {})}),
              SEAT_PLAYER, st.sampled_from(["hand", "past", "future"]), st.sampled_from(["past", "removed"]),
              st.integers(1, 2), st.one_of(st.none(), st.just("M-KEN")), st.one_of(st.none(), NAMES)),
    st.builds(lambda p, u: ("disengage", {"player": p, **({"units": u} if u is not None else {})}),
              SEAT_PLAYER, st.one_of(st.none(), st.lists(IDS, max_size=2))),
    st.builds(lambda p, a, ef, fc: ("order.points", {"player": p, "add": a, "effect": ef,
                                                     **({"for_card": fc} if fc else {})}),
              SEAT_PLAYER, st.integers(-3, 5), NAMES, st.one_of(st.none(), IDS)),
    st.builds(lambda p, n, u, r: ("effect", {"player": p, "name": n, **({"uid": u} if u else {}),
                                             **({"result": r} if r else {})}),
              SEAT_PLAYER, NAMES, st.one_of(st.none(), IDS), st.one_of(st.none(), NAMES)),
    st.builds(lambda p, n: ("turn", {"player": p, **({"number": n} if n else {})}), SEAT_PLAYER,
              st.one_of(st.none(), st.integers(1, 9))),
)

_DICE = st.lists(st.integers(1, 6), max_size=8)
ONI_MORE = st.one_of(
    st.builds(lambda a, e: ("camps", {"alliance": a, "empereurs": e}), st.lists(SEAT_PLAYER, max_size=2),
              st.lists(SEAT_PLAYER, max_size=1)),
    st.builds(lambda c, names: ("deal", {"camp": c, "characters": names}),
              st.sampled_from(["alliance", "empereurs"]), st.lists(NAMES, min_size=1, max_size=3)),
    st.builds(lambda c, n: ("deal", {"camp": c, "count": n}), st.sampled_from(["alliance", "empereurs"]),
              st.integers(1, 12)),
    st.builds(lambda n: ("turn", {"number": n} if n else {}), st.one_of(st.none(), st.integers(1, 12))),
    st.builds(lambda a, b, first: ("fight.start", {"fighters": ({"Ann": a, "Bob Lee": b} if first
                                                                else {"Bob Lee": b, "Ann": a})}),
              NAMES, NAMES, st.booleans()),
    st.builds(lambda a, b: ("initiative.roll", {"rolls": {"Ann": a, "Bob Lee": b}}), st.integers(1, 6),
              st.integers(1, 6)),
    st.builds(lambda p, d, f, e, lost, bonus: ("attack", {"player": p, "dice": d, "ability_faces": f,
                                                          "ability_energy": e if f else 0,
                                                          **({"energy_lost": lost or 0} if lost is not None or not d else {}),
                                                          **({"bonus": bonus} if bonus else {})}),
              SEAT_PLAYER, _DICE, st.lists(st.integers(1, 6), max_size=3), st.integers(1, 5),
              st.one_of(st.none(), st.integers(0, 40)), st.integers(0, 3)),
    st.builds(lambda p, n, t, h, w, d, heal, flags, text: (
        "card", {"player": p, "name": n, "type": t, **({"haki": h} if h else {}),
                 **({"weakness": w} if t == "faiblesse" else {}),
                 **({"damage": d} if d is not None else {}), **({"heal": heal} if heal is not None else {}),
                 **{f: True for f in flags}, **({"text": text} if text else {})}),
        SEAT_PLAYER, NAMES, st.sampled_from(["attaque", "defense", "faiblesse"]),
        st.one_of(st.none(), st.sampled_from(["perceptif", "royal_avance"])),
        st.sampled_from(["Orgueil", "Peur"]), st.one_of(st.none(), st.integers(0, 20)),
        st.one_of(st.none(), st.integers(0, 9)),
        st.sets(st.sampled_from(["cancel", "take_initiative", "instead_of_attack"])), st.one_of(st.none(), NAMES)),
    st.builds(lambda p, r, to, need: ("transform", {"player": p, "roll": r, **({"to": to} if to else {}),
                                                    **({"need": need} if need else {})}),
              SEAT_PLAYER, st.integers(1, 6), st.one_of(st.none(), NAMES), st.one_of(st.none(), st.integers(1, 6))),
    st.builds(lambda w, how: ("fight.end", {"winner": w, "how": how} if how != "flee" else {"how": "flee"}),
              SEAT_PLAYER, st.sampled_from(["energy", "card", "flee"])),
)

GL_MORE = st.one_of(
    st.builds(lambda p, c, i, life: ("setup", {"player": p, "captain": c, "initiative": i,
                                               **({"captain_life": life} if life else {})}),
              SEAT_PLAYER, NAMES, st.integers(0, 9), st.one_of(st.none(), st.integers(1, 9))),
    st.builds(lambda s, n, rolls: ("round", {"start_player": s, **({"number": n} if n else {}),
                                             **({"rolls": rolls} if rolls is not None else {})}),
              SEAT_PLAYER, st.one_of(st.none(), st.integers(1, 9)),
              st.one_of(st.none(), st.fixed_dictionaries({"Ann": st.integers(1, 6), "Bob Lee": st.integers(1, 6)}),
                        st.just({"Ann": 4}))),
    st.builds(lambda p, a, t, b, tp, u: ("attack", {"player": p, "attacker": a, "target": t,
                                                    **({"blocker": b} if b else {}),
                                                    **({"target_player": tp} if tp else {}),
                                                    **({"unblockable": True} if u else {})}),
              SEAT_PLAYER, NAMES, st.one_of(st.just("direct"), NAMES), st.one_of(st.none(), NAMES),
              st.one_of(st.none(), SEAT_PLAYER), st.booleans()),
    st.builds(lambda p, c, t, cost, q, typ: ("play", {"player": p, "card": c, "type": t, "cost": cost,
                                                      **({"quick": True} if q else {}), **({"typ": typ} if typ else {})}),
              SEAT_PLAYER, NAMES, st.sampled_from(["character", "island", "event"]), st.integers(0, 3),
              st.booleans(), st.one_of(st.none(), NAMES)),
    st.builds(lambda p, n, c: ("discard", {"player": p, "count": n, **({"card": c} if c else {})}),
              SEAT_PLAYER, st.integers(1, 3), st.one_of(st.none(), NAMES)),
    st.builds(lambda p, a, r: ("damage", {"player": p, "amount": a, "reason": r}), SEAT_PLAYER,
              st.integers(0, 5), NAMES),
    st.builds(lambda p, a, r: ("vp", {"player": p, "add": a, "reason": r}), SEAT_PLAYER, st.integers(-2, 6), NAMES),
)

GENERATED = {
    "ken": st.lists(st.one_of(KEN_EVENTS, KEN_MORE), max_size=14).map(_rename),
    "onigashima": st.lists(st.one_of(onigashima_step.map(onigashima_event), ONI_MORE), max_size=14).map(_rename),
    "grandline": st.lists(st.one_of(grandline_move.map(grandline_event), GL_MORE), max_size=14).map(_rename),
}


def _actor(payload: dict, who: str) -> str:
    player = payload.get("player") or payload.get("start_player")
    return (player or "-") if who == "self" else who


@pytest.mark.parametrize("ruleset", RULESETS)
def test_generated_logs_survive_export_and_import(tmp_path, ruleset):
    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
    @given(GENERATED[ruleset], st.lists(ACTOR, min_size=14, max_size=14))
    def check(events, actors):
        db = tmp_path / f"{ruleset}.db"
        for f in glob.glob(str(db) + "*"):
            os.remove(f)
        store = EventStore.open(str(db))
        try:
            m = Match.create(store, ruleset, ["Ann", "Bob Lee"])
            for (kind, payload), who in zip(events, actors):
                m.record(kind, payload, actor=_actor(payload, who))
            assert_round_trip(store, m, tmp_path)
        finally:
            store.close()

    check()


# --- parse errors ----------------------------------------------------------------------------------

HEADERS = {r: f'[Ruleset "{r}"]\n[A "Ann"]\n[B "Bob"]\n\n' for r in RULESETS}
ERRORS = [
    # (ruleset, body, line, column, words the message must hold)
    ("ken", "A: /d\n", 5, 4, "('/d' could be disengage or draw)"),
    ("ken", "A: /frobnicate\n", 5, 4, "expected a phase: /order, /disengage"),
    ("ken", "A: play\n", 5, 8, "expected the card(s) played"),
    ("ken", "A: play L-VIL@\n", 5, 9, "expected a card: CODE, CODE@HOST"),
    ("ken", "A: attack c10 c6>c23\n", 5, 11, "expected a group: CARD,CARD>TARGET"),
    ("ken", "dmg c25 5 ko=c26\n", 5, 17, "expected '/' and the defender's side"),
    ("ken", "dmg c25 5 / x\n", 5, 13, "expected the damage this side deals"),
    ("ken", "dmg c25 5 kills=c2 / 4\n", 5, 11, "expected uses= ko= effects="),
    ("ken", "endcombat c25 11-4-2\n", 5, 15, "expected one number per player in seat order (A-B), got 3"),
    ("ken", "A: hand>pst\n", 5, 4, "unknown zone 'pst'"),
    ("onigashima", "camps A B\n", 5, 10, "expected 'vs' between the camps"),
    ("onigashima", "camps A vs C\n", 5, 12, "expected a player (A, B) or 'vs'"),
    ("onigashima", "fight A Zoro B\n", 5, 15, "expected the character after the player"),
    ("onigashima", "init A x B 2\n", 5, 8, "expected a roll (a whole number)"),
    ("onigashima", "A: atk 3247\n", 5, 8, "expected the dice as digits 1 to 6"),
    ("onigashima", "A: atk 324 6:3 +3\n", 5, 16, "expected DICE (324611), FACES:ENERGY (6:3), -LOST"),
    ("onigashima", "A: card Ulti attack\n", 5, 14, "expected one of attaque, defense, faiblesse for type"),
    ("onigashima", "A: dodge 7\n", 5, 4, "roll: a D6 shows 1 to 6, got 7"),
    ("grandline", "R1\n", 5, 3, "expected the start player (A, B): R1 A"),
    ("grandline", "R1 A 6-2-1\n", 5, 6, "got 3"),
    ("grandline", "/x\n", 5, 1, "expected a phase: /preparation, /main"),
    ("grandline", "A: attack Zoro blocked\n", 5, 23, "expected the blocker after 'blocked'"),
    ("grandline", "A: attack Zoro>\n", 5, 11, "expected ATTACKER>TARGET"),
    ("grandline", "A: play Zoro hero\n", 5, 14, "expected one of character, item, event"),
]


@pytest.mark.parametrize("ruleset,body,line,col,words", ERRORS)
def test_parse_errors_name_line_column_and_expectation(tmp_path, ruleset, body, line, col, words):
    path = tmp_path / "game.txt"
    path.write_text(HEADERS[ruleset] + body, encoding="utf-8")
    store = EventStore.open(str(tmp_path / "log.db"))
    with pytest.raises(InputError) as err:
        notation_import.import_file(store, str(path))
    assert err.value.where == f"{path}:{line}:{col}", str(err.value)
    assert words in str(err.value)
    assert store.match_ids() == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_error_late_in_an_example_stores_nothing(tmp_path, ruleset):
    """The whole example, then one bad line: the CLI refuses the file and names the place."""
    (example,) = [p for p in EXPECTED if p.startswith(ruleset + "/")]
    with open(os.path.join(ROOT, "examples", example), encoding="utf-8") as f:
        text = f.read()
    n = len(text.splitlines())
    path = tmp_path / "game.txt"
    path.write_text(text.rstrip("\n") + "\nA: frobnicate\n", encoding="utf-8")
    db = str(tmp_path / "log.db")
    r = run_cli("import", str(path), db=db)
    assert r.returncode == 2
    assert f"{path}:{n + 1}:4: unknown action 'frobnicate'" in r.stderr
    assert json.loads(run_cli("matches", "--json", db=db).stdout) == []


# --- the live recorder -----------------------------------------------------------------------------


def _session(tmp_path, ruleset):
    store = EventStore.open(str(tmp_path / "live.db"))
    m = Match.create(store, ruleset, ["Ann", "Bob"])
    return LiveSession(m, judge="Kim", recorded_by="one")


def test_live_ken_phases_complete_and_question_mark_proposes_the_next_phase(tmp_path):
    s = _session(tmp_path, "ken")
    assert "/order" in s.completions("T1 A: /o") and "/presentation" in s.completions("A: /p")
    assert "endcombat" in s.completions("end")
    deck = '[{"code":"V-TEM","name":"Tempesta","type":"event","morale":["grey"],"duration":"gioca-e-scarta","count":9}]'
    assert "#2 A: deck cards=" in s.handle(f"A: deck cards={deck}").text
    s.handle("A: draw 7")
    reply = s.handle("T1 A: /o 0 · /dr")
    assert "#4 T1 A:" in reply.text and "#5 A: /order 0" in reply.text and "#6 A: /draw" in reply.text
    out = s.handle("?").text
    assert "A: draw" in out
    assert "A: /presentation" not in out  # the Draw phase needs a draw first (KEN-PESCA-1)
    assert "#7 A: draw" in s.handle("A: draw").text
    out = s.handle("?").text
    assert "A: /presentation" in out and "A: /combat" not in out  # phases in order (KEN-SEQ-1)
    assert "A: /order" not in out  # the Order phase is over: the rules would flag it


def test_live_onigashima_turns_fights_and_question_mark(tmp_path):
    s = _session(tmp_path, "onigashima")
    for line in ("camps A vs B", "deal alliance \"Roronoa Zoro\" Sanji", "deal empereurs King Queen",
                 "A: captain Sanji", "B: captain Queen"):
        assert s.handle(line).recorded, line
    out = s.handle("?").text
    assert "T1" in out
    s.handle("T1")
    out = s.handle("?").text
    assert 'fight A "Roronoa Zoro" B King' in out
    assert s.handle('fight A "Roronoa Zoro" B King').recorded
    assert "init A 6 B 1" in s.handle("?").text  # equal initiative (23): a roll decides
    assert s.handle("init A 6 B 1").recorded
    reply = s.handle("A: atk 666111 6:2")
    assert "#10 A: atk 666111 6:2" in reply.text and not reply.findings
    out = s.handle("?").text
    assert "won A" not in out and "won B" not in out and "init" not in out  # nobody is at 0; rolled
    assert "B: dodge 6" in out  # King's haki is a guess of the scan: a dodge is only a warning
    assert "#11 A: card Enma attaque 25 instead" in s.handle("A: card Enma attaque 25 instead").text
    assert "won A" in s.handle("?").text  # King (25 energy) is at 0
    assert "atk" in s.completions("A: at") and "flee" in s.completions("fl")


def test_live_grandline_rounds_phases_and_attacks(tmp_path):
    s = _session(tmp_path, "grandline")
    s.handle("A: setup Luffy 5 deck=44 hand=5")
    s.handle("B: setup Kaido 4 deck=44 hand=5")
    out = s.handle("?").text
    assert "R1 A" in out and "/preparation" not in out  # no phase before the first round
    for line in ("R1 A 6-2", "/p", "A: draw", "B: draw", "/a", "A: play Zoro character 1 6 4", "/c"):
        assert s.handle(line).recorded, line
    out = s.handle("?").text
    assert "A: attack Zoro" in out and "/end" in out
    assert "/combat" in s.completions("/co")


# --- docs ------------------------------------------------------------------------------------------


def _doc() -> str:
    with open(os.path.join(ROOT, "docs", "notation.md"), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_docs_verb_table_names_every_verb(ruleset):
    doc = _doc()
    section = doc.split(f"## `{ruleset}`", 1)[1].split("\n## ", 1)[0]
    grammar = grammar_for(get_ruleset(ruleset)({}))
    words = {v.name for v in grammar.verbs} | set(grammar.custom_verbs)
    for w in words:
        if w == "FROM>TO":
            assert ">" in section
        else:
            assert re.search(rf"`[^`]*{re.escape(w)}[^`]*`", section), w
