"""`tablejudge timelimit MATCH`: decide a match whose time was called, by its ruleset's procedure."""
from __future__ import annotations

import click

from engine.match import InputError
from judge.desk.timelimit import refused_after_standing, run, text_report

from judge.cli.common import Env, emit_json, json_option, pass_env


def register(cli: click.Group) -> None:
    @cli.command("timelimit")
    @click.argument("match")
    @click.option("--policy", metavar="P", default=None,
                  help="The end-of-time policy (default: the ruleset's own; op2009: mm25 or mm25-entrambi; "
                       "optcg: bandai, store, regional or asia).")
    @click.option("--dry-run", is_flag=True, help="Decide and print, but record nothing.")
    @click.option("--judge", "-j", default=None, metavar="NAME",
                  help="The judge deciding (recorded as actor judge:NAME of the time.decision event). Default: "
                       "--by / $TABLEJUDGE_USER / OS user, as every judge command.")
    @click.option("--facts", metavar="TEXT", default=None,
                  help="A match nobody recorded: what you read off the table, e.g. \"turn=4 life=2-3 deck=20-18\" "
                       "(the ruleset's facts are listed when one is missing or wrong). Records the time call too "
                       "if there is none. On a recorded match, a fact the log knows (optcg: Life, deck, Characters, turn) read "
                       "otherwise is refused, and one left out is taken from the log.")
    @click.option("--clock", metavar="HH:MM", default=None,
                  help="With --facts on a match without a time call: when time was called, local time (default: now, local time).")
    @json_option
    @pass_env
    def timelimit(env: Env, match: str, policy: str | None, dry_run: bool, judge: str | None, facts: str | None,
                  clock: str | None, as_json: bool) -> None:
        """Decide MATCH by its ruleset's end-of-time rules and record the decision.

        Finds the match's time.called event, runs the procedure (e.g. op2009's "Situazione Fine
        Tempo"), prints the decision, the branch taken and the rule quoted, and records it as a
        time.decision event (unless --dry-run, or the same decision is already recorded under
        the same policy). A decision that stands is said first ("decided: ..."), also before a
        refusal for counts the log lacks (a decision from --facts stands); a different
        one, or the same result under another policy, is refused (exit 2) until it is voided. A
        "continue" decision says what the table must play first (e.g. finish the turn). A
        recorded decision a later correction left out of date (stale) is decided again on the
        corrected table, and the new one supersedes it.
        Exit 2 when the match has no time.called event, or when the decision reaches a count the
        record does not know (optcg: a deck never registered): it prints the --facts to give.
        Exit 2 too, nothing recorded, where the match's last time decision (voided or not) was
        given from --facts and the log alone would give "continue": the log has not the play
        those facts described; it prints the --facts to read again, a ? for each value.
        Exit 1, nothing recorded, on a match whose hash chain `verify --repair` recorded broken
        (--dry-run still reads it, saying so first on stderr).

        A match nobody recorded event by event: read the table and give --facts; the same
        procedure decides on the table the facts describe, and the decision records them. The
        facts each ruleset reads (values per player in seat order, joined by '-'):

        \b
          optcg       turn (extra turns over since turn 0), life, deck, characters, last_life
                      (A, B or none), minutes_up (policy regional); only what the decision reaches
          ken         order (Order points), turn
          grandline   vp, life, round
          onigashima  vp, turn, fight (yes: a fight in progress)
          op2009      games, drawn (games drawn, 0 if left out), in_game, then as the
                      procedure asks: turn_over, won, turn_of, damage (Captain Life Points
                      lost), sudden (sudden death: who first); won= and sudden= also
                      take both (both at once: a drawn game, a draw)

        \b
        Example:
          tablejudge timelimit M1 --json       (after a time.called event, e.g. {"clock": "15:40"})
          tablejudge timelimit M1 --policy mm25-entrambi --dry-run
          tablejudge timelimit T3 --facts "turn=3 life=2-3"          (optcg, bandai: Bob has more Life)
          tablejudge timelimit T3 --facts "turn=3 life=2-2 deck=20-18" --clock 15:40 --json
        """
        # --dry-run reads (the broken chain's WARNING first, as every read); recording on a chain
        # `verify --repair` found broken is refused for that, before anything is judged from it
        m = env.match(match, read=dry_run)
        if not dry_run:
            m.store.refuse_if_broken(m.id)
        try:
            result = run(m, policy, dry_run=dry_run, judge=judge, recorded_by=env.recorded_by, facts=facts, clock=clock)
        except InputError as e:
            # the log alone lacks counts, but a decision (from facts read off the table) stands: say it
            # first, as every report does, then the refusal (stderr, exit 2). Typed --facts refused is
            # about what was typed: nothing to say first
            said = None if as_json or facts is not None else refused_after_standing(m, e)
            if said is not None:
                click.echo(said)
            raise
        if as_json:
            emit_json(result.to_dict())
        else:
            click.echo(text_report(result, env.lang))
