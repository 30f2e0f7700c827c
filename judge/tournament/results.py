"""Results files in: the melee.gg / MTGODecklistCache JSON schema and a plain CSV.

    results = read_results("event.json")      # -> ResultsFile(results, players, published, ...)

(a) JSON: {"Tournament": {...}, "Rounds": [{"RoundName": "Round 1", "Matches": [{"Player1": ...,
    "Player2": ... or "-" for a bye, "Result": "W-L-D" or "double-loss"}]}], "Standings": [{"Rank",
    "Player", "Points", "OMWP", "GWP", "OGWP", ...}], "Decks": [{"Player": ...}]}
(b) CSV with the header `round,player,opponent,wins,losses,draws` (and optionally `double_loss`):
    one row per player per round (`opponent` empty for a bye). The opponent's mirror row may be
    present (it must then agree) or left out. A row with an empty `round` registers a player who
    never played. `double_loss` true (`true`/`yes`/`1`): both players got a match loss, no games.

A result between two players with no game (0-0-0, or empty counts) is refused, as a tournament
refuses it: it is no match draw; a double loss is written as such.

Round names that say elimination (Quarterfinals, Semifinals, Finals, Top 8, Playoff, ...) mark
top-cut matches, which never count in Swiss standings. Every error is an InputError that names the
file, the line when known, and the field.
"""
from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.match import InputError
from engine.schema import MAX_NUMBER, PayloadError, read_json, shown

from judge.io.csvread import read_rows
from judge.io.text import read_text
from judge.numbers import whole_number
from judge.tournament.standings import DOUBLE_LOSS, MatchResult, slip_words

ELIMINATION_RE = re.compile(
    r"quarter|semi|final|top\s*\d+|playoff|play-off|elimination|knock.?out|bracket|"
    r"\bqf\b|\bsf\b|ottavi|quarti|top.?cut", re.IGNORECASE)
SLIP_RE = re.compile(r"^\s*([0-9]+)\s*-\s*([0-9]+)(?:\s*-\s*([0-9]+))?\s*$")  # ASCII digits, as whole_number
BYE_NAMES = {"-", "", "bye", "BYE", "Bye"}
CSV_COLUMNS = ("round", "player", "opponent", "wins", "losses", "draws")
CSV_DOUBLE_LOSS = "double_loss"  # optional column: true when both players got a match loss
TRUE_WORDS, FALSE_WORDS = ("true", "yes", "1"), ("", "false", "no", "0")


@dataclass
class ResultsFile:
    path: str
    format: str
    results: list[MatchResult]
    players: list[str]                      # everyone known: registered (decks/standings) or paired
    published: list[dict[str, Any]] | None = None  # the file's own standings, when it has them
    name: str = ""
    round_names: dict[int, str] = field(default_factory=dict)


class OverwriteRefused(InputError):
    """Tables already have a different result: nothing stored; ask, then retry with overwrite.
    `conflicts`: one dict per table (round, table, player1, player2, old, new, by, at, position,
    and `where` the batch's file:line when it came from one)."""

    def __init__(self, conflicts: list[dict[str, Any]]):
        said = "; ".join((f"{c['where']}: " if c.get("where") else "")
                         + f"round {c['round']} table {c['table']} has {c['player1']} {c['old']} {c['player2']} "
                         f"(recorded by {c['by']}), not {c['new']}" for c in conflicts[:5])
        more = f" and {len(conflicts) - 5} more" if len(conflicts) > 5 else ""
        # `what`: the refusal without its step, which the CLI (--overwrite) and the web desk (the
        # grid's Replace) say each their own way (QA75 6: a web page said "--overwrite")
        self.what = f"{said}{more}: nothing was stored"
        super().__init__(f"{self.what}; to replace it, record again with overwrite (--overwrite)", field="table")
        self.conflicts = conflicts


def is_elimination_round(name: str) -> bool:
    return bool(ELIMINATION_RE.search(name or ""))


def is_double_loss(text: str) -> bool:
    """`double-loss` (any case, outer spaces aside): both players got a match loss."""
    return str(text).strip().casefold() == DOUBLE_LOSS


