"""Live updates by server-sent events. The follower (desk.Desk.catch_up) publishes, per stream
that changed, the topics its new events touch; each open page subscribes to one tournament and
refreshes the parts that show those topics (static/live.js: an element with
`data-topics="results standings"` and `hx-get` is fetched again).

Topics: `results` (a result, report or undo), `queue` (the judges' queue), `standings`,
`pairings`, `round` (paired, closed, swapped), `clock`, `players`, `warnings`, `access`,
`audit` (every event), and `table:R:N` (one table of one round: its player page).

A recorded match is a stream of its own: its pages (recorder, replay) subscribe to the match's id
and refresh on topic `match`; a judge call, a ruling, an appeal's decision or a correction there also tells the match's
tournament (topic `calls`: the judges' queue). A judge's act at a tournament's table (a call, a
ruling, a penalty, an appeal filed or decided, a correction) also tells that table's player page
(topic `table:R:N`): a player waiting at the table sees the decision without reloading. The message
names topics and a position only; the page fetched again shows what the public replay shows.
"""
from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Sequence
from typing import Any

from engine.desk import APPEALABLE_KINDS
from judge.desk.calls import CALL_KINDS

KIND_TOPICS: dict[str, tuple[str, ...]] = {
    "result.recorded": ("results", "standings", "queue"),
    "result.reported": ("results", "queue"),
    "correction": ("results", "standings", "queue", "pairings", "round", "players", "clock", "warnings"),
    "round.paired": ("pairings", "round", "results", "standings"),
    "round.closed": ("round", "standings", "results"),
    "pairing.swapped": ("pairings", "round", "results"),
    "clock.started": ("clock",), "clock.extended": ("clock",), "clock.time_called": ("clock",),
    "player.registered": ("players", "standings"), "player.dropped": ("players", "standings"),
    "bye.granted": ("players",),
    "decision.recorded": ("warnings", "round", "pairings", "results"),
    "access.granted": ("access",), "access.revoked": ("access",),
    "round.matches": ("round",),
}
QUEUE_SIZE = 100
# A `ping` event this often when nothing else is said: a page that hears nothing for a few of them
# knows its connection hung without an error (a phone's Wi-Fi gone quiet) and says so and
# reconnects (static/live.js). A named event, not an SSE comment: pages cannot see comments.
# TABLEJUDGE_LIVE_PING_SECONDS sets it (a proxy that cuts idle connections sooner; the tests).
PING_ENV = "TABLEJUDGE_LIVE_PING_SECONDS"


def ping_seconds() -> float:
    try:
        value = float(os.environ.get(PING_ENV, "15"))
    except ValueError:
        return 15.0
    return min(max(value, 0.2), 300.0) if value == value else 15.0  # (NaN: the default)


def topics_of(events: Sequence[Any], created: bool = False) -> list[str]:
    topics = {"audit"} | ({"tournaments"} if created else set())
    for e in events:
        topics.update(KIND_TOPICS.get(e.kind, ()))
        p = e.payload
        if "round" in p and "table" in p:
            topics.add(f"table:{p['round']}:{p['table']}")
    if "warnings" not in topics and topics & {"results", "players"}:
        topics.add("warnings")  # a result or a drop may invalidate the bracket
    return sorted(topics)


# What the judges' queue shows or is answered by (a call, a ruling or an appeal's decision answering
# it, a correction voiding one): the queue's own list, so the two cannot drift apart.
CALL_TOPIC_KINDS = frozenset(CALL_KINDS)


# What a table's player page shows of its recorded match (judge.web.routes.player): the player's own
# call and whether a judge answered it, the judges' decisions there and their appeals.
TABLE_PAGE_KINDS = CALL_TOPIC_KINDS | set(APPEALABLE_KINDS) | {"appeal.filed", "judge.appeal"}


def match_topics(events: Sequence[Any]) -> list[str]:
    """What new events of a recorded match touch: its pages, and the judges' queue for a call."""
    return ["calls", "match"] if any(e.kind in CALL_TOPIC_KINDS for e in events) else ["match"]


def match_tournament_topics(events: Sequence[Any], table: tuple[int, int] | None) -> list[str]:
    """What new events of a recorded match touch in its tournament's stream: the judges' queue for a
    call or ruling, and the player page of the match's table (`table`: its round and table, None for
    a match at no table) for whatever that page shows. Empty: nothing there to refresh."""
    topics = ["calls"] if any(e.kind in CALL_TOPIC_KINDS for e in events) else []
    if table is not None and any(e.kind in TABLE_PAGE_KINDS for e in events):
        topics.append(f"table:{table[0]}:{table[1]}")
    return topics


class Broker:
    """In-process publish/subscribe: one queue per open page. `close()` (the server shutting down)
    ends every page's stream at once: a browser connected to a server that is going away must not
    keep it alive (its pages say "reconnecting…" and come back with the next server)."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[asyncio.Queue]] = {}
        self.closed = False

    def close(self) -> None:
        self.closed = True
        for subscribers in self._subscribers.values():
            for q in list(subscribers):
                if q.full():
                    q.get_nowait()
                q.put_nowait(None)  # the end of the stream

    def subscribe(self, stream: str) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
        self._subscribers.setdefault(stream, set()).add(q)
        return q

    def unsubscribe(self, stream: str, q: asyncio.Queue) -> None:
        self._subscribers.get(stream, set()).discard(q)

    def publish(self, stream: str, topics: list[str], position: int) -> None:
        message = {"stream": stream, "topics": topics, "position": position}
        for key in (stream, "*"):
            for q in list(self._subscribers.get(key, ())):
                if q.full():  # a page that stopped reading: drop its oldest news, keep the newest
                    q.get_nowait()
                q.put_nowait(message)

    def subscribers(self) -> int:
        return sum(len(s) for s in self._subscribers.values())


async def sse_stream(broker: Broker, stream: str, position: int, disconnected) -> AsyncIterator[str]:
    """The text/event-stream of one page: a `hello` with the position it was rendered at, then a
    `changed` message per publication, a `ping` when quiet (ping_seconds); it ends when the broker closes
    (the server shutting down)."""
    if broker.closed:
        return
    q = broker.subscribe(stream)
    ping = ping_seconds()
    try:
        yield f"retry: 2000\nevent: hello\ndata: {json.dumps({'position': position, 'ping': ping})}\n\n"
        while True:
            try:
                msg = await asyncio.wait_for(q.get(), ping)
            except asyncio.TimeoutError:
                if await disconnected():
                    return
                yield "event: ping\ndata: 1\n\n"
                continue
            if msg is None:
                return
            yield f"event: changed\ndata: {json.dumps(msg)}\n\n"
    finally:
        broker.unsubscribe(stream, q)
