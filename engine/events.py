"""The event envelope and the core vocabulary every ruleset accepts.

An event as stored: its match and position (1, 2, 3, ...), kind and kind version, actor (a player,
`judge:NAME`, or `-` for the table itself), payload, when and by whom it was recorded, and the hash
chain (`prev_hash`, `hash`: sha256 over the canonical JSON of every other field). The first event of
each write also carries `write_id`, a random id its writer chose: a writer that lost its connection
mid-append looks for it to learn whether its write landed (see engine/store.py).
"""
from __future__ import annotations

import functools
import getpass
import hashlib
import os
import re
import time
from json.encoder import encode_basestring  # what canonical_json uses for a str (C)
from typing import Any, NamedTuple

from engine.canonical import c_encode, canonical_bytes, canonical_json, sha256_hex
from engine.schema import JUDGE_PREFIX, TABLE_ACTOR, Payload, PayloadError, event_kind  # noqa: F401 - re-exported

SCOREKEEPER_PREFIX = "scorekeeper:"  # a scorekeeper's own acts (the live recorder's undo)


class RecordedEvent(NamedTuple):
    """A stored event: immutable (a tuple, cheap to build: replay and import make one per event)."""

    match: str
    position: int
    kind: str
    version: int
    actor: str
    payload: dict[str, Any]
    recorded_at: str
    recorded_by: str
    prev_hash: str
    hash: str
    write_id: str | None = None  # on the first event of each write (older logs: none)

    def hashed_fields(self) -> dict[str, Any]:
        d = {
            "match": self.match,
            "position": self.position,
            "kind": self.kind,
            "version": self.version,
            "actor": self.actor,
            "payload": self.payload,
            "recorded_at": self.recorded_at,
            "recorded_by": self.recorded_by,
            "prev_hash": self.prev_hash,
        }
        if self.write_id is not None:
            d["write_id"] = self.write_id
        return d

    def to_dict(self) -> dict[str, Any]:
        d = self.hashed_fields()
        d["hash"] = self.hash
        return d

    def computed_hash(self) -> str:
        return sha256_hex(canonical_bytes(self.hashed_fields()))


    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RecordedEvent":
        return cls(
            d["match"], d["position"], d["kind"], d["version"], d["actor"], d["payload"],
            d["recorded_at"], d["recorded_by"], d["prev_hash"], d["hash"], d.get("write_id"),
        )

    @classmethod
    def seal(cls, *, match: str, position: int, kind: str, version: int, actor: str,
             payload: dict[str, Any], recorded_at: str, recorded_by: str,
             prev_hash: str, write_id: str | None = None) -> "RecordedEvent":
        """Build an event and compute its hash."""
        return cls.seal_with_bytes(match=match, position=position, kind=kind, version=version,
                                   actor=actor, payload=payload, recorded_at=recorded_at,
                                   recorded_by=recorded_by, prev_hash=prev_hash, write_id=write_id)[0]

    @classmethod
    def seal_with_bytes(cls, *, match: str, position: int, kind: str, version: int, actor: str,
                        payload: dict[str, Any], recorded_at: str, recorded_by: str,
                        prev_hash: str, write_id: str | None = None) -> tuple["RecordedEvent", bytes]:
        """The sealed event and its stored form (canonical JSON of the envelope, hash included).
        A hot path of every append and import: no intermediate event, one encoding pass."""
        parts = envelope_parts(match=match, position=position, kind=kind, version=version, actor=actor,
                               payload=payload, recorded_at=recorded_at, recorded_by=recorded_by,
                               write_id=write_id)
        digest, data = chain(parts, prev_hash)
        return cls(match, position, kind, version, actor, payload, recorded_at, recorded_by,
                   prev_hash, digest, write_id), data

    @property
    def is_judge(self) -> bool:
        return self.actor.startswith(JUDGE_PREFIX)


class EnvelopeParts(NamedTuple):
    """An event's canonical form around its one unknown, the hash of the event before it: what
    can be worked out away from the chain (a bulk import's worker process does it for many events
    at once) before `chain` puts the predecessor's hash in, hashes and stores it."""

    position: int
    head: bytes  # the canonical JSON up to the predecessor's hash: ... ,"prev_hash":"
    tail: bytes  # and after it: ","recorded_at": ... }
    cut: int  # where the stored form says "hash": right after the actor, the first key


