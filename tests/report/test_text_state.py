"""`tablejudge state` lines up its zone column for long zone names (op2009's `vita_capitano`)."""
from __future__ import annotations

import json
import os
import re

from tests.conftest import ROOT, run_cli


def test_state_columns_line_up_with_long_zone_names(tmp_path):
    db = str(tmp_path / "log.db")
    imported = run_cli("import", os.path.join(ROOT, "examples", "op2009", "best-of-three-fine-tempo.jsonl"),
                       "--json", db=db)
    assert imported.returncode in (0, 1), imported.stderr
    out = run_cli("state", json.loads(imported.stdout)["match"], db=db)
    assert out.returncode == 0, out.stderr
    zone_lines = [line for line in out.stdout.splitlines() if re.match(r"  [a-z_0-9]+ +\d+  ", line)]
    assert any("vita_capitano" in line for line in zone_lines)
    count_ends = {re.match(r"  [a-z_0-9]+ +\d+", line).end() for line in zone_lines}
    assert len(count_ends) == 1, "\n".join(zone_lines)
    # a space between the longest name and its count, not a name run into the number
    assert all(re.match(r"  [a-z_0-9]+ +\d", line) for line in zone_lines)
