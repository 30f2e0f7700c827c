"""Card names and English rule words at the command line: notation files and `log` take names, `state`,
`validate`, `audit` show them; `--lang` picks the rule words."""
from __future__ import annotations

import json

from judge.cli import cli
from judge.cli.common import run_guarded

GAME = """[Ruleset "optcg"]
[A "Ann"]
[B "Bob"]
[Deck "A" "OP01-060 4xOP01-078 4xOP01-077 4xZZ99-001 38xOP01-073"]
[Deck "B" "OP01-001 50xOP01-016"]

A: order A
A: draw hancock OP01-077 3x?
B: draw 5
A: mulligan keep
B: mulligan keep
A: life 5
B: life 5
T1 A: refresh · don 1
A: play "Boa Hancock" 4
"""


def _import(tmp_path, capsys, text=GAME):
    db = str(tmp_path / "t.db")
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    code = run_guarded(cli, ["--db", db, "import", str(path), "--json"])
    out = capsys.readouterr()
    return db, code, out


def test_a_notation_file_with_names_and_deck_tags(tmp_path, capsys):
    db, code, out = _import(tmp_path, capsys)
    assert code == 0, out.err
    match = json.loads(out.out)["match"]
    assert run_guarded(cli, ["--db", db, "events", match, "--json"]) == 0
    events = json.loads(capsys.readouterr().out)
    deck = events[1]["payload"]
    assert deck["cards"]["OP01-078"]["name"] == "Boa Hancock" and "ZZ99-001" not in deck["cards"]
    assert events[4]["payload"]["cards"] == ["OP01-078", "OP01-077"]  # "hancock" stored as its number
    assert events[-1]["payload"]["card"] == "OP01-078"
    # the numbers stay in the data; people read names
    assert run_guarded(cli, ["--db", db, "state", match]) == 0
    assert "OP01-078 Boa Hancock" in capsys.readouterr().out
    assert run_guarded(cli, ["--db", db, "state", match, "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert "OP01-078" in view["players"]["Ann"]["zones"]["characters"]["known"]  # data: numbers
    assert view["names"]["OP01-078"] == "Boa Hancock"
    assert run_guarded(cli, ["--db", db, "validate", match]) == 1
    out = capsys.readouterr().out
    assert out.count("unknown card number") == 1 and "ZZ99-001" in out
    # and it exports back to the same short [Deck] tags
    assert run_guarded(cli, ["--db", db, "export", match, "--format", "notation", "-o", str(tmp_path / "o.txt")]) == 0
    assert '[Deck "A" "OP01-060 4xOP01-078 4xOP01-077 4xZZ99-001 38xOP01-073"]' in (tmp_path / "o.txt").read_text()


def test_an_ambiguous_name_in_a_file_names_line_column_and_candidates(tmp_path, capsys):
    db, code, out = _import(tmp_path, capsys, GAME.replace('A: play "Boa Hancock" 4', "A: play luffy"))
    assert code == 2
    assert "game.txt:15:9" in out.err and "'luffy' could be" in out.err


def test_log_takes_a_name_and_lang_picks_the_rule_words(tmp_path, capsys):
    db, code, out = _import(tmp_path, capsys)
    match = json.loads(out.out)["match"]
    assert run_guarded(cli, ["--db", db, "log", match, "play", "--actor", "Ann", "--player", "Ann",
                             "--card", "hanc", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["event"]["payload"]["card"] == "OP01-078"
    assert run_guarded(cli, ["--db", db, "log", match, "play", "--actor", "Ann", "--player", "Ann",
                             "--card", "luffy"]) == 2
    assert "field 'card': 'luffy' could be" in capsys.readouterr().err
    run_guarded(cli, ["--db", db, "validate", match])
    english = capsys.readouterr().out
    run_guarded(cli, ["--db", db, "--lang", "orig", "validate", match])
    orig = capsys.readouterr().out
    run_guarded(cli, ["--db", db, "--lang", "both", "validate", match])
    both = capsys.readouterr().out
    # OPTCG-COST-1's words: English by default, the Chinese rulebook's with --lang orig, both with both
    assert "«" not in english and "cost" in english.lower()
    # the rule's heading in English (its title), the rulebook's Chinese section beside it: not first
    words = [ln.strip() for ln in english.splitlines() if ln.startswith("    ")]
    assert words and all(w[0].isascii() and "(§ " in w for w in words)
    assert "«" in orig and any("\u4e00" <= ch <= "\u9fff" for ch in orig)
    for line in [ln for ln in english.splitlines() if ln.startswith("    ")]:
        assert line in both
    assert both.count("«") == orig.count("«") > 0


def test_audit_names_cards_and_the_lang_variable_is_read(tmp_path, capsys, monkeypatch):
    db, code, out = _import(tmp_path, capsys)
    match = json.loads(out.out)["match"]
    assert run_guarded(cli, ["--db", db, "audit", match, "--at", "14"]) == 0
    text = capsys.readouterr().out
    assert "Ann plays OP01-078 Boa Hancock" in text and "OP01-060 Donquixote Doflamingo" in text
    assert run_guarded(cli, ["--db", db, "audit", match, "--at", "14", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["names"]["OP01-078"] == "Boa Hancock" and data["event"]["kind"] == "play"
    monkeypatch.setenv("TABLEJUDGE_LANG", "orig")
    run_guarded(cli, ["--db", db, "validate", match])
    assert "«" in capsys.readouterr().out


def test_every_name_an_import_narrowed_is_in_its_summary_with_file_and_line(tmp_path, capsys):
    """A card picked for a name is never picked silently: the import says each, in the live recorder's
    words, narrowed as the live recorder narrows it (Ann's Leader OP01-060 is Blue: the one Blue Monet)."""
    game = GAME.replace('A: play "Boa Hancock" 4', "A: play monet 1")
    db, code, out = _import(tmp_path, capsys, game)
    assert code == 0, out.err
    path = str(tmp_path / "game.txt")
    assert json.loads(out.out)["card_notes"] == [
        {"file": path, "line": 8, "note": "hancock \u2192 OP01-078, the only Boa Hancock seen in this match for Ann"},
        {"file": path, "line": 15, "note": "monet \u2192 OP01-082, the only Monet in Ann's deck colours (Blue)"}]
    path2 = tmp_path / "again.txt"
    path2.write_text(game, encoding="utf-8")
    assert run_guarded(cli, ["--db", str(tmp_path / "u.db"), "import", str(path2)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[1:] == [f"{path2}:8: = hancock \u2192 OP01-078, the only Boa Hancock seen in this match for Ann",
                        f"{path2}:15: = monet \u2192 OP01-082, the only Monet in Ann's deck colours (Blue)"]


def test_a_name_the_players_cards_cannot_narrow_is_refused_as_live_and_nothing_stored(tmp_path, capsys):
    db, code, out = _import(tmp_path, capsys, GAME.replace('A: play "Boa Hancock" 4', "A: play diamante 1"))
    assert code == 2
    assert (f"{tmp_path / 'game.txt'}:15:9: 'diamante' could be 3 cards (none in Ann's deck colours (Blue)): "
            "OP04-028 Diamante, OP10-068 Diamante, OP14-066 Diamante; type the card number in its place") in out.err
    assert run_guarded(cli, ["--db", db, "matches", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


# Bob's deck holds the Character Tony Tony.Chopper (ST01-006): a Leader field must not pick it
CHOPPER_GAME = GAME.replace('"OP01-001 50xOP01-016"', '"OP01-001 46xOP01-016 4xST01-006"')
CHOPPER = "chopper \u2192 OP08-001, the only Tony Tony.Chopper that is a Leader"


def _log(db, capsys, *args):
    code = run_guarded(cli, ["--db", db, "log", *args])
    return code, capsys.readouterr()


def test_log_instead_resolves_a_leader_among_leaders_and_says_so(tmp_path, capsys):
    db, code, out = _import(tmp_path, capsys, CHOPPER_GAME)
    match = json.loads(out.out)["match"]
    x = '{"actor":"Bob","payload":{"player":"Bob","leader":"chopper"}}'
    code, out = _log(db, capsys, match, "correction", "--actor", "judge:Zoe", "--voids", "3", "--reason", "leader",
                     "--instead", x)
    assert code == 0, out.err
    assert out.out.startswith(f"= {CHOPPER}\n") and "Leader OP08-001 Tony Tony.Chopper" in out.out
    # the same replacement again is refused (a double submit), so event 3 is voided outright first
    assert _log(db, capsys, match, "correction", "--actor", "judge:Zoe", "--voids", "3", "--reason", "void")[0] == 0
    code, out = _log(db, capsys, match, "correction", "--actor", "judge:Zoe", "--voids", "3", "--reason", "leader",
                     "--instead", x, "--json")
    data = json.loads(out.out)
    assert data["event"]["payload"]["instead"]["payload"]["leader"] == "OP08-001" and data["card_notes"] == [CHOPPER]


def test_log_instead_null_is_refused_naming_instead(tmp_path, capsys):
    db, code, out = _import(tmp_path, capsys)
    match = json.loads(out.out)["match"]
    for given in ("null", "5"):
        code, out = _log(db, capsys, match, "correction", "--actor", "judge:Zoe", "--voids", "5", "--reason", "x",
                         "--instead", given)
        assert code == 2 and "--instead takes a JSON object, got " in out.err and "leave out --instead" in out.err
    assert run_guarded(cli, ["--db", db, "events", match, "--json"]) == 0
    assert all(e["kind"] != "correction" for e in json.loads(capsys.readouterr().out))  # nothing stored


def test_a_files_replacement_names_cards_as_log_instead_does(tmp_path, capsys):
    """A notation file's `void N instead={..}` was stored with the names as typed."""
    line = 'judge Zoe: void 3 "leader" instead={"actor":"Bob","payload":{"player":"Bob","leader":"chopper"}}\n'
    db, code, out = _import(tmp_path, capsys, CHOPPER_GAME + line)
    assert code == 0, out.err
    data = json.loads(out.out)
    assert {"file": str(tmp_path / "game.txt"), "line": 16, "note": CHOPPER} in data["card_notes"]
    assert run_guarded(cli, ["--db", db, "events", data["match"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[-1]["payload"]["instead"]["payload"]["leader"] == "OP08-001"
    line = line.replace("chopper", "hancock")
    db, code, out = _import(tmp_path, capsys, CHOPPER_GAME + line)
    assert code == 2 and "game.txt:16:" in out.err
    assert "payload.instead.payload.leader: 'hancock' could be 2 Leader cards" in out.err


TYPO = "OP99-999 is not in the card data (cards.db or the card snapshot): a typo? see `tablejudge cards find`"


def test_log_of_a_number_the_card_data_lacks_stores_it_and_says_so_at_once(tmp_path, capsys):
    """QA78 LOW-3: `log M play --card OP99-999` was stored with only "the registered deck holds 0";
    judging later cannot tell a typo (the card data is not in the log), so recording says it."""
    db, code, out = _import(tmp_path, capsys)
    match = json.loads(out.out)["match"]
    play = ["--db", db, "log", match, "play", "--actor", "Ann", "--player", "Ann", "--card"]
    assert run_guarded(cli, play + ["OP99-999"]) in (0, 1)
    out = capsys.readouterr()
    assert f"notice: {TYPO}" in out.err and "OP99-999" not in out.err.replace(TYPO, "")
    assert run_guarded(cli, play + ["OP99-999", "--json"]) in (0, 1)
    d = json.loads(capsys.readouterr().out)
    assert d["notices"] == [TYPO] and d["event"]["payload"]["card"] == "OP99-999"
    assert "card data" not in json.dumps(d["event"])  # said, not stored
    assert run_guarded(cli, play + ["OP01-078", "--json"]) in (0, 1)  # a known card: no notice
    assert json.loads(capsys.readouterr().out)["notices"] == []


def test_validate_lists_a_number_the_card_data_lacks_as_a_notice_never_a_finding(tmp_path, capsys):
    """Said at recording only, a typo was lost to later judging: `validate` lists it again from the
    card data (a notice with its event), while findings and replay stay independent of card data."""
    db, code, out = _import(tmp_path, capsys)
    match = json.loads(out.out)["match"]
    play = ["--db", db, "log", match, "play", "--actor", "Ann", "--player", "Ann", "--card"]
    assert run_guarded(cli, play + ["OP99-999", "--json"]) in (0, 1)
    typo = json.loads(capsys.readouterr().out)["event"]["position"]
    assert run_guarded(cli, play + ["OP01-078"]) in (0, 1)  # a known card: no notice
    capsys.readouterr()
    assert run_guarded(cli, ["--db", db, "validate", match]) in (0, 1)
    out = capsys.readouterr()
    assert out.err.count("notice: ") == 1 and f"notice: event {typo}: {TYPO}" in out.err
    assert run_guarded(cli, ["--db", db, "validate", match, "--json"]) in (0, 1)
    said = json.loads(capsys.readouterr().out)
    assert said["notices"] == [{"position": typo, "notice": TYPO}]
    assert TYPO not in json.dumps(said["findings"])  # no finding rests on the card data (the deck's are the deck check's)
    assert run_guarded(cli, ["--db", db, "log", match, "correction", "--actor", "judge:Zoe", "--voids", str(typo),
                             "--reason", "typo"]) in (0, 1)
    capsys.readouterr()
    assert run_guarded(cli, ["--db", db, "validate", match, "--json"]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["notices"] == []  # a voided event no longer counts


def test_log_of_a_malformed_or_partial_number_is_refused_with_the_form_and_cards_find(tmp_path, capsys):
    """QA81 L6: `--card OP99-999x` was stored as the card number OP99-999X (bad input made a fact of
    the game), and `--card OP01-00` said only "no card is called" though `cards find OP01-00` lists
    the numbers that start so. Both are refused, nothing stored, saying the form."""
    db, code, out = _import(tmp_path, capsys)
    match = json.loads(out.out)["match"]
    assert run_guarded(cli, ["--db", db, "events", match, "--json"]) == 0
    before = len(json.loads(capsys.readouterr().out))
    play = ["--db", db, "log", match, "play", "--actor", "Ann", "--player", "Ann", "--card"]
    assert run_guarded(cli, play + ["OP01-00"]) == 2
    err = capsys.readouterr().err
    assert "'OP01-00' is not a card number (a card number is a set, a dash and three digits" in err
    assert "`tablejudge cards find OP01-00` lists the card numbers that start so" in err
    for typed in ("OP99-999x", "OP01-0789"):
        assert run_guarded(cli, play + [typed]) == 2
        assert f"{typed!r} is not a card number" in capsys.readouterr().err
    assert run_guarded(cli, ["--db", db, "events", match, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == before  # nothing stored


def test_an_imported_files_unknown_numbers_are_said_with_their_line_once_per_file(tmp_path, capsys):
    """A notation file's card numbers went through `fill` but its notices were never taken: an import
    of `A: play OP99-999` said nothing of it (a typo stored silently). Each is said with its own line,
    as `log` says it, and a file's notices are that file's alone."""
    typos = GAME + "A: play OP98-999\n"
    typos = typos.replace('A: play "Boa Hancock" 4', "A: play OP99-999 4")
    db, code, out = _import(tmp_path, capsys, typos)
    assert code == 0, out.err
    path = str(tmp_path / "game.txt")
    assert json.loads(out.out)["notices"] == [
        {"file": path, "line": 15, "notice": TYPO},
        {"file": path, "line": 16, "notice": TYPO.replace("OP99-999", "OP98-999")}]
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.txt").write_text(typos, encoding="utf-8")
    (folder / "b.txt").write_text(GAME, encoding="utf-8")
    assert run_guarded(cli, ["--db", str(tmp_path / "u.db"), "import", str(folder), "--format", "notation"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "notice" in line]
    assert err == [f"{folder / 'a.txt'}:15: notice: {TYPO}",
                   f"{folder / 'a.txt'}:16: notice: {TYPO.replace('OP99-999', 'OP98-999')}"]
    assert run_guarded(cli, ["--db", str(tmp_path / "v.db"), "import", str(folder), "--format", "notation",
                             "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["imported"]
    assert [len(r["notices"]) for r in rows] == [2, 0]
