"""The `tablejudge` program's entry point (pyproject.toml's script, and `python -m judge`).

A Ctrl-C is the user's at every moment, start-up included: importing the command line takes
~0.1 s, and a Ctrl-C landing in it printed a Python traceback (QA84 1). The import is guarded
here; from then on `run_guarded` answers it ("interrupted", exit 130)."""
from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130  # judge.cli.common's, not imported: importing it is what is guarded


def main() -> None:
    try:
        from judge.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    run()
