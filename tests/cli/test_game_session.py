"""`cli.session.GameSession` with no terminal: whole games with a scripted person and AI at
level 1, undo/redo on the engine's stack, autosave and resume, events with reason lines, the AI
deciding from its view only, the record's format, and the save-file refusals.
"""
from __future__ import annotations

import json
import shutil
import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from cli import storage
from cli.events import AutosaveFailed, DecisionMade, GameOver, Redone, RoundStarted, Undone
from cli.grammar import legal_list
from cli.narration import describe, plural
from cli.record import PLAY_FORMAT
from cli.session import (GameSession, NothingToRedo, NothingToUndo, NotYourTurn, SessionError,
                         StaleTurn)
from ekonos import State
from ekonos.errors import IllegalMoveError, InvalidMoveError
from ekonos.moves import NUM_ACTIONS, Move, MoveKind
from ekonos.rules import PLAYER_TABLE, Step


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("EKONOS_DATA_DIR", str(d))
    return d


def person(seed: int):
    """A scripted person: a random legal decision, as a Move, as its list number or as text."""
    rng = random.Random(seed)

    def decide(session: GameSession):
        options = legal_list(session.state)
        k = rng.randrange(len(options))
        how = rng.randrange(3)
        return options[k] if how == 0 else str(k + 1) if how == 1 else str(options[k]).upper()
    return decide


def play_until(session: GameSession, decide, stop=lambda s: False) -> None:
    while not session.state.is_over() and not stop(session):
        if session.human_to_move():
            session.decide(decide(session))
        else:
            session.play_ai()


def replayed(record: dict) -> State:
    st = State.from_dict(record["play"]["start"])
    for text in record["play"]["moves"]:
        st.push_text(text)
    return st


def position_where(step: Step, seat: int, players: int = 3) -> State:
    """A full-information position of a seeded random game where `seat` decides at `step`."""
    for seed in range(500):
        rng = random.Random(seed)
        st = State.new(players, seed=seed)
        while not st.is_over():
            if st.step is step and st.to_move == seat:
                return st
            st.push_unchecked(rng.choice(st.legal_actions()))
    raise AssertionError(f"no {step} position found")


# ---------------------------------------------------------------------------------------------
# whole games

@pytest.mark.parametrize("ai,seat,seed", [(1, 1, 7), (2, 0, 3)])
def test_a_whole_game_with_its_events(ai, seat, seed, tmp_path):
    s = GameSession.new(ai=ai, level=1, seed=seed, seat=seat, name="Ada",
                        autosave=tmp_path / "auto.json", record_dir=tmp_path / "games")
    events = []
    s.subscribe(events.append)
    play_until(s, person(seed))
    st = s.state
    assert st.is_over()
    made = [e for e in events if isinstance(e, DecisionMade)]
    assert [e.decision for e in made] == list(s.decisions)
    assert [m.action for m in (d.move for d in s.decisions)] == st.moves   # the engine's stack
    assert all(e.human == (e.decision.seat == seat) for e in made)
    assert all(e.decision.reason for e in made)
    assert [d.ply for d in s.decisions] == list(range(1, len(s.decisions) + 1))
    cards = [d for d in s.decisions if d.seat == seat and d.move.step is Step.CARD]
    assert len(cards) == st.rounds * PLAYER_TABLE[ai + 1].cards           # R5: every card
    rounds = [e.round for e in events if isinstance(e, RoundStarted)]
    assert rounds == list(range(2, st.rounds + 1))
    over = [e for e in events if isinstance(e, GameOver)]
    assert len(over) == 1 and over[0] is events[-1] and s.over == over[0]
    assert list(over[0].winners) == st.winners() and list(over[0].scores) == st.scores()
    # the record is in the games folder and in the autosave, and replays to the end
    games = list((tmp_path / "games").glob("*.json"))
    assert over[0].saved == (games[0], tmp_path / "auto.json") and len(games) == 1
    for path in over[0].saved:
        record = json.loads(path.read_text())
        assert record == s.record()
        assert replayed(record).to_dict() == st.to_dict()


