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


def test_api_results_read_a_bom_and_refuse_with_the_clis_errors(api, server):
    """QA82 2: `{"lines": "\\ufeff6 1-0\\r\\n..."}` was refused on line 1 (the CLI reads the same bytes
    from a file), and the 422 had `"field": ""` and no `errors` array: now the same per-line errors
    as `tournament results --json`, built by one function (judge/io/errorshape.py)."""
    tid = new_event(api, players=6)
    api.do(tid, "pair")
    r = api.post(f"/api/t/{tid}/results", {"lines": "\ufeff1 2-O\r\n2 2-0\r\n99 2-0\r\n"})
    body = r.json()
    assert r.status_code == 422 and "field" not in body, body
    assert body["errors"] == [
        {"file": "lines", "line": 1, "column": 3, "field": "result", "message": body["errors"][0]["message"]},
        {"file": "lines", "line": 3, "column": 1, "field": "table", "message": body["errors"][1]["message"]}]
    assert "2-O" in body["errors"][0]["message"] and "99" in body["errors"][1]["message"]
    r = api.post(f"/api/t/{tid}/results", {"lines": "\ufeff1 2-0\r\n2 2-0\r\n"})
    assert r.status_code == 200, r.text
    one = api.post(f"/api/t/{tid}/results", {"lines": "\ufeff3 2-O\r\n"}).json()  # one line: the same shape
    assert [(x["line"], x["column"], x["field"]) for x in one["errors"]] == [(1, 3, "result")]


def test_a_server_error_never_says_whether_a_path_exists_on_it(tmp_path):
    """Review: `location` asked the disk whether an error's bare `where` is a file, for the web API
    too: a 422's `errors` said `file` or `where` by what exists on the server. Only the CLI asks
    (the user's own files)."""
    from engine.match import InputError
    from judge.io.errorshape import location
    from judge.web.routes.common import error_body
    there = tmp_path / "secret.txt"
    there.write_text("x")
    e = InputError("bad", where=str(there))
    assert error_body(e)["errors"][0]["where"] == str(there) and "file" not in error_body(e)["errors"][0]
    assert location(e, local_files=True)["file"] == str(there)  # the terminal's own file, as before