_ENC = encode_basestring  # json's own (C) string encoder: what canonical_json writes for a str
_sha256 = hashlib.sha256  # what sha256_hex hashes with
# `new_tuple(Cls, (every field, in order))` makes a NamedTuple without calling the class: its
# generated __new__ is a Python function of its own per class, with keyword handling, which a
# live append fetched cold (its caches flushed by the previous append's fsync) for each of the
# four it makes (Draft, the judged probe, EnvelopeParts, the sealed RecordedEvent). Made so on
# that path, Match.record's simulated cold cost (cachegrind, 4 MiB swept before each append; medians
# of 3 runs) went 594.6k -> 582.2k cycles (issue 17). Defaults are not filled in: give every field.
new_tuple = tuple.__new__


def payload_text(payload: Any) -> str:
    """A payload's canonical JSON, as its envelope holds it (envelope_parts, ManyEnvelopes). A dict
    goes straight through canonical_json's C encoder (what canonical_json does with it, less its own
    call and type test; with the actor's length, envelope_parts went from 2.21 to 2.09 us an event,
    A/B medians: it runs per event of every append and import)."""
    return "".join(c_encode(payload, 0)) if c_encode is not None and type(payload) is dict \
        else canonical_json(payload)


def envelope_parts(*, match: str, position: int, kind: str, version: int, actor: str,
                   payload: dict[str, Any], recorded_at: str, recorded_by: str,
                   write_id: str | None = None) -> EnvelopeParts:
    """The canonical JSON of the hashed fields, written key by key in sorted order (actor, kind,
    match, payload, position, prev_hash, recorded_at, recorded_by, version, write_id): byte for byte
    `canonical_json(event.hashed_fields())` (tests/engine/test_envelope.py checks it on random
    events), cut where the predecessor's hash goes."""
    if type(position) is not int or type(version) is not int:  # what int.__repr__ writes below
        raise TypeError("position and version must be int")
    actor_json = _ENC(actor)
    payload_json = payload_text(payload)
    head = (f'{{"actor":{actor_json},"kind":{_ENC(kind)},"match":{_ENC(match)},'
            f'"payload":{payload_json},"position":{position},"prev_hash":"')
    tail = (f'","recorded_at":{_ENC(recorded_at)},"recorded_by":{_ENC(recorded_by)},"version":{version}'
            + (f',"write_id":{_ENC(write_id)}}}' if write_id is not None else "}"))
    # "hash" goes after '{"actor":' (9 bytes), the actor's JSON and its comma
    actor_bytes = len(actor_json) if actor_json.isascii() else len(actor_json.encode("utf-8"))
    return new_tuple(EnvelopeParts, (position, head.encode("utf-8"), tail.encode("utf-8"), 10 + actor_bytes))



# what follows an event's payload in its envelope's head (envelope_parts), % its position
_AFTER_PAYLOAD = b',"position":%d,"prev_hash":"'


class ManyEnvelopes:
    """`envelope_parts` for many events of one match (a bulk import's chunk), as plain tuples (an
    EnvelopeParts pickles as a call of its class per event). What repeats from event to event is
    written once: the opening up to the payload (actor, kind, match) and the tail after the
    predecessor's hash (time, recorder, version, write id), both taken from `envelope_parts`'s own
    output, so the layout has one source; only the payload and the position are written per
    event. The same tail object each time also pickles once per chunk, then as a reference.
    (Measured: judge/io/importers/_jsonl_workers.py `_draft_range`.)"""

    TAILS = 64  # distinct tails kept: an export's lines each carry their own time, and never repeat

    def __init__(self, match: str):
        self.match = match
        self._openings: dict[tuple[str, str], tuple[bytes, int]] = {}
        self._tails: dict[tuple[str, str, int, str | None], bytes] = {}

    def parts(self, position: int, kind: str, version: int, actor: str, payload: dict[str, Any],
              recorded_at: str, recorded_by: str, write_id: str | None) -> tuple[int, bytes, bytes, int]:
        said = (recorded_at, recorded_by, version, write_id)
        tail = self._tails.get(said)
        # (position and version as int only, else envelope_parts' TypeError: True would find 1's tail)
        if tail is not None and type(position) is int and type(version) is int:
            opening = self._openings.get((kind, actor)) or self._opening(kind, version, actor, recorded_at,
                                                                         recorded_by)
            return position, opening[0] + payload_text(payload).encode("utf-8") + _AFTER_PAYLOAD % position, tail, opening[1]
        # a time, recorder or version not met before (or not kept: an export's lines each carry
        # their own time): the event from envelope_parts itself, its tail kept for the next
        parts = envelope_parts(match=self.match, position=position, kind=kind, version=version, actor=actor,
                               payload=payload, recorded_at=recorded_at, recorded_by=recorded_by,
                               write_id=write_id)
        if tail is None and len(self._tails) < self.TAILS:
            self._tails[said] = parts.tail
        return tuple(parts)  # type: ignore[return-value]

    def _opening(self, kind: str, version: int, actor: str, recorded_at: str, recorded_by: str) -> tuple[bytes, int]:
        """The head of an event of this kind and actor up to its payload (and where its hash goes):
        envelope_parts' head of the same event with an empty payload, cut there."""
        empty = envelope_parts(match=self.match, position=0, kind=kind, version=version, actor=actor,
                               payload={}, recorded_at=recorded_at, recorded_by=recorded_by)
        end = b"{}" + _AFTER_PAYLOAD % 0
        if not empty.head.endswith(end):  # envelope_parts wrote another layout: this class must follow
            raise AssertionError("envelope_parts no longer ends its head with the payload and position")
        opening = self._openings[(kind, actor)] = (empty.head[:-len(end)], empty.cut)
        return opening


