"""The event desk's library (judge/tournament: names, registration, entry, reports, rounds,
placings): what `tablejudge serve` and the CLI both call."""
from __future__ import annotations

import pytest

from tests.conftest import run_cli

from engine.match import InputError, Match
from judge.tournament import Tournament
from judge.tournament.aggregate import Entry
from judge.tournament.entry import OverwriteRefused, parse_entries, record_results, undo_result
from judge.tournament.names import name_key, near_duplicates
from judge.tournament.placings import decide, final_placings, warnings
from judge.tournament.registration import import_registrations, read_registrations
from judge.tournament.reports import ResultConfirmed, RoundClosedError, report_result, resolve_dispute
from judge.tournament.tables import CONFIRMED, DISPUTED, PENDING, REPORTED, judges_queue, table_status
from judge.tournament.rounds import (
    call_time, clock_view, close_round, create_matches, extend, repair, start_clock, swap_players, unpair,
)


BACKENDS = ("sqlite",)  # what these tests look at does not depend on the backend (tests/conftest.py)


def event(store, n=8, **kw):
    t = Tournament.create(store, name="Desk cup", game="op2009", seed="3", rounds=kw.pop("rounds", 3), **kw)
    t.register_many([f"Player {i:02d}" for i in range(n)])
    return t


def finish_round(t, slip="2-0-0"):
    rnd = t.state().current
    record_results(t, [(p.table, slip) for p in rnd.tables() if p.table not in rnd.results])


def test_near_duplicate_names_are_caught_by_case_spaces_and_accents(store):
    assert name_key("  Luca  Conte ") == name_key("luca conte") == name_key("Lùca Cónte")
    t = event(store, 0)
    t.register("Luca Conte")
    with pytest.raises(InputError, match="'Luca Conte' is already registered"):
        t.register("Luca  Conte ")  # spaces are cleaned: the very same name
    for twin in ("LUCA CONTE", "Lúca Conte", "luca  conte"):
        with pytest.raises(InputError, match="looks like 'Luca Conte'"):
            t.register(twin)
    assert list(t.state().players) == ["Luca Conte"]
    t.register("Luca  Conté", allow_similar=True)  # two people: said so
    assert list(t.state().players) == ["Luca Conte", "Luca Conté"]
    assert near_duplicates(["Ann", "ann ", "Bob"]) == [["Ann", "ann "]]


def test_two_people_with_the_same_name_are_told_how_to_register_apart(store):
    """QA 2026-11-26 (300 players): `register "Maria Rossi" --id M99999 --allow-similar` said only
    "already registered". Players are keyed by name in every event, so the second person is
    refused with the way to register them: a name that tells the two apart."""
    t = event(store, 0)
    t.register("Maria Rossi", player_id="M10007")
    with pytest.raises(InputError) as e:
        t.register("Maria Rossi", player_id="M99999", allow_similar=True)
    msg = str(e.value)
    assert "'Maria Rossi' is already registered (member id M10007)" in msg
    assert "'Maria Rossi (M99999)' with member id M99999" in msg and "--allow-similar does not apply" in msg
    with pytest.raises(InputError) as e:  # the same person twice: no advice to register them again
        t.register("Maria Rossi", player_id="M10007")
    assert str(e.value).endswith("already registered (member id M10007)")
    t.register("Maria Rossi (M99999)", player_id="M99999")  # not a near-duplicate: no flag needed
    assert {p: i.player_id for p, i in t.state().players.items()} == {
        "Maria Rossi": "M10007", "Maria Rossi (M99999)": "M99999"}
    with pytest.raises(InputError) as e:  # within one file: the line of the second one
        import_registrations(t, "name,member_id\nAnn,1\nAnn,2\n", "reg.csv")
    assert e.value.where == "reg.csv:3:1" and "'Ann (2)' with member id 2" in str(e.value)


