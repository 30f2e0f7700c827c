"""The append-only guard: database triggers that refuse to change or remove a stored event or
snapshot, and the check that they are still there, unaltered and enabled.

The guard is honest: the store never re-creates it silently. If any part is missing, altered,
disabled or joined by a foreign trigger or rule, `inspect` says what, writes are refused, and
only `tablejudge verify --repair` puts it back (recording the incident as an event).

SQLite: BEFORE UPDATE / DELETE triggers, and a BEFORE INSERT trigger that refuses an insert on a
taken position, so `INSERT OR REPLACE` (which deletes without firing DELETE triggers unless
`recursive_triggers` is on) is refused from any connection. Each trigger's stored SQL is compared
with the expected text.

PostgreSQL: one trigger function raising an exception, and per table a row trigger on UPDATE or
DELETE and a statement trigger on TRUNCATE, all `ENABLE ALWAYS`, so `session_replication_role =
replica` does not switch them off. The check compares each trigger's function, events, timing,
condition and enabled state, and the function's body and language, with the expected ones.

Who can still bypass it (superusers, the tables' owner) is in docs/integrity.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

EVENTS_TABLE = "stored_events"
SNAPSHOTS_TABLE = "stored_snapshots"
META_TABLE = "tablejudge_meta"
GUARDED = (EVENTS_TABLE, SNAPSHOTS_TABLE)
REPAIR_HINT = "run `tablejudge verify --repair` to check the log, restore the guard and record the incident"


@dataclass
class GuardStatus:
    """What `inspect` found. `legacy`: the guard of an older tablejudge, intact; it is upgraded
    (the missing parts added) the next time the log is opened for writing."""

    ok: bool
    problems: list[str] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)
    legacy: bool = False
    foreign: list[tuple[str, str]] = field(default_factory=list)  # (name, SQL) of triggers not ours

    def summary(self) -> str:
        if self.ok:
            return ("UPDATE, DELETE and REPLACE of stored events and snapshots are refused by the "
                    f"database ({', '.join(self.triggers)})")
        return "the append-only guard is not intact: " + "; ".join(self.problems)


# --- SQLite ------------------------------------------------------------------------------------

def _sqlite_refuse(table: str, name: str, event: str, what: str, when: str = "") -> tuple[str, str]:
    return name, (f"CREATE TRIGGER {name} BEFORE {event} ON {table} {when}BEGIN SELECT RAISE(ABORT, "
                  f"'tablejudge: the event log is append-only ({what} refused)'); END")


def _sqlite_replace_check(table: str) -> str:
    return ("WHEN EXISTS (SELECT 1 FROM " + table + " WHERE originator_id = NEW.originator_id AND "
            "originator_version = NEW.originator_version) ")


SQLITE_GUARD: dict[str, tuple[str, str]] = {}  # trigger name -> (table, SQL)
for _table, _prefix in ((EVENTS_TABLE, "tablejudge"), (SNAPSHOTS_TABLE, "tablejudge_snapshots")):
    for _name, _sql in (
            _sqlite_refuse(_table, f"{_prefix}_no_update", "UPDATE", "UPDATE"),
            _sqlite_refuse(_table, f"{_prefix}_no_delete", "DELETE", "DELETE"),
            _sqlite_refuse(_table, f"{_prefix}_no_replace", "INSERT", "REPLACE of a stored row",
                           _sqlite_replace_check(_table))):
        SQLITE_GUARD[_name] = (_table, _sql)
# tablejudge before 0.2 guarded the events table with the first two only
SQLITE_LEGACY = ("tablejudge_no_update", "tablejudge_no_delete")


_SPACES = re.compile(r"\s+")


def _norm(sql: str | None) -> str:
    return _SPACES.sub(" ", (sql or "").strip())


def sqlite_install() -> list[str]:
    return [sql for _, sql in SQLITE_GUARD.values()]


def sqlite_inspect(rows: list[Any]) -> GuardStatus:
    """`rows`: (name, tbl_name, sql) of every trigger in sqlite_master."""
    found = {r[0]: (r[1], r[2]) for r in rows}
    problems, foreign = [], []
    for name, (table, sql) in SQLITE_GUARD.items():
        if name not in found:
            problems.append(f"trigger {name} is missing")
        elif found[name][0] != table or _norm(found[name][1]) != _norm(sql):
            problems.append(f"trigger {name} is altered (its SQL differs from the expected text)")
    for name, (table, sql) in found.items():
        if table in GUARDED and name not in SQLITE_GUARD:
            foreign.append((name, sql or ""))
            problems.append(f"a foreign trigger {name} is on {table} (it may change what is stored)")
    legacy = (not foreign and all(_norm(found.get(n, ("", ""))[1]) == _norm(SQLITE_GUARD[n][1])
                                  for n in SQLITE_LEGACY)
              and not any(n in found for n in SQLITE_GUARD if n not in SQLITE_LEGACY))
    ours = sorted(n for n in found if n in SQLITE_GUARD)
    return GuardStatus(ok=not problems, problems=[] if legacy else problems, triggers=ours,
                       legacy=legacy, foreign=foreign)


def sqlite_repair(status: GuardStatus, rows: list[Any]) -> list[str]:
    """Statements that put the guard back: drop ours (whatever they now say) and the foreign
    triggers on our tables, then create ours again."""
    names = {r[0] for r in rows}
    drops = [f'DROP TRIGGER IF EXISTS "{n}"' for n in SQLITE_GUARD if n in names]
    drops += [f'DROP TRIGGER IF EXISTS "{n}"' for n, _ in status.foreign]
    return drops + sqlite_install()


# --- PostgreSQL --------------------------------------------------------------------------------

PG_FUNCTION = "tablejudge_refuse_change"
PG_BODY = " BEGIN RAISE EXCEPTION 'tablejudge: the event log is append-only (% refused)', TG_OP; END "
# pg_trigger.tgtype bits: ROW 1, BEFORE 2, INSERT 4, DELETE 8, UPDATE 16, TRUNCATE 32
PG_TRIGGERS = {"tablejudge_no_update": (1 | 2 | 8 | 16, "BEFORE UPDATE OR DELETE", "FOR EACH ROW"),
               "tablejudge_no_truncate": (2 | 32, "BEFORE TRUNCATE", "FOR EACH STATEMENT")}


def _q(ident: str) -> str:
    return '"' + ident.replace('"', '""') + '"'


def pg_install(schema: str) -> list[str]:
    s = _q(schema)
    out = [f"CREATE OR REPLACE FUNCTION {s}.{PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql "
           f"AS $${PG_BODY}$$"]
    for table in GUARDED:
        for name, (_, when, each) in PG_TRIGGERS.items():
            out.append(f"CREATE OR REPLACE TRIGGER {name} {when} ON {s}.{table} {each} "
                       f"EXECUTE FUNCTION {s}.{PG_FUNCTION}()")
            # ALWAYS: fires under session_replication_role = replica too
            out.append(f"ALTER TABLE {s}.{table} ENABLE ALWAYS TRIGGER {name}")
    return out


PG_INSPECT_TRIGGERS = """
SELECT c.relname AS tbl, t.tgname AS name, t.tgtype AS type, t.tgenabled AS enabled,
       t.tgqual IS NOT NULL AS has_when, t.tgfoid = to_regprocedure(%(fn)s)::oid AS our_function,
       pg_get_triggerdef(t.oid) AS sql
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND c.relname = ANY(%(tables)s) AND NOT t.tgisinternal
"""
PG_INSPECT_FUNCTION = """
SELECT p.prosrc AS body, l.lanname AS lang, p.prosecdef AS secdef
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.oid = to_regprocedure(%(fn)s)
"""
PG_INSPECT_RULES = """
SELECT c.relname AS tbl, r.rulename AS name, pg_get_ruledef(r.oid) AS sql
FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND c.relname = ANY(%(tables)s) AND r.rulename <> '_RETURN'
"""


def pg_params(schema: str) -> dict[str, Any]:
    return {"schema": schema, "tables": list(GUARDED), "fn": f"{_q(schema)}.{PG_FUNCTION}()"}


def pg_inspect(triggers: list[dict], function: dict | None, rules: list[dict]) -> GuardStatus:
    problems: list[str] = []
    foreign: list[tuple[str, str]] = []
    function_ok = (function is not None and function["body"] == PG_BODY
                   and function["lang"] == "plpgsql" and not function["secdef"])
    if function is None:
        problems.append(f"the trigger function {PG_FUNCTION}() is missing")
    elif not function_ok:
        problems.append(f"the trigger function {PG_FUNCTION}() is altered (its body differs from the "
                        "expected text: it may no longer refuse anything)")
    found = {(t["tbl"], t["name"]): t for t in triggers}
    states = {"D": "disabled", "R": "enabled only for replication",
              "O": "not enabled ALWAYS (session_replication_role = replica skips it)"}
    for table in GUARDED:
        for name, (tgtype, when, _) in PG_TRIGGERS.items():
            t = found.get((table, name))
            where = f"trigger {name} on {table}"
            if t is None:
                problems.append(f"{where} is missing")
            elif not _pg_right(t, tgtype):
                problems.append(f"{where} is altered (it must run {PG_FUNCTION}() {when}, with no "
                                f"condition): {t['sql']}")
            elif t["enabled"] != "A":
                problems.append(f"{where} is {states.get(t['enabled'], t['enabled'])}")
    for t in triggers:
        if t["name"] not in PG_TRIGGERS:
            foreign.append((t["name"], t["sql"]))
            problems.append(f"a foreign trigger {t['name']} is on {t['tbl']} (it may change what is stored)")
    for r in rules:
        foreign.append((r["name"], r["sql"]))
        problems.append(f"a rule {r['name']} is on {r['tbl']} (it may redirect or drop writes)")
    # tablejudge before 0.2: the function and the two events-table triggers, enabled the ordinary
    # way, and nothing on the snapshots table
    legacy = function_ok and not foreign and all(
        (EVENTS_TABLE, n) in found and _pg_right(found[(EVENTS_TABLE, n)], tgtype)
        and found[(EVENTS_TABLE, n)]["enabled"] == "O" for n, (tgtype, _, _) in PG_TRIGGERS.items()
    ) and not any((SNAPSHOTS_TABLE, n) in found for n in PG_TRIGGERS)
    ours = sorted({t["name"] for t in triggers if t["name"] in PG_TRIGGERS})
    return GuardStatus(ok=not problems, problems=[] if legacy else problems, triggers=ours,
                       legacy=legacy, foreign=foreign)


def _pg_right(t: dict, tgtype: int) -> bool:
    return bool(t["our_function"]) and t["type"] == tgtype and not t["has_when"]


def pg_repair(schema: str, status: GuardStatus, rules: list[dict], triggers: list[dict]) -> list[str]:
    s = _q(schema)
    out = [f"DROP RULE IF EXISTS {_q(r['name'])} ON {s}.{r['tbl']}" for r in rules]
    out += [f"DROP TRIGGER IF EXISTS {_q(t['name'])} ON {s}.{t['tbl']}" for t in triggers]
    return out + pg_install(schema)
