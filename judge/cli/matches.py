"""Commands over the match log: match new, matches, log, import, events, state, validate, export,
rulesets (`verify` is judge/cli/verify.py)."""
from __future__ import annotations

import os
import sys

import click

from engine.decisions import StandingTable, stale_decisions
from engine.events import TABLE_ACTOR
from engine.match import InputError, Match
from engine.names import match_names, names_now, shown_players
from engine.rulesets import available, get_ruleset
from engine.schema import PayloadError, read_json, shown
from engine.store import ConflictError, MatchNotFound, NotAMatch, recorded_events
from engine.words import plural, positions

from judge.io.files import atomic_write, inside, safe_name
from judge.io.cardnames import CARD_DATA_RULESETS
from judge.io.exporters import exporter
from judge.io.exporters import formats as export_formats
from judge.cli.expect import confirm_expected, same_event
from judge.cli.fieldargs import parse_field_args
from judge.cli.streams import TournamentStream, is_tournament, tournament_event_rows, tournament_events_text
from judge.report.text import render_events, render_findings, render_judged, render_state
from judge.cli.common import EXIT_CONFLICT, EXIT_FINDINGS, Env, FindingsExit, emit_json, emit_rows, json_option
from judge.cli.common import actor_placeholder, output_options, pass_env, progressbar, ruleset_name, stderr, table_text

DEFAULT_EXPORT_DIR = "exports"


def register(cli: click.Group) -> None:
    cli.add_command(match_group)
    for cmd in (matches_cmd, log_cmd, import_cmd, events_cmd, state_cmd, validate_cmd,
                export_cmd, rulesets_cmd):
        cli.add_command(cmd)


def _parse_options(pairs: tuple[str, ...]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise InputError(f"--option takes NAME=VALUE, got {shown(pair)}", field="options")
        try:
            out[key] = read_json(value)
        except PayloadError:  # not JSON: the text itself (the ruleset says if it is a valid choice)
            out[key] = value
    return out


@click.group("match")
def match_group() -> None:
    """Create matches."""


@match_group.command("new")
@click.option("--ruleset", "-r", required=True, callback=ruleset_name,
              help="Ruleset name (see `tablejudge rulesets`; any case: OPTCG is optcg).")
@click.option("--player", "-p", "players", multiple=True, required=True,
              help="A player, in seat order; repeat for each player.")
@click.option("--event", help="Event label; a tournament's id (or its name, if no other tournament has it, or the start "
              "of its id, if no other id starts so) labels "
              "the match by the tournament's id, and with --table makes the match that table's, linked (--round and --table must be in its pairings, the table "
              "without a match; an older match naming the table unlinked is warned of). A label naming no tournament "
              "is a free label; a start of an id is read as that tournament (either said on stderr).")
@click.option("--round", "round_", help="Round label (with a tournament's id: the round number).")
@click.option("--table", help="Table label (with a tournament's id: the table number).")
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
              help="A ruleset option (see `tablejudge rulesets --json`). Repeatable.")
@click.option("--id", "match_id", help="Use this match id instead of a generated one.")
@click.option("--decks-from", "decks_from", metavar="TOURNAMENT",
              help="optcg: record each player's decklist from their tournament registration (with the card "
                   "facts) as the match's first events.")
@json_option
@pass_env
def match_new(env: Env, ruleset, players, event, round_, table, opts, match_id, decks_from, as_json) -> None:
    """Create a match and print its id.

    \b
    Examples:
      tablejudge match new --ruleset table --player Ann --player Bob --round 3 --table 47
      tablejudge match new --ruleset optcg --player Ann --player Bob --decks-from t-1a2b
    """
    decks = _tournament_decks(env, decks_from, ruleset, list(players)) if decks_from else []
    from judge.tournament.tablematch import new_match  # a tournament's id as --event: its table's match
    warnings: list[str] = []  # an older match naming the table, unlinked
    notes: list[str] = []  # an event label naming no tournament (a free label), or read as an id's start
    m = new_match(env.store(create=True), ruleset, list(players), event=event, round=round_, table=table,
                  options=_parse_options(opts), match_id=match_id, recorded_by=env.recorded_by,
                  warnings=warnings, notes=notes)
    for w in warnings:
        stderr(f"warning: {w}")
    for n in notes:
        stderr(f"note: {n}")
    findings = []
    for player, payload in decks:
        findings += m.record("deck.registered", payload, actor=player, recorded_by=env.recorded_by).findings
    if as_json:
        emit_json({**m.summary(), **({"warnings": warnings} if warnings else {}), **({"notes": notes} if notes else {})})
    else:
        click.echo(m.id)
        if findings:
            stderr(render_findings(findings, names=env.names(m), lang=env.lang))


