"""The review board's API (cli.web.replay) through Starlette's TestClient: the position before
each reviewed decision, replayed from the game; the played and better moves; the better move's
expected line; every refusal a clear 4xx; and the reviewed seat's view only."""
from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

from test_web_api import play_to_the_end, post, settle, wait_review, web  # noqa: E402,F401

from cli.web.views import state_json  # noqa: E402


def reviewed(client) -> dict:
    play_to_the_end(client)
    assert post(client, "/api/review").status_code == 200
    got = wait_review(client)
    assert got["status"] == "done"
    return got["review"]


def test_no_review_board_while_the_game_is_on_or_before_the_review(web):  # noqa: F811
    client, game, _ = web
    st = settle(client)
    r = client.get("/api/review/position?ply=1")
    assert r.status_code == 409 and "not over" in r.json()["error"]
    assert "hand" not in r.text                              # nothing of the game in it
    assert client.get("/api/review/line?ply=1").status_code == 409
    assert client.get("/api/state").json()["version"] == st["version"]
    play_to_the_end(client)
    r = client.get("/api/review/position?ply=1")             # over, but not reviewed
    assert r.status_code == 409 and "review" in r.json()["error"]


def test_positions_at_the_reviewed_plies(web):  # noqa: F811
    client, game, _ = web
    review = reviewed(client)
    s = game.session
    plies = [d["ply"] for d in review["decisions"]]
    for i in (0, len(plies) // 2, len(plies) - 1):
        ply = plies[i]
        r = client.get(f"/api/review/position?ply={ply}")
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["ply"] == ply and data["index"] == i and data["plies"] == plies
        assert data["review"] == review["decisions"][i]
        # the position before the decision: the game replayed to it
        k = next(j for j, d in enumerate(s.decisions) if d.ply == ply)
        st = s.start.copy()
        for d in s.decisions[:k]:
            st.push(d.move)
        assert st.to_move == 0
        want = state_json(st, 0, s.decisions[:k])
        want["legal"] = []
        assert data["state"] == want
        assert data["played"]["text"] == str(s.decisions[k].move) == data["review"]["played"]
        assert data["best"]["text"] == data["review"]["best"]
        # the reviewed seat's view only: the same JSON from that view, where the others'
        # hands are unknown (nothing in it depends on them), and the hand is the seat's own
        view = st.view(0)
        assert state_json(view, 0, s.decisions[:k]) | {"legal": [], "seed": want["seed"]} \
            == want | {"seed": want["seed"]}
        assert data["state"]["hand"] == sorted(st.hand(0))


def test_bad_plies_are_refused(web):  # noqa: F811
    client, game, _ = web
    review = reviewed(client)
    plies = {d["ply"] for d in review["decisions"]}
    other = next(d.ply for d in game.session.decisions if d.ply not in plies)   # an AI's
    for query, status in (("", 400), ("?ply=", 400), ("?ply=abc", 400), ("?ply=-1", 400),
                          ("?ply=1.5", 400), ("?ply=9999999999", 400), ("?ply=%00", 400),
                          (f"?ply={other}", 404), ("?ply=999999", 404)):
        for path in ("/api/review/position", "/api/review/line"):
            r = client.get(path + query)
            assert r.status_code == status, (path, query, r.text)
            assert r.json()["error"]


def test_the_better_moves_expected_line_is_computed_once(web):  # noqa: F811
    client, game, _ = web
    review = reviewed(client)
    d = max(review["decisions"], key=lambda d: d["loss"])
    r = client.get(f"/api/review/line?ply={d['ply']}")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["best"] == d["best"] and data["line"][0]["move"] == d["best"]
    assert data["line"][0]["seat"] == 0 and 1 <= len(data["line"]) <= 9
    assert all(x["name"] == game.session.names[x["seat"]] for x in data["line"])
    assert all(x["text"] == x["move"] and "space" in x for x in data["line"])   # Move fields
    assert client.get(f"/api/review/line?ply={d['ply']}").json() == data
    assert game.lines.searches == 1


def test_a_lines_seats_are_found_from_the_view(tmp_path):
    """Who decides each move of a line: replayed on the view of the seat to move, other seats'
    card plays included (their hands unknown there), as on the real game."""
    import random

    from cli.session import GameSession
    from cli.web.replay import _seats
    s = GameSession.new(autosave=tmp_path / "a.json", record_dir=tmp_path / "g", ai=2, level=1,
                        seed=3)
    st, rng, texts = s.state.copy(), random.Random(1), []
    for _ in range(30):
        m = rng.choice(list(st.legal_moves))
        texts.append(str(m))
        st.push(m)
    real, want = s.state.copy(), []
    for text in texts:
        want.append(real.to_move)
        real.push_text(text)
    assert len(set(want)) == 3
    assert [(str(m), q) for m, q in _seats(s.state, texts)] == list(zip(texts, want))
    assert [q for _, q in _seats(s.state, texts[:3] + ["fly to the moon"] + texts[4:])] \
        == want[:3]
