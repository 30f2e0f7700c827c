"""Notation import: a game written in the text notation (docs/notation.md), all or nothing.

The header block names the ruleset and the players (and may carry event, round, table, options,
decklists and the match id), so a notation file creates its match. With `--match`, the file's body
is appended to an existing match instead (its header must then name the same ruleset and players),
unless the match already holds its events (imported before?): see _tail.py.
Every line is parsed and validated before anything is stored; a problem is an InputError naming
FILE:LINE:COL and what was expected there. For a game the card data covers (optcg), a card may be
written by name (`A: play hancock`, `"Boa Hancock"`: the number is stored), narrowed as the live
recorders narrow it (judge/io/cardresolve.py: the player's own cards, then their Leader's colours), and
every name so narrowed is in the summary's `card_notes` with its file and line, in the recorders' words;
a name still ambiguous is refused with the candidates at FILE:LINE:COL, nothing stored. A card number
the card data lacks (a typo?) is stored as written and said in the summary's `notices`, with its file and
line, as the recorders say it. `[Deck]` tags get each card's facts from the card data.
"""
from __future__ import annotations

from engine.match import InputError, Match, new_match_id
from engine.store import EventStore, MatchNotFound

from engine.notation import NotationError, ReadGame, read_game
from engine.notation.header import contradiction, parse_header
from judge.io import carddb
from judge.io.importers import ImportSummary, findings_after
from judge.io.importers._tail import onto_tail
from judge.io.text import read_text


def import_file(store: EventStore, path: str, *, match: str | None = None,
                recorded_by: str | None = None, expect: int | None = None, again: bool = False,
                resume: bool = False) -> ImportSummary:
    db = carddb.for_store(store)
    text = read_text(path)
    existing = _existing(store, path, match, text) if match else None
    # appended, the file's turn headers may count on from the match's turn (read_game `continues`)
    game = read_game(text, path, recorded_by=recorded_by,
                     cards=lambda ruleset: carddb.match_cards(ruleset, db),
                     continues=existing.state() if existing else None)
    summary = _store(store, path, game, existing, expect, again, resume)
    summary.extra["card_notes"] = [{"file": path, "line": line, "note": note} for line, note in game.notes]
    summary.extra["notices"] = [{"file": path, "line": line, "notice": n} for line, n in game.notices]
    return summary


def _existing(store: EventStore, path: str, match: str, text: str) -> Match:
    """The match a file is appended to, once its header is seen to describe it (before the body is
    read on from that match's table)."""
    try:
        existing = Match.open(store, match)
    except MatchNotFound as e:
        raise InputError(str(e), where=path, field="match") from None
    try:
        header = parse_header(text.splitlines())
    except NotationError:
        return existing  # read_game names the problem with its place
    problem = contradiction(header, existing)
    if problem:
        raise NotationError(f"{problem}: this file is not that match's", line=1, col=1, path=path)
    return existing


def _store(store: EventStore, path: str, game: ReadGame, existing: Match | None, expect: int | None,
           again: bool, resume: bool) -> ImportSummary:
    if existing is not None:
        if any(d.kind in ("correction", "backup") for d in game.drafts):
            raise NotationError("a file with void/backup lines names positions of its own log: import it "
                                "as a new match, not with --match", line=1, col=1, path=path)
        head = existing.head_position() if expect is None else expect
        return onto_tail(store, path, existing.id, head, game.drafts, again=again, resume=resume,
                         placed=expect is not None)
    match_id = game.header.match or new_match_id()
    events = store.create(match_id, [game.created] + game.drafts)
    return ImportSummary(file=path, match=match_id, events=len(events), created=True,
                         findings=findings_after(store, match_id, events[0].position))
