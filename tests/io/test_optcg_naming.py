"""Two cut copies of one OPTCGSim game on either side of where the log first names player 2.

A copy cut before esempio.log names player 2 (its line 212) knows them by the simulator's
placeholder, "Player 2"; a copy cut after names them. Bug: a copy cut at 212 (placeholder: the
naming text line's move was cut off) then one cut at 214 (named) made two matches of one game, while
a copy cut at 151 was resumed by the same 214 copy: the set-ups differed and the names differed,
and a placeholder against a real name was taken for another pair of players. The property, for cuts
at every line from 140 to 240 paired with their neighbours and with the first cuts that name the
player, in both orders: one match, whose table replays as a fresh import of the copy kept (the
longer; of two with as many events, the first stored: a cut copy's last turn stays as first read,
docs/rulesets/optcg.md) with the seats as named now, and the real name shown once either copy named
the player, recorded by one `player.named` event at most."""
from __future__ import annotations

import os

import pytest

from engine.match import InputError, Match
from engine.names import NAMES, names_now
from engine.store import EventStore
from judge.io.importers import optcgsim
from judge.io.importers._optcgsim_copies import standing
from tests.rulesets.optcg.support import SIM_LOG

LINES = open(SIM_LOG, encoding="utf-8").read().split("\n")[:-1]
FIRST_NAMED = 212  # the first line naming player 2 ("[Theshyopop#27381] Drew card ...")
CUTS = range(140, 241)
ONE_WAY = {(k, b) for k in CUTS for b in (k + 1, k + 2, 214, 217) if b != k and b <= 240}  # 214, 217: the first named
PAIRS = sorted(ONE_WAY | {(b, a) for a, b in ONE_WAY})  # both orders


def _rename(value, names: dict[str, str]):
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, dict):
        return {_rename(k, names): _rename(v, names) for k, v in value.items()}
    return value


def _table(store: EventStore, match: str) -> dict:
    """The replayed table with the seats as named now and event positions counted among the game's
    standing events (a re-read match holds them after the voided ones and their corrections)."""
    state = Match(store, match).state()
    names = names_now(state)
    at = {e.position: i + 1 for i, e in enumerate(standing(store.read(match)))}
    d = state.to_dict()
    for k in ("voided", "position"):
        d.pop(k, None)
    d.get("extra", {}).pop(NAMES, None)
    return _rename(_positions(d, at), names)


def _positions(value, at):
    if isinstance(value, dict):
        return {k: (at.get(v, ("not standing", v)) if k in ("position", "damage_at")
                    else {p: at.get(n) for p, n in v.items()} if k == "shuffles" else _positions(v, at))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_positions(v, at) for v in value]
    return value


class Cuts:
    """esempio.log cut after its k-th line, and each cut imported alone (None: refused alone, a move
    cut from its RZ1|CHK line)."""

    def __init__(self, tmp: str):
        self.tmp = tmp
        self.alone: dict[int, tuple[dict, int, list[str]] | None] = {}

    def path(self, k: int) -> str:
        p = os.path.join(self.tmp, f"cut_{k}.log")
        if not os.path.exists(p):
            with open(p, "w", encoding="utf-8") as f:
                f.write("\n".join(LINES[:k]) + "\n")
        return p

    def fresh(self, k: int):
        """(table, events, players) of the cut imported into an empty log."""
        if k not in self.alone:
            store = EventStore.open(os.path.join(self.tmp, f"alone_{k}.db"))
            try:
                optcgsim.import_file(store, self.path(k))
            except InputError as e:
                assert "has no matching RZ1|CHK line" in str(e)
                self.alone[k] = None
            else:
                (m,) = store.match_ids()
                self.alone[k] = (_table(store, m), len(standing(store.read(m))), store.event_at(m, 1).payload["players"])
        return self.alone[k]


@pytest.fixture(scope="module")
def cuts(tmp_path_factory):
    return Cuts(str(tmp_path_factory.mktemp("cuts")))


def test_the_pairs_straddle_the_naming():
    assert {211, 212, 213, 214} <= {k for pair in PAIRS for k in pair}
    assert "Theshyopop" in LINES[FIRST_NAMED - 1] and not any("Theshyopop" in ln for ln in LINES[:FIRST_NAMED - 1])


