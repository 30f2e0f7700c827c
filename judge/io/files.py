"""Writing output files safely: names from ids that stay inside the output folder, and atomic writes.

- `safe_name(text)`: a file name stem from an id or a label. Text that is already a safe name
  (letters, digits, '.', '_', '-', not starting with '.') is kept as it is; anything else becomes
  its safe characters plus a short hash of the original, so two different ids never share a file
  (`a/b` and `a-b` do not collide) and no id can climb out of the folder (`../../x`, `/tmp/abs`).
- `inside(folder, name)`: the path of `name` in `folder`, refused if it would resolve elsewhere.
- `atomic_write(path)` / `atomic_path(path)`: write into a temporary file in the target folder and
  rename it into place; on any error (a full disk: ENOSPC) the temporary file is removed and the
  target is as it was. Nothing partial is ever left behind, and no `.part` files either. The file
  gets the mode a plain `open` would give it (0644 under the usual umask 022; an existing file
  keeps its own), not the temporary file's private 0600: a report is meant to be shared.
- Where `path` is not a regular file: a symbolic link is followed (the file it names is replaced,
  the link stays); a device, a FIFO or a socket (`-o /dev/stdout`, a named pipe) is written
  through in place, since it cannot be replaced (and must not be: renaming onto `/dev/null` as
  root would destroy it); a folder is refused.
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
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
    return hashed_name(text)


def hashed_name(text: str) -> str:
    """`text`'s safe characters + a short hash of it: a stem no other text gets."""
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


def _no_nul(path: str) -> None:
    if "\0" in path:
        from engine.match import InputError

        raise InputError("a file name cannot hold a NUL character", field="path")


def _target(path: str) -> tuple[str, os.stat_result | None]:
    """Where writing `path` really goes (a symbolic link followed) and what is there now."""
    _no_nul(path)
    try:
        st = os.stat(path)  # follows links
    except FileNotFoundError:
        return os.path.realpath(path), None  # a new file (or a dangling link's target)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", path)
    return (os.path.realpath(path) if stat.S_ISREG(st.st_mode) else path), st


def _umask() -> int:
    """The process's umask, read without changing it (os.umask sets it, and a server has threads)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode(existing: os.stat_result | None) -> int:
    return stat.S_IMODE(existing.st_mode) if existing is not None else 0o666 & ~_umask()


@contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """A temporary path in `path`'s folder to build a file at (a database, say); renamed onto
    `path` when the block ends without error, removed otherwise."""
    path, existing = _target(path)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        from engine.match import InputError

        raise InputError(f"{path} is not a regular file: this output is a SQLite file, written as a "
                         "file of its own", field="path")
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)[:60]}.", suffix=".tmp", dir=folder)
    os.close(fd)
    os.unlink(tmp)  # the builder creates it (SQLite wants a new file, not an empty one)
    try:
        yield tmp
        os.chmod(tmp, _mode(existing))
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise


@contextmanager
def atomic_write(path: str, *, newline: str | None = None) -> Iterator[IO[str]]:
    """A text file (UTF-8) written completely or not at all (a device or a FIFO: written through)."""
    path, existing = _target(path)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(path, "w", encoding="utf-8", newline=newline) as f:
            yield f
        return
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)[:60]}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            os.fchmod(f.fileno(), _mode(existing))
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
