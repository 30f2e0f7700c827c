"""`tablejudge live MATCH` / `tablejudge live new ...`: the live recorder (judge/live.py)."""
from __future__ import annotations

import sys

import click

from engine.match import InputError, Match

from judge.live import LiveSession, run_terminal
from judge.cli.common import EXIT_INPUT, Env, FindingsExit, pass_env
from judge.cli.matches import _parse_options


def register(cli: click.Group) -> None:
    cli.add_command(live_cmd)


@click.command("live")
@click.argument("target", metavar="MATCH|new")
@click.option("--ruleset", "-r", help="With `new`: the ruleset.")
@click.option("--player", "-p", "players", multiple=True, help="With `new`: a player, in seat order (repeat).")
@click.option("--event", help="With `new`: event label.")
@click.option("--round", "round_", help="With `new`: round label.")
@click.option("--table", help="With `new`: table label.")
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE", help="With `new`: a ruleset option.")
@click.option("--strict", is_flag=True, help="Refuse an action the rules would flag (nothing is recorded for it).")
@click.option("--judge", "-j", "judge_name", metavar="NAME",
              help="The judge for judge actions typed without a prefix. Default: --by / $TABLEJUDGE_USER.")
@click.option("--history", "history_file", metavar="FILE", help="Keep the line history in FILE.")
@pass_env
def live_cmd(env: Env, target, ruleset, players, event, round_, table, opts, strict, judge_name,
             history_file) -> None:
    """Record a game as it is played, one notation line per action (docs/notation.md). Each
    action is stored the moment Enter is pressed; findings show under the line. Tab completes
    actions, card numbers, players and zones; `?` lists what is legal now; `help` the actions;
    `undo`, `state`, `clock`; judge actions (call, ruling, penalty, extend, time) work inline.

    \b
    Examples:
      tablejudge live new --ruleset optcg --player Ann --player Bob --table 12
      tablejudge live 3f2a9c01 --judge Kim
      tablejudge live 3f2a9c01 --strict < game.txt      # lines from a pipe
    """
    store = env.store()
    if target == "new":
        if not ruleset or len(players) < 2:
            raise InputError("live new needs --ruleset and at least two --player", field="ruleset")
        match = Match.create(store, ruleset, list(players), event=event, round=round_, table=table,
                             options=_parse_options(opts), recorded_by=env.recorded_by)
    else:
        if ruleset or players:
            raise InputError("--ruleset/--player only go with `live new`", field="ruleset")
        match = Match.open(store, target)
    session = LiveSession(match, strict=strict, judge=judge_name, recorded_by=env.recorded_by)
    refused = run_terminal(session, history_file=history_file, echo=click.echo)
    if refused and not sys.stdin.isatty():
        raise FindingsExit(EXIT_INPUT)  # a script fed lines that were not recorded: say so
