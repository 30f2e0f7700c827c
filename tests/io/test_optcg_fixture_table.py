"""docs/rulesets/optcg.md measures the importer on the fixtures in a table ("Measured on the fixtures"):
each row is checked here against what the import gives (judged, without a card database), so the
table cannot drift from the code (it said "2 warnings (OPTCG-DECK-2 ...)" long after those became
OPTCG-DATA-2 info findings)."""
from __future__ import annotations

import os
import re
from collections import Counter

import pytest

from judge.io.importers import optcgsim
from judge.io.importers.optcgsim import read, split
from tests.conftest import FIXTURES, ROOT


def _rows() -> list[list[str]]:
    text = open(os.path.join(ROOT, "docs", "rulesets", "optcg.md"), encoding="utf-8").read()
    table = text.split("Measured on the fixtures", 1)[1].split("\n\n", 2)[1]
    cells = [re.split(r"(?<!\\)\|", line.strip())[1:-1] for line in table.splitlines()[2:]]
    return [[c.strip() for c in row] for row in cells]


def _measured(path: str) -> tuple[str, str, str, str]:
    """The games, moves, checks and findings cells the docs' table should say for one fixture."""
    games = [optcgsim.convert(path, game=g, judge=True)
             for g in range(1, len(split(read(path), path).games) + 1)]
    stats = [c.stats for c in games]

    def count(checked: str, mismatches: str, name: str) -> str:
        got = [getattr(s, checked) for s in stats]
        return (f"{' + '.join(map(str, got))} {name}, {sum(len(getattr(s, mismatches)) for s in stats)}"
                if any(got) else "")

    checks = [count("chk_checked", "chk_mismatches", r"`RZ1\|CHK`"),
              count("summaries_checked", "summary_mismatches", "summaries")]
    said = [", ".join(f"{n} {sev} {rule}" for (rule, sev), n in sorted(Counter(
        (f.rule, f.severity) for f in c.findings).items())) or "none" for c in games]
    findings = said[0] + (" each" if len(said) > 1 else "") if len(set(said)) == 1 else " + ".join(said)
    return (str(len(games)), " + ".join(str(s.moves) for s in stats), "; ".join(c for c in checks if c),
            findings)


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row[0])
def test_the_docs_fixture_table_says_what_the_import_gives(row, monkeypatch):
    monkeypatch.delenv("TABLEJUDGE_CARDS", raising=False)  # the table is measured without a card database
    name = re.match(r"`([^`]+)`", row[0]).group(1)
    games, moves, checks, findings = _measured(os.path.join(FIXTURES, "optcgsim", name))
    assert row[2:5] == [games, moves, checks], row
    assert row[5] == findings or row[5].startswith(findings + " "), (row[5], findings)
