"""OPTCGSim import under random damage, on every variant: lines dropped, repeated, swapped, altered,
fields of RZ1 lines replaced, the file cut at a line or inside one, lines of another variant spliced
in. Whatever the damage: never an exception other than InputError (no traceback reaches a user),
never a hang, and never half a file stored: either nothing, or every game it reports, whole, with
its hash chain intact. OPTCG_FUZZ_EXAMPLES sets the examples per variant (default 12)."""
from __future__ import annotations

import os
import signal
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.match import InputError, Match
from engine.store import EventStore
from judge.io.importers import optcgsim
from judge.io.importers._optcgsim_copies import standing
from tests.rulesets.optcg.support import HERE

FIXTURES = os.path.join(HERE, "fixtures", "optcgsim")
VARIANTS = ["esempio.log"] + [os.path.join("variants", n) for n in (
    "v1_hdr_140a_real.log", "v2_autosaved_140a_two_games.log", "v2b_rematch_without_hdr_140a.log",
    "v2c_autosaved_143a_two_games.log", "v3_ply_143a_autosaved.log", "v5_rich_markup_143a.log",
    "v6_quit_then_disconnect_143a.log", "v7_truncated_no_result_140a.log", "v8_own_view_143a.log")]
TEXT = {v: open(os.path.join(FIXTURES, v), encoding="utf-8").read() for v in VARIANTS}
EXAMPLES = int(os.environ.get("OPTCG_FUZZ_EXAMPLES", "12"))
HANG_SECONDS = 120  # not a speed bar: one import takes well under a second; this only stops a loop


@st.composite
def damaged(draw, name: str) -> str:
    lines = TEXT[name].split("\n")[:-1]
    for _ in range(draw(st.integers(1, 4))):
        if len(lines) < 3:
            break
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "dup", "swap", "char", "field", "splice", "cut"]))
        if how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(i, lines[i])
        elif how == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif how == "char" and lines[i]:
            j = draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:j] + draw(st.sampled_from(list("|0x9 -[]:\u200b#"))) + lines[i][j + 1:]
        elif how == "field" and lines[i].startswith("RZ1|"):
            parts = lines[i].split("|")
            k = draw(st.integers(1, len(parts) - 1))
            parts[k] = draw(st.sampled_from(["", "-1", "0", "2", "3", "9", "10", "99999", "HDR", "CHK", "PLY",
                                             "Don", "OP01-001", "1.43a", "\u0661"]))
            lines[i] = "|".join(parts)
        elif how == "splice":
            other = TEXT[draw(st.sampled_from(VARIANTS))].split("\n")[:-1]
            a = draw(st.integers(0, len(other) - 1))
            lines[i:i] = other[a:a + draw(st.integers(1, 60))]
        elif how == "cut":
            lines = lines[:max(i, 1)]
    text = "\n".join(lines) + "\n"
    if draw(st.integers(0, 9)) == 0:  # a write stopped inside a line
        text = text[:draw(st.integers(1, len(text) - 1))]
    return text


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"an import ran for more than {HANG_SECONDS} s")


def import_checked(tmp_path, text: str) -> None:
    path = tmp_path / f"f{uuid.uuid4().hex}.log"
    path.write_bytes(text.encode("utf-8"))
    store = EventStore.open(str(tmp_path / f"m{uuid.uuid4().hex}.db"))  # tmp_path is shared by examples
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_SECONDS)
    try:
        summary = optcgsim.import_file(store, str(path))
    except InputError as e:
        assert path.name in str(e)
        assert store.match_ids() == []  # nothing of a refused file
        return
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    d = summary.to_dict()
    stored = [g for g in d["games"] if g["stored"]]
    assert sorted(store.match_ids()) == sorted(g["match"] for g in stored)
    assert d["events"] == sum(g["events"] for g in stored)
    for g in stored:
        assert Match(store, g["match"]).head_position() == g["events"]
        assert store.verify(g["match"]).ok


