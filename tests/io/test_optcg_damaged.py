"""OPTCGSim import of damaged or edited logs (QA79): numbers no int() should see, digits of other
scripts, control characters in typed lines, endings out of order, files cut or zeroed. Each input is
the real esempio.log (or v1, a 1.40a log) changed in one place, made here."""
from __future__ import annotations

import os

import pytest

from engine.match import InputError
from engine.store import EventStore
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.io.importers import optcgsim
from tests.io.test_optcg_input import esempio, refused, write
from tests.rulesets.optcg.support import HERE

VARIANTS = os.path.join(HERE, "fixtures", "optcgsim", "variants")

MOVE = "RZ1|100|2|OP12-023|0|44|0|42|0|0|0|0|0"      # line 202 of esempio.log
CHECK = "RZ1|CHK|100|2|50|0|0|0|10|0|0|0|1|0"        # its check line
BIG = "7" * 5000                                     # past int()'s 4,300 digits


def variant(name: str) -> list[str]:
    with open(os.path.join(VARIANTS, name), encoding="utf-8") as f:
        return f.read().split("\n")


def changed(old: str, field: int, value: str, lines: list[str] | None = None) -> list[str]:
    lines = esempio() if lines is None else lines
    i = lines.index(old)
    parts = lines[i].split("|")
    parts[field] = value
    lines[i] = "|".join(parts)
    return lines


# --- F1: more digits than int() converts --------------------------------------------------------

@pytest.mark.parametrize(("old", "field", "name"), [
    (MOVE, 1, "seq"), (MOVE, 2, "player"), (MOVE, 4, "fromZone"), (MOVE, 5, "fromIndex"),
    (MOVE, 7, "toIndex"), (MOVE, 9, "flag 2"), (MOVE, 12, "flag 5"),
    (CHECK, 2, "seq"), (CHECK, 4, "deck"), ("RZ1|HDR|1.43a|2|RZ1", 3, "format number (field 4)"),
    ("RZ1|PLY|1|LeoIlPirata\u200b#3980|OP14-020", 2, "player"),
])
def test_a_5000_digit_number_in_any_field_is_refused_naming_line_and_field(tmp_path, old, field, name):
    lines = changed(old, field, BIG, None if old.startswith("RZ1|1") else variant("v3_ply_143a_autosaved.log"))
    n = lines.index(next(ln for ln in lines if BIG in ln)) + 1
    error = refused(tmp_path, write(tmp_path, "big.log", lines))
    assert f"big.log:{n}" in error and f"field '{name}'" in error and "5,000 digits" in error


def test_a_negative_number_s_digits_are_counted_without_its_sign(tmp_path):
    """Review: "a number of N digits" counted the leading '-' as a digit (5,001 for 5,000)."""
    error = refused(tmp_path, write(tmp_path, "big.log", changed(MOVE, 5, "-" + BIG)))
    assert "fromIndex is a number of 5,000 digits (at most 18)" in error


def test_a_5000_digit_life_summary_is_a_line_of_text_not_a_crash(tmp_path):
    # 1.40a writes no Life moves: the first `Life: n` summary gives the Life the game started with
    lines = [ln.replace("] Life: 5", "] Life: " + BIG) for ln in variant("v1_hdr_140a_real.log")]
    store = EventStore.open(str(tmp_path / "t.db"))
    assert optcgsim.import_file(store, write(tmp_path, "life.log", lines)).created


def test_a_folder_import_names_the_line_of_a_5000_digit_field(tmp_path, capsys):
    folder = tmp_path / "logs"
    folder.mkdir()
    write(folder, "big.log", changed(MOVE, 5, BIG))
    code = run_guarded(cli, ["--db", str(tmp_path / "t.db"), "import", str(folder)])
    err = capsys.readouterr()
    text = err.out + err.err
    assert code == 2 and "big.log:202" in text and "fromIndex" in text and "importer failed" not in text


# --- F5: digits of other scripts, flags out of range ---------------------------------------------

