"""The `cheat` bot, which sees every hand, to measure what inference about the
hidden hands could be worth at most.  It is for measurement only: the arena shows it the whole
state, no other bot ever gets more than its seat's view, and nothing that plays or advises for a
person can seat it."""
import random

import pytest

from ekonos import State
from ekonos.rules import Step
from search.lab import arena
from search.bots import BOTS, LEVELS, CheatBot, ISMCTSBot, make_bot


def test_only_the_cheat_bot_sees_all():
    assert [name for name, cls in BOTS.items() if cls.sees_all] == ["cheat"]
    assert not any(BOTS[s.split(":")[0]].sees_all for s in LEVELS.values())


def test_the_arena_shows_the_cheat_every_hand_and_the_others_their_view(monkeypatch):
    seen = {}

    def spy(cls):
        original = cls.choose

        def choose(self, view, seed=None):
            hands = [view.hand_known(q) for q in range(view.nplayers)]
            seen.setdefault(cls.name, []).append(all(hands) if cls.sees_all
                                                 else sum(hands) <= 1)
            return original(self, view, seed)
        monkeypatch.setattr(cls, "choose", choose)
    spy(CheatBot)
    spy(BOTS["random"])
    arena.play_game(["cheat:iterations=50", "random"], 2, seed=3, game=0)
    assert seen["cheat"] and all(seen["cheat"])
    assert seen["random"] and all(seen["random"])


def test_a_searcher_that_sees_all_refuses_a_view():
    st = State.new(3, seed=1)
    s = CheatBot().searcher()
    with pytest.raises(ValueError, match="every hand"):
        s.run(st.view(0), 0, iterations=10, seed=1)


def test_the_cheat_uses_the_hands_it_sees():
    """Two positions that differ only in an opponent's hand: the honest search cannot tell them
    apart (same choices), the cheat can (it searched different games)."""
    st = State.new(2, seed=5)
    rng = random.Random(5)
    while st.step is not Step.CARD or st.to_move != 0 or st.round < 2:
        st.push(rng.choice(st.legal_actions()))
    other = st.copy()
    mine, theirs = set(st.hand(0)), st.hand(1)
    spare = [c for c in range(1, 37) if c not in mine and c not in theirs
             and c not in st.discard][:len(theirs)]
    other.set_hand(1, spare)
    honest = ISMCTSBot(iterations=2000).searcher()
    cheat = CheatBot(iterations=2000).searcher()
    runs = {}
    for name, s, pos in [("h1", honest, st.view(0)), ("h2", honest, other.view(0)),
                         ("c1", cheat, st), ("c2", cheat, other)]:
        s.run(pos, 0, iterations=2000, seed=9)
        runs[name] = s.root_moves()
    assert runs["h1"] == runs["h2"]
    assert runs["c1"] != runs["c2"]


def test_play_and_hint_never_take_a_spec():
    """The people-facing commands choose bots by level only, so the cheat cannot be seated."""
    from cli.commands import hint, play, serve
    for command in (play.play, hint.hint, serve.serve):
        names = {p.name for p in command.params}
        assert not names & {"bot", "spec"}, command.name
