"""Ken il Guerriero: card facts and the compatibility rules between cards.

A card's printed facts (type, Morale colour, School, Profile, values, Order points...) are recorded
in the event that registers a deck or puts the card into play, never looked up: replay is
self-contained. This module validates and normalises those facts and answers the rulebook's
questions "may this card be assigned to that one?", "may these cards form a group?", "may this
Protagonist defend that Location?", "may this Army enter play with that Inhabited Location?".

Identifiers are English (the rulebook's Italian names are accepted as aliases and documented in
docs/rulesets/ken.md).
"""
from __future__ import annotations

from typing import Any

from engine.schema import PayloadError, shown

PROTAGONISTS = ("master", "character", "army")
ASSIGNABLES = ("technique", "spirit", "equipment", "special")
TYPES = PROTAGONISTS + ("location",) + ASSIGNABLES + ("event",)
TYPE_ALIASES = {
    "maestro": "master", "personaggio": "character", "esercito": "army", "luogo": "location",
    "tecnica": "technique", "spirito": "spirit", "equipaggiamento": "equipment",
    "speciale": "special", "evento": "event",
}
COLOURS = ("red", "blue", "grey")
COLOUR_ALIASES = {"rosso": "red", "blu": "blue", "grigio": "grey", "gray": "grey"}
# The letters of the Assignment Icon (Fig. 3) plus the Event icon.
ASSIGN_LETTERS = {"M": "master", "P": "character", "E": "army", "L": "location", "EV": "event"}
DURATIONS = (
    "permanente", "gioca-e-scarta", "gioca-e-togli", "gioca-e-riprendi", "puntata",
    "avvenimento", "scartare-dopo-uso", "togliere-dopo-uso", "riprendi-dopo-uso",
)
PLAY_ANYTIME = ("gioca-e-scarta", "gioca-e-togli", "gioca-e-riprendi")
# COGNOMI the glossary names as limiting group formation ("COBRA ... non possono essere in gruppo
# con protagonisti che non rechino questa scritta"). A card can name others with `group_surname`.
GROUP_SURNAMES = ("COBRA",)

FACT_FIELDS = {
    "code", "name", "type", "morale", "schools", "profile", "attack", "defence", "resistance",
    "green", "ochre", "surnames", "assign_to", "duration", "inhabited", "plays_alone",
    "cumulative", "unique", "max", "group_surname",
}


