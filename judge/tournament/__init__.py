"""Event-sourced tournaments: players, rounds, pairings, results; standings derived by replay.

    store = EventStore.open("t.db")
    t = Tournament.create(store, name="Pavia 15", game="optcg", policy="mtg", rounds=6, top_cut=8)
    t.register("Ann"); t.register("Bob"); ...
    t.pair()                         # round 1 (Swiss), appended as a round.paired event
    t.record_slip("1-0-0", table=1)  # optcg Swiss is best of one; or t.record_matches([...])
    t.standings()                    # derived from the events, never stored
    t.top_cut()                      # quarterfinals, semifinals, finals

A tournament is a stream of the event log started by `tournament.created`; every organizer action
is one event. A correction is a new event: a result recorded again for the same table supersedes
the earlier one (both stay in the log), and the core `correction` event voids an earlier event.
Pairings are stored as facts (with their seed and reasons), so a changed pairing algorithm never
rewrites history.

Modules: vocab (event kinds), state (replay), aggregate (the Tournament), pages (for people),
pairing, standings (policies and tiebreakers), results (slips and result files), formats (best of N).
"""

from judge.faces import lazy_face

# The public face, imported on first use (PEP 562): recording a result must not pay for the HTML
# pages (jinja2) it does not render (CLI start-up, issue 17).
__getattr__, __all__ = lazy_face(__name__, {
    "judge.tournament.vocab": ("CREATED", "TournamentCreated", "PlayerRegistered", "PlayerDropped",
                               "ByeGranted", "RoundPaired", "ResultRecorded", "KINDS"),
    "judge.tournament.state": ("PlayerInfo", "RoundState", "TournamentState", "replay"),
    "judge.tournament.aggregate": ("Tournament",),
    "judge.tournament.pages": ("pairings_by_name", "record_text", "pairings_by_table", "standings_page"),
})
