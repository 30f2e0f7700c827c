"""Checking evidence: a match verified in full, anchors, and seals.

- `verify_match`: the store's chain and guard check, then a full replay that compares every
  snapshot with the state it claims to be, and rechecks the state hash every recorded decision
  (`time.decision`) says it was based on: edited (tampered), or out of date after a later
  correction (STALE, engine/decisions.py).
- Anchors: a head hash that left the log (a slip, a report, an export, a terminal) as
  `tj-anchor:STREAM@POSITION:HASH`. `check_anchor` proves the log still holds it as a prefix: the
  event is there with that hash, and the chain up to it holds. A deleted tail or a deleted match
  cannot escape it.
- Seals: one hash over a set of stream heads (a tournament round: the tournament's head and every
  match's), `tj-seal:SCOPE:HASH`. `check_seal` recomputes it and checks every head it covers.

Nothing here knows a game or a tournament: judge/tournament decides what a round seal covers.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from engine.canonical import canonical_bytes, sha256_hex
from engine.decisions import StaleDecision, stale_decisions
from engine.events import RecordedEvent
from engine.replay import SNAPSHOT_EVERY, Replayer
from engine.store import EventStore, MatchNotFound, VerifyReport, anchor_token, split_snapshot

ANCHOR_RE = re.compile(r"tj-anchor:([A-Za-z0-9._~%-]+)@(\d{1,12}):([0-9a-f]{64})")
SEAL_RE = re.compile(r"tj-seal:([A-Za-z0-9._~%-]+)/([A-Za-z0-9._~%-]+):([0-9a-f]{64})")
HASH_RE = re.compile(r"^[0-9a-f]{64}$")
MAX_ANCHOR_FILE = 64 * 1024 * 1024


# --- a match in full -------------------------------------------------------------------------

def verify_match(store: EventStore, match: str, *, events: Sequence[RecordedEvent] | None = None,
                 stale: Mapping[int, StaleDecision] | None = None) -> VerifyReport:
    """Chain and guard (engine/store.py), then, if the chain holds, a full replay: every snapshot
    compared with the replayed state at its position, and every decision's state hash rechecked.
    `events`, `stale`: the whole log and its stale decisions, where the caller (a report, after its
    review) has them already: neither is read or replayed again."""
    report = store.verify(match)
    if report.first_break is not None:
        return report
    created = store.created(match)
    if created.kind != "match.created":
        return report  # a tournament or the log's own stream: no table to replay
    try:
        replayer = Replayer(store, match)
    except (LookupError, ValueError) as e:
        report.fail(f"cannot replay: {str(e)[:120]}")
        return report
    _check_snapshots(store, replayer, report)
    _check_decisions(replayer, report, events, stale)
    return report


def _check_snapshots(store: EventStore, replayer: Replayer, report: VerifyReport) -> None:
    rows = store.all_snapshots(replayer.match)
    current = store.snapshot_key_id(replayer.key)
    mine = {pos: data for key, pos, data in rows if key == current}
    other = len(rows) - len(mine)
    if mine:
        replayed: dict[int, str] = {}  # position -> the replayed table's state hash

        def look(state: Any) -> None:
            if state.position in mine:
                replayed[state.position] = state.state_hash()

        events = store.read(replayer.match)
        replayer.fold(None, 1, events[1:], after_each=look)
        hashes = {e.position: e.hash for e in events}
        bad = 0
        for pos, data in sorted(mine.items()):
            problem = _snapshot_problem(pos, data, hashes.get(pos), replayed.get(pos, ""))
            if problem:
                bad += 1
                report.fail(f"snapshot at event {pos}: {problem}")
        report.checked.append(f"{len(mine)} snapshot{'s' if len(mine) != 1 else ''} compared with a full "
                              f"replay ({len(mine) - bad} match{'es' if len(mine) - bad != 1 else ''})")
    if other:
        report.checked.append(f"{other} snapshot{'s' if other != 1 else ''} of another ruleset version, "
                              "options or snapshot format: never used, so not compared")


def _snapshot_problem(position: int, data: bytes, event_hash: str | None, replayed: str) -> str | None:
    try:  # read as `state` reads it (engine/store.py): the hash of the state's bytes as stored
        d, state_bytes = split_snapshot(data)
        if type(json.loads(state_bytes)) is not dict:
            raise ValueError("not a state")
        stated = sha256_hex(state_bytes)
    except (ValueError, KeyError, TypeError):
        return "cannot be read (it is never used)"
    if event_hash is None:
        return "stands at an event the log does not hold"
    if d.get("event_hash") != event_hash:
        return "names another event than the log's (a forged or stale snapshot; it is never used)"
    if d["hash"] != stated:
        return "its state does not match its own state hash (edited; it is never used)"
    if position % SNAPSHOT_EVERY:
        return f"stands where replay never saves one (not a multiple of {SNAPSHOT_EVERY}; never used)"
    if stated != replayed:
        return ("its state differs from the replayed table (forged or corrupt: `state` may have shown "
                "it; the replayed table is the truth)")
    return None


def _check_decisions(replayer: Replayer, report: VerifyReport, events: Sequence[RecordedEvent] | None = None,
                     stale: Mapping[int, StaleDecision] | None = None) -> None:
    """Each decision's recorded basis against the log as recorded then (a difference: an edit, of
    the decision or of the log), then against the log as corrected since (a difference: a later
    correction changed the table it judged, so it is STALE until a new decision supersedes it)."""
    events = events if events is not None else replayer.store.read(replayer.match)
    decisions = [e for e in events if e.kind == "time.decision" and "state_hash" in e.payload]
    tampered = set()
    bases = {}  # based_on -> the table as recorded then: replayed once, for the hash and for staleness
    for e in decisions:
        basis = e.payload.get("based_on", e.position - 1)
        try:
            bases[basis] = replayer.decision_basis(events, basis)
            got = bases[basis].state_hash()
        except (LookupError, ValueError) as err:
            report.fail(f"event {e.position} (time.decision): its basis cannot be replayed ({str(err)[:80]})")
            tampered.add(e.position)
            continue
        if got != e.payload["state_hash"]:
            tampered.add(e.position)
            report.fail(f"event {e.position} (time.decision) was decided on a table with state hash "
                        f"{e.payload['state_hash'][:16]}..., but replaying events 1..{basis} gives "
                        f"{got[:16]}...: the decision rests on a table the log does not give (tampered: "
                        "the decision or the log was edited)")
    if stale is None:
        stale = stale_decisions(replayer, events, bases=bases)
    for pos, s in stale.items():
        if pos in tampered:
            continue
        if s.superseded_by is None:
            report.stale.append(pos)
            why = "" if s.call is not None else f", which changed the table it judged (events 1..{s.based_on})"
            report.fail(f"event {pos} (time.decision) is STALE: {s.words()}{why}; "
                        f"decide again: {s.redo(replayer.match)}")
        else:
            report.checked.append(f"event {pos} (time.decision) is stale ({s.words()}), superseded by the "
                                  f"decision at event {s.superseded_by}")
    if decisions:
        report.checked.append(f"{len(decisions)} time decision{'s' if len(decisions) != 1 else ''}: "
                              "the table each was based on replayed and its state hash compared, as "
                              "recorded and as corrected since")


# --- anchors ---------------------------------------------------------------------------------

@dataclass
class Anchor:
    stream: str | None  # None: a bare hash (the stream is found by searching the log)
    position: int | None
    hash: str
    source: str = ""

    def token(self) -> str:
        return anchor_token(self.stream or "?", self.position or 0, self.hash)


@dataclass
class AnchorResult:
    anchor: Anchor
    ok: bool
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"anchor": self.anchor.token() if self.anchor.stream else self.anchor.hash,
                "stream": self.anchor.stream, "position": self.anchor.position, "ok": self.ok,
                "message": self.message, "source": self.anchor.source}


class AnchorInputError(ValueError):
    """What was given as an anchor holds none."""


def parse_anchor_arg(value: str) -> list[Anchor]:
    """`--anchor VALUE`: a tj-anchor token, a bare 64-hex hash, or a FILE holding anchors."""
    value = value.strip()
    m = ANCHOR_RE.fullmatch(value)
    if m:
        return [Anchor(unquote(m.group(1)), int(m.group(2)), m.group(3), "argument")]
    if HASH_RE.match(value.lower()):
        return [Anchor(None, None, value.lower(), "argument")]
    if os.path.isfile(value):
        return anchors_in_file(value)
    raise AnchorInputError(f"{value[:80]!r} is neither an anchor (tj-anchor:MATCH@N:HASH), a 64-digit "
                           "hash, nor a file")


def anchors_in_file(path: str) -> list[Anchor]:
    """Every anchor a file holds: tj-anchor tokens anywhere (reports, slips, saved output), else a
    JSONL or CSV export's events (each match's last event is its head)."""
    if os.path.getsize(path) > MAX_ANCHOR_FILE:
        raise AnchorInputError(f"{path}: larger than {MAX_ANCHOR_FILE // (1024 * 1024)} MB; give the anchor itself")
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    found = [Anchor(unquote(m.group(1)), int(m.group(2)), m.group(3), path) for m in ANCHOR_RE.finditer(text)]
    if not found:
        found = _export_heads(text, path)
    if not found:
        raise AnchorInputError(f"{path} holds no anchor (no tj-anchor token, and not a JSONL or CSV export)")
    unique: dict[tuple, Anchor] = {}
    for a in found:
        unique.setdefault((a.stream, a.position, a.hash), a)
    return list(unique.values())


def _export_heads(text: str, path: str) -> list[Anchor]:
    heads: dict[str, Anchor] = {}

    def take(match: Any, position: Any, hash_: Any) -> None:
        try:
            pos = int(position)
        except (TypeError, ValueError):
            return
        if isinstance(match, str) and isinstance(hash_, str) and HASH_RE.match(hash_):
            if match not in heads or heads[match].position < pos:  # type: ignore[operator]
                heads[match] = Anchor(match, pos, hash_, path)

    first = text.lstrip()[:1]
    if first == "{":
        for line in text.splitlines():
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if isinstance(d, dict):
                take(d.get("match"), d.get("position"), d.get("hash"))
    elif text.startswith(("match,", "\ufeffmatch,")):
        for row in csv.DictReader(io.StringIO(text.lstrip("\ufeff"))):
            take(row.get("match"), row.get("position"), row.get("hash"))
    return list(heads.values())


def check_anchor(store: EventStore, anchor: Anchor) -> AnchorResult:
    if anchor.stream is None:
        hits = store.find_hash(anchor.hash)
        if not hits:
            return AnchorResult(anchor, False, f"no event of this log has hash {anchor.hash[:16]}...: "
                                "the event was removed, or the hash belongs to another log")
        anchor = Anchor(hits[0].match, hits[0].position, anchor.hash, anchor.source)
    problem = store.holds(anchor.stream, anchor.position, anchor.hash)  # type: ignore[arg-type]
    if problem:
        return AnchorResult(anchor, False, problem)
    return AnchorResult(anchor, True, f"{anchor.stream} still holds event {anchor.position} with this "
                                      "hash, and the chain up to it")


# --- seals -----------------------------------------------------------------------------------

def seal_hash(scope: str, heads: list[dict[str, Any]]) -> str:
    """One hash over a set of stream heads ({stream, position, hash}), for `scope` (what is sealed)."""
    return sha256_hex(canonical_bytes({"scope": scope, "heads": heads}))


def seal_token(stream: str, label: str, seal: str) -> str:
    return f"tj-seal:{quote(stream, safe='')}/{quote(label, safe='')}:{seal}"


def parse_seal_tokens(text: str) -> list[tuple[str, str, str]]:
    """(stream, label, seal hash) of every tj-seal token in a text."""
    return [(unquote(m.group(1)), unquote(m.group(2)), m.group(3)) for m in SEAL_RE.finditer(text)]


@dataclass
class SealResult:
    stream: str
    label: str
    seal: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    heads: int = 0
    # Stale: what it covers is all still in the log, but what it sealed was changed after it (a
    # late correction): the words say what changed. A later seal that covers the change supersedes
    # it (`superseded_by`: that seal's event position and token).
    stale: str = ""
    superseded_by: int | None = None
    superseded_token: str = ""
    position: int | None = None  # the seal's own event

    def to_dict(self) -> dict[str, Any]:
        d = {"seal": seal_token(self.stream, self.label, self.seal), "stream": self.stream,
             "round": self.label, "ok": self.ok, "heads": self.heads, "problems": self.problems,
             "stale": self.stale or None}
        if self.position is not None:
            d["event"] = self.position
        if self.superseded_by is not None:
            d["superseded_by"] = {"event": self.superseded_by, "seal": self.superseded_token}
        return d


def check_seal(store: EventStore, stream: str, label: str, scope: str, heads: list[dict[str, Any]],
               seal: str) -> SealResult:
    """Recompute the seal from its heads, and check the log still holds every head as a prefix
    (whole streams included: a removed match fails here)."""
    result = SealResult(stream, label, seal, True, heads=len(heads))
    if seal_hash(scope, heads) != seal:
        result.ok = False
        result.problems.append("the seal does not match the heads it lists (the seal event was edited)")
    for h in heads:
        try:
            problem = store.holds(str(h["stream"]), int(h["position"]), str(h["hash"]))
        except (KeyError, TypeError, ValueError):
            problem = f"a head of the seal cannot be read: {str(h)[:80]}"
        except MatchNotFound as e:
            problem = str(e)
        if problem:
            result.ok = False
            result.problems.append(problem)
    return result
