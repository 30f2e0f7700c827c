"""JSONL: one event envelope per line, hashes included. Importing it into an empty log with the same
match id rebuilds the identical chain (the importer checks every hash)."""
from __future__ import annotations

import json
from typing import TextIO

from engine.match import Match

EXTENSION = "jsonl"


def export_match(match: Match, out: TextIO) -> int:
    n = 0
    for e in match.events():
        out.write(json.dumps(e.to_dict(), ensure_ascii=False, sort_keys=True) + "\n")
        n += 1
    return n
