"""First paint of the web board, as the browser reports it (issue 13: under 300 ms locally).

Starts `ekonos serve` (level 1, 1 AI, a fixed seed, its own data folder) on a free loopback
port, then opens the printed link in the system's Chromium (Playwright) again and again:

* **first visit**: a fresh browser context each time (no cookie, no cache), the link with its
  token, so the visit includes the token's redirect and every file the page needs;
* **reload**: the same page reloaded (the cookie set, the cache warm);
* **cold**: the first visit after a fresh server start (`--cold N` restarts; the server's
  imports and first session are then part of what the page waits for).

For each it reads two figures, in ms from the navigation's start (which includes the token's
redirect): `first-contentful-paint` (the Paint Timing entry: the first text or shape painted,
which may be the page's header before the board) and **the board painted**: a script added to
the page before it loads (the same for any version of the page) sees the map's 36 spaces
arrive in the DOM, then posts a message from the next animation frame, which arrives once that
frame is rendered.  Prints every run and the medians; `--json` prints them as JSON.

    .venv/bin/python benchmarks/first_paint.py --runs 15 --cold 3
    .venv/bin/python benchmarks/first_paint.py --root /some/other/checkout   # compare

Not a test: the machine is shared, so the figures are measured and reported, never asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WATCH = """
window.__boardPainted = null;
new MutationObserver((_, observer) => {
  const map = document.getElementById("map");
  if (!map || map.querySelectorAll("g.space").length < 36) return;
  observer.disconnect();
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { window.__boardPainted = performance.now(); };
  requestAnimationFrame(() => channel.port2.postMessage(0));
}).observe(document, {childList: true, subtree: true});
"""
BOARD = "() => window.__boardPainted !== null"
READ = """() => {
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {fcp: fcp ? fcp.startTime : null, board: window.__boardPainted};
}"""


def chromium() -> str:
    for path in (os.environ.get("EKONOS_CHROMIUM"), "/usr/bin/chromium",
                 "/usr/bin/chromium-browser", shutil.which("chromium")):
        if path and Path(path).is_file():
            return path
    sys.exit("no Chromium binary (apt-get install chromium, or set EKONOS_CHROMIUM)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(root: Path, data: Path, port: int) -> tuple[subprocess.Popen, str, float]:
    """`ekonos serve` from `root`: the process, its URL, and the seconds until it accepted a
    connection."""
    t0 = time.perf_counter()
    env = dict(os.environ, EKONOS_DATA_DIR=str(data), PYTHONPATH=str(root))
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--no-browser",
                             "--port", str(port), "--pace", "0", "--ai", "1", "--level", "1",
                             "--seed", "5"], cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    url = None
    for line in proc.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
        if found:
            url = found.group(1)
            break
    if url is None:
        sys.exit("the server printed no URL")
    for _ in range(1000):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.005)
    return proc, url, time.perf_counter() - t0


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=20)


def visit(browser, url: str, reload: bool = False) -> dict:
    """One first visit in a fresh context (and, if asked, one reload of it): the figures."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(WATCH)
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function(BOARD)
        out = {"first": page.evaluate(READ)}
        if reload:
            page.reload()
            page.wait_for_function(BOARD)
            out["reload"] = page.evaluate(READ)
        return out
    finally:
        context.close()


def median(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 1) if values else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="first visits (fresh contexts)")
    ap.add_argument("--cold", type=int, default=3, help="server restarts, one visit each")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix="ekonos-paint-"))
    runs: dict[str, list] = {"first": [], "reload": [], "cold": [], "server_start_s": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=ARGS)
        try:
            port = free_port()
            proc, url, _ = start_server(a.root, data / "warm", port)
            try:
                visit(browser, url)                       # the browser's own first start-up
                for _ in range(a.runs):
                    got = visit(browser, url, reload=True)
                    runs["first"].append(got["first"])
                    runs["reload"].append(got["reload"])
            finally:
                stop(proc)
            for _ in range(a.cold):                       # the first visit after a start
                port = free_port()
                proc, url, started = start_server(a.root, data / f"cold{port}", port)
                try:
                    runs["cold"].append(visit(browser, url)["first"])
                    runs["server_start_s"].append(round(started, 2))
                finally:
                    stop(proc)
        finally:
            browser.close()
    shutil.rmtree(data, ignore_errors=True)
    summary = {kind: {"runs": len(runs[kind]),
                      "fcp_ms": median([r["fcp"] for r in runs[kind]]),
                      "board_ms": median([r["board"] for r in runs[kind]])}
               for kind in ("first", "reload", "cold")}
    summary["server_start_s"] = median(runs["server_start_s"])
    if a.json:
        print(json.dumps({"root": str(a.root), "median": summary, "runs": runs}, indent=1))
        return
    for kind in ("first", "reload", "cold"):
        shown = ", ".join(f"{r['board']:.0f}" for r in runs[kind])
        print(f"{kind:>6}: board {shown}")
    print(f"medians ({a.root}):")
    for kind, label in (("first", "first visit (fresh context)"), ("reload", "reload"),
                        ("cold", "first visit after a server start")):
        s = summary[kind]
        print(f"  {label:<34} first contentful paint {s['fcp_ms']} ms, board {s['board_ms']} "
              f"ms ({s['runs']} runs)")
    print(f"  server start to first connection accepted: {summary['server_start_s']} s")


if __name__ == "__main__":
    main()
