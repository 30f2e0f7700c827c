"""Where the log lives: a `--db` value turned into the eventsourcing library's settings, and a
failed PostgreSQL connection explained.

`--db` is a SQLite path (default ./tablejudge.db) or a `postgresql://user@host:port/db` URL; with
neither, `PERSISTENCE_MODULE=eventsourcing.postgres` and the library's `POSTGRES_*` variables. The
password need not be on the command line: libpq's `PGPASSWORD` and `~/.pgpass` (or `PGPASSFILE`)
are read when the URL has none. `?schema=NAME` puts the log in its own PostgreSQL schema (a shard:
docs/integrity.md and the README's "Storage" say when and how). Any other query setting is one of
libpq's connection settings (`?sslmode=verify-full&sslrootcert=ca.pem`, `connect_timeout`,
`application_name`, ...) and is passed to every connection (`Target.libpq`); an unknown one is
refused by name.

A SQLite file the process may not write (an evidence copy on a read-only disk, a file owned by
someone else) is opened read-only: reading and verifying work, recording is refused.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs, quote, unquote, urlparse

DEFAULT_DB = "tablejudge.db"
DB_ENV = "TABLEJUDGE_DB"
PG_SCHEMES = ("postgres://", "postgresql://")
PG_QUERY_KEYS = ("schema",)  # tablejudge's own URL settings; the others are libpq's
# libpq settings that are the URL's own parts, or that would make the connection not a client's
PG_URL_PARTS = ("host", "hostaddr", "port", "dbname", "user", "password")
PG_NOT_PASSED = ("replication",)
LIBPQ_DOCS = "https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-PARAMKEYWORDS"
IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class BackendError(Exception):
    """The --db value, or the server it names, is unusable. The message says which part."""


@dataclass(frozen=True)
class Target:
    """A resolved --db value: the library's environment, and what to call it in messages."""

    env: dict[str, str]
    label: str
    read_only: bool = False
    note: str = ""  # why it is read-only, said once by `verify`
    file: str | None = None  # the SQLite file it names (None: PostgreSQL, :memory:, a file: URI)
    libpq: dict[str, str] = field(default_factory=dict)  # a URL's libpq settings (sslmode=...), for every connection

    @property
    def is_postgres(self) -> bool:
        return self.env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"


def describe_db(db: str | None) -> str:
    """The --db value as shown to people: never with its password."""
    target = db or os.environ.get(DB_ENV) or DEFAULT_DB
    if target.startswith(PG_SCHEMES):
        u = urlparse(target)
        try:
            port = u.port or 5432
        except ValueError:
            port = "?"
        schema = parse_qs(u.query).get("schema", [""])[0]
        return f"postgresql://{u.hostname}:{port}/{u.path.lstrip('/')}" + (f"?schema={schema}" if schema else "")
    return target


def resolve(db: str | None) -> Target:
    """The library environment for a --db value (or $TABLEJUDGE_DB, or the POSTGRES_* variables)."""
    target = db or os.environ.get(DB_ENV)
    if not target and os.environ.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
        env = {k: v for k, v in os.environ.items() if k.startswith("POSTGRES_")}
        env["PERSISTENCE_MODULE"] = "eventsourcing.postgres"
        env.setdefault("POSTGRES_PASSWORD", os.environ.get("PGPASSWORD", ""))
        _pg_defaults(env)
        label = (f"postgresql://{env.get('POSTGRES_HOST', '?')}:{env.get('POSTGRES_PORT', '5432')}/"
                 f"{env.get('POSTGRES_DBNAME', '?')}")
        return Target(_common(env), label)
    if target and target.startswith(PG_SCHEMES):
        return _postgres(target)
    return _sqlite(target or DEFAULT_DB)


