"""The penalty guides as data (engine/penalty_guides), the desk's suggestion from a player's
earlier penalties in the event, the deviation it flags (DESK-11), and `tablejudge judge penalty`."""
from __future__ import annotations

import json

import pytest

from engine.desk import PENALTY_LADDER, PENALTY_POLICIES
from engine.match import InputError, Match
from engine.store import EventStore
from engine.penalty_guide import GUIDE_FILES, guide_for, parse_guide, suggest
from judge.desk.penalties import earlier_penalties, give_penalty, suggest_for
from judge.desk.review import review
from tests.conftest import run_cli

LOOK = "OPTCG-PG-LOOKING-AT-UNNECESSARY-CARDS"


BACKENDS = ("sqlite",)  # what these tests look at does not depend on the backend (tests/conftest.py)


def test_both_guides_load_with_every_field_the_desk_reads():
    optcg, generic = guide_for("optcg"), guide_for("ken")
    assert (optcg.key, generic.key) == ("optcg", "generic") and GUIDE_FILES == {"optcg": "optcg.toml"}
    assert len(optcg.infractions) == 23 and len(generic.infractions) == 23
    assert optcg.policy == "bandai" and generic.policy == "mtg-ipg"
    for g in (optcg, generic):
        assert g.policy in PENALTY_POLICIES
        assert set(g.penalties) <= set(PENALTY_POLICIES[g.policy].penalties)
        assert set(g.categories) <= set(PENALTY_POLICIES[g.policy].categories or g.categories)
        for inf in g.infractions:
            assert inf.quote and inf.source and inf.category in g.categories
    # the manual's Suspension is on the ladder now (Theft's penalty), and counts across the event
    assert optcg.find("theft").default == "Suspension" and "Suspension" in PENALTY_LADDER
    assert (optcg.count_scope, optcg.deviation_mode, generic.count_scope, generic.deviation_mode) == \
        ("event", "never-reduce", "day", "exact")


def test_a_broken_guide_is_refused_naming_the_infraction_and_field():
    data = {"guide": {"game": "g", "policy": "bandai", "document": "d", "document_date": "2025", "url": "u",
                      "penalties": ["Warning", "Game Loss"], "categories": ["C"], "count_scope": "event",
                      "deviation": "exact"},
            "infraction": [{"id": "G-1", "name": "n", "category": "C", "default": "Warning", "description": "d",
                            "quote": "q", "source": "s", "confidence": "published",
                            "upgrades": [{"after": 2, "penalty": "Yellow Card"}]}]}
    with pytest.raises(ValueError, match=r"infraction 1 \(G-1\): upgrade 'Yellow Card'"):
        parse_guide("g", data)
    data["infraction"][0]["upgrades"] = [{"after": 1, "penalty": "Game Loss"}]
    with pytest.raises(ValueError, match="from the 2nd offence"):
        parse_guide("g", data)


def test_an_unknown_infraction_is_refused_with_the_closest_ones():
    with pytest.raises(InputError) as e:
        guide_for("optcg").find("looking")
    assert e.value.field == "infraction" and LOOK in str(e.value)


def test_repeats_count_across_the_event_not_other_events_and_not_voided_ones(store):
    m1 = Match.create(store, "optcg", ["Ann", "Bob"], event="t-1", round="1", table="3")
    m2 = Match.create(store, "optcg", ["Ann", "Cid"], event="t-1", round="2", table="1")
    other = Match.create(store, "optcg", ["Ann", "Dan"], event="t-2")
    rec, s = give_penalty(m1, player="Ann", infraction=LOOK, penalty="Warning", actor="judge:Kim")
    assert (s.offence, s.penalty, rec.event.payload["suggested"]) == (1, "Warning", "Warning")
    assert "deviation" not in rec.event.payload
    give_penalty(other, player="Ann", infraction=LOOK, penalty="Warning", actor="judge:Kim")
    # the second in event t-1 (round 2, another opponent): the manual's discretionary upgrade
    s2 = suggest_for(m2, "Ann", LOOK)
    assert (s2.offence, s2.penalty, s2.floor, s2.ceiling) == (2, "Game Loss", "Warning", None)
    assert [p.match for p in s2.earlier] == [m1.id] and s2.earlier[0].labels == {"round": "1", "table": "3"}
    assert s2.deviation("Warning") is None and s2.deviation("Match Loss") is None  # more is allowed
    assert "below the guide" in s2.deviation("Caution") and "never reduce" in s2.deviation("Caution")
    # another infraction is not a repeat of this one
    assert suggest_for(m2, "Ann", "OPTCG-PG-SLOW-PLAY").offence == 1
    # a penalty corrected away no longer counts
    m1.record("correction", {"voids": rec.event.position, "reason": "wrong player"}, actor="judge:Kim")
    assert suggest_for(m2, "Ann", LOOK).offence == 1
    assert earlier_penalties(store, m2, "Ann") == []


