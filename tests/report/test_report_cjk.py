"""Reports print Chinese: the rulebook's words under a finding render with real glyphs in the report's font
stack. A screenshot of a Chinese quote in the report is compared with the same report in a browser whose
only font has no CJK glyphs (fontconfig limited to DejaVu): the two must differ, or the report shows boxes.
Also: the report puts the rule in English first and the original quote beneath, and names the cards."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.match import Match
from engine.store import EventStore
from judge import report

from tests.browser import chromium, needs_chromium
from tests.conftest import ROOT

ARTIFACTS = Path(ROOT) / "test-artifacts"
DEJAVU = "/usr/share/fonts/truetype/dejavu"


def _optcg_report(tmp_path) -> Path:
    store = EventStore.open(str(tmp_path / "t.db"))
    m = Match.create(store, "optcg", ["Ann", "Bob"], round="3", table="47")
    m.record("deck.registered", {"player": "Ann", "leader": "OP01-060", "deck": ["OP01-078"] * 50,
                                 "cards": {}}, actor="Ann")
    m.record("play", {"player": "Ann", "card": "OP01-078"}, actor="Ann")  # before the game began
    path = Path(report.write_match_report(m, str(tmp_path / "exports")))
    store.close()
    return path


def test_the_report_shows_english_first_then_the_original_and_card_names(tmp_path):
    html = _optcg_report(tmp_path).read_text(encoding="utf-8")
    cell = html[html.index('id="finding-'):]
    cell = cell[:cell.index("</tr>")]
    en = cell.index('class="rule-en"')
    orig = cell.index('<blockquote class="orig" lang="zh-Hant">')
    assert en < orig  # English first, the rulebook's words beneath
    # the rule's heading too: its English title, the rulebook's (Chinese) section beside it
    title = re.search(r"<code>OPTCG-[A-Z]+-\d+</code><div>([^<]+)</div><div class=\"muted\" lang=\"zh-Hant\">§ ", cell)
    assert title and title.group(1).isascii()
    assert re.search(r"[\u4e00-\u9fff]", cell[orig:])
    assert "OP01-078 Boa Hancock" in html and "OP01-060 Donquixote Doflamingo" in html
    assert "Noto Sans CJK TC" in html  # the font stack that prints it


def _fontconfig_without_cjk(tmp_path) -> str:
    conf = tmp_path / "fonts.conf"
    cache = tmp_path / "fc-cache"
    conf.write_text(f"""<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>{DEJAVU}</dir><cachedir>{cache}</cachedir></fontconfig>
""", encoding="utf-8")
    return str(conf)


def _has_cjk_font() -> bool:
    if not shutil.which("fc-list"):
        return False
    out = subprocess.run(["fc-list", ":lang=zh-tw", "family"], capture_output=True, text=True).stdout
    return bool(out.strip())


def _with_chromium(test):
    for mark in needs_chromium:  # the launcher's own marks and skip reason
        test = mark(test)
    return test


@_with_chromium
@pytest.mark.skipif(not _has_cjk_font(), reason="no CJK font installed (Debian package fonts-noto-cjk; "
                                                "`make sysdeps` installs it)")
@pytest.mark.skipif(not os.path.isdir(DEJAVU), reason=f"{DEJAVU} is missing (Debian package fonts-dejavu-core)")
def test_a_chinese_quote_renders_with_real_glyphs(tmp_path):
    page_url = _optcg_report(tmp_path).as_uri()
    shots = {}
    envs = {"report-fonts": dict(os.environ),
            "no-cjk-font": dict(os.environ, FONTCONFIG_FILE=_fontconfig_without_cjk(tmp_path))}
    for name, env in envs.items():
        with chromium(viewport={"width": 900, "height": 700}, env=env) as ctx:
            page = ctx.new_page()
            page.goto(page_url)
            quote = page.locator("blockquote.orig").first
            text = quote.inner_text()
            assert re.search(r"[\u4e00-\u9fff]", text)
            shots[name] = quote.screenshot()
    ARTIFACTS.mkdir(exist_ok=True)
    for name, png in shots.items():
        (ARTIFACTS / f"cjk-quote-{name}.png").write_bytes(png)
    assert shots["report-fonts"] != shots["no-cjk-font"], "the Chinese quote renders as it does with no CJK font"
