"""Driving `tablejudge live` through a real pseudo-terminal (pexpect), as a person at a keyboard."""
from __future__ import annotations

import json
import os
import re
import sys

import pexpect

from tests.conftest import ROOT, run_cli

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[=>]|\r")
# prompt_toolkit switches bracketed paste on each time it draws a new prompt: the end of a reply
NEXT_PROMPT = r"\x1b\[\?2004h"


def spawn(db: str, *args: str, user: str = "tester", state: str = "", wait: bool = True) -> pexpect.spawn:
    env = dict(os.environ, PYTHONPATH=ROOT, TABLEJUDGE_USER=user, PROMPT_TOOLKIT_NO_CPR="1",
               TERM="xterm", COLUMNS="160", LINES="40", TABLEJUDGE_STATE_DIR=state)
    child = pexpect.spawn(sys.executable, ["-m", "judge", "--db", db, "live", *args], cwd=ROOT,
                          env=env, encoding="utf-8", timeout=60, dimensions=(40, 160))
    if wait:
        child.expect("live recorder")
        child.expect(NEXT_PROMPT)
    return child


def screen(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.before or "")


def type_line(child: pexpect.spawn, line: str) -> str:
    """Type a line, press Enter, return what the recorder printed before the next prompt."""
    child.send(line + "\r")
    child.expect(NEXT_PROMPT)
    return screen(child)


def quit_(child: pexpect.spawn) -> None:
    child.send("quit\r")
    child.expect(pexpect.EOF)


def new_match(db: str, ruleset: str = "table") -> str:
    r = run_cli("match", "new", "--ruleset", ruleset, "--player", "Ann", "--player", "Bob", db=db)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def events(db: str, match: str) -> list[dict]:
    r = run_cli("events", match, "--json", db=db)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)
