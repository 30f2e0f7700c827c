"""`tablejudge live MATCH` / `tablejudge live new ...`: the live recorder (judge/live.py)."""
from __future__ import annotations

import sys

import click

from engine.match import InputError, Match

from engine.events import default_recorder_name
from judge.live import ROLES, LiveSession, run_terminal
from judge.live.acks import AckFile
from judge.cli.common import EXIT_CONFLICT, EXIT_INPUT, Env, FindingsExit, pass_env, ruleset_name, stderr
from judge.cli.matches import _parse_options


def register(cli: click.Group) -> None:
    cli.add_command(live_cmd)


@click.command("live")
@click.argument("target", metavar="MATCH|new")
@click.option("--ruleset", "-r", callback=ruleset_name, help="With `new`: the ruleset.")
@click.option("--player", "-p", "players", multiple=True, help="With `new`: a player, in seat order (repeat).")
@click.option("--event", help="With `new`: event label (a tournament's id or name, or the start of its id: that "
              "--round/--table's match, linked; any other: a free label, said on stderr).")
@click.option("--round", "round_", help="With `new`: round label.")
@click.option("--table", help="With `new`: table label.")
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE", help="With `new`: a ruleset option.")
@click.option("--strict", is_flag=True, help="Refuse a line if the rules would flag any action of it (nothing of it is recorded).")
@click.option("--role", type=click.Choice(ROLES), default="scorekeeper", show_default=True,
              help="Who is typing: your own acts (undo, a bare void N) are recorded as scorekeeper:NAME or "
                   "judge:NAME "
                   "(NAME: --by / $TABLEJUDGE_USER).")
@click.option("--judge", "-j", "judge_name", metavar="NAME",
              help="The judge whose actions (ruling, penalty, ...) are typed without a prefix. Default: "
                   "yourself with --role judge; a scorekeeper writes `judge NAME: ...`.")
@click.option("--history", "history_file", metavar="FILE", help="Keep the line history in FILE.")
@pass_env
def live_cmd(env: Env, target, ruleset, players, event, round_, table, opts, strict, role, judge_name,
             history_file) -> None:
    """Record a game as it is played, one notation line at a time (docs/notation.md). A line is
    judged whole and stored in one transaction when Enter is pressed (all its actions or none), then
    acknowledged; findings show under it. A refused line comes back for editing, the cursor on the
    failing action. If another recorder stored events first, they are shown (who, when) and you are
    asked before your line is stored. Tab completes actions, card numbers, players and zones; `?`
    lists what is open now; `help` the actions; `undo`, `state`, `clock`; judge actions inline.

    \b
    Examples:
      tablejudge live new --ruleset optcg --player Ann --player Bob --table 12
      tablejudge live 3f2a9c01 --role judge
      tablejudge live 3f2a9c01 --judge Kim --strict < game.txt      # lines from a pipe

    \b
    From a pipe: a notation file's header block is accepted if it describes this match (ruleset,
    players, id; labels it gives that the match lacks are no contradiction); exit 2 if a line was
    refused, 3 if the log moved under a line (not stored).
    """
    store = env.store(create=target == "new")
    if target == "new":
        if not ruleset or len(players) < 2:
            raise InputError("live new needs --ruleset and at least two --player", field="ruleset")
        from judge.tournament.tablematch import new_match  # a tournament's id as --event: its table's match
        warnings: list[str] = []  # an older match naming the table, unlinked: said before the session
        notes: list[str] = []  # an event label naming no tournament: a free label
        match = new_match(store, ruleset, list(players), event=event, round=round_, table=table,
                          options=_parse_options(opts), recorded_by=env.recorded_by, warnings=warnings,
                          notes=notes)
        for w in warnings:
            stderr(f"warning: {w}")
        for n in notes:
            stderr(f"note: {n}")
    else:
        if ruleset or players:
            raise InputError("--ruleset/--player only go with `live new`", field="ruleset")
        match = Match.open(store, target)
    session = LiveSession(match, strict=strict, judge=judge_name, recorded_by=env.recorded_by, role=role,
                          acks=AckFile(store.describe(), match.id, env.recorded_by or default_recorder_name()))
    tally = run_terminal(session, history_file=history_file, echo=click.echo)
    if not sys.stdin.isatty():  # a script fed lines that were not recorded: say so
        if tally.conflicts:
            raise FindingsExit(EXIT_CONFLICT)
        if tally.refused:
            raise FindingsExit(EXIT_INPUT)
