"""What the browser tests share: phone and laptop viewports, a bound on how long a page may take to
show what it should (a liveness bound, not a measurement), and the hall of pages whose console
errors and page errors are all collected (a test fails on any) and whose screenshots are kept."""
from __future__ import annotations

import os

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
LAPTOP = {"viewport": {"width": 1280, "height": 900}}
WAIT = 20_000  # ms
# The results API's "replace?" is a 409 (a result is there, or the entry differs from a player's
# report: judge/tournament/entry.py); the grid answers it by asking, yet Chromium logs the status
# as a console error. Every other status, and every script error, still fails a test.
ASKED = "the server responded with a status of 409 (Conflict)"


class Hall:
    """Pages opened in the browsers, every console error and page error collected."""

    def __init__(self, artifacts: str):
        self.artifacts = artifacts
        os.makedirs(artifacts, exist_ok=True)
        self.errors: list[str] = []
        self.shots = 0

    def page(self, ctx):
        page = ctx.new_page()
        page.on("console", lambda m: self.errors.append(f"{page.url}: {m.text}")
                if m.type == "error" and ASKED not in m.text else None)
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        page.on("dialog", lambda d: d.accept())  # hx-confirm's questions
        return page

    def shot(self, page, name: str) -> None:
        self.shots += 1
        page.screenshot(path=os.path.join(self.artifacts, f"{self.shots:02d}-{name}.png"), full_page=True)


def see(page, text: str) -> None:
    """Wait for the message a form's answer shows (after its redirect)."""
    page.locator(".flash", has_text=text).first.wait_for(timeout=WAIT)
