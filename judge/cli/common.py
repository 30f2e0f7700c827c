"""Shared pieces of the CLI: the store handle, output formats, and the error boundary.

The boundary (`run_guarded`) is the one place an exception becomes what the user reads: a clear
message and an exit code, never a traceback. 0 ok; 1 findings or a failed verification; 2 usage,
input or output-file error; 3 conflict; 130 interrupted; 70 an internal error (a bug: the message
says so, and TABLEJUDGE_DEBUG=1 shows the traceback).

This module stays light (click and the standard library): `tablejudge --version` and `--help` must
not pay for the engine. The library's exception classes are looked up only in modules already
imported: an exception of a module that was never imported cannot have been raised.
"""
from __future__ import annotations

import functools
import io
import json
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from engine.match import Match
    from engine.store import EventStore

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_CONFLICT = 0, 1, 2, 3
EXIT_INTERNAL, EXIT_INTERRUPTED = 70, 130
MAX_MESSAGE = 2_000  # characters of one error message (a bad value is quoted short at its source too)
DEBUG_ENV = "TABLEJUDGE_DEBUG"


@dataclass
class Env:
    db: str | None
    recorded_by: str | None
    lang: str = "en"  # rule words on a terminal: en, orig (the rulebook's own) or both
    _store: "EventStore | None" = field(default=None, repr=False)

    def store(self, *, create: bool = False) -> "EventStore":
        """The event log. Only the commands that start something (`match new`, `live new`, `import`,
        `tournament new`) pass `create`: any other on a SQLite file that does not exist is an error,
        not a new empty log (a mistyped --db would otherwise read as "nothing recorded")."""
        if self._store is None:
            from engine.store import EventStore, StoreError, describe_db

            try:
                self._store = EventStore.open(self.db, create=create)
            except StoreError:
                raise
            except (ValueError, UnicodeError, OSError) as e:  # a URL with a bad port, a bad path
                raise StoreError(f"cannot open the event log {_short(describe_db_safe(self.db, describe_db))}: "
                                 f"{_short(str(e))}") from None
        return self._store

    def close(self) -> None:
        if self._store is not None:
            store, self._store = self._store, None
            try:
                store.close()
            except Exception:  # noqa: BLE001 - every write has committed: a failed close loses nothing
                pass

    def match(self, ref: str) -> "Match":
        from engine.match import Match

        return Match.open(self.store(), ref)

    def names(self, m: "Match", state: Any = None) -> Any:
        """Card names for what a command prints about match `m` (the log's, then the card data's)."""
        from judge.io.cardnames import CardNames
        return CardNames.for_state(state if state is not None else m.state(), m.ruleset)


def describe_db_safe(db: str | None, describe: Callable[[str | None], str]) -> str:
    try:
        return describe(db)
    except ValueError:  # the URL itself is what is wrong: say it without its password
        return (db or "").split("@")[-1]


pass_env = click.make_pass_decorator(Env)


def check_arguments(args: list[str]) -> str | None:
    """A command line must be text: an argument with invalid UTF-8 (Python keeps its bytes as lone
    surrogates) would fail later, wherever it is first written. Say which one, now."""
    for i, arg in enumerate(args, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "replace").decode("utf-8")
            return f"argument {i} is not valid UTF-8 text: {_short(shown, 80)!r}"
    return None


def run_guarded(group: click.Group, args: list[str] | None = None) -> int:
    """Run the CLI; turn every error into a clear message and an exit code."""
    argv = list(sys.argv[1:] if args is None else args)
    bad = check_arguments(argv)
    if bad:
        _say(f"error: {bad}")
        return EXIT_INPUT
    try:
        group.main(args=argv, standalone_mode=False, prog_name="tablejudge")
        return EXIT_OK
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.ClickException as e:
        e.message = _quote_short(e.message)
        e.show()
        return EXIT_INPUT
    except click.Abort:
        _say("aborted")
        return EXIT_INPUT
    except FindingsExit as e:
        return e.code
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_INTERRUPTED
    except Exception as e:  # noqa: BLE001 - the boundary: nothing past here is a traceback
        return _report(e)


def _report(e: BaseException) -> int:
    strict = _class("engine.match", "StrictRefusal")
    if isinstance(e, strict):
        _say("refused (--strict): nothing was recorded")
        for f in e.findings:  # type: ignore[attr-defined]
            _say(f"  {f.rule} [{f.severity}] {_short(f.message, 500)}")
        return EXIT_FINDINGS
    if isinstance(e, _class("engine.store", "ConflictError")):
        _say(f"error: {e}")
        return EXIT_CONFLICT
    if isinstance(e, _class("engine.store", "GuardBroken")):  # the log failed its integrity check
        _say(f"error: {e}")
        return EXIT_FINDINGS
    if isinstance(e, _input_errors()):
        _say(f"error: {e}")
        return EXIT_INPUT
    if isinstance(e, OSError):  # writing an output file: disk full, no permission, a folder
        where = f" {e.filename}" if e.filename else ""
        _say(f"error: cannot write or read{where}: {e.strerror or e} (nothing partial was left behind)")
        return EXIT_INPUT
    if isinstance(e, _class("sqlite3", "Error")):  # a SQLite file to write (an export, a read
        # model, cards.db) on a full disk, or a file given as a database that is not one
        _say(f"error: SQLite: {e} (nothing partial was left behind)")
        return EXIT_INPUT
    if isinstance(e, ValueError) and "embedded null" in str(e):  # os.stat & co. on a path with NUL
        _say("error: a file name cannot hold a NUL character")
        return EXIT_INPUT
    if isinstance(e, UnicodeError):
        _say(f"error: not valid UTF-8 text ({e})")
        return EXIT_INPUT
    if isinstance(e, RecursionError):
        _say("error: the input is nested too deeply to read")
        return EXIT_INPUT
    if isinstance(e, MemoryError):
        _say("error: the input is too large to read in memory")
        return EXIT_INPUT
    _say(f"internal error (a bug in tablejudge; please report it with the command you ran): "
         f"{type(e).__name__}: {e}")
    if os.environ.get(DEBUG_ENV):
        import traceback

        traceback.print_exception(e, file=sys.stderr)
    else:
        _say(f"(set {DEBUG_ENV}=1 to see where)")
    return EXIT_INTERNAL


