"""A judge's replace form: "event N should have read X" (engine/replacing.py) on the web.

The form (`GET /m/ID/replace?event=N`) is filled from event N as this link may see it (a page's
hidden-information rule, judge.replay.timeline.hide_event; a judge's or the organizer's link sees
the log as recorded): its kind, its actor and one box per field of its kind, those N gave filled
in, the others empty (not given). A box holds a value as `tablejudge log M KIND --FIELD VALUE`
takes it (text as typed, a number, a list with commas, true or false, an object as JSON) and is
read back by the same `parse_field_args`: the terminal and the web read a field alike.

Submitted (`replace`, a match action: judge_match, so a judge's or the organizer's link only), the
correction with `instead` goes through `carddb.typed_payload` and `Match.record`, as `tablejudge
log M correction --voids N --instead JSON` does: the same card-name resolver (a Leader field among
the Leaders), the same validator, the same refusal in the same words (`str(InputError)`: "field
'payload.instead.kind': ..."), nothing stored. The correction's actor is the link's judge.
"""
from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal, get_args, get_origin

from engine.desk import describer
from engine.events import RecordedEvent
from engine.match import InputError, Match
from engine.replacing import WHERE, describe, replacement_field
from engine.schema import Count, Player, PositiveCount
from judge.cli.fieldargs import parse_field_args
from judge.io.carddb import typed_payload
from judge.replay.timeline import hide_event
from judge.web.actions import number
from judge.web.auth import Grant

PAYLOAD = "payload."  # a box of the replacement's payload: `payload.count` (inside `instead`)


def event_at(m: Match, position: int) -> RecordedEvent:
    found = m.store.event_at(m.id, position) if position >= 1 else None
    if found is None:
        raise InputError(f"match {m.id} has no event {position} (it holds events 1..{m.head_position()})",
                         field="event")
    return found


def box_text(value: Any) -> str:
    """A stored value as `--FIELD VALUE` takes it back (fieldargs._coerce): the box's text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool)
                                       and "," not in str(v) for v in value):
        return ", ".join(str(v) for v in value)
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else str(value)


def _hint(tp: Any, players: list[str]) -> str:
    """What a box takes, said as its placeholder."""
    if get_origin(tp) in (typing.Union, types.UnionType):
        tp = next((a for a in get_args(tp) if a is not type(None)), tp)
    if tp is Player:
        return " or ".join(players)
    if tp in (int, Count, PositiveCount):
        return "a whole number"
    if tp is bool:
        return "true or false"
    if get_origin(tp) is Literal:
        return " / ".join(str(a) for a in get_args(tp))
    if get_origin(tp) is list:
        return "comma-separated"
    if get_origin(tp) is dict:
        return "a JSON object"
    return ""


def form_of(m: Match, g: Grant, e: RecordedEvent, typed: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the form shows for event `e`: kind, actor and its kind's fields, each with its box's
    text (from `typed`, a refused form's own boxes, else from the event as this link sees it)."""
    seen = e if g.full_view else hide_event(m, e)
    vocab = m.ruleset.vocabulary()
    hints = vocab[e.kind]._hints if e.kind in vocab else {}
    fields = []
    for name, tp in hints.items():
        box = PAYLOAD + name
        value = typed.get(box, "") if typed is not None else box_text(seen.payload.get(name))
        fields.append({"name": name, "box": box, "value": value if isinstance(value, str) else box_text(value),
                       "given": name in seen.payload, "hint": _hint(tp, m.players)})
    fields.sort(key=lambda x: not x["given"])  # what N said first; the rest may be added

    def pick(key: str, default: str) -> str:
        v = (typed or {}).get(key)
        return v if isinstance(v, str) else default
    return {"position": e.position, "recorded_kind": e.kind, "kind": pick("kind", e.kind),
            "actor": pick("actor", seen.actor), "reason": pick("reason", ""), "fields": fields,
            "text": describer(m.ruleset.describe)(seen)}


def instead_of(m: Match, target: RecordedEvent, f: dict[str, Any]) -> dict[str, Any]:
    """The replacement the form says: its kind and actor as typed (the validator judges them), its
    payload read from the boxes of the target's kind as `log --FIELD VALUE` reads them."""
    vocab = m.ruleset.vocabulary()
    words: list[str] = []
    for key, value in f.items():
        if key.startswith(PAYLOAD) and value not in (None, ""):
            words += ["--" + key[len(PAYLOAD):], value if isinstance(value, str) else box_text(value)]
    try:
        payload = parse_field_args(vocab[target.kind], words) if target.kind in vocab else {}
    except InputError as e:  # named as the validator names a replacement's field
        raise InputError(e.message, field=replacement_field(e.field)) from None
    kind = f.get("kind") if f.get("kind") not in (None, "") else target.kind
    # an actor left out is the validator's to refuse ("instead needs 'actor'"), in its words
    return {"kind": kind, **({"actor": f["actor"]} if "actor" in f else {}), "payload": payload}


def replace(m: Match, g: Grant, f: dict[str, Any]) -> dict[str, Any]:
    """Record the correction the form says; InputError (nothing stored) names the field."""
    voids = number(f, "voids", low=1, high=10**9)
    # the reason as sent (a missing one is the validator's refusal, as `log` without --reason)
    payload = {"voids": voids, **({"reason": f["reason"]} if "reason" in f else {}),
               "instead": instead_of(m, event_at(m, voids), f)}
    payload, notes, notices = typed_payload(m, "correction", payload)
    rec = m.record("correction", payload, actor=g.match_actor, recorded_by=g.recorded_by)
    said = describe(rec.event, describer(m.ruleset.describe)) or ""
    # how a card's name was narrowed, and what the correction changed beyond its event (a time
    # decision now out of date), are said with it, as the recorder's undo says them; so is a card
    # number the card data lacks (a typo?), to this link only (the flash is its own)
    more = ("".join(f"; = {n}" for n in notes) + "".join(f"; notice: {n}" for n in notices)
            + "".join(f"; {x.message}" for x in rec.findings))
    return {"message": f"{said} — recorded as correction #{rec.event.position}; event {voids} stays in the "
                       f"log{more}",
            "position": rec.event.position, "voids": voids, "notes": notes, "notices": notices,
            "findings": [x.to_dict() for x in rec.findings]}


def refusal(m: Match, g: Grant, e: RecordedEvent) -> InputError | None:
    """Why event `e` cannot be replaced at all (event 1, a correction, a backup, an off-table event),
    asked of the validator itself: a draft of `e` replaced by itself, nothing stored. None: it can
    (what the form then says is judged when it is sent)."""
    try:
        m.draft("correction", {"voids": e.position, "reason": "(can it be replaced?)", "instead": {
            "kind": e.kind, "actor": e.actor, "payload": dict(e.payload)}}, actor=g.match_actor)
    except InputError as err:
        return err if err.field in ("payload.voids", WHERE) else None
    return None


def box_of(field: str) -> str:
    """The form's box a refusal's field names: `payload.instead.payload.count` -> `payload.count`,
    `payload.instead.actor` -> `actor`, `payload.reason` -> `reason`; "" for the form as a whole."""
    if field.startswith(WHERE + "."):
        return field[len(WHERE) + 1:]
    if field in ("payload.reason", "payload.voids"):
        return field[len(PAYLOAD):]
    return field if field in ("voids", "reason", "event") else ""
