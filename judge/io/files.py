"""Writing output files safely: names from ids that stay inside the output folder, and atomic writes.

- `safe_name(text)`: a file name stem from an id or a label. Text that is already a safe name
  (letters, digits, '.', '_', '-', not starting with '.') is kept as it is; anything else becomes
  its safe characters plus a short hash of the original, so two different ids never share a file
  (`a/b` and `a-b` do not collide) and no id can climb out of the folder (`../../x`, `/tmp/abs`).
- `inside(folder, name)`: the path of `name` in `folder`, refused if it would resolve elsewhere.
- `atomic_write(path)` / `atomic_path(path)`: write into a temporary file in the target folder and
  rename it into place; on any error (a full disk: ENOSPC) the temporary file is removed and the
  target is as it was. Nothing partial is ever left behind, and no `.part` files either.
"""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

_SAFE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}")
_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(text: str) -> str:
    """A file name stem for `text`: itself when safe, else its safe characters + a hash (unique)."""
    if _SAFE.fullmatch(text) and text not in (".", ".."):
        return text
    stem = _UNSAFE_RUN.sub("-", text).strip("-.")[:40] or "x"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{stem}-{digest}"


def inside(folder: str, name: str) -> str:
    """`folder/name`, checked to stay inside `folder` (a name is never a path)."""
    path = os.path.join(folder, name)
    base = os.path.realpath(folder)
    if os.path.dirname(os.path.realpath(path)) != base:
        raise ValueError(f"{name!r} would be written outside {folder}")
    return path


@contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """A temporary path in `path`'s folder to build a file at (a database, say); renamed onto
    `path` when the block ends without error, removed otherwise."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)[:60]}.", suffix=".tmp", dir=folder)
    os.close(fd)
    os.unlink(tmp)  # the builder creates it (SQLite wants a new file, not an empty one)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise


@contextmanager
def atomic_write(path: str, *, newline: str | None = None) -> Iterator[IO[str]]:
    """A text file (UTF-8) written completely or not at all."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)[:60]}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())  # a full disk shows here, before the rename, not after it
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise


def write_text(path: str, text: str) -> str:
    with atomic_write(path) as f:
        f.write(text)
    return path


def _remove(path: str) -> None:
    for p in (path, path + "-journal", path + "-wal", path + "-shm"):
        try:
            os.unlink(p)
        except FileNotFoundError:
            pass
