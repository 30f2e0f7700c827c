"""QA84 #4: the commands the tool prints hold placeholders (`--actor judge:NAME`, `--judge NAME`,
`--reason "..."`) for the judge to fill in. Copied as printed, they were stored as typed (a decision
by judge:NAME, a correction whose reason is "..."): refused now, nothing stored, the real name or
reason asked for. And the decide-again hint of a result whose decision was voided prints
`--judge NAME` like the others (without it, the decision was recorded as the OS user)."""
from __future__ import annotations

import json
import shlex

from tests.conftest import run_in_process
from tests.desk.test_appealed_facts_decision import _commands, _taken_and_overturned


def _refused(db, m, args: str, said: str) -> None:
    before = len(m.events())
    code, out, err = run_in_process(db, *shlex.split(args))
    assert code == 2 and said in err and "Nothing was stored" in err and len(m.events()) == before, out + err


def test_the_printed_commands_copied_with_their_placeholders_are_refused(tmp_path):
    db, m, t, slip, decision = _taken_and_overturned(tmp_path)
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    void = _commands(out, "Void it and decide again")[0]
    assert "--actor judge:NAME" in void, out
    _refused(db, m, void, "judge:NAME is the placeholder of a printed command")
    _refused(db, m, f'log {m.id} correction --actor judge:Kim --voids {decision} --reason "..."',
             '"..." is the placeholder of a printed command: put the real reason')
    _refused(db, m, f"log {m.id} correction --actor=judge:NAME --voids {decision} --reason x", "judge:NAME")
    assert run_in_process(db, *shlex.split(void.replace("NAME", "Kim")))[0] == 0

    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and "no outcome now" in out, out
    decide, _again, by_hand = _commands(out, "no outcome now")[:3]
    assert decide == f"timelimit {m.id} --facts \"turn=? life=?-?\" --judge NAME", out  # was without --judge
    decide = decide.replace("turn=?", "turn=3").replace("life=?-?", "life=3-2")
    _refused(db, m, decide, "--judge NAME: NAME is the placeholder")
    _refused(db, m, decide.replace("--judge", "-j"), "-j NAME")
    code, out, err = run_in_process(db, *shlex.split(decide.replace("NAME", "Kim")))
    assert code == 0 and m.events()[-1].actor == "judge:Kim", out + err

    by_hand = by_hand.replace("W-L-D", slip("Ann"))
    assert by_hand.endswith('--reason "..."'), by_hand
    code, out, err = run_in_process(db, *shlex.split(by_hand), "--json")
    assert code == 2 and json.loads(out)["error"]["field"] == "reason", out + err
    assert all(e.payload.get("reason") != "..." for e in t.events()), "nothing stored"

    # only where a name or a reason is asked for: a note's text may say NAME or ...
    for text in ("NAME", "..."):
        assert run_in_process(db, "log", m.id, "note", "--text", text)[0] == 0


def test_near_misses_of_the_placeholders_are_refused_as_they_are(tmp_path):
    """QA LOW: a hint's placeholder copied a little off was stored as typed: `--judge …` (U+2026),
    "judge: NAME" with a space, `--reason "…"` or "....", a template's `<name>`. Refused as the exact
    ones are, in the same words."""
    from engine.match import Match
    from engine.store import EventStore

    db = str(tmp_path / "t.db")
    m = Match.create(EventStore.open(db), "optcg", ["Ann", "Bob"], round="1", table="1")
    decide = f'timelimit {m.id} --facts "turn=3 life=2-3"'
    _refused(db, m, f"{decide} --judge …", "--judge …: … is the placeholder of a printed command, not a name")
    _refused(db, m, f'{decide} --judge "judge: NAME"', '--judge "judge: NAME": "judge: NAME" is the placeholder')
    _refused(db, m, f"{decide} -j '<name>'", "-j <name>: <name> is the placeholder")
    _refused(db, m, f'log {m.id} note --text x --actor "judge: NAME"', '"judge: NAME" is the placeholder')
    _refused(db, m, f"log {m.id} note --text x --actor judge:…", "judge:… is the placeholder")
    for reason in ("…", "....", ". . ."):
        _refused(db, m, f'log {m.id} correction --actor judge:Kim --voids 1 --reason "{reason}"',
                 f'--reason "{reason}": "{reason}" is the placeholder of a printed command: put the real reason')
    # a real name or reason that only holds such characters is stored
    assert run_in_process(db, "log", m.id, "note", "--text", "x", "--actor", "judge:Kim <K>")[0] == 0
    assert run_in_process(db, *shlex.split(f'{decide} --judge "N. Ame"'))[0] == 0


