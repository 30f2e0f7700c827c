"""What `tablejudge import` prints for OPTCGSim logs: a file's version, variant and games, and the
bulk path for many logs (progress bar, then one table row per game). Thin: the work is in
judge.io.importers.optcgsim and its _optcgsim_bulk module."""
from __future__ import annotations

import os
import sys
from typing import Any

import click

from engine.words import plural

from judge.cli.common import Env, FindingsExit, emit_json, progressbar, stderr, table_text

GAME_COLUMNS = ["file", "game", "version", "result", "match", "events", "findings"]


# A folder import prints each file's warnings, up to this many in all (the rest: --json). QA81 M2:
# it printed none but the names and cards ones, while `import FILE` printed them all.
BULK_WARNINGS_SHOWN = 20


def warning_where(w: dict[str, Any]) -> str:
    """Where in its file a warning is: "line 400", "game 2", or nothing."""
    return f"line {w['line']}" if w.get("line") else f"game {w['game']}" if w.get("game") else ""


def warning_text(r: dict[str, Any], w: dict[str, Any]) -> str:
    """A warning's words, and whether the line it names was stored. QA81 L4: a copy already in the
    log stores nothing, yet its control-character warning read as if that line were kept."""
    line = w.get("line")
    held = line and any(g.get("lines") and g["lines"][0] <= line <= g["lines"][1] and not g.get("stored")
                        and not g.get("events_appended") for g in r.get("games", []))
    return w["text"] + (" — not stored: that game is already in the log" if held else "")


def file_warnings(r: dict[str, Any]) -> list[str]:
    """A single file's warnings, one line each."""
    return [f"  warning ({where}): {warning_text(r, w)}" if (where := warning_where(w)) else
            f"  warning: {warning_text(r, w)}" for w in r.get("warnings", [])]


def bulk_warnings(rows: list[dict[str, Any]], shown: int = BULK_WARNINGS_SHOWN) -> list[str]:
    """Every file's warnings for a folder import, compact (`file:line: warning`), at most `shown`
    lines and then how many more --json holds."""
    out = []
    for r in rows:
        name = os.path.basename(r["file"])
        for w in r.get("warnings", []):
            where = warning_where(w)
            at = f"{name}:{w['line']}" if w.get("line") else f"{name} {where}" if where else name
            out.append(f"warning: {at}: {warning_text(r, w)}")
    if len(out) > shown:
        out = out[:shown] + [f"{plural(len(out) - shown, 'more warning')} in --json"]
    return out


def describe_file(r: dict[str, Any]) -> str:
    """A single OPTCGSim file's import, in words: what it was, and each game."""
    lines = [f"{r['file']}: OPTCGSim {r['version']} ({r['variant']})"] + file_warnings(r)
    lines.append(table_text(game_rows([r], basename=False), GAME_COLUMNS[1:] + ["mismatches"]))
    for g in r.get("games", []):  # what the table's columns do not say
        odd = [f"{plural(g[k], 'line')} {what}" for k, what in (
            ("unparsed_lines", "not understood (kept as annotations)"),
            ("unknown_kind_lines", "of a kind this version does not know (kept)")) if g.get(k)]
        if odd:
            lines.append(f"  game {g['game']}: " + "; ".join(odd))
    # nothing stored when every game was already in the log: outcome_line, printed next, says it
    # (QA81 L3: it was said here too, twice in a row)
    lines.append(card_facts_line(r))
    return "\n".join(lines)


def outcome_line(r: dict[str, Any], judged: str) -> str:
    """The last line of a single OPTCGSim file's import: every match it stored, resumed or found."""
    games = [g for g in r["games"] if "same_as_game" not in g]
    new = [f"match {g['match']} ({plural(g['events'], 'event')})" for g in games if g["stored"]]
    resumed = [f"match {g['in_match']} ({plural(g['events_appended'], 'event')} appended)"
               for g in games if g.get("events_appended")]
    held = [g["in_match"] for g in games if not g["stored"] and not g.get("events_appended")]
    parts = ([f"new {', '.join(new)}"] if new else []) + ([f"resumed {', '.join(resumed)}"] if resumed else []) \
        + ([f"already in the log: match {', '.join(held)}"] if held else [])
    tail = judged if new else "nothing new stored" if not resumed else "the appended events are judged by " \
        f"`tablejudge validate {resumed_match(games)}`"
    return f"{r['file']}: " + "; ".join(parts) + f"; {tail}"


