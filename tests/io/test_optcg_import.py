"""OPTCGSim import: the real 1.43a.1 log the importer was built on, and corrupted or truncated copies of it.
(Each variant of the format: test_optcg_variants.py; random damage on every variant: test_optcg_fuzz.py.)"""
from __future__ import annotations

import glob
import json
import os
import re
from collections import Counter

import pytest

from engine.match import InputError, Match
from engine.store import EventStore
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.io.importers import optcgsim
from tests.rulesets.optcg.support import HERE, SIM_LOG

FUZZ = sorted(glob.glob(os.path.join(HERE, "fixtures", "optcgsim", "fuzz", "*.log")))


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("sim") / "t.db")
    store = EventStore.open(db)
    summary = optcgsim.import_file(store, SIM_LOG)
    return store, summary


def test_fixture_moves_and_checks_agree(imported):
    _, s = imported
    d = s.to_dict()
    moves = sum(1 for ln in open(SIM_LOG, encoding="utf-8") if re.match(r"RZ1\|\d+\|", ln))
    checks = sum(1 for ln in open(SIM_LOG, encoding="utf-8") if ln.startswith("RZ1|CHK|"))
    assert d["moves"] == moves and d["chk_checked"] == checks
    assert d["chk_mismatches"] == 0
    assert d["summary_mismatches"] == 0 and d["summaries_checked"] > 0
    assert d["unparsed_lines"] == 0


def test_fixture_state_agrees_with_the_log_summaries(imported):
    """Every Hand/Board/Trash/Life summary of the log, against the stored match replayed to that line."""
    store, s = imported
    m = Match(store, s.match)
    at_line = optcgsim.convert(SIM_LOG).position_at_line
    text = open(SIM_LOG, encoding="utf-8").read().replace("\u200b", "").split("\n")
    summaries = [(n, *mm.groups()) for n, line in enumerate(text, start=1)
                 if (mm := re.match(r"^\[([^\]]+)\] (Hand|Board|Trash|Life): (.*)$", line))]
    assert len(summaries) == 128
    checked = 0
    for n, who, what, val in summaries[-16:] + summaries[:8]:  # the last ones, and the first turns
        state = m.state(at=at_line[n])
        if what == "Life":
            assert len(state.zone(who, "life")) == int(val), (n, who, what)
        else:
            zone = {"Hand": "hand", "Board": "characters", "Trash": "trash"}[what]
            want = Counter(x for x in val.strip("[]").split(",") if x)
            assert Counter(c.code for c in state.zone(who, zone)) == want, (n, who, what)
        checked += 1
    assert checked == 24
    # the end of the game: the last Life summary, less the Life moves (zone 3 ->) after it
    final = m.state()
    numbers = {"LeoIlPirata#3980": "1", "Theshyopop#27381": "2"}
    for n, who, what, val in summaries[-8:]:
        if what == "Life":
            later = sum(1 for line in text[n:] if re.match(rf"RZ1\|\d+\|{numbers[who]}\|[^|]+\|3\|", line))
            assert len(final.zone(who, "life")) == int(val) - later


def test_fixture_outcome_and_findings(imported):
    store, s = imported
    m = Match(store, s.match)
    state = m.state()
    out = m.ruleset.outcome(state)
    assert out.how == "concession" and out.winner == "LeoIlPirata#3980"
    findings = m.validate().active_findings()
    assert s.findings == len(findings)  # judged as it was converted, exactly as validate judges
    # Without a card database each deck is "not judged: no card data" (info), no breach of a deck rule
    # (bug QA78 LOW-4: a warning that quoted the 50-card rule, OPTCG-DECK-2, for every deck).
    assert [(f.rule, f.severity) for f in findings] == [("OPTCG-DATA-2", "info")] * 2
    assert all(f.message.startswith("not judged: no card data") for f in findings)
    assert s.findings == 2


def test_fixture_keeps_every_unrecorded_line_as_an_annotation(imported):
    store, s = imported
    notes = [e.payload for e in Match(store, s.match).events() if e.kind == "annotation"]
    texts = [n["text"] for n in notes]
    assert "Version is 1.43a.1" in texts and any("ggs" in t for t in texts)
    assert all(isinstance(n["line"], int) for n in notes)