def _postgres(url: str) -> Target:
    u = urlparse(url)
    try:
        port = u.port or 5432
    except ValueError:
        raise BackendError(f"the port in {describe_db(url)!r} is not a port number (1-65535)") from None
    query = parse_qs(u.query, keep_blank_values=True)
    libpq = _libpq_settings(query)
    dbname = unquote(u.path.lstrip("/"))
    if not dbname:
        raise BackendError("the PostgreSQL URL names no database (postgresql://user@host:port/DBNAME)")
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": u.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(port),
        "POSTGRES_USER": unquote(u.username or os.environ.get("PGUSER", "postgres")),
        # Without a password in the URL, libpq's own sources apply: PGPASSWORD here (the library
        # passes an explicit password, which would hide it), ~/.pgpass by libpq itself.
        "POSTGRES_PASSWORD": unquote(u.password) if u.password else os.environ.get("PGPASSWORD", ""),
        # a judge waiting on an unreachable server wants to hear so in seconds, not half a minute
        "POSTGRES_CONNECT_TIMEOUT": libpq.get("connect_timeout")
        or os.environ.get("POSTGRES_CONNECT_TIMEOUT", "5"),
    }
    schema = query.get("schema", [""])[0]
    if schema:
        if not IDENTIFIER.match(schema):
            raise BackendError(f"schema {schema[:40]!r}: use lower-case letters, digits and _ "
                               "(at most 63, not starting with a digit)")
        env["POSTGRES_SCHEMA"] = schema
    _pg_defaults(env)
    return Target(_common(env), describe_db(url), libpq=libpq)


def _libpq_settings(query: dict[str, list[str]]) -> dict[str, str]:
    """The URL's query settings other than tablejudge's own: libpq's connection settings, each
    once; any other is refused, all of them named."""
    twice = sorted(k for k, v in query.items() if len(v) > 1)
    if twice:
        raise BackendError(f"the PostgreSQL URL gives {_names(twice)} more than once")
    given = {k: v[0] for k, v in query.items() if k not in PG_QUERY_KEYS}
    parts = sorted(k for k in given if k in PG_URL_PARTS)
    if parts:
        raise BackendError(f"{_names(parts)} in the PostgreSQL URL's settings: give host, port, database and user "
                           "in the URL itself (postgresql://user@host:port/dbname) and the password in "
                           "PGPASSWORD or ~/.pgpass")
    known = libpq_keywords()
    unknown = sorted(k for k in given if known is not None and k not in known)
    if unknown:
        s = "s" if len(unknown) > 1 else ""
        raise BackendError(f"unknown setting{s} {_names(unknown)} in the PostgreSQL URL: it takes schema=NAME "
                           f"and libpq's connection settings (sslmode, sslrootcert, connect_timeout, "
                           f"application_name, ...: {LIBPQ_DOCS})")
    timeout = given.get("connect_timeout")
    if timeout is not None and not (timeout.isascii() and timeout.isdigit()):
        raise BackendError(f"connect_timeout={timeout[:20]!r} in the PostgreSQL URL: a whole number of seconds")
    return given


def _names(keys: list[str]) -> str:
    return ", ".join(repr(k[:40]) for k in keys[:10]) + (f" and {len(keys) - 10} more" if len(keys) > 10 else "")


def libpq_keywords() -> frozenset[str] | None:
    """The connection settings the installed libpq knows, less the URL's own parts and its debug
    and replication settings (None: psycopg is not installed, which opening the log then says)."""
    global _LIBPQ_KEYWORDS
    if _LIBPQ_KEYWORDS is None:
        try:
            from psycopg import pq
        except ImportError:
            return None
        _LIBPQ_KEYWORDS = frozenset(
            o.keyword.decode() for o in pq.Conninfo.get_defaults()
            if (o.dispchar or b"") != b"D" and o.keyword.decode() not in PG_URL_PARTS + PG_NOT_PASSED)
    return _LIBPQ_KEYWORDS


_LIBPQ_KEYWORDS: frozenset[str] | None = None


def _pg_defaults(env: dict[str, str]) -> None:
    # One command holds one or two connections, not the library's default pool of 5 (+10): 16
    # writers at an event would otherwise take 80 of the server's connections.
    env.setdefault("POSTGRES_POOL_SIZE", os.environ.get("POSTGRES_POOL_SIZE", "1"))
    env.setdefault("POSTGRES_MAX_OVERFLOW", os.environ.get("POSTGRES_MAX_OVERFLOW", "2"))