def game_counts(outcome: Any, player1: str, player2: str) -> tuple[int, int, int]:
    """A recorded match's outcome (engine.rulesets.base.Outcome, players by their names here) as a
    result's game counts, player1's W-L-D: the games each won and the games drawn where the outcome
    gives them (a log that holds the whole match: op2009's best of three, a time decision's score
    included), else one game, the match's own (`record --match` adds up one game per match)."""
    score = outcome.score  # an Outcome or a desk LogOutcome: both have the field (None: one game)
    if score is not None:
        return int(score.get(player1, 0)), int(score.get(player2, 0)), int(outcome.drawn)
    if outcome.result == "draw":
        return 0, 0, 1
    if outcome.result == "win":
        return int(outcome.winner == player1), int(outcome.winner == player2), 0
    return 0, 0, 0


def refuse_no_game(w: int, l: int, d: int, double_loss: bool, *, how: str, field: str, where: str = "") -> None:
    """One rule for every result between two players (a tournament's, a results file's): it counts
    a game, or it is a double loss. 0-0-0 is no match draw (it would give each a draw's points):
    tablejudge's policy, docs/tournaments.md "Double loss". `how`: what to write instead, in the
    words of the input at hand."""
    if w + l + d == 0 and not double_loss:
        raise InputError(f"a result with no game at all (0-0-0); {how}", field=field, where=where)


def parse_slip(text: str, *, where: str = "", field: str = "result") -> tuple[int, int, int]:
    """'2-1-0' (or '2-1') -> (wins, losses, draws)."""
    m = SLIP_RE.match(str(text))
    if not m:
        raise InputError(f"a result is written W-L-D (e.g. 2-1-0), got {shown(text)}", field=field,
                         where=where)
    counts = []
    for g in (m.group(1), m.group(2), m.group(3) or "0"):
        n = whole_number(g)
        if n is None or n > MAX_NUMBER:
            raise SlipOutOfRange(f"a game count is at most {MAX_NUMBER:,} (the log's limit for a number: README, "
                                 f"limits), got {shown(g)} in {shown(text)}", field=field, where=where)
        counts.append(n)
    return counts[0], counts[1], counts[2]


class SlipOutOfRange(InputError):
    """A slip's game count over the log's limit: said before the match format (QA82 5: a 26-digit
    count was called impossible in a best of one, with `--override-format` as the way, which the
    payload's limit then refused)."""


def read_results(path: str | Path) -> ResultsFile:
    p = Path(path)
    text = read_text(str(p))
    stripped = text.lstrip()
    if p.suffix.lower() == ".json" or stripped.startswith(("{", "[")):
        return parse_melee_json(text, str(p))
    return parse_results_csv(text, str(p))


# --- (a) melee / MTGODecklistCache JSON ------------------------------------------------------


def parse_melee_json(text: str, path: str = "<json>") -> ResultsFile:
    try:
        data = read_json(text)  # NaN, 4,300+ digit numbers and deep nesting: refused in words
    except PayloadError as e:
        raise InputError(e.message, where=f"{path}:{e.line}" if e.line else path) from None
    locate = _Locator(text, path)
    if not isinstance(data, dict):
        raise InputError("the top level must be an object with 'Rounds'", field="", where=path)
    rounds = data.get("Rounds")
    if not isinstance(rounds, list):
        raise InputError("missing or not a list", field="Rounds", where=path)
    results: list[MatchResult] = []
    seen: list[str] = []
    round_names: dict[int, str] = {}
    for i, rnd in enumerate(rounds):
        fpath = f"Rounds[{i}]"
        if not isinstance(rnd, dict):
            raise InputError("must be an object", field=fpath, where=path)
        name = rnd.get("RoundName", f"Round {i + 1}")
        if not isinstance(name, str):
            raise InputError("must be text", field=f"{fpath}.RoundName", where=locate(name))
        matches = rnd.get("Matches")
        if not isinstance(matches, list):
            raise InputError("missing or not a list", field=f"{fpath}.Matches", where=path)
        round_names[i + 1] = name
        elimination = is_elimination_round(name)
        for j, m in enumerate(matches):
            mpath = f"{fpath}.Matches[{j}]"
            if not isinstance(m, dict):
                raise InputError("must be an object", field=mpath, where=path)
            p1, p2 = m.get("Player1"), m.get("Player2")
            if not isinstance(p1, str) or not p1.strip() or p1.strip() in BYE_NAMES:
                raise InputError(f"must be a player name, got {shown(p1)}", field=f"{mpath}.Player1",
                                 where=locate(p1))
            if p2 is not None and not isinstance(p2, str):
                raise InputError(f"must be a player name or '-', got {shown(p2)}", field=f"{mpath}.Player2",
                                 where=path)
            opp = None if p2 is None or p2.strip() in BYE_NAMES else p2.strip()
            if opp == p1.strip():
                raise InputError(f"{shown(p1)} is paired against themselves", field=f"{mpath}.Player2",
                                 where=locate(p1))
            res = m.get("Result")
            double_loss = isinstance(res, str) and is_double_loss(res)
            if double_loss and opp is None:
                raise InputError(f"a bye is not a double loss (no opponent), got {shown(res)}",
                                 field=f"{mpath}.Result", where=locate(res))
            w, l, d = (0, 0, 0) if double_loss else parse_slip(res if isinstance(res, str) else repr(res),
                                                               where=locate(res if isinstance(res, str) else p1),
                                                               field=f"{mpath}.Result")
            if opp is not None:
                refuse_no_game(w, l, d, double_loss, field=f"{mpath}.Result", where=locate(res),
                               how=f"write the games played, or, if both players got a match loss, "
                                   f"\"Result\": \"{DOUBLE_LOSS}\"")
            results.append(MatchResult(i + 1, p1.strip(), opp, w, l, d, elimination, name,
                                       double_loss=double_loss))
            for p in (p1.strip(), opp):
                if p and p not in seen:
                    seen.append(p)
    published = None
    if isinstance(data.get("Standings"), list):
        published = []
        for k, s in enumerate(data["Standings"]):
            if not isinstance(s, dict) or not isinstance(s.get("Player"), str):
                raise InputError("each standing needs a 'Player'", field=f"Standings[{k}].Player",
                                 where=path)
            published.append(s)
    players = list(seen)
    for source in (data.get("Decks") or [], published or []):
        for entry in source:
            if isinstance(entry, dict) and isinstance(entry.get("Player"), str):
                name = entry["Player"].strip()
                if name and name not in players:
                    players.append(name)
    event_name = (data.get("Tournament") or {}).get("Name", "") if isinstance(
        data.get("Tournament"), dict) else ""
    return ResultsFile(path, "melee-json", results, players, published, event_name, round_names)


