"""A long JSONL file that creates its match, drafted by worker processes as well as the writer.

One job: the parallel half of `jsonl.import_file`. Checking a line (its JSON, its keys, its payload
against the ruleset) and writing its canonical envelope (engine/events.py `envelope_parts`) need
nothing from the lines around it, so worker processes do them for chunks of the file while the
main process does the first chunk itself. What needs the chain (each event's hash follows from the
one before) stays in the main process, the only writer: `EventStore.create_in_batches` chains and
hashes each chunk as it comes back, while the workers go on, then stores them all in one
transaction. All or nothing, as for any import: the first refused line in file order is the one reported (a line the main process drafted comes
first), and nothing is stored.

The workers are forked (they start with the validator and the file's lines already in memory),
ignore Ctrl-C (the main process stops them), leave if it dies (_worker_life.py) and never touch
the log.
"""
from __future__ import annotations

import gc
import os
from typing import TYPE_CHECKING, Any

from engine.events import Draft, ManyEnvelopes, now_iso
from engine.match import EventValidator, InputError
from engine.replacing import StandingAfter
from engine.store import Envelopes

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from concurrent.futures import Future

    LineReader = Callable[[str, str, int], dict[str, Any]]  # jsonl.read_line
    LineDrafter = Callable[..., Draft]  # jsonl.draft_line

CHUNK = 2_000  # lines per task: large enough that a task's overhead is small
MIN_EVENTS = 5_000  # below this, starting a worker costs more than it saves
MAX_WORKERS = 8

# The job the pool's workers share, set in each worker by the pool's initializer (inherited by
# fork, not pickled): (path, numbered lines, validator, match id, recorded_by, time of the write,
# the importer's own functions that read a line and draft it).
_job: tuple[str, list[tuple[int, str, bool]], EventValidator, str, str, str, LineReader, LineDrafter] | None = None


