"""The notation of `ken` (Ken il Guerriero). Cards in play are named by their instance id (c10),
cards in the hand by their code (M-KEN); phases are `/name` (any unique prefix: `/o`, `/pres`).

    A: deck cards=[{...}]                   deck.register (card facts: JSON, prepared before play)
    T3 A:                                   turn 3 (the number is written into the event)
    A: /order 3 · A: /disengage · A: /draw  phase (the Order phase with the green points counted)
    A: draw / draw 3 / draw M-KEN ?         draw (seen cards first, ? for unseen; effect=)
    A: disengage [c6 c9]                    disengage (all cards, or these)
    A: play L-VIL E-VIL                     play: cards together (an Inhabited Location and its Army)
    A: play T-HYA@c10 · A: play M-KEN+c10   ...assigned to c10 / a Life stacked on c10 (@#1: this play's 1st)
    A: hand>past [N] [CODE|#uid]            move (effect="...")
    A: shuffle future · A: top c10          shuffle, life.top
    A: attack c10>c25 !c3,c6,c9>c23         combat.attack: CARDS>TARGET per group (!commander)
    B: defend c26>c25 c24>c23 / B: defend   combat.defend (no groups: no defence)
    dmg c25 5 uses=c7 ko=c26 / 4 ko=-       combat.damage: TARGET, attacker side / defender side
    endcombat c25,c23 11-4                  combat.end: conquered (- none, ? not said), Order points A-B
    A: ability c10 "Hyakuretsu" 2 Hokuto    ability: uid name [lives] [school] ["text"]
    A: points 2 BATTAGLIA                   order.points: add effect [for_card]
    A: effect SORPRESA "result" uid=c4      effect
    A: victory · A: concede                 victory.declare, concede
"""
from __future__ import annotations

import re
from typing import Any

from engine.notation import Grammar, NotationError, Token, Verb, bare_ok, quote
from engine.notation.forms import (
    draw_payload,
    format_draw,
    format_move,
    format_phase,
    parse_move,
    parse_phase,
    phase_verbs,
    read_seat_numbers,
    seat_numbers,
    with_event,
)

PHASES = ("order", "disengage", "draw", "presentation", "combat", "epilogue")
_ID = r"[^\s,>!@+/{}\"=\[\]·;]+"
_GROUP = re.compile(rf"(?:!({_ID}),?)?((?:{_ID},)*{_ID})?>({_ID})")
_ENTRY = re.compile(rf"([^\s@+\"]+?)(?:@({_ID}))?(?:\+({_ID}))?")
_SCORE = re.compile(r"\d+(?:-\d+)+")
SIDE_KEYS = {"uses": "uses", "ko": "vanquished", "effects": "effects", "waves": "waves",
             "lethal": "lethal", "massacre": "massacre"}


# --- the grammar --------------------------------------------------------------------------------