def test_the_generic_guide_upgrades_the_third_game_play_error_and_flags_any_other_penalty(store):
    m = Match.create(store, "ken", ["Ann", "Bob"], event="ev")
    for n, expect in ((1, "Warning"), (2, "Warning"), (3, "Game Loss")):
        rec, s = give_penalty(m, player="Ann", infraction="Game Rule Violation", penalty="Warning",
                              actor="judge:Kim")
        assert (s.offence, s.penalty) == (n, expect)
    assert rec.event.payload["policy"] == "mtg-ipg" and rec.event.payload["infraction"] == "Game Play Error"
    assert "only the Head Judge" in rec.event.payload["deviation"]
    desk = [f for f in review(m).desk if f.rule == "DESK-11"]
    assert [(f.position, f.severity) for f in desk] == [(rec.event.position, "warning")]
    # IPG-style: higher than the guide is a deviation too; a condition's penalty is not
    s = suggest_for(m, "Bob", "GEN-PG-MISSED-TRIGGER")
    assert s.penalty == "None" and s.deviation("Warning") is None and "above the guide" in s.deviation("Game Loss")


def test_tardiness_follows_the_thresholds_and_day_scope_counts_only_that_day(store):
    m = Match.create(store, "optcg", ["Ann", "Bob"], event="ev")
    s = suggest_for(m, "Bob", "OPTCG-PG-TARDINESS", minutes_late=6)
    assert s.penalty == "Game Loss" and "gets Game Loss at least" in s.deviation("Warning")
    assert suggest_for(m, "Bob", "OPTCG-PG-TARDINESS", minutes_late=11).penalty == "Match Loss"
    g = guide_for("ken")
    k = Match.create(store, "ken", ["Ann", "Bob"], event="ev2")
    give_penalty(k, player="Ann", infraction="Slow Play", penalty="Warning", actor="judge:Kim")
    today = suggest_for(k, "Ann", "GEN-PG-SLOW-PLAY")
    assert today.penalty == "Game Loss"  # the second Tournament Error Warning the same day
    tomorrow = suggest(g, g.find("Slow Play"), "Ann", earlier_penalties(store, k, "Ann", day="2999-01-01"))
    assert tomorrow.penalty == "Warning"


def test_a_suspension_is_a_loss_for_the_log(store):
    m = Match.create(store, "optcg", ["Ann", "Bob"])
    give_penalty(m, player="Bob", infraction="Theft", penalty="Suspension", actor="judge:Kim")
    r = review(m)
    assert (r.outcome.result, r.outcome.winner, r.outcome.source) == ("win", "Ann", "penalty")


def test_the_cli_shows_the_suggestion_and_records_nothing_until_a_penalty_is_given(tmp_path):
    db = str(tmp_path / "log.db")
    mid = run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", "--event", "ev",
                  db=db).stdout.split()[-1]
    shown = run_cli("judge", "penalty", mid, "--player", "Bob", "--infraction", "looking at unnecessary cards",
                    db=db)
    assert shown.returncode == 0 and "the guide suggests Warning" in shown.stdout
    assert "nothing recorded" in shown.stdout
    assert len(Match(EventStore.open(db), mid).events()) == 1
    given = run_cli("judge", "penalty", mid, "-j", "Kim", "--player", "Bob", "--infraction", LOOK,
                    "--penalty", "caution", "--json", db=db)
    assert given.returncode == 0, given.stderr
    out = json.loads(given.stdout)
    assert out["event"]["payload"]["deviation"].startswith("below the guide")
    assert out["suggestion"]["penalty"] == "Warning"
    bad = run_cli("judge", "penalty", mid, "--player", "Bob", "--infraction", "looking", db=db)
    assert bad.returncode == 2 and LOOK in bad.stderr
    listed = run_cli("judge", "infractions", "--ruleset", "optcg", "--json", db=db)
    assert len(json.loads(listed.stdout)) == 23


