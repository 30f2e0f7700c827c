"""A real `tablejudge serve` process on loopback for the tests (and bench/): started with a free
port and a known secret, ready when it answers, stopped (its process group) afterwards."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

from tests.conftest import ROOT

SECRET = "tests-secret-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db: str, *extra: str, port: int | None = None, env: dict | None = None):
        self.db, self.port = db, port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [sys.executable, "-m", "judge", "--db", db, "serve", "--port", str(self.port), *extra]
        self.env = dict(os.environ, PYTHONPATH=ROOT, TABLEJUDGE_SECRET=SECRET, TABLEJUDGE_USER="tester", **(env or {}))
        self.proc: subprocess.Popen | None = None
        self.token = ""
        self.output = ""

    def start(self, timeout: float = 60) -> "Server":
        self.proc = subprocess.Popen(self.args, cwd=ROOT, env=self.env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, start_new_session=True)
        deadline = time.monotonic() + timeout
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("tablejudge serve exited:\n" + "".join(lines))
            lines.append(line)
            m = re.search(r"\?k=(\S+)", line)
            if m:
                self.token = m.group(1)
                break
        self.output = "".join(lines)
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/tournaments", timeout=2).read()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("tablejudge serve did not answer:\n" + self.output)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        if self.proc and self.proc.stdout:
            self.proc.stdout.close()

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