def _tournament_decks(env: Env, ref: str, ruleset: str, players: list[str]) -> list[tuple[str, dict]]:
    """Each player's registered decklist as a deck.registered payload, all read before anything is stored."""
    from judge.io import carddb
    from judge.tournament import Tournament
    if ruleset not in CARD_DATA_RULESETS:
        raise InputError(f"--decks-from reads optcg decklists; ruleset {ruleset!r} has none", field="decks-from")
    st = Tournament.open(env.store(), ref).state()
    db = carddb.CardDB.for_log(env.db)
    out = []
    for p in players:
        info = st.players.get(p)
        if info is None or not info.decklist:
            raise InputError(f"{p} has no decklist in tournament {ref} (tournament register {ref} {p} "
                             "--decklist FILE)", field="decks-from")
        payload, _ = carddb.decklist_registration(db, p, info.decklist, where=f"{p}'s decklist in {ref}",
                                                  source=f"tournament {ref}")
        out.append((p, payload))
    return out


@click.command("matches")
@output_options
@pass_env
def matches_cmd(env: Env, as_json, as_csv, as_nl) -> None:
    """List the matches in the log.

    A player the match's log knew only by a placeholder and a later event named is listed by
    the name, with the seat: "Theshyopop#27381 (seat Player 2)". In --json/--csv, `players` are
    the seats (the names the events use) and `named` the players as named now.

    \b
    Example:
      tablejudge --db t.db matches --json
    """
    store = env.store()
    counts = store.event_counts()
    rows = []
    for mid in store.match_ids():
        p = store.created(mid).payload
        names = match_names(Match(store, mid))
        rows.append({"id": mid, "ruleset": p["ruleset"], "players": p["players"], "named": list(names.values()),
                     "event": p.get("event"), "round": p.get("round"), "table": p.get("table"),
                     "events": counts.get(mid, 0)})
    emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=as_nl,
              text=lambda rs: table_text([{**r, "players": shown_players(dict(zip(r["players"], r["named"])))}
                                          for r in rs], ["id", "ruleset", "players", "round", "table", "events"]))