def normalise_facts(data: Any, path: str = "facts") -> dict[str, Any]:
    """Validate printed facts and return them in canonical form. Raises PayloadError(field, ...)."""
    if not isinstance(data, dict):
        raise PayloadError(path, "card facts must be an object")
    unknown = sorted(set(data) - FACT_FIELDS - {"count"})
    if unknown:
        raise PayloadError(f"{path}.{unknown[0]}", f"unknown card fact (facts: {', '.join(sorted(FACT_FIELDS))})")
    out: dict[str, Any] = {}
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise PayloadError(f"{path}.name", "required: the card's Name")
    out["name"] = name.strip()
    ctype = data.get("type")
    ctype = TYPE_ALIASES.get(str(ctype).lower(), str(ctype).lower()) if isinstance(ctype, str) else None
    if ctype not in TYPES:
        raise PayloadError(f"{path}.type", f"required, one of {', '.join(TYPES)}")
    out["type"] = ctype
    if "code" in data:
        out["code"] = _text(data["code"], f"{path}.code")
    morale = data.get("morale")
    if isinstance(morale, str):
        morale = [morale]
    if not isinstance(morale, list) or not 1 <= len(morale) <= 2:
        raise PayloadError(f"{path}.morale", "required: the background colour(s), e.g. [\"red\"] or [\"red\", \"grey\"]")
    colours = []
    for i, c in enumerate(morale):
        c = COLOUR_ALIASES.get(str(c).lower(), str(c).lower())
        if c not in COLOURS:
            raise PayloadError(f"{path}.morale[{i}]", f"must be one of {', '.join(COLOURS)}")
        colours.append(c)
    out["morale"] = sorted(set(colours))
    out["schools"] = sorted({_text(s, f"{path}.schools").strip() for s in _list(data.get("schools", []), f"{path}.schools")})
    if data.get("profile") is not None:
        out["profile"] = _text(data["profile"], f"{path}.profile")
    for key in ("attack", "defence", "green", "ochre"):
        out[key] = _int(data.get(key, 0), f"{path}.{key}", low=None if key == "attack" else 0)
    res = data.get("resistance", 0)
    if res == "life" or res == "vita":
        out["resistance"] = "life"
    else:
        out["resistance"] = _int(res, f"{path}.resistance", low=0)
    if out["resistance"] == "life" and ctype not in ("master", "character"):
        raise PayloadError(f"{path}.resistance", "only Masters and Characters have Life (La Vita)")
    out["surnames"] = sorted({_text(s, f"{path}.surnames").upper() for s in _list(data.get("surnames", []), f"{path}.surnames")})
    if ctype in ASSIGNABLES:
        letters = data.get("assign_to")
        if not isinstance(letters, list) or not letters:
            raise PayloadError(f"{path}.assign_to", "required for an assignable card: the Assignment Icon letters, "
                               "e.g. [\"M\", \"P\"] (M Maestro, P Personaggio, E Esercito, L Luogo, EV Evento)")
        targets = []
        for i, letter in enumerate(letters):
            t = ASSIGN_LETTERS.get(str(letter).upper(), TYPE_ALIASES.get(str(letter).lower(), str(letter).lower()))
            if t not in ASSIGN_LETTERS.values():
                raise PayloadError(f"{path}.assign_to[{i}]", "must be M, P, E, L or EV")
            targets.append(t)
        out["assign_to"] = sorted(set(targets))
    if ctype in ASSIGNABLES or ctype == "event":
        dur = data.get("duration")
        dur = str(dur).lower().replace(" ", "-").replace("'", "") if isinstance(dur, str) else None
        if dur not in DURATIONS:
            raise PayloadError(f"{path}.duration", f"required for {ctype}: one of {', '.join(DURATIONS)}")
        out["duration"] = dur
    if ctype == "location":
        if not isinstance(data.get("inhabited"), bool):
            raise PayloadError(f"{path}.inhabited", "required for a Location: true (Luogo Abitato) or false (Disabitato)")
        out["inhabited"] = data["inhabited"]
    for flag in ("plays_alone", "cumulative", "unique"):
        if data.get(flag):
            if not isinstance(data[flag], bool):
                raise PayloadError(f"{path}.{flag}", "must be true or false")
            out[flag] = True
    if data.get("max") is not None:
        out["max"] = _int(data["max"], f"{path}.max", low=0)
    if data.get("group_surname"):
        out["group_surname"] = _text(data["group_surname"], f"{path}.group_surname").upper()
    return out


def _text(v: Any, path: str) -> str:
    if not isinstance(v, str):
        raise PayloadError(path, "must be text")
    return v


def _list(v: Any, path: str) -> list:
    if not isinstance(v, list):
        raise PayloadError(path, "must be a list")
    return v


