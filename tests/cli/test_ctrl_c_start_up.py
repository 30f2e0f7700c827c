"""A Ctrl-C while the command line is still being imported (QA84 1: a traceback, and the process
died of the signal): `tablejudge` and `python -m judge` start through judge.entry, which answers it."""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# the Ctrl-C made to land inside the import, where a real one lands when it comes ~0.1 s in
INTERRUPTED_IMPORT = """
import builtins
real = builtins.__import__
def imp(name, *a, **k):
    if name == "judge.cli.common":
        raise KeyboardInterrupt
    return real(name, *a, **k)
builtins.__import__ = imp
import runpy
runpy.run_module({module!r}, run_name="__main__")
"""


def _run(module: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", INTERRUPTED_IMPORT.format(module=module), "--version"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": ROOT})


def test_a_ctrl_c_during_start_up_is_interrupted_not_a_traceback():
    done = _run("judge")
    assert done.returncode == 130
    assert done.stderr.strip() == "interrupted"
    assert "Traceback" not in done.stderr


def test_the_installed_program_starts_through_the_guard():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        scripts = tomllib.load(f)["project"]["scripts"]
    assert scripts["tablejudge"] == "judge.entry:main"