@click.command("log", context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("match")
@click.argument("kind")
@click.option("--actor", "-a", default=TABLE_ACTOR, show_default=True,
              help="Who acted: a player, judge:NAME, or - for the table.")
@click.option("--payload", "payload_json", metavar="JSON", help="The whole payload as a JSON object.")
@click.option("--strict", is_flag=True, help="Refuse (exit 1) instead of recording a flagged event.")
@click.option("--expect", "expected", type=int, metavar="N",
              help="The last event you saw: if the log has moved since N, what moved is shown (who, "
                   "when) and you are asked (at a terminal) before storing; else exit 3, nothing stored.")
@json_option
@click.pass_context
def log_cmd(ctx: click.Context, match, kind, actor, payload_json, strict, expected, as_json) -> None:
    """Append one event. Fields come as --FIELD VALUE after the kind, or as --payload JSON.

    \b
    Examples:
      tablejudge log MATCH note --text "judge present"
      tablejudge log MATCH draw --actor Ann --player Ann --count 2
      tablejudge log MATCH move --payload '{"player":"Ann","from_zone":"hand","to_zone":"field"}'
      tablejudge log MATCH play --actor Ann --player Ann --card hancock     # optcg: a name stores its number
      tablejudge log MATCH correction --actor judge:Zoe --voids 10 --reason "set-up miscount"
      tablejudge log MATCH correction --actor judge:Zoe --voids 10 --reason "4 placed" --instead '{"actor":"Bob","payload":{"player":"Bob","count":4}}'

    \b
    A correction voids event N (it never happened); with --instead (a judge's, of a game event) it
    says what N should have read: its actor and payload (kind: N's). The log keeps N; replay plays
    the replacement in N's place, so what came after N counts on it (docs/log-protocol.md).

    \b
    A card's name (optcg; in --instead too) is narrowed by the match's cards, a Leader field to the
    Leader cards: each name so picked is said above the event (`= chopper → OP08-001, ...`; --json:
    card_notes), an ambiguous one refused. A card number the card data (cards.db or the card
    snapshot) does not hold is recorded, and said on stderr (`notice: OP99-999 is not in the card
    data ...`; --json: notices): no finding says it, as the card data is not part of the log;
    `tablejudge validate` lists it again as a notice.
    Findings are printed under the event (exit 1 with --strict, which refuses).
    `tablejudge rulesets --kinds RULESET` lists each kind's fields.
    """
    env: Env = ctx.obj
    m = env.match(match)
    refused = actor_placeholder(actor, m.players)  # NAME: a hint's placeholder, unless a player's name
    if refused:
        raise InputError(refused, field="actor")
    vocab = m.ruleset.vocabulary()
    if kind not in vocab:
        raise InputError(f"unknown event kind {shown(kind)} for ruleset {shown(m.ruleset.name)} "
                         f"(kinds: {', '.join(k for k in vocab if k != 'match.created')})", field="kind")
    if payload_json and ctx.args:
        raise InputError("give fields either as --FIELD VALUE or as --payload, not both", field="payload")
    if payload_json:
        try:
            payload = read_json(payload_json)
        except PayloadError as e:
            raise InputError(f"--payload: {e.message}", field="payload") from None
    else:
        payload = parse_field_args(vocab[kind], list(ctx.args))
    notes: list[str] = []  # how each name was narrowed to one card: said, as import and live say it
    notices: list[str] = []  # a card number the card data lacks (a typo?): said to this recorder only
    if m.ruleset.name in CARD_DATA_RULESETS:
        from judge.io import carddb  # a card's name -> its number; a deck's facts (only for such games)
        payload, notes, notices = carddb.typed_payload(m, kind, payload)  # as the web's replace form (one path)
    if expected is not None:  # the log moved since N: show what moved (who, when), ask or refuse
        draft = m.draft(kind, payload, actor=actor, recorded_by=env.recorded_by)
        expected = confirm_expected(m.store, m.id, expected, what="event", describe=m.ruleset.describe,
                                    repeats=same_event(draft.kind, draft.actor, draft.payload))
    rec = m.record(kind, payload, actor=actor, recorded_by=env.recorded_by, strict=strict,
                   expected_position=expected)
    if as_json:
        emit_json({"event": rec.event.to_dict(), "findings": [f.to_dict() for f in rec.findings],
                   "card_notes": notes, "notices": notices})
    else:
        for notice in notices:
            click.echo(f"notice: {notice}", err=True)
        for note in notes:
            click.echo(f"= {note}")
        names = env.names(m)
        click.echo(f"{rec.event.position}  {names.text(m.ruleset.describe(rec.event))}")
        if rec.findings:
            click.echo(render_findings(rec.findings, names=names, lang=env.lang))


@click.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "fmt", callback=lambda _c, _p, v: v.lower() if v else v,
              help="File format: optcgsim, jsonl, notation (any case). Default: what the file's first lines "
                   "show (an OPTCGSim log, a JSONL export, notation tags), else by extension (.jsonl -> jsonl, "
                   ".log -> optcgsim, .txt -> notation).")
@click.option("--match", "match_ref", help="Append to this existing match (formats that do not create one).")
@click.option("--workers", type=click.IntRange(1, 64), metavar="N",
              help="Worker processes: for OPTCGSim logs, those that read the files (default: one per "
                   "CPU); for a JSONL file of 5,000 events or more that creates its match, those that "
                   "check its lines beside the writer (default: one per CPU).")
@click.option("--expect", "expected", type=int, metavar="N",
              help="With --match: the last event you saw of it. If the log has moved since N, what moved "
                   "is shown (who, when) and you are asked (at a terminal) before importing; else exit 3.")
@click.option("--again", is_flag=True,
              help="With --match: append the file even if the match already holds its events (the "
                   "same actions truly happened again), or ends with its first ones.")
@click.option("--resume", is_flag=True,
              help="With --match: the match ends with the file's first events (an earlier import of a "
                   "shorter version of it; judge calls, notes and other off-table events after them "
                   "aside): append only the rest.")
@click.option("--cards", "cards_path", metavar="PATH", type=click.Path(exists=True, dir_okay=False),
              help="OPTCGSim logs: the local card database to copy card facts from (SQLite, from "
                   "`cards import`). Default: $TABLEJUDGE_CARDS, else cards.db beside the event log.")
