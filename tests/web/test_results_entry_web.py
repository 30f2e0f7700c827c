"""Results entry on the web desk, as judge/tournament/entry.py makes it: a double loss and a batch
with several bad lines (all listed, nothing stored); "my table" finds a name typed without its
accents (the same near-match as the CLI's "did you mean")."""
from __future__ import annotations

from tests.web.conftest import new_event


def test_batch_errors_double_loss_and_my_table(api, server):
    tid = new_event(api, players=7)
    api.do(tid, "register", names="José García")
    api.do(tid, "pair")
    r = api.post(f"/api/t/{tid}/do/record_results", {"lines": "1 2-O\n2 2-0\n99 2-0\n"})
    assert r.status_code == 422 and "2 lines refused" in r.text and "lines:1:3" in r.text and "lines:3" in r.text
    out = api.do(tid, "record_results", lines="1 double-loss\n2 2-0\n")
    assert [e["result"] for e in out["entered"]] == ["double-loss", "2-0-0"]
    page = api.http.get(f"/t/{tid}/me", params={"name": "jose  GARCIA"})
    assert page.status_code == 200 and "José García</strong>: Round 1" in page.text
