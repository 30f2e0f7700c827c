"""Every staff page says a player's report from its reporter's side, with one wording (QA73 5: the
round page listed "Nico Moretti: 1-0-0; Sara Bruno: 1-0-0", table order, no label, so Sara's
"I lost 0-1" read as if she claimed a win). /api keeps the reports in table order, and the words."""
from __future__ import annotations

import html as htmllib

from tests.web.conftest import new_event, player_tokens


def _page(api, path: str) -> str:
    return htmllib.unescape(api.http.get(path, params={"k": api.token}).text)


def test_the_round_page_and_the_queue_say_each_report_from_its_reporters_side(api):
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1, t2 = api.get(f"/api/t/{tid}/tables").json()
    links = player_tokens(api, tid)
    said = [(links[1], t1["player1"], "1-0"), (links[1], t1["player2"], "0-1"),  # agreed: player2 lost
            (links[2], t2["player1"], "1-0"), (links[2], t2["player2"], "1-0")]  # both say they won
    for token, who, result in said:
        r = api.post(f"/api/t/{tid}/report", {"player": who, "result": result}, token=token)
        assert r.status_code == 200, r.text
    lost = f"{t1['player1']}: I won 1-0; {t1['player2']}: I lost 0-1"
    dispute = f"{t2['player1']}: I won 1-0; {t2['player2']}: I won 1-0"
    page = _page(api, f"/t/{tid}/round/1")
    assert lost in page and dispute in page
    assert f"{t1['player2']}: 1-0-0" not in page  # the old table-order line
    queue = _page(api, f"/t/{tid}/queue")
    assert dispute in queue and "says 1-0-0" not in queue
    tables = api.get(f"/api/t/{tid}/tables").json()
    assert tables[0]["reports"] == {t1["player1"]: "1-0-0", t1["player2"]: "1-0-0"}  # table order, as before
    assert "; ".join(tables[0]["reports_said"]) == lost