@json_option
@pass_env
def import_cmd(env: Env, paths, fmt, match_ref, workers, expected, again, resume, cards_path, as_json) -> None:
    """Import files of events, each all or nothing: a malformed line is reported with its file,
    line and field, and nothing from that file is stored. A tournament's JSONL export
    (`export TOURNAMENT`) re-creates the tournament's stream, hash for hash; its matches are
    imported from their own exports. A folder imports every file in it, with
    a progress bar and a summary table. The summary counts each import's findings (exit 0: the
    import succeeded; `tablejudge validate` exits 1 when an error remains).

    An OPTCGSim log becomes one match per game (an AutoSaved file holds every rematch); the summary
    says which simulator version and log variant each file is. Many logs are read by worker
    processes and written by one, in batched commits; a game already in the log is recognised
    and skipped, so running an interrupted import again finishes it; a copy of a game cut short
    (a crash) is related to the stored one, file or folder alike: already in the log, resumed, or
    refused naming the line and event where it differs.

    A JSONL file (an export) whose match or tournament the log already holds is compared with
    it, event by event: if the log holds all of it (or more), it is "already in the log" and nothing is stored
    (exit 0); if the log holds its first events, only the rest is appended ("resumed": importing
    the whole file again finishes a transfer cut short, or brings up to date a log that holds an
    earlier export); if a line differs from the stored event, the file is refused, naming that line
    and event. The summary (and --json: "status", "already_in_log") says which, per file.

    A notation file's card names (optcg) are listed after the summary with the line each was
    narrowed on (--json: card_notes); a card number the card data lacks is stored as written and
    said on stderr with its line (--json: notices).

    A file appended with --match (a notation file's body, JSONL lines without match.created) is
    compared with the match's events by kind, actor and payload, leaving out the match's off-table
    events (judge calls, notes, the clock, ...) that the file does not have: if the match ends with
    all of them, it is "already in the log", naming the events, and nothing is stored (exit 0;
    --again appends them anyway, for actions that truly happened twice); if it holds two or more of
    them earlier, or ends with the file's first two or more (a file that grew since it was
    imported), the file is refused, nothing stored, until --again (all of it) or --resume (only the
    rest) says which. --expect N (the last event you saw) places the file exactly,
    without comparing.

    Exit codes: 0 all imported (or already in the log); 2 a file was refused (it stored nothing;
    the others were imported, as listed); 3 another writer appended to a match during its import
    (that file stored nothing; import it again); 130 interrupted (Ctrl-C): the files listed were
    imported, the one being read was not. With --json an error is also one JSON object on stdout,
    as for every command (stderr says it too).

    \b
    Examples:
      tablejudge import examples/op2009/best-of-three-fine-tempo.jsonl
      tablejudge import more-events.jsonl --match 3f2a9c01
      tablejudge import game.txt --match 3f2a9c01 --resume   # game.txt grew since
      tablejudge import exports/3f2a9c01e4.jsonl     # later: only what is new
      tablejudge import game.log --json
      tablejudge import logs/ --format optcgsim --workers 2
    """
    from judge.io import importers  # only `import` needs the importers

    files = _expand(paths)
    # each file's format read once (its first lines, else its name), not once per question about it
    name_of = {p: fmt or importers.guess_format(p) for p in files}
    if again and resume:
        raise InputError("--again appends the whole file, --resume only what the match does not end "
                         "with: give one", field="again")
    if again or resume:
        if not match_ref:
            raise InputError(f"--{'again' if again else 'resume'} goes with --match (a file appended to "
                             "a match)", field="again" if again else "resume")
        other = [p for p in files if name_of[p] not in ("notation", "jsonl")]
        if other:
            raise InputError("--again and --resume are for notation and JSONL files", where=other[0],
                             field="format")
    if len(files) > 1 and not match_ref and \
            all(name_of[p] == "optcgsim" for p in files):
        from judge.cli.importing import bulk_import

        bulk_import(env, files, workers=workers, as_json=as_json, cards=cards_path)
        return
    store = env.store(create=True)
    if expected is not None:
        if not match_ref or len(files) != 1:
            raise InputError("--expect goes with --match and one file", field="expect")
        m = env.match(match_ref)
        match_ref = m.id
        expected = confirm_expected(store, m.id, expected, what="import", describe=m.ruleset.describe)
    summaries, failures = [], []
    conflicts = 0
    interrupted: str | None = None
    show_bar = len(files) > 1 and not as_json
    with progressbar(files, label="importing", show_pos=True) if show_bar \
            else _plain(files) as bar:
        for path in bar:
            try:
                name = name_of[path]
                mod = importers.importer(name)
                summary = mod.import_file(store, path, match=match_ref, recorded_by=env.recorded_by,
                                          **({"expect": expected} if expected is not None else {}),
                                          **({"workers": workers} if workers and name == "jsonl" else {}),
                                          **({"cards": cards_path} if name == "optcgsim" else {}),
                                          **({"again": again} if again else {}),
                                          **({"resume": resume} if resume else {}))
            except (InputError, ConflictError) as e:
                if not fmt and isinstance(e, InputError) and importers.sniff(path) is None:
                    e = InputError(e.message + importers.unsure_hint(path), where=e.where, field=e.field)
                if len(files) == 1:
                    raise e from None
                failures.append({"file": path, "error": str(e)})
                conflicts += isinstance(e, ConflictError)
                continue
            except KeyboardInterrupt:  # before its one transaction committed: nothing of it stored
                interrupted = path
                break
            summaries.append(summary)
            if not summary.judged:  # stored, then Ctrl-C while judging it
                break
    rows = [s.to_dict() for s in summaries]
    if as_json:
        emit_json(rows[0] if len(files) == 1 and rows and not interrupted else
                  {"imported": rows, "failed": failures, "interrupted": interrupted})
    else:
        if len(files) == 1 and rows and "games" in rows[0]:
            from judge.cli.importing import describe_file

            click.echo(describe_file(rows[0]))
        if len(files) == 1 and rows:
            r = rows[0]
            judged = (f"{plural(r['findings'], 'finding')}" if r["findings"] is not None
                      else "not judged (interrupted): run `tablejudge validate " + r["match"] + "`")
            thing = "tournament" if r.get("stream") == "tournament" else "match"
            if "games" in r:  # an OPTCGSim log: every match it stored, resumed or found
                from judge.cli.importing import outcome_line

                click.echo(outcome_line(r, judged))
            elif r.get("tail"):  # appended with --match, and the match already holds it
                click.echo(f"{r['file']}: already in the log: match {r['match']} holds these "
                           f"{plural(r['already_in_log'], 'event')} ({positions(*r['held'])}; imported "
                           "before?); nothing stored (--again appends them again)")
            elif r.get("status") == "already in the log":
                click.echo(f"{r['file']}: {import_status(r)}, {thing} {r['match']}: nothing stored")
            elif r.get("stream") == "tournament":  # a tournament's own stream: no moves to judge
                click.echo(f"{r['file']}: " + (
                    f"{import_status(r)}, {r['events']} appended to tournament {r['match']}; "
                    if r.get("status") == "resumed" else
                    f"{plural(r['events'], 'event')} into tournament {r['match']} (new); ")
                    + f"`tablejudge verify {r['match']}` checks it, `tablejudge tournament show {r['match']}` "
                    "shows it")
            elif r.get("status") == "resumed":
                click.echo(f"{r['file']}: {import_status(r)}, {r['events']} appended to match {r['match']}; "
                           f"{judged}")
            elif r["events"] == 0 and not r["created"]:  # the findings are the match's, listed by `findings`
                click.echo(f"{r['file']}: already in match {r['match']}: nothing new stored "
                           f"(`tablejudge findings {r['match']}` lists its findings)")
            else:
                click.echo(f"{r['file']}: {plural(r['events'], 'event')} into match {r['match']}"
                           f"{' (new)' if r['created'] else ''}; {judged}")
        elif rows:
            click.echo(table_text([r | {"status": import_status(r)} for r in rows],
                                  ["file", "match", "events", "findings", "status"]))
        for r in rows:  # a card picked for a name is never picked silently (cardresolve), here as live
            for n in r.get("card_notes") or ():
                click.echo(card_note_line(n))
            for n in r.get("notices") or ():  # a card number the card data lacks: as `log` says it
                stderr(f"{n['file']}:{n['line']}: notice: {n['notice']}")
        for f in failures:
            stderr(f"failed (nothing of it stored): {f['error']}")
    if interrupted:
        stderr(f"interrupted while reading {interrupted}: nothing of it was stored"
               + (f"; {plural(len(summaries), 'file')} imported before it (listed above)" if summaries else ""))
    if interrupted or any(not s.judged for s in summaries):
        raise FindingsExit(130)
    if failures:
        raise FindingsExit(EXIT_CONFLICT if conflicts else 2)


