"""Routes, one module per page group: staff (organizer, scorekeeper, judge pages and their
forms), public (boards, clock, "my table", the live stream), player (a table's page from its QR
code), api (JSON, documented at /docs). Each is a thin shell over judge.web.actions and views."""
