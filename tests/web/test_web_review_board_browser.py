"""The review board in a real Chromium (skipped, with the reason, as test_web_browser.py is): a
2-player game at level 1 played to its end through the page's own `play`, reviewed with a small
budget (a server in this process, so the budget can be set), then stepped with the arrow keys,
jumped to through a mark, the played move outlined on the map; the better move's line shown;
back to the game; axe finds nothing serious or critical; the screenshot at 1280x800
(docs/captures/web-review-1280x800.png when EKONOS_CAPTURES is set, else the screenshot folder);
on a phone (390x844) touch-sized controls, no sideways scrolling, and its screenshot.
"""
from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path

import pytest

from test_web_browser import SHOTS, browser, free_port, watch  # noqa: F401
from test_web_keyboard import serious

uvicorn = pytest.importorskip("uvicorn")

from cli.session import GameSession  # noqa: E402
from cli.web.app import WebGame, create_app  # noqa: E402
from cli.web.security import allowed_hosts  # noqa: E402

TOKEN = "r" * 43
MINE = "() => S && (S.over || (S.to_move === S.human && S.thinking === null))"


@pytest.fixture
def reviewed_server(tmp_path, monkeypatch):
    """The web board of a fresh 2-player game at level 1, its review at 60 iterations."""
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path))
    port = free_port()

    def session(**kw):
        kw = {"ai": 1, "level": 1, "seed": 11, **kw}
        return GameSession.new(autosave=tmp_path / "autosave.json", record_dir=tmp_path / "games",
                               **kw)
    game = WebGame(session(), session, review_iterations=60)
    app = create_app(game, TOKEN, allowed_hosts("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/?token={TOKEN}", game
    game.close_streams()
    server.should_exit = True
    thread.join(timeout=20)


def play_to_the_end(page) -> None:
    rng = random.Random(2)
    for _ in range(400):
        page.wait_for_function(MINE)
        if page.evaluate("S.over"):
            return
        version = page.evaluate("S.version")
        text = rng.choice(page.evaluate("S.legal.map(m => m.text)"))
        page.evaluate("(t) => play(t)", text)
        page.wait_for_function(f"() => S.version !== {version}")
    raise AssertionError("the game did not end")


def test_step_jump_line_and_back(reviewed_server, browser):  # noqa: F811
    url, game = reviewed_server
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch(page)
    page.goto(url)
    play_to_the_end(page)
    page.click("#review-btn")
    page.wait_for_selector("#review svg.chart", timeout=300000)
    review = page.evaluate("R.review")
    plies = [d["ply"] for d in review["decisions"]]

    page.click("#rb-open")                                       # the first decision
    page.wait_for_selector("#stepper", state="visible")
    assert page.evaluate("RB.ply") == plies[0]
    assert page.locator("#map").is_visible() and page.locator("#review").is_hidden()
    assert page.evaluate("S.legal.length") == 0                  # nothing to play here
    page.focus("#map")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => RB && RB.ply === {plies[1]}")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => RB && RB.ply === {plies[2]}")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => RB && RB.ply === {plies[1]}")
    page.keyboard.press("End")
    page.wait_for_function(f"() => RB && RB.ply === {plies[-1]}")
    page.keyboard.press("Home")
    page.wait_for_function(f"() => RB && RB.ply === {plies[0]}")
    # the log is the game up to that decision: the board is the position before it
    assert page.evaluate("S.log.every(d => d.ply < RB.ply)")
    assert page.evaluate("S.log.length === 0 || S.log[S.log.length - 1].ply === RB.ply - 1")

    # a mark (or, with none, a point of the chart) jumps the board to its decision
    page.click("#rb-exit")
    page.wait_for_selector("#review svg.chart", state="visible")
    marked = [d for d in review["decisions"] if d["mark"]]
    # a marked decision whose played move is on a space, if any (its outline is then drawn)
    spaced = [d for d in review["decisions"]
              if any(w in d["played"].split() for w in ("place", "protect", "expand"))]
    pick = next((d for d in marked if d in spaced), marked[0] if marked else spaced[0])
    if pick["mark"]:
        page.click(f"#rv-{pick['ply']}")
    else:
        page.click(f"#review g.pt[data-ply='{pick['ply']}']")
    page.wait_for_function(f"() => RB && RB.ply === {pick['ply']}")
    played = page.evaluate("RB.pos.played")
    assert played["text"] == pick["played"]
    words = page.inner_text("#stepper")
    assert page.get_attribute("#stepper .rb-played", "title") == pick["played"]   # in words,
    assert page.inner_text("#stepper .rb-played").split()[0] in words             # notation
    assert f"{round(pick['win_played'] * 100)}%" in words                          # as title
    if pick["mark"]:
        assert pick["mark"] in words
    if played["space"] is not None:
        outline = page.locator(f"#map g.rb-move.played[data-space='{played['space']}']")
        assert outline.count() == 1
        assert page.locator(f"#map g.rb-move[data-space='{played['space']}'] text").text_content() \
            in ("played", "both")
    best = page.evaluate("RB.pos.best")
    if best["text"] != played["text"] and best["space"] is not None and \
            best["space"] != played["space"]:
        assert page.locator(f"#map g.rb-move.best[data-space='{best['space']}']").count() == 1

    if pick["best"] != pick["played"]:                           # the better move's line
        game.reviews.iterations = 1000           # (searched then: a line longer than a move)
        page.click("#rb-line-btn")
        page.wait_for_selector(".rb-seq li", timeout=120000)
        assert pick["best"] in page.inner_text(".rb-seq li >> nth=0")
        line = page.evaluate("RB.line.line")
        assert page.locator("#map g.rb-step").count() == \
            sum(1 for x in line if x["space"] is not None)               # numbered on the map

    found = serious(page)
    assert not found, "\n".join(found)
    shot = Path(os.environ["EKONOS_CAPTURES"]) if os.environ.get("EKONOS_CAPTURES") else SHOTS
    page.screenshot(path=str(shot / "web-review-1280x800.png"))

    # on a phone: the stepper's controls are touch-sized and the page does not scroll sideways
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.documentElement.clientWidth === 390")
    for control in ("#rb-prev", "#rb-next", "#rb-slider", "#rb-exit"):
        box = page.locator(control).bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, (control, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    found = serious(page)
    assert not found, "\n".join(found)
    page.screenshot(path=str(shot / "web-review-390x844.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})

    page.click("#rb-exit")                                       # back to the review, then
    page.wait_for_selector("#review svg.chart", state="visible")  # the game's own board
    assert page.evaluate("S.over") and page.evaluate("RB") is None
    page.locator("#review .review-head button", has_text="Show the board").click()
    assert page.locator("#map").is_visible() and page.locator("#stepper").is_hidden()
    assert page.locator("#map g.rb-move").count() == 0
    assert not errors, errors
