"""The `tablejudge` command line: each command is a thin shell over a library function.

Exit codes: 0 ok; 1 findings or a failed verification; 2 usage, input or output-file error (nothing
stored); 3 conflict (another writer took the position first; nothing stored; look and retry);
130 interrupted; 70 an internal error (a bug; TABLEJUDGE_DEBUG=1 shows the traceback).

Commands live in modules with `register(cli)`; COMMANDS says which module holds each top-level
command, and a module is imported only when one of its commands runs (or `--help` lists them all):
`tablejudge --version` pays for click alone, `tablejudge log` for the engine and not for jinja2 or
sqlite-utils (CLI start-up, issue 17; tests/cli/test_startup_imports.py).
"""
from __future__ import annotations

import importlib
import sys

import click

from judge import __version__
from judge.cli.common import Env, run_guarded

COMMANDS: dict[str, str] = {
    "match": "judge.cli.matches", "matches": "judge.cli.matches", "log": "judge.cli.matches",
    "import": "judge.cli.matches", "events": "judge.cli.matches", "state": "judge.cli.matches",
    "validate": "judge.cli.matches", "verify": "judge.cli.verify", "export": "judge.cli.matches",
    "rulesets": "judge.cli.matches",
    "demo": "judge.cli.demo",
    "standings": "judge.cli.tournament", "tournament": "judge.cli.tournament",
    "judge": "judge.cli.desk", "audit": "judge.cli.desk", "findings": "judge.cli.desk",
    "penalties": "judge.cli.desk", "actions": "judge.cli.desk", "readmodel": "judge.cli.desk",
    "report": "judge.cli.report", "replay": "judge.cli.replay", "appeals": "judge.cli.replay",
    "timelimit": "judge.cli.timelimit",
    "cards": "judge.cli.cards", "deck": "judge.cli.cards",
    "live": "judge.cli.live",
    "serve": "judge.cli.serve",
}
# Modules that add subcommands to a group another module registers, in order after it.
EXTENSIONS: dict[str, tuple[str, ...]] = {"judge.cli.tournament": ("judge.cli.eventdesk",)}
COMMAND_MODULES = list(dict.fromkeys(COMMANDS.values()))


def _register(group: click.Group, module: str) -> None:
    importlib.import_module(module).register(group)
    for extension in EXTENSIONS.get(module, ()):
        importlib.import_module(extension).register(group)


class LazyGroup(click.Group):
    """A group whose commands are imported when they are looked up, module by module."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            _register(self, COMMANDS[name])
        return self.commands.get(name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--db", envvar="TABLEJUDGE_DB", metavar="PATH|URL",
              help="Event log: a SQLite file (default ./tablejudge.db) or a postgresql://user@host:port/db URL "
                   "(libpq settings after it: ?sslmode=require&application_name=t47; ?schema=NAME). "
                   "Also read from $TABLEJUDGE_DB.")
@click.option("--by", "recorded_by", envvar="TABLEJUDGE_USER", metavar="NAME",
              help="Who is typing (stored as recorded_by; a judge command's --judge defaults to it), given "
                   "before the command: `judge appeal --by` after it is that command's own (who appealed, "
                   "--appellant). Default: $TABLEJUDGE_USER or the OS user.")
@click.option("--lang", type=click.Choice(["en", "orig", "both"]), envvar="TABLEJUDGE_LANG", default="en",
              show_default=True, help="Rule words on the terminal: English, the rulebook's own words (orig), or "
                                      "both. Also read from $TABLEJUDGE_LANG. Reports always show both.")
@click.version_option(__version__, prog_name="tablejudge")
@click.pass_context
def cli(ctx: click.Context, db: str | None, recorded_by: str | None, lang: str) -> None:
    """Record card-game matches as an append-only, hash-chained event log; rebuild the table at any
    moment; flag illegal moves with the rulebook's words; verify that nothing was altered.

    \b
    Quick start:
      tablejudge match new --ruleset table --player Ann --player Bob
      tablejudge log MATCH note --text "judge present"
      tablejudge state MATCH --at 2
      tablejudge verify MATCH
    """
    ctx.obj = Env(db=db, recorded_by=recorded_by, lang=lang)
    # The log is closed when the command ends, error or not: SQLite then folds its write-ahead file
    # into the .db file, so a copy of that one file (to a USB stick, to the head judge) is whole.
    ctx.call_on_close(ctx.obj.close)


def load_all() -> click.Group:
    """Every command registered (for docs and tests that walk the whole command tree)."""
    for name in COMMAND_MODULES:
        if not all(cmd in cli.commands for cmd, mod in COMMANDS.items() if mod == name):
            _register(cli, name)
    return cli


def main() -> None:
    sys.exit(run_guarded(cli))