def card_note_line(n: dict) -> str:
    """How a notation file's card name was narrowed, where it was said: `game.txt:7: = hancock → OP01-078,
    the only Boa Hancock seen in this match for Ann` (the live recorder's `= note`, with the file's line)."""
    return f"{n['file']}:{n['line']}: = {n['note']}"


def import_status(r: dict) -> str:
    """What an import did with one file, in words (a row of the folder summary)."""
    status = r.get("status")
    if status == "resumed":
        held = r["already_in_log"]
        return f"resumed: {plural(held, 'event')} {'was' if held == 1 else 'were'} already in the log"
    if status == "already in the log":
        more = r.get("log_holds_more") or 0
        return "already in the log" + (f" (the log holds {plural(more, 'more event')} than this file)"
                                       if more else "")
    if status:
        return status
    if "games" in r:  # an OPTCGSim log: its games
        already = len(r.get("already_imported") or [])
        if not r["created"]:
            return "already in the log"
        return "created" + (f" ({plural(already, 'game')} already in the log)" if already else "")
    return "created" if r["created"] else "appended"


def _plain(items):
    class _Ctx:
        def __enter__(self):
            return items

        def __exit__(self, *a):
            return False
    return _Ctx()


LOG_ENDINGS = (".jsonl", ".ndjson", ".json", ".log", ".txt", ".tjn")  # what a folder's import reads
EXPORT_ONLY = (".csv", ".sqlite", ".db", ".html")  # written by `export`, read back by nothing


