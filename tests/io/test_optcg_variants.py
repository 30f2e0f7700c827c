"""OPTCGSim import: one test (or more) per variant of the log format, on the real and rebuilt logs of
tests/fixtures/optcgsim/variants (SOURCES.md there says where each comes from).

Every import goes into a real SQLite log; each test checks what the variant changes: games split,
versions said, counts checked against the log's own check lines or summaries, results read."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter

import pytest

from engine.match import InputError, Match
from engine.store import EventStore
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.io.importers import optcgsim
from tests.rulesets.optcg.support import HERE, SIM_LOG

VARIANTS = os.path.join(HERE, "fixtures", "optcgsim", "variants")
ZW = "\u200b"


def fixture(name: str) -> str:
    return os.path.join(VARIANTS, name)


def lines_of(name: str) -> list[str]:
    return open(fixture(name), encoding="utf-8").read().split("\n")


def write(tmp_path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_bytes("\n".join(lines).encode("utf-8"))
    return str(path)


def store_for(tmp_path, name: str = "t.db") -> EventStore:
    return EventStore.open(str(tmp_path / name))


def imported(tmp_path, path: str):
    store = store_for(tmp_path, f"{os.path.basename(path)}.db")
    return store, optcgsim.import_file(store, path).to_dict()


def refused(tmp_path, path: str) -> str:
    """Importing `path` is refused and stores nothing: the message."""
    store = store_for(tmp_path)
    with pytest.raises(InputError) as err:
        optcgsim.import_file(store, path)
    assert store.match_ids() == []
    return str(err.value)


def summaries_in(lines: list[str], first: int = 1, last: int | None = None) -> list[tuple[int, str, str, str]]:
    """(line, who, what, value) of every Hand/Board/Trash/Life summary between two lines."""
    out = []
    for n, line in enumerate(lines, start=1):
        if n < first or (last is not None and n > last):
            continue
        m = re.match(r"^\[([^\]]+)\] (Hand|Board|Trash|Life): (.*)$", line.replace(ZW, ""))
        if m:
            out.append((n, *m.groups()))
    return out


def assert_judged_like_validate(store: EventStore, summary: dict) -> None:
    """The findings the import counted are the ones `validate` finds on the stored match."""
    for g in summary["games"]:
        if g["stored"]:
            assert len(Match(store, g["match"]).validate().active_findings()) == g["findings"]


# --- the fixtures themselves ------------------------------------------------------------------


def test_rebuilt_fixtures_are_what_their_sources_say(tmp_path):
    """variants/build.py rebuilds every derived fixture, byte for byte, from the two real logs."""
    subprocess.run([sys.executable, os.path.join(VARIANTS, "build.py"), str(tmp_path)], check=True)
    built = sorted(os.listdir(tmp_path))
    assert len(built) == 10
    for name in built:
        with open(tmp_path / name, "rb") as a, open(fixture(name), "rb") as b:
            assert a.read() == b.read(), name


IMPORTABLE = sorted(n for n in os.listdir(VARIANTS) if n.endswith(".log") and not n.startswith(("v7b", "v8b")))


@pytest.mark.parametrize("name", IMPORTABLE)
def test_every_variant_replays_in_step_with_its_own_checks(tmp_path, name):
    """Each game of each variant, against what the log itself says: its RZ1|CHK lines where it has
    them, its summaries always; and the findings the import counted are validate's."""
    store, d = imported(tmp_path, fixture(name))
    for g in d["games"]:
        assert g["chk_mismatches"] == 0 and g["summary_mismatches"] == 0, (name, g["game"])
        assert g["summaries_checked"] > 0
        assert g["chk_checked"] == g["moves"] or d["variant_details"]["checks"] == "summaries"
    assert_judged_like_validate(store, d)


# --- V1 and V4: a real 1.40a log: RZ1|HDR, no RZ1|CHK, no Life moves -----------------------------


def test_v1_hdr_140a_real_log_imports_and_agrees_with_every_summary(tmp_path):
    store, d = imported(tmp_path, fixture("v1_hdr_140a_real.log"))
    lines = lines_of("v1_hdr_140a_real.log")
    assert d["version"] == "1.40a.60"
    details = d["variant_details"]
    assert details["header"] == "1.40a, format 1" and details["checks"] == "summaries"
    assert details["life_moves"] == "modelled" and details["view"] == "named" and details["markup"] == "rich"
    assert "no RZ1|CHK" in d["variant"] and d["warnings"] == []
    assert d["moves"] == sum(1 for ln in lines if re.match(r"RZ1\|\d+\|", ln)) == 176
    assert d["chk_checked"] == 0
    # every summary printed once the game is under way (the first is after the first turn)
    assert d["summaries_checked"] == len(summaries_in(lines)) == 88
    assert d["summary_mismatches"] == 0 and d["unparsed_lines"] == 0
    (game,) = d["games"]
    m = Match(store, game["match"])
    out = m.ruleset.outcome(m.state())
    assert (out.how, out.winner) == ("concession", "Alice#0001")
    assert_judged_like_validate(store, d)


def test_v4_life_is_modelled_from_the_damage_lines(tmp_path):
    """1.40a writes no Life moves: 5 Life cards each before the first turn, one to the hand per
    `hit for 1 damage`; the replay then agrees with every `Life: n` summary (checked above) and
    ends where the last summaries say."""
    store, d = imported(tmp_path, fixture("v1_hdr_140a_real.log"))
    m = Match(store, d["match"])
    events = m.events()
    placed = [e.payload for e in events if e.kind == "life.placed"]
    assert placed == [{"player": "Bob#0002", "count": 5}, {"player": "Alice#0001", "count": 5}]
    lines = lines_of("v1_hdr_140a_real.log")
    hits = [ln for ln in lines if re.fullmatch(r".+ hit for 1 damage", ln)]
    taken = [e for e in events if e.kind == "life.taken"]
    assert len(taken) == len(hits) == 8
    final = m.state()
    last = {who: int(v) for _, who, what, v in summaries_in(lines) if what == "Life"}
    assert {p: len(final.zone(p, "life")) for p in final.players} == last == {"Alice#0001": 2, "Bob#0002": 0}


def test_v4_only_findings_left_are_unknown_leaders_and_plays_from_a_hand_holding_unknown_cards(tmp_path):
    """No false finding from the missing frames: what remains is the two Leaders unknown without a
    card database, and plays from a hand that holds a Life card the log never named (the ruleset
    flags a play it cannot match to a named card; a hidden-hand fix in the ruleset clears these)."""
    store, d = imported(tmp_path, fixture("v1_hdr_140a_real.log"))
    m = Match(store, d["match"])
    events = {e.position: e for e in m.events()}
    for f in m.validate().active_findings():
        if f.rule == "OPTCG-DATA-2":  # no card data: the decks are not judged
            continue
        assert f.rule == "OPTCG-PLAY-1", f
        before = m.state(at=f.position - 1)
        e = events[f.position]
        assert any(c.code is None for c in before.zone(e.payload["player"], "hand")), f


