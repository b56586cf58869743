"""The web board in a real browser: `ekonos serve` started on a free loopback port, the system's
Chromium driven by Playwright.  A whole 2-player game at level 1 played by clicking, with a hint,
an undo and a reload, ending with its review (progress, chart, marks); no console errors;
screenshots of the board and of the review at 1280x800 and 390x844.

Skipped (with the reason) only when no browser can be had: Playwright not importable, or no
Chromium binary (`make test` installs it when it runs as root).  Measurements (first paint of the
board, arrival of the AI's decisions) are written to the screenshot folder and printed; nothing
here asserts a duration.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright (PyPI) is not installed: pip install playwright")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = next((p for p in (os.environ.get("EKONOS_CHROMIUM"), "/usr/bin/chromium",
                             "/usr/bin/chromium-browser", shutil.which("chromium"))
                 if p and Path(p).is_file()), None)
if CHROMIUM is None:
    pytest.skip("no Chromium binary (apt-get install chromium, or set EKONOS_CHROMIUM)",
                allow_module_level=True)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(os.environ.get("EKONOS_SCREENSHOTS") or tempfile.mkdtemp(prefix="ekonos-shots-"))
MY_TURN = "() => S && (S.over || (S.to_move === S.human && S.thinking === null))"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data: Path, port: int, *flags: str) -> tuple[subprocess.Popen, str]:
    """`ekonos serve` on `port` with its data folder `data`: the process and the printed URL."""
    env = dict(os.environ, EKONOS_DATA_DIR=str(data), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--no-browser",
                             "--port", str(port), "--pace", "0", *flags], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = None
    for line in proc.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
        if found:
            url = found.group(1)
            break
    assert url, "the server printed no URL"
    for _ in range(500):                          # until it accepts connections
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.02)
    return proc, url


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture
def server(tmp_path):
    """`ekonos serve` on a free loopback port (level 1, 1 AI, no pace): yields its URL."""
    proc, url = start_server(tmp_path, free_port(), "--ai", "1", "--level", "1", "--seed", "5")
    yield url
    stop_server(proc)


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def watch(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def click_a_decision(page) -> None:
    """One legal decision of the person, by clicking what the page highlights."""
    version = page.evaluate("S.version")
    if page.evaluate("S.step === 'card' && card === null"):
        page.locator(".card.target").first.click()
        page.wait_for_function("() => card !== null")
    targets = page.locator(".space.target")
    if targets.count():
        targets.first.click()
    else:
        page.locator("#choices .choice").first.click()
    page.wait_for_function(f"() => S.version !== {version}")
    page.wait_for_function(MY_TURN)


def test_a_whole_game_by_clicking(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch(page)
    page.goto(server)
    page.wait_for_function("() => window.ekonos.firstPaint !== null")
    first_paint = page.evaluate("window.ekonos.firstPaint")
    assert page.locator("#map g.space").count() == 36
    assert page.url.endswith("/") and "token" not in page.url       # the token left the URL
    page.wait_for_function(MY_TURN)

    clicks = 0
    used = set()
    while not page.evaluate("S.over"):
        mine = page.evaluate("S.log.filter(d => d.seat === S.human).length")
        if mine == 1 and "text" not in used:
            used.add("text")
            page.fill("#text", "fly to the moon")                 # not notation: refused
            page.press("#text", "Enter")
            page.wait_for_function("() => $('error').textContent !== ''")
            assert "fly to the moon" in page.inner_text("#error")
            errors[:] = [e for e in errors if "status of 400" not in e]   # that refusal's log
            version = page.evaluate("S.version")
            page.fill("#text", page.evaluate("S.legal[0].text"))
            page.press("#text", "Enter")
            page.wait_for_function(f"() => S.version !== {version}")
            page.wait_for_function(MY_TURN)
            assert page.inner_text("#error") == ""
            continue
        if mine == 2 and "hint" not in used:
            used.add("hint")
            page.click("#hint-btn")
            page.wait_for_selector("#hint .choice")
            legal = set(page.evaluate("S.legal.map(m => m.text)"))
            shown = page.locator("#hint .choice").all_inner_texts()
            assert len(shown) in range(1, 4) and all(t.split(" — ")[0] in legal for t in shown)
            version = page.evaluate("S.version")
            page.locator("#hint .choice").first.click()
            page.wait_for_function(f"() => S.version !== {version}")
            page.wait_for_function(MY_TURN)
            continue
        if mine == 3 and "undo" not in used:
            used.add("undo")
            before = page.evaluate("S.log.length")
            page.click("#undo-btn")
            page.wait_for_function(f"() => S.log.length < {before}")
            page.wait_for_function(MY_TURN)
            assert page.evaluate("S.log.filter(d => d.seat === S.human).length") == 2
        if mine >= 4 and "reload" not in used and page.evaluate("S.step") == "card":
            used.add("reload")
            page.locator(".card.target").first.click()       # a card chosen: the highlights
            page.screenshot(path=str(SHOTS / "board-1280x800.png"))
            log = page.evaluate("S.log.length")
            page.reload()
            page.wait_for_function(MY_TURN)
            page.wait_for_function("() => window.ekonos.firstPaint !== null")
            reload_paint = page.evaluate("window.ekonos.firstPaint")
            assert page.evaluate("S.log.length") == log
            small = browser.new_page(viewport={"width": 390, "height": 844})
            small.goto(server)
            small.wait_for_function(MY_TURN)
            assert small.evaluate("S.step") == "card"
            small.locator(".card.target").first.click()
            small.screenshot(path=str(SHOTS / "board-390x844.png"), full_page=True)
            small.close()
        if page.evaluate("S.round >= 4 && S.step === 'card'") and "late" not in used:
            used.add("late")
            page.locator(".card.target").first.click()
            page.screenshot(path=str(SHOTS / "board-late-1280x800.png"))
        click_a_decision(page)
        clicks += 1
        assert clicks < 400, "the game did not end"
    page.wait_for_selector("#scorepad table")
    assert page.locator("#undo-btn").is_disabled()                # a finished game stays so
    page.screenshot(path=str(SHOTS / "scorepad-1280x800.png"))
    assert used == {"text", "hint", "undo", "reload", "late"}
    assert page.locator("#scorepad .verdict").inner_text()
    open_the_review(page, browser, server)
    assert not errors, errors
    (SHOTS / "measures.json").write_text(json.dumps({"first_paint_ms": first_paint,
                                                     "reload_paint_ms": reload_paint}))
    print(f"\nfirst paint of the board: {first_paint:.0f} ms (after a reload: "
          f"{reload_paint:.0f} ms); screenshots in {SHOTS}")


def open_the_review(page, browser, url: str) -> None:
    """At the end: the review offered, its progress shown, then the chart and the marks drawn
    (as many dots on the chart as rows in the table, as decisions marked); shown again after a
    reload and on a phone-sized page; screenshots of both."""
    start = page.evaluate("window.ekonos.events.length")
    page.click("#review-btn")
    page.wait_for_selector("#review svg.chart", timeout=300000)
    events = page.evaluate(f"window.ekonos.events.slice({start})")
    progress = [e for e in events if e["kind"] == "Review"]
    assert progress and progress[-1]["done"] == progress[-1]["total"] > 0
    assert any(e["done"] < e["total"] for e in progress)         # progress was shown on the way
    review = page.evaluate("R.review")
    mine = page.evaluate("S.log.filter(d => d.seat === S.human).length")
    assert len(review["decisions"]) == mine and review["seats"] == [0]
    points = page.get_attribute("#review polyline.winline", "points").split()
    assert len(points) == mine + 1                                # every decision, the result
    marked = [d for d in review["decisions"] if d["mark"]]
    assert page.locator("#review g.mark").count() == len(marked)
    assert page.locator("#review .marks tr[id]").count() == len(marked)
    if marked:                      # a mark opens the review board there (and is picked)
        page.locator("#review g.mark").first.click()
        page.wait_for_selector("#stepper", state="visible")
        assert page.locator("#review .marks tr.picked").get_attribute("id") == \
            f"rv-{marked[0]['ply']}"
        assert page.evaluate("RB.ply") == marked[0]["ply"]
        page.click("#rb-exit")                                    # back to the review
        page.wait_for_selector("#review svg.chart", state="visible")
    accuracy = review["summary"][0]["accuracy"]
    assert f"{round(accuracy)}%" in page.inner_text("#review .accuracy")
    assert page.locator("#map").is_hidden()                       # in place of the map
    page.screenshot(path=str(SHOTS / "review-1280x800.png"))
    page.click("#review-btn")                                     # back to the board
    assert page.locator("#map").is_visible() and page.locator("#review").is_hidden()
    page.reload()                                                 # kept: shown again
    page.wait_for_selector("#review svg.chart")
    small = browser.new_page(viewport={"width": 390, "height": 844})
    small.goto(url)
    small.wait_for_selector("#review svg.chart")
    small.screenshot(path=str(SHOTS / "review-390x844.png"), full_page=True)
    small.close()


def test_an_error_line_goes_when_the_game_moves_on(server, browser):
    """A 409 ("the game has moved on") in one tab used to stay there until that tab's next
    POST: a new position pushed by the server (here a decision made in another tab) clears it."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server)
    page.wait_for_function(MY_TURN)
    page.evaluate("post('/api/move', {move: S.legal[0].text, version: S.version - 1})")
    page.wait_for_function("() => $('error').textContent.includes('moved on')")
    other = browser.new_page(viewport={"width": 1280, "height": 800})
    other.goto(server)
    other.wait_for_function(MY_TURN)
    click_a_decision(other)
    page.wait_for_function("() => $('error').textContent === ''")
    other.close()


