"""`tablejudge serve`: the event desk on the web, over the same log and the same library functions
as the CLI. Modules: app (the factory), auth (tokens, roles, scopes), desk (the server's view of the
log: states folded forward, the notification log followed, writes retried), live (server-sent
events), actions (every write, shared by forms and the JSON API), views (plain data for pages),
qr (QR codes), demo (a seeded event), routes/ (staff, public, player, api). Imported only by
`serve`: the rest of the CLI starts without FastAPI."""

from judge.web.app import create_app

__all__ = ["create_app"]
