"""The HTML match and round reports, checked as HTML text (the browser test looks at them rendered)."""
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from engine.match import Match
from judge import report
from judge.io.importers import jsonl
from judge.report.templating import environment, render
from tests.conftest import ROOT

FIXTURE = Path(ROOT) / "tests" / "fixtures" / "desk" / "dispute.jsonl"
BAD = "<script>alert(1)</script>"


class Parsed(HTMLParser):
    """Collects ids, classes per id, tags, and every URL-bearing attribute."""

    def __init__(self, html):
        super().__init__()
        self.ids, self.classes, self.tags, self.urls, self.text = {}, {}, [], [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if "id" in a:
            self.ids[a["id"]] = tag
            self.classes[a["id"]] = (a.get("class") or "").split()
        for k in ("src", "href", "xlink:href", "action"):
            if a.get(k):
                self.urls.append(a[k])

    def handle_data(self, data):
        self.text.append(data)


BACKENDS = ("sqlite",)  # what these tests look at does not depend on the backend (tests/conftest.py)


@pytest.fixture
def dispute(store):
    return Match(store, jsonl.import_file(store, str(FIXTURE)).match)


def test_match_report_is_self_contained_and_escaped(dispute, tmp_path):
    path = report.write_match_report(dispute, str(tmp_path / "exports"))
    assert path == str(tmp_path / "exports" / f"{dispute.id}.html")
    html = Path(path).read_text(encoding="utf-8")
    doc = Parsed(html)
    # no scripts, no network: every link is an in-page anchor
    assert "script" not in doc.tags and "link" not in doc.tags and "img" not in doc.tags
    assert all(u.startswith("#") for u in doc.urls), [u for u in doc.urls if not u.startswith("#")]
    assert "<style>" in html and "@page { size: A4" in html
    # user text is escaped: the name, the event label and the caller's reason
    assert BAD not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>Pavia</b>" not in html and "<i>really</i>" not in html
    text = "".join(doc.text)
    assert BAD in text and "Regional <b>Pavia</b>" in text


def test_match_report_content(dispute, tmp_path):
    ctx = report.match_context(dispute)
    html = render("report.html", **ctx)
    doc = Parsed(html)
    text = " ".join(" ".join(doc.text).split())
    # header: result and how it was decided, with the time-limit branch
    assert ctx["result"]["text"] == "Ann wins" and ctx["result"]["source"] == "time.decision"
    assert "more-life" in text and "Ann has 5 Life, the other player 3: more Life wins" in text
    assert "confirmed by every player" in text
    # every event has an anchor; judge actions highlighted, backed-out events struck through
    for n in range(1, 28):
        assert doc.ids.get(f"event-{n}") == "li"
    assert "judge" in doc.classes["event-15"] and "backed-out" not in doc.classes["event-15"]
    assert "backed-out" in doc.classes["event-12"]  # the game event the backup rewinds
    for n in (13, 14):  # the call and the ruling inside its span are the judge's: they stay
        assert "backed-out" not in doc.classes[f"event-{n}"]
    assert "judge" in doc.classes["event-14"] and "judge" not in doc.classes["event-12"]
    # findings link to their events, with the rulebook's (policy's) words
    links = re.findall(r'class="finding-link" href="#event-(\d+)"', html)
    assert links == ["21", "25"]
    assert "a disagreement between the slip and the log&#39;s own outcome is a finding" in html
    # the chart: Life per player across turns (0..3)
    (panel,) = ctx["chart"]["panels"]
    assert panel["name"] == "Life"
    lines = {l["player"]: [d["value"] for d in l["dots"]] for l in panel["lines"]}
    assert lines == {"Ann": ["5", "5", "5", "5"], BAD: ["5", "5", "5", "3"]}
    assert html.count("<polyline") == 2 and "<svg" in html
    # the table at the end of each turn and after each event; hidden cards are counted, not named
    assert [s["turn"] for s in ctx["segments"]] == [0, 1, 2, 3]
    end2 = {p["name"]: p for p in ctx["segments"][2]["table"]["players"]}
    assert end2["Ann"]["counters"]["Life"] == 5  # the Life loss of event 12 was backed out
    hand = next(z for z in end2[BAD]["zones"] if z["name"] == "hand")
    assert (hand["count"], hand["known"], hand["unknown"]) == (1, [], 1)
    assert html.count("<details>") == 27
    assert "a card" in text  # event 18 moves an unknown card
    # integrity: the chain's verdict and the last event's hash
    head = dispute.events()[-1].hash
    assert ctx["integrity"]["ok"] and ctx["integrity"]["head_hash"] == head and head in html


def test_report_with_a_broken_chain_says_so(store, dispute):
    with store._cursor(commit=True) as c:  # tamper below the store's API, as an attacker would
        c.execute("DROP TRIGGER tablejudge_no_update")
        c.execute("UPDATE stored_events SET state = replace(state, 'extra card drawn', 'nothing') "
                  "WHERE originator_id = ? AND originator_version = 15", (dispute.id,))
    ctx = report.match_context(Match(store, dispute.id))
    assert not ctx["integrity"]["ok"] and ctx["integrity"]["first_break"] == 15
    assert "FAILED" in render("report.html", **ctx)


def test_round_report(store, dispute, tmp_path):
    other = Match.create(store, "table", ["Cy", "Di"], round="3", table="2")
    other.record("game.end", {"how": "Di decked out", "winner": "Cy"})
    Match.create(store, "table", ["Ed", "Fa"], round="4", table="1")
    paths, _ = report.write_round_report(store, "3", out_dir=str(tmp_path / "out"))
    assert [Path(p).name for p in paths] == ["round-3.html", f"{other.id}.html", f"{dispute.id}.html"]
    html = Path(paths[0]).read_text(encoding="utf-8")
    doc = Parsed(html)
    assert set(doc.ids) >= {f"match-{other.id}", f"match-{dispute.id}"}
    assert "match-" + "Ed" not in html and "Ed vs Fa" not in html
    assert BAD not in html and "&lt;script&gt;" in html
    ctx = report.round_context(store, "3")
    rows = {r["id"]: r for r in ctx["matches"]}
    assert (rows[other.id]["result"], rows[other.id]["findings"]) == ("Cy wins", 0)
    assert (rows[dispute.id]["result"], rows[dispute.id]["findings"], rows[dispute.id]["errors"]) == \
        ("Ann wins", 2, 2)
    assert [r["table"] for r in ctx["matches"]] == ["2", "7"]  # in table order
    with pytest.raises(Exception, match="no match has round '9'"):
        report.round_context(store, "9")


def test_no_counters_no_chart(store):
    m = Match.create(store, "table", ["Ann", "Bob"])
    m.record("turn", {"player": "Ann"})
    ctx = report.match_context(m)
    assert ctx["chart"] is None
    assert "No counters to chart" in render("report.html", **ctx)


def test_templating_api():
    env = environment()
    assert env.autoescape is True or callable(env.autoescape)
    assert render("_macros.html") is not None
    t = env.from_string("{{ name }}")
    assert t.render(name=BAD) == "&lt;script&gt;alert(1)&lt;/script&gt;"
