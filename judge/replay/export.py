"""The replay as one HTML file, like a Showdown replay: the log inside (the timeline's JSON), the
viewer's script and styles inline, nothing fetched (its Content-Security-Policy allows no network
at all), so it opens from a USB stick on a laptop with no connection.

    write_replay(match, "exports/table47.html")              # hidden information hidden
    write_replay(match, "exports/table47.html", staff=True)  # the staff's view: hands and all

The web's replay page renders the same template with the same data, its script served separately
(a server's pages allow only their own scripts) and a live stream."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from engine.match import Match
from judge.io.files import inside, write_text
from judge.replay.timeline import Timeline, walk
from judge.report.files import report_name
from judge.report.templating import render, template_dir

ASSETS = ("board.js", "replay.js")


def asset(name: str) -> str:
    return (template_dir() / "replay" / name).read_text(encoding="utf-8")


def replay_html(tl: Timeline, *, inline: bool = True, live_url: str | None = None, data_url: str | None = None,
                links: list[dict[str, str]] | None = None, base: str = "") -> str:
    """The viewer page. `inline`: the self-contained file (script and styles inside)."""
    m = tl.match
    title = f"{' vs '.join(m['shown'])} — replay" + (f" ({m['labels'].get('event')})" if m["labels"].get("event") else "")
    extra: dict[str, Any] = {}
    if inline:
        extra = {"js": "\n".join(asset(a) for a in ASSETS), "css": asset("replay.css"),
                 "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")}
    return render("replay/replay.html", title=title, m=m, data=tl.to_data(), inline=inline, live_url=live_url,
                  data_url=data_url, links=links or [], base=base, **extra)


def default_path(out_dir: str, match_id: str, staff: bool = False) -> str:
    """OUT_DIR/MATCH-replay.html, the staff's view MATCH-replay.staff.html: named apart as the
    reports are (judge.report.files.report_name), so neither view replaces the other's file."""
    return inside(out_dir, report_name(f"{match_id}-replay", staff))


def write_replay(match: Match, path: str, *, staff: bool = False, event_db: str | None = None) -> str:
    """Write the self-contained replay file (atomically). Hidden information is hidden unless `staff`;
    card names come from the card data (`event_db`: the log, beside which a cards.db may be)."""
    return write_text(path, replay_html(walk(match, hidden=not staff, event_db=event_db)))
