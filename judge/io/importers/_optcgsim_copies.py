"""An OPTCGSim game the log may already hold a copy of, cut short or whole: what to do with it.

One job: relate a game read from a file to the stored games that open alike. A game's match id
starts with its opening (the first moves: the set-up names every card as it leaves the shuffled
deck) and ends with its whole move stream and ending (`optcgsim._result`), so the copies of one
game share the id's first OPENING_HEX digits whatever their length.

Compared event by event with _resume.py's comparison (the same as a JSONL re-import), the stored
match as the log now reads it (`standing`: without corrections and what they void):
- the same move stream and ending (same match id, or the id an earlier tablejudge gave it) ->
  "already in the log";
- the file's copy is the start of the stored game -> "already in the log (this copy is shorter)";
- the stored game is the start of the file's copy (the stored one was cut: a crash) -> the rest
  is appended ("resume");
- the stored copy was cut (no ending) and differs only where its reading is provisional -> that
  part is read again ("reread"): corrections void the stored events from the first that differs,
  then the file's events from there are appended, in one transaction (`continuation`);
- they differ elsewhere -> the game is refused, naming the match, the line and the event.
A copy with no ending line may have been cut: the events from the start of its last turn (of its
set-up, for a copy cut before the first turn) were read without the lines after the cut (which say
whose effect moved a card, what rested DON!! paid for, where a mulligan put the cards), so they are
provisional (`provisional_from`): not compared when the file's copy is the shorter one, read again
from the file when the stored copy is the shorter one.
Two copies that both have a turn and differ before it, or both have an ending line and differ, are
two games (a rematch that opens alike; the rebuilt fixtures of tests/fixtures/optcgsim/variants
do, a real shuffle does not).
The players' names are not compared (a re-used or renamed log): the stored copy's stand, and a
copy that names others is said (`names`, `log_names`); a seat's placeholder ("Player 2", a copy cut
before the log named that player) and the real name the other copy gives it are one player, and a
copy naming a seat the stored one knew by its placeholder says so (`named`: optcgsim.naming records
it, once per seat, `unnamed`). The one-file import and the folder
import both relate through `Copies`; the games it holds (to be stored in this import) count as
stored, so a cut copy and the whole game in one file or one run are stored once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.desk import OFF_TABLE_KINDS
from engine.events import Draft
from engine.match import InputError
from engine.names import NAMED, placeholder  # NAMED: a placeholder's real name (optcgsim.naming), not the game
from engine.replay import VOIDING_KINDS, void_targets
from engine.store import EventStore

from judge.io.importers._resume import first_difference

OPENING_HEX = 6   # hex digits of a match id that are the game's opening
ENDING_KINDS = ("concede", "game.end")
READ_AGAIN = "read again from a longer copy of the game,"  # how an import's own corrections begin (optcgsim.voiding)
CONTINUES = ("resume", "reread")  # the relations that store events after the stored match's (optcgsim.resume)


@dataclass
class Copy:
    """What the log holds of one game of a file: `how` is "new", "same", "shorter", "resume" or
    "reread" (`detail["reread_from"]`: the first event read again, counted in the standing events);
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
                return self._naming(Copy("same", match, _names(first, game)))
        for match in self.openings.get(game.match[:OPENING_HEX], []):
            log = None if match in self.held else self.store.read(match)  # read once: compared and named
            held = list(self.held[match].drafts) if log is None else standing(log)  # held: its drafts
            copy = against(held, game, path, match) if held else None  # none: its file was refused
            if copy is not None:
                copy = self._naming(copy, log)
                if copy.how in CONTINUES:
                    undo.append((match, self.held.get(match), False))
                    self.held[match] = game
                return copy
        undo.append((game.match, None, True))
        self.held[game.match] = game
        self.openings.setdefault(game.match[:OPENING_HEX], []).append(game.match)
        return Copy("new", game.match, {})

    def _naming(self, copy: Copy, log: list[Any] | None = None) -> Copy:
        """`copy` naming only the seats the log does not name yet (`unnamed`): what the import will
        record (optcgsim.naming) and say. A held game's drafts name none. `log`: the match's events
        when the caller has read them (review: they were read again here)."""
        if copy.detail.get("named") and copy.match not in self.held:
            log = log if log is not None else self.store.read(copy.match)
            copy.detail["named"] = unnamed(log, copy.detail["named"])
            if not copy.detail["named"]:
                del copy.detail["named"]
        return copy

    def committed(self) -> None:
        """The held games are in the log now (or refused): read them from it from now on."""
        self.held.clear()

    def _first(self, match: str) -> Any:
        if match in self.held:
            return self.held[match].drafts[0]
        return self.store.event_at(match, 1)


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
    rename = renaming(_players(drafts[0]), _players(stored[0])) if drafts and stored else {}
    out = [_renamed(d, rename) for d in drafts] if rename else list(drafts)
    for i, (d, e) in enumerate(zip(out, stored)):
        key = WHERE.get(d.kind)
        if key and d.kind == e.kind and key in e.payload and key in d.payload:
            out[i] = d._replace(payload={**d.payload, key: e.payload[key]})
    return out


