"""How an importer's worker process starts: deaf to Ctrl-C, and gone with its parent.

A terminal's Ctrl-C reaches the whole process group: the workers ignore it and the importing
process, the only writer, stops them and says what was stored. If that process dies without
stopping them (kill -9, out of memory), a worker waiting for its next task would wait for ever:
its task pipe never ends, since every forked worker holds the pipe's other end too. So each worker
watches for its parent to change (the orphan is adopted by another process) and leaves then.
"""
from __future__ import annotations

import os
import signal
import threading

PARENT_CHECK_S = 0.5


def start_worker() -> None:
    """A pool's initializer: in the worker, before its first task."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        while True:
            threading.Event().wait(PARENT_CHECK_S)
            if os.getppid() != parent:
                os._exit(1)  # nothing of the parent's to flush or close: it is gone

    threading.Thread(target=watch, name="tablejudge-parent-watch", daemon=True).start()