def test_decisions_asked_of_the_wrong_party_or_not_legal():
    s = GameSession.new(ai=2, level=1, seed=11, seat=1)
    assert s.ai_to_move() and not s.human_to_move()
    with pytest.raises(NotYourTurn):
        s.decide("1")
    play_until(s, lambda _s: "1", stop=lambda x: x.human_to_move())
    assert s.human_to_move()
    with pytest.raises(NotYourTurn):
        s.ai_turn()
    before, count = s.state.to_dict(), len(s.decisions)
    with pytest.raises(InvalidMoveError, match="command"):
        s.decide("hint")
    illegal = next(Move.from_action(a) for a in range(NUM_ACTIONS) if not s.state.is_legal(a))
    with pytest.raises(IllegalMoveError):
        s.decide(illegal)
    with pytest.raises(InvalidMoveError):
        s.decide("flibber")
    assert s.state.to_dict() == before and len(s.decisions) == count
    events = s.decide("1")
    assert isinstance(events[0], DecisionMade) and events[0].human
    play_until(s, lambda _s: "1")
    with pytest.raises(SessionError, match="over"):
        s.decide("1")


@pytest.mark.parametrize("kwargs,setting", [
    (dict(ai=0), "ai"), (dict(ai=6), "ai"), (dict(ai=1, seat=2), "seat"), (dict(seat=-1), "seat"),
    (dict(name="  "), "name"), (dict(level=0), "level"), (dict(level=6), "level")])
def test_bad_settings_name_the_setting(kwargs, setting):
    with pytest.raises(SessionError) as e:
        GameSession.new(**kwargs)
    assert e.value.setting == setting


# ---------------------------------------------------------------------------------------------
# undo and redo

def test_undo_and_redo_use_the_engines_stack(monkeypatch):
    s = GameSession.new(ai=2, level=1, seed=21, seat=0)
    with pytest.raises(NothingToUndo):
        s.undo()
    decide = person(4)
    for _ in range(3):                        # three decisions of the person, with the AI's
        s.decide(decide(s))
        play_until(s, decide, stop=lambda x: x.human_to_move())
    mine = [i for i, d in enumerate(s.decisions) if d.seat == 0]
    at_last = s.decisions[mine[-1]]
    before_undo = (s.state.to_dict(), s.decisions, s.record())
    # undo pops exactly the decisions it takes back, and pushes nothing (no replay)
    calls = {"push": 0, "pop": 0}
    real_push, real_pop = State.push, State.pop

    def push(self, move):
        calls["push"] += 1
        return real_push(self, move)

    def pop(self):
        calls["pop"] += 1
        return real_pop(self)
    monkeypatch.setattr(State, "push", push)
    monkeypatch.setattr(State, "pop", pop)
    events = []
    s.subscribe(events.append)
    held = s.state                            # a position once read never changes
    held_dict = held.to_dict()
    taken = s.undo()
    assert held.to_dict() == held_dict and s.state is not held
    assert calls == {"push": 0, "pop": len(taken)}
    assert taken[0] == at_last and len(s.decisions) == mine[-1]
    assert s.human_to_move() and len(s.state.moves) == len(s.decisions)
    assert s.state.to_dict() == replayed(s.record()).to_dict()
    assert isinstance(events[-1], Undone) and events[-1].decisions == taken
    # redo restores the very same game
    calls.update(push=0, pop=0)
    again = s.redo()
    assert again == taken and calls == {"push": len(taken), "pop": 0}
    assert (s.state.to_dict(), s.decisions, s.record()) == before_undo
    assert isinstance(events[-1], Redone)
    with pytest.raises(NothingToRedo):
        s.redo()
    # a new decision after an undo forgets the redo line
    s.undo()
    s.decide(legal_list(s.state)[-1])
    with pytest.raises(NothingToRedo):
        s.redo()


def test_a_finished_game_is_never_undone_nor_recorded_twice(tmp_path):
    """Undo at the end used to reopen the game (and a redo wrote a second record of it)."""
    s = GameSession.new(ai=1, level=1, seed=5, seat=0, record_dir=tmp_path)
    play_until(s, person(3))
    assert s.state.is_over() and s.over is not None and not s.can_undo()
    end = (s.state.to_dict(), s.decisions, s.version)
    with pytest.raises(SessionError, match="game is over"):
        s.undo()
    assert (s.state.to_dict(), s.decisions, s.version) == end and s.over is not None
    assert len(list(tmp_path.glob("game-*.json"))) == 1


def test_undo_twice_goes_back_two_decisions_of_the_person():
    s = GameSession.new(ai=1, level=1, seed=5, seat=0)
    positions = []
    decide = person(2)
    for _ in range(3):
        positions.append(s.state.to_dict())
        s.decide(decide(s))
        play_until(s, decide, stop=lambda x: x.human_to_move())
    s.undo()
    assert s.state.to_dict() == positions[2]
    s.undo()
    assert s.state.to_dict() == positions[1]
    s.redo()
    s.redo()
    s.undo()
    assert s.state.to_dict() == positions[2]


