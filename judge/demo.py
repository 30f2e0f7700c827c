"""The demo: a short real match recorded into a fresh log, then judged like a head judge would.

It records a game (with one illegal move and a judge's correction), shows the table at a chosen
moment, validates the log (findings with rule ids), verifies the hash chain, and writes exports.
Each step uses the same library calls as the CLI commands.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from engine.match import Match
from engine.store import EventStore

from .exporters import exporter
from .text import render_findings, render_state

DEMO_SCRIPT: list[tuple[str, str, dict[str, Any]]] = [
    ("-", "note", {"text": "Round 3, table 47: judge present at the table"}),
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
    # Misrecorded: Bob said "two cards to the trash" but the scorekeeper typed field -> trash x3.
    ("Bob", "move", {"player": "Bob", "from_zone": "field", "to_zone": "trash", "count": 3}),
    ("judge:Zoe", "correction", {"voids": 14, "reason": "scorekeeper typed 3 cards, Bob trashed 1"}),
    ("Bob", "move", {"player": "Bob", "from_zone": "field", "to_zone": "trash", "card": "OP01-013"}),
    ("Ann", "turn", {"player": "Ann", "number": 3}),
    ("Ann", "counter", {"player": "Bob", "name": "life", "add": -1}),
    ("Ann", "reveal", {"player": "Ann", "zone": "hand", "card": "OP01-025"}),
    # An illegal move the validator must flag: a turn number skipped.
    ("Bob", "turn", {"player": "Bob", "number": 5}),
    ("Bob", "concede", {"player": "Bob"}),
]


def run_demo(db_path: str, out_dir: str, echo: Callable[[str], None] = print) -> dict[str, Any]:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.remove(db_path + suffix)
    os.makedirs(out_dir, exist_ok=True)
    store = EventStore.open(db_path)
    try:
        match = Match.create(store, "table", ["Ann", "Bob"], event="Demo Cup", round="3",
                             table="47", recorded_by="demo-scorekeeper")
        echo(f"1. recorded match {match.id} into {db_path}")
        for actor, kind, payload in DEMO_SCRIPT:
            rec = match.record(kind, payload, actor=actor, recorded_by="demo-scorekeeper")
            for f in rec.findings:
                echo(f"   event {rec.event.position} ({kind}) flagged at once: {f.rule} {f.message}")
        head = match.head_position()
        echo(f"   {head} events recorded")

        moment = 13
        echo(f"\n2. the table right after event {moment} (what a judge asks during a dispute):")
        echo(_indent(render_state(match.state(at=moment), match.ruleset, head=head, match_id=match.id)))

        validation = match.validate()
        echo("\n3. validation (every event judged against the table before it):")
        echo(_indent(render_findings(validation.findings, validation.backed_out)))

        outcome = match.ruleset.outcome(validation.state)
        echo(f"\n4. outcome: {outcome.winner} wins ({outcome.how})" if outcome else "\n4. no outcome yet")

        report = store.verify(match.id)
        echo(f"\n5. integrity: {'ok' if report.ok else 'FAILED'}; head hash {report.head_hash}; "
             f"{report.guard_detail}")

        written = []
        for fmt in ("jsonl", "csv"):
            mod = exporter(fmt)
            path = os.path.join(out_dir, f"demo-{match.id}.{mod.EXTENSION}")
            with open(path, "w", encoding="utf-8", newline="") as f:
                mod.export_match(match, f)
            written.append(path)
        echo("\n6. exports: " + ", ".join(written))
        return {"match": match.id, "events": head, "findings": len(validation.active_findings()),
                "verified": report.ok, "outcome": outcome.to_dict() if outcome else None,
                "files": written}
    finally:
        store.close()


def _indent(text: str) -> str:
    return "\n".join("   " + line for line in text.splitlines())