class KenGrammar(Grammar):
    turn_kind = "turn"
    verbs = phase_verbs(PHASES, ("green",), "") + (
        Verb("phase", "phase", ("name", "green"), doc="phase NAME [GREEN] (or /NAME)"),
        Verb("deck", "deck.register", doc="A: deck cards=[{\"code\":...,\"count\":N,...}]: the deck and its card facts"),
        Verb("draw", "draw", ("count",), rest="cards", doc="A: draw [N] [CODE... ?] (effect=)"),
        Verb("disengage", "disengage", rest="units", doc="A: disengage [UID...]: straighten (all, or these)"),
        Verb("shuffle", "shuffle", ("zone",), doc="A: shuffle ZONE"),
        Verb("top", "life.top", ("uid",), doc="A: top UID: which Life card is on top"),
        Verb("ability", "ability", ("uid", "name", "lives", "school", "text"),
             doc="A: ability UID NAME [LIVES] [SCHOOL] [\"text\"]: a Capacità Speciale"),
        Verb("points", "order.points", ("add", "effect", "for_card"), doc="A: points N EFFECT [FOR_CARD]"),
        Verb("effect", "effect", ("name", "result"), doc="A: effect NAME [\"result\"] (uid=)"),
        Verb("victory", "victory.declare", doc="A: victory: declare victory in the Order phase"),
    )
    custom_verbs = {
        "play": "A: play CODE... (CODE@HOST assigns, CODE+UID stacks a Life; effect=)",
        "attack": "A: attack CARDS>TARGET ...: combat.attack (c6,c9>c23; !c3 the commander)",
        "defend": "B: defend CARDS>TARGET ...: combat.defend (nothing after: no defence)",
        "dmg": "dmg TARGET DAMAGE [uses= ko= waves= lethal= massacre= effects=] / DAMAGE [...]",
        "endcombat": "endcombat [CONQUERED|-|?] [N-N]: combat.end (Order points in seat order)",
        "FROM>TO": "A: hand>past [N] [CODE|#uid] (effect=): a move",
    }

    def parse_custom(self, toks, actor, ctx):
        head = toks[0]
        phase = parse_phase(self, toks, actor, ctx, PHASES, ("green",))  # None for anything but a /word
        if phase is not None or head.type != "word":
            return phase
        word = head.value
        if word == "draw" and len(toks) > 1 and all(t.type in ("word", "str") for t in toks[1:]) \
                and not (toks[1].type == "word" and toks[1].value.isdigit()):
            return "draw", draw_payload(toks[1:], actor, ctx)
        if word == "play":
            return "play", self._parse_play(toks, actor, ctx)
        if word in ("attack", "defend"):
            return "combat." + word, self._parse_groups(toks, actor, ctx)
        if word == "dmg":
            return "combat.damage", self._parse_damage(toks)
        if word == "endcombat":
            return "combat.end", self._parse_end(toks, actor, ctx)
        if ">" in word:
            kind, p = parse_move(toks, actor, ctx, extra={"effect": str})  # type: ignore[misc]
            if "card" in p:
                p["code"] = p.pop("card")
            return kind, p
        return None

    # play L-VIL E-VIL · play T-HYA@c10 · play M-KEN+c10
    def _parse_play(self, toks, actor, ctx) -> dict:
        cards: list[dict[str, Any]] = []
        kvs = []
        for t in toks[1:]:
            if t.type == "kv":
                kvs.append(t)
            elif t.type == "str":
                cards.append({"code": t.value})
            elif t.type == "word":
                m = _ENTRY.fullmatch(t.value)
                if not m or m.group(1) == "?":
                    raise NotationError("expected a card: CODE, CODE@HOST (assigned) or CODE+UID (a Life "
                                        "stacked on UID)", col=t.col)
                entry = {"code": m.group(1)}
                if m.group(2):
                    entry["host"] = m.group(2)
                if m.group(3):
                    entry["stack"] = m.group(3)
                cards.append(entry)
            else:
                raise NotationError("expected a card or key=value", col=t.col)
        p = self.parse_fields(Verb("play", "play"), kvs, actor, ctx, toks[0].col)
        if "cards" in p and cards:
            raise NotationError("cards given twice (a card list and cards=)", col=toks[0].col)
        if not cards and "cards" not in p:
            raise NotationError("expected the card(s) played: play CODE [CODE@HOST ...]",
                                col=toks[0].col + len(toks[0].text))
        if cards:
            p["cards"] = cards
        return p

    def _format_play(self, e, ctx) -> str | None:
        p = dict(e.payload)
        if p.get("player") != e.actor:
            return None
        parts = ["play"]
        for c in p.pop("cards"):
            if not set(c) <= {"code", "host", "stack"} or not isinstance(c.get("code"), str):
                return None
            text = c["code"]
            if not bare_ok(text) or "@" in text or "+" in text:
                if set(c) != {"code"}:
                    return None
                text = quote(text)
            if "host" in c:
                text += "@" + c["host"]
            if "stack" in c:
                text += "+" + c["stack"]
            parts.append(text)
        p.pop("player")
        if p:
            parts.append(self.format_fields(Verb("play", "play"), with_event(e, {"player": e.actor, **p}), ctx)[5:])
        return " ".join(parts)

    # attack c10>c25 !c3,c6,c9>c23
    def _parse_groups(self, toks, actor, ctx) -> dict:
        groups = []
        kvs = []
        for t in toks[1:]:
            if t.type == "kv":
                kvs.append(t)
                continue
            m = _GROUP.fullmatch(t.value) if t.type == "word" else None
            if not m or not (m.group(1) or m.group(2)):
                raise NotationError("expected a group: CARD,CARD>TARGET (card ids; !ID first for the "
                                    "commander)", col=t.col)
            g: dict[str, Any] = {"target": m.group(3), "cards": m.group(2).split(",") if m.group(2) else []}
            if m.group(1):
                g["commander"] = m.group(1)
            groups.append(g)
        verb = Verb(toks[0].value, "combat." + toks[0].value)
        p = self.parse_fields(verb, kvs, actor, ctx, toks[0].col)
        if "groups" not in p:
            p["groups"] = groups
        elif groups:
            raise NotationError("groups given twice", col=toks[1].col)
        return p

    def _format_groups(self, e, ctx) -> str | None:
        p = e.payload
        if set(p) != {"player", "groups"} or p["player"] != e.actor:
            return None
        parts = [e.kind.split(".")[1]]
        for g in p["groups"]:
            if not isinstance(g, dict) or not set(g) <= {"target", "cards", "commander"}:
                return None
            ids = (["!" + g["commander"]] if "commander" in g else []) + list(g.get("cards", []))
            if "cards" not in g or not ids:
                return None
            parts.append(",".join(ids) + ">" + g["target"])
        return " ".join(parts)

    # dmg c25 5 uses=c7 ko=c26 / 4 ko=-
    def _parse_damage(self, toks) -> dict:
        if len(toks) < 2 or toks[1].type not in ("word", "str"):
            raise NotationError("expected the attacked card: dmg TARGET DAMAGE ... / DAMAGE ...",
                                col=toks[0].col + len(toks[0].text))
        sides: list[list[Token]] = [[]]
        for t in toks[2:]:
            if t.type == "word" and t.value == "/":
                if len(sides) == 2:
                    raise NotationError("expected one '/' between the attacker's and the defender's side",
                                        col=t.col)
                sides.append([])
            else:
                sides[-1].append(t)
        if len(sides) != 2:
            raise NotationError("expected '/' and the defender's side: dmg TARGET 5 / 4", col=toks[-1].col + len(toks[-1].text))
        attacker = _read_side(sides[0], toks[1].col + len(toks[1].text) + 1)
        defender = _read_side(sides[1], toks[-1].col)
        return {"target": toks[1].value, "attacker": attacker, "defender": defender}

    def _format_damage(self, e) -> str | None:
        p = e.payload
        if set(p) != {"target", "attacker", "defender"} or not bare_ok(p["target"]):
            return None
        a, d = _write_side(p["attacker"]), _write_side(p["defender"])
        if a is None or d is None:
            return None
        return f"dmg {p['target']} {a} / {d}"

    # endcombat c25,c23 11-4
    def _parse_end(self, toks, actor, ctx) -> dict:
        p: dict[str, Any] = {}
        rest = list(toks[1:])
        if rest and rest[0].type == "word" and not _SCORE.fullmatch(rest[0].value):
            t = rest.pop(0)
            if t.value != "?":
                p["conquered"] = [] if t.value == "-" else t.value.split(",")
        if rest and rest[0].type == "word" and _SCORE.fullmatch(rest[0].value):
            p["order"] = read_seat_numbers(rest.pop(0), ctx)
        return self.with_fields(p, Verb("endcombat", "combat.end"), rest, actor, ctx, toks[0].col)

    def _format_end(self, e, ctx) -> str | None:
        p = dict(e.payload)
        parts = ["endcombat"]
        conquered, order = p.pop("conquered", None), p.pop("order", None)
        if p:
            return None
        if conquered is not None:
            if conquered and not all(bare_ok(c) and "," not in c for c in conquered):
                return None
            parts.append(",".join(conquered) if conquered else "-")
        if order is not None:
            score = seat_numbers(order, ctx)
            if score is None:
                return None
            if conquered is None:
                parts.append("?")
            parts.append(score)
        return " ".join(parts)

    def format_custom(self, e, ctx):
        if e.kind == "phase":
            return format_phase(self, e, ctx, ("green",))
        if e.kind == "draw":
            return format_draw(e, ctx, others=("effect",))
        if e.kind == "play":
            return self._format_play(e, ctx)
        if e.kind in ("combat.attack", "combat.defend"):
            return self._format_groups(e, ctx)
        if e.kind == "combat.damage":
            return self._format_damage(e)
        if e.kind == "combat.end":
            return self._format_end(e, ctx)
        if e.kind == "move" and e.actor in ctx.seat_of:
            p = dict(e.payload)
            if "code" in p:
                p["card"] = p.pop("code")
            return format_move(with_event(e, p), ctx, extra=("effect",))
        return None

    def suggestions(self, state, ctx):
        players = ctx.players
        active = state.active or players[0]
        a = ctx.seat_of[active]
        nxt = players[(players.index(state.active) + 1) % len(players)] if state.active in players else players[0]
        out = [f"T{state.turn + 1} {ctx.seat_of[nxt]}:"]
        if state.phase in PHASES:
            following = PHASES[PHASES.index(state.phase) + 1:]
            out += [f"{a}: /{n}" for n in following[:2]]
        elif state.active:
            out.append(f"{a}: /order")
        out += [f"{a}: draw", f"{a}: disengage", "endcombat", f"{a}: victory"]
        for c in sorted({c.code for c in state.zones.get(active, {}).get("hand", []) if c.code}):
            out.append(f"{a}: play {c}")
        return out


