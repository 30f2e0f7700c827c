"""OPTCGSim import: what a file must hold to be read, and how it is read (card tokens, encodings,
file types, markup, the card database, error messages). Inputs are the real esempio.log changed in
one place each (the QA pass of issue #17 found these; its files were made the same way)."""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.match import InputError
from engine.store import EventStore
from judge.io.importers import optcgsim
from judge.io.text import decode
from tests.rulesets.optcg.support import ROOT, SIM_LOG


def esempio() -> list[str]:
    with open(SIM_LOG, encoding="utf-8") as f:
        return f.read().split("\n")


def write(tmp_path, name: str, lines: list[str]) -> str:
    path = str(tmp_path / name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(lines))
    return path


def refused(tmp_path, path: str) -> str:
    store = EventStore.open(str(tmp_path / "t.db"))
    with pytest.raises(InputError) as err:
        optcgsim.import_file(store, path)
    assert store.match_ids() == []  # nothing stored
    return str(err.value)


# --- item 1: a card token that is not a card number ---------------------------------------------

@pytest.mark.parametrize("token", ["Unknown", "0", "Card", "?"])
def test_a_move_whose_card_is_not_a_card_number_is_refused_naming_line_and_column(tmp_path, token):
    lines = esempio()
    i = lines.index("RZ1|54|1|OP12-023|0|49|1|0|1|1|0|0|0")
    lines[i] = lines[i].replace("OP12-023", token)
    error = refused(tmp_path, write(tmp_path, "hidden.log", lines))
    assert f"hidden.log:{i + 1}:10" in error and "not a card number" in error and "hidden ones too" in error


def test_a_card_number_the_card_data_does_not_know_is_still_a_card(tmp_path):
    lines = [ln.replace("|OP12-023|", "|XX99-999|").replace('"OP12-023">OP12-023', '"XX99-999">XX99-999')
             for ln in esempio()]
    store = EventStore.open(str(tmp_path / "t.db"))
    s = optcgsim.import_file(store, write(tmp_path, "xx.log", lines))
    assert s.created and s.to_dict()["chk_mismatches"] == 0


# --- item 4: the card database, found where `cards import` puts it ------------------------------

def cli_run(args: list[str], capsys) -> tuple[int, str, str]:
    from judge.cli import cli
    from judge.cli.common import run_guarded

    code = run_guarded(cli, args)
    out = capsys.readouterr()
    return code, out.out, out.err


def registered_facts(db: str) -> dict:
    store = EventStore.open(db)
    [m] = store.match_ids()
    from engine.match import Match
    return {k: v for e in Match(store, m).events() if e.kind == "deck.registered"
            for k, v in (e.payload.get("cards") or {}).items()}


def test_import_finds_cards_db_beside_the_event_log_as_cards_import_puts_it(tmp_path, monkeypatch, capsys):
    from tests.rulesets.optcg.support import CARDS_JSON

    monkeypatch.delenv("TABLEJUDGE_CARDS", raising=False)
    logs, db = tmp_path / "logs", str(tmp_path / "event" / "t.db")
    logs.mkdir()
    (tmp_path / "event").mkdir()
    game = write(logs, "game.log", esempio())
    assert cli_run(["--db", db, "cards", "import", CARDS_JSON], capsys)[0] == 0
    code, out, _ = cli_run(["--db", db, "import", game], capsys)
    assert code == 0 and f"card facts: from {tmp_path / 'event' / 'cards.db'}" in out
    assert registered_facts(db)  # the Leaders' and seen cards' facts were copied in


def test_import_says_when_no_card_facts_were_found_and_takes_cards(tmp_path, monkeypatch, capsys):
    from tests.rulesets.optcg.support import CARDS_JSON

    monkeypatch.delenv("TABLEJUDGE_CARDS", raising=False)
    game, db = write(tmp_path, "game.log", esempio()), str(tmp_path / "t.db")
    code, out, _ = cli_run(["--db", db, "import", game], capsys)
    assert code == 0 and "card facts: none found" in out and "costs and powers not checked" in out
    assert not registered_facts(db)
    cards = str(tmp_path / "elsewhere.db")
    assert cli_run(["--db", db, "cards", "import", CARDS_JSON, "--cards", cards], capsys)[0] == 0
    other = str(tmp_path / "t2.db")
    code, out, _ = cli_run(["--db", other, "import", game, "--cards", cards, "--json"], capsys)
    import json
    assert code == 0 and json.loads(out)["card_facts"] == cards and registered_facts(other)


