"""The web board by keyboard, on a phone and for assistive technology, in a real Chromium (the
servers and the browser of test_web_browser.py; skipped, with the reason, as it is):

* a whole 2-player game at level 1 played with Tab, Enter and Space only: every decision is a
  Tab stop named by what it does, and focus never drops to the page after a redraw;
* at 390x844 every decision's control is at least 44 px each way, and the players' table comes
  before the map;
* axe-core (axe-playwright-python) finds no serious or critical violation, at 1280x800 and at
  390x844, with a card chosen, the last moves and the coming expansions on the map;
* the screenshots of that position (the last moves and a threat) at both sizes.
"""
from __future__ import annotations

import json
import re

import pytest
from helpers import position

from test_web_browser import (MY_TURN, SHOTS, browser, free_port, server, start_server,  # noqa: F401,E501
                              stop_server, watch)

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright",
                               reason="axe-playwright-python (PyPI) is not installed")

FOCUSED = """() => { const a = document.activeElement;
  return a && a !== document.body ? {key: a.getAttribute('data-key'), name: a.getAttribute('aria-label'),
                                     id: a.id, tag: a.tagName} : null; }"""
NAMED = re.compile(r"^(Place \w+ on \d+(, over \w+'s tile)?|Protect \w+'s tile on \d+|"
                   r"Grow \w+ \(\d→\d(, (may|must) expand)?\)|Sell \w+ \(\+\d+\)|Buy \w+ \(\d+\)|"
                   r"Pass \(no (sale|buy)\)|Expand|Wait|Stop|\w+ presides)$")


def tab_to(page, *prefixes: str, limit: int = 150) -> dict:
    """Press Tab until a control whose key starts with one of `prefixes` has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        got = page.evaluate(FOCUSED)
        if got and got["key"] and got["key"].startswith(prefixes):
            return got
    raise AssertionError(f"Tab never reached a {prefixes} control")


def test_a_whole_game_by_keyboard_only(server, browser):      # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch(page)
    page.goto(server)
    page.wait_for_function(MY_TURN)
    decisions = 0
    names = set()
    while not page.evaluate("S.over"):
        version = page.evaluate("S.version")
        if page.evaluate("S.step") == "card":
            got = tab_to(page, "card:")
            assert re.match(r"^Card \d+: top \w+, bottom \w+ and \w+$", got["name"]), got
            page.keyboard.press("Enter" if decisions % 2 else "Space")
            page.wait_for_function("() => card !== null")
            got = page.evaluate(FOCUSED)                 # on to what the card can do
            assert got and got["key"].split(":")[0] in ("space", "grow", "choice"), got
        else:
            focused = page.evaluate(FOCUSED)
            got = focused if focused and focused["key"] and \
                focused["key"].split(":")[0] in ("space", "choice") else \
                tab_to(page, "space:", "choice:")
        assert got["name"] and NAMED.match(got["name"]), got
        names.add(got["name"].split()[0])
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => S.version !== {version}")
        page.wait_for_function(MY_TURN)
        assert page.evaluate(FOCUSED) is not None, "focus dropped to the page"
        decisions += 1
        assert decisions < 400, "the game did not end"
    assert page.locator("#scorepad .verdict").inner_text()
    assert {"Place", "Grow"} <= names or {"Protect", "Grow"} <= names, names
    assert not errors, errors


@pytest.fixture
def threatened(tmp_path):
    """A 3-player game from a position: Crown at 5 (Anna presides), Hydra at 4 (you preside);
    Anna and Bruno play first, so their decisions are new when it is yours."""
    board = {1: "Sunset", 8: "Gemini", 18: "Panda", 26: "Sunset", 2: "Crown", 9: "Phoenix",
             13: "Crown", 19: "Phoenix", 27: "Panda!", 10: "Gemini", 15: "Hydra!", 4: "Gemini",
             29: "Crown", 35: "Hydra", 5: "Crown", 11: "Hydra", 16: "Hydra", 6: "Hydra",
             7: "Panda", 31: "Gemini", 3: "Sunset!", 32: "Phoenix"}
    d = position(3, hands={0: [9, 14, 20, 24, 33, 36]}, round=2, start=1, board=board,
                 growth={"Crown": 5, "Hydra": 4, "Phoenix": 2, "Sunset": 1},
                 shares={"Crown": [1, 2, 0], "Hydra": [2, 0, 1], "Phoenix": [0, 1, 1],
                         "Sunset": [1, 0, 0], "Gemini": [0, 0, 2], "Panda": [1, 1, 0]},
                 coins=[9, 7, 11], names=["You", "Anna", "Bruno"], seed=12)
    path = tmp_path / "threatened.json"
    path.write_text(json.dumps(d))
    proc, url = start_server(tmp_path / "data", free_port(), "--load", str(path), "--level", "1")
    yield url
    stop_server(proc)


def board_with_news(browser, url, width, height):      # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch(page)
    page.goto(url)
    page.wait_for_function(MY_TURN)
    assert page.evaluate("S.since.spaces.length > 0 && S.threats.length > 0")
    page.locator(".card.target").first.click()
    page.wait_for_function("() => card !== null")
    return page, errors


def serious(page) -> list[str]:
    result = axe_sync.Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                        for n in v["nodes"][:12])
            for v in result.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_axe_finds_nothing_serious_and_the_news_is_on_the_map(threatened, browser, width, height):
    page, errors = board_with_news(browser, threatened, width, height)
    changed = page.evaluate("S.since.spaces")
    assert page.locator("#map g.space.changed").count() == len(changed)
    reach = page.evaluate("new Set(S.threats.flatMap(t => t.spaces)).size")
    assert reach and page.locator("#map g.space:has(rect.reach)").count() == reach
    assert "Crown" in page.inner_text("#threats") and "Anna" in page.inner_text("#threats")
    assert page.locator("#since li").count() == len(page.evaluate("S.since.turns"))
    shot = SHOTS / f"board-news-{width}x{height}.png"
    page.screenshot(path=str(shot), full_page=width < 760)
    found = serious(page)
    assert not found, "\n".join(found)
    assert not errors, errors


def test_a_phone_has_44px_targets_and_the_players_before_the_map(threatened, browser):
    page, _ = board_with_news(browser, threatened, 390, 844)
    controls = page.locator(".space.target, #hand .card, #choices button, .grow-btn, "
                            "header button, header select")
    assert controls.count() > 5
    small = []
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        if box["width"] < 44 or box["height"] < 44:
            small.append((controls.nth(i).get_attribute("data-key"), box))
    assert not small, small
    players = page.locator("#players-panel").bounding_box()
    board = page.locator("#map").bounding_box()
    assert players["y"] + players["height"] <= board["y"]           # no scrolling past the map
