"""Many OPTCGSim logs at once: parsing in worker processes, one writer, batched commits.

One job: the bulk path of `tablejudge import FOLDER`. Each file is read, split into games, converted
and judged in a worker process (`optcgsim.read_file`); the main process is the only writer. It
takes the results in the order of the files (so the first file that holds a game is the one that
imports it) and relates each game to the log and to the games of this run's earlier files, as the
one-file import does (`_optcgsim_copies.Copies`: already in the log, a copy cut shorter, a copy
that resumes a cut one after its batch commits, or a file refused for a copy that differs, while the
other files import), and stores the new games in batches: one transaction for several files' matches
(`EventStore.create_many`), a file never split across two batches, so each file is stored all or
nothing. If a batch is refused, its files are tried one by one, so one bad file costs only itself.

Ctrl-C: the workers ignore it; the writer stops taking results, does not commit the batch it was
filling, and says which files were stored. Running the same import again stores only the rest (the
stored games are recognised).
"""
from __future__ import annotations

import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from engine.match import InputError
from engine.store import EventStore, StoreError

from judge.io.importers import ImportSummary
from judge.io.importers._worker_life import start_worker

BATCH_EVENTS = 20_000   # events per commit: large enough that commits cost little, small enough
                        # that a refused batch is cheap to redo file by file
IN_FLIGHT_PER_WORKER = 4  # files read ahead per worker: keeps the workers busy, bounds memory
# fork where there is one: a worker starts at once with the modules already imported, and a caller's
# script needs no `if __name__ == "__main__"` guard (spawn runs the main module again in each
# worker; `python -m judge` would start the CLI twice). Safe here: the pool's processes are forked
# before its manager thread starts, the workers never touch the parent's SQLite connection, and they
# leave with os._exit (nothing of the parent's is closed or flushed by them).
START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


@dataclass
class FileOutcome:
    path: str
    summary: ImportSummary | None = None   # stored, or every game already in the log
    error: str | None = None               # refused: nothing of it stored, unless `partly`
    partly: bool = False                   # some of its games were stored before it was refused


@dataclass
class BulkImport:
    files: list[FileOutcome] = field(default_factory=list)
    interrupted: bool = False
    not_stored: list[str] = field(default_factory=list)  # read, but not committed (interrupted)
    seconds: float = 0.0
    write_seconds: float = 0.0  # of which the writer spent sealing and committing
    workers: int = 0
    batches: int = 0
    cards_db: str | None = None  # the local card database the files were read with (None: none found)

    @property
    def imported(self) -> list[ImportSummary]:
        return [f.summary for f in self.files if f.summary is not None]

    @property
    def failed(self) -> list[FileOutcome]:
        return [f for f in self.files if f.error is not None]

    @property
    def events(self) -> int:
        return sum(s.events for s in self.imported)

    def totals(self) -> dict[str, Any]:
        games = [g for s in self.imported for g in s.extra["games"]]
        return {"files": len(self.files), "imported_files": len(self.imported), "failed_files": len(self.failed),
                "games": len(games), "games_stored": sum(1 for g in games if g["stored"]),
                "games_resumed": sum(1 for g in games if g.get("events_appended")),
                "events": self.events, "seconds": round(self.seconds, 2),
                "write_seconds": round(self.write_seconds, 2),
                "events_per_s": round(self.events / self.seconds) if self.seconds else None,
                "workers": self.workers, "commits": self.batches}

    def card_facts(self) -> dict[str, Any]:
        from judge.io.importers.optcgsim import card_facts_note

        return card_facts_note(self.cards_db)


def import_files(store: EventStore, paths: Sequence[str], *, recorded_by: str | None = None,
                 workers: int | None = None, batch_events: int = BATCH_EVENTS, cards: str | None = None,
                 progress: Callable[[str], None] | None = None) -> BulkImport:
    """Import OPTCGSim logs: see the module's docstring. `progress(path)` is called as each file
    has been read (stored or refused later in its batch)."""
    from judge.io.importers.optcgsim import find_cards_db

    started = time.perf_counter()
    workers = max(1, workers or os.cpu_count() or 1)
    out = BulkImport(workers=workers)
    writer = _Writer(store, out, batch_events)
    out.cards_db = find_cards_db(store, cards)
    tasks = deque((p, recorded_by, out.cards_db) for p in paths)
    pending: deque[tuple[str, Future]] = deque()
    ctx = multiprocessing.get_context(START_METHOD)
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=start_worker) as pool:
        try:
            while tasks or pending:
                while tasks and len(pending) < workers * IN_FLIGHT_PER_WORKER:
                    task = tasks.popleft()
                    pending.append((task[0], pool.submit(read_one, *task)))
                path, future = pending.popleft()
                try:
                    result, error = future.result()
                except BrokenProcessPool as e:  # the worker process died (killed, out of memory)
                    result, error = None, f"{path}: not read: its worker process stopped ({e})"
                except Exception as e:  # a fault of the importer's own, said without a traceback
                    result, error = None, (f"{path}: not read: the importer failed on it "
                                           f"({type(e).__name__}: {e}); please report it with the file")
                writer.take(path, result, error)
                if progress is not None:
                    progress(path)
            writer.flush()
        except KeyboardInterrupt:
            out.interrupted = True
            out.not_stored = [fr.path for fr, _ in writer.batch]
            for _, future in pending:
                future.cancel()
            workers_started = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=True, cancel_futures=True)  # forgets its workers: named above
            _stop_idle_workers(workers_started)
    order = {p: i for i, p in enumerate(paths)}
    out.files.sort(key=lambda f: order.get(f.path, len(order)))
    out.seconds = time.perf_counter() - started
    return out