def test_a_player_named_NAME_may_be_the_actor(tmp_path):
    """QA LOW: `--actor NAME` was refused as the placeholder even in a match with a player named
    NAME, who then could not act. Refused only where the match has no such player (`log` knows the
    match); `judge:NAME` stays a placeholder everywhere."""
    from engine.match import Match
    from engine.store import EventStore

    db = str(tmp_path / "t.db")
    named = Match.create(EventStore.open(db), "table", ["NAME", "Bob"])
    code, out, err = run_in_process(db, "log", named.id, "note", "--text", "x", "--actor", "NAME")
    assert code == 0 and named.events()[-1].actor == "NAME", out + err
    assert run_in_process(db, "log", named.id, "note", "--text", "x", "-a", "NAME")[0] == 0
    _refused(db, named, f"log {named.id} note --text x --actor judge:NAME", "judge:NAME is the placeholder")

    other = Match.create(EventStore.open(db), "table", ["Ann", "Bob"])
    _refused(db, other, f"log {other.id} note --text x --actor NAME", "--actor NAME: NAME is the placeholder")
    code, out, _ = run_in_process(db, "log", other.id, "note", "--text", "x", "--actor", "NAME", "--json")
    assert code == 2 and json.loads(out)["error"]["field"] == "actor", out


def test_look_alikes_of_NAME_are_refused_and_real_names_are_not(tmp_path):
    """QA86 #9: `[NAME]`, `{name}`, the full-width ＮＡＭＥ, `name`, `NAME.` and `HEAD JUDGE NAME` were
    stored as a judge's name. Read as words (NFKC, case-folded, brackets and punctuation dropped), a
    name made only of a form's words, "name" among them, is refused; a real name is stored."""
    from engine.match import Match
    from engine.store import EventStore

    db = str(tmp_path / "t.db")
    m = Match.create(EventStore.open(db), "optcg", ["Ann", "Bob"])
    for name in ("[NAME]", "{name}", "ＮＡＭＥ", "name", "NAME.", "HEAD JUDGE NAME", "Judge Name"):
        _refused(db, m, f"judge ruling {m.id} --text t --judge {shlex.quote(name)}", "is the placeholder")
    _refused(db, m, f"log {m.id} note --text x --actor 'judge:[NAME]'", "is the placeholder")
    for real in ("Nam", "Name Rossi", "Judge Dredd", "Namé"):
        code, out, err = run_in_process(db, "judge", "ruling", m.id, "--text", "t", "--judge", real)
        assert code == 0 and m.events()[-1].actor == f"judge:{real}", out + err


def test_the_global_by_NAME_is_refused_as_judge_NAME_is(tmp_path):
    """QA88 MED-5: the root's `--by NAME` (who is typing; `--help` prints it so, and `--judge` defaults
    to it) was stored as typed: `--by NAME timelimit M` recorded judge:NAME, `--by NAME log M note`
    recorded_by NAME. Refused in the same words as `--judge NAME`, nothing stored; a real name is
    stored, and a command's own `--by` is not read as the root's (`tournament pairings --by name`)."""
    from engine.match import Match
    from engine.store import EventStore

    db = str(tmp_path / "t.db")
    m = Match.create(EventStore.open(db), "optcg", ["Ann", "Bob"])
    _refused(db, m, f"--by NAME judge ruling {m.id} --text t",  # -j/--judge defaults to --by: judge:NAME
             "--by NAME: NAME is the placeholder of a printed command, not a name")
    _refused(db, m, f"--by NAME log {m.id} note --text hi", "--by NAME: NAME is the placeholder")
    _refused(db, m, f"--by=[NAME] log {m.id} note --text hi", "--by [NAME]: [NAME] is the placeholder")
    _refused(db, m, f"--lang en --by 'Judge Name' log {m.id} note --text hi", '"Judge Name" is the placeholder')
    code, out, _ = run_in_process(db, "--by", "NAME", "log", m.id, "note", "--text", "hi", "--json")
    assert code == 2 and json.loads(out)["error"]["field"] == "by", out
    for real in ("Namehta", "Jo Name", "JUDGE", "N"):
        code, out, err = run_in_process(db, "--by", real, "log", m.id, "note", "--text", "hi")
        assert code == 0 and m.events()[-1].recorded_by == real, out + err
    code, out, err = run_in_process(db, "--by", "Kim", "judge", "ruling", m.id, "--text", "t")
    assert code == 0 and m.events()[-1].actor == "judge:Kim", out + err

    from judge.tournament.aggregate import Tournament
    t = Tournament.create(EventStore.open(db), name="Cup", game="optcg", seed="7", rounds=1)
    for p in ("Ann", "Bob"):
        t.register(p)
    t.pair()
    code, out, err = run_in_process(db, "tournament", "pairings", t.id, "--by", "name")
    assert code == 0 and "Ann" in out, out + err