def test_the_penalties_list_names_the_infraction_not_only_its_category(store):
    """QA 2026-11-26: `tablejudge penalties` showed "Event Error" for a Slow Play Warning."""
    from judge.desk import penalty_rows

    m = Match.create(store, "optcg", ["Ann", "Bob"], event="ev")
    give_penalty(m, player="Bob", infraction="Slow Play", penalty="Warning", actor="judge:Kim")
    (row,) = penalty_rows(m)
    assert (row["infraction"], row["category"]) == ("Slow Play", "Event Error")


def test_a_penalty_above_the_guides_range_is_said_as_a_judges_upgrade_not_within_the_guide(tmp_path):
    """QA: a Disqualification for a first Slow Play was said "(within the guide)" under a step quoting
    its range, Warning to Game Loss. The optcg guide lets a judge go higher (no DESK-11), but says so."""
    db = str(tmp_path / "log.db")
    mid = run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", db=db).stdout.split()[-1]
    given = run_cli("judge", "penalty", mid, "--player", "Bob", "--penalty", "Disqualification",
                    "--infraction", "OPTCG-PG-SLOW-PLAY", db=db)
    assert given.returncode == 0, given.stderr
    line = given.stdout.splitlines()[-1]
    assert "within the guide" not in line and "DESK-11" not in line
    assert line.startswith("  given: Disqualification — above the guide (a judge's upgrade: the guide's range "
                           "is Warning to Game Loss)") and "Head Judge" in line
    event = Match(EventStore.open(db), mid).events()[-1]
    assert "deviation" not in event.payload
    within = run_cli("judge", "penalty", mid, "--player", "Ann", "--penalty", "Game Loss",
                     "--infraction", "OPTCG-PG-SLOW-PLAY", "--json", db=db)
    assert json.loads(within.stdout)["above_guide"] is None
    # the IPG-style guide: above is a deviation, said once as one
    ken = Match.create(EventStore.open(db), "ken", ["Ann", "Bob"])
    s = suggest_for(ken, "Bob", "GEN-PG-SLOW-PLAY")
    assert "above the guide" in s.deviation("Disqualification") and s.above("Disqualification") is None


def test_a_repeat_upgrade_to_any_penalty_the_quoted_repeat_rule_names_is_inside_the_guide(store):
    """QA71: a Match Loss on a 3rd Looking at Unnecessary Cards was said "above the guide (a judge's
    upgrade: the guide's range is Warning to Game Loss)" under the guide's own quote: a repeated
    Warning "can be upgraded to a Game Loss, Match Loss or Disqualification" (TRM 7.2)."""
    m = Match.create(store, "optcg", ["Ann", "Bob"], event="ev")
    first = suggest_for(m, "Bob", LOOK)
    assert first.top == "Warning" and "the guide gives Warning" in first.above("Match Loss")
    for _ in range(2):
        give_penalty(m, player="Bob", infraction=LOOK, penalty="Warning", actor="judge:Kim")
    s = suggest_for(m, "Bob", LOOK)
    assert (s.offence, s.penalty, s.floor, s.top) == (3, "Game Loss", "Warning", "Disqualification")
    assert s.above("Match Loss") is None and s.above("Disqualification") is None
    assert "Game Loss, Match Loss or Disqualification" in s.steps[2] and "up to Disqualification" in s.steps[2]
    assert "above the guide" in s.above("Suspension")
    # the data says it, and the guide refuses an up_to below its penalty
    assert guide_for("optcg").find(LOOK).upgrades == ((2, "Game Loss", "Disqualification"),)
    data = {"guide": {"game": "g", "policy": "bandai", "document": "d", "document_date": "2025", "url": "u",
                      "penalties": ["Warning", "Game Loss"], "categories": ["C"], "count_scope": "event",
                      "deviation": "exact"},
            "infraction": [{"id": "G-1", "name": "n", "category": "C", "default": "Warning", "description": "d",
                            "quote": "q", "source": "s", "confidence": "published",
                            "upgrades": [{"after": 2, "penalty": "Game Loss", "up_to": "Warning"}]}]}
    with pytest.raises(ValueError, match="up_to is below"):
        parse_guide("g", data)


