"""A TCP proxy between tablejudge and the suite's PostgreSQL server that can break a connection at
the worst moment of an append: right after the client's COMMIT reached the server (the write is
stored, the reply is lost), or right before (nothing is stored). Real sockets, a real server."""
from __future__ import annotations

import socket
import threading
import time


class FaultyProxy:
    def __init__(self, target_port: int, host: str = "127.0.0.1"):
        self.target = (host, target_port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((host, 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.mode: str | None = None  # "after-commit" | "before-commit" | None
        self.fired = 0
        self.refuse = False  # accept and close at once: the server is "down"
        self._lock = threading.Lock()
        self._stop = False
        self._open: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, dbname: str, user: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{dbname}"

    def arm(self, mode: str) -> None:
        with self._lock:
            self.mode = mode

    def down(self) -> None:
        """The server goes away: every open connection breaks and new ones are refused."""
        self.refuse = True
        with self._lock:
            sockets, self._open = list(self._open), set()
        for s in sockets:
            _close(s)

    def up(self) -> None:
        self.refuse = False

    def close(self) -> None:
        self._stop = True
        self.down()
        self.listener.close()

    def _take(self, data: bytes) -> str | None:
        """The armed fault, if this chunk from the client holds a COMMIT (then disarm: one shot)."""
        with self._lock:
            if self.mode and b"COMMIT" in data:
                mode, self.mode = self.mode, None
                self.fired += 1
                return mode
        return None

    def _accept(self) -> None:
        while not self._stop:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refuse:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open.update((client, server))
            threading.Thread(target=self._pipe, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, False), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, from_client: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                fault = self._take(data) if from_client else None
                if fault == "before-commit":
                    break  # the COMMIT never arrives: the server rolls back
                dst.sendall(data)
                if fault == "after-commit":
                    # the server has the COMMIT; the client never hears back
                    _close(src)
                    time.sleep(0.3)
                    break
        except OSError:
            pass
        finally:
            _close(src)
            _close(dst)


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        s.close()
    except OSError:
        pass