# --- V2: AutoSaved files holding several games -------------------------------------------------


@pytest.mark.parametrize("name", ["v2_autosaved_140a_two_games.log", "v2b_rematch_without_hdr_140a.log"])
def test_v2_each_game_of_an_autosaved_file_is_its_own_match(tmp_path, name):
    store, d = imported(tmp_path, fixture(name))
    assert d["variant_details"]["games"] == 2 and "2 games" in d["variant"]
    assert len(d["games"]) == 2 and len(set(d["matches"])) == 2 and sorted(store.match_ids()) == sorted(d["matches"])
    winners = []
    for g in d["games"]:
        m = Match(store, g["match"])
        out = m.ruleset.outcome(m.state())
        winners.append((out.winner, out.how))
        assert g["summary_mismatches"] == 0 and g["summaries_checked"] > 0
        assert store.verify(g["match"]).ok
    assert winners == [("Alice#0001", "concession"), ("Bob#0002", "concession")]
    assert d["games"][1]["moves"] == 39
    assert_judged_like_validate(store, d)


def test_v2_the_clearing_move_after_a_game_belongs_to_no_game(tmp_path):
    """After game 1's result: RZ1|HDR, one DON!! returning to the cost area (the simulator's reset),
    `Opponent is Ready for Rematch`. Neither game replays the move."""
    store, d = imported(tmp_path, fixture("v2_autosaved_140a_two_games.log"))
    lines = lines_of("v2_autosaved_140a_two_games.log")
    clearing = lines.index("RZ1|1|2|Don|9|0|5|0|1|1|1|0|0") + 1
    g1, g2 = d["games"]
    assert g1["lines_not_replayed"] == 2 and g1["lines"][1] < lines.index("Version is 1.40a.60", 10) + 1
    assert g2["lines"][0] > clearing
    for g in (g1, g2):
        for e in Match(store, g["match"]).events():
            assert e.payload.get("line") != clearing
    # game 1 has the same moves as the real one-game file: the same game, the same match
    _, real = imported(tmp_path, fixture("v1_hdr_140a_real.log"))
    assert real["match"] == g1["match"]


def test_v2c_143a_rematch_with_checks_each_game_checked(tmp_path):
    store, d = imported(tmp_path, fixture("v2c_autosaved_143a_two_games.log"))
    assert [(g["moves"], g["chk_checked"], g["chk_mismatches"]) for g in d["games"]] == [(204, 204, 0)] * 2
    assert d["games"][0]["lines_not_replayed"] == 3  # HDR, PLY, PLY after game 1's result
    outs = [Match(store, g["match"]).ruleset.outcome(Match(store, g["match"]).state()) for g in d["games"]]
    assert [(o.winner, o.how) for o in outs] == [("LeoIlPirata#3980", "concession"),
                                                 ("Theshyopop#27381", "concession")]


@pytest.mark.parametrize("name", ["v2c_autosaved_143a_two_games.log", "../esempio.log"])
def test_every_draw_an_effect_line_announces_is_credited_to_it(name):
    """v2c lines 475-480: `You Can Be My Samurai!!! [OP01-055]: Draw 2 Card`, then two draws, each after
    its own `Drew card` line: the second, five lines on, was credited to no effect."""
    draws = [d.payload.get("by") for d in optcgsim.convert(fixture(name)).drafts if d.kind == "draw"]
    assert "an effect (not named in the log)" not in draws
    assert draws.count("OP01-055: Draw 2 Card") % 2 == 0 and draws.count("OP01-055: Draw 2 Card") >= 2


def test_a_rematch_accepted_but_never_played_is_not_a_game(tmp_path):
    lines = lines_of("v2_autosaved_140a_two_games.log")
    cut = lines.index("[Alice\u200b#0001] Drew card from deck: Come on!! We'll fight you!! "
                      "[<mark><link=\"OP09-020\">OP09-020</link></mark>]", 490)
    path = write(tmp_path, "pending.log", lines[:cut] + [""])
    store, d = imported(tmp_path, path)
    assert len(d["games"]) == 1 and d["not_played"] and d["not_played"][0]["lines"][0] > 490


# --- V3: RZ1|PLY lines ------------------------------------------------------------------------


def test_v3_player_lines_bind_names_and_leaders(tmp_path):
    store, d = imported(tmp_path, fixture("v3_ply_143a_autosaved.log"))
    assert d["variant_details"]["player_lines"] and d["variant_details"]["header"] == "1.43a, format 2"
    m = Match(store, d["match"])
    assert m.created.payload["players"] == ["LeoIlPirata#3980", "Theshyopop#27381"]
    reg = {e.payload["player"]: e.payload["leader"] for e in m.events() if e.kind == "deck.registered"}
    assert reg == {"LeoIlPirata#3980": "OP14-020", "Theshyopop#27381": "OP14-020"}
    assert d["chk_mismatches"] == 0 and d["chk_checked"] == 204 and d["warnings"] == []


def test_v3_a_stale_player_line_is_overruled_by_the_log_and_said(tmp_path):
    lines = [ln.replace("RZ1|PLY|2|Theshyopop\u200b#27381|OP14-020", "RZ1|PLY|2|Somebody\u200b#1|OP01-001")
             for ln in lines_of("v3_ply_143a_autosaved.log")]
    store, d = imported(tmp_path, write(tmp_path, "stale.log", lines))
    texts = [w["text"] for w in d["warnings"]]
    assert any("'Somebody#1'" in t and "the draws are followed" in t for t in texts)
    assert any("OP01-001" in t and "`Leader is` line is followed" in t for t in texts)
    assert Match(store, d["match"]).created.payload["players"] == ["LeoIlPirata#3980", "Theshyopop#27381"]
    assert d["chk_mismatches"] == 0


# --- V5: rich markup --------------------------------------------------------------------------


def _events(path: str) -> list[tuple[str, str, dict]]:
    conv = optcgsim.convert(path)
    return [(d.kind, d.actor, {k: v for k, v in d.payload.items() if k != "source"}) for d in conv.drafts]


def test_v5_rich_markup_imports_exactly_like_the_downloaded_form():
    """AutoSaved card references (`[<mark><link="ID">ID</link></mark>]`) read like downloaded ones
    (`["ID">ID]`): the same events, effects that rest a card included."""
    rich, plain = _events(fixture("v5_rich_markup_143a.log")), _events(fixture("v8_own_view_143a.log"))
    assert rich == plain
    assert sum(1 for k, _, _ in rich if k == "rest") == 3


