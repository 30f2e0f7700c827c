"""tablejudge judge: what a judge does with match logs (validate, time limits, standings, reports,
exports) and the command line."""

__version__ = "0.1.0"  # the same as pyproject.toml's (a test checks): `--version` reads it without importlib.metadata