def test_a_member_id_another_player_holds_is_refused_naming_them(store, tmp_path):
    """QA 9: `register T "Maria Rossi" --id M1` then `register T Luca --id M1` registered both, and
    the exports showed M1 twice. The CLI, a registrations CSV (the web desk's import too) refuse it."""
    t = event(store, 0)
    t.register("Maria Rossi", player_id="M1")
    with pytest.raises(InputError) as e:
        t.register("Luca", player_id=" M1")
    assert e.value.field == "player_id"
    assert e.value.message.startswith("member id 'M1' is held by 'Maria Rossi', already registered")
    with pytest.raises(InputError) as e:  # within one batch: who was given it earlier
        t.register_many([Entry("Ann", "M2"), Entry("Bob"), Entry("Cid", "M2")])
    assert e.value.where == "entry 3" and "'M2' is held by 'Ann', given earlier in this list" in e.value.message
    with pytest.raises(InputError) as e:  # a CSV: its line and its column, one row or several
        import_registrations(t, "name,member_id\nZed,M1\n", "reg.csv")
    assert str(e.value).startswith("reg.csv:2:5: field 'member_id': member id 'M1' is held by 'Maria Rossi'")
    with pytest.raises(InputError) as e:
        import_registrations(t, "name,id\nZed,M3\nYan,M3\n", "reg.csv")
    assert str(e.value).startswith("reg.csv:3:5: field 'id': member id 'M3' is held by 'Zed'")
    assert list(t.state().players) == ["Maria Rossi"]  # nothing of any of them
    t.register_many([Entry("Ann", "M2"), Entry("Bob"), Entry("Cid")])  # no id: nothing to hold
    db = str(tmp_path / "t.db")
    run_cli("tournament", "new", "--name", "Ids", "--game", "op2009", "--id", "t-i", db=db)
    assert run_cli("tournament", "register", "t-i", "Maria Rossi", "--id", "M1", db=db).returncode == 0
    r = run_cli("tournament", "register", "t-i", "Luca", "--id", "M1", db=db)
    assert r.returncode == 2 and "member id 'M1' is held by 'Maria Rossi'" in r.stderr


def test_a_drop_names_the_namesakes_it_did_not_drop(store, tmp_path):
    """QA70 #7: two people called Maria Rossi, registered apart as docs/tournaments.md advises;
    `drop "maria rossi"` dropped M10001 without a word about the other Maria. The CLI and the
    web desk say the same words (drop_words)."""
    db = str(tmp_path / "t.db")
    run_cli("tournament", "new", "--name", "Same names", "--game", "op2009", "--id", "t-n", db=db)
    for name, pid in (("Maria Rossi", "M10001"), ("Maria Rossi (M99999)", "M99999"), ("Anna Bianchi", "M3")):
        assert run_cli("tournament", "register", "t-n", name, "--id", pid, db=db).returncode == 0
    r = run_cli("tournament", "drop", "t-n", "maria rossi", db=db)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Maria Rossi dropped (event 5); also registered: Maria Rossi (M99999), not dropped"
    r = run_cli("tournament", "drop", "t-n", "Maria Rossi (M99999)", db=db)  # either way round
    assert r.stdout.strip() == "Maria Rossi (M99999) dropped (event 6); also registered: Maria Rossi, dropped earlier"
    r = run_cli("tournament", "drop", "t-n", "anna bianchi", db=db)  # no namesake: nothing more said
    assert r.stdout.strip() == "Anna Bianchi dropped (event 7)"


def test_registrations_from_csv_name_the_line_and_store_nothing_on_error(store):
    t = event(store, 0)
    csv_text = 'name,member id,decklist\nAnn Rossi,1001,"4 OP01-001\n4 OP01-002"\n\nBob Verdi,1002,\n'
    entries = read_registrations(csv_text, "reg.csv")
    assert [(e.player, e.player_id) for e in entries] == [("Ann Rossi", "1001"), ("Bob Verdi", "1002")]
    assert entries[0].decklist == "4 OP01-001\n4 OP01-002"
    bad = "name,id\nCid,1\n,2\n"
    with pytest.raises(InputError) as e:
        import_registrations(t, bad, "bad.csv")
    assert str(e.value).startswith("bad.csv:3:1: field 'name'")
    dup = "name\nDee Neri\nEve\ndee  neri\n"
    with pytest.raises(InputError) as e:
        import_registrations(t, dup, "dup.csv")
    assert "dup.csv:4:1: field 'name'" in str(e.value) and "looks like 'Dee Neri'" in str(e.value)
    assert t.state().players == {}
    with pytest.raises(InputError, match="no name column"):
        read_registrations("member,deck\n1,x\n", "x.csv")
    import_registrations(t, csv_text, "reg.csv")
    assert t.state().players["Ann Rossi"].player_id == "1001"


