"""The card snapshot: one compact record per ONE PIECE CARD GAME card number, built from card lists
(cardformats.py) and read back in a few milliseconds.

Building collapses every printing of a number (base, `_p1` parallel, `_r1` reprint, both editions)
into one card: each fact is the value most printings agree on (English text first); every
disagreement goes to the build report. "-" in the sources means "none" (a Leader's cost, an Event's
power, no counter) and also 0 (an Event's cost, a Character's power): the category decides.

The file is gzip'd UTF-8 JSON: a header (`format`, `schema`, `source`, `fields`, `legend`, `types`)
and one compact array per card, one card per line, sorted by number; the same inputs give the same
bytes. Layout and measurements: docs/rulesets/optcg.md, "Card data".
"""
from __future__ import annotations

import gzip
import json
import os
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from engine.match import InputError
from judge.io.text import read_bytes
from judge.io.cardformats import ATTRIBUTES, COLORS, KANA, KEYWORDS, RULE_KEYWORDS, ANY_NUMBER, \
    card_number, gather, own_keywords, package_meta

GAMES = ("optcg",)  # the rulesets whose card numbers this card data lists
FORMAT = "tablejudge.optcg.cards"
SCHEMA = 1
CATEGORY_CODE = {"leader": "L", "character": "C", "event": "E", "stage": "S", "don": "D"}
COLOR_CODE = dict(zip(COLORS, "RGBPKY"))  # K: black
ATTRIBUTE_CODE = dict(zip(ATTRIBUTES, "skrpw?"))
EDITIONS = ("en", "jp", "asia")
FIELDS = ("number", "name_en", "name_jp", "category", "colors", "cost", "power", "counter", "life",
          "attributes", "types", "kw", "block", "set", "rarity", "editions", "printings", "alt_names")
FACT_KEYS = ("category", "colors", "cost", "power", "counter", "life", "attributes", "types", "kw", "trigger")


def _bits(names: Iterable[str], order: tuple[str, ...]) -> int:
    return sum(1 << order.index(n) for n in set(names))


def _unbits(value: int, order: tuple[str, ...]) -> list[str]:
    return [n for i, n in enumerate(order) if value & (1 << i)]


def name_key(name: str) -> str:
    """Names compared without case, accents, width or punctuation."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", folded)).strip()


# --- building ------------------------------------------------------------------------------------------

def facts_of(p: dict[str, Any]) -> dict[str, Any]:
    """One printing's facts. The official list prints "-" where the card says 0: the cost of an
    Event, Stage or Character, and a Character's power."""
    cat = p["category"]
    kw = own_keywords(p["effect"], p["japanese"])
    if p["trigger"]:
        kw.append("Trigger")
    if ANY_NUMBER.search(p["effect"]):
        kw.append("Any Number")
    cost, power = p["cost"], p["power"]
    zero = []
    if cat in ("character", "event", "stage") and cost is None:
        cost, zero = 0, zero + ["cost"]
    if cat == "character" and power is None:
        power, zero = 0, zero + ["power"]
    return {"category": cat, "colors": p["colors"], "cost": cost, "power": power, "counter": p["counter"],
            "life": p["life"] if cat == "leader" else None, "attributes": p["attributes"],
            "types": p["types"], "kw": _bits(kw, KEYWORDS), "trigger": bool(p["trigger"]), "_zero": zero}


def _rank(p: dict[str, Any]) -> tuple:
    """Which printing speaks for its number: English text, the English site, the base printing (no
    _p1/_r1), not alt art, the lowest printing id."""
    ed = {"en": 0, "asia": 1, "jp": 2}.get(p["edition"], 3)
    return (1 if p["japanese"] else 0, ed, 0 if p["primary"] else 1, 1 if p["alt"] else 0, p["printing"])


