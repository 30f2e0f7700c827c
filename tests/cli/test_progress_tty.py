"""QA79 F2: on a terminal the import's progress bar redraws itself (CR, ESC[?25l), while a file's
name or words stay written out (`\\u001b`). Run in a pseudo-terminal: the bar only draws on one."""
from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys

import pytest

from tests.rulesets.optcg.support import HERE, ROOT

SIM = os.path.join(HERE, "fixtures", "optcgsim")
BAD_NAME = "bad\x1b[31m.log"


def on_a_terminal(args: list[str]) -> bytes:
    """What a terminal shows of `python -m judge ARGS` (stdout and stderr both on a pty)."""
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "PYTHONPATH": ROOT, "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "judge", *args], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    proc.wait(timeout=120)
    return out


@pytest.mark.parametrize("workers", [["--workers", "2"], []])
def test_the_bar_draws_on_a_terminal_and_a_file_name_stays_written_out(tmp_path, workers):
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(os.path.join(SIM, "esempio.log"), folder / "a.log")
    shutil.copy(os.path.join(SIM, "variants", "v1_hdr_140a_real.log"), folder / "b.log")
    (folder / BAD_NAME).write_text("RZ1|1|1|OP01-001\n", encoding="utf-8")
    # a folder of OPTCGSim logs: the bulk import (importing.py); files read as JSONL (all refused,
    # which is enough to draw its bar and name them): the file-by-file loop of matches.py
    args = ["--db", str(tmp_path / "t.db"), "import", str(folder), *workers] if workers else \
        ["--db", str(tmp_path / "t.db"), "import", "--format", "jsonl",
         *(str(folder / n) for n in sorted(os.listdir(folder)))]
    shown = on_a_terminal(args)
    assert b"\\u000d" not in shown and b"\\u001b[?25l" not in shown, shown[:300]
    assert b"\rimporting" in shown or b"\x1b[?25l" in shown, shown[:300]  # the bar redraws in place
    assert b"bad\\u001b[31m.log" in shown and b"bad\x1b[31m" not in shown, shown[-600:]