def _input_errors() -> tuple[type, ...]:
    """The library's input and store errors, from the modules that are loaded."""
    return tuple(c for c in (
        _class("engine.match", "InputError"), _class("engine.store", "StoreError"),
        _class("engine.rulesets", "UnknownRuleset"), _class("engine.replay", "PositionOutOfRange"),
        _class("engine.schema", "PayloadError"), _class("judge.tournament.standings", "PolicyError"),
        _class("judge.tournament.pairing", "PairingError"),
    ) if c)


def _class(module: str, name: str) -> Any:
    mod = sys.modules.get(module)
    cls = getattr(mod, name, None) if mod is not None else None
    return cls if isinstance(cls, type) else ()


def _quote_short(message: str) -> str:
    """click quotes a bad argument whole ('Invalid value for --at: 1000...'): cut each quoted value
    to about 80 characters, as the library's own messages do."""
    return _short(_LONG_QUOTE.sub(lambda m: m.group(1) + m.group(2)[:80] + "..." + m.group(1), message))


_LONG_QUOTE = re.compile(r"(['\"])([^'\"]{81,})\1")


def _short(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[:limit] + f"... (message cut: {len(text):,} characters)"


def _say(msg: str) -> None:
    click.echo(_short(msg), err=True)


class FindingsExit(Exception):
    """Raised by a command that printed its output and must exit non-zero (findings, broken chain)."""

    def __init__(self, code: int = EXIT_FINDINGS):
        self.code = code


def json_option(f: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(f)


EXCEL = "excel"  # what `as_csv` holds after --excel (a true value: the CSV branch is taken)
EXCEL_HELP = ("Print CSV for Excel: as --csv, UTF-8 with a byte-order mark, so Excel on Windows shows "
              "accented and CJK names (e.g. `--excel > out.csv`).")


def csv_options(f: Callable | None = None, *, help: str = "Print CSV.") -> Callable:
    """`--csv` and `--excel` on a command: its `as_csv` parameter is False, True (--csv) or EXCEL
    (--excel, whichever order the two are given in); `echo_csv` prints either. Every CSV a
    command prints goes through here, so every `--csv` has its `--excel`."""
    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def command(*args: Any, excel: bool = False, **kwargs: Any) -> Any:
            if excel:
                kwargs["as_csv"] = EXCEL
            return f(*args, **kwargs)

        command = click.option("--excel", "excel", is_flag=True, help=EXCEL_HELP)(command)
        return click.option("--csv", "as_csv", is_flag=True, help=help)(command)

    return decorate(f) if f is not None else decorate


def output_options(f: Callable) -> Callable:
    f = csv_options(f, help="Print CSV (one row per item).")
    f = click.option("--nl", "as_nl", is_flag=True, help="Print newline-delimited JSON (one object per line).")(f)
    return json_option(f)


def echo_csv(rows: Iterable[dict[str, Any]], how: Any = True) -> None:
    """Print rows as CSV; `how` EXCEL: as UTF-8 bytes after a byte-order mark (Excel reads a CSV
    without one in the Windows code page, so "Zoë" would show as "ZoÃ«"), whatever the terminal's
    encoding."""
    text = to_csv(rows)
    if how == EXCEL:
        if text:
            click.echo(("\ufeff" + text).encode("utf-8"), nl=False)
    else:
        click.echo(text, nl=False)


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
        echo_csv(rows, as_csv)
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
    from judge.io import csvcells

    w = csvcells.writer(buf)  # text starting = + - @ tab CR is neutralised (OWASP)
    w.writerow(cols)
    for r in rows:
        w.writerow([_csv_value(r.get(k)) for k in cols])
    return buf.getvalue()


def _csv_value(v: Any) -> Any:
    """A cell as the JSON output says it: true/false (not Python's True/False), lists and objects
    as JSON."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return v


def table_text(rows: list[dict[str, Any]], cols: list[str]) -> str:
    if not rows:
        return "(none)"
    cells = [[_cell(r.get(c)) for c in cols] for r in rows]
    widths = [max(_width(c), *(_width(row[i]) for row in cells)) for i, c in enumerate(cols)]
    lines = ["  ".join(_pad(c, w) for c, w in zip(cols, widths)).rstrip()]
    lines += ["  ".join(_pad(v, w) for v, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines)


def _width(text: str) -> int:
    """Columns a terminal gives `text`: wide (CJK) characters take two, combining marks none."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


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