def _sqlite(path: str) -> Target:
    if path == ":memory:" or path.startswith("file:"):
        return Target(_common({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path,
                               "SQLITE_LOCK_TIMEOUT": "10"}), path)
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise BackendError(f"cannot open {path}: folder {parent} does not exist")
    if os.path.isdir(path):
        raise BackendError(f"cannot open {path}: it is a folder, not a log file")
    name, read_only, note = path, False, ""
    if os.path.exists(path) and not (os.access(path, os.W_OK) and os.access(parent, os.W_OK)):
        read_only = True
        uri = "file:" + quote(os.path.abspath(path))
        wal = path + "-wal"
        if os.path.exists(wal) and os.path.getsize(wal) > 0:
            # events may still sit in the write-ahead file: read through it (needs its -shm beside it)
            name = uri + "?mode=ro"
            note = f"{path} is read-only: opened for reading (with its -wal file)"
        else:
            # nothing outside the main file: SQLite may read it as an unchanging file, which needs no
            # -shm file beside it (a read-only folder cannot hold one)
            name = uri + "?immutable=1"
            note = f"{path} is read-only: opened for reading"
    elif not os.path.exists(path) and not os.access(parent, os.W_OK):
        raise BackendError(f"cannot create {path}: folder {parent} is not writable")
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": name,
           "SQLITE_LOCK_TIMEOUT": "10"}
    return Target(_common(env), path, read_only, note, file=path)


def _common(env: dict[str, str]) -> dict[str, str]:
    env["ORIGINATOR_ID_TYPE"] = "text"
    env["CREATE_TABLE"] = "false"  # the store creates tables once, on an empty database only
    return env


# --- a PostgreSQL connection that failed: say which part ---------------------------------------

_CAUSES = (
    # (what failed, a phrase of libpq's message); the first that matches names the cause
    ("password", ("password authentication failed", "no password supplied", "password is required",
                  "SCRAM", "pg_hba.conf rejects", "no pg_hba.conf entry")),
    ("user", ("role \"",)),
    ("database", ("database \"",)),
    ("host", ("could not translate host name", "Name or service not known",
              "Temporary failure in name resolution", "nodename nor servname")),
    ("port", ("Connection refused", "No such file or directory")),
    ("network", ("timeout expired", "No route to host", "Network is unreachable")),
)


def connect_kwargs(env: dict[str, str], libpq: dict[str, str] | None = None) -> dict[str, object]:
    """psycopg.connect's arguments for the library's environment and a URL's libpq settings."""
    return {"host": env.get("POSTGRES_HOST", "?"), "port": env.get("POSTGRES_PORT", "5432"),
            "user": env.get("POSTGRES_USER", "?"), "dbname": env.get("POSTGRES_DBNAME", "?"),
            "password": env.get("POSTGRES_PASSWORD") or None,
            **(libpq or {}),
            "connect_timeout": max(1, int(float(env.get("POSTGRES_CONNECT_TIMEOUT", "5"))))}


def explain_connection_failure(env: dict[str, str], libpq: dict[str, str] | None = None) -> str:
    """Connect once, directly, to learn why the pool could not: which of host, port, user,
    password or database is wrong, in words, with libpq's own first line."""
    try:
        import psycopg
    except ImportError:
        return "PostgreSQL support is not installed: pip install 'tablejudge[postgres]'"
    host, port = env.get("POSTGRES_HOST", "?"), env.get("POSTGRES_PORT", "5432")
    user, dbname = env.get("POSTGRES_USER", "?"), env.get("POSTGRES_DBNAME", "?")
    try:
        conn = psycopg.connect(**connect_kwargs(env, libpq))
    except psycopg.Error as e:
        return describe_failure(str(e), host=host, port=port, user=user, dbname=dbname)
    except (ValueError, OSError) as e:
        return f"cannot connect to PostgreSQL at {host}:{port}: {_first_line(str(e))}"
    conn.close()
    return f"PostgreSQL at {host}:{port}/{dbname} accepts a connection now (it was busy or restarting)"


def describe_failure(message: str, *, host: str, port: str, user: str, dbname: str) -> str:
    where = {"password": f"authentication failed for user {user!r} (check the password: PGPASSWORD, "
                         "~/.pgpass, or the URL)",
             "user": f"user (role) {user!r} does not exist on the server",
             "database": f"database {dbname!r} does not exist on {host}:{port}",
             "host": f"host {host!r} is not known (check the host name)",
             "port": f"nothing accepts connections on {host} port {port} (is the server running, "
                     "and on that port?)",
             "network": f"{host}:{port} does not answer (network or firewall)"}
    for cause, phrases in _CAUSES:
        if any(p in message for p in phrases):
            if cause == "user" and "does not exist" not in message:
                continue
            if cause == "database" and "does not exist" not in message:
                continue
            return f"cannot connect to PostgreSQL: {where[cause]}: {_first_line(message)}"
    return f"cannot connect to PostgreSQL at {host}:{port}/{dbname} as {user}: {_first_line(message)}"


def _first_line(message: str) -> str:
    line = message.strip().splitlines()[0] if message.strip() else "no reason given"
    return line[:200]
