"""The event desk's commands in the `tablejudge tournament` group, and `tablejudge serve`: thin
shells over judge.tournament (entry, reports, rounds, placings) and judge.web."""
from __future__ import annotations

import sys

import click

from engine.events import JUDGE_PREFIX
from engine.match import InputError

from judge.cli.common import (csv_options, ruleset_name, emit_json, emit_rows, pass_env,
                              stderr, table_text)
from judge.io.text import read_text
from judge.cli.tournament import warn_invalidated
from judge.tournament import Tournament
from judge.tournament import entry, placings, reports, rounds, tables
from judge.tournament.aggregate import again_words, resolve_player
from judge.tournament.standings import slip_text


def _open(env, ref: str, actor: str | None = None) -> Tournament:
    t = Tournament.open(env.store(), ref, env.recorded_by)
    return t.with_actor(actor) if actor else t


def register(cli: click.Group) -> None:
    tournament = cli.commands["tournament"]

    @tournament.command("results")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("file", default="-", required=False)
    @click.option("--round", "round_no", type=int, default=None, help="Default: the current round.")
    @click.option("--overwrite", is_flag=True, help="Replace the different results tables already have.")
    @click.option("--reason", default=None, help="Why (stored with each overwritten result; required where "
                  "--overwrite settles a warning a judge settles: result-basis, result-appealed).")
    @click.option("--override-format", "override_format", is_flag=True,
                  help="Accept game counts the match format does not allow (marked in the log).")
    @click.option("--json", "as_json", is_flag=True)
    @pass_env
    def results_cmd(env, tournament_ref, file, round_no, overwrite, reason, override_format, as_json) -> None:
        """Record many results in one command and one commit, from FILE (or standard input):
        lines `TABLE W-L[-D]`, or a CSV whose header names a `table` and a `result` column
        (`player1`, `player2` optional and checked against the pairing; other columns ignored):
        `tournament pairings --csv` with its result column filled in. A CSV row left blank is a
        table still pending; a bye's row (no table) is skipped.

        All or nothing: every unknown table, unreadable or impossible result, wrong player, table
        given twice (the same result or another: another table's number was likely mistyped, the
        tables still without a result are named), table
        that already has a different result (shown; use --overwrite) or result against a player's
        own report is listed at once,
        each with its file:line and field, and none of the file is stored (exit 2; with --json,
        also `{"error": {..., "errors": [...]}}` on stdout, one object a line). The same result
        again stores nothing, except where a warning that blocks closing asks for it (as for
        `tournament result`): with --overwrite and --reason it is recorded again by hand, the head
        judge's result. A result that differs from a player's own report (`tournament
        report`, the player's link), or settles a disputed table, is refused the same way: it
        goes in only with --overwrite and a --reason. Recorded, it says how many tables were
        recorded and the round's tables still without a result.

        \b
        Examples:
          printf '1 2-1\\n2 0-2\\n3 1-1-1\\n' | tablejudge tournament results t-1a2b   # best of three
          printf '1 1-0\\n2 0-1\\n3 0-0-1\\n' | tablejudge tournament results t-1a2b   # best of one (optcg Swiss)
          tablejudge tournament results t-1a2b round3.txt
          tablejudge tournament pairings t-1a2b --csv > round3.csv    # fill in the result column, then:
          tablejudge tournament results t-1a2b round3.csv
          tablejudge tournament results t-1a2b fix.txt --overwrite --reason "slips misread"
        """
        name = "<stdin>" if file == "-" else file
        text = sys.stdin.read() if file == "-" else read_text(file)
        t = _open(env, tournament_ref)
        try:
            done = entry.record_results(t, entry.parse_entries(text, name), round_no=round_no, overwrite=overwrite,
                                        reason=reason, override_format=override_format)
        except entry.OverwriteRefused as e:  # said as a refused batch: each table on its own line
            raise entry.BatchRefused.overwrites(e, name) from None
        if as_json:
            emit_json([d.to_dict() for d in done])
        else:
            statuses = ("recorded", "overwritten", "recorded again", "unchanged", "pending")
            counts = {s: sum((("recorded again" if d.again else d.status) == s) for d in done) for s in statuses}
            for d in done:  # `tournament result`'s words for a table recorded again
                if d.status == "overwritten":
                    click.echo(f"table {d.table}: {d.player1} {d.result} {d.player2} " + (
                        f"— {again_words(None)}" if d.again
                        else f"(was {d.old})"))
            said = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "nothing new"
            if done:  # a top-cut round by its name: "(Quarterfinals, round 9)"
                rnd = t.state().round(done[0].round)
                said += (f" ({rnd.name}, round {rnd.number})" if rnd and rnd.stage != "swiss"
                         else f" (round {done[0].round})")
                # QA75 7: the tables left out of the file were not said (no round found: nothing said)
                if rnd is not None:
                    left = rnd.missing()
                    said += (f"; still without a result: table(s) {tables.table_list(left)}" if left
                             else "; every table has a result")
            click.echo(said)
        warn_invalidated(t)

    @tournament.command("undo")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--table", type=int, required=True)
    @click.option("--round", "round_no", type=int, default=None, help="Default: the current round.")
    @click.option("--reason", default="undone at the results desk", show_default=True)
    @pass_env
    def undo_cmd(env, tournament_ref, table, round_no, reason) -> None:
        """Undo a table's result (a correction voids it; the log keeps it). The result it replaced,
        if any, counts again.

        \b
        Example:
          tablejudge tournament undo t-1a2b --table 12
        """
        t = _open(env, tournament_ref)
        ev, back = entry.undo_result(t, table, round_no=round_no, reason=reason)
        click.echo(f"table {table}: result undone (event {ev.position}); now "
                   + (f"{back} again" if back else "pending"))
        warn_invalidated(t)

    @tournament.command("report")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("player")
    @click.argument("slip")
    @pass_env
    def report_cmd(env, tournament_ref, player, slip) -> None:
        """A player's own report, SLIP in their view (their game wins first). The opponent's
        matching report records the result; a different one sends the table to the judges' queue.
        A confirmed result the player already confirmed (or a judge decided) is not reopened by a
        report: refused, nothing stored; a judge changes it (`resolve`, `result --overwrite`).

        \b
        Example:
          tablejudge tournament report t-1a2b Ann 2-1
        """
        t = _open(env, tournament_ref)
        player = resolve_player(t.state(), player)  # the registered name is who acts
        events, view = reports.report_result(t.with_actor(player), player, slip)
        click.echo(f"table {view.table}: {view.status}" + ("" if events else " (already reported: nothing new)"))

    @tournament.command("queue")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--json", "as_json", is_flag=True)
    @pass_env
    def queue_cmd(env, tournament_ref, as_json) -> None:
        """The judges' queue: tables whose players' reports disagree (or disagree with the result).
        Each report is said from its reporter's side ("Alice: I won 1-0"); the recorded result, and
        --json's reports, are in table order (the first player's games first).

        \b
        Example:
          tablejudge tournament queue t-1a2b
        """
        q = tables.judges_queue(_open(env, tournament_ref).state())
        if as_json:
            emit_json([v.to_dict() for v in q])
            return
        click.echo(table_text([{"round": v.round, "table": v.table, "players": f"{v.player1} vs {v.player2}",
                                "reports (each player's own)": "; ".join(v.reports_said()),
                                "recorded (table order)": v.result or ""} for v in q],
                              ["round", "table", "players", "reports (each player's own)", "recorded (table order)"]))

    @tournament.command("resolve")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("slip")
    @click.option("--table", type=int, required=True)
    @click.option("--round", "round_no", type=int, default=None)
    @click.option("--judge", "judge", required=True, help="The judge deciding (recorded as judge:NAME).")
    @click.option("--reason", required=True, help="The ruling, in a sentence.")
    @pass_env
    def resolve_cmd(env, tournament_ref, slip, table, round_no, judge, reason) -> None:
        """A judge decides a disputed table (SLIP in table order: the first player's wins first).

        \b
        Example:
          tablejudge tournament resolve t-1a2b 2-1 --table 7 --judge Kim --reason "game 3 conceded"
        """
        t = _open(env, tournament_ref, actor=JUDGE_PREFIX + judge)
        ev = reports.resolve_dispute(t, table, slip, reason=reason, round_no=round_no)
        p = ev.payload  # who won, not only the slip (QA: "1-0-0" alone did not say for whom)
        click.echo(f"table {table}: {p['player1']} {slip_text(p)} {p['player2']} decided by {judge} "
                   f"(event {ev.position})")
        warn_invalidated(t)

    @tournament.command("unpair")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--reason", required=True)
    @click.option("--again", is_flag=True, help="Pair the round again at once (re-pair), in the same batch.")
    @pass_env
    def unpair_cmd(env, tournament_ref, reason, again) -> None:
        """Undo the last round's pairing before any result of it; with --again, re-pair it (drops,
        late entries and byes since are taken in).

        \b
        Examples:
          tablejudge tournament unpair t-1a2b --reason "paired before the late entries"
          tablejudge tournament unpair t-1a2b --again --reason "Bob dropped before the round"
        """
        t = _open(env, tournament_ref)
        if again:
            rp = rounds.repair(t, reason=reason)
            click.echo(f"Round {rp.round} paired again: {len(rp.pairings)} pairings (see `tournament pairings`)")
        else:
            rounds.unpair(t, reason=reason)
            click.echo("the last round's pairing is void")

    @tournament.command("swap")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("player_a")
    @click.argument("player_b")
    @click.option("--reason", required=True)
    @pass_env
    def swap_cmd(env, tournament_ref, player_a, player_b, reason) -> None:
        """A manual pairing: two players of the current round trade seats (an override, shown on
        the round page with its reason).

        \b
        Example:
          tablejudge tournament swap t-1a2b Ann Cid --reason "siblings: not in round 1"
        """
        ev = rounds.swap_players(_open(env, tournament_ref), player_a, player_b, reason=reason)
        click.echo("{} and {} swapped seats".format(*ev.payload["players"]) + f" (event {ev.position})")

    @tournament.command("close")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--json", "as_json", is_flag=True,
                  help="{round, position, seal, warnings}: warnings as the text's, one string each.")
    @pass_env
    def close_cmd(env, tournament_ref, as_json) -> None:
        """Close the current round: every result in, no table disputed, none taken from a match
        a later correction in it left out of date (`tournament warnings`). Players' links expire.
        The round is sealed: one hash over the tournament's log and every match of the round,
        printed here and on the standings page (`tablejudge verify --seal` checks it later).
        A judge call still open in one of its recorded matches is a warning on stderr, not a
        refusal (a judge may have answered at the table; `judge ruling MATCH --call N` answers it).

        \b
        Example:
          tablejudge tournament close t-1a2b
        """
        t = _open(env, tournament_ref)
        ev = rounds.close_round(t)
        warning = rounds.close_warning(t, ev, cli=True)
        seal = t.state().seals.get(ev.payload["round"])
        if seal is not None:
            from judge.tournament.seal import token
            seal = token(t.id, seal)
        if warning:
            click.echo(f"warning: {warning}", err=True)
        if as_json:
            emit_json({"round": ev.payload["round"], "position": ev.position, "seal": seal,
                       "warnings": [warning] if warning else []})
            return
        click.echo(f"round {ev.payload['round']} closed (event {ev.position})")
        if seal is not None:
            click.echo(f"seal: {seal}")

    @tournament.command("clock")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("action", type=click.Choice(["show", "start", "extend", "call"]), default="show")
    @click.option("--minutes", type=int, default=None, help="start: the round's length; extend: extra minutes.")
    @click.option("--table", type=int, default=None, help="extend: the table.")
    @click.option("--reason", default=None)
    @click.option("--json", "as_json", is_flag=True)
    @pass_env
    def clock_cmd(env, tournament_ref, action, minutes, table, reason, as_json) -> None:
        """The round clock: start it, extend one table, call time for the room (one event per
        table still playing), or show it.

        \b
        Examples:
          tablejudge tournament clock t-1a2b start --minutes 50
          tablejudge tournament clock t-1a2b extend --table 7 --minutes 5 --reason "deck check"
          tablejudge tournament clock t-1a2b call
        """
        t = _open(env, tournament_ref)
        if action == "start":
            if not minutes:
                raise InputError("give --minutes", field="minutes")
            rounds.start_clock(t, minutes)
        elif action == "extend":
            if not (minutes and table):
                raise InputError("give --table and --minutes", field="table")
            rounds.extend(t, table, minutes, reason)
        elif action == "call":
            n = len(rounds.call_time(t))
            stderr(f"time called at {n} table{'s' if n != 1 else ''}")
        st = t.state()
        if not st.rounds:
            raise InputError("no round has been paired yet", field="round")
        view = rounds.clock_view(st.rounds[-1])
        if as_json:
            emit_json(view)
        elif not view["running"]:
            click.echo(f"{view['name']}: the clock has not started")
        else:
            click.echo(f"{view['name']}: {view['time_left']} left (ends {view['ends_at']})")
            for x in view["extended"]:
                click.echo(f"  table {x['table']}: +{x['extra_minutes']} min, {x['time_left']} left")

    @tournament.command("placings")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--json", "as_json", is_flag=True)
    @csv_options
    @click.option("--html", "html", type=click.Path(dir_okay=False), default=None,
                  help="Also write the printable page: every place, the bracket, the round seals.")
    @pass_env
    def placings_cmd(env, tournament_ref, as_json, as_csv, html) -> None:
        """Final placings for every player after the top cut: the final's winner and loser, then
        each elimination round's losers (by Swiss standing), then the Swiss standings. Each row:
        place, player, id (the member id, empty when none), how they went out, Swiss rank. The
        standings sheet (`standings --html`) shows the top cut's places above the Swiss table.
        With no top cut, the final placings are the Swiss standings once the last declared Swiss
        round has every result (how: "Swiss standings").

        \b
        Examples:
          tablejudge tournament placings t-1a2b --json
          tablejudge tournament placings t-1a2b --csv > placings.csv     # --excel: the same for Excel
          tablejudge tournament placings t-1a2b --html exports/final.html
        """
        st = _open(env, tournament_ref).state()
        rows = [p.to_dict() for p in placings.final_placings(st)]
        if html:
            from judge.io.files import write_text
            from judge.tournament.pages import placings_page  # renders: imported only here

            write_text(html, placings_page(st))  # atomic: whole or not at all
            stderr(f"wrote {html}")
        emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=False,
                  text=lambda rs: table_text(rs, ["place", "player", "id", "how", "swiss_rank"]))

    @tournament.command("warnings")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--all", "include_resolved", is_flag=True, help="Also the answered ones, with the answer.")
    @click.option("--json", "as_json", is_flag=True)
    @pass_env
    def warnings_cmd(env, tournament_ref, include_resolved, as_json) -> None:
        """What a change invalidated (a Swiss result changed after the top cut was paired, a result
        changed after the next round was paired on it, a result taken from a match that a later
        correction in the match left out of date: record it again; `close` waits for it). Exit 1
        while any is unanswered.

        \b
        Example:
          tablejudge tournament warnings t-1a2b
        """
        t = _open(env, tournament_ref)
        ws = placings.warnings(t.state(), include_resolved=include_resolved, store=t.store)
        if as_json:
            emit_json([w.to_dict() for w in ws])
        else:
            for w in ws:
                d = w.to_dict().get("decision")
                click.echo(f"{w.id}: {w.message}" + (f"\n  answered: {d['choice']} ({d['reason']})" if d else
                                                     f"\n  choices: {', '.join(w.choices)}" if w.choices else ""))
            if not ws:
                click.echo("no warning")
        if any(w.decision is None for w in ws):
            from judge.cli.common import FindingsExit
            raise FindingsExit()

    @tournament.command("decide")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("warning_id")
    @click.argument("choice", type=click.Choice(["keep", "reseed", "repair"]))
    @click.option("--reason", required=True)
    @pass_env
    def decide_cmd(env, tournament_ref, warning_id, choice, reason) -> None:
        """Answer a warning: keep (with the reason), reseed the top cut from the standings, or
        re-pair the last round. The answer is an event. The warnings about a result's match
        (result-basis, result-appealed, result-decision) have no answer here: recording the
        result again as each says settles it (refused with its commands).

        \b
        Example:
          tablejudge tournament decide t-1a2b stale-bracket:3f2a9c01e4 keep --reason "the cut was already played"
        """
        events = placings.decide(_open(env, tournament_ref), warning_id, choice, reason)
        click.echo(f"{choice}: recorded ({len(events)} event{'s' if len(events) != 1 else ''})")

    @tournament.command("matches")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--ruleset", default=None, callback=ruleset_name,
                  help="The ruleset the tables play (see `tablejudge rulesets`). Default: the tournament's game.")
    @click.option("--round", "round_no", type=int, default=None)
    @click.option("--json", "as_json", is_flag=True)
    @pass_env
    def matches_cmd(env, tournament_ref, ruleset, round_no, as_json) -> None:
        """Create a recorded match for every table of a round (once per table) and list them.

        A table a match already names (its labels) without being linked to it gets no second match:
        the one match with the table's players is linked, otherwise the table is skipped; each is
        said on stderr with why (and what to do). --json: one row per table, `table`, `match`
        (null: skipped), `status` (existing, created, linked or skipped) and `reason` (linked,
        skipped; else null), and nothing on stderr.

        \b
        Example:
          tablejudge tournament matches t-1a2b
        """
        outcomes: list[rounds.TableOutcome] = []
        rounds.create_matches(_open(env, tournament_ref), ruleset=ruleset, round_no=round_no, outcomes=outcomes)
        if as_json:  # the reasons in the rows (review: they went to stderr only, where a script never looks)
            emit_json([o.row() for o in outcomes])
            return
        click.echo(table_text([{"table": o.table, "match": o.match} for o in outcomes if o.match],
                              ["table", "match"]))
        for o in outcomes:  # a table a match named but was not linked to: no second match, said
            if o.reason:
                stderr(o.line())
