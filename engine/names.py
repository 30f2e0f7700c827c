"""Players as named now: the one view every page, list and result line uses for a match's players.

A seat keeps the name its match was created with (stored events are never rewritten): an
imported OPTCGSim copy cut before the log named a player knows them by the simulator's
placeholder ("Player 2"). A later copy that names them records a `player.named` correction
(optcg vocabulary); replay keeps it in `TableState.extra[NAMES]`, so a judge's correction voiding
that event brings the placeholder back, like any voided event. The events, findings and rule
words keep the seat's name, so where a judge must match a line of the log to a player the name is
shown with its seat: "Theshyopop#27381 (seat Player 2)".
"""
from __future__ import annotations

import re
from typing import Any

from engine.events import JUDGE_PREFIX, TABLE_ACTOR
from engine.state import TableState

NAMED = "player.named"  # the event kind that names a seat (rulesets whose vocabulary has it)
NAMES = "names"  # TableState.extra: seat -> {"name", "position"} (the naming event)
PLACEHOLDER = re.compile(r"Player [1-9][0-9]*")


def placeholder(seat: int) -> str:
    """The name a seat gets when the log never names its player (a copy cut before it does)."""
    return f"Player {seat}"


def naming_refusal(actor: str, payload: dict[str, Any], players: list[str]) -> tuple[str, str] | None:
    """(message, field) if a `player.named` may not be recorded, else None. Only the importer
    (the table, '-') or a judge names a seat, only a seat known by a placeholder, and never by
    another seat's name: otherwise any recorder could rename a seat and move a result in the
    standings (review: a player recording "Ann is Bob, Bob is Ann" took Ann's win)."""
    if actor != TABLE_ACTOR and not actor.startswith(JUDGE_PREFIX):
        return (f"a seat is named by the importer (the table, '-') or a judge ('judge:NAME'), "
                f"not by {actor}", "actor")
    seat, name = payload["player"], payload["name"]
    if not PLACEHOLDER.fullmatch(seat):
        return (f"{seat} is the name the match was created with; only a seat known by a placeholder "
                "('Player 2') is named by a later event", "payload.player")
    if name.strip() in players:
        return f"{name.strip()} is already a seat of this match", "payload.name"
    return None


def name_seat(named: dict[str, dict[str, Any]], event: Any) -> None:
    """Apply one standing `player.named` event to `named` (seat -> {"name", "position"}): the
    last one for a seat wins. Replay keeps `named` in TableState.extra[NAMES]; `match_names`
    folds the naming events alone."""
    named[event.payload["player"]] = {"name": event.payload["name"], "position": event.position}


def _as_named(players: list[str], named: dict[str, dict[str, Any]]) -> dict[str, str]:
    return {p: named[p]["name"] if p in named else p for p in players}


def names_now(state: TableState) -> dict[str, str]:
    """Seat -> the name it goes by now (its own where no standing event names it)."""
    return _as_named(state.players, state.extra.get(NAMES) or {})


def match_names(match: Any) -> dict[str, str]:
    """`names_now` of a match's table at its last event, without replaying it (a list of many
    matches stays cheap): its `player.named` events and the corrections and backups that may void
    or replace them are all that decide it. They are played as the corrected replay plays them
    (`as_corrected`: a backup voids a naming in its span, since a naming is no desk event; a
    judge's correction with `instead` names the seat as its replacement says). A ruleset that
    cannot name a seat reads nothing."""
    if NAMED not in match.ruleset.vocabulary():
        return {p: p for p in match.players}
    from engine.replay import VOIDING_KINDS, as_corrected  # (replay imports the rulesets, which import this)
    named: dict[str, dict[str, Any]] = {}
    for e in as_corrected(match.store.read_kinds(match.id, (NAMED, *VOIDING_KINDS))):
        if e.kind == NAMED:
            name_seat(named, e)
    return _as_named(match.players, named)


def any_named(names: dict[str, str]) -> bool:
    """Does any seat go by another name now?"""
    return any(seat != name for seat, name in names.items())


def shown(seat: str | None, names: dict[str, str]) -> str | None:
    """A seat as a person reads it: its name now, with the seat the log calls it by when they differ."""
    if seat is None:
        return None
    name = names.get(seat, seat)
    return seat if name == seat else f"{name} (seat {seat})"


def shown_players(names: dict[str, str]) -> list[str]:
    """Every seat, in seat order, as `shown`."""
    return [shown(p, names) or p for p in names]
