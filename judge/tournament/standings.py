"""End-of-round standings: match results in, ranked rows out, under a named, parameterised policy.

Pure functions, no store: `compute_standings(results, policy)` is what `tablejudge standings FILE`
and the event-sourced tournament both call.

Policies (docs/tournaments.md has the sources and every parameter):
- `mtg`:     match points, OMW%, GW%, OGW%          (Magic Tournament Rules 3.1, Appendix C)
- `bandai`:  points, OMW%, OOMW%                    (community practice; option style=digimon:
             points, own MW% without byes, OMW%, head-to-head)
- `pokemon`: points, OWP, OOWP (win rate = wins / rounds, floor 25%, cap for dropped players 75%)
- `op2009`:  best-of-three match points (no match draws under MM25's end-of-time procedure),
             then the MTG tiebreakers (no tiebreaker is printed in the MM25 rules: our choice)

Numbers are floats; every average is taken in a fixed order and sort keys are rounded to 12
decimals, so two players whose true values are equal always tie (no last-bit noise decides a rank).
"""
from __future__ import annotations

import dataclasses
from engine.schema import shown
from judge.tournament.names import name_order
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

TIEBREAKERS = {
    "omw": "opponents' match-win rate (byes are not opponents)",
    "gw": "own game-win rate",
    "ogw": "opponents' game-win rate",
    "oomw": "opponents' opponents' match-win rate (average of the opponents' OMW)",
    "mw": "own match-win rate without byes (Digimon-style)",
    "h2h": "head-to-head: match points scored against the other players of the tied group",
}
TIEBREAKER_LABELS = {"omw": "OMW%", "gw": "GW%", "ogw": "OGW%", "oomw": "OOMW%", "mw": "MW%",
                     "h2h": "H2H"}
KEY_DIGITS = 12
DOUBLE_LOSS = "double-loss"  # a result both players lost (a double match loss): how it is written


def format_fraction(v: float | None) -> str:
    """0.604167 -> '60.42%' (for people; JSON keeps the fraction)."""
    return "" if v is None else f"{100 * v:.2f}%"


@dataclass(frozen=True)
class MatchResult:
    """One match as played: player1's game wins, player2's game wins, drawn games.
    `player2` None is a bye, or with `missed` a round player1 missed (a late entry: a match loss
    with no opponent, when the policy's `late_entry_losses` says so). `elimination` marks a top-cut
    match (it never counts in Swiss standings). `round` is the round's ordinal (1, 2, ...);
    `round_name` how the source called it. `double_loss`: both players got a match loss (no game
    counted, 0-0-0): tablejudge's policy, docs/tournaments.md "Double loss"."""

    round: int
    player1: str
    player2: str | None
    wins1: int
    wins2: int
    draws: int = 0
    elimination: bool = False
    round_name: str = ""
    missed: bool = False
    double_loss: bool = False

    @property
    def is_bye(self) -> bool:
        return self.player2 is None and not self.missed

    def winner(self) -> str | None:
        if self.missed or self.double_loss:
            return None
        if self.player2 is None or self.wins1 > self.wins2:
            return self.player1
        if self.wins2 > self.wins1:
            return self.player2
        return None



def slip_words(wins1: int, wins2: int, draws: int = 0, double_loss: bool = False) -> str:
    """A result as a slip says it: `W-L-D` in table order (`2-1-0`), or `double-loss`."""
    return DOUBLE_LOSS if double_loss else f"{wins1}-{wins2}-{draws}"


def slip_text(r: Any) -> str:
    """slip_words of a MatchResult, a recorded ResultRecorded, or a result event's payload (a
    mapping: `draws` may be left out, 0)."""
    get = r.get if isinstance(r, Mapping) else lambda k, default=None: getattr(r, k, default)
    return slip_words(get("wins1"), get("wins2"), get("draws", 0), bool(get("double_loss", False)))


