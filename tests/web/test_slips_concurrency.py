"""Printing the slips does not hold the server (QA75 1): at round start the organizer prints
them just when every player looks up "my table", and drawing 150 QR codes on the event loop kept
every phone waiting for 2.4 s. A real server, two real connections: the order they are answered
in, no timing threshold."""
from __future__ import annotations

import http.client
import threading
import time
from urllib.parse import urlencode

from tests.web.conftest import new_event


def test_my_table_is_answered_while_the_slips_are_still_being_drawn(api, server):
    tid = new_event(api, players=160)  # 80 tables: 80 QR codes, each drawn once (a fresh server)
    api.do(tid, "pair")
    host, port = "127.0.0.1", server.port
    order: list[str] = []

    slips = http.client.HTTPConnection(host, port, timeout=120)
    slips.request("GET", f"/t/{tid}/slips?" + urlencode({"k": server.token}))

    def read_slips():
        response = slips.getresponse()  # returns once the status line and headers are in
        order.append("slips")
        assert response.status == 200
        assert response.read().count(b"<svg") == 80

    reader = threading.Thread(target=read_slips)
    reader.start()
    # let the server take the slips request first (not an assertion: if it has not, the slips are
    # answered after "my table" in either code and the test proves nothing, it cannot fail wrongly)
    time.sleep(0.3)
    me = http.client.HTTPConnection(host, port, timeout=120)
    me.request("GET", f"/t/{tid}/me?" + urlencode({"name": "Player 07"}))
    response = me.getresponse()
    body = response.read().decode()
    order.append("me")
    reader.join()
    assert response.status == 200 and "Player 07" in body and "table" in body
    assert order == ["me", "slips"], "the slips page held the server: 'my table' waited for it"
    slips.close(), me.close()


def test_a_second_print_of_the_same_slips_draws_no_code_again(monkeypatch):
    """A slip's link is the same on every print of its round: each code is drawn once."""
    from judge.web import qr

    drawn = []
    make = qr.segno.make
    monkeypatch.setattr(qr.segno, "make", lambda data, **kw: drawn.append(data) or make(data, **kw))
    links = [f"http://desk.test/t/t-0/play?k=second-print-{i}" for i in range(3)]
    first = qr.svgs(links)
    assert qr.svgs(links) == first and drawn == links
