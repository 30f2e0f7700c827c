"""What the notation tests share: a match exported as notation text, and its events as tuples."""
from __future__ import annotations

import io

from engine.match import Match
from judge.io.exporters import notation as notation_export
from judge.io.importers import notation as notation_import


def export_text(match: Match) -> str:
    buf = io.StringIO()
    notation_export.export_match(match, buf)
    return buf.getvalue()


def events_of(match: Match) -> list[tuple]:
    return [(e.kind, e.actor, e.payload) for e in match.events()]


def assert_round_trip(store, match: Match, folder, what: str = "") -> str:
    """Export `match` as notation text, import the text into `store` as a new match, and check the
    copy: the same events, the same table, and the same text again (the export is canonical: a
    fixed point). Returns the text."""
    text = export_text(match)
    path = folder / "game.txt"
    path.write_text(text, encoding="utf-8")
    copy = Match(store, notation_import.import_file(store, str(path)).match)
    assert events_of(copy) == events_of(match), what or text
    assert copy.state().state_hash() == match.state().state_hash(), what or text
    assert export_text(copy) == text, what or text
    return text
