"""What every append stamps, made lean for the live append (issue 17). Write ids are drawn from
os.urandom several at a time (engine/store.py new_write_id): each is still 16 hex digits, never
handed out twice, and a forked process (a bulk import's worker, a server's worker) does not hand
out the ids its parent drew ahead. The time's milliseconds come from a table (engine/events.py
now_iso): the same text as formatting them."""
from __future__ import annotations

import os
import re

import pytest

import engine.events as events
from engine.store import new_write_id


def test_ids_are_16_hex_digits_and_distinct_across_batches():
    ids = [new_write_id() for _ in range(500)]  # several batches of drawn-ahead ids
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)
    assert len(set(ids)) == len(ids)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_does_not_reuse_the_parents_drawn_ids():
    new_write_id()  # the parent now holds ids drawn ahead
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next id, then out without running the test session's exit
        try:
            os.write(write, new_write_id().encode())
        finally:
            os._exit(0)
    os.close(write)
    child = os.read(read, 64).decode()
    os.close(read)
    os.waitpid(pid, 0)
    parent_next = new_write_id()
    assert re.fullmatch(r"[0-9a-f]{16}", child)
    assert child != parent_next


@pytest.mark.parametrize("ns, text", [
    (1_700_000_000_000_000_000, "2023-11-14T22:13:20.000Z"),
    (1_700_000_000_007_999_999, "2023-11-14T22:13:20.007Z"),  # truncated, not rounded
    (1_700_000_000_999_999_999, "2023-11-14T22:13:20.999Z"),
    (1_700_000_001_042_000_000, "2023-11-14T22:13:21.042Z"),  # the next second's text, made again
])
def test_now_iso_to_the_millisecond(monkeypatch, ns, text):
    monkeypatch.setattr(events, "_time_ns", lambda: ns)
    assert events.now_iso() == text
