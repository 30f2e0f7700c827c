"""optcg end of time: every policy (bandai, store, regional, asia) names its source and decides as its
source says; the same table can go different ways under different policies."""
from __future__ import annotations

import pytest

from engine.rulesets import get_ruleset
from engine.rulesets.optcg.time import policies

from tests.rulesets.optcg.support import ev, judge, opening, sealed, turn_start


def _turn(player: str, *, draw: bool = True, damage_to: str | None = None) -> list:
    out = turn_start(player, draw=draw, don=2)
    if damage_to:
        out.append(ev("life.taken", {"player": damage_to}))
    return out + [ev("turn.end", {"player": player})]


def game(*, second_call: str | None = None, upto_turn: int = 6) -> list:
    """Time is called in turn 3 (turn 0). Ann takes a damage in turn 4, Bob the last one in turn 5;
    after turn 6 Life (4-4), deck (38-38) and Characters (1-1) are equal."""
    out = opening() + [ev("time.called", {"clock": "14:35"}, "judge:Zoe"), ev("turn.end", {"player": "Ann"})]
    out += _turn("Bob", damage_to="Ann")
    if upto_turn >= 5:
        out += _turn("Ann", damage_to="Bob")
    if second_call == "plain":  # an older log: the end of the minutes as a second call
        out.append(ev("time.called", {"clock": "14:40"}, "judge:Zoe"))
    elif second_call == "mark":
        out.append(ev("time.called", {"clock": "14:40", "extra_minutes_over": True}, "judge:Zoe"))
    if upto_turn >= 6:
        out += _turn("Bob", draw=False)
    return out


def decide(events: list, policy: str | None):
    state, _, rs = judge(events)
    return rs.end_of_time(state, sealed(events), policy=policy)


def test_every_policy_names_and_quotes_its_source():
    names = list(policies())
    assert names == ["bandai", "store", "regional", "asia"]
    for p in policies().values():
        assert p.quote and p.reference and p.en and p.title
        # the source itself, never a path of this repository users cannot open (QA80 8)
        assert "shared/" not in p.reference and ".md" not in p.reference, p.reference
    # QA80 8: Bandai's quote ended "a double loss (one store's published procedure)": a store's fact
    assert "store" not in policies()["bandai"].quote and "store" not in policies()["asia"].quote
    assert "turn 0" in policies()["bandai"].quote and "asia-en.onepiece-cardgame.com" in policies()["asia"].reference


def test_bandai_the_player_who_did_not_take_the_last_life_card_wins():
    d = decide(game(), None)
    assert (d.result, d.winner, d.branch, d.policy) == ("win", "Ann", "last-life", "bandai")
    assert any("Life cards: Ann 4, Bob 4: equal" in s for s in d.steps)
    assert d.quote.startswith("When time is called") and d.source.startswith("Bandai ONE PIECE CARD GAME — Tournament Rules Manual §5.2")


def test_store_reads_the_last_life_card_the_other_way():
    d = decide(game(), "store")
    assert (d.result, d.winner, d.branch) == ("win", "Bob", "took-last-life")
    assert "Rising Sun Game Store" in d.source


@pytest.mark.parametrize("second_call", ["mark", "plain"])
def test_regional_ends_the_extra_turns_when_the_minutes_run_out(second_call):
    early = game(second_call=second_call, upto_turn=4)
    bandai = decide(early, "bandai")
    assert bandai.result == "continue"  # bandai plays turn 6 whatever the clock says
    if second_call == "mark":  # the end of the minutes (in turn 5) is not a call: time was called in turn 3
        assert "during game turn 3 (turn 0 of the procedure)" in bandai.steps[0], bandai.steps
    d = decide(early, "regional")
    assert (d.result, d.winner) == ("win", "Bob")  # Life 4 against 5 when the minutes ran out
    assert any("the extra minutes ran out" in s for s in d.steps)
    waiting = decide(game(upto_turn=5), "regional")
    assert waiting.result == "continue" and "--extra-minutes-over" in waiting.steps[-1]


