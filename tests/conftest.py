from __future__ import annotations

import os
import subprocess
import sys

import pytest

from engine.store import EventStore

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


@pytest.fixture(scope="session")
def pg_server():
    from tests.pg import PostgresServer, find_pg_bin

    if find_pg_bin() is None:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) not found: `make test` installs Debian's postgresql")
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server) -> str:
    return pg_server.new_database()


BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc):
    """A test that takes `db_url` (or `store`, built on it) runs twice: on a SQLite file and on a
    real PostgreSQL database. A module testing what does not depend on the backend says so with
    `BACKENDS = ("sqlite",)`."""
    if "db_url" in metafunc.fixturenames:
        backends = getattr(metafunc.module, "BACKENDS", BACKENDS)
        metafunc.parametrize("db_url", [pytest.param(b, marks=pytest.mark.postgres) if b == "postgres" else b
                                        for b in backends], indirect=True)


@pytest.fixture
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "log.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(db_url):
    s = EventStore.open(db_url)
    yield s
    s.close()


@pytest.fixture
def sqlite_path(tmp_path) -> str:
    return str(tmp_path / "log.db")


def run_cli(*args: str, db: str | None = None, input: str | None = None,
            env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `tablejudge` in a real subprocess (as a user would)."""
    cmd = [sys.executable, "-m", "judge"]
    if db:
        cmd += ["--db", db]
    full_env = dict(os.environ, PYTHONPATH=ROOT, TABLEJUDGE_USER="tester")
    full_env.update(env or {})
    return subprocess.run(cmd + list(args), capture_output=True, text=True, input=input,
                          cwd=ROOT, env=full_env, timeout=120)


def run_in_process(db, *args) -> tuple[int, str, str]:
    """Run `tablejudge --db DB ARGS` in this process the way the installed command does (exit
    codes included): (exit code, stdout, stderr). For tests that spy on the library's calls."""
    import click
    from click.testing import CliRunner

    from judge.cli import cli
    from judge.cli.common import run_guarded

    @click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
    @click.argument("argv", nargs=-1, type=click.UNPROCESSED)
    def entry(argv):
        raise SystemExit(run_guarded(cli, ["--db", str(db), *argv]))
    res = CliRunner().invoke(entry, [str(a) for a in args])
    return res.exit_code, res.stdout, res.stderr


def pytest_sessionfinish(session, exitstatus):
    """`make test` (and so CI) installs everything the suite needs, so there a skipped test means a
    missing tool went unnoticed: with TABLEJUDGE_NO_SKIPS=1 any skip fails the run, naming the tests."""
    if not os.environ.get("TABLEJUDGE_NO_SKIPS"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped and exitstatus == 0:
        for report in skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            reporter.write_line(f"SKIPPED (not allowed under make test): {report.nodeid}: {reason}", red=True)
        session.exitstatus = 1


def load_jsonl(store, path):
    """A sample match file (examples/<game>/*.jsonl) recorded event by event, as a recorder would:
    the first line creates the match, the others are recorded in order. Returns the Match."""
    import json

    from engine.match import Match
    lines = [json.loads(line) for line in open(path, encoding="utf-8").read().splitlines() if line.strip()]
    first = lines[0]["payload"]
    m = Match.create(store, first["ruleset"], first["players"], event=first.get("event"),
                     options=first.get("options"))
    for line in lines[1:]:
        m.record(line["kind"], line["payload"], actor=line.get("actor", "-"))
    return m


def judged_example(tmp_path, name: str):
    """examples/`name` recorded event by event into a new log and validated, which must raise no
    finding. Returns the Match and its Validation."""
    m = load_jsonl(EventStore.open(str(tmp_path / "example.db")), os.path.join(ROOT, "examples", name))
    v = m.validate()
    assert v.active_findings() == []
    return m, v
