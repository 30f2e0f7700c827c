"""A real PostgreSQL server for the tests: initdb + pg_ctl in a temp dir, loopback only.

Debian's `postgresql` package provides the binaries (`make test` installs it). Running as root,
the server runs as the `postgres` system user, as PostgreSQL refuses to run as root.
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time


def find_pg_bin() -> str | None:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    for d in reversed(candidates):
        if os.path.exists(os.path.join(d, "initdb")):
            return d
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self, password: str | None = None) -> None:
        """`password`: the `postgres` user needs it (scram-sha-256), instead of trust."""
        self.password = password
        self.bin = find_pg_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL binaries (initdb, pg_ctl) not found: install Debian's postgresql")
        self.root = tempfile.mkdtemp(prefix="tj-pg-")
        self.data = os.path.join(self.root, "data")
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        self._counter = 0

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        cmd = list(args)
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--"] + cmd
        return subprocess.run(cmd, check=True, capture_output=True, text=True)

    def start(self) -> "PostgresServer":
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        auth = ["--auth=trust"]
        if self.password is not None:
            pwfile = os.path.join(self.root, "pw")
            with open(pwfile, "w") as f:
                f.write(self.password + "\n")
            if self.as_root:
                shutil.chown(pwfile, "postgres", "postgres")
            auth = ["--auth=scram-sha-256", f"--pwfile={pwfile}"]
        self._run(os.path.join(self.bin, "initdb"), "-D", self.data, "-U", "postgres",
                  *auth, "-E", "UTF8", "--no-sync")
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root} "
                "-c fsync=off -c max_connections=60")
        self._run(os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-o", opts, "-w", "-t", "30",
                  "-l", os.path.join(self.root, "log"), "start")
        return self

    def stop(self) -> None:
        try:
            self._run(os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def new_database(self) -> str:
        """A fresh empty database; returns its postgresql:// URL."""
        import psycopg

        self._counter += 1
        name = f"tj_{os.getpid()}_{self._counter}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             password=self.password, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"
