"""A full disk while writing a report or an export (ENOSPC, a real one): a clear message, exit 2,
no half-written file and no temporary file left; a file that was there before is as it was.

The full disk is a 16 KiB tmpfs mounted over the output folder in a private mount namespace
(`unshare --mount`, as root or through a user namespace), so nothing outside this test sees it."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT, run_cli

UNSHARE = shutil.which("unshare")


def _namespace_prefix() -> list[str] | None:
    if not UNSHARE:
        return None
    for prefix in ([UNSHARE, "--mount"], [UNSHARE, "--user", "--map-root-user", "--mount"]):
        probe = subprocess.run(prefix + ["sh", "-c", "mount -t tmpfs -o size=16k tmpfs /mnt 2>/dev/null "
                                         "|| mount -t tmpfs -o size=16k tmpfs \"$TMPDIR\""],
                               capture_output=True, env=dict(os.environ, TMPDIR="/tmp"))
        if probe.returncode == 0:
            return prefix
    return None


PREFIX = _namespace_prefix()
pytestmark = pytest.mark.skipif(PREFIX is None, reason="needs `unshare --mount` and tmpfs mounts "
                                "(root, or user namespaces) to make a real full disk")


@pytest.fixture
def big_match(tmp_path):
    db = str(tmp_path / "t.db")
    mid = "fullmatch"
    assert run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", "--id", mid, "--round", "1",
                   db=db).returncode == 0
    lines = ['{"kind": "note", "payload": {"text": "%s"}}' % ("n" * 200) for _ in range(300)]
    (tmp_path / "more.jsonl").write_text("\n".join(lines) + "\n")
    assert run_cli("import", str(tmp_path / "more.jsonl"), "--match", mid, db=db).returncode == 0
    return db, mid


def _on_full_disk(out: str, args: list[str], db: str) -> tuple[int, str, list[str]]:
    """Run `tablejudge ARGS` with a 16 KiB tmpfs over OUT; return exit code, stderr, files left in OUT."""
    script = (f"mount -t tmpfs -o size=16k tmpfs {out} && echo before > {out}/keep.txt && "
              f"\"$@\" 2> {out}/../stderr.txt; echo $? > {out}/../code.txt; ls -a {out} > {out}/../files.txt")
    env = dict(os.environ, PYTHONPATH=ROOT, TABLEJUDGE_USER="tester")
    subprocess.run(PREFIX + ["sh", "-c", script, "sh", sys.executable, "-m", "judge", "--db", db, *args],
                   cwd=ROOT, env=env, check=True, timeout=120)
    parent = os.path.dirname(out)
    read = lambda name: open(os.path.join(parent, name), encoding="utf-8").read()  # noqa: E731
    files = [f for f in read("files.txt").split() if f not in (".", "..")]
    return int(read("code.txt")), read("stderr.txt"), files


@pytest.mark.parametrize("what", ["export-jsonl", "export-csv", "export-sqlite", "report"])
def test_a_full_disk_leaves_nothing_partial(what, big_match, tmp_path):
    db, mid = big_match
    out = str(tmp_path / "out")
    os.makedirs(out)
    args = {"export-jsonl": ["export", mid, "-o", f"{out}/x.jsonl"],
            "export-csv": ["export", mid, "--format", "csv", "-o", f"{out}/x.csv"],
            "export-sqlite": ["export", mid, "--format", "sqlite", "-o", f"{out}/x.sqlite"],
            "report": ["report", mid, "--out-dir", out]}[what]
    code, stderr, files = _on_full_disk(out, args, db)
    assert code == 2, stderr
    assert "No space left on device" in stderr or "full" in stderr, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr
    assert files == ["keep.txt"], files  # no half a file, no temporary file