def collapse(printings: list[dict[str, Any]]) -> tuple[list[list[Any]], dict[str, Any]]:
    """One row per card number (FIELDS order) and the build report (conflicts, "-" read as 0,
    other spellings of a name)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for p in printings:
        groups.setdefault(p["number"], []).append(p)
    rows = []
    report: dict[str, Any] = {"conflicts": [], "zero_from_dash": {"cost": 0, "power": 0}, "names_differ": [],
                              "cross_language": []}
    for number in sorted(groups):
        ps = sorted(groups[number], key=_rank)
        best = ps[0]
        english = [p for p in ps if not p["japanese"]]
        japanese = [p for p in ps if p["japanese"]]
        pool = english or japanese
        pf = [facts_of(p) for p in pool]
        f = dict(pf[0])
        for key in FACT_KEYS:  # the value most printings agree on; a tie goes to the best printing
            votes: dict[str, list[str]] = {}
            for p, fp in zip(pool, pf):
                votes.setdefault(json.dumps(fp[key], ensure_ascii=False), []).append(f"{p['edition']}:{p['printing']}")
            if len(votes) > 1:
                first = json.dumps(pf[0][key], ensure_ascii=False)
                kept = max(votes, key=lambda v: (len(votes[v]), v == first))
                f[key] = json.loads(kept)
                report["conflicts"].append({"number": number, "field": key, "kept": kept,
                                            "values": {v: sorted(w) for v, w in sorted(votes.items())}})
        for k in f["_zero"]:
            report["zero_from_dash"][k] += 1
        if english and japanese:
            jf = facts_of(japanese[0])
            for key in ("category", "colors", "cost", "power", "counter", "life", "kw"):
                if jf[key] != f[key]:
                    report["cross_language"].append({"number": number, "field": key, "kept": f[key],
                                                     "japanese_text": jf[key]})
        name_en = english[0]["name"] if english else None
        alt = sorted({p["name"] for p in english if name_key(p["name"]) != name_key(name_en or "")})
        if alt:
            report["names_differ"].append({"number": number, "name_en": name_en, "other": alt})
        editions = _bits({p["edition"] for p in ps if p["edition"] in EDITIONS}, EDITIONS)
        kw = f["kw"] | (1 << KEYWORDS.index("Trigger") if f["trigger"] else 0)
        rows.append([number, name_en, japanese[0]["name"] if japanese else None, CATEGORY_CODE[f["category"]],
                     "".join(COLOR_CODE[c] for c in f["colors"]), f["cost"], f["power"], f["counter"], f["life"],
                     "".join(ATTRIBUTE_CODE[a] for a in f["attributes"]), f["types"], kw, best["block"],
                     best["set"], best["rarity"], editions, len(ps), alt or None])
    return rows, report


def encode(rows: list[list[Any]], source: dict[str, Any]) -> bytes:
    """Deterministic gzip'd JSON: sorted keys and cards, one card per line, gzip mtime 0."""
    types = sorted({t for r in rows for t in r[10]})
    index = {t: i for i, t in enumerate(types)}
    cards = [r[:10] + [[index[t] for t in r[10]]] + r[11:] for r in rows]
    head = {"format": FORMAT, "schema": SCHEMA, "source": source, "fields": list(FIELDS), "types": types,
            "legend": {"category": {v: k for k, v in CATEGORY_CODE.items()},
                       "colors": {v: k for k, v in COLOR_CODE.items()},
                       "attributes": {v: k for k, v in ATTRIBUTE_CODE.items()},
                       "kw_bits": list(KEYWORDS), "editions_bits": list(EDITIONS),
                       "types": "indices into the `types` list"}}
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    body = ",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cards)
    return gzip.compress((text[:-1] + ',"cards":[\n' + body + "\n]}\n").encode("utf-8"), compresslevel=9, mtime=0)


def build(inputs: Iterable[str], meta: dict[str, Any] | None = None) -> tuple[bytes, dict[str, Any]]:
    """Card lists (files or folders, npm or vegapull) -> (snapshot bytes, build report)."""
    inputs = list(inputs)
    got = gather(inputs)
    rows, report = collapse(got.printings)
    source = package_meta(inputs) | (meta or {})
    source["files"] = [vars(f) for f in got.files]
    data = encode(rows, source)
    cats: dict[str, int] = {}
    for r in rows:
        cats[r[3]] = cats.get(r[3], 0) + 1
    report["summary"] = {"card_numbers": len(rows), "printings_read": len(got.printings) + got.repeats,
                         "repeats_dropped": got.repeats, "bytes": len(data),
                         "by_category": {Snapshot.CATEGORY[k]: v for k, v in sorted(cats.items())},
                         "conflicts": len(report["conflicts"])}
    return data, report


