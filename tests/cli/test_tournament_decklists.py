"""optcg decklists handed in at registration reach the match: `tournament register --decklist` reads
them against the card data (names allowed, an unreadable line refuses), `match new --decks-from` records
them as deck.registered with the card facts."""
from __future__ import annotations

import json

from judge.cli import cli
from judge.cli.common import run_guarded

ANN = "1xOP01-060 Donquixote Doflamingo\n4xOP01-078 Boa Hancock\n46xOP01-077\n"
BOB = "OP01-001 x1\n4xOP01-016\n4xZZ99-001\n42xOP01-013\n"


def test_registered_decklists_become_the_matchs_decks(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    assert run_guarded(cli, ["--db", db, "tournament", "new", "--name", "Store league", "--game", "optcg",
                             "--rounds", "3", "--id", "t-cards"]) == 0
    (tmp_path / "ann.txt").write_text(ANN, encoding="utf-8")
    (tmp_path / "bob.txt").write_text(BOB, encoding="utf-8")
    (tmp_path / "bad.txt").write_text("1xOP01-001\n4 Otama\n", encoding="utf-8")
    capsys.readouterr()
    assert run_guarded(cli, ["--db", db, "tournament", "register", "t-cards", "Cid", "--decklist",
                             str(tmp_path / "bad.txt")]) == 2
    assert "'Otama' could be 7 cards" in capsys.readouterr().err  # refused: nothing registered
    assert run_guarded(cli, ["--db", db, "tournament", "register", "t-cards", "Ann", "--decklist",
                             str(tmp_path / "ann.txt")]) == 0
    out = capsys.readouterr().out
    assert "decklist: Leader OP01-060 Donquixote Doflamingo, 50 cards" in out
    assert run_guarded(cli, ["--db", db, "tournament", "register", "t-cards", "Bob", "--decklist",
                             str(tmp_path / "bob.txt")]) == 0
    out = capsys.readouterr().out
    assert out.count("unknown card number") == 1 and "ZZ99-001" in out
    assert run_guarded(cli, ["--db", db, "match", "new", "-r", "optcg", "-p", "Ann", "-p", "Bob",
                             "--decks-from", "t-cards"]) == 0
    captured = capsys.readouterr()
    match = captured.out.strip()
    assert captured.err.count("unknown card number") == 1
    assert run_guarded(cli, ["--db", db, "events", match, "--json"]) == 0
    ann, bob = [e["payload"] for e in json.loads(capsys.readouterr().out)[1:3]]
    assert ann["leader"] == "OP01-060" and ann["deck"].count("OP01-078") == 4 and len(ann["deck"]) == 50
    assert ann["cards"]["OP01-078"]["keywords"] == ["Blocker"] and ann["source"] == "tournament t-cards"
    assert bob["leader"] == "OP01-001" and "ZZ99-001" not in bob["cards"]
    assert run_guarded(cli, ["--db", db, "match", "new", "-r", "optcg", "-p", "Ann", "-p", "Cid",
                             "--decks-from", "t-cards"]) == 2
    assert "Cid has no decklist in tournament t-cards" in capsys.readouterr().err