def resumed_match(games: list[dict[str, Any]]) -> str:
    return next(g["in_match"] for g in games if g.get("events_appended"))


def card_facts_line(r: dict[str, Any]) -> str:
    return f"card facts: from {r['card_facts']}" if r.get("card_facts") else f"card facts: {r['card_facts_text']}"


def game_rows(summaries: list[dict[str, Any]], *, basename: bool = True) -> list[dict[str, Any]]:
    from judge.io.importers.optcgsim import result_text

    rows = []
    for s in summaries:
        for g in s["games"]:
            checks = (f"{g['chk_mismatches']} of {g['chk_checked']} RZ1|CHK" if g["chk_checked"]
                      else f"{g['summary_mismatches']} of {g['summaries_checked']} summaries")
            rows.append({"file": os.path.basename(s["file"]) if basename else s["file"], "game": g["game"],
                         "version": g.get("version", s["version"]), "result": result_text(g["result"]),
                         "match": g.get("in_match", g["match"]) + (
                             "" if g["stored"] else " (resumed)" if g.get("events_appended") else " (already)"),
                         "events": events_cell(g), "findings": g["findings"], "mismatches": checks})
    return rows


def events_cell(g: dict[str, Any]) -> int | str:
    """The match's events; a game this file did not store says the stored match's count, and the
    copy's own when it differs (a copy read with more lines, or cut shorter)."""
    held = g.get("match_events", g["events"])
    return held if held == g["events"] else f"{held} (this copy: {g['events']})"


def bulk_import(env: Env, files: list[str], *, workers: int | None, as_json: bool,
                cards: str | None = None) -> None:
    """Many OPTCGSim logs: worker processes parse, this process writes (see _optcgsim_bulk)."""
    from judge.io.importers._optcgsim_bulk import import_files

    store = env.store(create=True)
    if as_json or not sys.stderr.isatty():
        result = import_files(store, files, recorded_by=env.recorded_by, workers=workers, cards=cards)
    else:
        with progressbar(length=len(files), label="importing", show_pos=True, show_eta=True) as bar:
            result = import_files(store, files, recorded_by=env.recorded_by, workers=workers, cards=cards,
                                  progress=lambda _path: bar.update(1))
    rows = [s.to_dict() for s in result.imported]
    failures = [{"file": f.path, "error": f.error, "partly_stored": f.partly} for f in result.failed]
    if as_json:
        emit_json({"imported": rows, "failed": failures,
                   "interrupted": bool(result.interrupted), "not_stored": result.not_stored,
                   "totals": result.totals(), **result.card_facts()})
    else:
        if rows:
            click.echo(table_text(game_rows(rows), GAME_COLUMNS + ["mismatches"]))
        t = result.totals()
        resumed = f", {t['games_resumed']} resumed" if t["games_resumed"] else ""
        click.echo(f"{plural(t['imported_files'], 'file')} imported: {plural(t['games_stored'], 'game')} stored"
                   f"{resumed} ({plural(t['games'] - t['games_stored'] - t['games_resumed'], 'game')} already in "
                   "the log), "
                   f"{plural(t['events'], 'event')} in {t['seconds']:.1f} s "
                   f"({plural(t['workers'], 'worker')}, {plural(t['commits'], 'commit')})")
        for line in bulk_warnings(rows):
            stderr(line)
        click.echo(card_facts_line(result.card_facts()))
        for f in failures:
            stderr(f"failed ({'some of its games stored, named' if f['partly_stored'] else 'nothing of it stored'}): "
                   f"{f['error']}")
    if result.interrupted:
        stderr(f"interrupted: {plural(len(result.imported), 'file')} imported (listed above); "
               f"{plural(len(result.not_stored), 'file')} read but not stored, and the files after them "
               "not read. Run the same import again: the stored games are recognised and skipped")
        raise FindingsExit(130)
    if failures:
        raise FindingsExit(2)
