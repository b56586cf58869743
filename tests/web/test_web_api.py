"""The web board's app through Starlette's TestClient: every endpoint, every refusal (with the
game unchanged), a whole 2-player game at level 1, and the autosave shared with `ekonos play`."""
from __future__ import annotations

import json
import random
import re
import time

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

import warnings  # noqa: E402

from click.testing import CliRunner  # noqa: E402

with warnings.catch_warnings():      # starlette 1.x prefers httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from cli.main import main  # noqa: E402
from cli.session import GameSession  # noqa: E402
from cli.web.app import WebGame, create_app  # noqa: E402
from cli.web.security import COOKIE, allowed_hosts  # noqa: E402
from search.review import mark_of, replay_record, review_game  # noqa: E402

PORT = 8799
BASE = f"http://127.0.0.1:{PORT}"
ORIGIN = {"origin": BASE}
TOKEN = "t" * 43
REVIEW_ITERATIONS = 60         # a small review budget: the same code, quicker


def _session(tmp_path, **kw) -> GameSession:
    kw.setdefault("ai", 1)
    kw.setdefault("level", 1)
    kw.setdefault("seed", 7)
    return GameSession.new(autosave=tmp_path / "autosave.json", record_dir=tmp_path / "games",
                           **kw)


@pytest.fixture
def web(tmp_path, monkeypatch):
    """(client with the cookie, the WebGame, tmp folder); the AI runs in the client's loop."""
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path))
    game = WebGame(_session(tmp_path), lambda **kw: _session(tmp_path, **kw),
                   review_iterations=REVIEW_ITERATIONS)
    app = create_app(game, TOKEN, allowed_hosts("127.0.0.1", PORT))
    with TestClient(app, base_url=BASE) as client:
        client.cookies.set(COOKIE, TOKEN)
        yield client, game, tmp_path


def settle(client) -> dict:
    """The state once the AI has made every decision due (a bounded wait, nothing timed)."""
    for _ in range(6000):
        st = client.get("/api/state").json()
        if st["over"] or (st["to_move"] == st["human"] and st["thinking"] is None):
            return st
        time.sleep(0.01)
    raise AssertionError("the AI never handed the turn back")


def post(client, path, body=None, **kw):
    headers = dict(ORIGIN)
    headers.update(kw.pop("headers", {}))
    data = body if isinstance(body, (str, bytes)) else json.dumps(body or {})
    return client.post(path, content=data, headers=headers, **kw)


# -- the endpoints ----------------------------------------------------------------------------