class _Locator:
    """Best-effort line numbers for a JSON value (json.loads keeps none): the line of the first
    occurrence of the value's text, good enough to point a person at the problem."""

    def __init__(self, text: str, path: str):
        self.text = text
        self.path = path

    def __call__(self, value: Any) -> str:
        if isinstance(value, str) and value:
            idx = self.text.find(json.dumps(value, ensure_ascii=False))
            if idx < 0:
                idx = self.text.find(json.dumps(value))
            if idx >= 0:
                return f"{self.path}:{self.text.count(chr(10), 0, idx) + 1}"
        return self.path


# --- (b) CSV ----------------------------------------------------------------------------------


def _small_number(text: str) -> bool:
    """ASCII digits, at most 6 ('²' is a digit to str.isdigit, and 5,000 digits overflow int())."""
    return text.isascii() and text.isdigit() and len(text) <= 6


def parse_results_csv(text: str, path: str = "<csv>") -> ResultsFile:
    rows_in = read_rows(text, path)
    first = next(rows_in, None)
    if first is None:
        raise InputError("the file is empty (expected the header " + ",".join(CSV_COLUMNS) + ")",
                         where=f"{path}:1")
    header = [h.strip().lower() for h in first[1]]
    missing = [c for c in CSV_COLUMNS if c not in header]
    if missing:
        raise InputError(f"the header lacks column(s) {', '.join(missing)} (expected "
                         f"{','.join(CSV_COLUMNS)})", field=missing[0], where=f"{path}:1")
    col = {c: header.index(c) for c in (*CSV_COLUMNS, CSV_DOUBLE_LOSS) if c in header}
    round_ids: dict[str, int] = {}
    round_names: dict[int, str] = {}
    players: list[str] = []
    rows: dict[tuple[int, str], tuple[str | None, int, int, int, int, bool]] = {}
    order: list[tuple[int, str]] = []
    for lineno, raw in rows_in:
        if not raw or all(not c.strip() for c in raw):
            continue
        where = f"{path}:{lineno}"
        if len(raw) < len(header):
            raw = raw + [""] * (len(header) - len(raw))
        cell = {c: raw[i].strip() for c, i in col.items()}
        player = cell["player"]
        if not player:
            raise InputError("a player name is required", field="player", where=where)
        if player not in players:
            players.append(player)
        double_loss = _double_loss(cell.get(CSV_DOUBLE_LOSS, ""), where)
        if not cell["round"]:
            if cell["opponent"] or cell["wins"] or cell["losses"] or cell["draws"] or double_loss:
                raise InputError("a result needs its round", field="round", where=where)
            continue  # a registration: listed, never averaged in
        rname = cell["round"]
        if rname not in round_ids:
            round_ids[rname] = int(rname) if _small_number(rname) else len(round_ids) + 1000
            round_names[round_ids[rname]] = rname
        rno = round_ids[rname]
        nums = []
        for c in ("wins", "losses", "draws"):
            v = cell[c] or "0"
            if not _small_number(v):
                raise InputError(f"must be a whole number (at most 6 digits), got {shown(cell[c])}",
                                 field=c, where=where)
            nums.append(int(v))
        opp = cell["opponent"] or None
        if opp is not None and opp.lower() == "bye":
            opp = None
        if opp == player:
            raise InputError(f"{shown(player)} is paired against themselves", field="opponent", where=where)
        if double_loss and (opp is None or any(nums)):
            raise InputError("a double loss is a match loss for both players, with no games: it needs its opponent "
                             "and wins, losses and draws empty (or 0)", field=CSV_DOUBLE_LOSS, where=where)
        if (rno, player) in rows:
            raise InputError(f"{shown(player)} already has a row for round {rname} (line "
                             f"{rows[(rno, player)][4]})", field="player", where=where)
        rows[(rno, player)] = (opp, nums[0], nums[1], nums[2], lineno, double_loss)
        order.append((rno, player))
        if opp is not None and opp not in players:
            players.append(opp)
    # Named rounds (not numbers) come after the numbered ones, in file order.
    if any(r >= 1000 for r in round_ids.values()):
        numbered = max([r for r in round_ids.values() if r < 1000], default=0)
        remap = {r: (r if r < 1000 else numbered + r - 999) for r in round_ids.values()}
        rows = {(remap[r], p): v for (r, p), v in rows.items()}
        order = [(remap[r], p) for r, p in order]
        round_names = {remap[r]: n for r, n in round_names.items()}
    results: list[MatchResult] = []
    done: set[tuple[int, str]] = set()
    for rno, player in order:
        if (rno, player) in done:
            continue
        opp, w, l, d, lineno, double_loss = rows[(rno, player)]
        name = round_names[rno]
        elim = is_elimination_round(name)
        done.add((rno, player))
        if opp is None:
            results.append(MatchResult(rno, player, None, w, l, d, elim, name))
            continue
        mirror = rows.get((rno, opp))
        if mirror is not None:
            m_opp, mw, ml, md, mline, m_double = mirror
            if m_opp != player or (mw, ml, md, m_double) != (l, w, d, double_loss):
                said, m_said = slip_words(w, l, d, double_loss), slip_words(mw, ml, md, m_double)
                raise InputError(
                    f"round {name}: {player} vs {opp} is {said} on line {lineno}, but line {mline} "
                    f"says {opp} vs {m_opp or 'a bye'} {m_said}", field="opponent",
                    where=f"{path}:{mline}")
            done.add((rno, opp))
        refuse_no_game(w, l, d, double_loss, field="wins", where=f"{path}:{lineno}",
                       how=f"write the games played, or, if both players got a match loss, true in the "
                           f"{CSV_DOUBLE_LOSS} column (wins, losses and draws empty)")
        results.append(MatchResult(rno, player, opp, w, l, d, elim, name, double_loss=double_loss))
    return ResultsFile(path, "csv", results, players, None, "", round_names)


def _double_loss(text: str, where: str) -> bool:
    word = text.strip().casefold()
    if word not in TRUE_WORDS + FALSE_WORDS:
        raise InputError(f"true (both players got a match loss) or empty, got {shown(text)}",
                         field=CSV_DOUBLE_LOSS, where=where)
    return word in TRUE_WORDS


def results_to_csv(results: list[MatchResult]) -> str:
    """Write results in the CSV format above (both players' rows); the `double_loss` column only
    when a result is one."""
    from judge.io import csvcells

    buf = io.StringIO()
    w = csvcells.writer(buf)  # a player named "=HYPERLINK(...)" stays text in a spreadsheet
    any_double = any(r.double_loss for r in results)
    w.writerow(CSV_COLUMNS + ((CSV_DOUBLE_LOSS,) if any_double else ()))
    for r in results:
        rname = r.round_name or str(r.round)
        more = ["true" if r.double_loss else ""] if any_double else []
        w.writerow([rname, r.player1, r.player2 or "", r.wins1, r.wins2, r.draws, *more])
        if r.player2:
            w.writerow([rname, r.player2, r.player1, r.wins2, r.wins1, r.draws, *more])
    return buf.getvalue()
