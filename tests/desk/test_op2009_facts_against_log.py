"""op2009's end-of-time facts on a recorded match (QA88): the log knows the game score and whether a
game was in progress when time was called, so `--facts` that read them otherwise are refused
(record, then judge), and left out they are taken from the log; impossible best-of-three positions
are refused with the field and the reason; both players at once (`both`) is a fact; a fact the
decision does not use is said so."""
from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from engine.timefacts import FactsError, parse_facts
from tests.conftest import ROOT, run_cli
from tests.desk.test_time_facts import PLAYERS, decide

EXAMPLE = Path(ROOT) / "examples" / "op2009" / "best-of-three-fine-tempo.jsonl"


def game_two_under_way(tmp_path) -> tuple[str, str]:
    """The example's log up to its time call: Ann leads 1-0, game 2 under way (Bob's turn 3)."""
    part = tmp_path / "p68.jsonl"
    part.write_text("".join(EXAMPLE.read_text("utf-8").splitlines(keepends=True)[:68]), "utf-8")
    db = str(tmp_path / "p.db")
    out = run_cli("import", str(part), db=db)
    assert out.returncode == 0, out.stderr
    return db, re.search(r"into match (\S+)", out.stdout).group(1)


def head(db: str, match: str) -> int:
    return len(json.loads(run_cli("events", match, "--json", db=db).stdout))


def test_facts_that_contradict_the_logged_score_are_refused(tmp_path):
    """QA88 #2: games=0-0 in_game=no and games=2-0 were recorded on a log at 1-0 in game 2 (3-1)."""
    db, m = game_two_under_way(tmp_path)
    for facts in ("games=0-0 in_game=no", "games=1-0 in_game=no", "games=0-1 in_game=yes turn_over=no"):
        out = run_cli("timelimit", m, "--facts", facts, "--judge", "Zed", db=db)
        assert out.returncode == 2, (facts, out.stdout)
        assert "the facts contradict the recorded log" in out.stderr and "Traceback" not in out.stderr
        assert head(db, m) == 68, facts  # nothing stored
    out = run_cli("timelimit", m, "--facts", "games=0-0 in_game=no", "--dry-run", db=db)
    assert "games: --facts reads Ann 0, the log has Ann 1" in out.stderr
    assert "in_game: --facts reads no, the log has yes" in out.stderr  # as typed, not False/True
    assert "give what it has (games=1-0 in_game=yes)" in out.stderr


def test_the_logged_score_is_taken_when_left_out_and_reaches_the_result(tmp_path):
    db, m = game_two_under_way(tmp_path)
    out = run_cli("timelimit", m, "--facts", "turn_over=yes won=B sudden=A", "--judge", "Zed", db=db)
    assert out.returncode == 0, out.stderr
    assert "the log has games=1-0 drawn=0 in_game=yes" in out.stdout
    result = json.loads(run_cli("state", m, "--json", db=db).stdout)["result"]
    # 1-0 at the call, Bob's game in the turn played out (1-1), Ann's sudden death: 2-1, not 2-0
    assert (result["winner"], result["score"]) == ("Ann", {"Ann": 2, "Bob": 1})


def test_a_dry_run_of_facts_beside_a_standing_decision_says_the_facts_give_it(tmp_path):
    """QA88 #2: the facts' decision was printed under "the log alone gives (for comparison ...)"."""
    db = str(tmp_path / "x.db")
    assert run_cli("match", "new", "--ruleset", "op2009", "--player", "Ann", "--player", "Bob", "--id", "X",
                   db=db).returncode == 0
    assert run_cli("timelimit", "X", "--facts", "games=1-0 in_game=no", "--judge", "Zed", db=db).returncode == 0
    out = run_cli("timelimit", "X", "--facts", "games=0-0 in_game=no", "--dry-run", db=db)
    assert out.returncode == 0, out.stderr
    assert "the log alone gives" not in out.stdout
    assert "the facts games=0-0 in_game=no give (for comparison; the recorded decision stands):" in out.stdout


def best_of_three_positions() -> set[tuple[int, int, int]]:
    """(Ann's wins, Bob's wins, drawn games) of every best of three still under way, walked game by
    game: it ends at two wins or after three games."""
    seen, todo = set(), [(0, 0, 0)]
    while todo:
        a, b, d = todo.pop()
        if (a, b, d) in seen or max(a, b) >= 2 or a + b + d >= 3:
            continue
        seen.add((a, b, d))
        todo += [(a + 1, b, d), (a, b + 1, d), (a, b, d + 1)]
    return seen


@settings(max_examples=300, deadline=None)
@given(a=st.integers(0, 3), b=st.integers(0, 3), drawn=st.integers(0, 3), in_game=st.booleans(),
       sudden=st.sampled_from(["A", "B", "none"]))
