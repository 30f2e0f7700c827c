"""Files made from one match for people to read: `tablejudge replay` (a self-contained HTML replay,
the log inside, no server, no network) and `tablejudge appeals` (the appeals file: one A4 page per
incident, the match report as its appendix)."""
from __future__ import annotations

import click

from judge.cli.common import Env, echo_written, emit_json, json_option, overwrite_option, pass_env
from judge.report.files import check_view_replace, report_name

DEFAULT_DIR = "exports"


def register(cli: click.Group) -> None:
    cli.add_command(replay_cmd)
    cli.add_command(appeals_cmd)


@click.command("replay")
@click.argument("match")
@click.option("--out", "-o", type=click.Path(dir_okay=False),
              help=f"The HTML file (default {DEFAULT_DIR}/MATCH-replay.html, with --staff MATCH-replay.staff.html).")
@click.option("--staff", is_flag=True,
              help="The staff's view: every card the log names, hands included, in a file named apart "
                   "(MATCH-replay.staff.html: it never replaces the public one). Without it, hidden "
                   "information stays hidden (the log as the ruleset's hide() leaves it for a scorekeeper).")
@overwrite_option
@json_option
@pass_env
def replay_cmd(env: Env, match, out, staff, overwrite, as_json) -> None:
    """Save a match's replay as one HTML file, like a Showdown replay: the whole log inside, the
    board after every event, findings and judge actions marked on the timeline; step with ← →, a
    slider or a turn; #e41 at the end of its address opens event 41. Opens with no server and no
    network. -o naming a file that holds the other view (public/staff) is refused unless --overwrite.

    \b
    Examples:
      tablejudge replay MATCH                          # exports/MATCH-replay.html
      tablejudge replay MATCH --staff                  # exports/MATCH-replay.staff.html: hands and all
      tablejudge replay MATCH -o table47.html --staff  # the same, in a file you name
    """
    from judge.replay.export import default_path, write_replay
    m = env.match(match, read=True)
    path = out or default_path(DEFAULT_DIR, m.id, staff)
    check_view_replace(path, staff, overwrite)
    write_replay(m, path, staff=staff, event_db=m.store.describe())
    if as_json:
        emit_json({"file": path, "match": m.id, "staff": staff, "events": m.head_position()})
    else:
        echo_written(path, staff)


@click.command("appeals")
@click.argument("match")
@click.option("--out", "-o", type=click.Path(dir_okay=False),
              help=f"The HTML file (default {DEFAULT_DIR}/MATCH-appeals.staff.html: the judges' file, "
                   "hidden cards shown; a file holding the public view is not replaced without --overwrite).")
@click.option("--base-url", default="", metavar="URL",
              help="Where `tablejudge serve` runs (e.g. http://desk.local:8000): the deep links to each event "
                   "(/m/MATCH#eN) become full addresses.")
@click.option("--no-appendix", is_flag=True, help="The incident pages only, without the match report.")
@overwrite_option
@json_option
@pass_env
def appeals_cmd(env: Env, match, out, base_url, no_appendix, overwrite, as_json) -> None:
    """Write the appeals file of MATCH: one A4 page per incident (a judge call, or a judge action
    with no call before it): the call, the board at the moment named (hidden cards hidden), the
    ruling with the rule in English and in the rulebook's words, the penalty and what the guide
    suggested, a player's appeal filed from the table's web page (pending until decided) and the
    head judge's decision on appeal (`tablejudge judge appeal`), the deep link to the
    event in the replay viewer and the log's head hash at signing. The match report follows as
    the appendix (judge actions in its header, damage steps in words, one line an event in print).
    Print it from a browser on A4. It is the staff's file (its appendix shows hidden cards): named
    MATCH-appeals.staff.html, it says so at the top, and so does the terminal line.

    \b
    Examples:
      tablejudge appeals T47                                   # exports/T47-appeals.staff.html
      tablejudge appeals T47 --base-url http://desk.local:8000 -o appeal-T47.html
      tablejudge judge appeal T47 281 --judge "Head Judge Rossi" --decision upheld --text "the block was legal"
    """
    from judge.io.files import inside
    from judge.report.appeals import appeals_context, write_appeals
    m = env.match(match, read=True)
    # QA81 M3: it was MATCH-appeals.html, no .staff in the name and no warning on the terminal
    path = out or inside(DEFAULT_DIR, report_name(f"{m.id}-appeals", staff=True))
    check_view_replace(path, True, overwrite)
    write_appeals(m, path, base_url=base_url, appendix=not no_appendix)
    if as_json:
        ctx = appeals_context(m, base_url=base_url, appendix=False)
        emit_json({"file": path, "match": m.id, "head": ctx["signed"],
                   "staff": True,
                   "incidents": [{k: v for k, v in inc.items() if k != "board"} for inc in ctx["incidents"]]})
    else:
        echo_written(path, staff=True)
