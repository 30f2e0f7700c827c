"""`tablejudge timelimit MATCH`: decide a match whose time was called, by its ruleset's procedure."""
from __future__ import annotations

import click

from judge.desk.timelimit import DEFAULT_JUDGE, run, text_report

from judge.cli.common import Env, emit_json, json_option, pass_env


def register(cli: click.Group) -> None:
    @cli.command("timelimit")
    @click.argument("match")
    @click.option("--policy", metavar="P", default=None,
                  help="The end-of-time policy (default: the ruleset's own; op2009: mm25 or mm25-entrambi; "
                       "optcg: bandai, store, regional or asia).")
    @click.option("--dry-run", is_flag=True, help="Decide and print, but record nothing.")
    @click.option("--judge", default=DEFAULT_JUDGE, show_default=True, metavar="NAME",
                  help="Actor of the recorded time.decision event (judge:NAME).")
    @json_option
    @pass_env
    def timelimit(env: Env, match: str, policy: str | None, dry_run: bool, judge: str, as_json: bool) -> None:
        """Decide MATCH by its ruleset's end-of-time rules and record the decision.

        Finds the match's time.called event, runs the procedure (e.g. op2009's "Situazione Fine
        Tempo"), prints the decision, the branch taken and the rule quoted, and records it as a
        time.decision event (unless --dry-run, or the same decision is already recorded). A
        "continue" decision says what the table must play first (e.g. finish the turn).
        Exit 2 when the match has no time.called event.

        \b
        Example:
          tablejudge timelimit M1 --json       (after a time.called event, e.g. {"clock": "15:40"})
          tablejudge timelimit M1 --policy mm25-entrambi --dry-run
        """
        result = run(env.match(match), policy, dry_run=dry_run, judge=judge, recorded_by=env.recorded_by)
        if as_json:
            emit_json(result.to_dict())
        else:
            click.echo(text_report(result))
