"""What the notation tests share: a match exported as notation text, and its events as tuples."""
from __future__ import annotations

import io

from engine.match import Match
from judge.io.exporters import notation as notation_export


def export_text(match: Match) -> str:
    buf = io.StringIO()
    notation_export.export_match(match, buf)
    return buf.getvalue()


def events_of(match: Match) -> list[tuple]:
    return [(e.kind, e.actor, e.payload) for e in match.events()]