def _expand(paths: tuple[str, ...]) -> list[str]:
    """The files to import: each file named, and a folder's logs (by their ending, or with none by
    their content; anything else in it, a README or a script, is passed over and said so)."""
    from judge.io import importers

    files: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            names = sorted(f for f in os.listdir(p) if os.path.isfile(os.path.join(p, f)) and not f.startswith("."))
            found = [os.path.join(p, f) for f in names if f.lower().endswith(LOG_ENDINGS)
                     or ("." not in f and importers.sniff(os.path.join(p, f)))]  # a log saved without one
            passed = [f for f in names if os.path.join(p, f) not in found]
            if not found:
                raise InputError(f"the folder {p} holds no file to import (logs end in {', '.join(LOG_ENDINGS)})",
                                 where=p)
            if passed:
                stderr(f"{p}: passed over {plural(len(passed), 'file')} that "
                       + ("is not a log: " if len(passed) == 1 else "are not logs: ")
                       + ", ".join(passed[:5]) + (" ..." if len(passed) > 5 else ""))
            files.extend(found)
        else:
            if p.lower().endswith(EXPORT_ONLY):
                raise InputError(f"{os.path.basename(p)} is an export for people and spreadsheets; import the "
                                 "JSONL export (tablejudge export MATCH --format jsonl)", where=p)
            files.append(p)
    return files


@click.command("events")
@click.argument("match")
@click.option("--from", "start", type=int, default=1, show_default=True, help="First position.")
@click.option("--to", "stop", type=int, help="Last position.")
@output_options
@pass_env
def events_cmd(env: Env, match, start, stop, as_json, as_csv, as_nl) -> None:
    """List a match's events (envelopes with hashes in --json/--csv). A tournament's id lists
    the tournament's own events (registrations, pairings, results, seals) in words.

    Each row of --json/--csv also says `voided` (the event as recorded no longer counts: voided,
    backed up over or replaced) and `replaced` (a correction says what it should have read, and
    that plays in its place; `replaced_by`: the correction). Replaced events are `voided` and
    `replaced`; events that simply no longer count are `voided` only.

    \b
    Examples:
      tablejudge events MATCH --from 10 --to 20
      tablejudge events TOURNAMENT --json
    """
    from engine.replacing import marks as replacing_marks

    try:
        m = env.match(match)
    except NotAMatch as e:  # a tournament's own events: the audit trail's words beside each
        if not is_tournament(e):
            raise
        rows = tournament_event_rows(env.store(), e.stream, start, stop)
        if as_json or as_csv or as_nl:
            emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=as_nl, text=lambda r: "")
        else:
            click.echo(tournament_events_text(rows))
        return
    # one read of the stream serves the table (its voids, its card names), the listing and the
    # chain's verdict; verify still recomputes every hash from these rows' stored bytes
    raw = m.store.read_raw(m.id)
    whole = recorded_events(raw)
    state = m.replayer.state_at(events=whole)
    voided = set(state.voided)
    marks = replacing_marks(whole, voided)  # replaced events, superseded corrections
    for pos, s in stale_decisions(m.replayer, whole).items():  # and stale decisions: decided again (QA N7)
        if s.superseded_by is not None:
            marks.setdefault(pos, {})["superseded_by_event"] = s.superseded_by
        else:  # or waiting for a new one, in the words `verify` fails it with (QA76 #4)
            marks.setdefault(pos, {}).update(out_of_date=s.mark(), decide_again=s.redo(m.id))
    events = [e for e in whole if e.position >= start and (stop is None or e.position <= stop)]
    cut = m.store.verify(m.id, raw).first_break  # an edited event is marked where it is listed
    broken = (cut.position, cut.reason) if cut else None
    if as_json or as_csv or as_nl:
        # `voided`: the event as recorded no longer counts (true for a replaced one too, as older readers
        # read it); `replaced`, on every row: something plays in its place (`replaced_by`: which correction)
        rows = [dict(e.to_dict(), description=m.ruleset.describe(e), voided=e.position in voided,
                     replaced="replaced_by" in marks.get(e.position, {}), **marks.get(e.position, {}),
                     broken_link=cut.reason if cut and cut.position == e.position else None)
                for e in events]
        emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=as_nl, text=lambda r: "")
    else:
        click.echo(render_events(events, m.ruleset, voided, names=env.names(m, state), broken=broken, marks=marks))
        if cut:
            click.echo(f"the hash chain breaks at event {cut.position} (marked): it is not as it was recorded; "
                       f"tablejudge verify {m.id} says more", err=True)


