"""The notation of `onigashima` (Raid sur Onigashima): one dice fight per turn.

    camps A vs B                            camps: the alliance, then the emperors (camps A C vs B D)
    deal alliance "Roronoa Zoro" Sanji ...  deal: the characters a camp draws (or: deal empereurs 10)
    A: captain "Monkey D. Luffy"            captain
    stats Kaido 31 8 6 30 haki=[royal]      character.stats: name [initiative dice defence energy]
    T1 / T                                  turn (number given / the next one)
    fight A "Roronoa Zoro" B King           fight.start: seat and character, in fight order
    init A 5 B 2                            initiative.roll
    A: transfo 6 "Kaido (forme hybride)" 4  transform: roll [to] [need]
    A: atk 324611 6:3 -3                    attack: the dice, the ability (faces:energy per die),
                                            -N the energy the table said was lost (bonus= ...)
    A: atk -27                              an attack known only by its figure
    A: dodge 3                              dodge
    A: card Ulti attaque 13 instead         card: name type [haki] [weakness] [damage] [heal]
                                            flags: cancel, first (takes the initiative), instead
                                            (instead of the dice attack); text="..."
    won A / won A card / flee               fight.end (by energy / by a card; flee: no winner)
"""
from __future__ import annotations

import re
from typing import Any

from engine.notation import (
    Grammar,
    NotationError,
    Token,
    Verb,
    bare_ok,
    quote,
    write_value,
)
from engine.notation.forms import with_event

_DICE = re.compile(r"[1-6]+")
_ABILITY = re.compile(r"([1-6]*):(\d+)")
_LOST = re.compile(r"-(\d+)")
_TURN = re.compile(r"T(\d*)")
CARD_FLAGS = {"first": "take_initiative", "instead": "instead_of_attack"}


