"""Commands over the ONE PIECE CARD GAME card database: cards import, cards show, deck check."""
from __future__ import annotations

import click

from engine.match import InputError
from engine.words import plural
from engine.schema import shown

from judge.io import carddb
from judge.cli.common import EXIT_FINDINGS, Env, FindingsExit, emit_json, json_option, pass_env


def register(cli: click.Group) -> None:
    cli.add_command(cards_group)
    cli.add_command(deck_group)


def _cards_option(f):
    return click.option("--cards", "cards_path", metavar="PATH",
                        help="Card database (SQLite). Default: cards.db beside the event log (--db).")(f)


def _path(env: Env, given: str | None) -> str:
    return given or carddb.default_path(env.db or "tablejudge.db")


@click.group("cards")
def cards_group() -> None:
    """The card database (ONE PIECE CARD GAME card facts from vegapull-records JSON)."""


@cards_group.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@_cards_option
@json_option
@pass_env
def cards_import(env: Env, files, cards_path, as_json) -> None:
    """Import vegapull-records JSON files (a list of cards with id, name, category, colors, cost,
    power, counter, types, trigger; a Leader's Life in cost). Each file all or nothing.

    \b
    Example:
      tablejudge cards import data/english/json/cards_569101.json --cards cards.db
    """
    path = _path(env, cards_path)
    db = carddb.CardDB(path)
    rows = [{"file": f, "cards": db.import_json(f)} for f in files]
    if as_json:
        emit_json({"database": path, "imported": rows})
    else:
        for r in rows:
            click.echo(f"{r['file']}: {plural(r['cards'], 'card')} into {path}")


@cards_group.command("show")
@click.argument("card_id")
@_cards_option
@json_option
@pass_env
def cards_show(env: Env, card_id, cards_path, as_json) -> None:
    """Show one card's facts.

    \b
    Example:
      tablejudge cards show OP01-016 --cards cards.db
    """
    db = carddb.CardDB.open_existing(_path(env, cards_path))
    row = db.get(card_id)
    if row is None:
        raise InputError(f"no card {shown(card_id)} in {db.path}", field="id")
    if as_json:
        emit_json(row)
        return
    for key in ("id", "name", "category", "colors", "cost", "life", "power", "counter", "types", "trigger",
                "keywords", "effect"):
        value = row.get(key)
        if value in (None, "", []):
            continue
        click.echo(f"{key:<9} {', '.join(value) if isinstance(value, list) else value}")


@click.group("deck")
def deck_group() -> None:
    """Deck checks (ONE PIECE CARD GAME)."""


@deck_group.command("check")
@click.argument("decklist", type=click.Path())
@click.option("--leader", required=True, metavar="ID", help="The Leader's card number.")
@_cards_option
@json_option
@pass_env
def deck_check(env: Env, decklist, leader, cards_path, as_json) -> None:
    """Check a decklist (`4xOP01-016` per line) against the deck rules: 1 Leader, 50 cards, the
    Leader's colours, at most 4 of a number, 10 DON!!. Unknown card numbers are reported, not fatal.
    Exit 1 when a rule is broken.

    \b
    Example:
      tablejudge deck check my-deck.txt --leader OP01-001 --cards cards.db --json
    """
    try:
        with open(decklist, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"cannot read {decklist}: {e.strerror}", where=decklist) from None
    path = _path(env, cards_path)
    import os
    db = carddb.CardDB(path) if os.path.exists(path) else None
    report = carddb.check_decklist(db, text, leader, where=decklist)
    errors = [f for f in report.findings if f["severity"] == "error"]
    if as_json:
        emit_json(report.to_dict() | {"ok": not errors, "database": path if db else None})
    else:
        click.echo(f"{decklist}: Leader {leader}, {plural(len(report.cards), 'card')}"
                   + ("" if db else f" (no card database at {path}: facts not checked)"))
        for p in report.problems:
            click.echo(f"  unreadable: {p}")
        for f in report.findings:
            click.echo(f"  {f['rule']} [{f['severity']}] {f['message']}")
        if not report.findings and not report.problems:
            click.echo("  ok")
    if errors:
        raise FindingsExit(EXIT_FINDINGS)