# ---------------------------------------------------------------------------------------------
# autosave, resume, the record

def test_autosave_then_resume_gives_the_same_position_record_and_game(tmp_path):
    auto = tmp_path / "auto.json"
    s = GameSession.new(ai=2, level=1, seed=8, seat=2, autosave=auto)
    decide = person(6)
    play_until(s, decide, stop=lambda x: len(x.decisions) >= 25)
    saved = json.loads(auto.read_text())
    assert saved == s.record()                 # written after every decision
    resumed = GameSession.load(auto, autosave=auto)
    assert resumed.kept_unfinished is None     # its own file is not moved aside
    assert resumed.state == s.state and resumed.state.to_dict() == s.state.to_dict()
    assert resumed.record() == s.record()
    assert [(d.seat, d.move, d.round) for d in resumed.decisions] == \
        [(d.seat, d.move, d.round) for d in s.decisions]
    # both play on identically (same answers, same AI decisions)
    more = lambda x: len(x.decisions) >= 45                      # noqa: E731 (not over yet)
    play_until(s, lambda x: "1", stop=more)
    play_until(resumed, lambda x: "1", stop=more)
    assert resumed.record() == s.record() and not s.state.is_over()
    # and undo after resuming reaches back before the resume (a finished game is not undone)
    resumed.undo()
    assert len(resumed.decisions) < len(s.decisions)


def test_the_record_format_is_unchanged(tmp_path):
    """A record written in the format of earlier versions loads, and is written back the same."""
    start = State.new(3, seed=12, names=["You", "Anna", "Bruno"])
    st = start.copy()
    texts = []
    rng = random.Random(1)
    for _ in range(9):
        texts.append(str(st.push_text(rng.choice(st.legal_moves.texts()))))
    record = st.to_dict()
    record["play"] = {"version": 1, "human": 0, "level": 2, "ai_seed": 4242, "ply0": 3,
                      "start": start.to_dict(), "moves": texts}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record))
    s = GameSession.load(path)
    assert PLAY_FORMAT == 1
    assert s.record() == record
    assert list(s.record()["play"]) == ["version", "human", "level", "ai_seed", "ply0", "start",
                                        "moves"]
    assert (s.human, s.level, s.ai_seed, s.ply0) == (0, 2, 4242, 3)
    assert [d.ply for d in s.decisions] == list(range(4, 4 + len(texts)))


def test_a_game_saved_at_a_retired_level_goes_on_at_the_strongest(tmp_path):
    """Level 5 was retired (search/bots.py): a game saved at it still resumes, at the strongest
    level, and says so; a level that never was is refused."""
    from search.bots import LEVELS, RETIRED
    assert 5 in RETIRED and not set(RETIRED) & set(LEVELS)
    s = GameSession.new(ai=1, level=1, seed=4, autosave=tmp_path / "auto.json")
    record = s.record()
    record["play"]["level"] = 5
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record))
    resumed = GameSession.load(path)
    assert resumed.level == max(LEVELS) == 4
    assert any("level 5 was retired" in note and "level 4" in note for note in resumed.notes)
    assert resumed.state.to_dict() == s.state.to_dict()
    assert GameSession.load(path, level=2).level == 2          # --level still overrides
    record["play"]["level"] = max(*LEVELS, *RETIRED) + 1
    path.write_text(json.dumps(record))
    with pytest.raises(SessionError, match="play.level"):
        GameSession.load(path)


def test_an_unfinished_autosave_is_kept_aside(tmp_path):
    auto = tmp_path / "auto.json"
    first = GameSession.new(ai=1, level=1, seed=2, autosave=auto)
    play_until(first, lambda x: "1", stop=lambda x: len(x.decisions) >= 3)
    kept_text = auto.read_text()
    second = GameSession.new(ai=1, level=1, seed=3, autosave=auto)
    assert second.kept_unfinished is not None and second.kept_unfinished.read_text() == kept_text
    assert not auto.exists()                   # nothing written before the first decision


# ---------------------------------------------------------------------------------------------
# the AI: its view only, one decision at a time, off the lock

