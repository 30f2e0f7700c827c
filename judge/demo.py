"""The demo: two real matches recorded into a fresh log, then judged as a head judge would.

1. Round 3, table 47 (generic `table` ruleset): a scorekeeper records a game event by event; one
   move is misrecorded and flagged at once, a judge is called, rules, and corrects it; a turn is
   skipped (flagged); Bob concedes; the players sign the result slip.
2. Round 3, table 12 (One Piece CardGame 2009, MM25 rules): a best-of-three recorded event by event;
   time is called during game 2; the end-of-time procedure ("Situazione Fine Tempo") decides the
   match and its decision is recorded with the rule quoted.
3. Round 3, table 5 (ONE PIECE CARD GAME, `optcg`): typed into the live recorder with card names
   (judge/demo_optcg.py); names in every output, the rules in English beside the Chinese rulebook's
   words, and the end-of-time policy quoting its source.
Then: the table at a chosen moment, validation, the hash chain, HTML reports (each match and the
round) and JSONL/CSV exports. Each step calls the same library functions as the CLI commands.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from importlib import resources
from typing import Any

from engine.match import Match
from engine.store import EventStore
from engine.words import plural

from judge import demo_optcg, desk, report
from judge.desk import timelimit
from judge.io.exporters import exporter
from judge.io.files import atomic_write, inside, safe_name
from judge.report.text import render_judged, render_state

BY = "demo-scorekeeper"

TABLE_47: list[tuple[str, str, dict[str, Any]]] = [
    ("judge:Zoe", "round.start", {"minutes": 50, "clock": "14:00"}),
    ("-", "setup", {"player": "Ann", "zone": "deck", "count": 20}),
    ("-", "setup", {"player": "Bob", "zone": "deck", "count": 20}),
    ("Ann", "draw", {"player": "Ann", "count": 5}),
    ("Bob", "draw", {"player": "Bob", "count": 5}),
    ("-", "counter", {"player": "Ann", "name": "life", "set": 5}),
    ("-", "counter", {"player": "Bob", "name": "life", "set": 5}),
    ("Ann", "turn", {"player": "Ann", "number": 1}),
    ("Ann", "move", {"player": "Ann", "from_zone": "hand", "to_zone": "field", "card": "OP01-016"}),
    ("Bob", "turn", {"player": "Bob", "number": 2}),
    ("Bob", "draw", {"player": "Bob", "count": 1, "cards": ["OP01-013"]}),
    ("Bob", "move", {"player": "Bob", "from_zone": "hand", "to_zone": "field", "card": "OP01-013"}),
    # Misrecorded: Bob trashed one card; the scorekeeper typed three.
    ("Bob", "move", {"player": "Bob", "from_zone": "field", "to_zone": "trash", "count": 3}),
    ("-", "judge.call", {"caller": "Ann", "reason": "the log says Bob trashed 3 cards", "at": 14}),
    ("judge:Zoe", "judge.ruling", {"text": "Bob trashed only OP01-013; the record is corrected", "call": 15}),
    ("judge:Zoe", "correction", {"voids": 14, "reason": "Bob trashed 1 card, not 3"}),
    ("judge:Zoe", "time.extension", {"minutes": 3, "reason": "ruling at the table"}),
    ("Bob", "move", {"player": "Bob", "from_zone": "field", "to_zone": "trash", "card": "OP01-013"}),
    ("Ann", "turn", {"player": "Ann", "number": 3}),
    ("Ann", "counter", {"player": "Bob", "name": "life", "add": -2}),
    ("Ann", "reveal", {"player": "Ann", "zone": "hand", "card": "OP01-025"}),
    # Illegal, and only caught by the validator: turn 4 was skipped.
    ("Bob", "turn", {"player": "Bob", "number": 5}),
    ("Bob", "concede", {"player": "Bob"}),
    ("-", "result.slip", {"result": "win", "winner": "Ann"}),
    ("Ann", "result.confirm", {"player": "Ann"}),
    ("Bob", "result.confirm", {"player": "Bob"}),
]


def op2009_best_of_three() -> list[dict[str, Any]]:
    """A hand-written MM25 best-of-three (also examples/op2009/best-of-three-fine-tempo.jsonl)."""
    text = resources.files("judge").joinpath("data/op2009-best-of-three.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run_demo(db_path: str, out_dir: str, echo: Callable[[str], None] = print) -> dict[str, Any]:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.remove(db_path + suffix)
    os.makedirs(out_dir, exist_ok=True)
    store = EventStore.open(db_path)
    try:
        return _run(store, db_path, out_dir, echo)
    finally:
        store.close()


def _run(store: EventStore, db_path: str, out_dir: str, echo: Callable[[str], None]) -> dict[str, Any]:
    echo(f"Demo Cup, round 3: three matches recorded into a fresh log, {db_path}\n")

    # 1. A dispute at table 47, recorded live -------------------------------------------------
    t47 = Match.create(store, "table", ["Ann", "Bob"], event="Demo Cup", round="3", table="47",
                       recorded_by=BY)
    echo(f"1. table 47 (ruleset table), match {t47.id}: recording {len(TABLE_47)} events")
    for actor, kind, payload in TABLE_47:
        rec = t47.record(kind, payload, actor=actor, recorded_by=BY)
        for f in rec.findings:
            echo(f"   event {rec.event.position} ({kind}) flagged as it was recorded: {f.rule} {f.message}")
    moment = 14
    echo(f"\n   the table right after event {moment}, as the judge saw it when called:")
    echo(_indent(render_state(t47.state(at=moment), t47.ruleset, head=t47.head_position(),
                              match_id=t47.id), 6))
    r47 = desk.review(t47)
    echo("\n   validation (every event judged against the table before it; paperwork checked):")
    echo(_indent(render_judged(r47.active_findings(), r47.void_findings()), 6))
    o = r47.outcome
    echo(f"   outcome: {o.winner} wins ({o.how})" if o and o.winner else f"   outcome: {o.result if o else 'none'}")

    # 2. A best-of-three at table 12, decided at time -----------------------------------------
    lines = op2009_best_of_three()
    created = lines[0]["payload"]
    t12 = Match.create(store, created["ruleset"], created["players"], event="Demo Cup", round="3",
                       table="12", recorded_by=BY)
    flagged = 0
    for line in lines[1:]:
        flagged += len(t12.record(line["kind"], line.get("payload", {}), actor=line.get("actor", "-"),
                                  recorded_by=BY).findings)
    echo(f"\n2. table 12 (ruleset op2009, MM25), match {t12.id}: {len(lines) - 1} events recorded, "
         f"{flagged} flagged; time was called during game 2")
    decision = timelimit.run(t12, judge="judge:Carla", recorded_by=BY)
    echo(_indent(timelimit.text_report(decision), 3))
    r12 = desk.review(t12)

    # 3. Integrity, reports, exports ----------------------------------------------------------
    t5 = demo_optcg.run(store, echo, _indent)
    m5, r5 = t5["match"], t5["review"]

    echo("\n4. integrity and files")
    verified = True
    for m in (t47, t12, m5):
        v = store.verify(m.id)
        verified &= v.ok
        echo(f"   {m.id}: hash chain {'ok' if v.ok else 'BROKEN'}, {plural(v.events, 'event')}, head {v.head_hash[:16]}…")
    files, _ = report.write_round_report(store, "3", event="Demo Cup", out_dir=out_dir)  # + each match
    for m in (t47, t12, m5):
        for fmt in ("jsonl", "csv"):
            mod = exporter(fmt)
            path = inside(out_dir, f"{safe_name(m.id)}.{mod.EXTENSION}")
            with atomic_write(path, newline="") as f:
                mod.export_match(m, f)
            files.append(path)
    for path in files:
        echo(f"   wrote {path}")
    echo(f"\n   open {files[0]} in a browser; the log itself: tablejudge --db {db_path} matches")
    return {
        "db": db_path,
        "matches": [
            {"match": t47.id, "ruleset": "table", "events": t47.head_position(),
             "findings": [f.rule for f in r47.active_findings()],
             "outcome": r47.outcome.to_dict() if r47.outcome else None},
            {"match": t12.id, "ruleset": "op2009", "events": t12.head_position(),
             "findings": [f.rule for f in r12.active_findings()],
             "time_decision": decision.decision.to_dict()},
            {"match": m5.id, "ruleset": "optcg", "events": m5.head_position(),
             "findings": [f.rule for f in r5.active_findings()],
             "time_decision": t5["decision"].decision.to_dict()},
        ],
        "verified": verified,
        "files": files,
    }


def _indent(text: str, n: int) -> str:
    return "\n".join(" " * n + line for line in text.splitlines())
