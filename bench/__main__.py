"""`python -m bench`: the log benchmarks (top-level keys), then any other bench modules
(bench/bench_*.py with a `run_all() -> dict`), each under its own key."""
import importlib
import json
import pkgutil
import sys

from bench import log_bench


def main() -> None:
    result = log_bench.run()
    for mod in pkgutil.iter_modules(__import__("bench").__path__):
        if mod.name.startswith("bench_"):
            print(f"running {mod.name} ...", file=sys.stderr)
            result[mod.name.removeprefix("bench_")] = importlib.import_module(f"bench.{mod.name}").run_all()
    print(json.dumps(result, indent=2))


main()