def test_a_non_ascii_digit_in_a_move_is_refused_not_read_as_another_game(tmp_path):
    error = refused(tmp_path, write(tmp_path, "digit.log", changed(MOVE, 5, "\u0663")))
    assert "digit.log:202" in error and "fromIndex" in error and "not a number" in error


def test_a_flag_with_more_digits_than_the_simulator_writes_is_refused(tmp_path):
    error = refused(tmp_path, write(tmp_path, "flag.log", changed(MOVE, 12, "9" * 12)))
    assert "flag.log:202" in error and "flag 5" in error


# --- F4: one file, games of two simulator versions -----------------------------------------------

def test_a_file_of_a_140a_game_then_a_143a_game_labels_each_game_with_its_own_version(tmp_path):
    lines = variant("v1_hdr_140a_real.log")
    lines = lines[:-1] if lines[-1] == "" else lines
    store = EventStore.open(str(tmp_path / "t.db"))
    s = optcgsim.import_file(store, write(tmp_path, "mixed.log", lines + esempio())).to_dict()
    assert [(g["version"], "Life moves modelled" in g["variant"], "RZ1|CHK checked" in g["variant"])
            for g in s["games"]] == [("1.40a.60", True, False), ("1.43a.1", False, True)]
    assert not any("different versions" in w["text"] for w in s["warnings"])
    assert "game 1: " in s["variant"] and "game 2: " in s["variant"]


# --- F3: control characters in a line of text; F7: files cut after the header, zero-filled --------

@pytest.mark.parametrize("bad", ["Version is 1.43a.1\x1b[31m", "\x00" * 300])
def test_a_text_line_with_control_characters_is_kept_written_out_and_warned(tmp_path, bad):
    lines = esempio()
    at = 2 if bad.startswith("Version") else len(lines) - 1  # a header line; a zero-filled last line
    lines[at] = bad
    store = EventStore.open(str(tmp_path / "t.db"))
    s = optcgsim.import_file(store, write(tmp_path, "ctrl.log", lines + [""])).to_dict()
    assert {"line": at + 1, "text": next(w["text"] for w in s["warnings"] if "control characters" in w["text"])} \
        in s["warnings"]
    if not bad.startswith("Version"):
        texts = [e.payload.get("text", "") for e in store.read(s["games"][0]["match"])]
        assert any("\\u0000" in t for t in texts) and not any("\x00" in t for t in texts)


def test_a_control_character_in_a_move_line_is_still_refused(tmp_path):
    error = refused(tmp_path, write(tmp_path, "esc.log", changed(MOVE, 3, "OP12-023\x1b[2J")))
    assert "esc.log:202" in error and "card" in error


def test_a_file_cut_after_its_opening_lines_names_its_last_line(tmp_path):
    error = refused(tmp_path, write(tmp_path, "cut.log", esempio()[:9] + [""]))
    assert "cut.log:9" in error and "cut short" in error


def test_a_file_of_nul_bytes_is_called_zero_filled_not_truncated(tmp_path):
    path = tmp_path / "nul.log"
    path.write_bytes(b"\x00" * 1000)
    error = refused(tmp_path, str(path))
    assert "only NUL bytes" in error and "truncated" not in error


# --- QA81 M2, L3, L4: what the terminal says of these warnings ------------------------------------

CHAT = "[You] <b><size=24>ggs</size></b>"  # line 1907 of esempio.log


