"""What the web board's position tells at a glance (cli/web/views.py): the other seats'
decisions since the person's last one and the spaces they changed (cli.events), the coming
forced expansions (ekonos.threats), the seats' colours and the terms' help; nothing private."""
from __future__ import annotations

import json

import pytest
from helpers import position

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")

from cli.events import since_last, spaces_changed  # noqa: E402
from cli.session import GameSession  # noqa: E402
from cli.web.views import layout, state_json  # noqa: E402
from ekonos.rules import Company  # noqa: E402
from ekonos.threats import expansion_threats  # noqa: E402

THREATENED = {20: "Crown", 21: "Panda", 22: "Panda!", 29: "Hydra", 5: "Crown"}


def loaded(tmp_path) -> GameSession:
    """3 players, the AI seats (1, 2) first; Crown at 5 (Anna presides), Hydra at 4 (you)."""
    d = position(3, hands={0: [9, 14, 20, 24, 33, 36]}, round=2, start=1, board=THREATENED,
                 growth={"Crown": 5, "Hydra": 4}, shares={"Crown": [1, 2, 0], "Hydra": [2, 0, 1]},
                 names=["You", "Anna", "Bruno"], seed=12)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(d))
    return GameSession.load(path, level=1, seat=0)


def test_since_your_last_decision_is_the_others_decisions_by_turn(tmp_path):
    s = loaded(tmp_path)
    while s.ai_to_move():
        s.play_ai()
    data = state_json(s.state, s.human, s.decisions)
    since = since_last(s.decisions, 0)
    assert since and {d.seat for d in since} == {1, 2}
    assert [t["seat"] for t in data["since"]["turns"]] == [1, 2]      # Anna's turn, then Bruno's
    assert [d["move"] for t in data["since"]["turns"] for d in t["decisions"]] == \
        [str(d.move) for d in since]
    assert data["since"]["spaces"] == sorted(spaces_changed(since))
    s.decide(data["legal"][0]["text"])                                 # your decision: all seen
    after = state_json(s.state, s.human, s.decisions)["since"]
    assert after == {"turns": [], "spaces": []}


def test_threats_are_the_library_answer_and_public(tmp_path):
    s = loaded(tmp_path)
    data = state_json(s.state, 0, s.decisions)
    lib = expansion_threats(s.state)
    assert [t["company"] for t in data["threats"]] == [int(c) for c in (Company.CROWN, Company.HYDRA)]
    assert [(t["spaces"], t["takes"], t["decider"]) for t in data["threats"]] == \
        [(list(t.spaces), list(t.takes), t.decider) for t in lib]
    crown = data["threats"][0]
    assert crown["growths"] == 1 and crown["decider"] == 1 and 21 in crown["takes"]
    assert 22 not in crown["spaces"]                                  # protected: out of reach
    # every seat sees the same threats (public information, R21)
    assert state_json(s.state, 1, s.decisions)["threats"] == data["threats"]


def test_layout_has_seat_colours_and_the_terms_with_their_rules():
    fixed = layout()
    assert len(fixed["seats"]) == 6 and len(set(fixed["seats"])) == 6
    assert not set(fixed["seats"]) & {c["fill"] for c in fixed["companies"]}
    for term in ("tokens", "column", "next", "growth", "top", "bottom"):
        assert fixed["terms"][term]["rules"].startswith("R") and fixed["terms"][term]["text"]