def chain(parts: EnvelopeParts, prev_hash: str) -> tuple[str, bytes]:
    """The event's hash once its predecessor's is known, and its stored form: the canonical
    envelope with `"hash"` spliced in after `"actor"` (keys are sorted; "hash" sorts right after
    "actor"). The one step of sealing a bulk import's main process does per event, in order (its
    workers make the parts): sha256 called here directly and the tuple unpacked once, 1.09 ->
    1.06 us an event (A/B medians). The three pieces are fed to the hash in turn rather than
    joined first: no ~1 KB copy, which a live append pays with cold caches right after the
    previous append's fsync (Match.record 1.5-3.3 us less there, median 2.1, in four runs
    alternating event by event with the joined form; warm 1.25-1.27 against 1.29-1.34 us a call)."""
    prev = prev_hash.encode("ascii")
    _, head, tail, cut = parts
    h = _sha256(head)
    h.update(prev)
    h.update(tail)
    digest = h.hexdigest()
    return digest, b"".join((head[:cut], b'"hash":"', digest.encode("ascii"), b'",', head[cut:], prev, tail))


class Draft(NamedTuple):
    """An event not yet stored: validated, but without position, time or hashes. (A tuple: an
    import makes one per line.)"""

    kind: str
    version: int
    actor: str
    payload: dict[str, Any]
    recorded_by: str
    recorded_at: str | None = None  # imports may carry the original time
    write_id: str | None = None  # an import of an export carries the original write's id


_second: tuple[int, str] = (-1, "")  # the last second formatted and its text, as one value (threads)
_time_ns = time.time_ns
# ".000Z" .. ".999Z": the millisecond's text looked up rather than formatted. A live append stamps
# its time right after the previous append's fsync, CPU caches cold, and int formatting's code is
# one more thing to fetch then: 3.1-4.0 -> 2.1-2.3 us with the caches flushed before each call,
# 0.9-1.2 -> 0.6-0.8 warm (alternating in one process; issue 17). Keep the table.
_MILLIS = tuple(f".{i:03d}Z" for i in range(1000))


def now_iso() -> str:
    """Now, in UTC, to the millisecond: `2026-11-22T15:56:40.925Z` (every append stamps one).
    Formatting the date is most of the cost, so the text of the last second is kept."""
    global _second
    ms = _time_ns() // 1_000_000
    seconds = ms // 1000
    last = _second
    if seconds != last[0]:
        last = _second = (seconds, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)))
    return last[1] + _MILLIS[ms % 1000]


def default_recorder_name() -> str:
    """Who is typing: $TABLEJUDGE_USER, else the OS user."""
    return os.environ.get("TABLEJUDGE_USER") or _os_user()


# the names a web link records under (judge.web.auth.Grant.recorded_by): "judge Kim (link 3fa2...)",
# "player link, round 2 table 5"
_LINK_RECORDER = re.compile(r"\(link [^()]+\)$|^player link, ")


