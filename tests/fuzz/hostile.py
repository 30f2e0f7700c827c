"""Hostile input for every importer and every CLI argument: the values that broke things once,
and mutations of real files. Shared by the hypothesis fuzzers (tests/fuzz/test_fuzz_*.py) and the
measured campaign (`python -m tests.fuzz.campaign`), so both try the same things.

A case is (target, data): `target` names the importer (jsonl, notation, optcgsim, results-csv,
results-json, cards) or `argv` (a command line); `data` is the file's bytes, or the argument list.
"""
from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")

# values that broke an importer or the CLI before (issue 14), and their neighbours
HOSTILE_JSON = [
    "2000000000", "2147483648", "-1", "0", "1e309", "-1e309", "NaN", "Infinity", "1" + "0" * 5000,
    "1.5", "true", "null", "[]", "{}", "123", "5", '"\\ud800"', '"\\udcff x"', '"../../x"', '"/tmp/abs"',
    '"=HYPERLINK(\\"http://x\\")"', '"@SUM(A1)"', '"' + "x" * 131_100 + '"', "[" * 100_000 + "]" * 100_000,
    '{"a":' * 5_000 + "1" + "}" * 5_000, '"' + "é" * 5000 + '"', '"judge:"', '"-"', '""',
]
HOSTILE_WORDS = [
    "2000000000", "2147483648", "-1", "0", "1" + "0" * 5000, "1e309", "nan", "1000000xOP01-016",
    "999999999xOP01-016", "?", "null", "../../x", "/tmp/abs", "=cmd|' /C calc'!A0", "\ud800", "\udcff",
    "x" * 131_100, "é" * 300, "[", '"', "T99999999999999999999", "OP01-016", "judge:", "·", ";",
]
HOSTILE_TEXT = ["\ud800", "\udcfe\udcff", "=HYPERLINK(\"http://x\")", "@SUM(1)", "+1", "-1", "\t=1", "\r=1",
                "x" * 131_100, "../../x", "/tmp/abs", "1" + "0" * 5000, "", " ", "é" * 5000]


def seeds() -> dict[str, list[bytes]]:
    """Real files per importer (the repo's examples and fixtures)."""
    def read(*parts: str) -> bytes:
        with open(os.path.join(ROOT, *parts), "rb") as f:
            return f.read()

    optcgsim = read("tests", "fixtures", "optcgsim", "esempio.log")
    return {
        "jsonl": [read("examples", "op2009", "best-of-three-fine-tempo.jsonl"),
                  read("examples", "ken", "quick-game.jsonl"),
                  read("examples", "onigashima", "luffy-vs-kaido.jsonl"),
                  read("tests", "fixtures", "desk", "dispute.jsonl")],
        "notation": [read("examples", "table", "club-night.txt"),
                     read("examples", "op2009", "best-of-three-fine-tempo.txt"),
                     read("examples", "grandline", "east-blue-cup.txt"),
                     read("examples", "ken", "village-raid.txt"),
                     read("examples", "onigashima", "zoro-vs-king.txt")],
        # the whole real log, and its first 400 lines (a truncated game: most mutations use it)
        "optcgsim": [optcgsim, b"\n".join(optcgsim.split(b"\n")[:400])],
        "results-csv": [b"round,player,opponent,wins,losses,draws\n1,Ann,Bob,2,1,0\n1,Bob,Ann,1,2,0\n"
                        b"1,Cid,,0,0,0\n2,Ann,Cid,2,0,0\n2,Cid,Ann,0,2,0\n2,Bob,,0,0,0\n"],
        "results-json": [read("tests", "fixtures", "melee", "pavia-15004.json")],
        "cards": [read("tests", "fixtures", "optcg", "cards.json")],
    }


EXTENSION = {"jsonl": ".jsonl", "notation": ".txt", "optcgsim": ".log", "results-csv": ".csv",
             "results-json": ".json", "cards": ".json"}


@dataclass
class Case:
    target: str
    data: bytes | list[str]
    how: str = ""

    def describe(self) -> str:
        size = len(self.data) if isinstance(self.data, bytes) else sum(len(a) for a in self.data)
        return f"{self.target} ({self.how}, {size:,} bytes)"


# --- mutations of a file ----------------------------------------------------------------------