def test_ai_decisions_arrive_one_at_a_time(server, browser):
    """Each AI decision comes in a message of its own, in order, as it is made."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch(page)
    page.goto(server)
    page.wait_for_function(MY_TURN)
    page.select_option("#level", "2")
    page.wait_for_function("() => S.level === 2")
    start = page.evaluate("window.ekonos.events.length")
    for _ in range(3):
        click_a_decision(page)
    events = page.evaluate(f"window.ekonos.events.slice({start})")
    made = [e for e in events if e["kind"] == "DecisionMade"]
    plies = [e["ply"] for e in made]
    assert plies == sorted(plies) and len(set(plies)) == len(plies)
    ai = [e for e in events if e["kind"] in ("Thinking", "DecisionMade")]
    assert sum(e["kind"] == "Thinking" for e in ai) >= 1
    times = [round(e["t"]) for e in made]
    (SHOTS / "stream.json").write_text(json.dumps({"plies": plies, "arrived_ms": times}))
    print(f"\nAI decisions arrived (ply: ms): {list(zip(plies, times))}")
    assert not errors, errors


def test_the_page_survives_a_server_restart(tmp_path, browser):
    """The server stops mid-game and starts again (resuming the autosave): the open page
    reconnects by itself and play goes on; the token and the game were kept."""
    port = free_port()
    proc, url = start_server(tmp_path, port, "--ai", "1", "--level", "1", "--seed", "9")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch(page)
    try:
        page.goto(url)
        page.wait_for_function(MY_TURN)
        for _ in range(3):
            click_a_decision(page)
        log = page.evaluate("S.log.map(d => d.move)")
        stop_server(proc)
        proc, url2 = start_server(tmp_path, port)           # no flags: resume the autosave
        assert url2 == url                                  # the same token
        hellos = page.evaluate("window.ekonos.events.filter(e => e.kind === 'Hello').length")
        page.wait_for_function(
            f"() => window.ekonos.events.filter(e => e.kind === 'Hello').length > {hellos}",
            timeout=60000)
        page.wait_for_function(MY_TURN)
        assert page.evaluate("S.log.map(d => d.move)") == log
        click_a_decision(page)
        assert len(page.evaluate("S.log")) > len(log)
    finally:
        stop_server(proc)
    errors = [e for e in errors if "ERR_CONNECTION_REFUSED" not in e]   # while it was down
    assert not errors, errors