@pytest.mark.parametrize("first", sorted({a for a, _ in PAIRS}))
def test_two_cut_copies_of_one_game_are_one_match_as_named_now(tmp_path, cuts, first):
    a_alone = cuts.fresh(first)
    for second in sorted(b for a, b in PAIRS if a == first):
        b_alone = cuts.fresh(second)
        if a_alone is None or b_alone is None:
            continue  # refused alone (a move cut from its check line): test_optcg_fuzz says it is refused after
        store = EventStore.open(str(tmp_path / f"{first}_{second}.db"))
        optcgsim.import_file(store, cuts.path(first))
        d = optcgsim.import_file(store, cuts.path(second)).to_dict()
        where = f"cut {first} then cut {second}: {d['games'][0].get('status')}"
        assert len(store.match_ids()) == 1, where
        (m,) = store.match_ids()
        assert store.verify(m).ok, where
        named = [e for e in store.read(m) if e.kind == "player.named"]
        stored_players, other_players = a_alone[2], b_alone[2]
        expected = [("Player 2", "Theshyopop#27381")] if stored_players[1] == "Player 2" != other_players[1] else []
        assert [(e.payload["player"], e.payload["name"]) for e in named] == expected, where
        shown = list(names_now(Match(store, m).state()).values())
        assert shown == (other_players if expected else stored_players), where
        assert "names_warning" not in d["games"][0], where
        kept = b_alone if b_alone[1] > a_alone[1] else a_alone  # the longer; of as long, the first stored
        assert _table(store, m) == _rename(kept[0], dict(zip(kept[2], shown))), where


def _namings(store: EventStore, match: str) -> list:
    return [e for e in store.read(match) if e.kind == "player.named"]


def test_a_copy_as_long_names_the_seat_once_and_a_voided_naming_stays_voided(tmp_path, cuts):
    """A copy that adds no event (as long as the stored one, or shorter) but names the seat the
    stored copy knew as "Player 2" records the name, once: not again from the same copy, the whole
    file or a longer cut; and never again once a judge voided it."""
    store = EventStore.open(str(tmp_path / "t.db"))
    optcgsim.import_file(store, cuts.path(212))
    g = optcgsim.import_file(store, cuts.path(214)).to_dict()["games"][0]
    (m,) = store.match_ids()
    assert g["status"].endswith("; Player 2 is now named Theshyopop#27381, from this copy") and "names_warning" not in g
    (named,) = _namings(store, m)
    assert named.actor == "-" and "named in another copy of the game, cut_214.log" in named.payload["reason"]
    again = optcgsim.import_file(store, cuts.path(214)).to_dict()["games"][0]
    assert "now named" not in again["status"] and len(_namings(store, m)) == 1
    Match(store, m).record("correction", {"voids": named.position, "reason": "not this player"}, actor="judge:Ann")
    for k in (217, 240):
        g = optcgsim.import_file(store, cuts.path(k)).to_dict()["games"][0]
        assert "now named" not in g["status"] and "names_warning" not in g
    whole = optcgsim.import_file(store, SIM_LOG).to_dict()["games"][0]
    assert whole["status"].startswith("resumed") and "now named" not in whole["status"]
    assert store.match_ids() == [m] and store.verify(m).ok and len(_namings(store, m)) == 1
    assert list(names_now(Match(store, m).state()).values()) == ["LeoIlPirata#3980", "Player 2"]


def test_a_folder_of_two_cut_copies_either_side_of_the_naming_is_one_match_named_once(tmp_path, cuts):
    """The folder import relates through the same Copies: cut 212 and cut 214 in one run, one match."""
    from judge.io.importers._optcgsim_bulk import import_files

    store = EventStore.open(str(tmp_path / "t.db"))
    result = import_files(store, [cuts.path(212), cuts.path(214)], workers=1)
    assert not result.failed
    (m,) = store.match_ids()
    assert [(e.payload["player"], e.payload["name"]) for e in _namings(store, m)] == [("Player 2", "Theshyopop#27381")]


def test_a_reread_copy_that_names_the_seat_reads_the_match_once_to_relate_and_builds_one_validator(
        tmp_path, cuts, monkeypatch):
    """Review: relating a copy read the stored match twice (to compare it, then again to see which
    seats the log names), and the corrections re-reading its last turn and the naming each built the
    match's validator. Cut 212 (placeholder) then cut 217 (named, re-reads the last turn): the match
    is read once to relate and once to resume (after the file's transaction), one validator."""
    store = EventStore.open(str(tmp_path / "t.db"))
    optcgsim.import_file(store, cuts.path(212))
    (m,) = store.match_ids()
    counts = {"reads": 0, "matches": 0}
    read = EventStore.read

    def reading(self, match, *a, **k):
        counts["reads"] += match == m and not a and not k  # the whole stored match
        return read(self, match, *a, **k)

    class Counted(Match):
        def __init__(self, *a, **k):
            counts["matches"] += 1
            super().__init__(*a, **k)
    monkeypatch.setattr(EventStore, "read", reading)
    monkeypatch.setattr(optcgsim, "Match", Counted)
    g = optcgsim.import_file(store, cuts.path(217)).to_dict()["games"][0]
    assert "read again" in g["status"] and "now named Theshyopop#27381" in g["status"]
    assert counts == {"reads": 2, "matches": 1}
    kinds = [e.kind for e in store.read(m)]
    assert kinds.count("correction") == 1 and kinds[-1] == "player.named"  # both drafted by the one validator