def test_every_refused_registration_line_is_said_in_one_run(store):
    """QA70 5: the organizer needed 5 runs of `register --csv`, one per problem. Every refused line
    (one that cannot be read too) is said at once, in line order, and nobody is registered."""
    from judge.tournament.entry import BatchRefused

    t = event(store, 0)
    t.register("Gül Öztürk", player_id="M10003")
    text = ("name,member_id\nLuca Conte,M1\nluca conte,M2\nJosé García,M3\n,M9\nJose Garcia,M4\n"
            "Maria Rossi,M5\nMaria Rossi,M99999\nPino,M10003\n")
    with pytest.raises(BatchRefused) as e:
        import_registrations(t, text, "p.csv")
    assert [(x.where, x.field) for x in e.value.errors] == [
        ("p.csv:3:1", "name"), ("p.csv:5:1", "name"), ("p.csv:6:1", "name"), ("p.csv:8:1", "name"),
        ("p.csv:9:6", "member_id")]
    assert "'M10003' is held by 'Gül Öztürk'" in e.value.errors[-1].message
    assert list(t.state().players) == ["Gül Öztürk"]


def test_a_refused_registration_names_the_column_of_its_cell(store):
    """QA75 4: docs/tournaments.md promises file, line and column; a duplicate, an empty name and a
    member id held by another named file:line only, and a duplicate's field was `player` where the
    file's header says `name`. The column is the cell's, counted in characters of its line (a
    quoted cell spanning lines moves the cells after it to its last line)."""
    from judge.tournament.entry import BatchRefused

    t = event(store, 0)
    text = ('id,"deck",Name\nM1,x,Zoë Davies\nM1,"a, b",Bob\nM3,"4 X\n4 Y",zoe davies\nM4,,\n')
    with pytest.raises(BatchRefused) as e:
        import_registrations(t, text, "c.csv")
    assert [(x.where, x.field) for x in e.value.errors] == [
        ("c.csv:3:1", "id"), ("c.csv:5:6", "Name"), ("c.csv:6:5", "Name")]
    assert str(e.value.errors[1]).startswith("c.csv:5:6: field 'Name': 'zoe davies' looks like 'Zoë Davies'")
    with pytest.raises(InputError) as e:
        import_registrations(t, "name,id\nAnn,1,extra\n", "x.csv")
    assert e.value.where == "x.csv:2:7"  # the first cell past the header's columns
    assert t.state().players == {}


def test_a_member_id_that_only_looks_like_another_is_warned_about(store):
    """QA70 5: `M1000l` (a letter l) was taken silently beside M10001. Ids are each organizer's
    own, so it is a warning, not a refusal."""
    from judge.tournament.registration import lookalike_ids, parse_registrations

    t = event(store, 0)
    t.register("Maria Rossi", player_id="M10001")
    read = parse_registrations("name,id\nPino,M1000l\nAnn,MIOOO2\nBob,M10002\nCid,M10001\n", "p.csv")
    said = lookalike_ids(read.entries, t.state().players)
    assert said == ["p.csv:2: member id 'M1000l' of 'Pino' looks like 'M10001', held by 'Maria Rossi' "
                    "(l, I and 1, O and 0 look alike): check it",
                    "p.csv:4: member id 'M10002' of 'Bob' looks like 'MIOOO2', given for 'Ann' on line 3 of "
                    "this file (l, I and 1, O and 0 look alike): check it"]  # Cid's very same id: refused, not warned
    # QA73 14: Ann is in this file, not registered (a refused batch registers nobody): never "held by"