def test_v5_crlf_line_ends_and_the_mojibake_zero_width_space_read_alike(tmp_path):
    lines = lines_of("v3_ply_143a_autosaved.log")
    crlf = tmp_path / "crlf.log"
    crlf.write_bytes("\r\n".join(lines).encode("utf-8"))
    mojibake = write(tmp_path, "moji.log", [ln.replace(ZW, "\u00e2\u20ac\u2039") for ln in lines])
    base = _events(fixture("v3_ply_143a_autosaved.log"))
    assert _events(str(crlf)) == base == _events(mojibake)


# --- V6: concessions, quits, disconnections ------------------------------------------------------


def test_v6_a_quit_alone_is_not_a_concession(tmp_path):
    store, d = imported(tmp_path, fixture("v6_quit_then_disconnect_143a.log"))
    m = Match(store, d["match"])
    assert not any(e.kind in ("concede", "game.end") for e in m.events())
    assert m.state().result is None
    (g,) = d["games"]
    assert g["result"] == {"how": "quit", "certain": False, "left": "Theshyopop#27381",
                           "uncertain_winner": "LeoIlPirata#3980"}
    (left,) = [e for e in m.events() if e.kind == "player.left"]
    assert left.payload == {"how": "quit", "player": "Theshyopop#27381", "line": 497, "text": "[Opponent] Quits!"}
    # the disconnection after it is noise, kept as a line
    assert any(e.payload.get("text") == "Opponent Has Disconnected!" for e in m.events())


def test_v6_state_and_the_report_say_what_the_log_shows_on_a_quit(tmp_path, capsys):
    """QA 50 item 8: the report's header said "the log does not show how the match ended" and
    `state` said nothing, while the log shows a player leaving (an uncertain loss)."""
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", fixture("v6_quit_then_disconnect_143a.log"), "--json"]) == 0
    match = json.loads(capsys.readouterr().out)["match"]
    said = ("Theshyopop#27381 left the game (quit, the log's line 497) with no result before it: an uncertain "
            "loss, as the simulator recorded it (event 95)")
    assert run_guarded(cli, ["--db", db, "state", match]) == 0
    assert f"no result: {said}" in capsys.readouterr().out
    out = tmp_path / "r.html"
    assert run_guarded(cli, ["--db", db, "report", match, "-o", str(out)]) == 0
    how = re.search(r'id="how">(.*?)</dd>', out.read_text(encoding="utf-8"), re.S).group(1)
    assert " ".join(how.split()) == said.replace("'", "&#39;")


def test_v6_a_disconnection_alone_is_said_not_decided(tmp_path):
    store, d = imported(tmp_path, fixture("v6_disconnect_only_143a.log"))
    (g,) = d["games"]
    assert g["result"]["how"] == "disconnect" and not g["result"]["certain"]
    assert g["result"]["left"] == "Theshyopop#27381"  # the log's owner is "You", player 1
    m = Match(store, d["match"])
    assert m.state().result is None
    assert [e.payload["how"] for e in m.events() if e.kind == "player.left"] == ["disconnect"]


def test_v6_a_concession_stands_and_what_follows_it_is_kept_as_lines(tmp_path):
    store, d = imported(tmp_path, SIM_LOG)
    m = Match(store, d["match"])
    concede = [e for e in m.events() if e.kind == "concede"]
    assert len(concede) == 1 and concede[0].payload == {"player": "Theshyopop#27381"}
    meta = [e.payload["text"] for e in m.events() if e.kind == "annotation" and e.payload["source"] == "optcgsim-meta"]
    assert "[Opponent] Quits!" in meta and "Opponent Has Disconnected!" in meta
    # a quit after a concession is a player leaving the end screen: no word of it (QA79 F6's warning is
    # for a result after an uncertain end only)
    assert not any("already ended" in w["text"] for w in d.get("warnings", []))


