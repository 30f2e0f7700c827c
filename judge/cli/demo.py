"""`tablejudge demo`: record, validate, decide and export a real short match in a fresh log."""
from __future__ import annotations

import os

import click

from judge.demo import run_demo
from judge.cli.common import FindingsExit, emit_json, json_option


def register(cli: click.Group) -> None:
    cli.add_command(demo_cmd)


@click.command("demo")
@click.option("--out", "out_dir", default="exports", show_default=True, type=click.Path(file_okay=False),
              help="Folder for the demo's log and the files it writes.")
@json_option
def demo_cmd(out_dir: str, as_json: bool) -> None:
    """Run the demo: record three matches of a round into a fresh log (OUT/demo.db): a dispute
    settled by a judge (generic table), a One Piece 2009 best-of-three decided by the
    end-of-time procedure, and a ONE PIECE CARD GAME match typed with card names (optcg). Shows the table at a moment, validates, verifies the hash chain, and
    writes HTML reports and exports into OUT. Ignores --db: the demo never touches your log.

    \b
    Example:
      tablejudge demo --out /tmp/demo
    """
    summary = run_demo(os.path.join(out_dir, "demo.db"), out_dir,
                       echo=(lambda s: None) if as_json else click.echo)
    if as_json:
        emit_json(summary)
    if not summary["verified"]:
        raise FindingsExit(1)
