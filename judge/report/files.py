"""Writing report files: names from labels, natural sort, atomic writes into the output folder."""
from __future__ import annotations

import re
from typing import Any

from judge.io.files import inside, safe_name, write_text

DEFAULT_DIR = "exports"

# --- files -----------------------------------------------------------------------------------


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "x"


def natural_key(label: Any) -> tuple:
    s = "" if label is None else str(label)
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s))


def write_file(path: str, html: str) -> str:
    return write_text(path, html)  # atomic: never half a report, never a leftover temporary file


def report_path(out_dir: str, stem: str) -> str:
    """OUT_DIR/<safe name of stem>.html: an id or a label never leaves the folder, and two
    different ids never share a file."""
    return inside(out_dir, f"{safe_name(stem)}.html")