def test_a_chk_count_the_replay_disagrees_with_is_a_warning_validate_shows(tmp_path, capsys):
    """QA 50 item 7: one hand count of esempio.log's RZ1|CHK line 1301 altered (7 -> 8). The import
    counts one mismatch, and `validate` shows it as an OPTCG-SIM-1 warning naming the line and zone
    (before, it was only an annotation no finding named)."""
    lines = open(SIM_LOG, encoding="utf-8").read().split("\n")
    assert lines[1300] == "RZ1|CHK|456|1|24|7|2|3|0|10|13|1|1|0"
    lines[1300] = "RZ1|CHK|456|1|24|8|2|3|0|10|13|1|1|0"
    path = tmp_path / "chk_mismatch.log"
    path.write_text("\n".join(lines), encoding="utf-8")
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", str(path), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["chk_mismatches"] == 1 and d["findings"] == 3  # 2 Leaders without facts + the count
    assert run_guarded(cli, ["--db", db, "validate", d["match"], "--json"]) == 0  # a warning: exit 0
    found = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "OPTCG-SIM-1"]
    assert len(found) == d["chk_mismatches"]
    assert found[0]["severity"] == "warning" and "Rz1Parser.cs" in found[0]["source"]
    assert found[0]["message"].startswith("line 1301 (RZ1|CHK): LeoIlPirata#3980's hand holds 8 card(s) by the log, 7")


def test_cli_json_summary(tmp_path, capsys):
    code = run_guarded(cli, ["--db", str(tmp_path / "t.db"), "import", SIM_LOG, "--format", "optcgsim", "--json"])
    assert code == 0
    d = json.loads(capsys.readouterr().out)
    assert {"file", "match", "moves", "chk_checked", "chk_mismatches", "unparsed_lines", "findings"} <= set(d)
    assert d["chk_mismatches"] == 0 and d["moves"] == d["chk_checked"] > 600
    assert d["version"] == "1.43a.1" and d["variant"].startswith("own view ([You]/[Opponent]), plain card markup")
    assert d["variant_details"]["checks"] == "RZ1|CHK" and d["variant_details"]["life_moves"] == "in the log"
    assert [g["game"] for g in d["games"]] == [1] and d["matches"] == [d["match"]]


def test_state_at_shows_zones_don_life_and_power(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", SIM_LOG, "--json"]) == 0
    mid = json.loads(capsys.readouterr().out)["match"]
    assert run_guarded(cli, ["--db", db, "state", mid, "--at", "300"]) == 0
    out = capsys.readouterr().out
    assert "Life" in out and "cost area" in out and "leader" in out and "characters" in out


@pytest.mark.parametrize("path", FUZZ, ids=[os.path.basename(p) for p in FUZZ])
def test_corrupted_files_are_refused_with_the_line_and_store_nothing(tmp_path, path):
    store = EventStore.open(str(tmp_path / "t.db"))
    with pytest.raises(InputError) as err:
        optcgsim.import_file(store, path)
    assert os.path.basename(path) in str(err.value)
    if "no-moves" not in path:
        assert re.search(r"\.log:\d+", str(err.value))
    assert store.match_ids() == []


def test_match_option_is_refused(tmp_path):
    store = EventStore.open(str(tmp_path / "t.db"))
    with pytest.raises(InputError):
        optcgsim.import_file(store, SIM_LOG, match="abc")


def test_too_few_life_names_the_placements_by_event_as_validate_does(tmp_path, monkeypatch):
    """Review: the import judged each event without the events before it, so OPTCG-SETUP-6 (a
    player starting with too few Life) kept the older words ("the life.placed before this event")
    where validate names the placements by event. A Life card laid to the trash instead: 4 Life."""
    from judge.io.carddb import CardDB
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps([{"id": "OP14-020", "name": "Dracule Mihawk", "category": "Leader",
                                  "colors": ["Green"], "cost": 5, "power": 5000, "counter": None, "types": [],
                                  "trigger": None, "effect": ""}]))
    cards_db = str(tmp_path / "cards.db")
    CardDB(cards_db).import_file(str(cards))
    log = tmp_path / "four_life.log"
    text = open(SIM_LOG, encoding="utf-8").read()
    assert "RZ1|171|1|OP17-031|0|40|3|4|" in text  # the 5th Life card of player 1
    log.write_text(text.replace("RZ1|171|1|OP17-031|0|40|3|4|", "RZ1|171|1|OP17-031|0|40|6|0|"), encoding="utf-8")
    conv = optcgsim.convert(str(log), cards_db=cards_db, judge=True)
    said = [f.message for f in conv.findings if f.rule == "OPTCG-SETUP-6"]
    assert len(said) == 1 and "starts with 4 Life; the Leader's Life is 5" in said[0], said
    assert re.search(r"Life placements at events \d+, \d+, \d+ and \d+, not this turn", said[0]), said
    monkeypatch.setenv("TABLEJUDGE_CARDS", cards_db)
    store = EventStore.open(str(tmp_path / "t.db"))
    match = optcgsim.import_file(store, str(log)).to_dict()["matches"][0]
    assert [f.message for f in Match(store, match).validate().active_findings() if f.rule == "OPTCG-SETUP-6"] == said
