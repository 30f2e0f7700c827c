"""op2009's end-of-time facts on a recorded match (QA88): the log knows the game score and whether a
game was in progress when time was called, so `--facts` that read them otherwise are refused
(record, then judge), and left out they are taken from the log; impossible best-of-three positions
are refused with the field and the reason; both players at once (`both`) is a fact; a fact the
decision does not use is said so."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import ROOT, run_cli

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