@pytest.mark.parametrize("step", [Step.CARD, Step.SELL, Step.BUY])
def test_the_ai_decides_the_same_whatever_the_hidden_hands(step):
    ai_seat = 1
    st = position_where(step, ai_seat)
    other = st.copy()
    other.determinize(ai_seat, 77)              # every hand seat 1 cannot see, dealt anew
    assert other.hand(ai_seat) == st.hand(ai_seat)
    assert [other.hand(q) for q in (0, 2)] != [st.hand(q) for q in (0, 2)]
    a = GameSession(st, human=0, level=1, ai_seed=31)
    b = GameSession(other, human=0, level=1, ai_seed=31)
    ta, tb = a.ai_turn(), b.ai_turn()
    assert ta.seat == ai_seat and not any(ta.view.hand_known(q) for q in (0, 2))
    assert ta.think() == tb.think()


def test_an_ai_decision_thought_in_a_thread_then_committed():
    s = GameSession.new(ai=2, level=1, seed=9, seat=2)
    events = []
    s.subscribe(events.append)
    turn = s.ai_turn()
    with ThreadPoolExecutor(max_workers=1) as pool:
        move = pool.submit(turn.think).result()
    s.commit(turn, move)
    assert events and events[0].decision.move == move and events[0].decision.seat == turn.seat
    with pytest.raises(StaleTurn):              # the position moved on: refused
        s.commit(turn, move)
    # a decision thought while another thread undoes is refused too
    play_until(s, lambda x: "1", stop=lambda x: x.can_undo() and x.ai_to_move())
    turn = s.ai_turn()
    worker = threading.Thread(target=s.undo)
    worker.start()
    worker.join()
    with pytest.raises(StaleTurn):
        s.commit(turn, turn.think())


def test_hint_gives_legal_decisions_of_the_person():
    s = GameSession.new(ai=1, level=1, seed=14, seat=0)
    result = s.hint(top=3)
    legal = s.state.legal_moves.texts()
    assert len(result["moves"]) == 3 and all(m["move"] in legal for m in result["moves"])


# ---------------------------------------------------------------------------------------------
# saving to a file the person names: never over a loaded file without a yes

def test_save_never_replaces_a_file_without_overwrite(tmp_path):
    s = GameSession.new(ai=1, level=1, seed=1)
    target = tmp_path / "mine.json"
    target.write_text("precious")
    with pytest.raises(storage.TargetExists) as e:
        s.save(target)
    assert e.value.path == target and target.read_text() == "precious"
    s.save(target, overwrite=True)
    assert json.loads(target.read_text()) == s.record()


def test_save_never_creates_folders(tmp_path):
    s = GameSession.new(ai=1, level=1, seed=1)
    with pytest.raises(storage.StorageError, match="there is no folder") as e:
        s.save(tmp_path / "no" / "such" / "x.json")
    assert str(tmp_path / "no") in str(e.value)
    assert not (tmp_path / "no").exists()