def write(path: str, data: bytes) -> str:
    """Atomically: a reader never sees half a snapshot."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return path


# --- reading ---------------------------------------------------------------------------------------------

class Snapshot:
    """Card facts by number, and names to look cards up by."""

    CATEGORY = {v: k for k, v in CATEGORY_CODE.items()}
    COLOR = {v: k for k, v in COLOR_CODE.items()}
    ATTRIBUTE = {v: k for k, v in ATTRIBUTE_CODE.items()}

    def __init__(self, doc: dict[str, Any], where: str = "snapshot"):
        if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("schema") != SCHEMA:
            raise InputError(f"not a {FORMAT} schema {SCHEMA} card snapshot (build one with "
                             "`tablejudge cards update FILE`)", where=where)
        self.where = where
        self.source: dict[str, Any] = doc.get("source") or {}
        self._col = {name: i for i, name in enumerate(doc["fields"])}
        self._types = doc["types"]
        self._rows = {r[0]: r for r in doc["cards"]}
        self._names: list[tuple[str, str]] | None = None

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, number: str) -> bool:
        return self._row(number) is not None

    def numbers(self) -> list[str]:
        return sorted(self._rows)

    def _row(self, number: str) -> list[Any] | None:
        n = card_number(number) if isinstance(number, str) else None
        return self._rows.get(n) if n else None

    def _get(self, row: list[Any], name: str) -> Any:
        return row[self._col[name]]

    def name(self, number: str) -> str | None:
        r = self._row(number)
        return (self._get(r, "name_en") or self._get(r, "name_jp")) if r else None

    def card(self, number: str) -> dict[str, Any] | None:
        """Every field of a card, expanded (also for a printing id such as OP01-078_p1)."""
        r = self._row(number)
        if r is None:
            return None
        d = dict(zip(self._col, r))
        d["name"] = d["name_en"] or d["name_jp"]
        d["category"] = self.CATEGORY[d["category"]]
        d["colors"] = [self.COLOR[c] for c in d["colors"]]
        d["attributes"] = [self.ATTRIBUTE[a] for a in d["attributes"]]
        d["types"] = [self._types[i] for i in d["types"]]
        d["keywords"] = [k for k in _unbits(d.pop("kw"), KEYWORDS) if k != "Any Number"]
        d["any_number"] = "Any Number" in _unbits(r[self._col["kw"]], KEYWORDS)
        d["editions"] = _unbits(d["editions"], EDITIONS)
        return d

    def facts(self, number: str) -> dict[str, Any] | None:
        """What a `deck.registered` event carries for a card: name, category, cost, power, counter,
        life, colours, trigger, keywords (the rules' five); a fact the card does not have is left out."""
        c = self.card(number)
        if c is None:
            return None
        return facts_from(c)

    def find(self, text: str) -> list[tuple[str, str]]:
        """(number, name) of the cards whose name (English, Japanese or another spelling) has a word
        that starts with `text`, sorted by number; case, accents and punctuation ignored."""
        if self._names is None:
            names = []
            for r in self._rows.values():
                for n in [self._get(r, "name_en"), self._get(r, "name_jp")] + list(self._get(r, "alt_names") or []):
                    if n:
                        names.append((name_key(n), r[0]))
            self._names = names
        return match_names(self._names, text, self.name)


def facts_from(card: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": card.get("name"), "category": card["category"]}
    for k in ("cost", "power", "counter", "life"):
        if card.get(k) is not None:
            out[k] = card[k]
    if card.get("colors"):
        out["colors"] = list(card["colors"])
    if "Trigger" in card.get("keywords", ()) or card.get("trigger"):
        out["trigger"] = card.get("trigger") if isinstance(card.get("trigger"), str) else True
    out["keywords"] = [k for k in card.get("keywords", ()) if k in RULE_KEYWORDS]
    if card.get("any_number"):
        out["any_number"] = True
    if not out["name"]:
        del out["name"]
    return out


def match_names(names: Iterable[tuple[str, str]], text: str, name_of) -> list[tuple[str, str]]:
    """The cards among (name key, number) pairs whose name has a word starting with `text`, or
    contains it (Japanese names have no spaces)."""
    key = name_key(text)
    if not key:
        return []
    hits = {number for nk, number in names
            if (" " + key) in (" " + nk) or (KANA.search(key) and key in nk)}
    return sorted((n, name_of(n) or "") for n in hits)


def load(path: str) -> Snapshot:
    return loads(read_bytes(path, "the card snapshot"), path)


def loads(raw: bytes, where: str = "snapshot") -> Snapshot:
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        doc = json.loads(raw.decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(f"not a readable card snapshot ({e})", where=where) from None
    return Snapshot(doc, where)
