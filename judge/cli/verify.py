"""`tablejudge verify`: hash chains, snapshots, recorded decisions, anchors, round seals, and the
append-only guard (with `--repair`). A thin shell over judge/evidence.py."""
from __future__ import annotations

import click

from engine.store import UNKNOWABLE, GuardBroken
from engine.words import plural

from judge.cli.common import EXIT_FINDINGS, Env, FindingsExit, emit_json, json_option, pass_env


def register(cli: click.Group) -> None:
    cli.add_command(verify_cmd)


@click.command("verify")
@click.argument("matches", nargs=-1, metavar="[MATCH|TOURNAMENT]...")
@click.option("--all", "all_", is_flag=True,
              help="Every stream of the log: matches, tournaments (results and seals), the log's incidents.")
@click.option("--anchor", "anchors", multiple=True, metavar="HASH|TOKEN|FILE",
              help="Prove the log still holds this head as a prefix: a tj-anchor token, a 64-digit event "
                   "hash, or a file holding anchors (a report, a slip, a JSONL or CSV export). Repeatable.")
@click.option("--seal", "seals", multiple=True, is_flag=False, flag_value="all",
              metavar="[SEAL|TOURNAMENT|FILE]",
              help="Prove nothing a round seal covers was changed or removed, and that no result of its round "
                   "changed after it (else STALE): a tj-seal token or hash (from a printed standings page or "
                   "round report), a tournament, a file; alone: every seal.")
@click.option("--repair", is_flag=True,
              help="After checking everything: restore a missing or altered append-only guard and record "
                   "the incident as an event (writes are refused until then), with every broken chain "
                   "found (appends to those streams are refused from then on).")
@json_option
@pass_env
def verify_cmd(env: Env, matches, all_, anchors, seals, repair, as_json) -> None:
    """Recompute hash chains, compare snapshots with a full replay, recheck the state recorded
    decisions were based on (as recorded, and as corrected since: a time decision a later
    correction changed the table of is STALE until `timelimit` decides again), and check the
    append-only guard; with --anchor and --seal, prove that
    heads kept outside the log are still in it. Exit 1 if anything fails.

    \b
    Examples:
      tablejudge verify MATCH
      tablejudge verify --all --json
      tablejudge verify --anchor exports/3f2a9c01e4.html
      tablejudge verify --seal tj-seal:t-1a2b3c4d/3:9f0c...   # as printed on the standings page
      tablejudge verify --repair
    """
    from judge.evidence import verify

    if not (matches or all_ or anchors or seals or repair):  # said before any log is opened
        raise click.UsageError("verify needs something to check: a match or tournament id, --all (every "
                               "stream of the log), --anchor HASH|TOKEN|FILE, --seal [SEAL|TOURNAMENT|FILE] "
                               "or --repair", click.get_current_context())
    store = env.store()
    result = verify(store, list(matches), all_streams=all_, anchors=anchors, seal_values=seals,
                    repair=repair, recorded_by=env.recorded_by)
    if as_json:
        if anchors or seals or repair:
            emit_json(result.to_dict())
        else:
            data = [r.to_dict() for r in result.streams]
            emit_json(data[0] if len(data) == 1 and not all_ else data)
    else:
        _print(result)
    if not result.ok:
        raise FindingsExit(EXIT_FINDINGS)


def _print(result) -> None:
    for r in result.streams:
        if r.ok:
            click.echo(f"{r.match}: ok, {plural(r.events, 'event')}, head {r.head_hash}")
        else:  # what is stored, as for an ok stream: the count, and the head when the chain holds
            head = (f"head {r.head_hash}" if r.head_hash else
                    f"no trusted head (the chain breaks at event {r.first_break.position})")
            click.echo(f"{r.match}: FAILED, {plural(r.events, 'event')}, {head}")
            for p in r.problems:
                click.echo(f"  {p}")
    for a in result.anchors:
        click.echo(f"anchor {a.anchor.token() if a.anchor.stream else a.anchor.hash}: "
                   f"{'ok' if a.ok else 'FAILED'}: {a.message}")
    for s in result.seals:
        if s.problems:
            state = "FAILED"
        elif s.stale and s.superseded_by is not None:
            state = ("STALE, " if not s.ok else "") + f"superseded by the seal at event {s.superseded_by}"
        elif s.stale:
            state = "STALE"
        else:
            state = f"ok ({plural(s.heads, 'head')} hold)"
        at = f", event {s.position}" if s.position is not None else ""
        click.echo(f"seal of {s.stream} round {s.label} ({s.seal[:16]}...{at}): {state}")
        for p in s.problems:
            click.echo(f"  {p}")
        if s.stale:
            click.echo(f"  {s.stale}")
            if s.superseded_by is not None:
                click.echo(f"  the current seal of round {s.label}: {s.superseded_token}")
            else:
                click.echo(f"  standings printed with this seal are out of date; seal the round again: "
                           f"tablejudge tournament seal {s.stream} --round {s.label}")
    if result.repair is not None:
        if result.repair.get("event") is None:
            click.echo("guard: intact, nothing to repair")
        elif result.repair.get("kind") == "chain.broken":
            click.echo(f"guard: intact; the broken chains are recorded as event {result.repair['event']} of "
                       f"{result.repair['stream']}")
        else:
            click.echo(f"guard: restored; the incident is event {result.repair['event']} of "
                       f"{result.repair['stream']} (found: {'; '.join(result.repair['found'])})")
        for b in result.repair.get("broken") or ():
            click.echo(f"  {b['stream']}: chain broken at event {b['position']}; appends to it are refused "
                       "from now on (record the rest of its game in a new match)")
    if result.streams:
        click.echo(f"guard: {result.guard_detail}")
        click.echo("cannot know from the log alone: " + "; ".join(UNKNOWABLE))


__all__ = ["register", "GuardBroken"]
