"""Shared by the tournament tests: `run`, the CLI in this process on a fresh log."""
from __future__ import annotations

import pytest

from judge.cli import cli
from judge.cli.common import run_guarded


@pytest.fixture
def run(tmp_path, capsys):
    """`run(*args, db_path=...)` -> (exit code, stdout, stderr) of `tablejudge --db LOG --by t ARGS`."""
    db = str(tmp_path / "t.db")

    def run(*args, db_path=db):
        code = run_guarded(cli, ["--db", db_path, "--by", "t", *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run