def pool_size(workers: int | None, events: int) -> int:
    """Worker processes for a file of `events` lines: none for a short file or where processes
    cannot be forked; `workers` if given, else one per CPU where there are two or more (measured
    on 2 cores: two workers beside the writer beat one, which gained nothing over none)."""
    if events < MIN_EVENTS:  # (checked first: a short import does not load multiprocessing)
        return 0
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return 0
    if workers is None:
        cpus = os.cpu_count() or 1
        workers = cpus if cpus > 1 else 0
    return max(0, min(workers, MAX_WORKERS, events // CHUNK))


def batches_from_workers(path: str, lines: list[tuple[int, str, bool]], validator: EventValidator,
                         match_id: str, recorded_by: str, workers: int, read_line: LineReader,
                         draft_line: LineDrafter, line_of: dict[int, int]) -> Iterator[Envelopes]:
    """The match's events after its match.created, in batches for
    `EventStore.create_in_batches`: every line of `lines` (the file after that line: events 2, 3,
    ...), drafted with the importer's `read_line` and `draft_line` (passed in: the importer
    imports this module). The main process drafts the first chunk while the workers start on the
    others; each worker's chunk is handed on as it comes back, in file order. `line_of` is filled
    with each event's line number as its batch is handed on. InputError for the first refused
    line, in file order. Close the iterator when done with it (the workers are stopped)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    at = now_iso()  # one time for the write, as a sequential import stamps (engine/store.py _seal)
    own = min(len(lines), CHUNK)
    ctx = multiprocessing.get_context("fork")
    job = (path, lines, validator, match_id, recorded_by, at, read_line, draft_line)
    futures: list[Future] = []
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_start, initargs=(job,)) as pool:
            try:
                futures += [pool.submit(_draft_chunk, s, min(s + CHUNK, len(lines)))
                            for s in range(own, len(lines), CHUNK)]
                yield _batch(_draft_range(job, 0, own), lines, 0, line_of)  # the main process's own chunk
                for s, future in zip(range(own, len(lines), CHUNK), futures):
                    result = future.result()
                    if future is futures[-1]:
                        # every task is done: the workers are told to leave, and leave while the
                        # last chunk is chained and everything is written, rather than the writer
                        # waiting at the pool's exit for them to end (5-10 ms of a 20,000-line
                        # import's ~360 on 2 cores); the pool's exit then has nothing to wait for
                        pool.shutdown(wait=False)
                    yield _batch(result, lines, s, line_of)
            except BaseException:  # a refused line, Ctrl-C, the consumer gone: the rest is not wanted
                for future in futures:  # (before the pool's exit, which waits for what is still queued)
                    future.cancel()
                raise
    except BrokenProcessPool as e:  # a worker died (killed, out of memory), even before its first task
        raise InputError(f"a worker process reading the file stopped ({e}); nothing was stored",
                         where=path) from None


def _batch(result: Envelopes | dict[str, str], lines: list[tuple[int, str, bool]], start: int,
           line_of: dict[int, int]) -> Envelopes:
    """A chunk's envelopes (lines[start:] onwards: their line numbers noted in `line_of`), or its
    refused line raised."""
    if isinstance(result, dict):
        raise InputError(result["message"], where=result["where"], field=result["field"])
    line_of.update((i + 2, lines[i][0]) for i in range(start, start + len(result.kinds)))
    return result


def _start(job: tuple) -> None:
    from judge.io.importers._worker_life import start_worker

    global _job
    _job = job
    start_worker()
    gc.disable()  # a worker's objects live until its chunk is sent: see jsonl.gc_paused


def _draft_chunk(start: int, stop: int) -> Envelopes | dict[str, str]:
    """A worker's task: its share of the pool's job."""
    assert _job is not None
    return _draft_range(_job, start, stop)


def _draft_range(job: tuple, start: int, stop: int) -> Envelopes | dict[str, str]:
    """lines[start:stop] of `job` drafted, as their envelopes (no drafts: see engine/store.py
    Envelopes), or the first refused line's error."""
    path, lines, validator, match_id, recorded_by, at, read_line, draft_line = job
    kinds: dict[int, str] = {1: "match.created"}

    def kind_at(position: int) -> str | None:
        """The kind of an earlier event (a correction names the event it voids): this chunk's
        own, or read off the line (a line before the chunk is checked by whoever drafts it, and
        its error comes first)."""
        if position in kinds:
            return kinds[position]
        if 2 <= position < start + 2:
            n, text, _ = lines[position - 2]
            try:
                kind = read_line(text, path, n).get("kind")
            except InputError:
                return None
            return kind if isinstance(kind, str) else None
        return None

    def before() -> Iterator[tuple[int, Draft]]:
        """The corrections on the lines before the chunk (read when a correction or a backup is
        first drafted: rare), each drafted as a one-process import drafts it, so a replacement
        stands as stored (its kind and version filled in, its payload parsed), not as its line
        spells it: compared with the same replacement said again, the two read alike ("already
        reads so")."""
        for p in range(2, start + 2):
            n, text, _ = lines[p - 2]
            try:
                obj = read_line(text, path, n)
                d = (draft_line(validator, obj, path, n, p, match_id, True, recorded_by, kind_at)
                     if obj.get("kind") == "correction" else None)
            except InputError:
                continue  # a bad line is refused by whoever drafts it, and its error comes first
            if d is not None:
                yield p, d

    corrections = StandingAfter(before)  # the lines before the chunk, then this chunk's own

    # each kind as one object (the vocabulary's few), so pickle sends each once, then a reference
    names = validator.vocab.keys()
    one: dict[str, str] = dict(zip(names, names))
    out = Envelopes([], [], [])
    # (the lists' appends looked up once: this loop runs for every line of a long file)
    add_kind, add_parts, add_hash = out.kinds.append, out.parts.append, out.expected_hashes.append
    # the envelopes' repeating pieces written once per chunk (engine/events.py ManyEnvelopes): the
    # bench game's _draft_range 7.70 -> 7.07 us a line, pickling it 0.28 -> 0.18 and unpickling
    # 0.15 -> 0.12 (226 -> 148 bytes a line), A/B medians of 5 processes each (issue 17). An export
    # whose lines each carry their own time gains nothing and pays the look-up: 10.25 -> 10.53
    envelope = ManyEnvelopes(match_id).parts
    try:
        for position, (n, text, cut) in enumerate(lines[start:stop], start=start + 2):
            obj = read_line(text, path, n, cut)
            d = draft_line(validator, obj, path, n, position, match_id, True, recorded_by, kind_at, corrections)
            if d.kind == "correction":  # (the other lines have nothing to note: a look-up less a line)
                corrections.note(position, d)
            kind = kinds[position] = one.get(d.kind, d.kind)
            add_kind(kind)
            add_parts(envelope(position, kind, d.version, d.actor, d.payload, d.recorded_at or at, d.recorded_by,
                               d.write_id))
            add_hash(obj.get("hash"))
    except InputError as e:
        return {"message": e.message, "where": e.where, "field": e.field}
    return out
