"""Writing report files: names from labels, natural sort, atomic writes into the output folder."""
from __future__ import annotations

import re
from typing import Any

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
