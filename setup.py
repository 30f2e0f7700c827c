"""Packages: every package under engine/ and judge/ (a new game's folder ships with no edit here), and the
templates folder as `tablejudge_templates`. Everything else is in pyproject.toml."""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["engine", "engine.*", "judge", "judge.*"]) + ["tablejudge_templates"],
    package_dir={"tablejudge_templates": "templates"},
)