@click.command("state")
@click.argument("match")
@click.option("--at", type=int, metavar="N", help="The table right after event N (as corrected).")
@click.option("--turn", type=int, metavar="T",
              help="The table at the start of turn T (as corrected). Turns start at 1: --turn 1 is the table "
                   "when the set-up is done; --at N shows a moment inside the set-up.")
@click.option("--as-recorded", is_flag=True,
              help="The table as it was recorded then, before the corrections and backups recorded after it.")
@json_option
@pass_env
def state_cmd(env: Env, match, at, turn, as_recorded, as_json) -> None:
    """Show the table at a moment: each player's zones (known cards and unknown counts), counters,
    turn, phase, and the state hash. Default: after the last event.

    A moment is shown as corrected: a correction or backup recorded later in the log counts there
    too, as it does in `validate` and the report. `--as-recorded` shows what the recorder saw then.
    A time decision a later correction left out of date is no result: "not decided (...)" says why
    (`not_decided` in the JSON) until `timelimit` decides again.

    \b
    Examples:
      tablejudge state MATCH --at 12
      tablejudge state MATCH --at 12 --as-recorded
      tablejudge state MATCH --turn 3 --json
    """
    if at is not None and turn is not None:
        raise InputError("give --at or --turn, not both", field="at")
    m = env.match(match, read=True)
    replayer = m.replayer
    state = (replayer.state_at_turn(turn, corrected=not as_recorded) if turn is not None
             else replayer.state_at(at, corrected=not as_recorded))
    view_of = "as recorded then" if as_recorded else "as corrected"
    # a stale time decision is no result, though the table still holds what it set (QA74 N3);
    # the log is read again only for a result a decision set (one read for every other table)
    standing: tuple = (state.result, None)
    appealed = None
    if (state.result or {}).get("position") is not None:
        events = m.events()
        standing = StandingTable(replayer, events, stale_decisions(replayer, events)).result(
            state.result, m.id, at=state.position if as_recorded else None, upto=state.position)
        appealed = _result_appealed(m, events, standing[0], state.position if as_recorded else None)
    if as_json:
        view = state.view()
        view["result"], view["not_decided"] = standing
        view["appealed"] = appealed
        view["view"] = view_of
        view["match"] = m.id
        view["summary"] = m.ruleset.summary_lines(state)
        view["named"] = names_now(state)  # seat -> the name it goes by now (players stay keyed by seat)
        names = env.names(m, state)  # the numbers stay numbers; their names beside them
        known = {c for pv in view["players"].values() for zv in pv["zones"].values() for c in zv["known"] if c}
        view["names"] = {n: names.name(n) for n in sorted(known) if names.name(n)}
        emit_json(view)
    else:
        click.echo(render_state(state, m.ruleset, head=m.head_position(), match_id=m.id, names=env.names(m, state),
                                view=view_of if state.position != m.head_position() else None,
                                standing=standing, appealed=appealed))


def _result_appealed(m, events, result, upto: int | None) -> str | None:
    """What the head judge decided on appeal of the time decision `result` came from, when they
    overturned or changed it (engine.desk.appealed_away): the result counts until what replaces it
    is recorded, and `state` says so beside it. `upto`: a moment as recorded (a later appeal was not
    there yet)."""
    from engine.desk import decision_appealed
    from engine.replay import voided_positions
    position = (result or {}).get("position")
    if position is None:
        return None
    a = decision_appealed(events, voided_positions(events), position, upto)
    return None if a is None else a.of_time_decision(m.id)