def test_a_utf32_registrations_file_is_said_not_to_be_utf8(tmp_path):
    """QA73 14: a UTF-32 CSV was read as UTF-16 and refused as "no name column (the header has
    \\u0000n\\u0000a…)". UTF-16 is read as such; UTF-32 is said to be what it is."""
    db, path = str(tmp_path / "t.db"), tmp_path / "r.csv"
    run_cli("tournament", "new", "--name", "Ids", "--game", "op2009", "--id", "t-i", db=db)
    path.write_bytes("name,member_id\nGus,M1\n".encode("utf-32"))
    r = run_cli("tournament", "register", "t-i", "--csv", str(path), db=db)
    assert r.returncode == 2 and f"{path}: not UTF-8 text (it looks like UTF-32): save it as CSV UTF-8" in r.stderr
    assert "name column" not in r.stderr and "Traceback" not in r.stderr


def test_a_name_longer_than_a_seat_holds_is_refused_at_registration(store):
    """QA 2026-11-26: 70 characters were registered, then creating the round's matches failed."""
    t = event(store, 0)
    with pytest.raises(InputError, match="at most 64 characters; this one has 70: "):
        t.register_many(["Ann", "Z" * 70])
    with pytest.raises(InputError) as e:
        import_registrations(t, "name\nAnn\n" + "Z" * 65 + "\n", "long.csv")
    assert str(e.value).startswith("long.csv:3") and "at most 64 characters" in str(e.value)
    assert t.state().players == {}
    t.register("Z" * 64)


def test_file_errors_name_the_line_where_they_are(store, tmp_path):
    """QA 2026-11-26: an unclosed quote was reported a line early; a bad byte and a results line
    naming an unknown or repeated table named no line at all."""
    from judge.io.text import read_text

    t = event(store, 0)
    for text, where in (('name\nZed\n"Unclosed\n', "3:1"), ('name\nZed\n\n\n"Unclosed\nmore\n', "5:1"),
                        ('name,id\nZed,1\nAnn,"2\n', "3:5")):
        with pytest.raises(InputError) as e:
            read_registrations(text, "b.csv")
        assert e.value.where == f"b.csv:{where}" and "unreadable CSV" in str(e.value)
        assert "a quote opened here is never closed" in str(e.value)
    bad = tmp_path / "b7.csv"
    bad.write_bytes(b"name\nAnn\nB\xc3\xa9a \xff\n")
    with pytest.raises(InputError) as e:
        read_text(str(bad))
    assert e.value.where == f"{bad}:3:5" and "not UTF-8" in str(e.value)  # the 5th character, not byte
    t.register_many([f"P{i}" for i in range(6)])
    t.pair()
    for text, where, words in (("1 2-0\n2 0-2\n9 2-0\n", "r.txt:3:1", "no table 9"),
                               ("1 2-0\n\n1 0-2\n", "r.txt:3:1", "given twice (2-0-0 at r.txt:1 and 0-2-0)"),
                               ("1 2-0\n2 5-5\n", "r.txt:2:3", "impossible")):
        with pytest.raises(InputError) as e:
            record_results(t, parse_entries(text, "r.txt"))
        assert e.value.where == where and words in str(e.value), str(e.value)
    assert t.state().current.results == {}  # nothing of a refused batch