def _read_side(toks: list[Token], col: int) -> dict[str, Any]:
    if not toks or toks[0].type != "word" or not toks[0].value.isdigit():
        raise NotationError("expected the damage this side deals (a whole number)",
                            col=toks[0].col if toks else col)
    side: dict[str, Any] = {"damage": int(toks[0].value)}
    for t in toks[1:]:
        if t.type != "kv" or t.key not in SIDE_KEYS:
            raise NotationError(f"expected {'= '.join(SIDE_KEYS)}= or '/'", col=t.col)
        key = SIDE_KEYS[t.key]
        if key in side:
            raise NotationError(f"{t.key} given twice", col=t.col)
        if key in ("uses", "vanquished"):
            if t.vtype == "word":
                side[key] = [] if t.value == "-" else t.value.split(",")
            elif isinstance(t.value, list):
                side[key] = t.value
            else:
                raise NotationError(f"expected card ids for {t.key}= (c1,c2 or - for none)", col=t.col)
        elif key == "waves":
            if t.vtype != "word" or not t.value.isdigit():
                raise NotationError("expected a whole number for waves=", col=t.col)
            side[key] = int(t.value)
        elif key == "effects":
            if t.vtype != "json":
                raise NotationError("expected JSON for effects= ([{\"effect\":\"Carica\",\"attack\":2}])",
                                    col=t.col)
            side[key] = t.value
        else:
            side[key] = t.value
    return side


def _write_side(side: Any) -> str | None:
    import json
    if not isinstance(side, dict) or not isinstance(side.get("damage"), int) or isinstance(side["damage"], bool):
        return None
    parts = [str(side["damage"])]
    short = {v: k for k, v in SIDE_KEYS.items()}
    for key, value in side.items():
        if key == "damage":
            continue
        if key not in short:
            return None
        name = short[key]
        if key in ("uses", "vanquished"):
            if not isinstance(value, list) or not all(isinstance(v, str) and bare_ok(v) and "," not in v
                                                      and v != "-" for v in value):
                return None
            parts.append(f"{name}=" + (",".join(value) if value else "-"))
        elif key == "effects":
            parts.append(f"{name}=" + json.dumps(value, ensure_ascii=False, separators=(",", ":")))
        elif key == "waves":
            if not isinstance(value, int) or isinstance(value, bool):
                return None
            parts.append(f"{name}={value}")
        else:
            if not isinstance(value, str) or not bare_ok(value):
                return None
            parts.append(f"{name}={value}")
    return " ".join(parts)


GRAMMAR = KenGrammar