@click.command("validate")
@click.argument("match")
@click.option("--upto", type=int, metavar="N", help="Judge events 1..N only.")
@json_option
@pass_env
def validate_cmd(env: Env, match, upto, as_json) -> None:
    """Judge every event against the table before it, and the match's paperwork (result slip,
    penalties); list findings with rule ids and the rulebook's words. Exit 1 if any
    error-severity finding remains on an event that still counts.

    \b
    A card number no card data holds (cards.db or the shipped snapshot; card games only) is listed
    as a notice, not a finding (stderr; --json: notices): the card data is not part of the log, so
    findings, reports and replay never depend on it.

    \b
    Example:
      tablejudge validate MATCH --json
    """
    from judge.desk import finding_rows, review
    from judge.io.carddb import log_notices

    m = env.match(match, read=True)
    r = review(m, upto)
    notices = log_notices(m, r.events, r.voided)
    if as_json:
        emit_json({"match": m.id, "findings": finding_rows(r), "notices": notices})
    else:
        for n in notices:
            click.echo(f"notice: event {n['position']}: {n['notice']}", err=True)
        click.echo(render_judged(r.active_findings(), r.void_findings(), names=env.names(m, r.state), lang=env.lang))
    if any(f.severity == "error" for f in r.active_findings()):
        raise FindingsExit(EXIT_FINDINGS)


@click.command("export")
@click.argument("match")
@click.option("--format", "fmt", default="jsonl", show_default=True,
              help=f"One of: {', '.join(export_formats())}.")
@click.option("--out", "-o", type=click.Path(dir_okay=False, writable=True),
              help="Output file ('-' for stdout). Default: exports/MATCH.EXT")
@pass_env
def export_cmd(env: Env, match, fmt, out) -> None:
    """Write a match's events to a file (default folder: exports/). A tournament's id with
    `--format jsonl` writes the tournament's own event stream (hashes included; `import` rebuilds
    the identical chain).

    \b
    Examples:
      tablejudge export MATCH                 # exports/MATCH.jsonl
      tablejudge export MATCH --format csv -o -
      tablejudge export TOURNAMENT            # exports/TOURNAMENT.jsonl: the event's archive
    """
    mod = exporter(fmt)
    try:
        m = env.match(match, read=True)  # a broken chain's WARNING first: the file carries the edited events
    except NotAMatch as e:  # a tournament: its event stream, as JSONL only (the archive of an event)
        if not (is_tournament(e) and fmt == "jsonl"):
            raise
        m = TournamentStream(env.store(), e.stream)
    if out == "-":
        mod.export_match(m, sys.stdout)
        return
    path = out or export_path(DEFAULT_EXPORT_DIR, m.id, mod.EXTENSION)
    n = export_to_path(mod, m, path)
    click.echo(f"{path}: {plural(n, 'event')}")


def export_path(folder: str, match_id: str, extension: str) -> str:
    """FOLDER/<safe name of the id>.EXT: inside the folder whatever the id (one from an older
    version may hold '/' or '..'), and distinct for distinct ids."""
    return inside(folder, f"{safe_name(match_id)}.{extension}")


def export_to_path(mod, m: Match, path: str) -> int:
    """Export into a temporary file beside `path`, renamed into place: complete or absent."""
    if hasattr(mod, "export_match_to_path"):
        return mod.export_match_to_path(m, path)
    with atomic_write(path, newline="") as f:
        return mod.export_match(m, f)


@click.command("rulesets")
@click.option("--kinds", "kinds_of", metavar="RULESET", help="List one ruleset's event kinds and fields.")
@json_option
def rulesets_cmd(kinds_of, as_json) -> None:
    """List the rulesets (games) and, with --kinds, a ruleset's event vocabulary.

    \b
    Examples:
      tablejudge rulesets
      tablejudge rulesets --kinds table
    """
    if kinds_of:
        rs = get_ruleset(kinds_of)
        rows = [{"kind": k, "version": cls.version, "doc": (cls.__doc__ or "").strip().split("\n")[0],
                 "fields": [{"name": n, "type": t, "required": r} for n, t, r in cls.describe_fields()]}
                for k, cls in rs.vocabulary().items()]
        if as_json:
            emit_json(rows)
        else:
            for r in rows:
                fields = " ".join(f"--{f['name']} <{f['type']}>" + ("" if f["required"] else "?")
                                  for f in r["fields"])
                click.echo(f"{r['kind']:<16} {fields}")
                if r["doc"]:
                    click.echo(f"{'':<16} {r['doc']}")
        return
    rows = [{"name": n, "title": cls.title, "rulebook": cls.rulebook, "zones": list(cls.zones),
             "rules": len(cls.rules),
             "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "doc": o.doc}
                         for o in cls.options]}
            for n, cls in available().items()]
    if as_json:
        emit_json(rows)
    else:
        click.echo(table_text(rows, ["name", "title", "rules", "rulebook"]))


__all__ = ["register", "MatchNotFound"]
