"""`tablejudge --version` and every other command start without the web stack: judge.web and
FastAPI are imported inside `serve` only."""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_cli_does_not_import_the_web_stack():
    code = ("import sys, judge.cli; heavy = [m for m in ('fastapi', 'uvicorn', 'starlette', 'segno', 'judge.web') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    r = subprocess.run([sys.executable, "-m", "judge", "--version"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0 and "tablejudge" in r.stdout


def test_serve_prints_the_organizers_link_and_the_lan_address(tmp_path):
    from tests.web.server import Server

    with Server(str(tmp_path / "e.db")) as s:
        assert f"http://127.0.0.1:{s.port}/?k=" in s.output and "Only this machine" in s.output
    with Server(str(tmp_path / "e.db"), "--host", "0.0.0.0") as s:
        assert f"http://127.0.0.1:{s.port}/?k=" in s.output
        from judge.cli.serve import lan_addresses
        lan = lan_addresses()
        if lan:
            assert f"http://{lan[0]}:{s.port}/" in s.output and ("▀" in s.output or "█" in s.output)
        else:
            assert "Only this machine" not in s.output
