"""Writing report files: names from labels, natural sort, atomic writes into the output folder."""
from __future__ import annotations

import os
import re
from typing import Any

from engine.schema import InputError

from judge.io.files import hashed_name, inside, safe_name, write_text

DEFAULT_DIR = "exports"

# --- files -----------------------------------------------------------------------------------


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "x"


def natural_key(label: Any) -> tuple:
    s = "" if label is None else str(label)
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s))


def write_file(path: str, html: str) -> str:
    return write_text(path, html)  # atomic: never half a report, never a leftover temporary file


# The staff's view (hands and all) is named apart from the public view by this suffix. QA80 1:
# both went to OUT_DIR/MATCH.html, so `report --staff` silently replaced a public report that an
# organizer may have posted, and a shared exports/ folder gave out the players' hands.
STAFF_SUFFIX = ".staff"


def report_name(stem: str, staff: bool = False) -> str:
    """The file name of a report: `<safe name of stem>.html`, the staff's view
    `<safe name of stem>.staff.html`. A public name never ends in `.staff.html` (a label that
    would, `1.staff`, gets its hashed name), so neither view can take the other's file."""
    name = safe_name(stem)
    if staff:
        return f"{name}{STAFF_SUFFIX}.html"
    if name.lower().endswith(STAFF_SUFFIX):
        name = hashed_name(stem)
    return f"{name}.html"


def report_path(out_dir: str, stem: str, staff: bool = False) -> str:
    """OUT_DIR/report_name(stem, staff): an id or a label never leaves the folder, two different
    ids never share a file, and a staff view never shares one with a public view."""
    return inside(out_dir, report_name(stem, staff))


# --- which view a written file holds ----------------------------------------------------------

# Every file tablejudge writes from a match (report, round page, replay, appeals file) says in its
# head which view it holds: <meta name="tablejudge-view" content="staff|public">. QA81 M3: `-o`
# named the public file and `--staff` replaced it with hands and all, without a word.
VIEW_META = "tablejudge-view"
_VIEW_RE = re.compile(r'<meta name="%s" content="(staff|public)">' % VIEW_META)
# Files written before the meta existed say it in their body: the report's view notice, the replay's.
_OLDER = (('<p id="view" class="staff-view">', "staff"), ('<p id="view" class="muted">', "public"),
          ("The staff's view: every card the log names", "staff"),
          ("Hidden information stays hidden: cards nobody", "public"))
_HEAD_BYTES = 64 * 1024  # the meta is in the head; the older notices near the top of the body


def file_view(path: str) -> str | None:
    """"staff" or "public" when `path` is a file tablejudge wrote with that view, else None (no
    file, or not one of ours)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(_HEAD_BYTES)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    found = _VIEW_RE.search(head)
    if found:
        return found.group(1)
    for marker, view in _OLDER:
        if marker in head:
            return view
    return None


def check_view_replace(path: str, staff: bool, overwrite: bool = False) -> None:
    """Refuse (nothing written) to replace a file that holds the other view: a staff view over a
    public file hands the players' cards to whoever was given that file; a public view over a staff
    file loses the judges' copy. `overwrite` (--overwrite) says the replacement is meant."""
    if overwrite or not os.path.isfile(path):
        return
    held = file_view(path)
    wanted = "staff" if staff else "public"
    if held is None or held == wanted:
        return
    if staff:
        why = (f"{path} holds the public view (hidden cards hidden, a file for players): writing the staff's "
               f"view there would put hidden cards under a public name")
    else:
        why = f"{path} holds the staff's view (hidden cards shown): the public view would replace the judges' file"
    raise InputError(f"{why}; write to another file (-o), or give --overwrite to replace it", field="out")