def test_a_folder_import_prints_each_files_warnings(tmp_path, capsys):
    """QA81 M2: `import FILE` printed a file's control-character warning, `import FOLDER` did not
    (only --json held it)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    lines = esempio()
    lines[lines.index(CHAT)] = "[You] <b><size=24>gg\x1b[31ms\x07</size></b>"
    write(folder, "ctl.log", lines)
    write(folder, "v1.log", variant("v1_hdr_140a_real.log"))
    assert run_guarded(cli, ["--db", str(tmp_path / "t.db"), "import", str(folder)]) == 0
    err = capsys.readouterr().err
    assert "warning: ctl.log:1907: control characters in a line of text" in err


def test_a_folder_imports_warnings_are_capped_and_the_rest_left_to_json():
    from judge.cli.importing import bulk_warnings
    rows = [{"file": f"/x/f{i}.log", "games": [], "warnings": [{"line": n, "text": "odd"} for n in range(1, 6)]}
            for i in range(5)]
    shown = bulk_warnings(rows, shown=20)
    assert shown[0] == "warning: f0.log:1: odd" and len(shown) == 21 and shown[-1] == "5 more warnings in --json"
    assert len(bulk_warnings(rows[:1], shown=20)) == 5


def test_a_copy_already_in_the_log_says_once_and_its_warning_says_not_stored(tmp_path, capsys):
    """QA81 L3: a re-import said "already in the log" twice. L4: a copy with an extra chat line is
    the same game (already in the log, nothing stored), yet its control-character warning read as
    if that line were kept."""
    db = str(tmp_path / "t.db")
    lines = esempio()
    first = write(tmp_path, "esempio.log", lines)
    assert run_guarded(cli, ["--db", db, "import", first]) == 0
    capsys.readouterr()
    assert run_guarded(cli, ["--db", db, "import", first]) == 0
    assert capsys.readouterr().out.count("already in the log") == 1  # the outcome line only
    lines.insert(399, "[You] <b>hello\x1bthere</b>")
    assert run_guarded(cli, ["--db", db, "import", write(tmp_path, "mid.log", lines)]) == 0
    out = capsys.readouterr().out
    assert "warning (line 400): control characters" in out
    assert "not stored: that game is already in the log" in out.split("warning (line 400)")[1].splitlines()[0]


def test_a_long_version_is_shown_cut_with_its_length(tmp_path, capsys):
    """QA81 L5: a 5,000-digit `Version is 1.999…` showed as "1.99999999999999999999999999999999999999",
    cut to 40 characters with no mark: it read as a real version."""
    lines = esempio()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("Version is "))
    lines[at] = "Version is 1." + "9" * 4998
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", write(tmp_path, "v.log", lines)]) == 0
    out = capsys.readouterr().out
    assert "1.99999999999999999999999999999999999999… (5,000 characters)" in out


def test_the_one_shortening_helper_marks_a_cut():
    from engine.schema import cut, shown
    assert cut("x" * 5000, 40) == "x" * 40 + "… (5,000 characters)" and cut("short", 40) == "short"
    assert shown("y" * 100, 10) == repr("y" * 10) + "… (100 characters)"


def test_a_cut_error_message_ends_as_a_cut_value_does():
    """Re-read: judge/io/errorshape.py had its own `short`, ending "... (message cut: N characters)"
    where engine.schema.cut ends "… (N characters)": two helpers for one job. `short` is now `cut`."""
    from judge.io.errorshape import LINE_MESSAGE, line_errors, short
    assert short("x" * 3000, 2000) == "x" * 2000 + "… (3,000 characters)" and short("ok", 2000) == "ok"
    [err] = line_errors([ValueError("z" * 600)])
    assert err["message"] == "z" * LINE_MESSAGE + "… (600 characters)"


def test_a_life_summary_is_read_in_ascii_digits_as_every_other_number():
    """Review: the "Life: N" summary check kept `str.isdigit`, so an Arabic "٣" read as 3 and agreed
    with three Life cards (QA79 F5's twin: judge.numbers.whole_number reads every other number)."""
    from judge.io.importers._optcgsim_checks import summary_mismatch

    class Table:  # the one thing the Life check asks of the replayed table
        def zone(self, player, name):
            return ["card"] * 3 if (player, name) == ("Ann", "life") else []

    assert summary_mismatch(Table(), "Ann", "Life", " 3 ") is None
    assert summary_mismatch(Table(), "Ann", "Life", "٣") == {"log": "٣", "replay": 3}
    assert summary_mismatch(Table(), "Ann", "Life", "4") == {"log": 4, "replay": 3}