def test_every_accepted_score_is_a_best_of_three_still_under_way(a, b, drawn, in_game, sudden):
    """QA88 #3: games=2-0 (the 1-0 rule, 3-1 recorded), 3-3 and games=1-1 drawn=1 (a fourth game)
    were decided. Accepted facts are a reachable position; the others are refused naming the field."""
    from engine.rulesets.op2009.time import TIME_FACTS
    text = (f"games={a}-{b} drawn={drawn} in_game={'yes' if in_game else 'no'} turn_over=yes won=none "
            f"damage=0-0 turn_of=A sudden={sudden}")
    try:
        decide("op2009", text)
    except FactsError as e:
        assert (a, b, drawn) not in best_of_three_positions() and e.key in ("games", "drawn"), (text, e)
        assert "best of three" in e.message and "al meglio delle tre partite" in e.message
        return
    assert (a, b, drawn) in best_of_three_positions(), text
    # the examples the facts list prints are possible values too (it printed games=3-3 and drawn=3)
    examples = parse_facts(" ".join(f"{f.key}={f.example(PLAYERS)}" for f in TIME_FACTS[:3]), TIME_FACTS, PLAYERS)
    assert max(examples["games"].values()) < 2 and sum(examples["games"].values()) + examples["drawn"] < 3


def test_impossible_scores_are_refused_on_the_command_line(tmp_path):
    db = str(tmp_path / "x.db")
    assert run_cli("match", "new", "--ruleset", "op2009", "--player", "Ann", "--player", "Bob", "--id", "X",
                   db=db).returncode == 0
    cases = {"games=2-0 in_game=no": ("facts.games", "the match is over"),
             "games=3-3 in_game=no": ("facts.games", "so both players cannot have won 2"),
             "games=1-1 drawn=1 in_game=no": ("facts.drawn", "at most 3")}
    for facts, (field, words) in cases.items():
        out = run_cli("timelimit", "X", "--facts", facts, "--judge", "Zed", db=db)
        assert out.returncode == 2 and f"field '{field}'" in out.stderr and words in out.stderr, out.stderr
        assert "OP09-PREP-5" in out.stderr and "Traceback" not in out.stderr
        assert "games=3-3" not in out.stderr.split("reads:")[1] and "drawn=3" not in out.stderr
    assert head(db, "X") == 1  # nothing stored


def test_both_at_once_is_a_fact_a_draw_as_the_docs_say(tmp_path):
    """QA88 #6: won=both (both reach a victory condition in the last turn: a drawn match) and
    sudden=both (both Captains damaged at once in sudden death: a draw) were refused as "not a
    player", so a match nobody recorded could not be given either documented draw."""
    db = str(tmp_path / "x.db")
    for m in ("X", "Y", "Z"):
        assert run_cli("match", "new", "--ruleset", "op2009", "--player", "Ann", "--player", "Bob", "--id", m,
                       db=db).returncode == 0
    cases = {"X": ("games=1-1 in_game=yes turn_over=yes won=both", "parita/condizione-regolamentare", 1),
             "Y": ("games=1-0 in_game=no sudden=both", None, 0),  # 1-0 sideboarding: no sudden death
             "Z": ("games=0-0 in_game=no sudden=both", "parita-tra-partite/contemporaneo", 1)}
    for m, (facts, branch, drawn) in cases.items():
        out = run_cli("timelimit", m, "--facts", facts, "--judge", "Zed", "--json", db=db)
        assert out.returncode == 0 and "not a player" not in out.stderr, out.stderr
        got = json.loads(out.stdout)
        if branch is None:
            continue
        assert (got["decision"], got["winner"], got["branch"], got["rule"]) == ("draw", None, branch, "OP09-VITT-4")
        result = json.loads(run_cli("state", m, "--json", db=db).stdout)["result"]
        assert (result["result"], result["drawn"]) == ("draw", drawn), result
    ahead = run_cli("timelimit", "Y", "--facts", "games=1-0 in_game=yes turn_over=yes won=both", "--dry-run",
                    db=db)  # the drawn game leaves the leader ahead (as a recorded drawn game does)
    assert "vantaggio/vince-chi-e-avanti" in ahead.stdout and "ended in a draw" in ahead.stdout
    helped = run_cli("timelimit", "--help").stdout
    assert "take both" in helped
    listed = run_cli("timelimit", "X", "--facts", "games=x", db=db).stderr
    assert "both: both at once, a drawn game" in listed and "both: both at once, a draw" in listed


def test_a_fact_the_branch_does_not_read_is_said_not_used(tmp_path):
    """QA88 #7: won=A between games was echoed as read and recorded, with no word that nothing read it."""
    db = str(tmp_path / "x.db")
    assert run_cli("match", "new", "--ruleset", "op2009", "--player", "Ann", "--player", "Bob", "--id", "X",
                   db=db).returncode == 0
    out = run_cli("timelimit", "X", "--facts", "games=1-0 in_game=no won=A", "--judge", "Zed", db=db)
    assert out.returncode == 0, out.stderr
    assert "Not used: won=Ann: the branch taken (sideboard-1-0) does not read it" in out.stdout
    out = run_cli("timelimit", "X", "--facts", "games=0-0 in_game=yes turn_over=yes won=A damage=1-1 turn_of=B",
                  "--dry-run", db=db)
    assert "Not used: damage=1-1 turn_of=Bob" in out.stdout
    used = run_cli("timelimit", "X", "--facts", "games=0-0 in_game=yes turn_over=yes won=none damage=1-1 "
                   "turn_of=A sudden=B", "--dry-run", db=db)
    assert used.returncode == 0 and "Not used" not in used.stdout  # each read on the way to sudden death
