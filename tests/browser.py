"""Headless Chromium for the tests: Debian's /usr/bin/chromium driven by Playwright, started with the
flags this machine's closed network needs and a fresh profile each time. One place, so every
browser test starts it the same way and skips with the same reason when it is missing."""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

needs_chromium = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"{CHROMIUM} is missing (Debian package chromium; `make sysdeps` installs it)"),
]


@contextmanager
def chromium(**context_options: Any) -> Iterator[Any]:
    """A Playwright browser context on a fresh profile; `context_options` such as viewport."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the Python package playwright is missing")
    with sync_api.sync_playwright() as p, tempfile.TemporaryDirectory(prefix="tj-chromium-") as profile:
        ctx = p.chromium.launch_persistent_context(
            user_data_dir=profile, executable_path=CHROMIUM, headless=True, args=ARGS, **context_options)
        try:
            yield ctx
        finally:
            ctx.close()


@contextmanager
def browser() -> Iterator[Any]:
    """A Playwright Browser (not a single persistent context): for tests that need several
    contexts at once (an organizer's laptop and players' phones), each with its own cookies and
    connections."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the Python package playwright is missing")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()
