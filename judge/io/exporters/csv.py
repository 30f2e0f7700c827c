"""CSV: one row per event, the payload as JSON in one column, plus the event in plain words."""
from __future__ import annotations

import json
from typing import TextIO

from engine.match import Match

from judge.io import csvcells

EXTENSION = "csv"
COLUMNS = ["match", "position", "kind", "version", "actor", "description", "payload",
           "recorded_at", "recorded_by", "voided", "prev_hash", "hash"]


def export_match(match: Match, out: TextIO) -> int:
    voided = set(match.state().voided)
    w = csvcells.writer(out)  # text starting = + - @ tab CR is neutralised (OWASP)
    w.writerow(COLUMNS)
    n = 0
    for e in match.events():
        w.writerow([e.match, e.position, e.kind, e.version, e.actor, match.ruleset.describe(e),
                    json.dumps(e.payload, ensure_ascii=False, sort_keys=True), e.recorded_at,
                    e.recorded_by, "yes" if e.position in voided else "", e.prev_hash, e.hash])
        n += 1
    return n
