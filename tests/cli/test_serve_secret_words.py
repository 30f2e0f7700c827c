"""QA86 #11: `tablejudge serve` said "(links signed with the secret from given)" for a secret given
with --secret or $TABLEJUDGE_SECRET: it names where the secret came from."""
from __future__ import annotations

import judge.web.app
from tests.fuzz.harness import invoke


def _first_line(tmp_path, monkeypatch, *args: str) -> str:
    monkeypatch.setattr(judge.web.app, "run", lambda *a, **k: None)  # no server: only what serve prints
    r = invoke(["--db", str(tmp_path / "ev.db"), "serve", *args])
    assert r.code == 0, r.output
    return r.output.splitlines()[0]


def test_serve_names_where_its_secret_came_from(tmp_path, monkeypatch):
    monkeypatch.delenv("TABLEJUDGE_SECRET", raising=False)
    assert _first_line(tmp_path, monkeypatch, "--secret", "a-secret-of-some-length").endswith("(links signed with the secret from --secret)")
    monkeypatch.setenv("TABLEJUDGE_SECRET", "a-secret-of-some-length")
    assert _first_line(tmp_path, monkeypatch).endswith("(links signed with the secret from $TABLEJUDGE_SECRET)")
    monkeypatch.delenv("TABLEJUDGE_SECRET")
    assert _first_line(tmp_path, monkeypatch).endswith(f"(links signed with the secret from {tmp_path}/ev.db.secret)")


def test_a_short_secret_is_refused_in_words(tmp_path, monkeypatch):
    # was "internal error (a bug in tablejudge ...): ValueError"
    monkeypatch.delenv("TABLEJUDGE_SECRET", raising=False)
    monkeypatch.setattr(judge.web.app, "run", lambda *a, **k: None)
    r = invoke(["--db", str(tmp_path / "ev.db"), "serve", "--secret", "s3"])
    assert r.code == 2 and "the secret from --secret is 2 characters: a secret is at least 16" in r.output, r.output
    assert "internal error" not in r.output