@pytest.mark.parametrize("name", VARIANTS, ids=[os.path.basename(v) for v in VARIANTS])
def test_damaged_logs_import_whole_or_not_at_all(tmp_path, name):
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                           HealthCheck.too_slow])
    @given(text=damaged(name))
    def run(text):
        import_checked(tmp_path, text)

    run()


# --- a copy cut at any line end, imported before or after the whole file (issue #17) -------------
#
# The property, exactly: cut one of the real fixtures after a line, past its set-up and its opening
# (FIRST_TURN: the first line after which the cut copy holds a turn and 40 move lines; a copy cut in the set-up, where a mulligan's
# moves read otherwise without the lines after them, before both players are named, or inside the
# first 40 move and check lines, is a game of its own, said in docs/rulesets/optcg.md). A cut between a move and its RZ1|CHK line is refused as truncated, the
# cut copy alone or after the whole file (the log unchanged). Otherwise
# - whole file, then the cut copy: one match, the whole game's events; the cut copy is "already in
#   the log" (its unfinished last turn is not compared);
# - the cut copy, then the whole file: one match whose standing events (corrections and what they
#   void left out) are exactly the whole game's (resumed; when the cut copy's last turn was read
#   otherwise without the lines after the cut, about half the cuts of esempio.log, those events
#   voided by corrections and read again from the whole file); or, a copy cut after the game's ending line (the same
#   moves and ending: the same match id), "already in the log", the lines after the ending (chat)
#   not appended. Never two matches, never a mixed history.

FIRST_TURN = {"esempio.log": 369, os.path.join("variants", "v1_hdr_140a_real.log"): 116}  # v1: its 40th move
COPY_FIXTURES = list(FIRST_TURN)


def _game(store: EventStore, match: str) -> list[tuple[str, str, str]]:
    import json

    keep = lambda p: {k: v for k, v in p.items() if k not in ("line", "source")}  # noqa: E731  where it was read
    return [(e.kind, e.actor, json.dumps(keep(e.payload), sort_keys=True)) for e in standing(store.read(match))]


@pytest.mark.parametrize("name", COPY_FIXTURES, ids=[os.path.basename(v) for v in COPY_FIXTURES])
def test_a_cut_copy_and_the_whole_file_make_one_match(tmp_path, name):
    whole = os.path.join(FIXTURES, name)
    alone = EventStore.open(str(tmp_path / "alone.db"))
    optcgsim.import_file(alone, whole)
    expected = _game(alone, alone.match_ids()[0])
    lines = TEXT[name].split("\n")[:-1]

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(k=st.integers(FIRST_TURN[name], len(lines) - 1))
    def run(k):
        cut = tmp_path / f"cut{uuid.uuid4().hex}.log"
        cut.write_text("\n".join(lines[:k]) + "\n", encoding="utf-8")
        after = EventStore.open(str(tmp_path / f"a{uuid.uuid4().hex}.db"))
        optcgsim.import_file(after, whole)
        try:
            d = optcgsim.import_file(after, str(cut)).to_dict()
        except InputError as e:  # a move cut from its RZ1|CHK line: refused as truncated, alone or not
            assert "has no matching RZ1|CHK line" in str(e)
            assert len(after.match_ids()) == 1 and _game(after, after.match_ids()[0]) == expected
            return
        assert len(after.match_ids()) == 1 and _game(after, after.match_ids()[0]) == expected
        assert d["games"][0]["status"].startswith("already in the log") and d["events"] == 0
        before = EventStore.open(str(tmp_path / f"b{uuid.uuid4().hex}.db"))
        optcgsim.import_file(before, str(cut))
        held = _game(before, before.match_ids()[0])
        d = optcgsim.import_file(before, whole).to_dict()
        assert len(before.match_ids()) == 1 and before.verify(before.match_ids()[0]).ok
        if d["games"][0]["status"] == "already in the log":  # cut after the ending line: the same match id
            assert held == expected[:len(held)]  # the chat after the ending is not appended (documented)
            return
        assert _game(before, before.match_ids()[0]) == expected

    run()
