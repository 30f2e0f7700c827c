"""`tablejudge serve --demo`: a seeded event to look around in. Sixteen players registered from a
CSV text, round 1 paired with its clock running, some tables confirmed by their players, one
reported and waiting, one disputed (in the judges' queue), one entered by a scorekeeper."""
from __future__ import annotations

from engine.store import EventStore
from judge.tournament import Tournament
from judge.tournament.entry import record_results
from judge.tournament.registration import import_registrations
from judge.tournament.reports import report_result
from judge.tournament.rounds import extend, start_clock

PLAYERS = ["Ann Rossi", "Bob Verdi", "Cid Bianchi", "Dee Neri", "Eva Russo", "Fabio Galli", "Gina Costa",
           "Hugo Ferri", "Ines Conti", "Luca Conte", "Marta Leone", "Nico Moretti", "Olga Fontana",
           "Piero Greco", "Rita Marino", "Sara Bruno"]


def seed_demo(store: EventStore) -> str:
    t = Tournament.create(store, name="Demo Store Championship", game="optcg", policy="bandai", rounds=3,
                          top_cut=4, seed="demo", tournament_id="t-demo", recorded_by="demo", actor="organizer")
    csv = "name,member_id\n" + "".join(f"{n},{1001 + i}\n" for i, n in enumerate(PLAYERS))
    import_registrations(t, csv, "demo-registrations.csv")
    t.pair()
    start_clock(t, 50)
    extend(t, 3, 5, "deck check")
    rnd = t.state().current
    tables = rnd.tables()
    for p in tables[:3]:  # confirmed by both players
        report_result(t.with_actor(p.player1, "demo"), p.player1, "1-0")
        report_result(t.with_actor(p.player2, "demo"), p.player2, "0-1")
    p = tables[3]  # reported, waiting for the opponent
    report_result(t.with_actor(p.player1, "demo"), p.player1, "1-0")
    p = tables[4]  # the players disagree: the judges' queue
    report_result(t.with_actor(p.player1, "demo"), p.player1, "1-0")
    report_result(t.with_actor(p.player2, "demo"), p.player2, "1-0")
    record_results(t.with_actor("scorekeeper:Sam", "demo"), [(tables[5].table, "0-1")])
    return t.id