def _int(v: Any, path: str, low: int | None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PayloadError(path, "must be a whole number")
    if low is not None and v < low:
        raise PayloadError(path, f"must be {low} or more")
    return v


def identity(f: dict[str, Any]) -> tuple[str, str]:
    """'Nome e Tipo ... determinano l'unicità della carta'."""
    return (f["name"].casefold(), f["type"])


def has_life(f: dict[str, Any]) -> bool:
    return f.get("resistance") == "life"


# --- compatibility: each returns None when allowed, else the reason in words -------------------


def assignment_problems(card: dict[str, Any], host: dict[str, Any], *, profile_rule: bool) -> list[tuple[str, str]]:
    """(rule id, reason) for each assignment rule the pair breaks (REGOLE DELL'ASSEGNAZIONE)."""
    out = []
    if host["type"] not in card.get("assign_to", ()):
        out.append(("KEN-ASSEGN-1", f"{card['name']} can be assigned to {', '.join(card.get('assign_to', ())) or 'nothing'}, "
                    f"not to a {host['type']}"))
    if "grey" not in card["morale"] and not set(card["morale"]) & set(host["morale"]):
        out.append(("KEN-ASSEGN-2", f"a {'/'.join(card['morale'])} card on a {'/'.join(host['morale'])} card"))
    if card["schools"] and not set(card["schools"]) & set(host["schools"]):
        out.append(("KEN-ASSEGN-3", f"a card of the {'/'.join(card['schools'])} School on a card of "
                    f"{'/'.join(host['schools']) or 'no School'}"))
    if profile_rule and card.get("profile") and card.get("profile") != host.get("profile"):
        out.append(("KEN-ASSEGN-4", f"profile {shown(card['profile'])} on a card with profile {shown(host.get('profile'))}"))
    return out


def pairing_problems(location: dict[str, Any], army: dict[str, Any]) -> list[tuple[str, str]]:
    """Inhabited Location + Army entering play together (RIEPILOGO: GIOCATA DI LUOGHI ED ESERCITI)."""
    out = []
    if "grey" not in location["morale"] and not (set(army["morale"]) & (set(location["morale"]) | {"grey"})):
        out.append(("KEN-LUOGO-4", f"a {'/'.join(location['morale'])} Location with a {'/'.join(army['morale'])} Army"))
    if location["schools"] and not set(location["schools"]) & set(army["schools"]):
        out.append(("KEN-LUOGO-3", f"a Location of the {'/'.join(location['schools'])} School with an Army of "
                    f"{'/'.join(army['schools']) or 'no School'}"))
    return out


def defence_problems(location: dict[str, Any], prot: dict[str, Any]) -> list[tuple[str, str]]:
    """May this Protagonist defend this Location (Regola per la DIFESA dei Luoghi)?"""
    out = []
    if "grey" not in location["morale"] and not set(prot["morale"]) & set(location["morale"]):
        out.append(("KEN-LUOGO-7", f"{prot['name']} ({'/'.join(prot['morale'])}) cannot defend a "
                    f"{'/'.join(location['morale'])} Location"))
    if location["schools"] and not set(location["schools"]) & set(prot["schools"]):
        out.append(("KEN-LUOGO-6", f"{prot['name']} ({'/'.join(prot['schools']) or 'no School'}) cannot defend a Location "
                    f"of the {'/'.join(location['schools'])} School"))
    return out


def group_problems(members: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, str]]:
    """Morale, School and surname rules of a group (I Gruppi). `members`: (label, facts)."""
    out = []
    for i, (la, a) in enumerate(members):
        for lb, b in members[i + 1:]:
            if ("red" in a["morale"] and "blue" in b["morale"]) or ("blue" in a["morale"] and "red" in b["morale"]):
                out.append(("KEN-GRUPPO-2", f"{la} and {lb}: an Evil (red) and a Good (blue) card in one group"))
            if a["schools"] and b["schools"] and not set(a["schools"]) & set(b["schools"]):
                out.append(("KEN-GRUPPO-3", f"{la} ({'/'.join(a['schools'])}) and {lb} ({'/'.join(b['schools'])}): "
                            "two different Schools in one group"))
    for la, a in members:
        for surname in restricting_surnames(a):
            strangers = [lb for lb, b in members if surname not in b["surnames"]]
            if strangers:
                out.append(("KEN-GRUPPO-4", f"{la} is {surname}: it cannot be in a group with {', '.join(strangers)}"))
    return out


def restricting_surnames(f: dict[str, Any]) -> list[str]:
    names = [s for s in f["surnames"] if s in GROUP_SURNAMES]
    if f.get("group_surname"):
        names.append(f["group_surname"])
    return sorted(set(names))