def test_without_an_event_label_repeats_are_said_as_this_matchs_not_the_events(store):
    """QA71: Bob, penalised in another match that day (no event label on either), was told "in this
    event: none: this is the 1st offence"; the matches cannot be linked, and the desk must say so."""
    m1 = Match.create(store, "optcg", ["Ann", "Bob"])
    m2 = Match.create(store, "optcg", ["Cid", "Bob"])
    give_penalty(m1, player="Bob", infraction=LOOK, penalty="Warning", actor="judge:Kim")
    s = suggest_for(m2, "Bob", LOOK)
    counted = s.steps[1]
    assert s.offence == 1 and not s.linked and "in this event" not in counted
    assert counted.startswith("Bob's earlier penalties for it in this match: none: this is the 1st offence in "
                              "this match") and "cannot be linked" in counted and "--event" in counted
    linked = suggest_for(Match.create(store, "optcg", ["Ann", "Bob"], event="ev"), "Bob", LOOK)
    assert linked.linked and "in this event: none: this is the 1st offence" in linked.steps[1]
    assert "cannot be linked" not in linked.steps[1]


def test_an_appeal_has_one_standing_decision_and_penalties_show_it(tmp_path):
    """QA71: `judge appeal M 33 --decision changed`, then `--decision upheld` on the same penalty,
    were both recorded with no finding, and `penalties` never showed an appeal's outcome."""
    db = str(tmp_path / "log.db")
    mid = run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", db=db).stdout.split()[-1]
    run_cli("judge", "penalty", mid, "-j", "Kim", "--player", "Bob", "--penalty", "Match Loss",
            "--infraction", LOOK, db=db)
    first = run_cli("judge", "appeal", mid, "2", "--decision", "changed", "--by", "Bob", "--text",
                    "reduced to game loss", "-j", "HJ", db=db)
    assert first.returncode == 0, first.stderr
    again = run_cli("judge", "appeal", mid, "2", "--decision", "upheld", "--text", "again", "-j", "HJ", db=db)
    assert again.returncode == 2 and "already decided: changed (event 3)" in again.stderr
    assert "--override REASON" in again.stderr and "Traceback" not in again.stderr
    m = Match(EventStore.open(db), mid)
    assert len(m.events()) == 3  # nothing stored on the refusal
    rows = json.loads(run_cli("penalties", mid, "--json", db=db).stdout)
    assert rows[0]["appeal"] == "changed (event 3): reduced to game loss"
    text = run_cli("penalties", mid, db=db).stdout
    assert "appeal" in text and "changed (event 3)" in text
    over = run_cli("judge", "appeal", mid, "2", "--decision", "upheld", "--text", "video shows the look",
                   "--override", "new evidence", "-j", "HJ", db=db)
    assert over.returncode == 0, over.stderr
    assert m.events()[-1].payload["override"] == "new evidence"
    assert json.loads(run_cli("penalties", mid, "--json", db=db).stdout)[0]["appeal"] == \
        "upheld (event 4; replaces 3): video shows the look"
    assert not [f for f in review(m).desk if f.rule == "DESK-13"]
    # the same second decision recorded another way (`log`) is kept, and flagged
    m.record("judge.appeal", {"appealed": 2, "decision": "overturned", "text": "no"}, actor="judge:HJ")
    (flag,) = [f for f in review(m).desk if f.rule == "DESK-13"]
    assert flag.position == 5 and "already decided: upheld (event 4)" in flag.message


def test_a_penalty_in_a_match_labelled_by_the_tournament_name_counts_in_one_labelled_by_its_id(store):
    # review: `match new --event "Side"` stored "Side" without --round/--table (the id with them), and
    # older matches carry the name: the escalation compared labels exactly and split in two
    from judge.tournament.aggregate import Tournament
    from judge.tournament.tablematch import new_match
    t = Tournament.create(store, name="Side", game="optcg", tournament_id="t-side")
    old = Match.create(store, "optcg", ["Ann", "Bob"], event="Side")  # as an older `match new` labelled it
    give_penalty(old, player="Ann", infraction=LOOK, penalty="Warning", actor="judge:Kim")
    made = new_match(store, "optcg", ["Ann", "Cid"], event="side")  # no round, no table: labelled by the id
    assert made.created.payload["event"] == t.id
    assert [p.match for p in suggest_for(made, "Ann", LOOK).earlier] == [old.id]
    give_penalty(made, player="Ann", infraction=LOOK, penalty="Game Loss", actor="judge:Kim")
    assert suggest_for(old, "Ann", LOOK).offence == 3  # and the other way round
    free = Match.create(store, "optcg", ["Ann", "Dan"], event="Sid")  # a free label: itself alone
    assert suggest_for(free, "Ann", LOOK).earlier == []