@pytest.mark.parametrize("command", [["import", "GAME"], ["cards", "show", "OP01-001"], ["deck", "check", "DECK"]])
def test_a_card_list_given_as_cards_is_named_and_how_to_make_the_database_said(tmp_path, monkeypatch, capsys,
                                                                                command):
    from tests.rulesets.optcg.support import CARDS_JSON

    monkeypatch.delenv("TABLEJUDGE_CARDS", raising=False)
    game, db = write(tmp_path, "game.log", esempio()), str(tmp_path / "t.db")
    deck = write(tmp_path, "deck.txt", ["1 OP01-001", "4 OP01-016"])
    args = [{"GAME": game, "DECK": deck}.get(a, a) for a in command]
    code, _, err = cli_run(["--db", db, *args, "--cards", CARDS_JSON], capsys)
    assert code == 2 and f"--cards {CARDS_JSON} is not a card database (SQLite)" in err
    assert f"`tablejudge cards import {CARDS_JSON}` makes one" in err and "file is not a database" not in err
    if command[0] == "import":
        assert EventStore.open(db).match_ids() == []


# --- item 10: UTF-16 files (Notepad, PowerShell) ---------------------------------------------------

@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_log_imports_as_its_utf8_original(tmp_path, codec):
    text = "\n".join(esempio())
    path = tmp_path / f"{codec}.log"
    path.write_bytes(text.encode(codec))
    store = EventStore.open(str(tmp_path / "t.db"))
    original = optcgsim.read_file(SIM_LOG, judge=False)
    s = optcgsim.import_file(store, str(path))
    assert s.created and s.match == original.games[0].match


def test_a_damaged_utf16_file_is_said_to_be_utf16(tmp_path):

    raw = "RZ1|HDR|1.43a.1|2|RZ1\n".encode("utf-16-le") + b"\x00\xdc"  # a lone low surrogate
    with pytest.raises(InputError) as err:
        decode(raw, "x.log")
    assert "UTF-16" in str(err.value) and "save it as UTF-8" in str(err.value)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_characters="\x00\ufeff", blacklist_categories=("Cs",)), max_size=40))
def test_utf8_text_is_never_taken_for_utf16(text):
    """Any UTF-8 text without NUL reads as itself (a 4-7 byte file once read as UTF-16: the review
    of 2026-11-27 found `3 2-1` in a one-line results file read as three CJK characters)."""

    assert decode(text.encode(), "x.csv") == text
    for short in (b"3 2-1\n", b"OP01\n", b"ab", "é,ü\n1,2\n".encode()):
        assert decode(short, "x") == short.decode()


# --- QA79 F8: the encodings and line ends the docs name ------------------------------------------

DOCS = os.path.join(ROOT, "docs", "rulesets", "optcg.md")
SMALL = os.path.join(os.path.dirname(SIM_LOG), "variants", "v6_disconnect_only_143a.log")
READ_AS_IS = {  # what the docs' "encodings and line ends" row says is read, each as the UTF-8 LF original
    "UTF-8, with or without a byte-order mark": lambda t: b"\xef\xbb\xbf" + t.encode(),
    "UTF-16 with a byte-order mark": lambda t: t.encode("utf-16"),
    "(LE or BE": lambda t: b"\xfe\xff" + t.encode("utf-16-be"),
    "line ends LF, CRLF or a lone CR": lambda t: t.replace("\n", "\r").encode(),
    "CRLF": lambda t: t.replace("\n", "\r\n").encode(),
    "mixed too": lambda t: "".join(ln + ("\r\n", "\r", "\n")[k % 3]
                                   for k, ln in enumerate(t.split("\n")[:-1])).encode(),
}


def test_the_encodings_and_line_ends_the_docs_name_are_read_as_the_original(tmp_path):
    """QA79 F8: the OPTCGSim docs did not say which encodings are read; each claim is tried here."""
    with open(DOCS, encoding="utf-8") as f:
        (row,) = [ln for ln in f if ln.startswith("| encodings and line ends |")]
    with open(SMALL, encoding="utf-8") as f:
        text = f.read()
    original = optcgsim.read_file(SMALL, judge=False).games[0].match
    for claim, encode in READ_AS_IS.items():
        assert claim in row
        path = tmp_path / "game.log"
        path.write_bytes(encode(text))
        assert optcgsim.read_file(str(path), judge=False).games[0].match == original, claim


