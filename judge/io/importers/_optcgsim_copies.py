"""An OPTCGSim game the log may already hold a copy of, cut short or whole: what to do with it.

One job: relate a game read from a file to the stored games that open alike. A game's match id
starts with its opening (the first moves: the set-up names every card as it leaves the shuffled
deck) and ends with its whole move stream and ending (`optcgsim.match_id`), so the copies of one
game share the id's first OPENING_HEX digits whatever their length.

Compared event by event with _resume.py's comparison (the same as a JSONL re-import):
- the same move stream and ending (same match id, or the id an earlier tablejudge gave it) ->
  "already in the log";
- the file's copy is the start of the stored game -> "already in the log (this copy is shorter)";
- the stored game is the start of the file's copy (the stored one was cut: a crash) -> the rest
  is appended ("resumed", _resume.onto_stored);
- they differ at an event -> the game is refused, naming the match, the line and the event.
A copy with no ending line may have been cut: the events of its last turn were read without the
lines after the cut (which say whose effect moved a card, or what rested DON!! paid for), so they
are not compared when the file's copy is the shorter one; when the stored copy is the shorter one,
they cannot be taken back, and a difference there is refused in words that say so.
Two copies that both have an ending line and differ are two games (a rematch that opens alike;
the rebuilt fixtures of tests/fixtures/optcgsim/variants do, a real shuffle does not).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.events import Draft, RecordedEvent
from engine.match import InputError
from engine.store import EventStore

from judge.io.importers._resume import first_difference

OPENING_HEX = 6   # hex digits of a match id that are the game's opening
ENDING_KINDS = ("concede", "game.end")


@dataclass
class Copy:
    """What the log holds of one game of a file: `how` is "new", "same", "shorter" or "resume";
    `match` the stored match (for "new", the game's own id)."""

    how: str
    match: str
    detail: dict[str, Any]


def relate(store: EventStore, game: Any, path: str, openings: dict[str, list[str]]) -> Copy:
    """`game`: an optcgsim.GameResult; `openings`: opening digits -> stored match ids (see
    `by_opening`). Raises InputError for a copy that differs from the stored game."""
    if store.head(game.match) is not None or store.head(game.fingerprint[:10]) is not None:
        return Copy("same", game.match if store.head(game.match) is not None else game.fingerprint[:10], {})
    for match in openings.get(game.match[:OPENING_HEX], []):
        copy = _against(store.read(match), game, path, match)
        if copy is not None:
            return copy
    return Copy("new", game.match, {})


def by_opening(match_ids: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for m in match_ids:
        out.setdefault(m[:OPENING_HEX], []).append(m)
    return out


def comparable(drafts: list[Draft], stored: list[RecordedEvent]) -> list[Draft]:
    """The file's drafts with each deck's `source` (the file it was read from) as the stored copy
    says it: which file a copy came from is not the game, and the stored copy's stands."""
    out = list(drafts)
    for i, (d, e) in enumerate(zip(drafts, stored)):
        if d.kind == e.kind == "deck.registered" and "source" in e.payload:
            out[i] = d._replace(payload={**d.payload, "source": e.payload["source"]})
    return out


def _against(stored: list[RecordedEvent], game: Any, path: str, match: str) -> Copy | None:
    drafts = comparable(game.drafts, stored)
    n = len(drafts)
    diff = first_difference(stored, drafts, [{}] * n, [None] * n)
    mine_ended = any(d.kind in ENDING_KINDS for d in drafts) or game.result.get("how") is not None
    theirs_ended = any(e.kind in ENDING_KINDS for e in stored) or _uncertain_end(stored)
    turns = [i + 1 for i, d in enumerate(drafts) if d.kind == "turn"]
    if diff is not None and (not turns or diff[0] < turns[0]):
        return None  # not the same set-up: another game whose opening digits are alike
    moves = game.stats["moves"]
    if diff is None:
        if n <= len(stored):
            return Copy("shorter", match, {"events": n, "log_events": len(stored), "moves": moves})
        if theirs_ended:
            raise InputError(f"match {match} in the log ends with its result at event {len(stored)}, and "
                             "this copy of its game goes on after it: two different histories of this game; "
                             "nothing of it was stored", where=f"{path}:{game.line_of(len(stored) + 1)}")
        return Copy("resume", match, {"events": n, "log_events": len(stored), "moves": moves})
    position, field, detail = diff
    if mine_ended and theirs_ended:
        return Copy("new", game.match, {})
    line = game.line_of(position)
    if n < len(stored) and not mine_ended and position >= turns[-1]:
        return Copy("shorter", match, {"events": n, "log_events": len(stored), "moves": moves,
                                       "last_turn_not_compared": turns[-1]})
    stored_turns = [e.position for e in stored if e.kind == "turn"]
    if len(stored) < n and not theirs_ended and stored_turns and position >= stored_turns[-1]:
        raise InputError(
            f"match {match} in the log holds a copy of this game cut short (no result): its last turn, "
            f"from event {stored_turns[-1]}, was read without the lines after the cut and differs from "
            f"this copy's reading at event {position} ({detail}); stored events cannot be taken back, "
            "so the rest cannot be appended: nothing of this game was stored", where=f"{path}:{line}",
            field=field)
    raise InputError(f"differs from event {position} of match {match} in the log ({detail}): the file and "
                     "the log hold two different histories of this game; nothing of it was stored",
                     where=f"{path}:{line}", field=field)


def _uncertain_end(stored: list[RecordedEvent]) -> bool:
    return any(e.kind == "annotation" and e.payload.get("source") == "optcgsim-ending" for e in stored)