def _players(first: Any) -> list[str]:
    return list(first.payload.get("players") or []) if first.kind == "match.created" else []


def placeholders_named(stored: Any, file: Any) -> dict[str, str]:
    """Seat name -> real name, for the seats the stored match knows only by the simulator's
    placeholder ("Player 2": its copy was cut before the log named them) and the file's copy names
    (`stored`, `file`: the match.created of each). A stored real name that differs is not this: a
    re-used or renamed log (`_names`)."""
    return {t: m for k, m, t in _seats(file, stored) if t == placeholder(k) and m != t and m != placeholder(k)}


def _seats(mine: Any, theirs: Any) -> list[tuple[int, str, str]]:
    """(seat number, this copy's name, the stored copy's name) per seat, or [] when the copies seat
    different numbers of players or one's real name is another seat's name in the other."""
    a, b = _players(mine), _players(theirs)
    if len(a) != len(b):
        return []
    seats = [(k, m, t) for k, (m, t) in enumerate(zip(a, b), 1)]
    if any(m != t and (m in b or t in a) for _, m, t in seats):
        return []
    return seats


def _same_players(mine: Any, theirs: Any) -> bool:
    """Do two copies name the same players, a seat's placeholder in either (a copy cut before the
    log named that player) being the same player as the other's real name for that seat?"""
    seats = _seats(mine, theirs)
    return bool(seats) and all(m == t or placeholder(k) in (m, t) for k, m, t in seats)


def unnamed(events: list[Any], named: dict[str, str]) -> dict[str, str]:
    """`named` less the seats the match's events (all of them, voided ones too) already name: a
    seat is named once, and a naming a judge voided stays voided (a copy never names it again)."""
    said = {e.payload.get("player") for e in events if e.kind == NAMED}
    return {seat: name for seat, name in named.items() if seat not in said}


def renaming(a: list[str], b: list[str]) -> dict[str, str]:
    """This copy's name -> the stored copy's, seat by seat, for the seats they name otherwise (a
    renamed or re-used log): how a copy is compared (`comparable`) and its result said
    (optcgsim.as_stored). {} when the seats cannot be paired one to one."""
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
    """{"names": ..., "log_names": ...} when this copy names other players than the stored game (two
    real names for a seat); {"named": ...} when it only names those the stored game knew by a
    placeholder (`placeholders_named`); {} when it names the same ones, or knows by a placeholder a
    player the stored game names (this copy was cut before the log named them)."""
    mine, theirs = _players(game.drafts[0]), _players(first)
    if not (mine and theirs and mine != theirs):
        return {}
    if _same_players(game.drafts[0], first):
        named = placeholders_named(first, game.drafts[0])
        return {"named": named} if named else {}
    return {"names": mine, "log_names": theirs}


def against(stored: list[Any], game: Any, path: str, match: str) -> Copy | None:
    """`stored`: the match's standing events (or, held in this import, the drafts it will hold).
    None: the game is not a copy of that match's. Raises InputError for a copy that differs where
    neither reading is provisional."""
    drafts = comparable(game.drafts, stored)
    n = len(drafts)
    diff = first_difference(stored, drafts, [{}] * n, [None] * n)
    mine_ended = any(d.kind in ENDING_KINDS for d in drafts) or game.result.get("how") is not None
    theirs_ended = any(e.kind in ENDING_KINDS for e in stored) or _uncertain_end(stored)
    turns, stored_turns = _turns(drafts), _turns(stored)
    if diff is not None and diff[0] < min(turns[:1] + stored_turns[:1], default=diff[0] + 1):
        if (turns and stored_turns) or "names" in _names(stored[0], game):
            # two set-ups that differ: another game whose opening digits are alike; or one between other
            # players (a placeholder and the seat's real name are one player: `player.named` says it)
            return None
    counts = {"events": n, "log_events": len(stored), "moves": game.stats["moves"],
              **_names(stored[0], game)}
    if diff is None:
        if n <= len(stored):
            return Copy("same" if n == len(stored) else "shorter", match, counts)
        if theirs_ended:
            raise InputError(f"match {match} in the log ends with its result at event {_at(stored, len(stored))}, "
                             "and this copy of its game goes on after it: two different histories of this game; "
                             "nothing of it was stored", where=f"{path}:{game.line_of(len(stored) + 1)}")
        return Copy("resume", match, counts)
    position, field, detail = diff
    if mine_ended and theirs_ended:
        return None  # two games that open alike (a rebuilt rematch; a real shuffle does not)
    if n <= len(stored) and not mine_ended and position >= provisional_from(drafts):
        # this copy is cut too (as long, or shorter) and reads its last turn otherwise: the stored
        # reading stands until a longer copy (the whole file) reads it again
        return Copy("shorter", match, counts | {"last_turn_not_compared": provisional_from(drafts)})
    if len(stored) < n and not theirs_ended and position >= provisional_from(stored):
        return Copy("reread", match, counts | {"reread_from": position})
    raise InputError(f"differs from event {_at(stored, position)} of match {match} in the log ({detail}): the "
                     "file and the log hold two different histories of this game; nothing of it was stored",
                     where=f"{path}:{game.line_of(position)}", field=field)


