"""A plain (non-editable) install works: the wheel carries engine, judge, the rulesets and the templates."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    wheel_dir, target = tmp / "dist", tmp / "site"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-w", str(wheel_dir), ROOT], check=True, capture_output=True, timeout=300)
    (wheel,) = list(wheel_dir.glob("tablejudge-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target),
                    str(wheel)], check=True, capture_output=True, timeout=300)
    return target


def _run(target, code: str, cwd) -> str:
    env = dict(os.environ, PYTHONPATH=str(target))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_installed_packages_come_from_the_wheel(installed, tmp_path):
    out = _run(installed, "import engine, judge; print(engine.__file__); print(judge.__file__)", tmp_path)
    assert all(line.startswith(str(installed)) for line in out.split())


def test_every_module_of_the_source_tree_is_in_the_wheel(installed, tmp_path):
    modules = []
    for top in ("engine", "judge"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            rel = os.path.relpath(folder, ROOT).replace(os.sep, ".")
            modules += [f"{rel}.{f[:-3]}" for f in files if f.endswith(".py") and f != "__main__.py"]
    code = ("import importlib, sys\nfor m in sys.argv[1:]:\n"
            "    mod = importlib.import_module(m.removesuffix('.__init__'))\n"
            f"    assert mod.__file__.startswith({str(installed)!r}), m")
    env = dict(os.environ, PYTHONPATH=str(installed))
    r = subprocess.run([sys.executable, "-c", code, *modules], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=120)
    assert r.returncode == 0, r.stderr


def test_templates_ship_inside_the_wheel(installed, tmp_path):
    repo = sorted(f for f in os.listdir(os.path.join(ROOT, "templates")) if not f.startswith("__"))
    out = _run(installed, "import importlib.resources as r; "
                          "print('\\n'.join(sorted(p.name for p in r.files('tablejudge_templates').iterdir() "
                          "if not p.name.startswith('__'))))", tmp_path)
    assert out.split() == repo


def test_every_ruleset_is_found_after_install(installed, tmp_path):
    folder = os.path.join(ROOT, "engine", "rulesets")
    repo = sorted(f for f in os.listdir(folder)
                  if os.path.isfile(os.path.join(folder, f, "__init__.py")) and not f.startswith("_"))
    out = _run(installed, "from engine.rulesets import available; print(' '.join(available()))", tmp_path)
    assert sorted(out.split()) == repo


def test_every_data_file_ships_inside_the_wheel(installed, tmp_path):
    """Catalogues (rules.toml), game data (JSON) and demo data: every non-Python file under engine/ and judge/."""
    data = []
    for top in ("engine", "judge"):
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            data += [os.path.relpath(os.path.join(folder, f), ROOT) for f in files if not f.endswith((".py", ".pyc"))]
    assert any(d.endswith("rules.toml") for d in data)
    missing = [d for d in data if not (installed / d).is_file()]
    assert missing == []


def test_console_script_runs_the_demo(installed, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(installed))
    r = subprocess.run([str(installed / "bin" / "tablejudge"), "demo", "--out", str(tmp_path), "--json"],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert '"verified": true' in r.stdout
