"""Who may see hidden cards: the one notion of a viewer that every view of a match shares (the
replay, the web's pages and API, the match and round reports). A public viewer (a scorekeeper, a
player, a spectator, a report posted on the wall) gets each event as `Ruleset.hide(kind, payload)`
leaves it; the staff's view (a judge's or the organizer's link, `--staff`) gets the log as recorded."""
from __future__ import annotations

from engine import replacing
from engine.events import RecordedEvent
from engine.match import Match

# What a staff view says of itself, wherever one is written (a report, a saved replay): a file
# that leaves the staff's hands must not carry hands.
STAFF_WARNING = "staff view: shows hidden cards — do not hand to players"


def hide_event(match: Match, e: RecordedEvent) -> RecordedEvent:
    """The event as a viewer who may not see hidden cards gets it."""
    if e.position == 1:
        return e
    try:
        return e._replace(payload=replacing.hide(match.ruleset, e.kind, dict(e.payload)))
    except Exception:  # noqa: BLE001 - a stored payload hide() cannot read: show nothing of it
        return e._replace(payload={k: v for k, v in e.payload.items() if k in ("player",)})


def seen_log(match: Match, log: list[RecordedEvent], hidden: bool) -> list[RecordedEvent]:
    """The log as the viewer sees it: every event hidden (`hidden`), or as recorded."""
    return [hide_event(match, e) for e in log] if hidden else list(log)
