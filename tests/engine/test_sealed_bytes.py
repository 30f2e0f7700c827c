"""What an append stores, byte for byte, is what it stored before the schema check and the sealing
were made faster: fixed inputs (time and write id fixed) through parse, to_dict, envelope_parts
and chain give the hashes, rows and refusals recorded in tests/fixtures/engine/sealed_930f011.json.
That file was written by this module's __main__ run against the code at 930f011 (before the
change): `cd /work/base && PYTHONPATH=. python /path/to/tests/engine/test_sealed_bytes.py`."""
from __future__ import annotations

import hashlib
import json
import random
import types
import typing
from pathlib import Path

from engine.canonical import GENESIS_HASH
from engine.events import CORE_KINDS, chain, envelope_parts
from engine.rulesets import get_ruleset
from engine.schema import Count, ParseContext, PayloadError, Player, PositiveCount, Zone

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "engine" / "sealed_930f011.json"
PLAYERS = ("Ann", "Zoë 鈴木")
# no control character: refused since QA71 item 3 (930f011 stored them), so the fixture was written
# again at 930f011 with these inputs; a quote, a backslash and U+2028 keep canonical JSON's escaping
TEXTS = ["Ann", "Zoë 鈴木", "", "x", "a\"quote\\and/slash", "\u2028", "🂡", "deck", "hand", "top", "bottom",
         "\ud800", "x" * 4001, "field", "trash", "life"]
NUMBERS = [0, 1, 2, -1, 7, 60, 200, 201, 10 ** 9, 10 ** 9 + 1, 1.5, True, None]


def plausible(tp, rng: random.Random):
    """A value of type `tp`, valid but for a few in ten (then anything from TEXTS or NUMBERS)."""
    if rng.random() < 0.08:
        return rng.choice(rng.choice([TEXTS, NUMBERS]))
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in (Count, PositiveCount):
        return rng.choice([1, 2, 7, 60])
    if tp is int or tp is float:
        return rng.choice([0, 5, -3, 10 ** 9, 1.5] if tp is float else [0, 5, -3, 10 ** 9])
    if tp is bool:
        return rng.random() < 0.5
    if tp is Player:
        return rng.choice(PLAYERS)
    if tp is Zone:
        return rng.choice(["deck", "hand", "field", "trash"])
    if tp is str:
        return rng.choice(TEXTS[:11])
    if origin is typing.Literal:
        return rng.choice(args)
    if origin in (typing.Union, types.UnionType):
        return None if rng.random() < 0.2 else plausible(next(a for a in args if a is not type(None)), rng)
    if origin is list:
        return [plausible(args[0], rng) for _ in range(rng.randint(0, 3))]
    if origin is dict:
        return {rng.choice(TEXTS[:11]): plausible(args[1], rng) for _ in range(rng.randint(0, 3))}
    return rng.choice([None, 1, -2.5, "Zoë", [1, "a", {"b": None}], {"z": {"y": [True]}, "a": 1}])


def cases() -> list[tuple[str, str, dict]]:
    """(kind, actor, payload) for every kind of the `table` ruleset and the core: mostly valid
    values, some refused, now and then a field missing or one that is not there."""
    rng = random.Random(930)
    vocab = {**get_ruleset("table").vocabulary(), **CORE_KINDS}
    out = []
    for i in range(1500):
        kind = sorted(vocab)[i % len(vocab)]
        payload = {name: plausible(tp, rng) for name, tp, required, _ in vocab[kind]._spec
                   if (required and rng.random() < 0.97) or rng.random() < 0.4}
        if rng.random() < 0.03:
            payload["nope"] = 1
        out.append((kind, rng.choice(PLAYERS + ("-", "judge:Éva")), payload))
    return out


def run() -> dict:
    vocab = {**get_ruleset("table").vocabulary(), **CORE_KINDS}
    ctx = ParseContext(players=PLAYERS, zones=tuple(get_ruleset("table").zones), max_cards=200)
    prev, rows, hashes, refusals = GENESIS_HASH, hashlib.sha256(), [], []
    for i, (kind, actor, payload) in enumerate(cases()):
        try:
            data = vocab[kind].parse(payload, ctx).to_dict()
        except PayloadError as e:
            refusals.append([i, e.field, e.message])
            continue
        parts = envelope_parts(match="m-fixed", position=len(hashes) + 1, kind=kind, version=vocab[kind].version,
                               actor=actor, payload=data, recorded_at="2026-11-27T04:01:15.123Z",
                               recorded_by="Zoë 鈴木", write_id="00ff00ff00ff00ff" if i % 7 == 0 else None)
        prev, stored = chain(parts, prev)
        rows.update(stored)
        hashes.append(prev)
    # each hash names the one before it: the last one and a digest of the rows say all of them
    return {"events": len(hashes), "last_hash": prev, "rows_sha256": rows.hexdigest(), "refusals": refusals}


def test_the_stored_bytes_hashes_and_refusals_are_as_before():
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    got = run()
    assert got["events"] > 700 and len(got["refusals"]) > 200  # both paths are exercised
    assert got["refusals"] == expected["refusals"]
    assert (got["events"], got["last_hash"], got["rows_sha256"]) == \
        (expected["events"], expected["last_hash"], expected["rows_sha256"])


if __name__ == "__main__":
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(run(), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print("wrote", FIXTURE)