@pytest.mark.parametrize("form", ["LF", "CRLF", "CR", "BOM"])
def test_a_windows_1252_log_is_refused_naming_the_line_column_and_byte(tmp_path, form):
    """QA79 F8: with CR-only line ends the bad byte was said to be on line 1 (column 279), and
    after a byte-order mark the column and the byte named were 3 bytes off (0x65, the `e` before it)."""
    lines = esempio()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("[You] "))
    lines[i] += " perché"
    end = {"LF": "\n", "CRLF": "\r\n", "CR": "\r", "BOM": "\n"}[form]
    raw = end.join(lines).encode().replace("perché".encode(), b"perch\xe9")  # the é as Windows-1252 writes it
    path = tmp_path / "game.log"
    path.write_bytes(b"\xef\xbb\xbf" + raw if form == "BOM" else raw)
    error = refused(tmp_path, str(path))
    assert f"game.log:{i + 1}:{len(lines[i])}: not UTF-8 text (byte 0xe9; save the file as UTF-8)" in error
    with open(DOCS, encoding="utf-8") as f:
        assert "not UTF-8 text (byte 0xe9; save the file as UTF-8)" in f.read()


@pytest.mark.parametrize("end", ["\u2028", "\x0c", "\x1c", "\x1e", "\x85", "\r", "\r\n"])
def test_a_bad_byte_is_placed_on_the_line_the_readers_see(end):
    """Review: the place of a bad byte counted LF and CR alone, but every reader splits with
    str.splitlines(), which also ends a line at U+2028, \\x0c, \\x1c-\\x1e and \\x85: the byte was
    said to be a line before the one the readers (and the person reading the file) see it on."""
    text = f"chat{end}more\nab"
    assert len(text.splitlines()) == 3  # the readers' count: the bad byte is on line 3, after "ab"
    with pytest.raises(InputError) as e:
        decode(text.encode() + b"\xff", "f.txt")
    assert e.value.where == "f.txt:3:3"


# --- item 11: a log saved as .txt or with no extension --------------------------------------------

@pytest.mark.parametrize("name", ["game.txt", "game", "game.jsonl"])
def test_a_log_with_another_name_is_read_as_an_optcgsim_log(tmp_path, capsys, name):
    path = write(tmp_path, name, esempio())
    code, out, err = cli_run(["--db", str(tmp_path / "t.db"), "import", path], capsys)
    assert code == 0, err
    assert "OPTCGSim 1.43a.1" in out


def test_a_folder_reads_txt_and_extensionless_logs_as_optcgsim_with_its_summary(tmp_path, capsys):
    folder = tmp_path / "logs"
    folder.mkdir()
    write(folder, "a.txt", esempio())
    with open(SIM_LOG.replace("esempio.log", "variants/v8_own_view_143a.log"), encoding="utf-8") as f:
        write(folder, "b", f.read().split("\n"))
    (folder / "README").write_text("notes\n")
    code, out, err = cli_run(["--db", str(tmp_path / "t.db"), "import", str(folder)], capsys)
    assert code == 0, err
    table = out.splitlines()
    assert table[0].split()[:3] == ["file", "game", "version"]  # the OPTCGSim table
    assert [row.split()[:3] for row in table[1:3]] == [["a.txt", "1", "1.43a.1"], ["b", "1", "1.43a.1"]]
    assert "passed over 1 file" in err and "README" in err


def test_format_is_case_insensitive(tmp_path, capsys):
    path = write(tmp_path, "game.txt", esempio())
    code, out, err = cli_run(["--db", str(tmp_path / "t.db"), "import", path, "--format", "OPTCGSim"], capsys)
    assert code == 0 and "OPTCGSim 1.43a.1" in out, err


def test_a_file_whose_format_is_unsure_says_what_was_tried(tmp_path, capsys):
    path = write(tmp_path, "notes.txt", ["hello", "world", ""])
    code, out, err = cli_run(["--db", str(tmp_path / "t.db"), "import", path], capsys)
    assert code == 2 and "read as notation by its name" in err and "--format" in err and "optcgsim" in err