@dataclass(frozen=True)
class Policy:
    """A standings policy: how points are scored and which tiebreakers order equal points.
    Every field is a parameter (`--option name=value`); the defaults are the documented reading."""

    name: str
    order: tuple[str, ...]
    win_points: int = 3
    draw_points: int = 1
    loss_points: int = 0
    bye_points: int = 3
    mw_floor: float = 1 / 3
    gw_floor: float = 1 / 3
    win_rate: str = "points"          # "points": points / (win_points * rounds); "wins": wins / rounds
    bye_in_own_mw: bool = True        # a bye counts as a won round in the player's own MW%
    bye_games: tuple[int, int] = (2, 0)  # the game record a bye counts as in the player's own GW%
    drawn_game_points: int = 0        # game points for one drawn game (MTR says 1; the fixture says 0)
    dropped_cap: float | None = None  # cap on a dropped player's MW% (Pokemon community practice)
    match_draws: bool = True          # False: a drawn match is reported as a warning (op2009)
    late_entry_losses: bool = True    # a late entrant has a match loss for each round paired before they
    #                                   registered (MTG practice); False: missed rounds are not counted
    style: str = "default"
    source: str = ""

    def params(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["order"] = list(self.order)
        d["bye_games"] = f"{self.bye_games[0]}-{self.bye_games[1]}"
        return d


_MTG_SOURCE = "Magic Tournament Rules 3.1 and Appendix C; readings verified on melee.gg event 15004"
POLICIES: dict[str, Policy] = {
    "mtg": Policy("mtg", ("omw", "gw", "ogw"), source=_MTG_SOURCE),
    "bandai": Policy("bandai", ("omw", "oomw"), bye_games=(1, 0),
                     source="Bandai OPTCG TRM 3.4 (points); tiebreakers from community tools"),
    "pokemon": Policy("pokemon", ("omw", "oomw"), mw_floor=0.25, gw_floor=0.25, win_rate="wins",
                      bye_games=(1, 0), dropped_cap=0.75,
                      source="Play! Pokemon practice (community implementations; not verified)"),
    "op2009": Policy("op2009", ("omw", "gw", "ogw"), match_draws=False,
                     source="MM25 'Situazione Fine Tempo' (no match draws); tiebreakers: MTG's, our choice"),
}
DIGIMON_ORDER = ("mw", "omw", "h2h")
# game -> its own standings policy, the default of a tournament of that game (QA: an optcg event
# defaulted to `mtg`'s tiebreakers, GW% and OGW%, not Bandai's OMW% and OOMW%). A game with none
# of its own takes FALLBACK_POLICY.
GAME_POLICIES = {"optcg": "bandai", "op2009": "op2009"}
FALLBACK_POLICY = "mtg"


def default_policy(game: str) -> str:
    """The standings policy of a tournament of `game` that names none."""
    return GAME_POLICIES.get(game, FALLBACK_POLICY)


class PolicyError(ValueError):
    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


def get_policy(name: str, options: Mapping[str, Any] | None = None) -> Policy:
    """A named policy with parameters overridden by `options` (values may be text, as typed)."""
    if name not in POLICIES:
        raise PolicyError(f"unknown standings policy {shown(name)} (policies: {', '.join(POLICIES)})",
                          "policy")
    policy = POLICIES[name]
    options = dict(options or {})
    if options.get("style") == "digimon":
        if name != "bandai":
            raise PolicyError("style=digimon is an option of the bandai policy", "style")
        policy = dataclasses.replace(policy, style="digimon", order=DIGIMON_ORDER, mw_floor=0.33,
                                     bye_in_own_mw=False)
        options.pop("style")
    fields = {f.name: f for f in dataclasses.fields(Policy)}
    changes: dict[str, Any] = {}
    for key, raw in options.items():
        if key in ("name", "source") or key not in fields:
            raise PolicyError(f"unknown policy option {shown(key)} (options: "
                              f"{', '.join(k for k in fields if k not in ('name', 'source'))})", key)
        changes[key] = _coerce(key, raw, getattr(policy, key))
    return dataclasses.replace(policy, **changes)


def _coerce(key: str, raw: Any, current: Any) -> Any:
    try:
        if key == "order":
            items = tuple(raw) if isinstance(raw, (list, tuple)) else tuple(
                s.strip() for s in str(raw).split(",") if s.strip())
            bad = [s for s in items if s not in TIEBREAKERS]
            if bad:
                raise ValueError(f"unknown tiebreaker {shown(bad[0])} (tiebreakers: {', '.join(TIEBREAKERS)})")
            return items
        if key == "bye_games":
            if isinstance(raw, (list, tuple)):
                a, b = raw
            else:
                a, b = str(raw).split("-")
            return (int(a), int(b))
        if key in ("mw_floor", "gw_floor", "dropped_cap"):
            if raw in (None, "", "none"):
                if key == "dropped_cap":
                    return None
                raise ValueError("must be a number")
            value = _number(raw)
            if not 0 <= value <= 1:
                raise ValueError("must be between 0 and 1")
            return value
        if isinstance(current, bool):
            if isinstance(raw, bool):
                return raw
            if str(raw).lower() in ("1", "true", "yes", "on"):
                return True
            if str(raw).lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError("must be true or false")
        if isinstance(current, int):
            try:
                return int(raw)
            except ValueError:
                raise ValueError("must be a whole number") from None
        if key == "win_rate":
            if raw not in ("points", "wins"):
                raise ValueError("must be 'points' or 'wins'")
        return str(raw)
    except (TypeError, ValueError) as e:
        raise PolicyError(f"{e} (got {shown(raw)})", key) from None  # the caller names the option (field)


def _number(raw: Any) -> float:
    if isinstance(raw, (int, float)):
        return float(raw)
    text = str(raw).strip()
    try:
        if "/" in text:
            num, den = text.split("/")
            return float(num) / float(den)
        return float(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError("must be a number or a fraction such as 1/3") from None


@dataclass
class _Record:
    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    missed: int = 0      # rounds missed by a late entry, each a match loss (counted in `losses`)
    double_losses: int = 0  # double losses, each a match loss (counted in `losses`)
    game_points: int = 0
    games: int = 0
    opponents: list[str] = field(default_factory=list)
    played: bool = False


@dataclass
class StandingRow:
    rank: int
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    byes: int
    rounds: int
    tiebreakers: dict[str, float | None]
    dropped: bool = False
    played: bool = True
    missed: int = 0  # rounds missed by a late entry, counted as losses (policy late_entry_losses)

    def to_dict(self) -> dict[str, Any]:
        d = {"rank": self.rank, "player": self.player, "points": self.points, "wins": self.wins,
             "losses": self.losses, "draws": self.draws, "byes": self.byes, "missed": self.missed,
             "rounds": self.rounds}
        d.update(self.tiebreakers)
        d["dropped"] = self.dropped
        d["played"] = self.played
        return d


def record_text(wins: int, losses: int, draws: int, byes: int, missed: int = 0) -> str:
    """W-L-D with the byes and missed rounds said: a bye counts as a won match, a round missed by a
    late entry as a lost one, so `2-1-0 (1 bye)` is one match won at the table and one bye. The
    printable sheet and the terminal's standings both say it so (QA82 6: the terminal's table left
    a late entrant's blank tiebreakers unexplained: `1-1-0 (1 bye, 1 missed)` says why)."""
    said = ([f"{byes} bye{'s' if byes != 1 else ''}"] if byes else []) + (
        [f"{missed} missed"] if missed else [])
    return f"{wins}-{losses}-{draws}" + (f" ({', '.join(said)})" if said else "")


@dataclass
class Standings:
    policy: Policy
    rows: list[StandingRow]
    rounds: list[int]
    warnings: list[str] = field(default_factory=list)

    def to_dicts(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.rows]

    def by_player(self) -> dict[str, StandingRow]:
        return {r.player: r for r in self.rows}


def swiss_only(results: Iterable[MatchResult]) -> list[MatchResult]:
    return [r for r in results if not r.elimination]


def compute_standings(results: Iterable[MatchResult], policy: Policy | str = "mtg", *,
                      players: Iterable[str] = (), dropped: Iterable[str] = (),
                      upto_round: int | None = None) -> Standings:
    """Rank every player of `results` (plus `players` registered but never paired, listed last
    with no tiebreakers). Elimination matches are ignored; `upto_round` stops after that round."""
    if isinstance(policy, str):
        policy = get_policy(policy)
    dropped = set(dropped)
    records: dict[str, _Record] = {}
    warnings: list[str] = []
    rounds_seen: set[int] = set()
    for p in players:
        records.setdefault(p, _Record())
    for r in results:
        if r.elimination or (upto_round is not None and r.round > upto_round):
            continue
        rounds_seen.add(r.round)
        _score(records, r, policy, warnings)

    mw = {p: _match_win_rate(rec, policy, p in dropped) for p, rec in records.items() if rec.played}
    gw = {p: _game_win_rate(rec, policy) for p, rec in records.items() if rec.played}
    omw = {p: _mean(mw[o] for o in rec.opponents) for p, rec in records.items() if rec.played}
    values: dict[str, dict[str, float | None]] = {}
    for p, rec in records.items():
        if not rec.played:
            values[p] = {k: None for k in policy.order if k != "h2h"}
            continue
        v: dict[str, float | None] = {}
        for key in policy.order:
            if key == "omw":
                v["omw"] = omw[p]
            elif key == "gw":
                v["gw"] = gw[p]
            elif key == "ogw":
                v["ogw"] = _mean(gw[o] for o in rec.opponents)
            elif key == "oomw":
                v["oomw"] = _mean(x for x in (omw[o] for o in rec.opponents) if x is not None)
            elif key == "mw":
                v["mw"] = _own_rate_without_byes(rec, policy)
        values[p] = v

    order = _rank(records, values, policy, results, upto_round)
    rows = []
    for i, p in enumerate(order, start=1):
        rec = records[p]
        rows.append(StandingRow(
            rank=i, player=p, points=rec.points, wins=rec.wins, losses=rec.losses, draws=rec.draws,
            byes=rec.byes, rounds=rec.wins + rec.losses + rec.draws, tiebreakers=values[p],
            dropped=p in dropped, played=rec.played, missed=rec.missed))
    return Standings(policy, rows, sorted(rounds_seen), warnings)


def _score(records: dict[str, _Record], r: MatchResult, policy: Policy, warnings: list[str]) -> None:
    a = records.setdefault(r.player1, _Record())
    if r.missed:  # a late entry's missed round: a match loss, no opponent; not a match played
        if policy.late_entry_losses:
            a.points += policy.loss_points
            a.losses += 1
            a.missed += 1
        return
    a.played = True
    if r.player2 is None:
        a.points += policy.bye_points
        a.wins += 1
        a.byes += 1
        return
    b = records.setdefault(r.player2, _Record())
    b.played = True
    a.opponents.append(r.player2)
    b.opponents.append(r.player1)
    if r.double_loss:  # a match loss for both; still each other's opponent (they were paired)
        for rec in (a, b):
            rec.losses += 1
            rec.points += policy.loss_points
            rec.double_losses += 1
        return
    games = r.wins1 + r.wins2 + r.draws
    for rec, won, lost in ((a, r.wins1, r.wins2), (b, r.wins2, r.wins1)):
        rec.games += games
        rec.game_points += 3 * won + policy.drawn_game_points * r.draws
        if won > lost:
            rec.wins += 1
            rec.points += policy.win_points
        elif won < lost:
            rec.losses += 1
            rec.points += policy.loss_points
        else:
            rec.draws += 1
            rec.points += policy.draw_points
    if r.wins1 == r.wins2 and not policy.match_draws:
        warnings.append(f"round {r.round}: {r.player1} vs {r.player2} is recorded as a draw "
                        f"({slip_text(r)}); under {policy.name} a match does not end in a draw")


def _match_win_rate(rec: _Record, policy: Policy, is_dropped: bool) -> float:
    rounds = rec.wins + rec.losses + rec.draws
    points, wins = rec.points, rec.wins
    if not policy.bye_in_own_mw:
        rounds -= rec.byes
        points -= rec.byes * policy.bye_points
        wins -= rec.byes
    if rounds <= 0:
        rate = policy.mw_floor
    elif policy.win_rate == "wins":
        rate = wins / rounds
    else:
        rate = points / (policy.win_points * rounds)
    rate = max(policy.mw_floor, rate)
    if is_dropped and policy.dropped_cap is not None:
        rate = min(rate, policy.dropped_cap)
    return rate


def _own_rate_without_byes(rec: _Record, policy: Policy) -> float:
    rounds = rec.wins + rec.losses + rec.draws - rec.byes
    if rounds <= 0:
        return policy.mw_floor
    points = rec.points - rec.byes * policy.bye_points
    return max(policy.mw_floor, points / (policy.win_points * rounds))


def _game_win_rate(rec: _Record, policy: Policy) -> float:
    won, lost = policy.bye_games
    # a missed round (late entry) and a double loss count as the bye's game record reversed: 0-2 under mtg
    lost_rounds = rec.missed + rec.double_losses
    games = rec.games + (rec.byes + lost_rounds) * (won + lost)
    points = rec.game_points + rec.byes * 3 * won + lost_rounds * 3 * lost
    if games <= 0:
        return policy.gw_floor
    return max(policy.gw_floor, points / (3 * games))


def _mean(values: Iterable[float]) -> float | None:
    total, n = 0.0, 0
    for v in values:
        total += v
        n += 1
    return total / n if n else None


def sort_key(row_points: int, values: Mapping[str, float | None], order: Iterable[str]) -> tuple:
    """The policy's sort key (larger is better) for one row, h2h left out (it is not a property
    of one row). None (no opponents) sorts below every number."""
    key: list[float] = [row_points]
    for k in order:
        if k == "h2h":
            continue
        v = values.get(k)
        key.append(-1.0 if v is None else round(v, KEY_DIGITS))
    return tuple(key)


def _rank(records: dict[str, _Record], values: dict[str, dict[str, float | None]], policy: Policy,
          results: Iterable[MatchResult], upto_round: int | None) -> list[str]:
    def key(p: str) -> tuple:
        rec = records[p]
        return (rec.played, *sort_key(rec.points, values[p], policy.order))

    # Name is the last, deterministic tiebreak (documented): sort by name, then stably by key.
    order = sorted(records, key=name_order)
    order.sort(key=key, reverse=True)
    if "h2h" not in policy.order:
        return order
    # h2h only orders the players the keys before it leave tied (the keys after it are ignored
    # inside such a group, as the Digimon TRM's order implies).
    before = policy.order[:policy.order.index("h2h")]
    between: dict[tuple[str, str], int] = defaultdict(int)
    for r in results:
        if r.elimination or r.player2 is None or (upto_round is not None and r.round > upto_round):
            continue
        w = r.winner()
        for p, q in ((r.player1, r.player2), (r.player2, r.player1)):
            between[(p, q)] += (policy.win_points if w == p else policy.loss_points if r.double_loss
                                else policy.draw_points if w is None else policy.loss_points)
    out: list[str] = []
    i = 0
    while i < len(order):
        head = (records[order[i]].played, *sort_key(records[order[i]].points, values[order[i]], before))
        j = i + 1
        while j < len(order) and (records[order[j]].played, *sort_key(
                records[order[j]].points, values[order[j]], before)) == head:
            j += 1
        group = order[i:j]
        if len(group) > 1 and records[group[0]].played:
            h2h = {p: sum(between.get((p, q), 0) for q in group if q != p) for p in group}
            for p in group:
                values[p]["h2h"] = float(h2h[p])
            group.sort(key=lambda p: -h2h[p])  # stable: the later keys and name order stay inside
        elif records[group[0]].played:
            values[group[0]]["h2h"] = 0.0
        out.extend(group)
        i = j
    return out


# --- checking another tool's numbers ---------------------------------------------------------

PUBLISHED_COLUMNS = {  # the published column -> our field
    "Rank": "rank", "Points": "points", "Wins": "wins", "Losses": "losses", "Draws": "draws",
    "OMWP": "omw", "GWP": "gw", "OGWP": "ogw", "OOMWP": "oomw",
}


FRACTION_COLUMNS = ("omw", "gw", "ogw", "oomw")


def uncompared_columns(policy: Policy, published: list[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The published tiebreaker columns the policy does not compute (so `compare` skips them),
    each as {column, field, reason}: comparing them with nothing would report a difference per row."""
    present = {col for pub in published for col, v in pub.items() if v is not None}
    return [{"column": col, "field": key, "reason": f"not computed by policy {policy.name}"}
            for col, key in PUBLISHED_COLUMNS.items()
            if key in FRACTION_COLUMNS and key not in policy.order and col in present]


def compare(standings: Standings, published: list[Mapping[str, Any]], *,
            tolerance: float = 1e-6) -> list[dict[str, Any]]:
    """Every row and column where our standings differ from published ones: one entry per
    difference, {player, column, ours, published}. Fractions agree within `tolerance` (published
    values are rounded); a published percentage (a value above 1 in a fraction column) is read as
    percent. A player missing on either side is one entry with column "row". Tiebreaker columns the
    policy does not compute are not compared (`uncompared_columns` lists them)."""
    ours = standings.by_player()
    skipped = {c["column"] for c in uncompared_columns(standings.policy, published)}
    out: list[dict[str, Any]] = []
    seen = set()
    for pub in published:
        player = pub.get("Player")
        seen.add(player)
        row = ours.get(player)
        if row is None:
            out.append({"player": player, "column": "row", "ours": None, "published": "listed"})
            continue
        data = row.to_dict()
        for col, key in PUBLISHED_COLUMNS.items():
            if col not in pub or pub[col] is None or col in skipped:
                continue
            theirs = pub[col]
            mine = data.get(key)
            if key in FRACTION_COLUMNS:
                try:
                    theirs_f = float(theirs)
                except (TypeError, ValueError):
                    out.append({"player": player, "column": key, "ours": mine, "published": theirs})
                    continue
                if theirs_f > 1:
                    theirs_f /= 100
                if mine is None or abs(mine - theirs_f) > tolerance:
                    out.append({"player": player, "column": key, "ours": mine, "published": theirs})
            elif mine != theirs:
                out.append({"player": player, "column": key, "ours": mine, "published": theirs})
    for row in standings.rows:
        if row.player not in seen:
            out.append({"player": row.player, "column": "row", "ours": "listed", "published": None})
    return out