def test_asia_plays_no_extra_turn_and_rules_a_double_loss():
    events = opening() + [ev("time.called", {"clock": "14:30"}, "judge:Zoe")]
    d = decide(events, "asia")
    assert (d.result, d.winner, d.branch) == ("double-loss", None, "double-loss")
    assert "no extra turns" in d.steps[1]
    assert decide(events, "bandai").result == "continue"


def test_an_unknown_policy_is_refused_with_the_list():
    with pytest.raises(ValueError, match="policies: bandai, store, regional, asia"):
        decide(game(), "mtg")


def test_the_cli_prints_the_quote_and_its_source(tmp_path, capsys):
    from engine.match import Match
    from engine.store import EventStore
    from judge.cli import cli
    from judge.cli.common import run_guarded

    db = str(tmp_path / "t.db")
    store = EventStore.open(db)
    m = Match.create(store, "optcg", ["Ann", "Bob"])
    for kind, actor, payload in game():
        m.record(kind, payload, actor=actor)
    store.close()
    assert run_guarded(cli, ["--db", db, "timelimit", m.id, "--policy", "store", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "decision: win - winner: Bob" in out and "source: the store's event page: Rising Sun Game Store" in out
    assert "«If all are equal: a double loss (one store's published procedure).»" in out
    assert "in short:" in out
    assert get_ruleset("optcg")  # the registry still finds the ruleset after the policy data loaded


@pytest.mark.parametrize("policy", ["bandai", "store", "regional"])
def test_a_call_during_the_set_up_says_game_turns_and_the_set_up_plainly(policy):
    """Bug: time called before turn 1 said "play on until turn 4 ends (now turn 0, setup phase)", the
    procedure's turn count mixed with the game's turn numbers (turn 0 is the procedure's, not the set-up)."""
    d = decide(opening(first_turns=False) + [ev("time.called", {"clock": "14:35"}, "judge:Zoe")], policy)
    said = " ".join(d.steps)
    assert d.result == "continue", d.steps
    assert "while the game was in its set-up: turn 0 of the procedure is game turn 1" in d.steps[0]
    assert "3 extra turns are played after turn 0 (game turn 1): play on until game turn 4 ends" in said
    assert "now the game is in its set-up" in said and "now turn 0" not in said and "setup phase" not in said


def test_a_call_during_a_turn_says_which_extra_turn_the_game_is_in():
    d = decide(game(upto_turn=5), "bandai")
    assert d.result == "continue"
    assert d.steps[-1].startswith("3 extra turns are played after turn 0 (game turn 3): play on until game turn 6 "
                                  "ends; now game turn 5, extra turn 2 of 3"), d.steps


def test_the_decision_and_the_logged_turn_fact_count_the_extra_turns_alike(tmp_path):
    """One count serves both: the decision (are the 3 extra turns over?) and the `turn` fact the log
    gives to check a judge's --facts against, at every point of a log whose `turn` events a judge
    replaced, before the call and after it."""
    from engine.match import Match
    from engine.rulesets.optcg.time import decide_end_of_time, turns_over
    from engine.store import EventStore
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    events = game()
    call = next(i for i, (kind, _, _) in enumerate(events) if kind == "time.called")
    seen = []
    for i, (kind, actor, payload) in enumerate(events):
        m.record(kind, payload, actor=actor)
        if kind == "turn" and payload["player"] == "Bob" and i > call:  # turns 4 and 6, said again
            m.record("correction", {"voids": m.head_position(), "reason": "said again",
                                    "instead": {"kind": "turn", "actor": "-", "payload": dict(payload)}},
                     actor="judge:Zoe")
        if i == call:
            ann3 = max(e.position for e in m.events() if e.kind == "turn")  # turn 3, before the call
            m.record("correction", {"voids": ann3, "reason": "said again",
                                    "instead": {"kind": "turn", "actor": "-", "payload": {"player": "Ann"}}},
                     actor="judge:Zoe")
        if i < call:
            continue
        log = m.events()
        state = m.replayer.decision_basis(log)
        over = turns_over(state, log)
        d = decide_end_of_time(m.ruleset, state, log)
        if over is not None:
            assert (d.result == "continue") == (over < 3), (i, over, d.steps)
            seen.append(over)
    assert seen[0] == 0 and seen[-1] == 3 and set(seen) == {0, 1, 2, 3}
