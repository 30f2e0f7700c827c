"""Writing report files: names from labels, natural sort, atomic writes into the output folder."""
from __future__ import annotations

import os
import re
from typing import Any




DEFAULT_DIR = "exports"

# --- files -----------------------------------------------------------------------------------


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "x"


def natural_key(label: Any) -> tuple:
    s = "" if label is None else str(label)
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s))


def write_file(path: str, html: str) -> str:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".part"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(html)
    os.replace(tmp, path)  # never leave half a report behind
    return path
