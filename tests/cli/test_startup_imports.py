"""CLI start-up (issue 17): the commands people type all day import only what they use. The light
paths must not import jinja2, sqlite-utils or the report and page modules (an import check, in a
fresh interpreter; the timings themselves are measured by `python -m bench`, not asserted here)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from judge import __version__

from tests.conftest import ROOT, run_cli

HEAVY = ("jinja2", "sqlite_utils", "judge.report.match", "judge.report.round", "judge.report.templating",
         "judge.tournament.pages", "judge.io.readmodel", "judge.io.carddb", "judge.live", "importlib.metadata")

PROBE = """
import json, sys
from judge.cli import cli
from judge.cli.common import run_guarded
code = run_guarded(cli, sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def _modules(*args: str) -> tuple[int, set[str]]:
    env = dict(os.environ, PYTHONPATH=ROOT, TABLEJUDGE_USER="tester")
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], set(report["modules"])


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("startup") / "t.db")
    assert run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", "--id", "m1", db=db).returncode == 0
    tid = run_cli("tournament", "new", "--name", "T", "--game", "optcg", "--rounds", "3", db=db).stdout.split()[-1]
    assert run_cli("tournament", "register", tid, "Ann", "Bob", "Cid", "Dan", db=db).returncode == 0
    assert run_cli("tournament", "pair", tid, db=db).returncode == 0
    return db, tid


def test_version_imports_click_alone():
    code, modules = _modules("--version")
    assert code == 0
    assert not any(m == "engine" or m.startswith("engine.") for m in modules)
    assert _heavy(modules) == []


@pytest.mark.parametrize("args", [
    ["log", "m1", "note", "--text", "x"],
    ["state", "m1"],
    ["tournament", "result", "{t}", "1-0-0", "--table", "1"],
    ["tournament", "standings", "{t}"],
])
def test_light_paths_do_not_import_rendering(args, logs):
    db, tid = logs
    code, modules = _modules("--db", db, *[a.replace("{t}", tid) for a in args])
    assert code == 0
    assert _heavy(modules) == []


def test_rendering_paths_still_import_what_they_need(logs, tmp_path):
    db, _ = logs
    code, modules = _modules("--db", db, "report", "m1", "--out-dir", str(tmp_path))
    assert code == 0 and "jinja2" in modules


def test_version_agrees_with_the_package_metadata():
    from importlib.metadata import version

    assert __version__ == version("tablejudge")