def mutate(rng: random.Random, target: str, seed: bytes) -> tuple[bytes, str]:
    """One mutation of a real file: a hostile value in place of a JSON value or a word, lines cut,
    repeated or shuffled, bytes flipped, invalid UTF-8, a huge line."""
    kind = rng.choice(["value", "value", "value", "word", "truncate", "lines", "bytes", "utf8", "huge"])
    if kind == "value" and target in ("jsonl", "results-json", "cards"):
        return _replace_json_value(rng, seed), "a JSON value replaced"
    if kind in ("value", "word"):
        return _replace_word(rng, seed), "a word replaced"
    if kind == "truncate":
        return seed[: rng.randrange(len(seed) + 1)], "truncated"
    if kind == "lines":
        lines = seed.split(b"\n")
        i = rng.randrange(len(lines))
        op = rng.choice(["drop", "dup", "swap", "insert"])
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, rng.choice(HOSTILE_WORDS).encode("utf-8", "surrogatepass"))
        return b"\n".join(lines), f"lines: {op}"
    if kind == "bytes":
        data = bytearray(seed)
        for _ in range(rng.randint(1, 8)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data), "bytes flipped"
    if kind == "utf8":
        i = rng.randrange(len(seed) + 1)
        return seed[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf"]) + seed[i:], \
            "invalid UTF-8"
    i = seed.rfind(b"\n", 0, rng.randrange(len(seed) + 1)) + 1
    return seed[:i] + b"x" * rng.choice([131_100, 70_000]) + b"\n" + seed[i:], "a huge line"


def _replace_json_value(rng: random.Random, seed: bytes) -> bytes:
    text = seed.decode("utf-8", "surrogateescape")  # an earlier mutation may have broken it
    for _ in range(20):
        i = rng.randrange(len(text))
        j = text.find(":", i)
        if j < 0:
            continue
        k = j + 1
        while k < len(text) and text[k] == " ":
            k += 1
        end = _value_end(text, k)
        if end is None:
            continue
        return (text[:k] + rng.choice(HOSTILE_JSON) + text[end:]).encode("utf-8", "surrogateescape")
    return seed


def _value_end(text: str, k: int) -> int | None:
    """End of a scalar JSON value starting at k (strings, numbers, literals)."""
    if k >= len(text):
        return None
    if text[k] == '"':
        try:
            _, end = json.JSONDecoder().raw_decode(text, k)
        except ValueError:
            return None
        return end
    end = k
    while end < len(text) and text[end] not in ",}]\n":
        end += 1
    return end if end > k else None


def _replace_word(rng: random.Random, seed: bytes) -> bytes:
    words = seed.split(b" ")
    i = rng.randrange(len(words))
    words[i] = rng.choice(HOSTILE_WORDS).encode("utf-8", "surrogatepass")
    return b" ".join(words)


# --- command lines ----------------------------------------------------------------------------

COMMAND_LINES = [
    ["match", "new", "--ruleset", "{w}", "--player", "{w}", "--player", "Bob"],
    ["match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--id", "{w}"],
    ["match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--option", "{w}={w}"],
    ["log", "{m}", "draw", "--player", "Ann", "--count", "{w}"],
    ["log", "{m}", "{w}", "--player", "{w}"],
    ["log", "{m}", "note", "--text", "{w}"],
    ["log", "{m}", "move", "--payload", "{j}"],
    ["log", "{m}", "setup", "--player", "Ann", "--zone", "deck", "--count", "{w}"],
    ["log", "{m}", "correction", "--actor", "judge:{w}", "--voids", "{w}", "--reason", "{w}"],
    ["log", "{m}", "note", "--text", "x", "--expect", "{w}"],
    ["state", "{m}", "--at", "{w}"], ["state", "{m}", "--turn", "{w}"], ["state", "{w}"],
    ["events", "{m}", "--from", "{w}", "--to", "{w}", "--csv"], ["validate", "{m}", "--upto", "{w}"],
    ["verify", "{w}"], ["export", "{m}", "--format", "{w}"], ["export", "{m}", "--format", "csv", "-o", "{w}"],
    ["report", "{m}", "--out-dir", "{w}"], ["report", "--round", "{w}"], ["audit", "{m}", "--at", "{w}"],
    ["timelimit", "{m}"], ["rulesets", "--kinds", "{w}"], ["matches", "--csv"], ["findings", "{m}", "--csv"],
    ["judge", "call", "{m}", "--caller", "{w}", "--reason", "{w}", "--at", "{w}"],
    ["judge", "penalty", "{m}", "-j", "{w}", "--player", "{w}", "--penalty", "{w}", "--infraction", "{w}"],
    ["judge", "time", "{m}", "--clock", "{w}"],
    ["standings", "{w}"], ["deck", "check", "{w}", "--leader", "{w}"],
    ["tournament", "new", "--name", "{w}", "--game", "{w}", "--rounds", "{w}"],
    ["tournament", "result", "{w}", "{w}", "--table", "{w}"],
    ["--db", "postgresql://u:p@127.0.0.1:{w}/db", "matches"], ["--db", "{w}", "matches"],
    ["--by", "{w}", "log", "{m}", "note", "--text", "x"],
    ["import", "{w}"], ["cards", "import", "{w}"],
]


def command_line(rng: random.Random, match: str) -> list[str]:
    template = rng.choice(COMMAND_LINES)
    out = []
    for arg in template:
        for key in ("{w}", "{j}", "{m}"):
            while key in arg:
                value = (rng.choice(HOSTILE_WORDS + HOSTILE_TEXT) if key == "{w}" else
                         rng.choice(HOSTILE_JSON) if key == "{j}" else match)
                arg = arg.replace(key, value, 1)
        out.append(arg)
    return out


def cases(rng: random.Random, n: int, match: str = "fuzzmatch") -> list[Case]:
    """n cases spread over every importer and the command line."""
    pool = seeds()
    targets = list(pool) + ["argv", "argv"]
    out = []
    for i in range(n):
        target = targets[i % len(targets)]
        if target == "argv":
            out.append(Case("argv", command_line(rng, match), "a hostile argument"))
        else:
            data, how = mutate(rng, target, rng.choice(pool[target]))
            out.append(Case(target, data, how))
    return out
