"""First paint of the web board, as the browser reports it (target: under 300 ms locally).

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
    .venv/bin/python benchmarks/first_paint.py --root /an/older/checkout --root .   # compare

With several `--root`s (checkouts with their extensions built), each is served at once and the
visits alternate between them, so a busy machine weighs on each the same.

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


def measure(browser, roots: list[Path], runs: int, cold: int, data: Path) -> dict:
    """Every figure of every root: {root: {"first": [...], "reload": [...], "cold": [...],
    "server_start_s": [...]}}, the visits of the roots taken in turn."""
    out = {str(r): {"first": [], "reload": [], "cold": [], "server_start_s": []} for r in roots}
    servers = []
    try:
        for i, root in enumerate(roots):
            port = free_port()
            proc, url, _ = start_server(root, data / f"warm{i}", port)
            servers.append((root, proc, url))
            visit(browser, url)                   # the browser's own first start-up
        for _ in range(runs):
            for root, _, url in servers:
                got = visit(browser, url, reload=True)
                out[str(root)]["first"].append(got["first"])
                out[str(root)]["reload"].append(got["reload"])
    finally:
        for _, proc, _ in servers:
            stop(proc)
    for k in range(cold):                          # the first visit after a server start
        for i, root in enumerate(roots):
            port = free_port()
            proc, url, started = start_server(root, data / f"cold{i}-{k}", port)
            try:
                out[str(root)]["cold"].append(visit(browser, url)["first"])
                out[str(root)]["server_start_s"].append(round(started, 2))
            finally:
                stop(proc)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="first visits (fresh contexts) a root")
    ap.add_argument("--cold", type=int, default=3, help="server starts a root, one visit each")
    ap.add_argument("--root", type=Path, action="append",
                    help="a checkout to serve (default: this one); repeat to compare")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = ap.parse_args()
    roots = [r.resolve() for r in a.root or [ROOT]]
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix="ekonos-paint-"))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=ARGS)
            try:
                figures = measure(browser, roots, a.runs, a.cold, data)
            finally:
                browser.close()
    finally:
        shutil.rmtree(data, ignore_errors=True)
    report = {}
    for root, runs in figures.items():
        summary = {kind: {"runs": len(runs[kind]),
                          "fcp_ms": median([r["fcp"] for r in runs[kind]]),
                          "board_ms": median([r["board"] for r in runs[kind]])}
                   for kind in ("first", "reload", "cold")}
        summary["server_start_s"] = median(runs["server_start_s"])
        report[root] = {"median": summary, "runs": runs}
    if a.json:
        print(json.dumps(report, indent=1))
        return
    for root, got in report.items():
        print(f"{root}")
        for kind in ("first", "reload", "cold"):
            shown = ", ".join(f"{r['board']:.0f}" for r in got["runs"][kind])
            print(f"  {kind:>6}: board {shown}")
        print("  medians:")
        for kind, label in (("first", "first visit (fresh context)"), ("reload", "reload"),
                            ("cold", "first visit after a server start")):
            s = got["median"][kind]
            print(f"    {label:<34} board painted {s['board_ms']} ms, first contentful paint "
                  f"{s['fcp_ms']} ms ({s['runs']} runs)")
        print(f"    server start to first connection accepted: "
              f"{got['median']['server_start_s']} s")


if __name__ == "__main__":
    main()
