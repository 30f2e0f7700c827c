"""OPTCGSim game logs -> `optcg` matches, one per game, each file all or nothing.

The plug-in face of the importer; the work is in modules with one job each:

| module | job |
| --- | --- |
| `_optcgsim_lines` | text -> typed lines (moves, checks, headers, player lines, text); refuses broken lines |
| `_optcgsim_games` | lines -> games (AutoSaved files append rematches), move numbering, fingerprints |
| `_optcgsim_version` | which simulator version and log variant; the policy for versions not known here |
| `_optcgsim_seats` | who is who: player numbers, handles, `[You]`/`[Opponent]`, Leaders, who goes first |
| `_optcgsim_endings` | what an ending line means (concession, win, quit, disconnection) |
| `_optcgsim_convert` | one game's moves -> events, replayed as they are made |
| `_optcgsim_text` | the readable lines -> events, and what they say about the moves around them |
| `_optcgsim_checks` | the log's `RZ1|CHK` lines and summaries against the replayed table |
| `_optcgsim_bulk` | a folder: parsing in worker processes, one writer, batched commits |

A game's match id is its opening's fingerprint then its whole content's: a game already in the log
(imported before, or repeated by a later AutoSaved file of the same session) is recognised and not
stored twice, and a copy cut short (the simulator crashed) is compared with the stored game that
opens alike (`_optcgsim_copies`: already in the log, resumed, or refused). Card facts: if a local card database is found (as every command finds it: `--cards`,
`$TABLEJUDGE_CARDS`, or `cards.db` beside the event log),
the Leaders' and seen cards' facts are copied into `deck.registered` (from it and the card snapshot);
otherwise the checks that need facts stay silent. Not from the snapshot alone: the log does not say
which plays and power changes came from effects, so with every card's facts known the checks would
flag effect plays as unpaid (3 errors and 32 power warnings on tests/fixtures/optcgsim/esempio.log).
A move's card number that no card data knows (the local database, else the snapshot) is said once
as a file warning (`unknown_cards_warning`), not refused.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Sequence
from typing import Any

from engine.events import TABLE_ACTOR, Draft
from engine.match import InputError, Match
from engine.store import EventStore, StoreError

from judge.io.importers import ImportSummary
from judge.io.importers._optcgsim_convert import Converter
from judge.io.importers._optcgsim_copies import (CONTINUES, NAMED, OPENING_HEX, READ_AGAIN, Copies, Copy, continuation,
                                                 placeholders_named, renaming, unnamed)
from judge.io.importers._optcgsim_games import Game, split
from judge.io.importers._optcgsim_lines import MoveLine, OtherLine, PlayerLine, TextLine, card_ids, read
from judge.io.importers._optcgsim_version import Variant, detect

MATCH_ID_LENGTH = 10  # hex digits of the game's fingerprint, like any other match id


@dataclass
class GameResult:
    """One game of a file, converted and judged, not stored yet."""

    index: int
    match: str
    fingerprint: str
    first_line: int
    last_line: int
    drafts: list[Draft]
    stats: dict[str, Any]
    findings: int
    result: dict[str, Any]
    warnings: list[dict[str, Any]] = field(default_factory=list)
    event_lines: list[int] = field(default_factory=list)  # the file's line each event was made at

    @property
    def events(self) -> int:
        return len(self.drafts)

    def line_of(self, position: int) -> int:
        lines = self.event_lines or [self.first_line]
        return lines[min(position, len(lines)) - 1]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.index, "match": self.match, "lines": [self.first_line, self.last_line],
                "events": self.events, "findings": self.findings, "result": self.result,
                "fingerprint": self.fingerprint, **self.stats,
                **({"warnings": self.warnings} if self.warnings else {})}


@dataclass
class FileResult:
    """A whole file read: its variant and its games (a file is stored all or nothing)."""

    path: str
    variant: Variant
    games: list[GameResult]
    not_played: list[tuple[int, int]]
    unknown_cards: list[dict[str, Any]] = field(default_factory=list)  # `unknown_cards_warning`

    @property
    def warnings(self) -> list[dict[str, Any]]:
        return self.variant.warnings + self.unknown_cards + [w | {"game": g.index} for g in self.games
                                                             for w in g.warnings]

    @cached_property
    def firsts(self) -> dict[str, GameResult]:
        """first_copies of its games: each game it holds, once."""
        return first_copies(self.games)


def find_cards_db(store: EventStore, given: str | None = None) -> str | None:
    """The local card database, found as every command finds it (carddb.local_path): --cards,
    $TABLEJUDGE_CARDS, or cards.db beside the event log (where `cards import` puts it)."""
    from judge.io.carddb import event_db_path, local_path

    return local_path(event_db_path(store), given)


def card_facts_note(cards_db: str | None) -> dict[str, Any]:
    """What the summary says about card facts: where they came from, or that none were found."""
    if cards_db:
        return {"card_facts": cards_db}
    return {"card_facts": None, "card_facts_text": "none found (no --cards, no $TABLEJUDGE_CARDS, no cards.db "
            "beside the event log: `tablejudge cards import` makes one); costs and powers not checked"}


def read_file(path: str, *, recorded_by: str | None = None, cards_db: str | None = None,
              judge: bool = True) -> FileResult:
    """Read, split, convert and (with `judge`) judge every game of a file; store nothing.
    InputError names the file, line and field of anything broken."""
    lines = read(path)
    parts = split(lines, path)
    variant = detect(lines, parts.games, path)
    variant.warnings += [{"line": ln.n, "text": "control characters in a line of text (chat, an effect's words, "
                          "a zero-filled end): kept with them written out (\\u001b)"}
                         for ln in lines if isinstance(ln, (TextLine, OtherLine)) and ln.escaped]
    facts, unknown = _cards(cards_db, lines)
    games = []
    for game in parts.games:
        conv = Converter(game, path, recorded_by=recorded_by, facts=facts, judge=judge)
        conv.run()
        games.append(_result(game, conv))
    return FileResult(path, variant, games, parts.not_played, unknown_cards_warning(unknown))


def convert(path: str, *, cards_db: str | None = None, game: int = 1, judge: bool = False) -> Converter:
    """Parse and convert one game without storing it (for tests and tools): the converter holds
    the drafts, the stats and `position_at_line` (the match's last event before each line); with
    `judge`, the findings an import counts."""
    lines = read(path)
    conv = Converter(split(lines, path).games[game - 1], path, facts=_cards(cards_db, lines)[0], judge=judge)
    conv.run()
    return conv


class PartlyStored(InputError):
    """A game of a file could not be appended to the stored match it continues (the file holding
    that match's start was refused, or another writer appended meanwhile) after the file's other
    games were stored: not "nothing stored". `stored`: the matches this file did store or resume."""

    def __init__(self, error: Exception, stored: list[str]):
        said = error.message if isinstance(error, InputError) else str(error)
        super().__init__(f"{said}; this file's other games were stored: {', '.join(stored)}" if stored else said,
                         field=getattr(error, "field", ""), where=getattr(error, "where", ""))
        self.stored = stored


def import_file(store: EventStore, path: str, *, match: str | None = None,
                recorded_by: str | None = None, cards: str | None = None) -> ImportSummary:
    """One file: each of its new games becomes a match, all in one transaction; a game the log
    already holds (whole, or cut short) is related to it (`_optcgsim_copies`): left as it is,
    resumed after that transaction, or the file refused before anything is stored. `cards`: the
    local card database (--cards), else found as every command finds it."""
    if match:
        raise InputError("an OPTCGSim log creates its own matches: drop --match", where=path, field="match")
    cards_db = find_cards_db(store, cards)
    fr = read_file(path, recorded_by=recorded_by, cards_db=cards_db)
    related = relate_file(Copies(store), fr)  # refuses before anything is stored
    new = [g for m, g in fr.firsts.items() if related[m].how == "new"]
    if new:
        store.create_many([(g.match, g.drafts) for g in new])
    resume_file(store, fr, related)
    s = summary(fr, related, store)
    s.extra.update(card_facts_note(cards_db))
    return s


def relate_file(copies: Copies, fr: FileResult) -> dict[str, Copy]:
    """Match id -> what the log (or this import, before it) holds of each game of the file: the one
    relation of a file's games to the log, for the one-file and the folder import alike."""
    return copies.relate_all(fr.firsts, fr.path)


def resume_file(store: EventStore, fr: FileResult, related: dict[str, Copy]) -> None:
    """The file's games that continue a stored match: the rest appended, each in its own transaction,
    after the file's new games are committed (a cut copy and the whole game in one file: the cut one
    was just stored); and the names a copy that adds no event gives the seats a stored match knew by
    a placeholder (`naming`). A resume that fails then raises PartlyStored, naming what was stored."""
    stored = [c.match for c in related.values() if c.how == "new"]
    for m, g in fr.firsts.items():
        if related[m].how in CONTINUES or related[m].detail.get("named"):
            try:
                resume(store, fr.path, g, related[m])
            except (InputError, StoreError) as e:
                if not stored:
                    raise
                raise PartlyStored(e, stored) from None
            stored.append(related[m].match)


def resume(store: EventStore, path: str, g: GameResult, copy: Copy) -> None:
    """The stored match is a cut copy of `g`: the rest appended after it, or, where the cut copy's
    reading was provisional and differs, its events from there voided by corrections and the file's
    appended (`_optcgsim_copies.continuation`), all in one transaction after the stored head (another
    writer's append meanwhile: ConflictError, nothing stored); then the seats `g` names that the
    match knew by a placeholder (a copy as long or shorter: only those)."""
    match = copy.match
    stored = store.read(match)
    if not stored:  # the file holding its start was refused in the same folder import
        raise InputError(f"game {g.index} continues match {match}, which was not stored: nothing of the "
                         "game was stored", where=f"{path}:{g.first_line}")
    table = _TableDrafts(store, match, stored, g.drafts[0].recorded_by)
    drafts: list[Draft] = []
    if copy.how in CONTINUES:
        voids, tail = continuation(stored, g, path, match)
        drafts = voiding(table, voids, path) + tail
    drafts += naming(table, g, path, len(stored) + len(drafts))
    if drafts:
        store.append_after(match, stored[-1], drafts)


class _TableDrafts:
    """The events an import records by the table (`-`: the import decided it, not a judge;
    `recorded_by` says who ran it) after a stored match's events `stored`: one validator and one
    map of the stored events' kinds serve `voiding` and `naming` (review: each built its own)."""

    def __init__(self, store: EventStore, match: str, stored: list, recorded_by: str):
        self.store, self.match, self.stored, self.recorded_by = store, match, stored, recorded_by

    @cached_property
    def _validator(self) -> Any:  # made only when there is something to record
        return Match(self.store, self.match).validator

    @cached_property
    def _kinds(self) -> dict[int, str]:
        return {e.position: e.kind for e in self.stored}

    def draft(self, kind: str, payload: dict[str, Any], head: int) -> Draft:
        return self._validator.draft(kind, payload, actor=TABLE_ACTOR, recorded_by=self.recorded_by,
                                     head=head, kind_at=self._kinds.get)


def naming(table: _TableDrafts, g: GameResult, path: str, head: int) -> list[Draft]:
    """A `player.named` for each seat the stored cut copy (`table.stored`) knew only by the
    simulator's placeholder and this copy names (`placeholders_named`), unless the log names it
    already, or did and a judge voided it (`unnamed`): the name is a correction recorded as an
    event (the match's creation is never rewritten); its events keep the seat's name. By the
    table, like `voiding`."""
    named = unnamed(table.stored, placeholders_named(table.stored[0], g.drafts[0]))
    reason = f"named in another copy of the game, {os.path.basename(path)}: the stored copy was cut before the log named this player"
    return [table.draft(NAMED, {"player": seat, "name": name, "reason": reason}, head + k)
            for k, (seat, name) in enumerate(named.items())]


def voiding(table: _TableDrafts, positions: list[int], path: str) -> list[Draft]:
    """Corrections voiding a cut copy's events that the whole file reads otherwise (corrections are
    events: the cut copy's reading stays in the log, struck through). By the table."""
    reason = (f"{READ_AGAIN} {os.path.basename(path)}: the stored copy's last turn (or set-up) was "
              "read without the lines after its cut")
    return [table.draft("correction", {"voids": p, "reason": reason}, table.stored[-1].position + k)
            for k, p in enumerate(positions)]


def first_copies(games: Sequence[GameResult]) -> dict[str, GameResult]:
    """Match id -> the first game holding it: a game is stored once, however often a file (or a
    batch of files) holds it (a damaged AutoSaved file can repeat one)."""
    out: dict[str, GameResult] = {}
    for g in games:
        out.setdefault(g.match, g)
    return out


def summary(fr: FileResult, related: dict[str, Copy], store: EventStore) -> ImportSummary:
    """The import summary of a file whose games were related to the log (`relate_file`) and stored
    or appended (`store`: read for the matches as they stand now): the "new" ones were just stored,
    the CONTINUES ones appended to, the others were there already."""
    first = fr.firsts
    games = [game_row(g, related[g.match], first[g.match], store) for g in fr.games]
    for row, own in zip(games, fr.variant.per_game):  # a file of two versions' games: each says its own
        row["version"], row["variant"] = own.version, own.label()
    new = [g for m, g in first.items() if related[m].how == "new"]
    appended = sum(g.get("events_appended", 0) for g in games)
    totals = {k: sum(g.stats[k] for g in fr.games)
              for k in ("moves", "chk_checked", "chk_mismatches", "summaries_checked", "summary_mismatches",
                        "unparsed_lines", "unknown_kind_lines", "lines_not_replayed")}
    named = [{"game": g["game"], "text": g["names_warning"], "kind": "names"} for g in games if g.get("names_warning")]
    extra: dict[str, Any] = {"version": fr.variant.version, "variant": fr.variant.label(),
                             "variant_details": fr.variant.to_dict(), **totals,
                             "games": games, "matches": [g.get("in_match", g["match"]) for g in games],
                             "warnings": fr.warnings + named}
    already = [g["match"] for g in games if not g["stored"]]
    if already:
        extra["already_imported"] = already
    if fr.not_played:
        extra["not_played"] = [{"lines": list(span)} for span in fr.not_played]
    shown = (new or fr.games)[0]
    return ImportSummary(file=fr.path, match=related[shown.match].match,
                         events=sum(g.events for g in new) + appended,
                         created=bool(new), findings=sum(g.findings for g in new), extra=extra)


def game_row(g: GameResult, copy: Copy, first: GameResult, store: EventStore) -> dict[str, Any]:
    """One game of the summary. A game not stored by this file (already in the log, resumed, or a
    repeat within the file) is said as the log's match holds it: its result with the match's
    players (a renamed copy names others) and `match_events`, the match's events now (QA: a row
    said the copy's 102 events and its players while the match held 99 between others)."""
    row = g.to_dict() | {"stored": copy.how == "new" and first is g}
    row |= {"same_as_game": first.index} if first is not g else copy_words(copy)
    if not row["stored"]:
        head = store.head(copy.match)
        row["result"] = as_stored(g.result, copy.detail)
        row["match_events"] = head.position if head else 0
    return row


def as_stored(result: dict[str, Any], detail: dict[str, Any]) -> dict[str, Any]:
    """A copy's result with the stored match's names for the copy's (`detail`'s "names" and
    "log_names", seat by seat, when they differ: `_optcgsim_copies._names`), renamed as the copy
    was compared (`renaming`)."""
    rename = renaming(detail.get("names", []), detail.get("log_names", []))
    return {k: rename.get(v, v) if isinstance(v, str) else v for k, v in result.items()}


def copy_words(copy: Copy) -> dict[str, Any]:
    """A game the log held a copy of, in words (its "status"), which match that is, and a warning
    when this copy names other players than the stored one."""
    d = copy.detail
    if copy.how == "new":
        return {}
    out: dict[str, Any] = {"in_match": copy.match}
    if copy.how == "shorter" and d["events"] == d["log_events"]:  # both cut in the same turn
        out["status"] = (f"already in the log (this copy is cut too, in its last turn, at {d['events']} events: "
                         "that turn stays as first read until the whole file reads it again)")
    elif copy.how == "shorter":
        out["status"] = (f"already in the log (this copy is shorter: {d['events']} of {d['log_events']} "
                         f"events, {d['moves']} moves)")
    elif copy.how == "resume":
        out |= {"status": f"resumed: {d['log_events']} already there, {d['events'] - d['log_events']} appended",
                "events_appended": d["events"] - d["log_events"]}
    elif copy.how == "reread":  # the stored events from reread_from voided (one correction each), the file's appended
        kept = d["reread_from"] - 1
        again, appended = d["log_events"] - kept, d["events"] - kept
        out |= {"status": f"resumed: {kept} already there, {again} read again (voided by corrections: the cut "
                          f"copy read them without the lines after the cut), {appended} appended",
                "events_appended": again + appended, "events_voided": again}
    else:
        out["status"] = "already in the log"
    if d.get("named"):
        whence = "the longer copy" if copy.how in CONTINUES else "this copy"
        out["status"] += "; " + "; ".join(f"{seat} is now named {name}, from {whence}"
                                          for seat, name in d["named"].items())
    if d.get("names"):
        out["names_warning"] = (f"match {copy.match} in the log is between {' and '.join(d['log_names'])}: "
                                f"this copy names {' and '.join(d['names'])} (a re-used or renamed log?); the match keeps its names")
    return out


def result_text(result: dict[str, Any]) -> str:
    """A game's result in words, for the summary table."""
    if result.get("winner") and result.get("certain", True):
        return f"{result['winner']} wins ({result['how']})"
    if result.get("how") in ("quit", "disconnect"):
        who = result.get("left") or "a player"
        what = "quit" if result["how"] == "quit" else "disconnected"
        return f"none: {who} {what} (uncertain)"
    return "none (no result in the log)"


def _result(game: Game, conv: Converter) -> GameResult:
    st = conv.stats
    stats = {"moves": st.moves, "chk_checked": st.chk_checked, "chk_mismatches": len(st.chk_mismatches),
             "summaries_checked": st.summaries_checked, "summary_mismatches": len(st.summary_mismatches),
             "unparsed_lines": st.unparsed, "unknown_kind_lines": st.unknown_kind,
             "lines_not_replayed": game.dropped}
    r = conv.state.result
    if r is not None:
        result: dict[str, Any] = {"winner": r.get("winner"), "how": r.get("how"), "certain": True}
    elif conv.outcome is not None:
        result = {k: v for k, v in conv.outcome.items() if k != "line"}
    else:
        result = {"winner": None, "how": None, "certain": False}
    warnings = list(conv.seats.warnings) + conv.warnings
    if game.dropped and any(isinstance(ln, MoveLine) and ln.src == 4 for ln in game.tail):
        warnings.append({"line": game.tail[0].n, "text": "turns were played after the game's end line; "
                                                         "they were not replayed"})
    fp = game_fingerprint(game, conv)
    match = game.opening[:OPENING_HEX] + fp[:MATCH_ID_LENGTH - OPENING_HEX]
    return GameResult(game.index, match, fp, game.first_line, game.last_line, conv.drafts,
                      stats, len(conv.findings), result, warnings, _event_lines(conv))


def _event_lines(conv: Converter) -> list[int]:
    """The file's line each draft was made at (a difference from a stored copy names it)."""
    out: list[int] = []
    at = conv.game.first_line  # the set-up's events (match, decks, turn order): the game's first line
    for n, before in sorted(conv.position_at_line.items()):
        out += [at] * (before - len(out))
        at = n
    return out + [at] * (len(conv.drafts) - len(out))


def game_fingerprint(game: Game, conv: Converter) -> str:
    """The game's move stream and how it ended (who won or left, how, by seat number): the same
    game saved as a downloaded log and as an AutoSaved one (or in two AutoSaved files) has one. A
    copy cut before its result line has another: it shares only the opening (`Game.opening`, the
    match id's first digits), by which _optcgsim_copies relates it to the whole game."""
    r = conv.state.result or conv.outcome or {}
    seat = {name: str(num) for num, name in conv.name.items()}
    ending = "|".join(str(seat.get(r.get(k), r.get(k))) for k in ("winner", "left")) + f"|{r.get('how')}"
    return hashlib.sha256(f"{game.fingerprint}|{ending}".encode()).hexdigest()


def _cards(cards_db: str | None, lines: list) -> tuple[dict[str, dict[str, Any]], list[MoveLine]]:
    """The cards of the file looked up once: the facts of its Leaders and moved cards from the local
    card database (`cards_db`: none without it, see the module's docstring), and its moves' card
    numbers the card data (that database, else the snapshot) does not know, each at its first move.
    No snapshot to read (a $TABLEJUDGE_CARD_SNAPSHOT naming no file): no unknown numbers said."""
    from judge.io.carddb import CardDB

    moves = {ln.card: ln for ln in reversed(lines) if isinstance(ln, MoveLine) and ln.card != "Don"}
    leaders = [ln.leader for ln in lines if isinstance(ln, PlayerLine)]
    leaders += [card_ids(ln.rest)[0] for ln in lines if isinstance(ln, TextLine) and ln.who is not None
                and ln.rest.startswith("Leader is") and card_ids(ln.rest)]
    db = CardDB(cards_db)
    facts = db.facts_for(leaders + sorted(moves)) if cards_db else {}
    try:
        unknown = [ln for c, ln in moves.items() if c not in facts and db.get(c) is None]
    except InputError:
        return facts, []
    return facts, sorted(unknown, key=lambda ln: ln.n)


UNKNOWN_SHOWN = 8  # card numbers listed in the warning; the rest counted


def unknown_cards_warning(unknown: list[MoveLine]) -> list[dict[str, Any]]:
    """A file warning for move card numbers in no card data: not refused (a new set is played before
    the snapshot knows it), but said once, since a number the simulator never wrote (a damaged or
    hand-edited line) makes every later play of that card "not in hand"."""
    if not unknown:
        return []
    shown = [f"{ln.card} (line {ln.n})" for ln in unknown[:UNKNOWN_SHOWN]]
    more = f" and {len(unknown) - UNKNOWN_SHOWN} more" if len(unknown) > UNKNOWN_SHOWN else ""
    are = "card number is" if len(unknown) == 1 else "card numbers are"
    return [{"kind": "cards", "cards": [{"card": ln.card, "line": ln.n} for ln in unknown],
             "text": f"{len(unknown)} {are} in no card data: {', '.join(shown)}{more}; a damaged or edited log, "
                     "or cards newer than the card data (`tablejudge cards update FILE`)?"}]
