"""`tablejudge standings FILE` and the `tablejudge tournament ...` group: thin shells over
judge.standings, judge.results_io, judge.pairing and judge.tournament."""
from __future__ import annotations

from typing import Any

import click

from engine.match import InputError
from engine.store import anchor_token
from engine.words import plural
from engine.schema import shown

from judge.io.cardnames import CARD_DATA_RULESETS, CardNames
from judge.tournament.results import read_results
from judge.tournament.seal import token as seal_token
from judge.tournament.standings import (
    DOUBLE_LOSS,
    POLICIES,
    Policy,
    PolicyError,
    Standings,
    compare,
    FALLBACK_POLICY,
    GAME_POLICIES,
    compute_standings,
    default_policy,
    get_policy,
    uncompared_columns,
)
from judge.tournament.standings import TIEBREAKER_LABELS as TB_LABELS
from judge.tournament.standings import format_fraction as _pct
from judge.tournament.standings import record_text
from judge.tournament import Tournament, TournamentState
from judge.tournament.aggregate import Entry, again_words, check_game, drop_words, slip_text
from judge.tournament.tables import table_list
from judge.tournament.vocab import ResultRecorded
from judge.tournament.placings import warnings as invalidation_warnings
from judge.io.files import write_text
from judge.io.text import read_text
from judge.cli.common import (WARNINGS_SAID, FindingsExit, csv_options, echo_csv, emit_json, emit_rows, pass_env, ruleset_name,
                              stderr, table_text)


def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in pairs:
        if "=" not in item:
            raise InputError(f"--option takes name=value, got {shown(item)}", field="option")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _policy_words(policy: Policy, game: str | None = None) -> str:
    """What the standings policy ranks by, and whether it is `game`'s own (an event created before
    the game's own became the default may hold mtg's; a results file names no game)."""
    words = f"points, then {', '.join(TB_LABELS[k] for k in policy.order)}"
    if game is None:
        return words
    own = GAME_POLICIES.get(game)
    whose = (f"the default: {game} has no policy of its own" if own is None else
             f"{game}'s own" if policy.name == own else f"{game}'s own is {own}")
    return f"{words}; {whose}"


def _policy_line(policy: Policy, game: str | None = None) -> str:
    """The policy in words, as `tournament new` says it, `tournament standings` and `standings FILE`
    head their text and `tournament show` lists it."""
    return f"standings policy {policy.name} ({_policy_words(policy, game)})"


def _policy(name: str, options: dict[str, str]):
    try:
        return get_policy(name, options)
    except PolicyError as e:
        raise InputError(str(e), field=f"option {e.field}" if e.field != "policy" else "policy") from None


def standings_text(st: Standings) -> str:
    cols = ["rank", "player", "points", "W-L-D", *[TB_LABELS[k] for k in st.policy.order]]
    rows = []
    for r in st.rows:
        d: dict[str, Any] = {"rank": r.rank, "player": r.player + (" (dropped)" if r.dropped else "")
                             + ("" if r.played else " (no match played)"),
                             "points": r.points, "W-L-D": record_text(r.wins, r.losses, r.draws, r.byes, r.missed)}
        for k in st.policy.order:
            v = r.tiebreakers.get(k)
            d[TB_LABELS[k]] = (f"{v:g}" if k == "h2h" and v is not None else
                               "" if k == "h2h" else _pct(v))
        rows.append(d)
    out = table_text(rows, cols)
    for w in st.warnings:
        out += f"\nwarning: {w}"
    return out


def standings_export(st: Standings, ids: dict[str, str | None]) -> list[dict[str, Any]]:
    """Standings rows for --json and --csv with each player's member id beside the name (None,
    an empty cell, when the player has none)."""
    out = []
    for row in st.to_dicts():
        d: dict[str, Any] = {}
        for k, v in row.items():
            d[k] = v
            if k == "player":
                d["id"] = ids.get(v)
        out.append(d)
    return out


def _emit_standings(st: Standings, as_json: bool, as_csv: Any, ids: dict[str, str | None] | None = None,
                    title: str = "") -> None:
    rows = st.to_dicts() if ids is None else standings_export(st, ids)
    if as_json and ids is None:  # a results file's rows: no tournament shows which policy ranked them
        rows = [{**r, "policy": st.policy.name} for r in rows]
    if as_json:
        emit_json(rows)
    elif as_csv:
        echo_csv(rows, as_csv)
    else:
        click.echo((f"{title}\n" if title else "") + standings_text(st))