class OnigashimaGrammar(Grammar):
    counted_kind = "turn"  # T3 (no player): the live recorder checks the number
    verbs = (
        Verb("deal", "deal", ("camp", "count"), rest="characters",
             doc="deal CAMP NAME... / deal CAMP N: the characters a camp draws"),
        Verb("captain", "captain", ("character",), doc="A: captain NAME"),
        Verb("stats", "character.stats", ("name", "initiative", "dice", "defence", "energy"),
             doc="stats NAME [INITIATIVE DICE DEFENCE ENERGY] (base= camp= haki=[...] weaknesses=[...])"),
        Verb("transfo", "transform", ("roll", "to", "need"), doc="A: transfo ROLL [FORM] [NEED]"),
        Verb("dodge", "dodge", ("roll",), doc="A: dodge ROLL"),
        Verb("card", "card", ("name", "type", "haki", "weakness", "damage", "heal"),
             doc="A: card NAME attaque|defense|faiblesse [HAKI] [WEAKNESS] [DAMAGE] [HEAL] "
                 "(cancel first instead text=)"),
        Verb("won", "fight.end", ("winner", "how"), doc="won A [card]: the fight is over (flee: no winner)"),
    )
    custom_verbs = {
        "T": "T3 / T: a turn begins (one fight)",
        "camps": "camps A vs B: the alliance's players, then the emperors'",
        "fight": "fight A NAME B NAME: the fighters revealed, in fight order",
        "init": "init A 5 B 2: the initiative rolls",
        "atk": "A: atk DICE [FACES:ENERGY] [-LOST]: a dice attack (324611 6:3 -3; bonus= defence_minus= "
               "cancelled_dice= dice_removed=)",
        "flee": "flee: the fight ends with no winner",
    }

    def parse_custom(self, toks, actor, ctx):
        head = toks[0]
        if head.type != "word":
            return None
        word = head.value
        if _TURN.fullmatch(word):
            p = self.parse_fields(Verb(word, "turn"), toks[1:], actor, ctx, head.col)
            if word[1:]:
                if "number" in p:
                    raise NotationError("number given twice", col=head.col)
                p["number"] = int(word[1:])
            return "turn", p
        if word == "camps":
            return "camps", self._parse_camps(toks, actor, ctx)
        if word in ("fight", "init"):
            kind, key = ("fight.start", "fighters") if word == "fight" else ("initiative.roll", "rolls")
            return kind, self._parse_pairs(toks, actor, ctx, kind, key, word == "init")
        if word == "atk":
            return "attack", self._parse_attack(toks, actor, ctx)
        if word == "card":
            return "card", self._parse_card(toks, actor, ctx)
        if word == "flee":
            p = self.parse_fields(Verb("flee", "fight.end"), toks[1:], actor, ctx, head.col)
            return "fight.end", {**p, "how": "flee"}
        return None

    # camps A vs B
    def _parse_camps(self, toks, actor, ctx) -> dict:
        sides: list[list[str]] = [[]]
        kvs = []
        for t in toks[1:]:
            if t.type == "word" and t.value == "vs":
                if len(sides) == 2:
                    raise NotationError("expected one 'vs' between the camps", col=t.col)
                sides.append([])
            elif t.type == "kv":
                kvs.append(t)
            elif t.type in ("word", "str") and ctx.player(t.value) is not None:
                sides[-1].append(ctx.player(t.value))  # type: ignore[arg-type]
            else:
                raise NotationError(f"expected a player ({', '.join(ctx.player_at)}) or 'vs'", col=t.col)
        p = self.parse_fields(Verb("camps", "camps"), kvs, actor, ctx, toks[0].col)
        if kvs:
            return p
        if len(sides) != 2:
            raise NotationError("expected 'vs' between the camps: camps A vs B",
                                col=toks[-1].col + len(toks[-1].text))
        return {"alliance": sides[0], "empereurs": sides[1]}

    # fight A "Roronoa Zoro" B King · init A 5 B 2
    def _parse_pairs(self, toks, actor, ctx, kind, key, numbers) -> dict:
        pairs: dict[str, Any] = {}
        rest = toks[1:]
        if rest and rest[0].type == "kv":
            return self.parse_fields(Verb(toks[0].value, kind), rest, actor, ctx, toks[0].col)
        i = 0
        while i < len(rest):
            t = rest[i]
            who = ctx.player(t.value) if t.type in ("word", "str") else None
            if who is None:
                raise NotationError(f"expected a player ({', '.join(ctx.player_at)})", col=t.col)
            if i + 1 >= len(rest) or rest[i + 1].type not in ("word", "str"):
                raise NotationError("expected a roll after the player" if numbers
                                    else "expected the character after the player",
                                    col=t.col + len(t.text))
            v = rest[i + 1]
            if numbers:
                if v.type != "word" or not v.value.isdigit():
                    raise NotationError("expected a roll (a whole number)", col=v.col)
                pairs[who] = int(v.value)
            else:
                pairs[who] = v.value
            i += 2
        return {key: pairs}

    def _format_pairs(self, e, ctx, key, numbers) -> str | None:
        p = e.payload
        if set(p) != {key}:
            return None
        parts = ["init" if numbers else "fight"]
        for who, v in p[key].items():
            if who not in ctx.seat_of:
                return None
            if numbers:
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    return None
                parts += [ctx.seat_of[who], str(v)]
            else:
                if not isinstance(v, str):
                    return None
                parts += [ctx.seat_of[who], v if bare_ok(v) else quote(v)]
        return " ".join(parts)

    # atk 324611 6:3 -3
    def _parse_attack(self, toks, actor, ctx) -> dict:
        p: dict[str, Any] = {}
        rest: list[Token] = []
        for t in toks[1:]:
            if t.type == "word" and "dice" not in p and not rest and not p and _DICE.fullmatch(t.value):
                p["dice"] = [int(c) for c in t.value]
            elif t.type == "word" and "ability_faces" not in p and not rest and _ABILITY.fullmatch(t.value):
                m = _ABILITY.fullmatch(t.value)
                p["ability_faces"] = [int(c) for c in m.group(1)]  # type: ignore[union-attr]
                p["ability_energy"] = int(m.group(2))  # type: ignore[union-attr]
            elif t.type == "word" and "energy_lost" not in p and not rest and _LOST.fullmatch(t.value):
                p["energy_lost"] = int(t.value[1:])
            elif t.type == "kv":
                rest.append(t)
            elif t.type == "word" and not p and re.fullmatch(r"\d+", t.value):
                raise NotationError("expected the dice as digits 1 to 6 (atk 324611)", col=t.col)
            else:
                raise NotationError("expected DICE (324611), FACES:ENERGY (6:3), -LOST (-3) or key=value",
                                    col=t.col)
        return self.with_fields(p, Verb("atk", "attack"), rest, actor, ctx, toks[0].col)

    def _format_attack(self, e, ctx) -> str | None:
        p = dict(e.payload)
        if p.pop("player", None) != e.actor:
            return None
        parts = ["atk"]
        dice = p.pop("dice", [])
        if dice:
            if not _digits(dice):
                return None
            parts.append("".join(map(str, dice)))
        faces, energy = p.pop("ability_faces", []), p.pop("ability_energy", 0)
        if faces or energy:
            if not _digits(faces) or not isinstance(energy, int) or isinstance(energy, bool) or energy < 0:
                return None
            parts.append("".join(map(str, faces)) + f":{energy}")
        lost = p.pop("energy_lost", None)
        if lost is not None:
            if not isinstance(lost, int) or isinstance(lost, bool) or lost < 0:
                return None
            parts.append(f"-{lost}")
        if p:
            parts.append(self.format_fields(Verb("atk", "attack"), with_event(e, {"player": e.actor, **p}), ctx)[4:])
        return " ".join(parts)

    # card Ulti attaque 13 instead
    def _parse_card(self, toks, actor, ctx) -> dict:
        flags: dict[str, bool] = {}
        rest = []
        for t in toks[1:]:
            if t.type == "word" and t.value in CARD_FLAGS and rest:
                flags[CARD_FLAGS[t.value]] = True
            else:
                rest.append(t)
        return self.with_fields(flags, self.by_name["card"], rest, actor, ctx, toks[0].col)

    def _format_card(self, e, ctx) -> str | None:
        """Positional values where they read back: haki, weakness and damage may each be absent
        (their values cannot be mistaken for one another); heal only after a damage."""
        p = dict(e.payload)
        flags = [short for short, name in CARD_FLAGS.items() if p.pop(name, False) is True]
        verb = self.by_name["card"]
        if p.get("player") != e.actor or not isinstance(p.get("name"), str):
            return None
        hints = self.hints("card")
        reserved = set(hints) | set(CARD_FLAGS) | self.bool_fields("card")
        p.pop("player")
        parts = ["card", write_value(p.pop("name"), str, ctx, reserved=reserved), p.pop("type")]
        for name in ("haki", "weakness", "damage", "heal"):
            if name == "heal" and "damage" not in e.payload:
                break
            if p.get(name) is not None:
                parts.append(write_value(p.pop(name), hints[name], ctx))
        tail = self.format_fields(verb, with_event(e, {"player": e.actor, **p}), ctx, "card")[len("card"):]
        return " ".join(parts) + tail + "".join(" " + f for f in flags)

    def format_custom(self, e, ctx):
        p = e.payload
        if e.kind == "turn":
            if set(p) <= {"number"} and (p.get("number") is None or isinstance(p["number"], int)):
                return "T" + ("" if p.get("number") is None else str(p["number"]))
            return None
        if e.kind == "camps" and set(p) == {"alliance", "empereurs"} \
                and all(x in ctx.seat_of for x in p["alliance"] + p["empereurs"]):
            return " ".join(["camps"] + [ctx.seat_of[x] for x in p["alliance"]] + ["vs"]
                            + [ctx.seat_of[x] for x in p["empereurs"]])
        if e.kind == "fight.start":
            return self._format_pairs(e, ctx, "fighters", False)
        if e.kind == "initiative.roll":
            return self._format_pairs(e, ctx, "rolls", True)
        if e.kind == "attack":
            return self._format_attack(e, ctx)
        if e.kind == "card":
            return self._format_card(e, ctx)
        if e.kind == "fight.end" and p.get("how") == "flee" and "winner" not in p:
            return "flee"
        return None

    def suggestions(self, state, ctx):
        x = state.extra.get("oni", {})
        fight = x.get("fight")
        out = []
        if fight is None:
            out.append(f"T{state.turn + 1}")
            hands = x.get("hands", {})
            camps = x.get("camps", {})
            fought = set(x.get("fought", []))
            picks = {}
            for camp, members in camps.items():
                left = [c for c in hands.get(camp, {}).get("characters", []) if c not in fought]
                if members and left:
                    picks[members[0]] = left[0]
            if len(picks) == 2:
                out.append(" ".join(["fight"] + [f"{ctx.seat_of[p]} {c if bare_ok(c) else quote(c)}"
                                                 for p, c in picks.items()]))
        else:
            seats = [ctx.seat_of[p] for p in fight.get("order", []) if p in ctx.seat_of]
            if len(seats) == 2 and not fight.get("attacks"):
                out.append(f"init {seats[0]} 6 {seats[1]} 1")
            for s in seats:
                out += [f"won {s}", f"{s}: dodge 6"]
            out.append("flee")
        return out


def _digits(values: Any) -> bool:
    return isinstance(values, list) and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6
                                            for v in values)


GRAMMAR = OnigashimaGrammar