# --- item 12: Unity rich-text markup is not text ---------------------------------------------------

@pytest.mark.parametrize("name", ["variants/v2_autosaved_140a_two_games.log", "esempio.log"])
def test_effect_names_and_chat_carry_no_markup(tmp_path, name):
    from engine.match import Match

    path = SIM_LOG.replace("esempio.log", name)
    store = EventStore.open(str(tmp_path / "t.db"))
    s = optcgsim.import_file(store, path)
    texts = [str(e.payload.get(k)) for m in s.extra["matches"] for e in Match(store, m).events()
             for k in ("by", "text") if e.payload.get(k)]
    assert any("Reveal and Draw" in t for t in texts)
    assert name != "esempio.log" or "[You] ggs" in texts  # the players' chat, as they typed it
    assert not [t for t in texts if "<" in t and ">" in t]


def test_every_unity_tag_is_removed_from_an_effect_name():
    from judge.io.importers._optcgsim_lines import plain

    raw = ('<color=#ff0000><b>Reveal</b></color> and <i>Draw</i> <size=24>Kin\'emon</size> '
           '[<mark><link="ST32-001">ST32-001</link></mark>] <link="x">now</link>')
    assert plain(raw) == "Reveal and Draw Kin'emon now"


# --- item 13: error messages that say where and what to do ----------------------------------------

def test_a_cut_file_is_refused_with_what_to_do(tmp_path):
    text = "\n".join(esempio())
    path = tmp_path / "cut.log"
    path.write_text(text[:len(text) // 2], encoding="utf-8")
    error = refused(tmp_path, str(path))
    assert "truncated" in error and "import it when the game is over" in error and "not imported in part" in error


def test_a_file_cut_right_after_a_move_says_the_file_ends_there(tmp_path):
    lines = esempio()
    i = lines.index("RZ1|CHK|349|2|27|8|4|4|1|9|7|0|1|0")
    error = refused(tmp_path, write(tmp_path, "cut.log", lines[:i] + [""]))  # move 349 ends the file
    assert f"cut.log:{i}:" in error and "found the end of the file" in error and "end of the game" not in error


def test_junk_in_place_of_a_check_line_is_named_on_its_own_line(tmp_path):
    lines = esempio()
    i = lines.index("RZ1|CHK|349|2|27|8|4|4|1|9|7|0|1|0")
    lines[i] = "\u00ff\u00ff\x00\x01binary junk"
    error = refused(tmp_path, write(tmp_path, "junk.log", lines))
    assert f"junk.log:{i + 1}:" in error and "move 349's RZ1|CHK line" in error and f"line {i}" in error


def test_an_unknown_header_format_is_not_called_field_format(tmp_path):
    lines = esempio()
    lines.insert(3, "RZ1|HDR|1.50a|3|RZ1")
    error = refused(tmp_path, write(tmp_path, "hdr3.log", lines))
    assert "field 'format'" not in error and "the log's format number (RZ1|HDR field 4) is 3" in error
    assert "hdr3.log:4:15" in error


def test_a_handle_holding_a_pipe_is_read_whole(tmp_path):
    from engine.match import Match

    path = SIM_LOG.replace("esempio.log", "variants/v3_ply_143a_autosaved.log")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = next(k for k, ln in enumerate(lines) if ln.startswith("RZ1|PLY|1|"))
    handle = lines[i].split("|")[3]
    lines = [ln.replace(handle, "Leo|" + handle) for ln in lines]
    store = EventStore.open(str(tmp_path / "t.db"))
    s = optcgsim.import_file(store, write(tmp_path, "pipe.log", lines))
    assert ("Leo|" + handle).replace("\u200b", "") in Match(store, s.match).state().players


# --- item 14: `import --help` ---------------------------------------------------------------------

def test_import_help_fits_80_columns_and_says_when_validate_exits_1(capsys):
    from click.testing import CliRunner

    from judge.cli import cli

    out = CliRunner().invoke(cli, ["import", "--help"], terminal_width=80).output
    assert [ln for ln in out.splitlines() if len(ln) > 80] == []
    assert "exits 1 when an error remains" in " ".join(out.split())
    assert "--cards PATH" in out
