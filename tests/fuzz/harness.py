"""Run one fuzz case through the real CLI, in-process (the same `run_guarded` boundary a user's
`tablejudge` goes through), in a folder of its own with a fresh copy of a small log.

A case passes when the CLI ends with one of its documented exit codes (0, 1, 2, 3) and prints no
traceback and no "internal error" (exit 70), and leaves no temporary file behind. A hang is judged
by the campaign, which runs cases in child processes it can stop (tests/fuzz/campaign.py).
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass

from click.testing import CliRunner

from judge.cli import cli
from judge.cli.common import run_guarded

from tests.fuzz.hostile import EXTENSION, Case

MATCH = "fuzzmatch"
DOCUMENTED = (0, 1, 2, 3)


@dataclass
class Outcome:
    code: int
    output: str
    leftovers: list[str]
    ruleset_failures: int = 0  # DESK-10 findings: events a ruleset's code failed to apply or judge

    @property
    def traceback(self) -> bool:
        return self.code not in DOCUMENTED or "Traceback (most recent call last)" in self.output \
            or "internal error" in self.output

    @property
    def ok(self) -> bool:
        return not self.traceback and not self.leftovers


def base_log(folder: str) -> str:
    """A log with one table match (MATCH) of a few events: what argument cases act on."""
    db = os.path.join(folder, "base.db")
    if not os.path.exists(db):
        for args in (["match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob",
                      "--round", "1", "--table", "1", "--id", MATCH],
                     ["log", MATCH, "setup", "--player", "Ann", "--zone", "deck", "--count", "20"],
                     ["log", MATCH, "draw", "--player", "Ann", "--count", "5"],
                     ["log", MATCH, "note", "--text", "=HYPERLINK(\"x\")"]):
            code = invoke(["--db", db, *args]).code
            assert code == 0, f"setting up the base log failed: {args}"
    return db


def invoke(args: list[str], stdin: str = "") -> Outcome:
    runner = CliRunner()
    with runner.isolation(input=stdin) as streams:
        out, err = streams[0], streams[1]
        try:
            code = run_guarded(cli, args)
        except BaseException as e:  # noqa: BLE001 - escaped the boundary: the worst outcome
            import traceback

            code = -1
            traceback.print_exception(e, file=sys.stderr)
        sys.stdout.flush()  # what was written to sys.stdout directly (export -o -), not by click.echo
        sys.stderr.flush()
        text = out.getvalue().decode("utf-8", "replace") + err.getvalue().decode("utf-8", "replace")
    return Outcome(code, text, [])


def run_case(case: Case, folder: str, base_db: str) -> Outcome:
    """Run `case` in `folder` (made empty first) against a copy of `base_db`."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    db = os.path.join(folder, "t.db")
    shutil.copyfile(base_db, db)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        if case.target == "argv":
            args = ["--db", db, *case.data] if "--db" not in case.data else list(case.data)
        else:
            path = os.path.join(folder, "input" + EXTENSION[case.target])
            with open(path, "wb") as f:
                f.write(case.data)  # type: ignore[arg-type]
            args = {
                "jsonl": ["--db", db, "import", path, "--format", "jsonl"],
                "notation": ["--db", db, "import", path, "--format", "notation"],
                "optcgsim": ["--db", db, "import", path, "--format", "optcgsim"],
                "results-csv": ["standings", path],
                "results-json": ["standings", path],
                "cards": ["cards", "import", path, "--cards", os.path.join(folder, "cards.db")],
            }[case.target]
        outcome = invoke(args)
        imported = re.search(r"(?:events? into|appended to) match (\S+)", outcome.output)
        if outcome.code == 0 and imported:
            check = invoke(["--db", db, "validate", imported.group(1), "--json"])
            outcome.ruleset_failures = check.output.count('"rule": "DESK-10"')
            if check.traceback:
                outcome.code, outcome.output = check.code, outcome.output + check.output
    finally:
        os.chdir(cwd)
    outcome.leftovers = leftovers(folder)
    return outcome


def leftovers(folder: str) -> list[str]:
    """Temporary files an output left behind (a half-written export or report)."""
    out = []
    for root, _, files in os.walk(folder):
        out += [os.path.join(root, f) for f in files if f.endswith((".part", ".tmp"))]
    return out
