"""Shared pieces of the CLI: the store handle, output formats, and error-to-exit-code mapping."""
from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import click

from engine.match import InputError, Match, StrictRefusal
from engine.replay import PositionOutOfRange
from engine.rulesets import UnknownRuleset
from engine.store import ConflictError, EventStore, GuardBroken, MatchNotFound, StoreError

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_CONFLICT = 0, 1, 2, 3


@dataclass
class Env:
    db: str | None
    recorded_by: str | None
    _store: EventStore | None = field(default=None, repr=False)

    def store(self) -> EventStore:
        if self._store is None:
            self._store = EventStore.open(self.db)
        return self._store

    def match(self, ref: str) -> Match:
        return Match.open(self.store(), ref)


pass_env = click.make_pass_decorator(Env)


def run_guarded(group: click.Group, args: list[str] | None = None) -> int:
    """Run the CLI; turn the library's errors into a clear message and an exit code."""
    try:
        group.main(args=args, standalone_mode=False)
        return EXIT_OK
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.ClickException as e:
        e.show()
        return EXIT_INPUT
    except click.Abort:
        click.echo("aborted", err=True)
        return EXIT_INPUT
    except StrictRefusal as e:
        click.echo("refused (--strict): nothing was recorded", err=True)
        for f in e.findings:
            click.echo(f"  {f.rule} [{f.severity}] {f.message}", err=True)
        return EXIT_FINDINGS
    except ConflictError as e:
        click.echo(f"error: {e}", err=True)
        return EXIT_CONFLICT
    except GuardBroken as e:  # the log failed its integrity check: a failed verification
        click.echo(f"error: {e}", err=True)
        return EXIT_FINDINGS
    except (InputError, MatchNotFound, UnknownRuleset, PositionOutOfRange, StoreError) as e:
        click.echo(f"error: {e}", err=True)
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except FindingsExit as e:
        return e.code


class FindingsExit(Exception):
    """Raised by a command that printed its output and must exit non-zero (findings, broken chain)."""

    def __init__(self, code: int = EXIT_FINDINGS):
        self.code = code


def json_option(f: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(f)


def output_options(f: Callable) -> Callable:
    f = click.option("--csv", "as_csv", is_flag=True, help="Print CSV (one row per item).")(f)
    f = click.option("--nl", "as_nl", is_flag=True, help="Print newline-delimited JSON (one object per line).")(f)
    return json_option(f)


def emit_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def emit_rows(rows: list[dict[str, Any]], *, as_json: bool, as_csv: bool, as_nl: bool,
              text: Callable[[list[dict[str, Any]]], str]) -> None:
    if as_json:
        emit_json(rows)
    elif as_nl:
        for r in rows:
            click.echo(json.dumps(r, ensure_ascii=False, default=str))
    elif as_csv:
        click.echo(to_csv(rows), nl=False)
    else:
        click.echo(text(rows))


def to_csv(rows: Iterable[dict[str, Any]]) -> str:
    rows = list(rows)
    buf = io.StringIO()
    if not rows:
        return ""
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else v
                    for k, v in r.items()})
    return buf.getvalue()


def table_text(rows: list[dict[str, Any]], cols: list[str]) -> str:
    if not rows:
        return "(none)"
    cells = [[_cell(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(cols)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, list):
        return ", ".join(map(str, v))
    return str(v)


def stderr(msg: str) -> None:
    click.echo(msg, err=True)


def is_tty() -> bool:
    return sys.stdout.isatty()