def _stop_idle_workers(processes: list[Any]) -> None:
    """Workers a Ctrl-C left waiting for work: one that lands while `submit` is starting the pool
    stops it before its manager thread runs, so `shutdown` tells the workers nothing and the
    interpreter's exit joined them forever (the CLI hung after printing "interrupted"). They
    ignore SIGINT (`start_worker`) and hold nothing to flush: terminate them. The caller takes
    them from `_processes`, the executor's own record of its workers (CPython 3.8+), the only
    place they are named."""
    for process in processes:
        if process.is_alive():
            process.terminate()
            process.join(5)


def read_one(path: str, recorded_by: str | None, cards_db: str | None) -> tuple[Any, str | None]:
    """In a worker: the file read, converted and judged, or why it is refused."""
    from judge.io.importers.optcgsim import read_file

    try:
        return read_file(path, recorded_by=recorded_by, cards_db=cards_db), None
    except InputError as e:
        return None, str(e)
    except RecursionError:
        return None, f"{path}: not read: nested too deeply"
    except MemoryError:
        return None, f"{path}: not read: too large to read in memory"




class _Writer:
    """The one writer: relates each file's games to the log and to this run's earlier files
    (`_optcgsim_copies.Copies`, the one-file import's relation), fills a batch, commits it, then
    appends the resumed games."""

    def __init__(self, store: EventStore, out: BulkImport, batch_events: int):
        from judge.io.importers._optcgsim_copies import Copies

        self.store = store
        self.out = out
        self.batch_events = batch_events
        self.batch: list[tuple[Any, dict[str, Any]]] = []  # (FileResult, match id -> Copy)
        self.events = 0
        self.copies = Copies(store)

    def take(self, path: str, fr: Any, error: str | None) -> None:
        from judge.io.importers.optcgsim import relate_file

        if fr is None:
            self.out.files.append(FileOutcome(path, error=error or f"{path}: not read"))
            return
        try:
            related = relate_file(self.copies, fr)
        except InputError as e:  # a copy that differs from a stored game: this file only
            self.out.files.append(FileOutcome(path, error=str(e)))
            return
        self.batch.append((fr, related))
        self.events += sum(g.events for m, g in fr.firsts.items() if related[m].how != "same")
        if self.events >= self.batch_events:
            self.flush()

    def flush(self) -> None:
        if not self.batch:
            return
        batch, self.batch, self.events = self.batch, [], 0
        try:
            self._commit(batch)
        except (StoreError, ValueError):
            for one in batch:  # find the file the store refuses; the others are stored
                try:
                    self._commit([one])
                except (StoreError, ValueError) as e:
                    self.out.files.append(FileOutcome(one[0].path, error=f"{one[0].path}: not stored: {e}"))
        self.copies.committed()

    def _commit(self, batch: list[tuple[Any, dict[str, Any]]]) -> None:
        from judge.io.importers.optcgsim import PartlyStored, resume_file, summary

        streams = [(m, g.drafts) for fr, related in batch for m, g in fr.firsts.items()
                   if related[m].how == "new"]
        started = time.perf_counter()
        try:
            if streams:
                self.store.create_many(streams)
                self.out.batches += 1
            for fr, related in batch:  # after the commit: a game may continue one it just stored
                try:
                    resume_file(self.store, fr, related)
                except (InputError, StoreError) as e:  # its start's file was refused, or another writer appended
                    self.out.files.append(FileOutcome(fr.path, error=str(e), partly=isinstance(e, PartlyStored)))
                    continue
                self.out.files.append(FileOutcome(fr.path, summary=summary(fr, related, self.store)))
        finally:
            self.out.write_seconds += time.perf_counter() - started
