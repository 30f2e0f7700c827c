"""An OPTCGSim game the log may already hold a copy of, cut short or whole: what to do with it.

One job: relate a game read from a file to the stored games that open alike. A game's match id
starts with its opening (the first moves: the set-up names every card as it leaves the shuffled
deck) and ends with its whole move stream and ending (`optcgsim._result`), so the copies of one
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
The players' names are not compared (a re-used or renamed log): the stored copy's stand, and a
copy that names others is said (`names`, `log_names`). The one-file import and the folder
import both relate through `Copies`; the games it holds (to be stored in this import) count as
stored, so a cut copy and the whole game in one file or one run are stored once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.events import Draft
from engine.match import InputError
from engine.store import EventStore

from judge.io.importers._resume import first_difference

OPENING_HEX = 6   # hex digits of a match id that are the game's opening
ENDING_KINDS = ("concede", "game.end")


@dataclass
class Copy:
    """What the log holds of one game of a file: `how` is "new", "same", "shorter" or "resume";
    `match` the stored match (for "new", the game's own id); `detail` counts, and with "names"
    the players the log names when this copy names others."""

    how: str
    match: str
    detail: dict[str, Any]


class Copies:
    """One import's relation of games to the log: a file's (optcgsim.import_file) or a folder's
    whole run (_optcgsim_bulk), one policy for both. A game this import is about to store, or to
    resume a stored match with, is held here until it is committed (`committed`), so a later copy of
    it in the same file or run is related to it as to a stored one: a file (or folder) holding a cut
    copy and the whole game stores the game once, the longer kept (the cut one, then the rest
    appended as a resume)."""

    def __init__(self, store: EventStore):
        self.store = store
        self.openings = by_opening(store.match_ids())
        self.held: dict[str, Any] = {}  # match id -> the game (GameResult) it will hold once committed

    def relate_all(self, games: dict[str, Any], path: str) -> dict[str, Copy]:
        """Match id -> Copy for each of a file's games (`FileResult.firsts`), all or nothing: if
        one is refused (InputError), none of the file's games is held."""
        undo: list[tuple[str, Any, bool]] = []
        try:
            return {m: self.relate(g, path, undo) for m, g in games.items()}
        except InputError:
            for match, before, opened in reversed(undo):
                if before is None:
                    self.held.pop(match, None)
                else:
                    self.held[match] = before
                if opened:
                    self.openings[match[:OPENING_HEX]].remove(match)
            raise

    def relate(self, game: Any, path: str, undo: list[tuple[str, Any, bool]] | None = None) -> Copy:
        """Raises InputError for a copy that differs from the stored (or held) game. `undo`: per
        match changed, what was held before and whether it was added to the openings (relate_all)."""
        undo = [] if undo is None else undo
        for match in (game.match, game.fingerprint[:10]):  # the same game, or as an earlier tablejudge named it
            first = self._first(match)
            if first is not None:
                return Copy("same", match, _names(first, game))
        for match in self.openings.get(game.match[:OPENING_HEX], []):
            held = self._events(match)
            copy = _against(held, game, path, match) if held else None  # none: its file was refused
            if copy is not None:
                if copy.how == "resume":
                    undo.append((match, self.held.get(match), False))
                    self.held[match] = game
                return copy
        undo.append((game.match, None, True))
        self.held[game.match] = game
        self.openings.setdefault(game.match[:OPENING_HEX], []).append(game.match)
        return Copy("new", game.match, {})

    def committed(self) -> None:
        """The held games are in the log now (or refused): read them from it from now on."""
        self.held.clear()

    def _first(self, match: str) -> Any:
        if match in self.held:
            return self.held[match].drafts[0]
        return self.store.event_at(match, 1)

    def _events(self, match: str) -> list[Any]:
        """The match's events as the log will hold them: a held game's drafts compare as events."""
        return list(self.held[match].drafts) if match in self.held else self.store.read(match)


def by_opening(match_ids: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for m in match_ids:
        out.setdefault(m[:OPENING_HEX], []).append(m)
    return out


WHERE = {"deck.registered": "source", "annotation": "line"}  # which file, which of its lines: not the game


def comparable(drafts: list[Draft], stored: list[Any]) -> list[Draft]:
    """The file's drafts with where they were read (a deck's `source` file, an annotation's `line`:
    WHERE) and the players' names as the stored copy says them: which file a copy came from, where
    in it the game starts (a file holding two copies), and what the players were called in it (a
    renamed or re-used log) are not the game; the stored copy's stand (a name change is said as a
    warning, `_names`)."""
    rename = _renaming(drafts[0], stored[0]) if drafts and stored else {}
    out = [_renamed(d, rename) for d in drafts] if rename else list(drafts)
    for i, (d, e) in enumerate(zip(out, stored)):
        key = WHERE.get(d.kind)
        if key and d.kind == e.kind and key in e.payload and key in d.payload:
            out[i] = d._replace(payload={**d.payload, key: e.payload[key]})
    return out


def _players(first: Any) -> list[str]:
    return list(first.payload.get("players") or []) if first.kind == "match.created" else []


def _renaming(mine: Any, theirs: Any) -> dict[str, str]:
    a, b = _players(mine), _players(theirs)
    if len(a) != len(b) or a == b or len(set(a)) != len(a):
        return {}
    return {x: y for x, y in zip(a, b) if x != y}


def _renamed(d: Draft, rename: dict[str, str]) -> Draft:
    def swap(v: Any) -> Any:
        if isinstance(v, str):
            return rename.get(v, v)
        if isinstance(v, list):
            return [swap(x) for x in v]
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        return v
    return d._replace(actor=rename.get(d.actor, d.actor), payload=swap(d.payload))


def _names(first: Any, game: Any) -> dict[str, Any]:
    """{"names": ..., "log_names": ...} when this copy names other players than the stored game."""
    mine, theirs = _players(game.drafts[0]), _players(first)
    return {"names": mine, "log_names": theirs} if mine and theirs and mine != theirs else {}


def _against(stored: list[Any], game: Any, path: str, match: str) -> Copy | None:
    """`stored`: the match's events (or, held in this import, the drafts it will hold). None: the
    game is not a copy of that match's."""
    drafts = comparable(game.drafts, stored)
    n = len(drafts)
    diff = first_difference(stored, drafts, [{}] * n, [None] * n)
    mine_ended = any(d.kind in ENDING_KINDS for d in drafts) or game.result.get("how") is not None
    theirs_ended = any(e.kind in ENDING_KINDS for e in stored) or _uncertain_end(stored)
    turns = [i + 1 for i, d in enumerate(drafts) if d.kind == "turn"]
    if diff is not None and (not turns or diff[0] < turns[0]):
        return None  # not the same set-up: another game whose opening digits are alike
    counts = {"events": n, "log_events": len(stored), "moves": game.stats["moves"],
              **_names(stored[0], game)}
    if diff is None:
        if n <= len(stored):
            return Copy("same" if n == len(stored) else "shorter", match, counts)
        if theirs_ended:
            raise InputError(f"match {match} in the log ends with its result at event {len(stored)}, and "
                             "this copy of its game goes on after it: two different histories of this game; "
                             "nothing of it was stored", where=f"{path}:{game.line_of(len(stored) + 1)}")
        return Copy("resume", match, counts)
    position, field, detail = diff
    if mine_ended and theirs_ended:
        return None  # two games that open alike (a rebuilt rematch; a real shuffle does not)
    line = game.line_of(position)
    if n < len(stored) and not mine_ended and position >= turns[-1]:
        return Copy("shorter", match, counts | {"last_turn_not_compared": turns[-1]})
    stored_turns = [i + 1 for i, e in enumerate(stored) if e.kind == "turn"]
    if len(stored) < n and not theirs_ended and stored_turns and position >= stored_turns[-1]:
        raise InputError(
            f"match {match} in the log holds a copy of this game cut short (no result): its last turn, "
            f"from event {stored_turns[-1]}, was read without the lines after the cut and differs from "
            f"this copy's reading at event {position} ({detail}). Stored events cannot be taken back, "
            "so the rest cannot be appended: nothing of this game was stored. To keep the whole game, "
            f"import this file into another log (--db); the match here can stay as the cut copy read it, "
            f"or a judge can void its last turn's events (`tablejudge log {match} correction --voids N`)",
            where=f"{path}:{line}", field=field)
    raise InputError(f"differs from event {position} of match {match} in the log ({detail}): the file and "
                     "the log hold two different histories of this game; nothing of it was stored",
                     where=f"{path}:{line}", field=field)


def _uncertain_end(stored: list[Any]) -> bool:
    """A player left (quit, disconnected) with no result: the game ended, uncertainly (`player.left`;
    logs imported before that event kind say it with an `optcgsim-ending` annotation)."""
    return any(e.kind == "player.left" or (e.kind == "annotation" and e.payload.get("source") == "optcgsim-ending")
               for e in stored)
