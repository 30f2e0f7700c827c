"""`tablejudge serve`: the event desk on the web (judge.web), imported only when it runs so that
every other command (and `--version`) starts without the web stack."""
from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

import click

from engine.store import DB_ENV, DEFAULT_DB
from judge.cli.common import pass_env

SECRET_ENV = "TABLEJUDGE_SECRET"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its network interfaces (loopback left out), read from the
    interfaces themselves: nothing is sent anywhere."""
    import fcntl
    import socket
    import struct

    out = []
    for _, name in socket.if_nameindex():
        if name == "lo":
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
            except OSError:
                continue
            addr = socket.inet_ntoa(packed[20:24])
            if not addr.startswith("127."):
                out.append(addr)
    return out


def server_secret(db: str | None, given: str | None, given_from: str = "--secret") -> tuple[str, str]:
    """The secret that signs every link, and where it came from (`given_from`: the option or the
    environment variable a given one came from; QA86 #11: "from given" was printed). Given
    (--secret or $TABLEJUDGE_SECRET), else kept in a file beside a SQLite log (created once, mode
    600), so a restarted server honours the links it printed. Several servers on one PostgreSQL
    need the same secret: give it to each."""
    if given:
        from judge.web.auth import MIN_SECRET
        if len(given) < MIN_SECRET:  # was an "internal error" from the signer (found in QA86 #11's test)
            raise click.UsageError(f"the secret from {given_from} is {len(given)} characters: a secret is at least "
                                   f"{MIN_SECRET} (`python -c \"import secrets; print(secrets.token_urlsafe(32))\"` "
                                   "makes one)")
        return given, given_from
    target = db or os.environ.get(DB_ENV) or DEFAULT_DB
    if target.startswith(("postgres://", "postgresql://")):
        raise click.UsageError(f"with PostgreSQL, give every serve process the same secret: --secret or ${SECRET_ENV}")
    path = Path(target + ".secret")
    if path.exists():
        return path.read_text(encoding="utf-8").strip(), str(path)
    secret = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(secret + "\n")
    return secret, str(path)


def register(cli: click.Group) -> None:
    @cli.command("serve")
    @click.option("--host", default="127.0.0.1", show_default=True,
                  help="Address to listen on; 0.0.0.0 lets phones on the venue's network join (the LAN address "
                       "and its QR code are shown).")
    @click.option("--port", default=8765, show_default=True, type=int)
    @click.option("--secret", envvar=SECRET_ENV, default=None,
                  help=f"Signs every link (also ${SECRET_ENV}; at least 16 characters); default: kept in DB.secret "
                       "beside a SQLite log.")
    @click.option("--public-url", default=None, help="The address players' QR codes point at (default: the LAN "
                                                     "address with --host 0.0.0.0, else the address the page was opened at).")
    @click.option("--demo", is_flag=True, help="Open a seeded event (16 players, round 1 under way) in a fresh "
                                               "exports/serve-demo.db (or --db).")
    @click.option("--poll", default=0.25, show_default=True, type=float,
                  help="Seconds between pulls of the notification log (other servers' writes).")
    @pass_env
    def serve_cmd(env, host, port, secret, public_url, demo, poll) -> None:
        """Serve the event desk on the web: organizer pages, the scorekeeper's results grid,
        players' pages from the QR codes on the slips, boards and the round clock. Prints the
        organizer's link (with its secret token, like Jupyter): anyone with it runs the event.

        \b
        Examples:
          tablejudge serve                         # http://127.0.0.1:8765/?k=...
          tablejudge serve --host 0.0.0.0          # phones on the venue's Wi-Fi join
          tablejudge serve --demo                  # a seeded event to look around
          tablejudge --db postgresql://.../event serve --secret "$SHARED" --port 8766   # one of several
        """
        from engine.store import EventStore
        from judge.web.app import create_app, run

        if demo and not env.db and not os.environ.get(DB_ENV):
            os.makedirs("exports", exist_ok=True)
            env.db = os.path.join("exports", "serve-demo.db")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(env.db + suffix):
                    os.remove(env.db + suffix)
        from_env = click.get_current_context().get_parameter_source("secret") == click.core.ParameterSource.ENVIRONMENT
        key, source = server_secret(env.db, secret, f"${SECRET_ENV}" if from_env else "--secret")
        store = EventStore.open(env.db)
        if demo:
            from judge.web.demo import seed_demo
            tid = seed_demo(store)
            click.echo(f"demo event {tid} in {store.describe()}")
        lan = lan_addresses() if host == "0.0.0.0" else []
        if public_url is None and lan:
            public_url = f"http://{lan[0]}:{port}"
        app = create_app(store, key, public_url=public_url, poll_seconds=poll)
        token = app.state.web.organizer_token()
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        click.echo(f"tablejudge serve on {store.describe()} (links signed with the secret from {source})")
        if lan:
            click.echo(f"Players and staff on the venue's network: {public_url}/  (boards, \"my table\")")
            from judge.web.qr import terminal
            click.echo(terminal(public_url + "/"))
        elif host == "127.0.0.1":
            click.echo("Only this machine can connect (--host 0.0.0.0 lets phones on the network join).")
        click.echo("The organizer's link (anyone with it runs the event; keep it to yourself):")
        click.echo(f"    http://{shown}:{port}/?k={token}")
        sys.stdout.flush()
        run(app, host, port)
