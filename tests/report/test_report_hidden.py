"""The report follows the replay's rule for hidden information (QA78 MED-1): by default a card
nobody at the table showed stays hidden (a report may be posted for players); `--staff` shows
every card the log names, and the page says which view it is."""
from __future__ import annotations

import json
import os

from engine.match import Match
from engine.store import EventStore
from tests.conftest import ROOT, run_cli

OPTCG = os.path.join(ROOT, "examples", "optcg", "match.jsonl")
DRAWN, TAKEN = "OP01-051", "ST01-012"  # named by the judge who recorded them: in a hand, unseen by the table
WARNING = "staff view: shows hidden cards — do not hand to players"


def hidden_cards_named(tmp_path) -> tuple[str, str]:
    db = str(tmp_path / "log.db")
    assert run_cli("import", OPTCG, db=db).returncode == 0
    store = EventStore.open(db)
    m = Match(store, store.match_ids()[0])
    ann, bob = m.players
    m.record("draw", {"player": ann, "cards": [DRAWN]}, actor=ann)
    m.record("life.taken", {"player": bob, "card": TAKEN, "to": "hand"}, actor=bob)
    return db, m.id


def test_a_hidden_card_is_in_the_staff_report_only(tmp_path):
    db, mid = hidden_cards_named(tmp_path)
    public, staff = tmp_path / "public.html", tmp_path / "staff.html"
    r = run_cli("report", mid, "-o", str(public), "--json", db=db)
    assert r.returncode in (0, 1), r.stderr
    assert DRAWN not in public.read_text(encoding="utf-8")  # the leak itself, before --staff exists
    assert json.loads(r.stdout)["staff"] is False
    assert run_cli("report", mid, "--staff", "-o", str(staff), db=db).returncode in (0, 1)
    pub, st = public.read_text(encoding="utf-8"), staff.read_text(encoding="utf-8")
    for card in (DRAWN, TAKEN):
        assert card in st and card not in pub, card
    assert WARNING in st and WARNING not in pub and "Public view" in pub


def test_a_round_report_hides_them_too_unless_staff(tmp_path):
    db, mid = hidden_cards_named(tmp_path)
    out, staff_out = tmp_path / "pub", tmp_path / "staff"
    assert run_cli("report", "--round", "1", "--out-dir", str(out), db=db).returncode in (0, 1)
    assert run_cli("report", "--round", "1", "--staff", "--out-dir", str(staff_out), db=db).returncode in (0, 1)
    pub = (out / f"{mid}.html").read_text(encoding="utf-8")
    st = (staff_out / f"{mid}.staff.html").read_text(encoding="utf-8")
    assert DRAWN not in pub and DRAWN in st
    assert WARNING in (staff_out / "round-1.staff.html").read_text(encoding="utf-8")
    assert WARNING not in (out / "round-1.html").read_text(encoding="utf-8")


def test_the_staff_report_never_takes_the_public_reports_file(tmp_path):
    """QA80 1 (HIGH): `report MATCH --staff` with no -o wrote exports/MATCH.html, the public
    report's file, and said nothing: a posted or shared exports/ folder then gave out the hands."""
    db, mid = hidden_cards_named(tmp_path)
    out = tmp_path / "exports"
    for first, second in (([], ["--staff"]), (["--staff"], [])):  # neither order replaces the other
        pub = run_cli("report", mid, "--out-dir", str(out), *first, db=db)
        st = run_cli("report", mid, "--out-dir", str(out), *second, db=db)
        if first:
            pub, st = st, pub
        assert pub.returncode in (0, 1) and st.returncode in (0, 1), pub.stderr + st.stderr
        public, staff = out / f"{mid}.html", out / f"{mid}.staff.html"
        assert DRAWN not in public.read_text(encoding="utf-8")
        assert DRAWN in staff.read_text(encoding="utf-8")
        assert pub.stdout.strip() == str(public)
        assert st.stdout.strip() == f"staff view (hidden cards shown): {staff} — do not hand to players"


def test_a_staff_round_is_named_apart_and_links_its_staff_pages(tmp_path):
    db, mid = hidden_cards_named(tmp_path)
    out = tmp_path / "exports"
    assert run_cli("report", "--round", "1", "--out-dir", str(out), db=db).returncode in (0, 1)
    r = run_cli("report", "--round", "1", "--staff", "--out-dir", str(out), db=db)
    assert r.returncode in (0, 1), r.stderr
    assert all(line.startswith("staff view (hidden cards shown): ") for line in r.stdout.splitlines())
    round_pub, round_staff = (out / "round-1.html").read_text(encoding="utf-8"), (out / "round-1.staff.html").read_text(encoding="utf-8")
    assert WARNING not in round_pub and f'href="{mid}.html"' in round_pub
    assert WARNING in round_staff and f'href="{mid}.staff.html"' in round_staff
    assert DRAWN not in (out / f"{mid}.html").read_text(encoding="utf-8")
    assert DRAWN in (out / f"{mid}.staff.html").read_text(encoding="utf-8")


def test_a_public_name_never_ends_as_a_staff_name():
    from judge.report.files import report_name
    assert report_name("round-1") == "round-1.html" and report_name("round-1", staff=True) == "round-1.staff.html"
    # a round labelled "1.staff" must not take round 1's staff file
    assert report_name("round-1.staff") not in (report_name("round-1", staff=True), "round-1.staff.html")