def test_save_says_which_part_is_not_a_folder(tmp_path):
    s = GameSession.new(ai=1, level=1, seed=1)
    (tmp_path / "a.json").write_text("{}")
    for target in (tmp_path / "a.json" / "b.json", tmp_path / "a.json" / "c" / "b.json"):
        with pytest.raises(storage.StorageError) as e:
            s.save(target)
        assert str(e.value) == f"{tmp_path / 'a.json'} is not a folder"
    assert (tmp_path / "a.json").read_text() == "{}"
    with pytest.raises(storage.StorageError, match="is a folder"):
        s.save(tmp_path)
    with pytest.raises(storage.StorageError, match="not a usable file name"):
        s.save(str(tmp_path / "a\0b.json"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_an_autosave_folder_that_cannot_be_written_is_reported(tmp_path):
    (tmp_path / "afile").write_text("x")
    auto = tmp_path / "afile" / "data" / "autosave.json"
    s = GameSession.new(ai=1, level=1, seed=3, autosave=auto)
    assert not s.autosave_ok and str(tmp_path / "afile") in s.autosave_error
    events = []
    s.subscribe(events.append)
    play_until(s, lambda x: "1", stop=lambda x: len(x.decisions) >= 3)   # the game goes on
    assert not s.autosave_ok and len(s.decisions) == 3
    assert len(events) >= 3 and (tmp_path / "afile").read_text() == "x"


# ---------------------------------------------------------------------------------------------
# words: grammatical for any name, including the default "You"

_WRONG = re.compile(r"\byou (has|holds|presides|becomes|decides|keeps|gains|loses)\b"
                    r"|\byou's\b|(?<![\d.])1 (coins|shares|cards|growth actions)\b", re.I)


@pytest.mark.parametrize("name,seed", [("You", 2), ("you", 6), ("Ada", 4)])
def test_reason_lines_are_grammatical_for_any_name(name, seed):
    s = GameSession.new(ai=2, level=1, seed=seed, name=name)
    play_until(s, person(seed))
    lines = [d.reason for d in s.decisions]
    assert not [line for line in lines if _WRONG.search(line)]
    assert any("you" in line.lower().split() or "your" in line.lower().split()
               for line in lines)                      # the person is addressed


def test_a_player_named_you_is_addressed_as_you_even_when_not_the_person():
    names = ["You", "Anna", "Bruno"]
    for seed in range(200):
        rng = random.Random(seed)
        st = State.new(3, seed=seed, names=names)
        while not st.is_over():
            buys = [m for m in st.legal_moves if m.kind is MoveKind.BUY]
            if st.to_move == 0 and buys:
                break
            st.push_unchecked(rng.choice(st.legal_actions()))
        else:
            continue
        move = buys[0]
        after = st.copy()
        after.push(move)
        held = st.shares(0, move.company) + 1
        line = describe(st, after, move, 0, you=None)
        assert f"you hold {held}" in line and "You holds" not in line
        return
    raise AssertionError("no buy of seat 0 found")


def test_counts_of_one_are_singular():
    assert plural(1, "coin") == "1 coin" and plural(0, "coin") == "0 coins"
    assert plural(12, "coin") == "12 coins"


def test_an_autosave_that_starts_failing_is_reported_once_then_recovers(tmp_path):
    folder = tmp_path / "d"
    s = GameSession.new(ai=1, level=1, seed=4, autosave=folder / "auto.json")
    events = []
    s.subscribe(events.append)
    play_until(s, lambda x: "1", stop=lambda x: len(x.decisions) >= 2)
    assert s.autosave_ok and not [e for e in events if isinstance(e, AutosaveFailed)]
    shutil.rmtree(folder)                    # the autosave and its lock file
    folder.write_text("in the way")
    play_until(s, lambda x: "1", stop=lambda x: len(x.decisions) >= 6)
    failed = [e for e in events if isinstance(e, AutosaveFailed)]
    assert len(failed) == 1 and failed[0].path == folder / "auto.json"
    assert str(folder) in failed[0].reason and not s.autosave_ok
    folder.unlink()
    s.autosave_now()
    assert s.autosave_ok and json.loads((folder / "auto.json").read_text()) == s.record()


# ---------------------------------------------------------------------------------------------
# hints by label

def test_hint_rows_are_best_first_by_win_share_and_playable_by_label():
    s = GameSession.new(ai=2, level=1, seed=21, seat=0)
    play_until(s, lambda x: "1", stop=lambda x: x.human_to_move())
    result = s.hint(top=3)
    rows = result["moves"]
    wins = [m["win"] for m in rows]
    assert wins == sorted(wins, reverse=True)
    assert [str(m) for m in s.hint_moves()] == [m["move"] for m in rows]
    for m in rows:                                   # each continuation names its players
        assert len(m["players"]) == len(m["line"])
        assert all(q is None or 0 <= q < 3 for q in m["players"])
    first = rows[0]["line"]
    if first:
        after = s.state.copy()
        after.push(after.parse_move(rows[0]["move"]))
        assert rows[0]["players"][0] == after.to_move
    before = len(s.decisions)
    s.decide("h1")
    assert str(s.decisions[before].move) == rows[0]["move"] and s.decisions[before].seat == 0


def test_a_hint_label_needs_a_hint_of_this_position():
    s = GameSession.new(ai=1, level=1, seed=22, seat=0)
    play_until(s, lambda x: "1", stop=lambda x: x.human_to_move())
    with pytest.raises(InvalidMoveError, match="type `hint` first"):
        s.decide("h1")
    s.hint(top=2)
    with pytest.raises(InvalidMoveError, match="h1 to h2"):
        s.decide("h3")
    s.decide(legal_list(s.state)[0])
    play_until(s, lambda x: "1", stop=lambda x: x.human_to_move())
    with pytest.raises(InvalidMoveError, match="type `hint` first"):
        s.decide("h1")                               # the old hint was for another position


def test_line_players_follow_the_turns():
    from cli.narration import line_players
    st = State.new(3, seed=5)
    texts, seats = [], []
    probe = st.copy()
    rng = random.Random(1)
    for _ in range(12):
        m = rng.choice(list(probe.legal_moves))
        texts.append(str(m))
        seats.append(probe.to_move)
        probe.push(m)
    assert line_players(st, texts) == seats
    # a line thought on another deal: its cards are swapped into the hands that play them
    other = st.copy()
    other.determinize(st.to_move, 7)
    assert line_players(other, texts) == seats
