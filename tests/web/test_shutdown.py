"""A server stops promptly while phones are connected: SIGTERM ends every open page's live stream
(cleanly: the pages say "reconnecting…"), and the process exits within seconds instead of waiting
for the last page to leave (a real `tablejudge serve` process, a real server-sent events client)."""
from __future__ import annotations

import os
import signal
import socket
import time

from tests.web.conftest import Api, new_event
from tests.web.server import Server


def open_stream(url: str, path: str) -> tuple[socket.socket, bytes]:
    """An SSE connection as a browser keeps it open: the request sent, the `hello` read."""
    host, port = url.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)), timeout=30)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    got = b""
    while b"event: hello" not in got:
        chunk = s.recv(4096)
        assert chunk, got
        got += chunk
    return s, got


def read_to_end(s: socket.socket) -> bytes:
    got = b""
    while chunk := s.recv(4096):
        got += chunk
    return got


def test_sigterm_ends_the_live_streams_and_the_process_exits_within_seconds(tmp_path):
    with Server(str(tmp_path / "event.db")) as server:
        api = Api(server.url, server.token)
        tid = new_event(api, 4)
        api.do(tid, "pair")
        phones = [open_stream(server.url, f"/t/{tid}/live")[0] for _ in range(3)]
        time.sleep(0.3)
        started = time.monotonic()
        os.killpg(server.proc.pid, signal.SIGTERM)
        server.proc.wait(timeout=GRACE)  # not until the phones leave (before: never, while they stayed)
        took = time.monotonic() - started
        # uvicorn re-raises the signal once it has shut down
        assert server.proc.returncode in (0, -signal.SIGTERM), server.proc.stdout.read()
        for s in phones:
            s.settimeout(2)
            tail = read_to_end(s)  # the stream was ended by the server, not cut
            assert tail.endswith(b"0\r\n\r\n"), tail
            s.close()
        assert took < GRACE, took


GRACE = 4.0