@pytest.mark.parametrize("name,first,said", [
    ("v6_quit_then_disconnect_143a.log", 497, "a quit"),
    ("v6_disconnect_only_143a.log", 497, "a disconnection"),
])
def test_v6_a_concession_after_a_quit_or_disconnection_is_warned_of_not_applied(tmp_path, capsys, name, first,
                                                                                 said):
    """QA79 F6: a `Concedes!` after the game had ended by a quit or a disconnection was dropped with
    no word. The first ending line still decides; the summary names the later line."""
    lines = lines_of(name)
    path = write(tmp_path, "late.log", lines[:first] + ["[Opponent] Concedes!"] + lines[first:])
    text = (f"Theshyopop#27381 concedes after the game had already ended by {said} at line {first}; "
            "the first ending stands — a judge may correct it")
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", path]) == 0
    assert f"warning (line {first + 1}): {text}" in capsys.readouterr().out
    assert run_guarded(cli, ["--db", str(tmp_path / "j.db"), "import", path, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert {"line": first + 1, "text": text, "game": 1} in d["warnings"]
    (g,) = d["games"]
    assert not g["result"]["certain"] and g["result"]["how"] in ("quit", "disconnect")
    assert not any(e.kind == "concede" for e in Match(EventStore.open(db), d["match"]).events())


@pytest.mark.parametrize("line,how,winner", [
    ("[Theshyopop\u200b#27381] Wins!", "other", "Theshyopop#27381"),
    ("[LeoIlPirata\u200b#3980] Out of Cards, Loses", "deck-out", "Theshyopop#27381"),
])
def test_v6_wins_and_loses_lines_end_the_game(tmp_path, line, how, winner):
    lines = lines_of("v3_ply_143a_autosaved.log")
    end = next(i for i, ln in enumerate(lines) if ln.endswith("] Concedes!"))
    store, d = imported(tmp_path, write(tmp_path, "end.log", lines[:end] + [line, ""]))
    ends = [e.payload for e in Match(store, d["match"]).events() if e.kind == "game.end"]
    assert ends == [{"how": how, "winner": winner}]


# --- V7: truncated files ----------------------------------------------------------------------


def test_v7_a_whole_game_without_its_result_line_imports_with_no_result(tmp_path):
    store, d = imported(tmp_path, fixture("v7_truncated_no_result_140a.log"))
    m = Match(store, d["match"])
    assert m.state().result is None and not any(e.kind in ("concede", "game.end") for e in m.events())
    assert d["games"][0]["result"] == {"winner": None, "how": None, "certain": False}
    assert d["summary_mismatches"] == 0
    # the last attack (on a Leader with no Life left) is there, undecided
    assert [e.kind for e in m.events()][-1] == "effect"
    assert any(e.kind == "attack" and e.payload["attacker"] == "EB04-004" for e in m.events())


def test_v7b_a_file_cut_mid_line_is_refused_naming_the_line(tmp_path):
    error = refused(tmp_path, fixture("v7b_truncated_mid_line_143a.log"))
    assert "v7b_truncated_mid_line_143a.log:487" in error and "truncated" in error


def test_v7_a_short_check_line_mid_file_is_corruption(tmp_path):
    lines = lines_of("v8_own_view_143a.log")
    i = next(k for k, ln in enumerate(lines) if ln.startswith("RZ1|CHK|100|"))
    lines[i] = "|".join(lines[i].split("|")[:9])
    error = refused(tmp_path, write(tmp_path, "short.log", lines))
    assert f"short.log:{i + 1}" in error and "check line" in error


# --- V8: a player's own view; a Player.log -------------------------------------------------------


def test_v8_own_view_imports_every_card_with_its_id(tmp_path):
    store, d = imported(tmp_path, fixture("v8_own_view_143a.log"))
    assert d["variant_details"]["view"] == "own view"
    m = Match(store, d["match"])
    lines = lines_of("v8_own_view_143a.log")
    # the opponent's draws carry f8=0 (not visible to the log's owner), and still their card ids
    hidden = [ln.split("|")[3] for ln in lines if re.match(r"RZ1\|\d+\|2\|[^|]+\|0\|\d+\|1\|\d+\|0\|", ln)]
    drawn = Counter(c for e in m.events() if e.kind == "draw" and e.payload["player"] == "Theshyopop#27381"
                    for c in e.payload["cards"])
    assert hidden and Counter(hidden) <= drawn
    assert d["chk_mismatches"] == 0


def test_v8b_a_player_log_is_refused_as_what_it_is(tmp_path):
    error = refused(tmp_path, fixture("v8b_player_log_solo_140a_real.log"))
    assert "Player.log" in error and "v8b_player_log_solo_140a_real.log:10" in error


# --- versions and unknown lines -----------------------------------------------------------------


def test_an_unknown_version_is_imported_with_a_warning_naming_it_and_its_line(tmp_path):
    lines = [ln.replace("Version is 1.43a.1", "Version is 1.51c.7") for ln in lines_of("v8_own_view_143a.log")]
    first = lines.index("Version is 1.51c.7") + 1
    store, d = imported(tmp_path, write(tmp_path, "new.log", lines))
    assert d["version"] == "1.51c.7"
    (w,) = d["warnings"]
    assert w["line"] == first and "1.51c.7" in w["text"] and "imported" in w["text"]
    assert d["chk_mismatches"] == 0 and store.match_ids() == [d["match"]]


def test_an_unknown_header_format_is_refused_naming_it_and_its_line(tmp_path):
    lines = [ln.replace("RZ1|HDR|1.43a|2|RZ1", "RZ1|HDR|1.47a|3|RZ1") for ln in lines_of("v3_ply_143a_autosaved.log")]
    error = refused(tmp_path, write(tmp_path, "fmt3.log", lines))
    assert "fmt3.log:10" in error and "format number (RZ1|HDR field 4) is 3" in error and "1.47a" in error


def test_a_log_that_never_states_its_version_is_imported_with_a_warning(tmp_path):
    lines = [ln for ln in lines_of("v8_own_view_143a.log") if not ln.startswith("Version is")]
    _, d = imported(tmp_path, write(tmp_path, "nover.log", lines))
    assert d["version"] == "unknown" and "does not state its simulator version" in d["warnings"][0]["text"]


def test_a_line_of_an_unknown_kind_is_kept_and_counted(tmp_path):
    lines = lines_of("v8_own_view_143a.log")
    i = next(k for k, ln in enumerate(lines) if ln.startswith("RZ1|CHK|50|"))
    lines[i + 1:i + 1] = ["RZ1|ZZZ|something|new", "[You] Summons a Sea King"]
    store, d = imported(tmp_path, write(tmp_path, "unknown.log", lines))
    assert d["unknown_kind_lines"] == 1 and d["unparsed_lines"] == 1 and d["chk_mismatches"] == 0
    notes = {e.payload["text"]: e.payload for e in Match(store, d["match"]).events() if e.kind == "annotation"}
    assert notes["RZ1|ZZZ|something|new"]["source"] == "optcgsim-unknown"
    assert notes["RZ1|ZZZ|something|new"]["line"] == i + 2
    assert "[You] Summons a Sea King" in notes


# --- the same game twice ------------------------------------------------------------------------


def test_a_game_already_in_the_log_is_recognised_not_stored_twice(tmp_path):
    store = store_for(tmp_path)
    first = optcgsim.import_file(store, fixture("v3_ply_143a_autosaved.log")).to_dict()
    again = optcgsim.import_file(store, fixture("v2c_autosaved_143a_two_games.log")).to_dict()
    assert again["already_imported"] == [first["match"]]
    assert [g["stored"] for g in again["games"]] == [False, True]
    assert again["events"] == again["games"][1]["events"]
    # the same game downloaded ([You]/[Opponent], plain references) is the same game too
    third = optcgsim.import_file(store, fixture("v8_own_view_143a.log")).to_dict()
    assert not third["created"] and third["events"] == 0 and third["match"] == first["match"]
    assert sorted(store.match_ids()) == sorted({first["match"], again["games"][1]["match"]})


def test_cli_says_version_variant_and_games(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", fixture("v2_autosaved_140a_two_games.log")]) == 0
    out = capsys.readouterr().out
    assert "OPTCGSim 1.40a.60 (named players (AutoSaved), rich card markup, RZ1|HDR 1.40a, format 1" in out
    assert "Alice#0001 wins (concession)" in out and "Bob#0002 wins (concession)" in out
    assert run_guarded(cli, ["--db", db, "import", fixture("v2_autosaved_140a_two_games.log"), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["version"] == "1.40a.60" and d["variant_details"]["games"] == 2
    assert not d["created"] and len(d["already_imported"]) == 2


def test_moves_only_after_a_result_are_no_game(tmp_path):
    path = write(tmp_path, "late.log", ["Version is 1.43a.1", '[A] Leader is X ["OP01-001">OP01-001]',
                                        '[B] Leader is Y ["OP01-002">OP01-002]', "[A] Concedes!",
                                        "RZ1|1|1|OP01-003|0|49|1|0|1|1|0|0|0", ""])
    error = refused(tmp_path, path)
    assert "late.log" in error and "no game in the file has a move" in error


def test_a_file_holding_the_same_game_twice_stores_it_once(tmp_path):
    """A damaged AutoSaved file can repeat a game line for line (hypothesis found one: two games,
    one match id, and `create_many` refused the batch as an internal error). The game is stored
    once; the repeat is said to be the same game."""
    lines = lines_of("v1_hdr_140a_real.log")
    store, d = imported(tmp_path, write(tmp_path, "twice.log", lines + lines))
    assert len(d["games"]) == 2 and d["games"][0]["match"] == d["games"][1]["match"]
    assert d["games"][0]["stored"] and not d["games"][1]["stored"]
    assert d["games"][1]["same_as_game"] == d["games"][0]["game"]
    assert store.match_ids() == [d["games"][0]["match"]] and store.verify(d["match"]).ok


def test_a_folder_with_a_file_holding_the_same_game_twice_stores_it_once(tmp_path):
    from judge.io.importers._optcgsim_bulk import import_files

    lines = lines_of("v1_hdr_140a_real.log")
    folder = tmp_path / "logs"
    folder.mkdir()
    path = write(folder, "twice.log", lines + lines)
    store = store_for(tmp_path)
    result = import_files(store, [path], workers=1)
    assert not result.failed, result.failed
    games = result.imported[0].extra["games"]
    assert [g["stored"] for g in games] == [True, False] and games[1]["same_as_game"] == games[0]["game"]
    assert len(store.match_ids()) == 1


# --- a copy of a stored game cut short, or differing (issue #17) ----------------------------------


def _cut_at_a_turn(tmp_path, name="cut.log"):
    """esempio.log cut after the CHK line of a move at a turn's end (a crash): a real file's start."""
    lines = open(SIM_LOG, encoding="utf-8").read().split("\n")
    return write(tmp_path, name, lines[:741] + [""]), lines


def test_a_cut_copy_of_a_stored_game_is_already_in_the_log(tmp_path):
    store = store_for(tmp_path)
    whole = optcgsim.import_file(store, SIM_LOG).to_dict()
    cut, _ = _cut_at_a_turn(tmp_path)
    again = optcgsim.import_file(store, cut).to_dict()
    assert not again["created"] and again["events"] == 0
    assert again["games"][0]["status"].startswith("already in the log (this copy is shorter: ")
    assert again["games"][0]["in_match"] == whole["match"] and store.match_ids() == [whole["match"]]


def test_the_whole_game_resumes_a_stored_cut_copy(tmp_path):
    store = store_for(tmp_path)
    cut, _ = _cut_at_a_turn(tmp_path)
    first = optcgsim.import_file(store, cut).to_dict()
    held = store.head(first["match"]).position
    whole = optcgsim.import_file(store, SIM_LOG).to_dict()
    game = whole["games"][0]
    assert game["status"] == f"resumed: {held} already there, {game['events'] - held} appended"
    assert store.match_ids() == [first["match"]] and store.verify(first["match"]).ok
    assert store.head(first["match"]).position == game["events"]


def _altered_copy(tmp_path, name: str) -> tuple[str, int]:
    """The cut copy of esempio.log with one card of a move after line 420 changed: (its path, the
    0-based index of the altered line)."""
    _, lines = _cut_at_a_turn(tmp_path)
    i = next(k for k in range(420, len(lines)) if lines[k].startswith("RZ1|") and "|CHK|" not in lines[k]
             and lines[k].split("|")[3] != "Don")
    parts = lines[i].split("|")
    parts[3] = "OP01-001" if parts[3] != "OP01-001" else "OP01-002"
    return write(tmp_path, name, lines[:i] + ["|".join(parts)] + lines[i + 1:741] + [""]), i


def test_a_copy_differing_at_a_move_is_refused_naming_line_and_event(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", SIM_LOG]) == 0
    altered, i = _altered_copy(tmp_path, "altered.log")
    capsys.readouterr()
    assert run_guarded(cli, ["--db", db, "import", altered]) == 2
    err = capsys.readouterr().err
    assert f"altered.log:{i + 1}" in err and "of match " in err and "nothing of it was stored" in err
    assert len(EventStore.open(db).match_ids()) == 1


def _held(store: EventStore, match: str) -> list[tuple[str, str]]:
    """A match's events as the game says them (not where they were read: file, line)."""
    keep = lambda p: {k: v for k, v in p.items() if k not in ("line", "source")}  # noqa: E731
    return [(e.kind, json.dumps(keep(e.payload), sort_keys=True)) for e in store.read(match)]


def test_a_folder_with_a_cut_copy_and_the_whole_game_stores_it_once_resumed(tmp_path):
    """Before, the folder import related no copies: two matches for one game (QA 6's files in a folder)."""
    from judge.io.importers._optcgsim_bulk import import_files

    cut, _ = _cut_at_a_turn(tmp_path, "a_cut.log")
    whole = write(tmp_path, "b_whole.log", open(SIM_LOG, encoding="utf-8").read().split("\n"))
    store = store_for(tmp_path)
    result = import_files(store, [cut, whole], workers=1)
    assert not result.failed and len(store.match_ids()) == 1
    match = store.match_ids()[0]
    game = result.imported[1].extra["games"][0]
    assert game["in_match"] == match and game["status"].startswith("resumed: ")
    assert result.totals()["games_resumed"] == 1 and store.verify(match).ok
    alone = store_for(tmp_path, "alone.db")
    optcgsim.import_file(alone, SIM_LOG)
    assert _held(store, match) == _held(alone, alone.match_ids()[0])


def test_a_folder_refuses_a_differing_copy_and_imports_the_other_files(tmp_path):
    from judge.io.importers._optcgsim_bulk import import_files

    altered, i = _altered_copy(tmp_path, "b_altered.log")
    store = store_for(tmp_path)
    result = import_files(store, [SIM_LOG, altered, fixture("v1_hdr_140a_real.log")], workers=1)
    assert [os.path.basename(f.path) for f in result.failed] == ["b_altered.log"]
    assert f"b_altered.log:{i + 1}" in result.failed[0].error and "of match " in result.failed[0].error
    assert len(store.match_ids()) == 2 and len(result.imported) == 2


def test_a_file_holding_a_cut_copy_then_the_whole_game_stores_it_once(tmp_path):
    """Not written by the simulator (a crash ends its file; an AutoSaved file's rematch is a new
    shuffle), but two files pasted into one: before, two matches."""
    _, lines = _cut_at_a_turn(tmp_path)
    both = write(tmp_path, "both.log", lines[:741] + open(SIM_LOG, encoding="utf-8").read().split("\n"))
    store = store_for(tmp_path)
    d = optcgsim.import_file(store, both).to_dict()
    assert len(store.match_ids()) == 1 and d["games"][1]["status"].startswith("resumed: ")
    alone = store_for(tmp_path, "alone.db")
    optcgsim.import_file(alone, SIM_LOG)
    assert _held(store, store.match_ids()[0]) == _held(alone, alone.match_ids()[0])


def test_a_copy_naming_other_players_is_said(tmp_path, capsys):
    """QA 5: a renamed copy was 'already' with no word, its result naming players the match has not."""
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", fixture("v3_ply_143a_autosaved.log")]) == 0
    text = open(fixture("v3_ply_143a_autosaved.log"), encoding="utf-8").read()
    renamed = write(tmp_path, "renamed.log", text.replace("LeoIlPirata", "Judge097").split("\n"))
    capsys.readouterr()
    assert run_guarded(cli, ["--db", db, "import", renamed]) == 0
    out = capsys.readouterr().out
    assert "this copy names Judge097#3980 and Theshyopop#27381 (a re-used or renamed log?)" in out
    assert "is between LeoIlPirata#3980 and Theshyopop#27381" in out
    assert run_guarded(cli, ["--db", db, "import", renamed, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [w["kind"] for w in d["warnings"] if w.get("kind")] == ["names"]


def test_a_row_of_a_game_already_in_the_log_says_the_stored_match(tmp_path, capsys):
    """QA: a renamed copy's row said "Judge097#3980 wins (concession) 5e2ec4e005 (already) 102": the
    copy's players and its event count, while the match is between others and holds 99 (v2c's copy
    of the game reads fewer lines); and v2 after v1 said 273 of a match holding 272."""
    from judge.io.importers._optcgsim_bulk import import_files

    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", fixture("v2c_autosaved_143a_two_games.log")]) == 0
    text = open(fixture("v3_ply_143a_autosaved.log"), encoding="utf-8").read()
    text = text.replace(f"LeoIlPirata{ZW}", "Judge097").replace(f"Theshyopop{ZW}", "Judge098")
    folder = tmp_path / "logs"
    folder.mkdir()
    renamed = write(folder, "renamed.log", text.split("\n"))
    capsys.readouterr()
    assert run_guarded(cli, ["--db", db, "import", renamed]) == 0
    row = next(ln for ln in capsys.readouterr().out.splitlines() if "(already)" in ln)
    assert "LeoIlPirata#3980 wins (concession)" in row and "Judge097" not in row
    assert "99 (this copy: 102)" in row
    game = import_files(EventStore.open(db), [renamed], workers=1).imported[0].extra["games"][0]
    assert game["match_events"] == 99 and game["events"] == 102
    assert game["result"]["winner"] == "LeoIlPirata#3980"
    assert run_guarded(cli, ["--db", db, "import", fixture("v1_hdr_140a_real.log")]) == 0
    capsys.readouterr()
    assert run_guarded(cli, ["--db", db, "import", fixture("v2_autosaved_140a_two_games.log")]) == 0
    row = next(ln for ln in capsys.readouterr().out.splitlines() if "(already)" in ln)
    assert "272 (this copy: 273)" in row


def test_a_move_card_number_in_no_card_data_is_said_once_not_refused(tmp_path, capsys, monkeypatch):
    """QA: a move's card shaped like a number but in no card data (XX99-999 where the simulator wrote
    a real one) was accepted silently, and only "not in hand" findings followed."""
    lines = lines_of("v3_ply_143a_autosaved.log")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("RZ1|8|1|OP07-022|"))
    lines[at] = lines[at].replace("OP07-022", "XX99-999")
    lines[at + 2] = lines[at + 2].replace("OP17-022", "XX98-001")
    folder = tmp_path / "logs"
    folder.mkdir()
    path = write(folder, "edited.log", lines)
    write(folder, "other.log", lines_of("v1_hdr_140a_real.log"))  # two files: the folder import's table
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", path]) == 0  # not refused: stored
    out = capsys.readouterr().out
    said = (f"2 card numbers are in no card data: XX99-999 (line {at + 1}), XX98-001 (line {at + 3}); "
            "a damaged or edited log")
    assert out.count(said) == 1 and len(EventStore.open(db).match_ids()) == 1
    assert run_guarded(cli, ["--db", str(tmp_path / "j.db"), "import", path, "--json"]) == 0
    cards = [w for w in json.loads(capsys.readouterr().out)["warnings"] if w.get("kind") == "cards"]
    assert [c["card"] for c in cards[0]["cards"]] == ["XX99-999", "XX98-001"]
    assert run_guarded(cli, ["--db", str(tmp_path / "f.db"), "import", str(folder)]) == 0
    assert said in capsys.readouterr().err
    # the real logs' numbers are all known; and with no snapshot to read, nothing is said
    assert run_guarded(cli, ["--db", str(tmp_path / "r.db"), "import", fixture("v3_ply_143a_autosaved.log")]) == 0
    assert "no card data" not in capsys.readouterr().out
    monkeypatch.setenv("TABLEJUDGE_CARD_SNAPSHOT", str(tmp_path / "none.json.gz"))
    assert run_guarded(cli, ["--db", str(tmp_path / "n.db"), "import", path]) == 0
    assert "no card data" not in capsys.readouterr().out


def test_a_file_with_two_new_games_names_both_matches(tmp_path, capsys):
    """QA 9: the last line named only the first game's match."""
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "import", fixture("v2c_autosaved_143a_two_games.log")]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert all(f"match {m}" in last for m in EventStore.open(db).match_ids()) and "new match" in last


def test_the_whole_game_after_a_cut_copy_says_it_resumed_that_match(tmp_path, capsys):
    """QA 6: after the resume the last line said 'already in match <the whole game's id>', a match
    the log does not hold."""
    db = str(tmp_path / "t.db")
    cut, _ = _cut_at_a_turn(tmp_path)
    assert run_guarded(cli, ["--db", db, "import", cut]) == 0
    assert run_guarded(cli, ["--db", db, "import", SIM_LOG]) == 0
    out = capsys.readouterr().out
    match = EventStore.open(db).match_ids()[0]
    assert f"resumed match {match} (" in out.strip().splitlines()[-1] and f"{match} (resumed)" in out


def test_a_resume_failing_after_the_files_new_games_were_stored_says_what_was_stored(tmp_path, monkeypatch):
    """Review 2026-11-27: the new games of a file are committed before its resumes; a resume that
    then failed was said as "nothing stored" (one file) or "failed (nothing of it stored): ... (its
    new games were stored)" (a folder). Now PartlyStored names the matches stored."""
    from judge.io.importers._optcgsim_bulk import import_files

    store = store_for(tmp_path)
    cut, _ = _cut_at_a_turn(tmp_path)
    optcgsim.import_file(store, cut)
    both = write(tmp_path, "both.log", lines_of("v1_hdr_140a_real.log")
                 + open(SIM_LOG, encoding="utf-8").read().split("\n"))

    def another_writer(*_a, **_k):
        raise InputError("another writer appended to the match meanwhile; nothing of the game was stored")

    monkeypatch.setattr(optcgsim, "resume", another_writer)
    with pytest.raises(optcgsim.PartlyStored) as e:
        optcgsim.import_file(store, both)
    (v1,) = e.value.stored  # the file's new game was stored; the resume of esempio's was not
    assert len(store.match_ids()) == 2 and v1 in store.match_ids()
    assert f"this file's other games were stored: {v1}" in str(e.value)
    folder = store_for(tmp_path, "folder.db")
    optcgsim.import_file(folder, cut)
    result = import_files(folder, [both], workers=1)
    assert [(f.partly, "other games were stored" in f.error) for f in result.failed] == [(True, True)]


# --- a cut copy stored first, read again from the whole file (QA60 problems 1 and 2) ---------------

def _positions_as_read(value, at):
    """The table with every event position it holds (`position`, a battle's `damage_at`, the last
    `shuffles`) as its place among the standing events: a re-read match holds the game's events at
    later positions (after the voided ones and their corrections) than a fresh import does."""
    if isinstance(value, dict):
        return {k: (at.get(v, ("not standing", v)) if k in ("position", "damage_at")
                    else {p: at.get(n) for p, n in v.items()} if k == "shuffles" else _positions_as_read(v, at))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_positions_as_read(v, at) for v in value]
    return value


def _table(store: EventStore, match: str) -> dict:
    events = store.read(match)  # the standing events, by the test's own reading of corrections
    voided = {e.payload["voids"] for e in events if e.kind == "correction"}
    at = {e.position: i + 1 for i, e in enumerate(e for e in events if e.kind != "correction" and e.position not in voided)}
    state = Match(store, match).state().to_dict()
    del state["voided"], state["position"]
    return _positions_as_read(state, at)


def _whole_table(tmp_path) -> dict:
    alone = store_for(tmp_path, "alone.db")
    optcgsim.import_file(alone, SIM_LOG)
    return _table(alone, alone.match_ids()[0])


def _cut(tmp_path, k: int) -> str:
    """esempio.log cut after its k-th line, as the QA's many/cut_k.log."""
    return write(tmp_path, f"cut_{k}.log", open(SIM_LOG, encoding="utf-8").read().split("\n")[:k] + [""])


def _one_game_as_the_whole_file(store: EventStore, whole: dict) -> str:
    (match,) = store.match_ids()
    assert store.verify(match).ok and _table(store, match) == whole
    return match


# The QA's cut points, one per way a cut copy read otherwise: a card's uid (1008), a play read as
# DON!! rested for an unnamed effect (416), a mulligan read "to the bottom of deck" with no turn yet
# (230, 345); and 741, a cut copy the whole file simply continues.
QA_CUTS = [1008, 416, 230, 345, 741]


@pytest.mark.parametrize("k", QA_CUTS)
def test_the_whole_file_after_a_cut_copy_is_one_match_replaying_as_the_whole_game(tmp_path, k):
    """QA60 1-2: 52 of 108 cut points refused the whole file for good ('its last turn ... differs');
    12 cut in the set-up made a second match. Now the cut copy's provisional events are voided by
    corrections and read again from the whole file, in one transaction."""
    whole = _whole_table(tmp_path)
    store = store_for(tmp_path)
    optcgsim.import_file(store, _cut(tmp_path, k))
    d = optcgsim.import_file(store, SIM_LOG).to_dict()
    match = _one_game_as_the_whole_file(store, whole)
    status = d["games"][0]["status"]
    corrections = [e for e in store.read(match) if e.kind == "correction"]
    if k == 741:
        assert not corrections and re.fullmatch(r"resumed: \d+ already there, \d+ appended", status)
        return
    kept, again, appended = map(int, re.fullmatch(r"resumed: (\d+) already there, (\d+) read again \(voided by "
                                                  r"corrections: .*\), (\d+) appended", status).groups())
    assert [c.payload["voids"] for c in corrections] == list(range(kept + 1, kept + again + 1))
    assert all(c.actor == "-" and "read again from a longer copy of the game, esempio.log" in c.payload["reason"]
               for c in corrections)
    assert store.head(match).position == kept + 2 * again + appended and d["events"] == again + appended


@pytest.mark.parametrize("k", QA_CUTS)
def test_a_cut_copy_after_the_whole_file_is_already_in_the_log(tmp_path, k):
    whole = _whole_table(tmp_path)
    store = store_for(tmp_path)
    optcgsim.import_file(store, SIM_LOG)
    d = optcgsim.import_file(store, _cut(tmp_path, k)).to_dict()
    _one_game_as_the_whole_file(store, whole)
    assert d["events"] == 0 and d["games"][0]["status"].startswith("already in the log (this copy is shorter: ")


def test_the_whole_file_again_after_a_reread_is_already_in_the_log(tmp_path):
    """The re-read match is compared as the log reads it (its corrections and what they void left
    out): the same file again is that game, not a second match."""
    store = store_for(tmp_path)
    optcgsim.import_file(store, _cut(tmp_path, 1008))
    optcgsim.import_file(store, SIM_LOG)
    d = optcgsim.import_file(store, SIM_LOG).to_dict()
    assert d["events"] == 0 and d["games"][0]["status"] == "already in the log" and len(store.match_ids()) == 1


def test_a_folder_of_cut_copies_sorted_shortest_first_is_one_match(tmp_path):
    """QA60 1: `import many`: cut_1008 sorted first and all 56 longer cuts were refused."""
    from judge.io.importers._optcgsim_bulk import import_files

    whole = _whole_table(tmp_path)
    paths = [_cut(tmp_path, k) for k in (1008, 1025, 1087, 1466)] + [SIM_LOG]
    store = store_for(tmp_path)
    result = import_files(store, paths, workers=1)
    assert not result.failed
    _one_game_as_the_whole_file(store, whole)


def test_every_60th_cut_point_either_order_is_one_match_replaying_as_the_whole_game(tmp_path):
    """A sweep over the real log (from line 230: both players named, the opening's 40 lines read)."""
    whole = _whole_table(tmp_path)
    n = len(open(SIM_LOG, encoding="utf-8").read().split("\n"))
    for k in range(230, n, 60):
        cut = _cut(tmp_path, k)
        for order in ([cut, SIM_LOG], [SIM_LOG, cut]):
            store = store_for(tmp_path, f"{k}-{order[0] == cut}.db")
            for path in order:
                try:
                    optcgsim.import_file(store, path)
                except InputError as e:  # a move cut from its RZ1|CHK line: refused as truncated
                    assert path == cut and "has no matching RZ1|CHK line" in str(e)
            _one_game_as_the_whole_file(store, whole)


def test_a_judges_events_on_the_cut_match_are_kept_and_never_voided_by_the_read_again(tmp_path):
    """Review 2026-11-27: a judge call and a Game Loss recorded on the cut match were compared with the
    file's game and voided by the import's corrections ("2 read again"): the penalty no longer
    counted. The desk's events are not the game's: kept, not compared, never voided."""
    store = store_for(tmp_path)
    optcgsim.import_file(store, _cut(tmp_path, 1008))
    (match,) = store.match_ids()
    m = Match(store, match)
    a, b = m.players
    call = m.record("judge.call", {"caller": a, "reason": "was the trigger revealed?"}, actor="judge:Ann").event
    loss = m.record("judge.penalty", {"player": b, "penalty": "Game Loss", "infraction": "Marked cards"},
                    actor="judge:Ann").event
    d = optcgsim.import_file(store, SIM_LOG).to_dict()
    assert d["games"][0]["status"].startswith("resumed: ")
    events = store.read(match)
    voided = {e.payload["voids"] for e in events if e.kind == "correction"}
    assert call.position not in voided and loss.position not in voided
    assert all("read again from a longer copy of the game" in e.payload["reason"] for e in events
               if e.kind == "correction")
    assert store.verify(match).ok and len(store.match_ids()) == 1


def test_a_judges_void_in_the_part_read_again_refuses_the_whole_file(tmp_path):
    """A judge voided an event of the cut copy's last turn: reading the turn again would bring it back.
    Refused, nothing stored: the judge decides."""
    store = store_for(tmp_path)
    optcgsim.import_file(store, _cut(tmp_path, 1008))
    (match,) = store.match_ids()
    head = store.head(match).position
    Match(store, match).record("correction", {"voids": head, "reason": "did not happen"}, actor="judge:Ann")
    before = store.head(match).position
    with pytest.raises(InputError, match=f"event {head} of that turn was voided by a correction"):
        optcgsim.import_file(store, SIM_LOG)
    assert store.head(match).position == before and len(store.match_ids()) == 1


def test_two_copies_cut_in_the_same_turn_are_one_game_and_the_whole_file_reads_it_again(tmp_path):
    """QA70 2: cut_1062 then cut_1072 (the same 329 events, the last read as 4 and as 9 DON!! rested)
    was refused as "two different histories"; 9 cuts of a 109-file folder failed so."""
    whole = _whole_table(tmp_path)
    store = store_for(tmp_path)
    optcgsim.import_file(store, _cut(tmp_path, 1062))
    d = optcgsim.import_file(store, _cut(tmp_path, 1072)).to_dict()
    assert d["events"] == 0 and "this copy is cut too, in its last turn" in d["games"][0]["status"]
    optcgsim.import_file(store, SIM_LOG)
    _one_game_as_the_whole_file(store, whole)


def test_the_whole_game_names_the_player_a_stored_cut_copy_knew_as_a_placeholder(tmp_path):
    """Bug: a copy cut after 40 moves but before the log names player 2 stored "Player 2"; the whole
    file resumed it and the match kept the placeholder. Now the real name is recorded as an event
    (match.created is not rewritten) and `state` says it."""
    from engine.match import Match

    lines = open(SIM_LOG, encoding="utf-8").read().split("\n")
    cut = write(tmp_path, "cut.log", lines[:151] + [""])  # 75 moves, the set-up, player 2 not named yet
    store = store_for(tmp_path)
    first = optcgsim.import_file(store, cut).to_dict()
    assert store.event_at(first["match"], 1).payload["players"] == ["LeoIlPirata#3980", "Player 2"]
    game = optcgsim.import_file(store, SIM_LOG).to_dict()["games"][0]
    assert game["status"].endswith("; Player 2 is now named Theshyopop#27381, from the longer copy")
    assert "names_warning" not in game
    named = [e for e in store.read(first["match"]) if e.kind == "player.named"]
    assert [(e.actor, e.payload["player"], e.payload["name"]) for e in named] == [("-", "Player 2", "Theshyopop#27381")]
    assert store.verify(first["match"]).ok and store.match_ids() == [first["match"]]
    m = Match(store, first["match"])
    assert m.state().extra["names"]["Player 2"]["name"] == "Theshyopop#27381"
    assert f"Player 2 is Theshyopop#27381 (named by event {named[0].position})" in m.ruleset.summary_lines(m.state())
    again = optcgsim.import_file(store, SIM_LOG).to_dict()["games"][0]  # the whole file again: no second naming
    assert again["status"].startswith("already in the log") and "names_warning" not in again
    assert len([e for e in store.read(first["match"]) if e.kind == "player.named"]) == 1


def test_the_views_show_the_player_a_later_copy_named_and_a_correction_voiding_it_brings_the_placeholder_back(tmp_path):
    """Bug: after the whole file named "Player 2" (a player.named event), the match list, `state`,
    the report's header and its result line still said "Player 2". They show the name with the seat
    (the events still say the seat); a judge's correction voiding the naming undoes it."""
    from click.testing import CliRunner

    from judge.report.match import match_context

    lines = open(SIM_LOG, encoding="utf-8").read().split("\n")
    cut = write(tmp_path, "cut.log", lines[:151] + [""])
    store = store_for(tmp_path)
    mid = optcgsim.import_file(store, cut).to_dict()["match"]
    optcgsim.import_file(store, SIM_LOG)
    db = str(tmp_path / "t.db")
    shown = "Theshyopop#27381 (seat Player 2)"
    listed = CliRunner().invoke(cli, ["--db", db, "matches"]).output
    assert f"LeoIlPirata#3980, {shown}" in listed
    rows = json.loads(CliRunner().invoke(cli, ["--db", db, "matches", "--json"]).output)
    assert rows[0]["players"] == ["LeoIlPirata#3980", "Player 2"]
    assert rows[0]["named"] == ["LeoIlPirata#3980", "Theshyopop#27381"]
    state = CliRunner().invoke(cli, ["--db", db, "state", mid]).output
    assert f"active {shown}" in state and f"\n{shown}\n" in state
    assert f"\n{shown}: Life " in state and "\nPlayer 2: Life" not in state  # QA: the summary line too
    view = json.loads(CliRunner().invoke(cli, ["--db", db, "state", mid, "--json"]).output)
    assert view["named"] == {"LeoIlPirata#3980": "LeoIlPirata#3980", "Player 2": "Theshyopop#27381"}
    ctx = match_context(Match(store, mid))
    assert ctx["match"]["players"] == ["LeoIlPirata#3980", shown]
    named = next(e for e in store.read(mid) if e.kind == "player.named")
    Match(store, mid).record("correction", {"voids": named.position, "reason": "wrong player"}, actor="judge:Ann")
    assert match_context(Match(store, mid))["match"]["players"] == ["LeoIlPirata#3980", "Player 2"]
    assert "Theshyopop" not in CliRunner().invoke(cli, ["--db", db, "matches"]).output


def test_a_result_names_the_winner_a_later_copy_named(tmp_path):
    """A winner line shows the seat's name now: the report's result of a match won by the seat the
    log called "Player 2" once a later copy named them."""
    from judge.report.views import result_text

    assert result_text("win", "Player 2", {"Player 2": "Theshyopop#27381"}) == "Theshyopop#27381 (seat Player 2) wins"
    assert result_text("win", "Player 2") == "Player 2 wins"
