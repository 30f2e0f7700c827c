"""QA88 LOW-9: `judge appeal --by` (who appealed: a player) read as the global `tablejudge --by`
(who is typing, which `-j/--judge` defaults to). The option is `--appellant` now; `--by` after the
command stays its older spelling and records the same; both helps say which is which."""
from __future__ import annotations

from tests.conftest import run_in_process
from tests.desk.test_stale_decision import decided


def test_appellant_and_the_older_by_record_the_same_and_the_global_by_is_who_types(tmp_path):
    recorded = []
    for spelling in ("--appellant", "--by"):
        (tmp_path / spelling).mkdir()
        m = decided(tmp_path / spelling)  # Ann wins at time, the last event
        decision = m.events()[-1].position
        code, out, err = run_in_process(tmp_path / spelling / "t.db", "--by", "Rossi", "judge", "appeal", m.id,
                                        str(decision), "--decision", "upheld", "--text", "the count was right",
                                        spelling, "Bob")
        assert code == 0, out + err
        e = m.events()[-1]
        recorded.append((e.kind, e.payload.get("by"), e.actor, e.recorded_by))
    assert recorded[0] == recorded[1] == ("judge.appeal", "Bob", "judge:Rossi", "Rossi"), recorded


def test_the_helps_say_which_by_is_which():
    from click.testing import CliRunner

    from judge.cli import cli
    out = CliRunner().invoke(cli, ["judge", "appeal", "--help"]).output
    assert "--appellant, --by PLAYER" in out, out
    flat = " ".join(out.split())
    assert "not the global `tablejudge --by NAME` (who is typing), which --judge defaults to" in flat, out
    assert "--appellant Bob" in flat and "--by Bob" not in flat, out  # the example uses the new name
    out = CliRunner().invoke(cli, ["--help"]).output
    flat = " ".join(out.split())
    assert "`judge appeal --by` after it is that command's own (who appealed, --appellant)" in flat, out
