"""`tablejudge replay`: a match as one self-contained HTML replay file (the log inside, no server,
no network), stepped through in any browser."""
from __future__ import annotations

import click

from judge.cli.common import Env, emit_json, json_option, pass_env

DEFAULT_DIR = "exports"


def register(cli: click.Group) -> None:
    cli.add_command(replay_cmd)


@click.command("replay")
@click.argument("match")
@click.option("--out", "-o", type=click.Path(dir_okay=False),
              help=f"The HTML file (default {DEFAULT_DIR}/MATCH-replay.html).")
@click.option("--staff", is_flag=True,
              help="The staff's view: every card the log names, hands included. Without it, hidden "
                   "information stays hidden (the log as the ruleset's hide() leaves it for a scorekeeper).")
@json_option
@pass_env
def replay_cmd(env: Env, match, out, staff, as_json) -> None:
    """Save a match's replay as one HTML file, like a Showdown replay: the whole log inside, the
    board after every event, findings and judge actions marked on the timeline; step with ← →, a
    slider or a turn; #e41 at the end of its address opens event 41. Opens with no server and no
    network.

    \b
    Examples:
      tablejudge replay MATCH                          # exports/MATCH-replay.html
      tablejudge replay MATCH -o table47.html --staff  # hands and all, for the judges
    """
    from judge.replay.export import default_path, write_replay
    m = env.match(match)
    path = out or default_path(DEFAULT_DIR, m.id)
    write_replay(m, path, staff=staff, event_db=m.store.describe())
    if as_json:
        emit_json({"file": path, "match": m.id, "staff": staff, "events": m.head_position()})
    else:
        click.echo(path)
