"""Helpers for re-enacting attacks on a real log: raw SQL as someone with access to the database
would type it, including the "insider" who switches the guard off, tampers, and puts the guard
back exactly as it was (so the guard looks intact and only chains, anchors and seals can tell)."""
from __future__ import annotations

import sqlite3

import pytest

from engine import guard

pytestmark = pytest.mark.reliability


class RawDB:
    """SQL on a log, below tablejudge's API."""

    def __init__(self, url: str):
        self.url = url
        self.is_postgres = url.startswith("postgresql://")

    def run(self, *statements: str, params: tuple = ()) -> list[tuple]:
        """Run statements in one session (one transaction on SQLite); rows of the last."""
        rows: list[tuple] = []
        if self.is_postgres:
            import psycopg

            with psycopg.connect(self.url, autocommit=True) as c:
                for st in statements:
                    cur = c.execute(st, params if st is statements[-1] else ())
                    rows = cur.fetchall() if cur.description else []
            return rows
        with sqlite3.connect(self.url) as c:
            for st in statements:
                cur = c.execute(st, params if st is statements[-1] else ())
                rows = cur.fetchall()
        c.close()
        return rows

    def insider(self, *statements: str, params: tuple = ()) -> list[tuple]:
        """Switch the guard off, run the statements, put the guard back exactly as it was."""
        if self.is_postgres:
            off = [f"ALTER TABLE {t} DISABLE TRIGGER USER" for t in guard.GUARDED]
            on = [f"ALTER TABLE {t} ENABLE ALWAYS TRIGGER {n}" for t in guard.GUARDED for n in guard.PG_TRIGGERS]
            self.run(*off)
            rows = self.run(*statements, params=params)
            self.run(*on)
            return rows
        drop = [f"DROP TRIGGER {n}" for n in guard.SQLITE_GUARD]
        self.run(*drop)
        rows = self.run(*statements, params=params)
        self.run(*guard.sqlite_install())
        return rows

    def state_of(self, match: str, position: int) -> bytes:
        p = "%s" if self.is_postgres else "?"
        return bytes(self.run(f"SELECT state FROM stored_events WHERE originator_id = {p} AND "
                              f"originator_version = {p}", params=(match, position))[0][0])


@pytest.fixture
def raw(db_url) -> RawDB:
    return RawDB(db_url)
