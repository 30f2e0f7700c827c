"""Adding a game touches nothing else: a toy game (Nim) lives in a temporary package outside the repo,
is found through the `tablejudge.rulesets` entry point, and goes through everything a built-in game
does: record, import notation, validate (its own rule, quoted with its English), report, export.

Nothing in engine/ or judge/ names it; the test writes only to its temporary folder."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow

FILES = {
    "toynim/__init__.py": '''
        """`nim`: take 1 to 3 stones from a heap; whoever takes the last one wins."""
        from .ruleset import RULESET
    ''',
    "toynim/vocab.py": '''
        from engine.schema import Payload, Player, event_kind

        @event_kind("heap")
        class Heap(Payload):
            """The heap is set up: `stones` on the table."""
            stones: int

        @event_kind("take")
        class Take(Payload):
            """A player takes `count` stones from the heap."""
            player: Player
            count: int

        KINDS = (Heap, Take)
    ''',
    "toynim/ruleset.py": '''
        from engine.catalogue import load_rules
        from engine.rulesets.base import Outcome, Ruleset
        from .vocab import KINDS

        RULES = load_rules(__package__)

        class NimRuleset(Ruleset):
            name = "nim"
            title = "Nim (a toy game from a plug-in)"
            kinds = KINDS
            rules = RULES

            def apply_heap(self, s, e):
                s.extra["heap"] = e.payload["stones"]

            def apply_take(self, s, e):
                s.extra["heap"] = s.extra.get("heap", 0) - e.payload["count"]
                s.extra["last"] = e.payload["player"]
                if s.extra["heap"] <= 0 and s.result is None:
                    s.result = {"result": "win", "winner": e.payload["player"], "how": "took the last stone"}

            def check_take(self, s, e):
                n = e.payload["count"]
                if not 1 <= n <= 3:
                    yield self.flag("NIM-1", e, f"{e.payload['player']} took {n} stones; a turn takes 1 to 3")
                if s.extra.get("last") == e.payload["player"]:
                    yield self.flag("NIM-2", e, f"{e.payload['player']} took twice in a row", severity="warning")

            def outcome(self, s):
                r = s.result
                return None if r is None else Outcome(r["result"], r["winner"], r["how"])

        RULESET = NimRuleset
    ''',
    "toynim/words.toml": '''
        # its events in words (engine/words.py): the report reads them
        [events]
        take = "{player} takes {count}"
        heap = "a heap of {stones} stones"
    ''',
    "toynim/notation.py": '''
        from engine.notation import Grammar, Verb

        class NimGrammar(Grammar):
            verbs = (Verb("heap", "heap", ("stones",), doc="heap N: N stones on the table"),
                     Verb("take", "take", ("count",), doc="A: take N"))

        GRAMMAR = NimGrammar
    ''',
    "toynim/rules.toml": '''
        [[rule]]
        id = "NIM-1"
        section = "Regola 1"
        title = "A turn takes 1 to 3 stones"
        status = "checked"
        quote = "Ad ogni turno si prendono da 1 a 3 pietre."
        en = "Each turn, take 1 to 3 stones."

        [[rule]]
        id = "NIM-2"
        section = "Regola 2"
        title = "Players alternate"
        status = "checked"
        quote = "I giocatori si alternano."
        en = "The players take turns."
    ''',
    "toynim-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: toynim\nVersion: 0.1\n",
    "toynim-0.1.dist-info/entry_points.txt": "[tablejudge.rulesets]\nnim = toynim.ruleset:NimRuleset\n",
}

GAME = """[Ruleset "nim"]
[Match "nim-1"]
[A "Ann"]
[B "Bob"]

heap 10
A: take 3
B: take 5
B: take 1
A: take 1
"""


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plugin")
    for name, text in FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return folder


def cli(plugin, tmp, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, str(plugin)]), TABLEJUDGE_USER="tester")
    return subprocess.run([sys.executable, "-m", "judge", "--db", str(tmp / "log.db"), *args],
                          capture_output=True, text=True, cwd=tmp, env=env, timeout=120)


def test_a_plugin_game_goes_through_every_job(plugin, tmp_path):
    r = cli(plugin, tmp_path, "rulesets", "--json")
    assert r.returncode == 0, r.stderr
    assert "nim" in {row["name"] for row in json.loads(r.stdout)}

    # record by hand
    r = cli(plugin, tmp_path, "match", "new", "--ruleset", "nim", "--player", "Cid", "--player", "Dan")
    assert r.returncode == 0, r.stderr
    live_id = r.stdout.strip()
    for args in (("heap", "--stones", "4"), ("take", "--player", "Cid", "--count", "4")):
        r = cli(plugin, tmp_path, "log", live_id, *args)
        assert r.returncode == 0, r.stderr
    assert "NIM-1" in r.stdout  # flagged as it is typed, and stored (record, then judge)

    # import the notation: the grammar is found beside the ruleset
    (tmp_path / "game.txt").write_text(GAME, encoding="utf-8")
    r = cli(plugin, tmp_path, "import", "game.txt")
    assert r.returncode == 0, r.stderr

    r = cli(plugin, tmp_path, "validate", "nim-1", "--json")
    assert r.returncode == 1  # findings
    findings = json.loads(r.stdout)["findings"]
    assert [(f["rule"], f["position"]) for f in findings] == [("NIM-1", 4), ("NIM-2", 5)]  # 1 is match.created, 2 the heap
    assert findings[0]["quote"] == "Ad ogni turno si prendono da 1 a 3 pietre."

    r = cli(plugin, tmp_path, "state", "nim-1", "--json")
    assert json.loads(r.stdout)["result"]["winner"] == "Ann"

    r = cli(plugin, tmp_path, "report", "nim-1", "--out-dir", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    html = (tmp_path / "out" / "nim-1.html").read_text(encoding="utf-8")
    assert "NIM-1" in html and "Bob takes 5" in html

    for fmt in ("jsonl", "csv", "notation"):
        r = cli(plugin, tmp_path, "export", "nim-1", "--format", fmt, "-o", str(tmp_path / f"nim.{fmt}"))
        assert r.returncode == 0, (fmt, r.stderr)
    assert "B: take 5" in (tmp_path / "nim.notation").read_text(encoding="utf-8")
    assert len((tmp_path / "nim.jsonl").read_text(encoding="utf-8").splitlines()) == 6
