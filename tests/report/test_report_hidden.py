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


def test_a_staff_view_never_replaces_a_public_file_named_with_o(tmp_path):
    """QA81 M3: `report M --staff -o exports/M.html` and `replay M --staff -o exports/M-replay.html`
    wrote hands into the public files without a word. The file says which view it holds; the other
    view is refused there (nothing written) unless --overwrite, either way round."""
    db, mid = hidden_cards_named(tmp_path)
    for cmd in ("report", "replay"):
        public, staff = tmp_path / f"{cmd}.html", tmp_path / f"{cmd}.staff.html"
        assert run_cli(cmd, mid, "-o", str(public), db=db).returncode in (0, 1)
        assert run_cli(cmd, mid, "--staff", "-o", str(staff), db=db).returncode in (0, 1)
        before = public.read_text(encoding="utf-8"), staff.read_text(encoding="utf-8")
        for path, flags in ((public, ["--staff"]), (staff, [])):
            r = run_cli(cmd, mid, "-o", str(path), *flags, db=db)
            assert r.returncode == 2 and "--overwrite" in r.stderr and str(path) in r.stderr, (cmd, r.stderr)
            assert "Traceback" not in r.stderr
        assert (public.read_text(encoding="utf-8"), staff.read_text(encoding="utf-8")) == before
        # the same view again replaces its own file; --overwrite replaces the other's
        assert run_cli(cmd, mid, "-o", str(public), db=db).returncode in (0, 1)
        assert run_cli(cmd, mid, "--staff", "-o", str(public), "--overwrite", db=db).returncode in (0, 1)
        assert DRAWN in public.read_text(encoding="utf-8")


def test_a_file_written_before_the_view_meta_is_still_recognised(tmp_path):
    """exports/ folders written by an earlier version hold pages without the meta: their notices say it."""
    from judge.report.files import file_view
    old_public = tmp_path / "old.html"
    old_public.write_text('<html><body><p id="view" class="muted">Public view: ...</p></body></html>', encoding="utf-8")
    old_replay = tmp_path / "old-replay.html"
    old_replay.write_text("<p class=\"muted notice\">The staff's view: every card the log names, hands included.",
                          encoding="utf-8")
    other = tmp_path / "notes.html"
    other.write_text("<p>my notes</p>", encoding="utf-8")
    assert [file_view(str(p)) for p in (old_public, old_replay, other, tmp_path / "none.html")] == [
        "public", "staff", None, None]


def test_the_appeals_file_is_named_and_announced_as_the_staffs(tmp_path, monkeypatch):
    """QA81 M3 b: `appeals M` wrote exports/M-appeals.html holding the hands (its appendix is the
    staff's report) with no .staff in its name, no warning in it and none on the terminal."""
    from tests.conftest import run_in_process
    db, mid = hidden_cards_named(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_in_process(db, "appeals", mid)
    assert code == 0, err
    path = os.path.join("exports", f"{mid}-appeals.staff.html")
    assert out.strip() == f"staff view (hidden cards shown): {path} — do not hand to players"
    page = (tmp_path / path).read_text(encoding="utf-8")
    assert DRAWN in page and WARNING in page.split("Incident")[0]  # said at the top, before any incident
    # a public report named with -o is not replaced by the appeals file
    public = tmp_path / "public.html"
    assert run_cli("report", mid, "-o", str(public), db=db).returncode in (0, 1)
    code, out, err = run_in_process(db, "appeals", mid, "-o", str(public))
    assert code == 2 and "--overwrite" in err and DRAWN not in public.read_text(encoding="utf-8")
