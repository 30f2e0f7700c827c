"""Two recorders typing the same game at once (a scorekeeper and a floor judge at one table), in
random interleavings, on a SQLite file and on PostgreSQL: every time one of them is about to store
a line the other already stored, it is asked, and Enter (the default: drop it) keeps the log to one
copy of the game. Counts of prompts and duplicates are printed (and appended to
$LIVE_TWO_REPORT as JSON when set)."""
from __future__ import annotations

import json
import os
import random
import re

from engine.match import Match
from engine.notation import read_game
from engine.store import EventStore
from judge.live import LiveSession
from tests.conftest import ROOT

RUNS = 5


def _game_lines(ruleset: str) -> tuple[list[str], list]:
    with open(os.path.join(ROOT, "docs", "notation.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```notation\n(.*?)```", f.read(), re.S)
    text = next(b for b in blocks if b.startswith(f'[Ruleset "{ruleset}"]'))
    game = read_game(text)
    lines = [ln for ln in text.splitlines()[game.header.lines:] if ln.strip()]
    return lines, game


def test_two_recorders_typing_one_game_store_it_once(db_url):
    lines, game = _game_lines("optcg")
    want = [(d.kind, d.actor, d.payload) for d in game.drafts]
    stats = {"runs": RUNS, "lines_typed": 0, "repeat_prompts": 0, "moved_prompts": 0,
             "duplicates_stored": 0, "lines_lost": 0}
    for run in range(RUNS):
        rng = random.Random(run)
        store = EventStore.open(db_url)
        m = Match.create(store, "optcg", game.created.payload["players"])
        m.record_many(game.drafts[:len(game.header.decks)])
        one = LiveSession(Match(store, m.id), recorded_by="scorekeeper")
        two = LiveSession(Match(store, m.id), recorded_by="floor", role="judge")
        todo = {one: list(lines), two: list(lines)}
        while todo[one] or todo[two]:
            s = rng.choice([x for x in (one, two) if todo[x]])
            reply = s.handle(todo[s].pop(0))
            stats["lines_typed"] += 1
            while reply.question is not None:
                stats["repeat_prompts" if "your line" in reply.text else "moved_prompts"] += 1
                reply = s.handle("")  # Enter: the default answer
            assert not reply.refused, reply.text
        got = [(e.kind, e.actor, e.payload) for e in m.events()[1:]]
        stats["duplicates_stored"] += max(0, len(got) - len(want))
        stats["lines_lost"] += max(0, len(want) - len(got))
        assert got == want  # the game once, in order: nothing doubled, nothing lost
        store.close()
    stats["backend"] = "postgres" if db_url.startswith("postgres") else "sqlite"
    print("\nlive two recorders:", json.dumps(stats))
    if os.environ.get("LIVE_TWO_REPORT"):
        with open(os.environ["LIVE_TWO_REPORT"], "a", encoding="utf-8") as f:
            f.write(json.dumps(stats) + "\n")
    assert stats["repeat_prompts"] > 0
