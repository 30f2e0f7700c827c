"""The demo's ONE PIECE CARD GAME match (round 3, table 5): a scorekeeper types it into the live
recorder saying card names, as players do, with no card data imported (the snapshot ships). The log
stores numbers; the echo, the findings, the state and the report show names, and the rules in English.
Time is called in turn 3 and the `bandai` end-of-time policy decides, quoting its source."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.match import Match
from engine.store import EventStore

from judge import desk
from judge.desk import timelimit
from judge.live import LiveSession
from judge.report.text import render_findings, render_state

BY = "demo-scorekeeper"

ANN_DECK = ("OP01-060 4xOP01-064 4xOP01-073 4xOP01-076 4xOP01-077 4xOP01-078 4xOP01-079 4xOP01-080 "
            "4xOP01-081 4xOP01-082 4xOP01-083 4xOP01-084 4xOP01-085 2xOP01-072")   # Doflamingo, Blue
BOB_DECK = ("OP01-001 4xOP01-004 4xOP01-006 4xOP01-013 4xOP01-015 4xOP01-016 4xOP01-017 4xOP01-024 "
            "4xOP01-025 4xST01-006 4xST01-005 4xST01-009 4xST01-011 2xOP01-021")  # Zoro, Red

# What the scorekeeper types: names where players say names (each is one card in this match).
LINES = [
    f"A: deck {ANN_DECK}",
    f"B: deck {BOB_DECK}",
    "A: order A B",
    "A: draw perona alvida hancock monet bellamy",  # a feature match: the hands are on camera
    "B: draw nami otama luffy usopp brook",
    "A: mulligan keep",
    "B: mulligan keep",
    "A: life 5",
    "B: life 5",
    "T1 A: refresh · don 1 · play perona",
    "A: pass",
    "T2 B: refresh · draw vivi · don 2 · play nami · play otama",
    "B: play chopper",  # two different Choppers in Bob's deck: refused, the candidates listed
    "B: pass",
    "T3 A: refresh · draw mocha · don 2 · play alvida",
    "A: attach 1 OP01-060 · attack OP01-060>OP01-001",
    "damage",
    "B: dmg",
    "battle.end",
    "judge Carla: time 14:35",
    "A: pass",
    "T4 B: refresh · draw · don 2 · play luffy",
    "B: attack luffy>OP01-060",  # Luffy came into play this turn and has no [Rush]: flagged
    "damage · battle.end",
    "B: pass",
    "T5 A: refresh · draw · don 2 · pass",
    "T6 B: refresh · draw · don 2 · pass",
]


def run(store: EventStore, echo: Callable[[str], None], indent: Callable[[str, int], str]) -> dict[str, Any]:
    m = Match.create(store, "optcg", ["Ann", "Bob"], event="Demo Cup", round="3", table="5", recorded_by=BY)
    echo(f"\n3. table 5 (ruleset optcg, ONE PIECE CARD GAME), match {m.id}: the scorekeeper says card names;")
    echo("   nothing was imported: the card data ships with tablejudge")
    live = LiveSession(m, judge="Carla", recorded_by=BY)
    shown = 0
    for line in LINES:
        reply = live.handle(line)
        if line.startswith(("A: draw", "B: play chopper", "B: attack", "T3 A", "B: dmg")) or reply.findings \
                or reply.refused:
            echo(f"   > {line}")
            echo(indent(reply.text, 3))
            shown += 1
    echo("\n   the table after turn 3's attack, as `tablejudge state` shows it:")
    at = next(e.position for e in m.events() if e.kind == "life.taken")
    echo(indent(render_state(m.state(at=at), m.ruleset, head=m.head_position(), match_id=m.id,
                             names=live.names()), 6))
    r = desk.review(m)
    echo("\n   findings, the rule in English and in the rulebook's words (tablejudge --lang both validate):")
    echo(indent(render_findings(r.findings, r.voided, names=live.names(), lang="both"), 6))
    decision = timelimit.run(m, "bandai", judge="judge:Carla", recorded_by=BY)
    echo("\n   time was called in turn 3: the end-of-time policy decides, quoting its source")
    echo(indent(timelimit.text_report(decision), 6))
    return {"match": m, "review": desk.review(m), "decision": decision}
