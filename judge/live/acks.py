"""Where a live recorder keeps the last position it acknowledged, so a resumed session (after a
crash, a kill, a closed laptop) can show what was stored after the last acknowledgement: a line
whose acknowledgement never reached the screen must not be typed twice.

One small JSON file per (event log, match, recorder) under the state folder: $TABLEJUDGE_STATE_DIR,
else $XDG_STATE_HOME/tablejudge, else ~/.local/state/tablejudge. Written after the acknowledgement
is printed, by rename, so it is whole or absent.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile

STATE_ENV = "TABLEJUDGE_STATE_DIR"


def state_dir() -> str:
    if os.environ.get(STATE_ENV):
        return os.environ[STATE_ENV]
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "tablejudge")


class AckFile:
    """The last acknowledged position of one recorder on one match of one log."""

    def __init__(self, db: str, match: str, recorder: str, folder: str | None = None):
        self.db, self.match, self.recorder = db, match, recorder
        key = hashlib.sha256(json.dumps([db, match, recorder]).encode("utf-8")).hexdigest()[:20]
        self.path = os.path.join(folder or state_dir(), "live", f"{key}.json")

    def read(self) -> int | None:
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            return None
        if [data.get("db"), data.get("match"), data.get("recorded_by")] != [self.db, self.match, self.recorder]:
            return None
        pos = data.get("position")
        return pos if isinstance(pos, int) and not isinstance(pos, bool) else None

    def write(self, position: int) -> None:
        """Best effort: a recorder that cannot write its state folder still records (it only loses
        the resume notice), so an OSError is swallowed here."""
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self.path), prefix=".ack-")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"db": self.db, "match": self.match, "recorded_by": self.recorder,
                           "position": position}, f)
            os.replace(tmp, self.path)
        except OSError:
            pass