def test_batch_entry_is_one_commit_idempotent_and_asks_before_overwriting(store):
    t = event(store, 300, rounds=1)
    t.pair()
    lines = "\n".join(f"{n} 2-1" for n in range(1, 151)) + "\n# done\n"
    entries = parse_entries(lines, "round1.txt")
    assert len(entries) == 150
    before = len(t.events())
    done = record_results(t, entries)
    assert len(t.events()) == before + 150 and {d.status for d in done} == {"recorded"}
    assert t.state().current.complete
    # the same batch again (a double submit) stores nothing
    again = record_results(t, entries)
    assert {d.status for d in again} == {"unchanged"} and len(t.events()) == before + 150
    # a different result for table 12 is refused, showing the old one; nothing of the batch stored
    with pytest.raises(OverwriteRefused) as e:
        record_results(t, [(11, "2-0"), (12, "1-2")])
    assert [(c["table"], c["old"], c["new"]) for c in e.value.conflicts] == [(11, "2-1-0", "2-0-0"), (12, "2-1-0", "1-2-0")]
    assert len(t.events()) == before + 150
    done = record_results(t, [(12, "1-2")], overwrite=True, reason="slip misread")
    assert done[0].status == "overwritten" and done[0].old == "2-1-0"
    assert t.events()[-1].payload["reason"] == "slip misread"
    # undo: the previous result counts again; undo again: pending
    _, back = undo_result(t, 12)
    assert back == "2-1-0"
    _, back = undo_result(t, 12)
    assert back is None and t.state().current.missing() == [12]
    with pytest.raises(InputError, match="has no result to undo"):
        undo_result(t, 12)
    with pytest.raises(InputError, match="expected `TABLE W-L-D`"):
        parse_entries("12 2-1\nthirteen 2-0\n", "r.txt").check()
    with pytest.raises(InputError) as e:
        parse_entries("12 2-1\n13 2:0\n", "r.txt").check()
    assert str(e.value).startswith("r.txt:2:4")
    with pytest.raises(InputError, match="given twice"):
        record_results(t, [(12, "2-0"), (12, "0-2")])


def test_players_report_confirm_dispute_and_a_judge_decides(store):
    t = event(store, 4)
    t.pair()
    rnd = t.state().current
    p1, p2 = rnd.tables()[0].player1, rnd.tables()[0].player2
    assert table_status(rnd, 1).status == PENDING
    events, view = report_result(t, p1, "2-1")
    assert [e.kind for e in events] == ["result.reported"] and view.status == REPORTED
    assert report_result(t, p1, "2-1")[0] == []  # double submit: nothing new
    events, view = report_result(t, p2, "1-2")  # the opponent confirms in their own view
    assert [e.kind for e in events] == ["result.reported", "result.recorded"] and view.status == CONFIRMED
    assert view.result == "2-1-0" and events[-1].payload["source"] == "players"
    # table 2 disagrees: the queue, and nothing recorded
    q1, q2 = rnd.tables()[1].player1, rnd.tables()[1].player2
    report_result(t, q1, "2-0")
    _, view = report_result(t, q2, "2-1")
    assert view.status == DISPUTED and view.result is None
    assert [v.table for v in judges_queue(t.state())] == [2]
    with pytest.raises(InputError, match="disputed table"):
        close_round(t)
    with pytest.raises(InputError, match="does not play at table 1"):
        report_result(t, q1, "2-0", table=1)
    jt = t.with_actor("judge:Kim", "Kim")
    ev = resolve_dispute(jt, 2, "0-2", reason="both agreed after a replay of the last game")
    assert ev.actor == "judge:Kim" and ev.payload["source"] == "judge"
    assert table_status(t.state().current, 2).status == CONFIRMED and judges_queue(t.state()) == []
    assert any(o.position == ev.position for o in t.state().current.overrides)
    close_round(t)
    with pytest.raises(RoundClosedError):
        report_result(t, p1, "0-2")