def test_page_layout_and_static_files(web):
    client, _, _ = web
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"
    for name in ("board.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    lay = client.get("/api/layout").json()
    spaces = {sp for row in lay["grid"] for sp in row if sp is not None}
    assert spaces == set(range(1, 37))
    assert len(lay["companies"]) == 6 and len(lay["deck"]) == 36
    assert all(len(e) == 2 and e[0] < e[1] for e in lay["edges"])


def _boot(html: str) -> dict:
    """The data block of the page (cli.web.page)."""
    found = re.search(r'<script type="application/json" id="boot">(.*?)</script>', html, re.S)
    assert found, "the page carries no data block"
    return json.loads(found.group(1))


def test_the_page_carries_the_layout_and_the_position(web):
    """The board draws from the page itself: no /api/layout or /api/state round trip first."""
    client, game, _ = web
    settle(client)
    page = client.get("/")
    assert page.headers["cache-control"] == "no-store"         # it holds the person's hand
    boot = _boot(page.text)
    assert boot["layout"] == client.get("/api/layout").json()
    assert boot["state"]["version"] == game.session.version
    assert boot["state"]["hand"] == sorted(game.session.state.hand(0))


def test_the_data_block_cannot_be_closed_by_its_text():
    from cli.web.page import Assets
    html = Assets().page({"layout": {}, "state": {"names": ["</script><script>alert(1)"]}}).body
    text = html.decode()
    assert text.count("</script>") == text.count("<script")           # no block added
    assert _boot(text)["state"]["names"] == ["</script><script>alert(1)"]


def test_static_files_are_cached_under_their_hash(web):
    client, _, _ = web
    urls = re.findall(r'"(/static/[\w.]+\?v=\w+)"', client.get("/").text)
    assert {u.split("?")[0] for u in urls} == {"/static/board.js", "/static/review.js",
                                               "/static/keys.js", "/static/map.js",
                                               "/static/replay.js", "/static/panels.js",
                                               "/static/style.css"}
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200 and "immutable" in r.headers["cache-control"]
        assert r.headers["cache-control"].count("no-store") == 0
        assert "default-src 'self'" in r.headers["content-security-policy"]
        bare = client.get(url.split("?")[0])
        assert bare.headers["cache-control"] == "no-cache" and bare.content == r.content
        again = client.get(url.split("?")[0], headers={"if-none-match": bare.headers["etag"]})
        assert again.status_code == 304 and not again.content
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/index.html").status_code == 404       # the page only at /


def test_the_server_socket_answers_without_nagle_delay():
    """An answer's body must not wait behind its headers for the browser's delayed ACK: the
    listening socket says it is TCP, so asyncio sets TCP_NODELAY on every connection."""
    import asyncio
    import socket

    from cli.commands.serve import _bind
    sock = _bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    seen: list[int] = []

    async def main():
        async def handle(reader, writer):
            seen.append(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP,
                                                                   socket.TCP_NODELAY))
            writer.close()
        server = await asyncio.start_server(handle, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            for _ in range(200):
                if seen:
                    break
                await asyncio.sleep(0.01)
            writer.close()
    asyncio.run(main())
    assert seen and seen[0] != 0


def test_state_shows_only_the_persons_hand(web):
    client, game, _ = web
    st = settle(client)
    assert st["human"] == 0 and st["nplayers"] == 2
    assert st["hand"] == sorted(game.session.state.hand(0))
    assert [p["cards"] for p in st["players"]][1] == game.session.state.hand_size(1)
    assert "hand" not in st["players"][1]
    texts = {m["text"] for m in st["legal"]}
    assert texts == set(game.session.state.legal_moves.texts())
    move = st["legal"][0]
    assert {"step", "kind", "card", "space", "company", "seat"} <= set(move)


def test_stream_starts_with_the_position(web):
    client, game, _ = web
    settle(client)                                  # the AI may open the game: let it
    r = client.get("/api/stream?follow=0")
    assert r.headers["content-type"].startswith("text/event-stream")
    data = [line[6:] for line in r.text.splitlines() if line.startswith("data: ")]
    hello = json.loads(data[0])
    assert hello["kind"] == "Hello" and hello["state"]["version"] == game.session.version


def test_move_undo_redo_level_hint_new_review(web):
    client, game, tmp = web
    st = settle(client)
    first = st["legal"][0]["text"]
    r = post(client, "/api/move", {"move": first, "version": st["version"]})
    assert r.status_code == 200, r.text
    st2 = settle(client)
    mine = [d for d in st2["log"] if d["seat"] == 0]
    assert [d["move"] for d in mine] == [first]
    assert any(d["seat"] == 1 and d["reason"] for d in st2["log"])
    assert st2["can_undo"]
    r = post(client, "/api/undo")
    assert r.status_code == 200 and r.json()["state"]["log"] == st["log"]
    redone = post(client, "/api/redo").json()["state"]["log"]
    assert redone[len(st["log"])]["move"] == first
    assert post(client, "/api/level", {"level": 3}).json()["state"]["level"] == 3
    assert json.loads((tmp / "autosave.json").read_text())["play"]["level"] == 3
    settle(client)
    hint = post(client, "/api/hint").json()["hint"]
    legal = {m["text"] for m in client.get("/api/state").json()["legal"]}
    assert len(hint["moves"]) in range(1, 4) and {m["move"] for m in hint["moves"]} <= legal
    assert all(m["win"] is None or 0 <= m["win"] <= 1 for m in hint["moves"])
    r = post(client, "/api/new", {"ai": 2, "level": 1, "seed": 11})
    assert r.status_code == 200
    new = r.json()["state"]
    assert new["nplayers"] == 3 and new["seed"] == 11 and new["log"] == []
    assert client.get("/api/review").status_code == 409          # not over: no review


def test_a_hint_that_cannot_tell_its_moves_apart_says_so(web):
    client, game, tmp = web
    r = post(client, "/api/new", {"ai": 2, "level": 3, "seed": 11})
    assert r.status_code == 200
    settle(client)
    hint = post(client, "/api/hint").json()["hint"]      # round 1 of 3 players: alike
    wins = [m["win_raw"] for m in hint["moves"]]          # the search's own figures
    assert max(wins) - min(wins) < 0.01 and "cannot tell them apart" in hint["note"]


# -- refusals ---------------------------------------------------------------------------------

def _fingerprint(client, tmp):
    st = client.get("/api/state").json()
    return st["version"], st["log"], (tmp / "autosave.json").read_bytes()


def test_token_is_required_then_a_cookie(web):
    client, _, _ = web
    bare = TestClient(client.app, base_url=BASE)
    for path in ("/", "/api/state", "/api/layout", "/static/board.js", "/api/stream?follow=0"):
        r = bare.get(path)
        assert r.status_code == 403 and "token" in r.json()["error"]
    assert bare.get("/api/state?token=wrong").status_code == 403
    r = bare.get(f"/?token={TOKEN}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    assert f"{COOKIE}={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    bare.cookies.set(COOKIE, TOKEN)
    assert bare.get("/api/state").status_code == 200


@pytest.mark.parametrize("case", ["no-token", "wrong-host", "no-origin", "wrong-origin",
                                  "bad-json", "not-object", "illegal", "not-notation",
                                  "oversized", "bad-version", "stale", "bad-level", "bad-new"])
def test_bad_requests_leave_the_game_unchanged(web, case):
    client, game, tmp = web
    st = settle(client)
    before = _fingerprint(client, tmp)
    legal = st["legal"][0]["text"]
    if case == "no-token":
        bare = TestClient(client.app, base_url=BASE)
        r = post(bare, "/api/move", {"move": legal})
    elif case == "wrong-host":
        r = post(client, "/api/move", {"move": legal}, headers={"host": "evil.example:8799"})
    elif case == "no-origin":
        r = client.post("/api/move", content=json.dumps({"move": legal}))
    elif case == "wrong-origin":
        r = post(client, "/api/move", {"move": legal}, headers={"origin": "http://evil.example"})
    elif case == "bad-json":
        r = post(client, "/api/move", "{move: play")
    elif case == "not-object":
        r = post(client, "/api/move", "[1, 2]")
    elif case == "illegal":
        held = set(st["hand"])
        card = next(c for c in range(1, 37) if c not in held)
        r = post(client, "/api/move", {"move": f"play {card} place 1"})
    elif case == "not-notation":
        r = post(client, "/api/move", {"move": "fly to the moon"})
    elif case == "oversized":
        r = post(client, "/api/move", {"move": legal, "pad": "x" * 5000})
    elif case == "bad-version":
        r = post(client, "/api/move", {"move": legal, "version": "x"})
    elif case == "stale":
        r = post(client, "/api/move", {"move": legal, "version": st["version"] - 1})
    elif case == "bad-level":
        r = post(client, "/api/level", {"level": 99})
    else:
        r = post(client, "/api/new", {"ai": 9})
    expected = {"no-token": 403, "wrong-host": 403, "no-origin": 403, "wrong-origin": 403,
                "oversized": 413, "stale": 409}.get(case, 400)
    assert r.status_code == expected, r.text
    assert r.json()["error"]
    assert _fingerprint(client, tmp) == before


def test_illegal_move_message_is_clear(web):
    client, _, _ = web
    st = settle(client)
    held = set(st["hand"])
    card = next(c for c in range(1, 37) if c not in held)
    r = post(client, "/api/move", {"move": f"play {card} place 1"})
    assert r.status_code == 400 and str(card) in r.json()["error"]


def test_undo_with_nothing_to_undo_is_refused(web):
    client, _, _ = web
    settle(client)
    r = post(client, "/api/undo")
    assert r.status_code == 409 and "nothing to undo" in r.json()["error"]


# -- a whole game, and the autosave shared with the terminal --------------------------------------

def play_to_the_end(client, seed: int = 3) -> dict:
    """Random legal decisions of the person until the game is over: the last state."""
    rng = random.Random(seed)
    for _ in range(500):
        st = settle(client)
        if st["over"]:
            return st
        move = rng.choice(st["legal"])["text"]
        r = post(client, "/api/move", {"move": move, "version": st["version"]})
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_a_whole_two_player_game_at_level_1(web):
    client, game, tmp = web
    play_to_the_end(client)
    st = client.get("/api/state").json()
    assert st["over"] and st["scorepad"]["totals"] == game.session.state.scores()
    assert len(st["scorepad"]["companies"]) == 6
    assert len(list((tmp / "games").glob("game-*.json"))) == 1
    resumed = GameSession.load(tmp / "autosave.json")
    assert resumed.state == game.session.state


def test_a_finished_game_cannot_be_undone_nor_recorded_twice(web):
    """Undo at "Game over" used to reopen the game, and a redo wrote a second record of it:
    the session refuses (409, the game as it ended) and the page is told undo is off."""
    client, game, tmp = web
    st = play_to_the_end(client, seed=5)
    assert st["over"] and st["can_undo"] is False and st["can_redo"] is False
    before = _fingerprint(client, tmp)
    r = post(client, "/api/undo")
    assert r.status_code == 409 and "game is over" in r.json()["error"]
    assert post(client, "/api/redo").status_code == 409
    assert _fingerprint(client, tmp) == before
    assert len(list((tmp / "games").glob("game-*.json"))) == 1


# -- the review -------------------------------------------------------------------------------

def wait_review(client) -> dict:
    """GET /api/review until the review is done (a bounded wait, nothing timed)."""
    for _ in range(12000):
        got = client.get("/api/review").json()
        if got["status"] != "running":
            return got
        time.sleep(0.01)
    raise AssertionError("the review never ended")


def test_review_is_refused_while_the_game_is_on(web):
    client, game, tmp = web
    settle(client)
    before = _fingerprint(client, tmp)
    for r in (client.get("/api/review"), post(client, "/api/review")):
        assert r.status_code == 409
        assert "not over" in r.json()["error"]
    assert _fingerprint(client, tmp) == before
    assert client.get("/api/state").json()["review"] is None and game.reviews.searches == 0


def test_a_finished_games_review_is_search_review_and_is_kept(web):
    """The review of the page is search/review.py's, on the game's record, for the person's
    seat, with the same budget and seed; it is computed once, then shown again."""
    client, game, tmp = web
    play_to_the_end(client)
    assert client.get("/api/review").json() == {"status": "none"}
    r = post(client, "/api/review")
    assert r.status_code == 200, r.text
    started = r.json()["review"]
    assert started["status"] in ("running", "done") and started["seat"] == 0
    mine = [d for d in game.session.decisions if d.seat == 0]
    assert started["total"] == len(mine)
    got = wait_review(client)
    assert got["status"] == "done" and got["done"] == got["total"] == len(mine)
    data = got["review"]

    record = next((tmp / "games").glob("game-*.json"))           # what `ekonos review` reads
    start, moves, ply0 = replay_record(json.loads(record.read_text()))
    direct = review_game(start, moves, seats=[0], iterations=REVIEW_ITERATIONS, seed=0,
                         ply0=ply0).to_dict()
    fields = set(direct["decisions"][0])
    assert [{k: d[k] for k in fields} for d in data["decisions"]] == direct["decisions"]
    for key in ("players", "seats", "iterations", "seed", "summary", "costliest", "result"):
        assert data[key] == direct[key], key
    # the chart's data and the marks
    assert [d["ply"] for d in data["decisions"]] == [d.ply for d in mine]
    assert all(0 <= d["win_best"] <= 1 and 0 <= d["win_played"] <= 1 for d in data["decisions"])
    for d in data["decisions"]:                    # the short form: a card play without `play`
        assert d["played_short"] == d["played"].removeprefix("play ")
        assert d["best_short"] == d["best"].removeprefix("play ")
        # a mark only by the lower end of the second look's interval
        assert d["mark"] == (mark_of(d["low"]) if d["low"] is not None and d["loss"] > 0
                             else None)
    assert f"review {record}" in data["command"] and data["command"].endswith("--seat 0")

    # kept: asked again, on a reload, from a second request: no second search
    again = post(client, "/api/review").json()["review"]
    assert again["status"] == "done" and again["key"] == got["key"]
    boot = _boot(client.get("/").text)
    assert boot["state"]["review"]["status"] == "done"
    assert client.get("/api/review").json() == got
    assert game.reviews.searches == 1


def test_review_runs_off_the_event_loop_and_stops_with_a_new_game(web):
    """While the review searches, the server answers (the state says how far it is); a new
    game stops it."""
    client, game, _ = web
    play_to_the_end(client)
    game.reviews.iterations = 4000                 # long enough to be seen running
    assert post(client, "/api/review").json()["review"]["status"] == "running"
    st = client.get("/api/state").json()           # answered while the review runs
    assert st["review"]["status"] == "running" and st["review"]["done"] < st["review"]["total"]
    old = game.session
    assert post(client, "/api/new", {"ai": 1, "level": 1, "seed": 4}).status_code == 200
    assert game.reviews.job(old) is None           # forgotten: a later request starts again
    game.reviews._executor.submit(lambda: None).result(timeout=120)   # the thread is free
    assert client.get("/api/state").json()["review"] is None


def test_browser_game_resumes_in_the_terminal_and_back(web, tmp_path):
    client, game, tmp = web
    st = settle(client)
    post(client, "/api/move", {"move": st["legal"][0]["text"]})
    st = settle(client)
    terminal = GameSession.load(tmp / "autosave.json",          # what `play --load` builds
                                autosave=tmp / "autosave.json")
    assert terminal.state == game.session.state and terminal.decisions == game.session.decisions
    terminal.decide(terminal.state.legal_moves.texts()[0])
    while terminal.ai_to_move():
        terminal.play_ai()
    back = WebGame(GameSession.load(tmp / "autosave.json"), lambda **kw: None)
    assert back.snapshot()["log"][-1]["move"] == str(terminal.decisions[-1].move)


# -- the command's flags ----------------------------------------------------------------------

@pytest.mark.parametrize("args, word", [(["--host", "192.168.1.20"], "--allow-remote"),
                                        (["--host", "0.0.0.0"], "--allow-remote"),
                                        (["--host", "no.such.host.invalid"], "--host"),
                                        (["--level", "9"], "--level"),
                                        (["--ai", "0"], "--ai"),
                                        (["--seat", "3", "--ai", "1"], "--seat"),
                                        (["--port", "-1"], "--port")])
def test_serve_bad_flags_exit_2_with_one_line(args, word, tmp_path, monkeypatch):
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path))
    r = CliRunner().invoke(main, ["serve", "--no-browser", *args], standalone_mode=True)
    assert r.exit_code == 2
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and word in lines[0]


def test_serve_starts_the_game_play_starts_and_resumes_the_autosave(tmp_path, monkeypatch):
    """`ekonos serve` with no flags: a new game as `ekonos play` makes it (players, level,
    seat, variant); with an unfinished autosave, serve resumes it (its one documented
    difference), where play starts anew and keeps it aside."""
    import io

    from rich.console import Console

    from cli.commands.play import make_game
    from cli.commands.serve import _session as serve_session
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path))
    quiet = Console(file=io.StringIO())
    served = serve_session(None, None, None, None, None)
    played = make_game(console=quiet).session
    for attr in ("level", "human"):
        assert getattr(served, attr) == getattr(played, attr), attr
    for attr in ("nplayers", "variant"):
        assert getattr(served.state, attr) == getattr(played.state, attr), attr
    if played.human_to_move():                     # one decision: an unfinished autosave
        played.decide(played.state.legal_moves.texts()[0])
    else:
        played.play_ai()
    resumed = serve_session(None, None, None, None, None)
    assert resumed.state == played.state and resumed.kept_unfinished is None
    assert serve_session(None, 1, None, None, None).level == 1          # --level: same game
    fresh = make_game(console=quiet).session
    assert fresh.kept_unfinished is not None and fresh.decisions == ()