def continuation(stored: list[Any], game: Any, path: str, match: str) -> tuple[list[int], list[Draft]]:
    """What to store so that match `match` (its events as stored, corrections included) reads as the
    file's copy `game`: the positions of its events to void, then the file's drafts to append. The
    one relation (`against`) on the log as it is now: the folder import relates a copy before an
    earlier file's resume of the same match is stored. Raises InputError if the log holds no
    shorter copy of it now."""
    now = standing(stored)
    copy = against(now, game, path, match) if now else None
    if copy is None or copy.how not in CONTINUES:
        said = "does not hold" if copy is None else f"holds all of it ({copy.how})"
        raise InputError(f"game {game.index} continues match {match}, which {said} now: nothing of the game "
                         "was stored", where=f"{path}:{game.first_line}")
    start = copy.detail.get("reread_from", len(now) + 1)
    voids = [e.position for e in now[start - 1:]]
    if voids:
        # a judge (or a recorder) voided an event of the part read again (after the last event both
        # readings agree on): the file would bring it back
        agreed = now[start - 2].position if start >= 2 else 0
        turn = {e.position for e in stored if _of_the_game(e)}  # a voided note or naming is not the turn's
        theirs = sorted(p for p in _voided(stored, by=_by_a_person) if p > agreed and p in turn)
        if theirs:
            raise InputError(f"match {match} in the log is a cut copy of this game whose last turn the whole file "
                             f"reads otherwise, but event {theirs[0]} of that turn was voided by a correction "
                             "recorded there (a judge's?): reading the turn again would bring it back. Nothing of "
                             "this game was stored; a judge decides (import the whole file into another log with "
                             "--db to compare)", where=f"{path}:{game.first_line}")
    return voids, comparable(game.drafts, now)[start - 1:]


def standing(events: list[Any]) -> list[Any]:
    """A match's game as the log reads it now, to compare with a file's copy: without the events it
    never holds (the desk's and people's: judge calls, rulings, penalties, slips, notes, the clock —
    kept as they are, never compared, never voided by an import), its corrections (and backups) and
    the events they void (a cut copy's last turn read again from the whole file)."""
    voided = _voided(events)
    return [e for e in events if _of_the_game(e) and e.position not in voided]


def _of_the_game(e: Any) -> bool:
    """Is this event the game's (compared with a copy), not the desk's or people's, nor a seat's name?"""
    return e.kind not in OFF_TABLE_KINDS and e.kind != NAMED


def _voided(events: list[Any], *, by: Any = None) -> set[int]:
    """The positions voided by the corrections and backups among `events` (`by`: only those it accepts)."""
    kinds = {e.position: e.kind for e in events}
    return {p for e in events if e.kind in VOIDING_KINDS and (by is None or by(e))
            for p in void_targets(e, kinds.__getitem__)}


def _by_a_person(e: Any) -> bool:
    return not str(e.payload.get("reason", "")).startswith(READ_AGAIN)


def provisional_from(events: list[Any]) -> int:
    """Where a cut copy's reading is provisional (1-based in `events`): from its last turn, or for a
    copy cut in the set-up (no turn), everything after the match's creation (the opening digits of
    the match id already say it is this game's set-up)."""
    turns = _turns(events)
    return turns[-1] if turns else 2


def _turns(events: list[Any]) -> list[int]:
    return [i + 1 for i, e in enumerate(events) if e.kind == "turn"]


def _at(stored: list[Any], i: int) -> int:
    """The log's position of the i-th standing event (a held game's drafts: i)."""
    return getattr(stored[i - 1], "position", i)


def _uncertain_end(stored: list[Any]) -> bool:
    """A player left (quit, disconnected) with no result: the game ended, uncertainly (`player.left`;
    logs imported before that event kind say it with an `optcgsim-ending` annotation)."""
    return any(e.kind == "player.left" or (e.kind == "annotation" and e.payload.get("source") == "optcgsim-ending")
               for e in stored)