def test_a_players_report_does_not_reopen_a_confirmed_table(store):
    """QA70 #8: after both players confirmed, a new report (anyone holding the table's shared
    link) turned the table into a dispute. It is refused in words, nothing stored; the same
    result again is no change; a judge's override (with a reason) still changes it."""
    t = event(store, 4)
    t.pair()
    p = t.state().current.tables()[0]
    report_result(t, p.player1, "2-1")
    report_result(t, p.player2, "1-2")
    before = t.state().position
    for who, slip in ((p.player2, "2-1"), (p.player1, "0-2")):
        with pytest.raises(ResultConfirmed, match=r"table 1's result is confirmed \(2-1-0, .*: a change now goes "
                           "through a judge — call one"):
            report_result(t, who, slip)
    assert t.state().position == before and table_status(t.state().current, 1).status == CONFIRMED
    assert report_result(t, p.player1, "2-1")[0] == []  # the same report again: nothing new
    record_results(t.with_actor("judge:Kim", "Kim"), [(1, "1-2")], overwrite=True, reason="slip misread")
    view = table_status(t.state().current, 1)
    assert view.result == "1-2-0" and view.status == CONFIRMED  # the judge's entry stands
    with pytest.raises(ResultConfirmed):  # the judge's decision is not reopened by a tap either
        report_result(t, p.player1, "0-2")
    # a slip a scorekeeper entered: the player who agreed with it cannot reopen it; the one who
    # had said nothing yet may differ from it, and the table goes to the judges' queue (as before)
    q = t.state().current.tables()[1]
    record_results(t, [(2, "2-0")])
    assert [e.kind for e in report_result(t, q.player2, "0-2")[0]] == ["result.reported"]
    with pytest.raises(ResultConfirmed):
        report_result(t, q.player2, "2-0")
    assert report_result(t, q.player1, "0-2")[1].status == DISPUTED


def test_unpair_repair_swap_and_the_clock(store):
    t = event(store, 6)
    t.pair()
    rnd = t.state().current
    a, b = rnd.tables()[0].player1, rnd.tables()[1].player1
    swap_players(t, a, b, reason="family members must not meet in round 1")
    rnd = t.state().current
    assert rnd.tables()[0].player1 == b and rnd.tables()[1].player1 == a and rnd.overrides
    t.drop(rnd.tables()[2].player2, "left")
    rp = repair(t, reason="a drop before the round started")
    assert len(rp.pairings) == 3 and sum(p.player2 is None for p in rp.pairings) == 1
    st = t.state()
    assert len(st.rounds) == 1 and not st.current.overrides  # the swap went with the old pairing
    start_clock(t, 50)
    extend(t, 2, 5, "deck check")
    called = call_time(t)
    assert len(called) == 2 and {e.kind for e in called} == {"clock.time_called"}
    view = clock_view(t.state().current)
    assert view["running"] and [x["extra_minutes"] for x in view["tables"]] == [0, 5]
    assert all(x["time_called"] for x in view["tables"])
    unpair_events = unpair(t, reason="wrong")  # before results: the round and its clock go
    assert {e.kind for e in unpair_events} == {"correction"} and t.state().rounds == []


def test_final_placings_and_the_stale_bracket_warning(store):
    t = event(store, 8, rounds=2, top_cut=4)
    for _ in range(2):
        t.pair()
        finish_round(t)
    t.top_cut()
    assert warnings(t.state()) == []
    # a Swiss result changed after the cut was paired: the organizer is warned
    seeds_before = [(p.player1, p.player2) for p in t.state().current.tables()]
    record_results(t, [(1, "0-2")], round_no=1, overwrite=True, reason="slip misread")
    ws = warnings(t.state())
    assert {w.kind for w in ws} == {"changed-after-pairing", "stale-bracket"}
    stale = next(w for w in ws if w.kind == "stale-bracket")
    assert "seed the Semifinals differently" in stale.message
    # reseed: the cut is paired again from the standings, the old bracket voided (it stays in the log)
    decide(t, stale.id, "reseed", "the slip was misread; the bracket must follow the standings")
    assert [w.kind for w in warnings(t.state())] == ["changed-after-pairing"]
    assert [(p.player1, p.player2) for p in t.state().current.tables()] != seeds_before
    assert len(t.state().elimination_rounds) == 1
    cap = next(w for w in warnings(t.state()) if w.kind == "changed-after-pairing")
    with pytest.raises(InputError, match="not a choice"):
        decide(t, cap.id, "repair", "x")
    decide(t, cap.id, "keep", "round 2 was already played")
    assert warnings(t.state()) == [] and warnings(t.state(), include_resolved=True)
    with pytest.raises(InputError, match="not over"):
        final_placings(t.state())
    finish_round(t)
    t.top_cut()
    finish_round(t, "1-2-0")
    places = final_placings(t.state())
    assert [p.place for p in places] == list(range(1, 9))
    assert sorted(p.player for p in places) == sorted(t.state().players)
    assert places[0].how == "won the Finals" and places[2].how == "lost in the Semifinals"
    with pytest.raises(InputError, match="placings"):
        t.top_cut()


