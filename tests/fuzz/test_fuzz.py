"""Hypothesis fuzzers: every importer (jsonl, notation, optcgsim, results CSV and JSON, card JSON)
on mutations of real files, and every command line with hostile arguments. Whatever comes in, the
CLI ends with a documented exit code and a message (no traceback, no 'internal error'), and leaves
no temporary file. (The measured campaign, `python -m tests.fuzz.campaign`, runs thousands of the
same cases in child processes and also counts hangs.)"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.harness import MATCH, base_log, run_case
from tests.fuzz.hostile import COMMAND_LINES, HOSTILE_TEXT, HOSTILE_WORDS, Case, mutate, seeds

SEEDS = seeds()
FUZZ = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return base_log(str(tmp_path_factory.mktemp("base")))


def _check(case: Case, folder: str, base_db: str) -> None:
    outcome = run_case(case, folder, base_db)
    assert not outcome.traceback, f"{case.describe()}: exit {outcome.code}\n{outcome.output[-800:]}"
    assert not outcome.leftovers, outcome.leftovers


@pytest.mark.parametrize("target", sorted(SEEDS))
@FUZZ
@given(seed=st.integers(0, 2**32 - 1), mutations=st.integers(1, 3))
def test_importer_survives_mutated_files(target, seed, mutations, base, tmp_path_factory):
    rng = random.Random(seed)
    data = rng.choice(SEEDS[target])
    hows = []
    for _ in range(mutations):
        data, how = mutate(rng, target, data)
        hows.append(how)
    _check(Case(target, data, ", ".join(hows)), str(tmp_path_factory.mktemp("case")), base)


argument = st.one_of(st.sampled_from(HOSTILE_WORDS + HOSTILE_TEXT), st.text(max_size=30),
                     st.integers().map(str), st.floats().map(str))


@FUZZ
@given(template=st.sampled_from(COMMAND_LINES), values=st.lists(argument, min_size=8, max_size=8))
def test_every_command_survives_hostile_arguments(template, values, base, tmp_path_factory):
    it = iter(values * 3)
    argv = []
    for arg in template:
        while "{w}" in arg or "{j}" in arg:
            arg = arg.replace("{w}", next(it), 1).replace("{j}", next(it), 1)
        argv.append(arg.replace("{m}", MATCH))
    _check(Case("argv", argv, "hostile arguments"), str(tmp_path_factory.mktemp("case")), base)


@FUZZ
@given(words=st.lists(argument, max_size=6), command=st.sampled_from(
    ["log", "state", "events", "validate", "verify", "export", "report", "audit", "timelimit", "import",
     "standings", "deck", "cards", "tournament", "judge", "match", "matches", "rulesets", "findings",
     "penalties", "actions", "readmodel"]))
def test_any_words_after_any_command(command, words, base, tmp_path_factory):
    _check(Case("argv", [command, *words], "free words"), str(tmp_path_factory.mktemp("case")), base)
