"""`tablejudge verify` as a library function: the streams asked for (matches in full, tournaments
with their results and seals, the log's own incident stream), anchors, seals, and the guard's
repair. Each part says what it checked and what failed; `cannot_know` says what no check here
can show (engine/store.py's UNKNOWABLE).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from engine.integrity import (
    HASH_RE,
    SEAL_RE,
    AnchorInputError,
    AnchorResult,
    SealResult,
    check_anchor,
    parse_anchor_arg,
    parse_seal_tokens,
    verify_match,
)
from engine.match import InputError
from engine.store import CONTENT_CHANGED, MATCH_CREATED, UNKNOWABLE, EventStore, MatchNotFound, VerifyReport

from judge.tournament import seal as seals
from judge.tournament.vocab import CREATED as TOURNAMENT_CREATED


@dataclass
class Verification:
    streams: list[VerifyReport] = field(default_factory=list)
    anchors: list[AnchorResult] = field(default_factory=list)
    seals: list[SealResult] = field(default_factory=list)
    repair: dict[str, Any] | None = None
    guard_detail: str = ""

    @property
    def ok(self) -> bool:
        return (all(r.ok for r in self.streams) and all(a.ok for a in self.anchors)
                and all(s.ok for s in self.seals))

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "streams": [r.to_dict() for r in self.streams],
                "anchors": [a.to_dict() for a in self.anchors], "seals": [s.to_dict() for s in self.seals],
                "repair": self.repair, "append_only_detail": self.guard_detail,
                "cannot_know": list(UNKNOWABLE)}


def verify_stream(store: EventStore, stream: str) -> VerifyReport:
    """One stream, by what it is: a match in full; a tournament with its results' bases and its
    seals; anything else (the log's incident stream) by its chain."""
    try:
        kind = store.created(stream).kind
    except MatchNotFound:
        kind = ""  # its first event is gone: the chain check names it
    if kind == MATCH_CREATED:
        return verify_match(store, stream)
    report = store.verify(stream)
    if kind == TOURNAMENT_CREATED and report.first_break is None:
        events = store.read(stream)
        problems, checked = seals.check_results(store, events)
        for p in problems:
            report.fail(p)
        if checked:
            report.checked.append(f"{checked} match result{'s' if checked != 1 else ''} recorded from "
                                  "matches: each match still holds the head it was based on, and "
                                  "replays to the same table")
        sealed = [e for e in events if e.kind == seals.SEALED]
        fresh = _Freshness(store, {stream: events})
        for e in sealed:
            result = fresh.mark(seals.check(store, e), e, explicit=False)
            for p in result.problems:
                report.fail(f"seal of round {result.label} (event {e.position}): {p}")
            if result.stale and not result.ok and not result.problems:
                report.fail(f"seal of round {result.label} (event {e.position}) is stale: {result.stale}; "
                            f"seal it again: tablejudge tournament seal {stream} --round {result.label}")
        if sealed:
            report.checked.append(f"{len(sealed)} round seal{'s' if len(sealed) != 1 else ''}: recomputed, "
                                  "every head each covers is still in the log, and each round's latest "
                                  "seal still matches its results")
    return report


class _Freshness:
    """Marks seals stale whose round's results changed after them (each tournament folded once)."""

    def __init__(self, store: EventStore, read: dict[str, list[Any]] | None = None):
        """`read`: tournaments' events the caller has read already (not read again)."""
        self.store = store
        self._read = read or {}
        self._folded: dict[str, tuple[Any, list[Any]]] = {}

    def mark(self, result: SealResult, event: Any, *, explicit: bool) -> SealResult:
        """`explicit`: this very seal was asked about (a token, a hash, a file: a printed page), so
        a stale one fails even when a later seal supersedes it (the page is out of date). Asked
        for a whole tournament, a superseded seal is history: reported, not failed."""
        if event.match not in self._folded:
            from judge.tournament.state import replay
            events = self._read.get(event.match) or self.store.read(event.match)
            self._folded[event.match] = (replay(events), events)
        st, events = self._folded[event.match]
        result.position = event.position
        words, resealed = seals.staleness(st, event, events)
        if words:
            result.stale = words
            if resealed is not None:
                result.superseded_by = resealed
                result.superseded_token = seals.token(event.match, st.seals[event.payload["round"]])
            if resealed is None or explicit:
                result.ok = False
        return result


def resolve_stream(store: EventStore, ref: str) -> str:
    """A match or tournament id (or an unambiguous prefix), or a stream id as stored."""
    if store.event_at(ref, 1) is not None or store.head(ref) is not None:
        return ref
    try:
        return store.resolve(ref)
    except MatchNotFound:
        hits = [t for t in store.stream_ids(TOURNAMENT_CREATED) if t.startswith(ref)] if len(ref) >= 3 else []
        if len(hits) == 1:
            return hits[0]
        raise


def seals_for(store: EventStore, value: str) -> list[SealResult]:
    """`--seal VALUE`: all (no value), a seal token or bare seal hash (from a printed page), a
    tournament id, or a file holding seal tokens (a standings page, a round report)."""
    fresh = _Freshness(store)
    if value == "all":
        return [fresh.mark(seals.check(store, e), e, explicit=False) for e in seals.seal_events(store)]
    tokens = parse_seal_tokens(value) if SEAL_RE.fullmatch(value.strip()) else []
    wanted: list[tuple[str | None, str | None, str]] = [(t, r, h) for t, r, h in tokens]
    if not wanted and HASH_RE.match(value.strip().lower()):
        wanted = [(None, None, value.strip().lower())]
    if not wanted and os.path.isfile(value):
        with open(value, "rb") as f:
            wanted = [(t, r, h) for t, r, h in parse_seal_tokens(f.read(64 * 1024 * 1024).decode("utf-8", "replace"))]
        if not wanted:
            raise InputError(f"{value} holds no seal (tj-seal:TOURNAMENT/ROUND:HASH)", field="seal")
    if not wanted:
        tournament = value.strip()
        if tournament in store.stream_ids(TOURNAMENT_CREATED):
            found = seals.seal_events(store, tournament)
            if not found:
                raise InputError(f"tournament {tournament} has no sealed round yet", field="seal")
            return [fresh.mark(seals.check(store, e), e, explicit=False) for e in found]
        raise InputError(f"{value[:80]!r} is neither a seal (tj-seal:...), a seal hash, a tournament, "
                         "nor a file", field="seal")
    out: list[SealResult] = []
    for tournament, label, hash_ in dict.fromkeys(wanted):
        hits = seals.find(store, hash_)
        if hits:
            out.extend(fresh.mark(seals.check(store, e), e, explicit=True) for e in hits)
        else:
            out.append(SealResult(tournament or "?", label or "?", hash_, False, [
                "no seal with this hash is in the log: the seal event (or the tournament's events "
                "from it on) was removed, or the seal belongs to another log"]))
    return out


def _compare_with_export(store: EventStore, reports: list[VerifyReport], path: str) -> None:
    """An edited event's hash says only that it changed; a JSONL export holding it says what:
    each field that differs, as exported and as stored now."""
    edited = {(r.match, r.first_break.position): r for r in reports
              if r.first_break is not None and r.first_break.reason == CONTENT_CHANGED}
    if not edited or os.path.getsize(path) > 64 * 1024 * 1024:
        return
    with open(path, "rb") as f:
        for line in f:
            try:
                d = json.loads(line)
            except ValueError:
                return  # not a JSONL export (a report, a slip): nothing to compare
            key = (d.get("match"), d.get("position")) if isinstance(d, dict) else None
            if key in edited:
                stored = store.event_at(*key)
                if stored is not None:
                    diffs = _differences(d, stored.to_dict())
                    edited[key].fail(f"event {key[1]} compared with {path}: " + ("; ".join(diffs) or
                                     "no field differs from the export (the export was taken after the edit)"))


def _differences(was: Any, now: Any, where: str = "") -> list[str]:
    """Fields (dotted paths) that differ between an exported envelope and the stored one."""
    if isinstance(was, dict) and isinstance(now, dict):
        return [d for k in sorted(set(was) | set(now), key=str)
                if k not in ("hash", "description", "voided") or where
                for d in _differences(was.get(k), now.get(k), f"{where}.{k}" if where else str(k))]
    if was == now:
        return []
    return [f"{where} was {json.dumps(was, ensure_ascii=True)[:120]}, now {json.dumps(now, ensure_ascii=True)[:120]}"]


def verify(store: EventStore, refs: list[str], *, all_streams: bool = False,
           anchors: list[str] | tuple[str, ...] = (), seal_values: list[str] | tuple[str, ...] = (),
           repair: bool = False, recorded_by: str | None = None) -> Verification:
    if not (refs or all_streams or anchors or seal_values or repair):
        raise InputError("nothing to verify: name a match or tournament, or use --all, --anchor, --seal "
                         "or --repair")
    out = Verification()
    ids = store.all_stream_ids() if all_streams or repair else [resolve_stream(store, r) for r in refs]
    out.streams = [verify_stream(store, s) for s in dict.fromkeys(ids)]
    for value in anchors:
        try:
            parsed = parse_anchor_arg(value)
        except AnchorInputError as e:
            raise InputError(str(e), field="anchor") from None
        out.anchors.extend(check_anchor(store, a) for a in parsed)
    for value in seal_values:
        out.seals.extend(seals_for(store, value))
    for value in anchors:
        if os.path.isfile(value):
            _compare_with_export(store, out.streams, value)
    if repair:
        findings = [f"{r.match}: {p}" for r in out.streams for p in r.problems
                    if not p.startswith("the append-only guard")]
        broken = [{"stream": r.match, "position": r.first_break.position, "reason": r.first_break.reason}
                  for r in out.streams if r.first_break is not None]
        out.repair = store.repair_guard(recorded_by=recorded_by, findings=findings, broken=broken,
                                        heads={r.match: r.stored_head for r in out.streams}) or {"event": None}
        out.streams = [verify_stream(store, s) for s in store.all_stream_ids()]
    out.guard_detail = store.guard.summary()
    return out
