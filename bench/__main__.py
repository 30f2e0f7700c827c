"""`python -m bench [NAME ...]`: the log benchmarks (top-level keys), then the other bench modules
(bench/bench_*.py with a `run_all() -> dict`), each under its own key; NAMEs (`log`, `writers`,
`startup`, ...) run only those. Prints the JSON on stdout, writes it to exports/bench.json, and
says on stderr which bars are met."""
import importlib
import json
import os
import pkgutil
import sys

from bench import log_bench


def bars_of(result: dict, prefix: str = "") -> list[tuple[str, dict]]:
    """Every bar of a result and of its modules' results: {value, goal, met}, or a module's own
    `bars`/`goals` of name -> met."""
    out = []
    for key in ("bars", "goals"):
        for name, b in (result.get(key) or {}).items():
            if isinstance(b, dict) and "met" in b:
                out.append((prefix + name, b))
            elif isinstance(b, bool):
                out.append((prefix + name, {"value": "-", "goal": name, "met": b}))
    for key, value in result.items():
        if isinstance(value, dict) and key not in ("bars", "goals"):
            out += bars_of(value, f"{key}: ")
    return out


def main(wanted: set[str]) -> None:
    result: dict = {}
    if not wanted or "log" in wanted:
        print("running log_bench ...", file=sys.stderr)
        result.update(log_bench.run())
    for mod in pkgutil.iter_modules(__import__("bench").__path__):
        name = mod.name.removeprefix("bench_")
        if mod.name.startswith("bench_") and (not wanted or name in wanted):
            print(f"running {mod.name} ...", file=sys.stderr)
            result[name] = importlib.import_module(f"bench.{mod.name}").run_all()
    bars = bars_of(result)
    result["bars_met"] = {name: b["met"] for name, b in bars}
    text = json.dumps(result, indent=2)
    print(text)
    os.makedirs("exports", exist_ok=True)
    with open(os.path.join("exports", "bench.json"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    for name, b in bars:
        print(f"{'met    ' if b['met'] else 'NOT MET'}  {name}: {b['value']} (goal {b['goal']})", file=sys.stderr)
    print("written to exports/bench.json", file=sys.stderr)


main(set(sys.argv[1:]))
