"""Shared pieces of the CLI: the store handle, output formats, and the error boundary.

The boundary (`run_guarded`) is the one place an exception becomes what the user reads: a clear
message and an exit code, never a traceback. 0 ok; 1 findings or a failed verification; 2 usage,
input or output-file error; 3 conflict; 130 interrupted; 70 an internal error (a bug: the message
says so, and TABLEJUDGE_DEBUG=1 shows the traceback).
With --json, a failure is also one JSON object on stdout (`error_json`; README, "Errors as JSON").

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
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from judge.io.errorshape import line_errors, location, short

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
                raise StoreError(f"cannot open the event log {short(describe_db_safe(self.db, describe_db), MAX_MESSAGE)}: "
                                 f"{short(str(e), MAX_MESSAGE)}") from None
        return self._store

    def close(self) -> None:
        if self._store is not None:
            store, self._store = self._store, None
            try:
                store.close()
            except Exception:  # noqa: BLE001 - every write has committed: a failed close loses nothing
                pass

    def match(self, ref: str, *, read: bool = False) -> "Match":
        """The match a command works on; a tournament's id is refused (exit 2) in words that say
        where to look instead (judge/cli/streams.py). `read`: a read-only command's, which goes on
        reading a match whose hash chain `verify --repair` recorded broken (a head judge must still
        read the evidence; writes to it stay refused, engine.store.ChainBroken) but says so first,
        on stderr, so no table or finding of an edited log is taken as the log as recorded."""
        from engine.match import Match
        from engine.store import NotAMatch, broken_words

        try:
            m = Match.open(self.store(), ref)
        except NotAMatch as e:
            from judge.cli.streams import command_name, refusal
            raise refusal(e, command_name()) from None
        broken = self.store().broken_streams().get(m.id) if read else None
        if broken:
            click.echo(f"WARNING: {broken_words(m.id, broken)}. What follows is read from a log that is not "
                       f"as it was recorded (writes to it are refused); `tablejudge verify {m.id}` says more.",
                       err=True)
        return m

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
            return f"argument {i} is not valid UTF-8 text: {short(shown, 80)!r}"
    return None


# The placeholders the tool's own hints print for a name or a reason (`--actor judge:NAME`,
# `--judge NAME`, `--reason "..."`: engine.timefacts.timelimit_command, engine.desk, the tournament
# warnings). Copied as printed they would be stored as typed (QA84 #4): refused here, one check for
# every command, the log's --FIELD payload options (`correction --reason`) among them. Their near
# misses too (QA): a hint's "…" (U+2026) or "....", "judge: NAME" with a space, a `<name>`.
_PLACEHOLDERS = {"--judge": "name", "-j": "name", "--actor": "actor", "-a": "actor", "--reason": "reason"}
# The root's `--by NAME` (who is typing, which `--judge` defaults to: `--help` prints it so) too (QA88
# 5: `tablejudge --by NAME timelimit M` recorded judge:NAME), read before the command's name only: a
# command's own `--by` means something else (`tournament pairings --by name`: sort by name).
_ROOT_PLACEHOLDERS = {"--by": "name"}
_ROOT_VALUED = ("--db", "--by", "--lang")  # the root's options that take a value (judge/cli/__init__.py)
_NAMED = tuple(o for o, holds in {**_PLACEHOLDERS, **_ROOT_PLACEHOLDERS}.items() if holds != "reason")
_ROLE = re.compile(r"(?P<role>judge|scorekeeper)\s*:\s*(?P<name>.*)", re.S)
_DOTS = re.compile(r"[.…\s]*[.…][.…\s]*")  # "...", "…", "....", ". . .": no words at all
_TEMPLATE = re.compile(r"<[^<>]*>")  # "<name>", "<reason>": a template's slot, never a value
# A name's near misses of NAME (QA86 #9): "[NAME]", "{name}", the full-width "ＮＡＭＥ", "NAME.",
# "HEAD JUDGE NAME": read as words (NFKC, case-folded, brackets and punctuation dropped), a name
# made only of a form's words, "name" among them, is a placeholder; a real name is never all of them.
_PUNCTUATION = re.compile(r"[\[\]{}()<>\"'`.,:;!?…*#_/\\|-]+")
_FORM_WORDS = frozenset({"name", "head", "judge", "floor", "scorekeeper", "player", "your", "my", "the", "real",
                         "full", "first", "last"})


def _a_name_placeholder(name: str) -> bool:
    """Whether `name` is NAME or one of its near misses (`_FORM_WORDS`)."""
    words = _PUNCTUATION.sub(" ", unicodedata.normalize("NFKC", name).casefold()).split()
    return "name" in words and set(words) <= _FORM_WORDS


def _a_placeholder(holds: str, value: str) -> bool:
    """Whether `value`, given to an option that `holds` a name, an actor or a reason, is a printed
    command's placeholder or a near miss of one. An actor's bare NAME is not said here: a player
    may be named so (`actor_placeholder`, where the match is known)."""
    text = value.strip()
    if _DOTS.fullmatch(text) or _TEMPLATE.fullmatch(text):
        return True
    if holds == "reason":
        return False
    role = _ROLE.fullmatch(text)
    name = role.group("name").strip() if role else text
    if role and (_a_name_placeholder(name) or _DOTS.fullmatch(name) or _TEMPLATE.fullmatch(name)):
        return True
    return holds == "name" and _a_name_placeholder(name)


def placeholder_refusal(option: str, value: str) -> str:
    """The refusal of `value`, a placeholder given to `option` (one shape for every option)."""
    said = f'"{value}"' if value != value.strip() or " " in value or not value else value
    if option in _NAMED:
        return (f"{option} {said}: {said} is the placeholder of a printed command, not a name: put the "
                f"real one (as --judge \"Kim Rossi\", --actor \"judge:Kim Rossi\"). Nothing was stored")
    return (f'{option} "{value}": "{value}" is the placeholder of a printed command: '
            f"put the real reason, in a sentence. Nothing was stored")


def actor_placeholder(actor: str, players: Iterable[str]) -> str | None:
    """The refusal of `--actor NAME` (the placeholder as a hint prints it) unless the match has a
    player named exactly NAME (QA: such a player could not be an actor); else None."""
    return placeholder_refusal("--actor", actor) if actor == "NAME" and actor not in players else None


def placeholder_argument(args: list[str]) -> tuple[str, str] | None:
    """(the option, the refusal) where an option of a name or a reason is given a placeholder a
    printed command holds (`_PLACEHOLDERS`; before the command's name, `_ROOT_PLACEHOLDERS`), as
    `--judge NAME` or `--judge=NAME`; else None."""
    command = len(args)  # where the command's name is: the root's options come before it
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            break
        if i < command and not arg.startswith("-"):
            command = i
        option, eq, value = arg.partition("=")
        if not eq:
            value = args[i + 1] if i + 1 < len(args) else ""
        holds = (_ROOT_PLACEHOLDERS if i < command else _PLACEHOLDERS).get(option)
        if holds is not None and _a_placeholder(holds, value):
            return ("reason" if holds == "reason" else option.lstrip("-")), placeholder_refusal(option, value)
        # a root option's value is no command name (`--db t.db`)
        i += 2 if i < command and not eq and option in _ROOT_VALUED else 1
    return None


def run_guarded(group: click.Group, args: list[str] | None = None) -> int:
    """Run the CLI; turn every error into a clear message and an exit code. With `--json`, the
    error is also printed on stdout as one JSON object (`error_json`), for a script that reads
    stdout; stderr says it as it always does."""
    argv = list(sys.argv[1:] if args is None else args)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = VisibleText(out), VisibleText(err)
    try:
        return _run(group, argv)
    finally:
        sys.stdout, sys.stderr = out, err


class VisibleText:
    """A text stream that writes every control character but line breaks and tabs as `\\u001b`
    (engine.schema.visible): whatever a command prints (an old log's card number with an ESC in
    it, a refused line echoed back), the reader's terminal is never driven by stored text. Bytes
    written to `.buffer` (a binary export) pass as they are."""

    def __init__(self, inner: Any):
        self._inner = inner

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click asks with b"" whether a stream is binary
            raise TypeError("a text stream")
        written = len(text)
        if not text.replace("\n", "").replace("\t", "").isprintable():  # else no import: --version is click alone
            from engine.schema import visible

            text = visible(text)
        self._inner.write(text)
        return written

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # encoding, flush, isatty, buffer, fileno ...
        return getattr(self._inner, name)

    @property
    def unescaped(self) -> Any:
        """The stream under the escaping: for what this program draws itself (progressbar)."""
        return self._inner


def progressbar(iterable: Any = None, **options: Any) -> Any:
    """click's progress bar, drawn on stderr as it is: the bar redraws itself with CR and ESC
    sequences, which VisibleText printed as `\\u000d\\u001b[?25l` text, one long garbled line on a
    terminal (QA79 F2). Everything it draws is this program's own (a fixed label, counts, a time
    left), so no stored text reaches the terminal unescaped: give it no item_show_func that shows a
    file's or a player's words."""
    if "item_show_func" in options:
        raise TypeError("progressbar draws no user text: it bypasses VisibleText")
    err = sys.stderr
    return click.progressbar(iterable, file=err.unescaped if isinstance(err, VisibleText) else err, **options)


def _run(group: click.Group, argv: list[str]) -> int:
    bad = check_arguments(argv)
    if bad:
        return _fail(Failure(EXIT_INPUT, bad), "--json" in argv)
    placeholder = placeholder_argument(argv)
    if placeholder:
        return _fail(Failure(EXIT_INPUT, placeholder[1], {"field": placeholder[0]}), _asked_json(group, argv))
    try:
        # color=True: click would strip an ANSI sequence from piped output before VisibleText could
        # show it, so a stored ESC[31m vanished from `events | less` (QA); nothing of ours is styled
        group.main(args=argv, standalone_mode=False, prog_name="tablejudge", color=True)
        return EXIT_OK
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.ClickException as e:
        e.message = _quote_short(e.message)
        e.show()
        return _fail(Failure(EXIT_INPUT, e.format_message(), shown=True), _asked_json(group, argv))
    except click.Abort as e:
        if isinstance(e.__cause__, KeyboardInterrupt):  # click turns a Ctrl-C into Abort: it is one
            return _interrupted(group, argv)
        return _fail(Failure(EXIT_INPUT, "aborted", prefix=""), _asked_json(group, argv))
    except FindingsExit as e:  # the command printed its own output (JSON too, when asked)
        return e.code
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return _interrupted(group, argv)
    except Exception as e:  # noqa: BLE001 - the boundary: nothing past here is a traceback
        f = _failure(e)
        f.warnings = list(getattr(e, WARNINGS_SAID, None) or [])
        return _fail(f, _asked_json(group, argv), e)


def _interrupted(group: click.Group, argv: list[str]) -> int:
    """A Ctrl-C, whether click turned it into an Abort or it came through as itself: one exit."""
    return _fail(Failure(EXIT_INTERRUPTED, "interrupted", prefix=""), _asked_json(group, argv))


@dataclass
class Failure:
    """What a failed command tells its user: the exit code, the message (stderr's line without
    its `error: `), where it is (file, line, column, field, where), and lines said after it."""

    code: int
    message: str
    location: dict[str, Any] = field(default_factory=dict)
    prefix: str = "error: "
    more: list[str] = field(default_factory=list)  # further stderr lines (a refusal's findings)
    extra: dict[str, Any] = field(default_factory=dict)  # further JSON keys (the findings)
    shown: bool = False  # stderr has it already (click's own usage error)
    said: str = ""  # stderr's line when it is not `message` (a refused batch's, ending in ":")
    warnings: list[str] = field(default_factory=list)  # said on stderr before the failure (WARNINGS_SAID)


def error_json(f: Failure) -> dict[str, Any]:
    """The JSON a failed command prints on stdout when --json was given (the README's shape), with
    the warnings the command said before it failed (`warnings`, as on success)."""
    out: dict[str, Any] = {"error": {"code": f.code, "message": short(f.message, MAX_MESSAGE), **f.location, **f.extra}}
    if f.warnings:
        out["warnings"] = list(f.warnings)
    return out


# A command that said warnings (stderr) before an error was raised hangs them on the error under
# this name, so the error's JSON carries them too (`tournament register --csv`'s look-alike ids).
WARNINGS_SAID = "warnings_said"


def _fail(f: Failure, as_json: bool, e: BaseException | None = None) -> int:
    if not f.shown:
        _say(f.prefix + (f.said or f.message))
        for line in f.more:
            _say(line)
    if f.code == EXIT_INTERNAL:
        if os.environ.get(DEBUG_ENV) and e is not None:
            import traceback

            traceback.print_exception(e, file=sys.stderr)
        else:
            _say(f"(set {DEBUG_ENV}=1 to see where)")
    if as_json:
        try:
            emit_json(error_json(f))
        except (BrokenPipeError, OSError):  # stdout gone: stderr has said it
            pass
    return f.code


def _asked_json(group: click.Group, argv: list[str]) -> bool:
    """Whether the command line asked for --json: parsed again as click parsed it (a `--json`
    that is the value of another option, `note --text --json`, is not one), without running
    anything; a line click could not parse is looked at word by word."""
    try:
        ctx = group.make_context("tablejudge", list(argv), resilient_parsing=True)
        cmd: click.Command = group
        while isinstance(cmd, click.Group):
            # click 8.2 keeps the subcommand's words in _protected_args (protected_args is deprecated)
            words = ctx._protected_args if hasattr(ctx, "_protected_args") else ctx.protected_args
            rest = [*words, *ctx.args]
            if not rest:
                break
            name, sub, rest = cmd.resolve_command(ctx, rest)
            if sub is None or name is None:
                break
            ctx = sub.make_context(name, rest, parent=ctx, resilient_parsing=True)
            cmd = sub
        return any(ctx.params.get(p.name or "") is True for p in cmd.params
                   if isinstance(p, click.Option) and "--json" in p.opts)
    except Exception:  # noqa: BLE001 - a line that does not parse: the word itself decides
        return "--json" in argv[:argv.index("--")] if "--" in argv else "--json" in argv


def _failure(e: BaseException) -> Failure:
    strict = _class("engine.match", "StrictRefusal")
    if isinstance(e, strict):
        findings = e.findings  # type: ignore[attr-defined]
        return Failure(EXIT_FINDINGS, "refused (--strict): nothing was recorded", prefix="",
                       more=[f"  {f.rule} [{f.severity}] {short(f.message, 500)}" for f in findings],
                       extra={"findings": [{"rule": f.rule, "severity": f.severity, "message": short(f.message, 500)}
                                           for f in findings]})
    if isinstance(e, _class("judge.tournament.batch", "BatchRefused")):
        # several bad lines of one input, refused together: the sentence, then one line each on
        # stderr; in JSON `errors`, one object a line with the keys known of it (file, line,
        # column, field) and its message as stderr says it (README, "Errors as JSON")
        errors = e.errors  # type: ignore[attr-defined]
        return Failure(EXIT_INPUT, e.summary, said=e.summary + ":",  # type: ignore[attr-defined]
                       more=[f"  {line}" for line in e.lines()],  # type: ignore[attr-defined]
                       extra={"errors": line_errors(errors, local_files=True)})
    if isinstance(e, _class("engine.store", "ConflictError")):
        return Failure(EXIT_CONFLICT, str(e))
    if isinstance(e, _class("engine.store", "GuardBroken")):  # the log failed its integrity check
        return Failure(EXIT_FINDINGS, str(e))
    if isinstance(e, _input_errors()):
        return Failure(EXIT_INPUT, str(e), location(e, local_files=True))
    if isinstance(e, OSError):  # writing an output file: disk full, no permission, a folder
        where = f" {e.filename}" if e.filename else ""
        return Failure(EXIT_INPUT, f"cannot write or read{where}: {e.strerror or e} (nothing partial was left behind)",
                       {"file": str(e.filename)} if e.filename else {})
    if isinstance(e, _class("sqlite3", "Error")):  # a SQLite file to write (an export, a read
        # model, cards.db) on a full disk, or a file given as a database that is not one
        return Failure(EXIT_INPUT, f"SQLite: {e} (nothing partial was left behind)")
    if isinstance(e, ValueError) and "embedded null" in str(e):  # os.stat & co. on a path with NUL
        return Failure(EXIT_INPUT, "a file name cannot hold a NUL character")
    if isinstance(e, UnicodeError):
        return Failure(EXIT_INPUT, f"not valid UTF-8 text ({e})")
    if isinstance(e, RecursionError):
        return Failure(EXIT_INPUT, "the input is nested too deeply to read")
    if isinstance(e, MemoryError):
        return Failure(EXIT_INPUT, "the input is too large to read in memory")
    return Failure(EXIT_INTERNAL, "internal error (a bug in tablejudge; please report it with the command you "
                                  f"ran): {type(e).__name__}: {e}", prefix="")


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
    return short(_LONG_QUOTE.sub(lambda m: m.group(1) + m.group(2)[:80] + "..." + m.group(1), message), MAX_MESSAGE)


_LONG_QUOTE = re.compile(r"(['\"])([^'\"]{81,})\1")


def _say(msg: str) -> None:
    click.echo(short(msg, MAX_MESSAGE), err=True)


class FindingsExit(Exception):
    """Raised by a command that printed its output and must exit non-zero (findings, broken chain)."""

    def __init__(self, code: int = EXIT_FINDINGS):
        self.code = code


def ruleset_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A `--ruleset` option's callback: the name with its case ignored when one ruleset has it
    ("OPTCG" -> "optcg"); anything else goes on as given, and the engine's refusal suggests the
    nearest name ("optgc": did you mean 'optcg'?)."""
    if value is None:
        return None
    from engine.rulesets import ruleset_named

    return ruleset_named(value) or value


def json_option(f: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(f)


def overwrite_option(f: Callable) -> Callable:
    """`--overwrite` on a command writing a match's file: replacing a file that holds the other view
    (staff/public, judge.report.files.check_view_replace) is refused without it. The same word as
    `tournament result --overwrite`: a replacement that loses something is asked for by name."""
    return click.option("--overwrite", is_flag=True,
                        help="Replace the file even when it holds the other view (a public file with the "
                             "staff's view, or the other way round); refused without it.")(f)


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


def echo_written(path: str, staff: bool = False) -> None:
    """The line naming a file just written; a staff view's says what it holds (QA80 1: it read
    like the public file's, and the staff's file was handed on as if it were)."""
    click.echo(f"staff view (hidden cards shown): {path} — do not hand to players" if staff else path)


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