def test_recorded_matches_are_created_from_pairings(store):
    t = event(store, 4)
    t.pair()
    made = create_matches(t, ruleset="op2009")
    assert sorted(made) == [1, 2]
    m = Match.open(store, made[1])
    assert set(m.players) == {t.state().current.tables()[0].player1, t.state().current.tables()[0].player2}
    assert m.events()[0].payload["event"] == t.id and m.events()[0].payload["table"] == "1"
    assert create_matches(t, ruleset="op2009") == made  # once per table


def test_create_matches_for_some_tables_says_only_those_tables(store):
    """Review: with `tables=`, the outcomes listed every other table of the round as `existing`,
    unlike its docstring (one TableOutcome per table of `tables`)."""
    from judge.tournament.rounds import TableOutcome
    t = event(store, 6)
    t.pair()
    create_matches(t, ruleset="op2009", tables=[1])
    outcomes: list[TableOutcome] = []
    made = create_matches(t, ruleset="op2009", tables=[2], outcomes=outcomes)
    assert [(o.table, o.status) for o in outcomes] == [(2, "created")] and made[2] == outcomes[0].match
    outcomes = []
    create_matches(t, ruleset="op2009", tables=[1, 3], outcomes=outcomes)
    assert [(o.table, o.status) for o in outcomes] == [(1, "existing"), (3, "created")]


def test_a_results_file_with_a_quote_left_open_is_refused_at_its_row():
    """QA 2026-11-26: `standings FILE.csv` read an open quote as a player named with the rest of the
    file (scored 1-0-0 with a bye)."""
    from judge.tournament.results import parse_results_csv

    text = 'round,player,opponent,wins,losses,draws\n1,Ann,Bob,1,0,0\n1,"Bob,Ann,0,1,0\n2,Ann,Cid,1,0,0\n'
    with pytest.raises(InputError) as e:
        parse_results_csv(text, "sr.csv")
    assert e.value.where == "sr.csv:3:3" and "unreadable CSV" in str(e.value)


def test_with_no_top_cut_the_final_placings_are_the_swiss_standings(store):
    """QA70 9: `tournament placings` on a Swiss-only event said "there is no top cut" (exit 2) and
    /api/t/T/placings answered null. The final Swiss standings are the final placings."""
    from judge.tournament.placings import placings_or_none

    t = event(store, 4, rounds=2)
    t.register_many([Entry("Zed", "M7")])
    t.pair()
    finish_round(t)
    t.pair()
    with pytest.raises(InputError, match=r"Swiss rounds are not over \(1 of 2 complete\)"):
        final_placings(t.state())
    finish_round(t)
    rows = placings_or_none(t.state())
    standings = t.state().standings().rows
    assert [(p["place"], p["player"], p["how"]) for p in rows] == [(r.rank, r.player, "Swiss standings")
                                                                 for r in standings]
    assert next(p["id"] for p in rows if p["player"] == "Zed") == "M7"


def test_a_bye_is_for_a_round_that_can_still_be_paired(store):
    """QA 2026-11-26: `bye --round 0` gave a bye in round 2; `--round 99999` was stored in a 3-round
    event. And placings before a declared top cut said there was none."""
    t = event(store, 6, rounds=3, top_cut=4)
    t.pair()
    for bad, words in ((0, "numbered from 1"), (1, "already paired"), (4, "3 Swiss rounds"), (99999, "no round 99999")):
        with pytest.raises(InputError, match=words):
            t.grant_bye("Player 00", bad)
    assert t.grant_bye("Player 00", 3).payload["round"] == 3
    with pytest.raises(InputError, match="top cut .top 4. has not been paired yet"):
        final_placings(t.state())
