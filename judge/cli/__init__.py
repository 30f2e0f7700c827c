"""The `tablejudge` command line: each command is a thin shell over a library function.

Exit codes: 0 ok; 1 findings or a failed verification; 2 usage or input error (nothing stored);
3 conflict (another writer took the position first; nothing stored; look and retry).

Commands live in modules listed in COMMAND_MODULES; each has `register(cli)`.
"""
from __future__ import annotations

import importlib
import sys

import click

from judge.cli.common import Env, run_guarded

COMMAND_MODULES = [
    "judge.cli.matches",
    "judge.cli.verify",
    "judge.cli.demo",
    "judge.cli.tournament",
    "judge.cli.desk",
    "judge.cli.report",
    "judge.cli.timelimit",
    "judge.cli.cards",
    "judge.cli.live",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--db", envvar="TABLEJUDGE_DB", metavar="PATH|URL",
              help="Event log: a SQLite file (default ./tablejudge.db) or a postgresql://user:pass@host:port/db URL. "
                   "Also read from $TABLEJUDGE_DB.")
@click.option("--by", "recorded_by", envvar="TABLEJUDGE_USER", metavar="NAME",
              help="Who is typing (stored as recorded_by). Default: $TABLEJUDGE_USER or the OS user.")
@click.version_option(package_name="tablejudge", prog_name="tablejudge")
@click.pass_context
def cli(ctx: click.Context, db: str | None, recorded_by: str | None) -> None:
    """Record card-game matches as an append-only, hash-chained event log; rebuild the table at any
    moment; flag illegal moves with the rulebook's words; verify that nothing was altered.

    \b
    Quick start:
      tablejudge match new --ruleset table --player Ann --player Bob
      tablejudge log MATCH note --text "judge present"
      tablejudge state MATCH --at 2
      tablejudge verify MATCH
    """
    ctx.obj = Env(db=db, recorded_by=recorded_by)


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(cli)


def main() -> None:
    sys.exit(run_guarded(cli))