def recorder_words(recorded_by: str) -> str:
    """Who recorded an event, as a page or a file for people says it (every web page and the
    replay, report and appeals files; the stored name is left as it is): a web link's name as it
    is; any other name was recorded at a terminal (`log`, `live`, `import`, the desk's commands),
    so it is said as where: "root, at a terminal" (QA77 7 / review: "recorded by root" was the OS
    user, which reads as an account). Whether the name was typed (--by, $TABLEJUDGE_USER) or is the
    OS user's is not in the event."""
    if recorded_on_the_web(recorded_by):
        return recorded_by
    return f"{recorded_by}, at a terminal"


def recorded_on_the_web(recorded_by: str) -> bool:
    """Whether an event was stored through a web link (its recorder is a link's name)."""
    return _LINK_RECORDER.search(recorded_by) is not None


@functools.cache
def _os_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry in some containers
        return "unknown"


# --- the core vocabulary: accepted by every ruleset -------------------------------------------


@event_kind("match.created")
class MatchCreated(Payload):
    """Always event 1: the ruleset, the seats in order, labels and ruleset options."""

    ruleset: str
    players: list[str]
    event: str | None = None
    round: str | None = None
    table: str | None = None
    options: dict[str, Any] | None = None


@event_kind("note")
class Note(Payload):
    """Free text for the record ("judge present", "players shuffled")."""

    text: str


@event_kind("correction")
class Void(Payload):
    """Voids one earlier event: replay plays as if it had not happened. The original stays in the
    log. (A tournament's stream takes only this; a match's log takes `Correction`.)"""

    voids: int
    reason: str


@event_kind("correction")
class Correction(Void):
    """Voids one earlier event; with `instead` (a judge's, of a game event), says what that event
    should have read, `{"kind", "actor", "payload"}` (kind: the voided event's, the default), which
    replay plays in its place (engine/replacing.py). The original stays in the log."""

    instead: dict[str, Any] | None = None


@event_kind("backup")
class Backup(Payload):
    """A judge rewinds the game to just after event `to`: the game events after it, up to this
    one, are backed out (still in the log, marked as such). Judge actions, the clock, result slips,
    notes and corrections in between are not game events and keep counting."""

    to: int
    reason: str


def unsaid_reason(kind: str, payload: dict[str, Any]) -> str | None:
    """Why a new correction or backup is refused for saying no reason (None: it says one). The log
    is read later by someone who was not there, and "()" says nothing. A rule of recording, not of
    the payload's shape: a line an export carries was recorded so elsewhere and is taken as it
    stands (logs from before this rule re-import: EventValidator.draft's `recorded`)."""
    reason = payload.get("reason") if kind in ("correction", "backup") else None
    if isinstance(reason, str) and not reason.strip():
        what = "the event is void" if kind == "correction" else "the game goes back"
        return f"a {kind} needs its reason: say why {what} (e.g. \"misrecorded: 2 cards drawn, not 5\"), got an empty one"
    return None


@event_kind("time.called")
class TimeCalled(Payload):
    """The round's time is over. `clock` is the wall-clock time the judge called it (e.g. "14:35").
    `extra_minutes_over`: not the call itself but, under a policy that gives extra minutes after
    it (optcg `regional`), the judge saying they ran out; recorded once, after the call."""

    clock: str
    note: str | None = None
    extra_minutes_over: bool | None = None


@event_kind("time.decision")
class TimeDecision(Payload):
    """The end-of-time procedure's decision, written by `tablejudge timelimit`: the result, the
    branch of the procedure taken, and the steps in words (quoting the rule). `based_on` and
    `state_hash`: the last event the decision considered and the table's state hash then, which
    `tablejudge verify` replays again and compares. `facts`: for a match nobody recorded event by
    event, what the judge read off the table (`timelimit --facts`), from which the decision was made."""

    result: str  # win | draw | double-loss | continue
    branch: str
    steps: list[str]
    rule: str
    winner: str | None = None
    policy: str | None = None
    based_on: int | None = None
    state_hash: str | None = None
    facts: str | None = None  # a table nobody recorded: what the judge read off it (engine/timefacts.py)


# Every ruleset accepts these. Add a core kind here, once, for all rulesets.
CORE_KINDS: dict[str, type[Payload]] = {
    k.kind: k for k in (MatchCreated, Note, Correction, Backup, TimeCalled, TimeDecision)
}

# The judge's desk (judge actions, match clock, result slip) is core too; see engine/desk.py.
from engine.desk import DESK_KINDS

CORE_KINDS.update({k.kind: k for k in DESK_KINDS})
