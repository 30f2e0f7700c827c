"""`tablejudge report`: a match's self-contained HTML report, or a round's."""
from __future__ import annotations

import click

from engine.match import InputError

from judge import report as lib
from judge.report.files import check_view_replace, report_path, write_file
from judge.report.match import render_match_verified
from judge.cli.common import EXIT_FINDINGS, Env, FindingsExit, echo_written, emit_json, json_option, overwrite_option, pass_env


def register(cli: click.Group) -> None:
    cli.add_command(report_cmd)


@click.command("report")
@click.argument("match", required=False)
@click.option("--round", "round_", metavar="R", help="A round report: every match with round label R.")
@click.option("--event", help="With --round: only matches of this event label, or of the tournament of this "
                               "name (its matches' label is its id).")
@click.option("--out-dir", default=lib.DEFAULT_DIR, show_default=True, type=click.Path(file_okay=False),
              help="Folder for the HTML files.")
@click.option("--out", "-o", type=click.Path(dir_okay=False),
              help="File for a match report (default OUT-DIR/MATCH.html, with --staff OUT-DIR/MATCH.staff.html); "
                   "a round writes a folder: --out-dir.")
@click.option("--no-matches", is_flag=True, help="With --round: write only the round page, not each match's report (it links "
                   "only the match pages already in OUT-DIR).")
@click.option("--staff", is_flag=True,
              help="The staff's view: every card the log names, hands included (the page says so: not for "
                   "players), in files named apart: MATCH.staff.html, round-R.staff.html. Without it, hidden "
                   "information stays hidden, as in `tablejudge replay`.")
@overwrite_option
@json_option
@pass_env
def report_cmd(env: Env, match, round_, event, out_dir, out, no_matches, staff, overwrite, as_json) -> None:
    """Write an HTML report: one self-contained file (inline CSS and SVG, no scripts, no network;
    prints on A4) with the header and result, findings, a chart of the key counters, the timeline
    by turn and phase, the table after every event, and the hash chain's verdict. A match whose
    log fails verification (a broken chain, a missing guard) still gets its page, saying FAILED,
    and the command exits 1 (with --round: when any match of the round fails). Hidden cards (hands,
    Life taken to a hand) stay hidden unless --staff, as in `tablejudge replay`; the page says
    which view it is. The staff's files are named apart (MATCH.staff.html, round-R.staff.html, its
    links to the .staff match pages), so neither view ever replaces the other's file; -o naming a
    file that holds the other view is refused unless --overwrite.

    \b
    Examples:
      tablejudge report MATCH                 # exports/MATCH.html
      tablejudge report --round 3             # exports/round-3.html and each match's report
      tablejudge report MATCH --staff         # exports/MATCH.staff.html: hands and all, for the judges
    """
    if match and round_:  # QA80 8: "name a MATCH, or give --round R" when both were given
        raise InputError(f"MATCH and --round exclude each other: name one match ({match}) for its report, or "
                         f"give --round {round_} alone for the round's", field="round")
    if not match and not round_:
        raise InputError("name a MATCH, or give --round R", field="match")
    if round_ and out:  # QA73 13: -o was ignored and the round went to exports/ without a word
        raise InputError(f"--out (-o) names one match's file; a round writes a folder of files: give "
                         f"--out-dir DIR instead of -o {out}", field="out")
    if round_ and overwrite:  # it would be ignored: a round's two views are named apart, never replacing each other
        raise InputError("--overwrite applies to one match's file (MATCH, or -o FILE, holding the other view); a "
                         "round's files are named apart by view (round-R.html, round-R.staff.html) and never "
                         f"replace each other: give --round {round_} without --overwrite", field="overwrite")
    problems: list[str] = []  # why the log fails verification: the page says it, the exit code too
    if round_:
        paths, failing = lib.write_round_report(env.store(), round_, event=event, out_dir=out_dir,
                                                with_matches=not no_matches, staff=staff)
        problems = [f"match {mid} failed verification (details: tablejudge verify {mid})" for mid in failing]
    else:
        m = env.match(match)
        # the page is written either way (it says FAILED and where); the exit code says it too, so
        # that a script or a scorekeeper does not hand on a report of a log that fails its check.
        # One verification serves both: the page's verdict and the exit code's.
        path = out or report_path(out_dir, m.id, staff)
        check_view_replace(path, staff, overwrite)  # before the work: nothing written on a refusal
        page, verdict = render_match_verified(m, staff=staff)
        paths = [write_file(path, page)]
        problems = [] if verdict.ok else list(verdict.problems)
    if as_json:
        emit_json({"files": paths, "staff": staff} if not problems else
                  {"files": paths, "staff": staff, "verified": False, "problems": problems})
    else:
        for p in paths:
            echo_written(p, staff)
        if problems:
            click.echo(f"{match or 'round ' + round_}: the log FAILED verification (the report says so): "
                       + "; ".join(problems)
                       + ("" if round_ else f"; details: tablejudge verify {m.id}"), err=True)
    if problems:
        raise FindingsExit(EXIT_FINDINGS)
