"""The match clock as the log sets it: round start, extensions, time called; the time left."""
from __future__ import annotations

import re

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from engine.desk import ends_extra_minutes, judge_of
from engine.events import RecordedEvent


# --- the clock --------------------------------------------------------------------------------


WALL_CLOCK = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def check_wall_clock(text: str) -> str:
    """A time of day as a judge writes it (HH:MM), or InputError (field `clock`)."""
    from engine.match import InputError
    from engine.schema import shown
    if not isinstance(text, str) or not WALL_CLOCK.fullmatch(text):
        raise InputError(f"the clock is a time of day as HH:MM (e.g. 15:40), got {shown(text)}", field="clock")
    return text


def wall_clock_now() -> str:
    """The judge's wall clock now, HH:MM in the machine's LOCAL time zone: the default of every
    `--clock`, which a judge otherwise types off the venue's clock (local time). UTC here put a
    default-clock mark hours away from a typed call (a bug: refused "before the call")."""
    return datetime.now().astimezone().strftime("%H:%M")


def started_at_clock(hhmm: str, now: datetime | None = None) -> str:
    """The moment a round began, ISO in UTC, from the wall clock a judge announced it at (HH:MM,
    local time): that time of day nearest to now (a round typed in after midnight began the day
    before)."""
    now = (now or datetime.now()).astimezone()
    h, m = map(int, check_wall_clock(hhmm).split(":"))
    at = now.replace(hour=h, minute=m, second=0, microsecond=0)
    if at - now > timedelta(hours=12):
        at -= timedelta(days=1)
    elif now - at > timedelta(hours=12):
        at += timedelta(days=1)
    return at.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def parse_time(text: str) -> datetime:
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def local_time(iso: str | None, now: datetime | None = None) -> str | None:
    """A UTC time from the log as people at the event read it (the pages, the CLI's warnings): the
    machine's local time (its TZ) with the zone's name, the day only when it is not today: "23:21
    CET", "Fri 27 Nov 00:10 CET"."""
    if not iso:
        return None
    t = parse_time(iso).astimezone()
    today = (now or datetime.now(timezone.utc)).astimezone().date()
    day = "" if t.date() == today else t.strftime("%a %d %b ")
    return f"{day}{t.strftime('%H:%M')} {t.tzname() or t.strftime('UTC%z')}"


@dataclass
class Clock:
    """The match clock from the log: round start + extensions. Times are UTC."""

    started_at: datetime | None = None
    start_position: int | None = None
    minutes: int = 0
    extensions: list[dict[str, Any]] = field(default_factory=list)
    called: dict[str, Any] | None = None
    extra_minutes_over: dict[str, Any] | None = None  # a policy's extra minutes after the call ran out

    @property
    def running(self) -> bool:
        return self.started_at is not None

    @property
    def extra_minutes(self) -> int:
        return sum(x["minutes"] for x in self.extensions)

    @property
    def ends_at(self) -> datetime | None:
        if self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.minutes + self.extra_minutes)

    def time_left(self, now: datetime) -> timedelta | None:
        """Time left at `now` (negative: over time). None: the round was never started."""
        end = self.ends_at
        return None if end is None else end - now

    def to_dict(self, now: datetime | None = None) -> dict[str, Any]:
        now = now or datetime.now(timezone.utc)
        left = self.time_left(now)
        return {
            "started_at": _iso(self.started_at), "start_position": self.start_position,
            "minutes": self.minutes, "extensions": self.extensions,
            "extra_minutes": self.extra_minutes, "ends_at": _iso(self.ends_at),
            "now": _iso(now), "seconds_left": None if left is None else int(left.total_seconds()),
            "time_left": None if left is None else format_left(left), "called": self.called,
            "extra_minutes_over": self.extra_minutes_over,
        }


def _iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat(timespec="seconds").replace("+00:00", "Z")


def format_left(left: timedelta) -> str:
    secs = int(left.total_seconds())
    sign = "-" if secs < 0 else ""
    secs = abs(secs)
    return f"{sign}{secs // 60}:{secs % 60:02d}" + (" (over time)" if sign else "")


def clock_of(events: list[RecordedEvent], voided: set[int] = frozenset()) -> Clock:
    """The clock as the log sets it. A later round.start replaces an earlier one (a restart)."""
    c = Clock()
    for e in events:
        if e.position in voided:
            continue
        p = e.payload
        if e.kind == "round.start":
            c = Clock(parse_time(p.get("started_at") or e.recorded_at), e.position, p["minutes"])
        elif e.kind == "time.extension":
            c.extensions.append({"position": e.position, "minutes": p["minutes"], "reason": p["reason"],
                                 "judge": judge_of(e.actor)})
        elif ends_extra_minutes(e):  # not the call: the end of the extra minutes after it
            c.extra_minutes_over = {"position": e.position, "clock": p["clock"], "recorded_at": e.recorded_at}
        elif e.kind == "time.called":
            c.called = {"position": e.position, "clock": p["clock"], "recorded_at": e.recorded_at}
    return c