def as_after(st: TournamentState, round_no: int) -> str:
    """The standings' title: the round they are as after, and a later round whose results do not
    count yet (QA70 11: mid-round 2 the text showed round 1's standings without saying so)."""
    rnd = st.round(round_no) if round_no else None
    said = f"Standings as after {rnd.name}" if rnd else "Standings before the first round"
    later = [r for r in st.rounds if r.stage == "swiss" and r.number > round_no]
    if later:
        nxt = later[0]
        said += (f" ({nxt.name} is in progress: its results do not count yet)" if not nxt.complete
                 else f" (later: {', '.join(r.name for r in later)}; --round to see them)")
    return said


def register(cli: click.Group) -> None:
    policy_help = "Standings policy: " + ", ".join(POLICIES) + " (docs/tournaments.md)."

    @cli.command("standings")
    @click.argument("file", type=click.Path(dir_okay=False))
    @click.option("--policy", default="mtg", show_default=True, help=policy_help)
    @click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
                  help="Override a policy parameter, e.g. mw_floor=0.33, drawn_game_points=1, style=digimon.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON rows (tiebreakers as fractions).")
    @csv_options
    @click.option("--compare", is_flag=True,
                  help="Compare with the file's own published standings; list every differing row and column (exit 1 if any).")
    @click.option("--tolerance", default=1e-6, show_default=True, help="For --compare: allowed difference of a fraction.")
    def standings_cmd(file: str, policy: str, options: tuple[str, ...], as_json: bool, as_csv: bool,
                      compare: bool, tolerance: float) -> None:
        """Standings straight from a results file, to check another tool's numbers.

        FILE is a melee.gg / MTGODecklistCache JSON file (Rounds, Matches with Player1, Player2 ("-"
        for a bye), Result "W-L-D" or "double-loss", Standings) or a CSV with the columns
        round,player,opponent,wins,losses,draws (and optionally double_loss: true for a match loss
        for both). Top-cut rounds (Quarterfinals, Top 8, ...) do not count. The text's first line
        names the policy (on stderr with --csv; `policy` in --json rows).

        \b
        Examples:
          tablejudge standings event.json --policy mtg
          tablejudge standings event.json --compare
          tablejudge standings results.csv --policy bandai --option style=digimon --json
        """
        _standings_file(file, policy, options, as_json, as_csv, compare, tolerance)

    def _standings_file(file, policy, options, as_json, as_csv, compare, tolerance) -> None:
        pol = _policy(policy, _options(options))
        data = read_results(file)
        st = compute_standings(data.results, pol, players=data.players)
        if compare:
            if not data.published:
                raise InputError("the file has no published standings to compare with", field="Standings",
                                 where=file)
            diffs = _compare(st, data.published, tolerance)
            skipped = uncompared_columns(pol, data.published)
            if as_json:
                emit_json({"differences": diffs, "rows": len(st.rows), "published": len(data.published),
                           "not_compared": skipped, "policy": pol.name})
            elif as_csv:
                echo_csv(diffs, as_csv)
            elif diffs:
                click.echo(table_text(diffs, ["player", "column", "ours", "published"]))
                click.echo(f"{plural(len(diffs), 'difference')} in {plural(len({d['player'] for d in diffs}), 'row')}")
            else:
                click.echo(f"all {len(data.published)} published rows agree (policy {pol.name}, "
                           f"tolerance {tolerance:g})")
            for c in skipped:  # on stderr for --csv, so the CSV stays clean
                note = f"not compared: {c['column']} ({c['reason']})"
                if as_csv:
                    stderr(note)
                elif not as_json:
                    click.echo(note)
            if diffs:
                raise FindingsExit()
            return
        if as_csv:  # on stderr, so the CSV stays clean; --json rows carry it as `policy`
            stderr(_policy_line(pol))
        _emit_standings(st, as_json, as_csv, title=_policy_line(pol))

    def _compare(st, published, tolerance):
        return compare(st, published, tolerance=tolerance)

    @cli.group("tournament")
    def tournament() -> None:
        """Run a tournament: register players, pair rounds, record results, print standings.

        \b
        A full event:
          tablejudge tournament new --name "Pavia 15" --game optcg --rounds 6 --top-cut 8 --seed 42
          tablejudge tournament register T Ann Bob Cid Dee
          tablejudge tournament pair T --explain
          tablejudge tournament result T 1-0-0 --table 1     # optcg Swiss: best of one
          tablejudge tournament standings T --html exports/standings.html
          tablejudge tournament top-cut T
        """

    def _open(env, ref: str) -> Tournament:
        return Tournament.open(env.store(), ref, env.recorded_by)

    @tournament.command("new")
    @click.option("--name", required=True, help="The event's name.")
    @click.option("--game", "-r", "--ruleset", "game", required=True, callback=ruleset_name,
                  help="The game/ruleset played (e.g. optcg, op2009); -r/--ruleset as `match new` takes it, and refuses an unknown one.")
    @click.option("--policy", default=None,
                  help="The standings policy (match points and tiebreakers): " + ", ".join(POLICIES) + ". Default: "
                       "the game's own (" + ", ".join(f"{g} {p}" for g, p in GAME_POLICIES.items())
                       + f", others {FALLBACK_POLICY}; docs/tournaments.md).")
    @click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A policy parameter.")
    @click.option("--rounds", default=0, show_default=True, help="Swiss rounds planned (0: open-ended).")
    @click.option("--top-cut", default=0, show_default=True, help="Top cut size (0, 2, 4, 8, ...).")
    @click.option("--seed", default=None, help="Pairing seed (default: random, stored in the log).")
    @click.option("--best-of", "best_of", type=int, default=None,
                  help="Swiss matches are best of N games (default: the game's: optcg 1, op2009 3, others 3).")
    @click.option("--top-cut-best-of", "top_cut_best_of", type=int, default=None,
                  help="Top-cut matches are best of N games (default: the game's: optcg 3, op2009 3, others 3).")
    @click.option("--id", "tid", default=None, help="Tournament id (default: t-<random>).")
    @click.option("--same-name", "same_name", is_flag=True,
                  help="Create it although another tournament has the name (case, spaces and accents aside); "
                       "refused without it: neither could be found by name, only by id.")
    @click.option("--json", "as_json", is_flag=True)
    @pass_env
    def new_cmd(env, name, game, policy, options, rounds, top_cut, seed, best_of, top_cut_best_of, tid,
                same_name, as_json) -> None:
        """Create a tournament; prints its id alone on stdout, and on stderr the standings policy
        it picked (the game's own unless --policy; --json carries it as `policy`).

        \b
        Examples:
          tablejudge tournament new --name "Store league" --game optcg --policy bandai --rounds 5 --top-cut 4
          tablejudge tournament new --name "Regional" --game optcg --best-of 3 --rounds 6
        """
        check_game(game)  # Tournament.create checks it too; here first, before the policy is worked out
        opts = _options(options)
        chosen = policy is not None
        policy = policy or default_policy(game)
        _policy(policy, opts)
        t = Tournament.create(env.store(create=True), name=name, game=game, policy=policy, policy_options=opts or None,
                              rounds=rounds, top_cut=top_cut, seed=seed, tournament_id=tid,
                              recorded_by=env.recorded_by, best_of=best_of, top_cut_best_of=top_cut_best_of,
                              same_name=same_name)
        if as_json:
            emit_json(t.state().summary())
        else:
            click.echo(t.id)  # alone on stdout: scripts read it (T=$(tablejudge tournament new ...))
            # QA73 16: the policy picked for the game was said nowhere until `show`
            st = t.state()
            stderr(_policy_line(st.policy, st.game) + ("" if chosen else "; --policy to choose another at creation"))

    @tournament.command("list")
    @click.option("--json", "as_json", is_flag=True)
    @pass_env
    def list_cmd(env, as_json) -> None:
        """List the tournaments in the event log.

        \b
        Example:
          tablejudge tournament list --json
        """
        rows = [Tournament(env.store(), tid).state().summary() for tid in Tournament.list_ids(env.store())]
        if as_json:
            emit_json(rows)
        else:
            click.echo(table_text([{**r, "current_round": (r["current_round"] or {}).get("name")} for r in rows],
                                  ["id", "name", "game", "policy", "players", "rounds_paired", "current_round"]))

    @tournament.command("show")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--json", "as_json", is_flag=True)
    @pass_env
    def show_cmd(env, tournament_ref, as_json) -> None:
        """A tournament's state: players, rounds, what is missing.

        \b
        Example:
          tablejudge tournament show t-1a2b3c4d
        """
        st = _open(env, tournament_ref).state()
        s = st.summary()
        s["players_list"] = [{"player": p.player, "id": p.player_id, "late": p.late,
                              "dropped_after_round": p.dropped_after_round} for p in st.players.values()]
        if as_json:
            emit_json(s)
            return
        click.echo(f"{st.name} ({st.id}) — {st.game}, {_policy_line(st.policy, st.game)}, "
                   f"{st.rounds_planned or 'open'} Swiss rounds, top cut {st.top_cut_size or 'none'}")
        sw, el = st.match_format("swiss"), st.match_format("elimination")
        def said(f) -> str:  # each stage for itself, as --json's "declared" and "source" say
            return f"{f.name} ({f.source})" if f.declared else f"{f.name} (undeclared: {f.source})"

        click.echo(f"matches: Swiss {said(sw)}; top cut {said(el)}")
        click.echo(f"players: {len(st.players)} ({len(st.active_players())} active)")
        cur = st.current
        if cur:
            miss = cur.missing()
            click.echo(f"current: {cur.name} ({cur.stage}); "
                       + (f"missing results at table(s) {table_list(miss)}" if miss else "complete"))

    @tournament.command("register")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("players", nargs=-1)
    @click.option("--id", "player_id", default=None, help="The player's id (one player only).")
    @click.option("--decklist", type=click.Path(exists=True, dir_okay=False), default=None,
                  help="A decklist file to store with the registration (one player only).")
    @click.option("--csv", "csv_file", type=click.Path(exists=True, dir_okay=False), default=None,
                  help="Register everyone in a CSV file (columns name, member_id, decklist), all or none.")
    @click.option("--allow-similar", "allow_similar", is_flag=True,
                  help="Register a name that differs from a registered one only by case, spaces or accents.")
    @click.option("--json", "as_json", is_flag=True,
                  help="{\"registered\": [{player, id, position}], \"warnings\": [...]} (an error as {\"error\": {...}}, "
                       "with the \"warnings\" said before it).")
    @pass_env
    def register_cmd(env, tournament_ref, players, player_id, decklist, csv_file, allow_similar, as_json) -> None:
        """Register players (also late entries, after round 1 is paired; refused once every declared
        Swiss round is paired, and once the top cut has started). A name that looks like a
        registered one (same but for case, spaces or accents: "luca  conte" and "Luca Conte") is
        refused unless --allow-similar. Two people with the very same name cannot share it (players
        are known by their registered name everywhere): register the second one under a name that
        tells them apart, e.g. their member id in brackets. A member id another player holds is
        refused, naming them; one that differs from another player's only by look-alike characters
        (l, I and 1; O and 0) or case is a warning. All or nothing: every refused name or CSV line
        is listed at once (exit 2), and nobody is registered.

        \b
        Example:
          tablejudge tournament register t-1a2b Ann Bob "Cid Rossi"
          tablejudge tournament register t-1a2b Dee --id 1234 --decklist dee.txt
          tablejudge tournament register t-1a2b --csv registrations.csv
          tablejudge tournament register t-1a2b "Maria Rossi (M99999)" --id M99999   # a second Maria Rossi

        \b
        An optcg decklist is read against the card data first (a line it cannot read refuses the
        registration) and checked; `match new --decks-from T` copies it into a match.
        """
        if (player_id or decklist) and len(players) > 1:
            raise InputError("--id and --decklist go with one player at a time", field="players")
        if bool(players) == bool(csv_file):
            raise InputError("give the players' names or --csv FILE (one of the two)", field="players")
        t = _open(env, tournament_ref)
        checked = None
        if decklist and not csv_file and t.state().game in CARD_DATA_RULESETS:
            # optcg: the list is read against the card data before anything is stored
            from judge.io import carddb
            _, checked = carddb.decklist_registration(carddb.CardDB.for_log(env.db), players[0],
                                                      read_text(decklist), where=decklist)
        from judge.tournament.registration import lookalike_ids, parse_registrations, register_parsed

        if csv_file:  # the file is read once: the warnings and the batch look at the same entries
            read = parse_registrations(read_text(csv_file), csv_file)
            entries = read.entries
        else:
            deck = read_text(decklist) if decklist else None
            entries = [Entry(p, player_id, deck) for p in players]
        warnings = lookalike_ids(entries, t.state().players)
        for w in warnings:  # before a refusal too: one run says everything to check
            stderr(f"warning: {w}")
        try:
            if csv_file:
                events = register_parsed(t, read, allow_similar=allow_similar)
            else:
                events = t.register_many(entries, allow_similar=allow_similar)  # one atomic batch
        except InputError as e:  # the error's JSON carries the warnings too (QA: only stderr had them)
            setattr(e, WARNINGS_SAID, warnings)
            raise
        if as_json:
            emit_json({"registered": [{"player": e.payload["player"], "id": e.payload.get("player_id"),
                                       "position": e.position} for e in events], "warnings": warnings})
            return
        for e in events:
            click.echo(f"registered {e.payload['player']} (event {e.position})")
        if len(events) > 1:  # QA75 7: 300 lines and no total
            click.echo(f"{len(events)} registered ({len(t.state().players)} players in {t.state().name})")
        if checked is not None:
            names = CardNames(checked.names)
            click.echo(f"  decklist: Leader {names.label(checked.leader)}, {len(checked.cards)} cards")
            for f in checked.findings:
                click.echo(f"  {f['rule']} [{f['severity']}] {names.text(f['message'])}")

    @tournament.command("drop")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("player")
    @click.option("--reason", default=None)
    @pass_env
    def drop_cmd(env, tournament_ref, player, reason) -> None:
        """Drop a player: not paired again, still in the standings and still an opponent. A name
        that equals one registered name but for case, spaces or accents ("gül  öztürk") is that
        player (as everywhere a player is named: result --player, bye, swap, report); one that
        equals several so is refused as ambiguous, listing them; one that is not registered is
        refused with the registered names it may mean and their tables. The players registered
        under a name like it ("Maria Rossi (M99999)" for "Maria Rossi") are named, not dropped.

        \b
        Example:
          tablejudge tournament drop t-1a2b Bob --reason "left early"
        """
        t = _open(env, tournament_ref)
        e = t.drop(player, reason)
        click.echo(drop_words(t.state(), e))
        warn_invalidated(t)

    @tournament.command("bye")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("player")
    @click.option("--round", "round_no", type=int, default=None, help="Default: the next round.")
    @click.option("--reason", default=None)
    @pass_env
    def bye_cmd(env, tournament_ref, player, round_no, reason) -> None:
        """Give a player a bye in a round not yet paired.

        \b
        Example:
          tablejudge tournament bye t-1a2b Ann --round 1 --reason "invitation bye"
        """
        e = _open(env, tournament_ref).grant_bye(player, round_no, reason)
        click.echo(f"{e.payload['player']} has a bye in round {e.payload['round']} (event {e.position})")

    @tournament.command("pair")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--explain", is_flag=True, help="Say why each pair (and the bye) was made.")
    @click.option("--json", "as_json", is_flag=True)
    @csv_options
    @pass_env
    def pair_cmd(env, tournament_ref, explain, as_json, as_csv) -> None:
        """Pair the next Swiss round (by match points; no rematches while avoidable; the bye to the
        lowest-ranked player without one). Reproducible from the tournament's seed.

        \b
        Example:
          tablejudge tournament pair t-1a2b --explain
        """
        rp = _open(env, tournament_ref).pair(explain=explain)
        _emit_pairings(rp.to_dict(), rp.pairings, as_json, as_csv, explain, f"Round {rp.round}")

    @tournament.command("top-cut")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--size", type=int, default=None, help="Default: the size set at creation.")
    @click.option("--end-swiss-early", "end_swiss_early", is_flag=True,
                  help="Start the top cut although declared Swiss rounds remain (recorded in the round's notes).")
    @click.option("--json", "as_json", is_flag=True)
    @csv_options
    @pass_env
    def top_cut_cmd(env, tournament_ref, size, end_swiss_early, as_json, as_csv) -> None:
        """Pair the next single-elimination round: the first seeded by the Swiss standings
        (1 v 8, 4 v 5, 2 v 7, 3 v 6), then the winners. The first is refused while declared
        Swiss rounds remain, unless --end-swiss-early (the web desk asks the same).

        \b
        Example:
          tablejudge tournament top-cut t-1a2b          # quarterfinals, then semifinals, then finals
        """
        rp = _open(env, tournament_ref).top_cut(size, end_swiss_early=end_swiss_early)
        _emit_pairings(rp.to_dict(), rp.pairings, as_json, as_csv, True, rp.notes[0])

    def _emit_pairings(data, pairings, as_json, as_csv, explain, title) -> None:
        rows = [p.to_dict() for p in pairings]
        if not explain:
            for r in rows:
                r.pop("reason", None)
        if as_json:
            emit_json(data)
        elif as_csv:  # with an empty result column: filled in, it is a results file (`tournament results`)
            echo_csv([{"table": r["table"], "player1": r["player1"], "player2": r["player2"], "result": "",
                       **{k: v for k, v in r.items() if k not in ("table", "player1", "player2")}}
                      for r in rows], as_csv)
        else:
            click.echo(title)
            # the columns of `tournament pairings` (and of --json/--csv): table, player1, player2
            text_rows = [{"table": r["table"] if r["table"] is not None else "-", "player1": r["player1"],
                          "player2": r["player2"] or "BYE", **({"why": r["reason"]} if explain else {})}
                         for r in rows]
            click.echo(table_text(text_rows, ["table", "player1", "player2"] + (["why"] if explain else [])))
            for n in data.get("notes") or []:
                if n != title:
                    click.echo(f"note: {n}")

    @tournament.command("result")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("slip", required=False)
    @click.option("--table", type=int, default=None, help="The table (SLIP is its first player's W-L-D).")
    @click.option("--player", default=None, help="The player (SLIP is this player's W-L-D); case, spaces and accents aside.")
    @click.option("--round", "round_no", type=int, default=None, help="Default: the current round "
                  "(give an earlier round to correct it: the new result supersedes the old).")
    @click.option("--match", "matches", multiple=True, help="A recorded match: one game, or a whole match where its log holds one (op2009); repeat for each.")
    @click.option("--override-format", "override_format", is_flag=True,
                  help="Record game counts the match format does not allow (e.g. 3-0-0 in a best of three); "
                       "the result is marked format_override in the log.")
    @click.option("--overwrite", is_flag=True,
                  help="Replace a different result the table already has (without it, the old result is shown "
                       "and nothing is stored).")
    @click.option("--reason", default=None, help="Why (stored with the result; say it when overwriting; "
                  "required where --overwrite settles a warning a judge settles: result-basis, result-appealed).")
    @click.option("--double-loss", "double_loss", is_flag=True,
                  help="Both players get a match loss (e.g. both late, a penalty for each): no SLIP. "
                       "tablejudge's policy, docs/tournaments.md \"Double loss\".")
    @click.option("--json", "as_json", is_flag=True,
                  help="The recorded result as one JSON object (an error as {\"error\": {...}}).")
    @pass_env
    def result_cmd(env, tournament_ref, slip, table, player, round_no, matches, override_format, overwrite,
                   reason, double_loss, as_json) -> None:
        """Record a result: a slip W-L-D (game wins, losses, drawn games), the outcome of
        recorded matches, or a double loss (--double-loss: a match loss for both players, 0 match
        points each, a loss for both in the tiebreakers; Swiss only). Recording a table again is
        a correction (the later result counts).
        Game counts the match format cannot produce are refused (best of N: a player wins at most
        ceil(N/2) games; at most N games, drawn ones included) unless --override-format. A table
        that already has a different result keeps it unless --overwrite (the same result again
        stores nothing, whatever --reason says, and says it was unchanged; except where a warning
        that blocks closing asks for it, a result resting on a time decision overturned on appeal
        or one its match no longer gives: with --overwrite and --reason a slip is recorded again
        by hand, the head judge's result, and settles the warning; --match takes it again from
        the match as it stands). --match is refused while the match still gives a time decision
        the head judge overturned or changed on appeal (void it and decide again first).
        A slip that differs
        from a player's own report, or settles a disputed table, goes in only with --overwrite
        and a --reason. Many tables at once: `tournament results`.

        \b
        Examples:
          tablejudge tournament result t-1a2b 2-1-0 --table 3      # best of three
          tablejudge tournament result t-1a2b 1-0-0 --table 4      # best of one (optcg Swiss)
          tablejudge tournament result t-1a2b 0-2-0 --player Bob
          tablejudge tournament result t-1a2b --match 7f3e2a9c01 --match 1b2c3d4e5f
          tablejudge tournament result t-1a2b 3-0-0 --table 2 --override-format
          tablejudge tournament result t-1a2b --double-loss --table 7 --reason "both players 10 minutes late"
          tablejudge tournament result t-1a2b 2-0-0 --table 5 --json
        """
        t = _open(env, tournament_ref)
        before = t.state()
        head = before.position  # an event at or before it: the table had this result already
        # what each table had, kept now: the state object is brought up to date in place
        had = {(rnd.number, n): res for rnd in before.rounds for n, res in rnd.results.items()}
        if double_loss:
            if slip or matches:
                raise InputError("--double-loss takes no slip and no --match", field="slip" if slip else "match")
            slip = DOUBLE_LOSS
        if matches:
            if slip:
                raise InputError("give a slip or --match, not both", field="slip")
            e = t.record_matches(list(matches), round_no=round_no, override_format=override_format,
                                 overwrite=overwrite, reason=reason)
        else:
            if not slip:
                raise InputError("give the result slip (e.g. 2-1-0) or --match", field="slip")
            e = t.record_slip(slip, table=table, player=player, round_no=round_no,
                              override_format=override_format, overwrite=overwrite, reason=reason)
        p = e.payload
        said = slip_text(p) + (" (a match loss for both)" if p.get("double_loss") else "")
        rnd = t.state().round(p["round"])
        unchanged = e.position <= (head or 0)
        old = had.get((p["round"], p["table"]))
        again = not unchanged and old is not None and slip_text(old) == slip_text(p)  # settles a warning
        if as_json:
            emit_json(_result_json(t, e, rnd, had, unchanged))
            warn_invalidated(t)
            return
        click.echo(f"{rnd.label if rnd else 'round ' + str(p['round'])} table {p['table']}: "
                   f"{p['player1']} {said} {p['player2']} (event {e.position})"
                   + (" — format override" if p.get("format_override") else "")
                   + (" — unchanged: the table already had this result, nothing was stored" if unchanged else
                      f" — {again_words(p.get('matches'))}" if again else ""))
        warn_invalidated(t)
        _echo_seal_after(t, e)

    def _result_json(t, e, rnd, had: dict[tuple[int, int], Any], unchanged: bool) -> dict[str, Any]:
        """`result --json`: the keys of `tournament results --json`'s rows (round, table, players,
        result, status, old, position), then the result's fields (their defaults filled in) and
        its anchor. `had`: every table's result before this command, by (round, table)."""
        r = ResultRecorded.parse(e.payload)
        old = None if unchanged else had.get((r.round, r.table))
        return {"round": r.round, "round_name": rnd.name if rnd else None, "table": r.table,
                "player1": r.player1, "player2": r.player2, "result": slip_text(e.payload),
                "status": "unchanged" if unchanged else "overwritten" if old is not None else "recorded",
                "old": None if old is None else slip_text(old), "position": e.position,
                "wins1": r.wins1, "wins2": r.wins2, "draws": r.draws, "double_loss": r.double_loss,
                "source": r.source, "matches": r.matches, "format_override": r.format_override,
                "reason": r.reason, "anchor": anchor_token(t.id, e.position, e.hash)}

    def _echo_seal_after(t, e) -> None:
        """The result's anchor: the tournament's head as this result left it (keep it with the
        paper slip; `tablejudge verify --anchor` proves later it is still in the log)."""
        click.echo(f"anchor: {anchor_token(t.id, e.position, e.hash)}")

    @tournament.command("seal")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--round", "round_no", type=int, default=None,
                  help="The round to seal (default: the last complete one).")
    @pass_env
    def seal_cmd(env, tournament_ref, round_no) -> None:
        """Seal a closed round as the log stands now: one hash over the tournament's head and every
        match of the round, recorded as an event and printed on the standings page and the round
        report. A round is sealed by itself when it is closed (or, unclosed, when the next round is
        paired); seal again after a late correction. `tablejudge verify --seal` checks seals later.

        \b
        Example:
          tablejudge tournament seal t-1a2b --round 3
        """
        t = _open(env, tournament_ref)
        e = t.seal_round(round_no)
        click.echo(f"round {e.payload['round']} sealed (event {e.position}, "
                   f"{plural(len(e.payload['heads']), 'stream')}): {seal_token(t.id, e.payload)}")

    @tournament.command("correct")
    @click.argument("tournament_ref", metavar="T")
    @click.argument("position", type=int)
    @click.option("--reason", required=True)
    @pass_env
    def correct_cmd(env, tournament_ref, position, reason) -> None:
        """Void an earlier event (it stays in the log; replay skips it).

        \b
        Example:
          tablejudge tournament correct t-1a2b 7 --reason "registered twice"
        """
        t = _open(env, tournament_ref)
        e = t.correct(position, reason)
        click.echo(f"event {position} is void (event {e.position})")
        warn_invalidated(t)

    @tournament.command("standings")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--round", "round_no", type=int, default=None, help="As after this round (default: the last round with every result in).")
    @click.option("--json", "as_json", is_flag=True, help="JSON rows (tiebreakers as fractions).")
    @csv_options
    @click.option("--html", "html", type=click.Path(dir_okay=False), default=None,
                  help="Also write the printable page (standings, pairings by table and by name).")
    @pass_env
    def t_standings_cmd(env, tournament_ref, round_no, as_json, as_csv, html) -> None:
        """Standings with the policy's tiebreakers (the top cut never changes them), as after a
        round (the text's first line says which, and a round in progress). --json and
        --csv carry each player's member id (`id`, empty when none); --excel is the CSV for Excel.

        \b
        Examples:
          tablejudge tournament standings t-1a2b
          tablejudge tournament standings t-1a2b --round 3 --csv
          tablejudge tournament standings t-1a2b --excel > standings.csv   # opens in Excel, accents intact
          tablejudge tournament standings t-1a2b --html exports/round3.html
        """
        st = _open(env, tournament_ref).state()
        if round_no is None:
            round_no = st.last_complete_round() or 0  # a round in progress does not count yet
        elif round_no != 0:  # 0: before the first round
            _round(st, round_no)  # a round that was never paired has no standings: said, exit 2
        standings = st.standings(round_no)
        if html:
            from judge.tournament.pages import standings_page  # renders: imported only here

            write_text(html, standings_page(st, round_no))  # atomic: whole or not at all
            stderr(f"wrote {html}")
        _emit_standings(standings, as_json, as_csv, {p: i.player_id for p, i in st.players.items()},
                        f"{as_after(st, round_no)}; {_policy_line(st.policy, st.game)}")  # QA73 16: which policy ranks

    @tournament.command("pairings")
    @click.argument("tournament_ref", metavar="T")
    @click.option("--round", "round_no", type=int, default=None, help="Default: the current round.")
    @click.option("--by", "by", type=click.Choice(["table", "name"]), default="table", show_default=True)
    @click.option("--json", "as_json", is_flag=True)
    @csv_options
    @pass_env
    def pairings_cmd(env, tournament_ref, round_no, by, as_json, as_csv) -> None:
        """A round's pairings, by table or by name (with results so far).

        \b
        Example:
          tablejudge tournament pairings t-1a2b --by name
        """
        st = _open(env, tournament_ref).state()
        rnd = _round(st, round_no)
        from judge.tournament.pages import pairings_by_name, pairings_by_table

        rows = pairings_by_table(rnd) if by == "table" else pairings_by_name(rnd)
        cols = ["table", "player1", "player2", "result"] if by == "table" else ["player", "table", "opponent", "result"]
        emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=False,
                  text=lambda rs: f"{rnd.name}\n" + table_text(
                      [{k: ("BYE" if v is None and k in ("player2", "opponent") else v) for k, v in r.items()}
                       for r in rs], cols))


def warn_invalidated(t: Tournament) -> None:
    """After a change: say (on stderr) what it invalidated that is not answered yet, and which
    round seals no longer match their round's results (sealing the round again answers that)."""
    st = t.state()
    for w in invalidation_warnings(st, store=t.store):
        stderr(f"warning: {w.message}" + (f"\n  answer it: tablejudge tournament decide {t.id} {w.id} "
                                          f"{'|'.join(w.choices)} --reason ..." if w.choices else ""))
    for n, e in st.stale_seals().items():
        stderr(f"warning: round {n}'s seal (event {st.sealed_at[n]}) is out of date: its results changed "
               f"after it (event {e.position}), and so are standings printed with it\n"
               f"  seal it again: tablejudge tournament seal {t.id} --round {n}")


def _round(st: TournamentState, round_no: int | None):
    if not st.rounds:
        raise InputError("no round has been paired yet", field="round")
    if round_no is None:
        return st.rounds[-1]
    for r in st.rounds:
        if r.number == round_no:
            return r
    raise InputError(f"round {round_no} has not been paired", field="round")

