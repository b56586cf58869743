"""`ekonos play`: whole games through the real command with scripted input, the input language
(numbers, notation, short forms, commands), undo, save/load, autosave and resume, bad flags."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.commands.play import TerminalGame
from cli.grammar import Command, every_decision, interpret, legal_list
from cli.session import GameSession
from ekonos import State
from ekonos.errors import MoveError
from ekonos.moves import MoveKind
from ekonos.rules import Step
from helpers import position


# ---------------------------------------------------------------------------------------------
# helpers

def console() -> Console:
    return Console(width=120, record=True, force_terminal=False, color_system=None)


class Script:
    """An input function: answers from a list, then from `then(state)` (or EOF)."""

    def __init__(self, answers=(), then=None, session=None):
        self.answers = list(answers)
        self.then = then
        self.session = session
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        if self.answers:
            a = self.answers.pop(0)
            if isinstance(a, BaseException):
                raise a
            return a
        if self.then is None:
            raise EOFError
        return self.then(self.session.state)


def first_legal(state: State) -> str:
    return "1"


def random_text(seed: int):
    """A human who answers with a random legal decision, as canonical text or by its number
    (when it has one); Enter once the game is over (the review offer)."""
    rng = random.Random(seed)

    def answer(state: State) -> str:
        if state.is_over():
            return ""
        numbered = legal_list(state)
        options = every_decision(state)
        move = options[rng.randrange(len(options))]
        if move in numbered and rng.random() < 0.5:
            return str(numbered.index(move) + 1)
        return str(move).upper()
    return answer


def session(start: State, human: int, answers=(), then=None, level=1, **kw) -> TerminalGame:
    script = Script(answers, then)
    s = TerminalGame(GameSession(start, human, level, ai_seed=99, **kw), console=console(),
                     input_fn=script)
    script.session = s
    return s


def state_at(step: str, players: int = 3, seat: int = 0) -> State:
    """A full-information position from a seeded random game where `seat` decides `step`."""
    for seed in range(500):
        rng = random.Random(seed)
        st = State.new(players, seed=seed)
        while not st.is_over():
            if st.step is Step.from_text(step) and st.to_move == seat:
                return st
            st.push_unchecked(rng.choice(st.legal_actions()))
    raise AssertionError(f"no {step} position found")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("EKONOS_DATA_DIR", str(d))
    return d


def run_cli(args, input_text=""):
    from cli.main import main
    return CliRunner().invoke(main, ["play", *args], input=input_text, catch_exceptions=False)


# ---------------------------------------------------------------------------------------------
# whole games through the real command

@pytest.mark.parametrize("ai,seed", [(1, 3), (3, 11)])
def test_full_game_through_the_command(ai, seed, data_dir):
    players = ai + 1
    result = run_cli(["--ai", str(ai), "--level", "1", "--seed", str(seed), "--name", "Ada"],
                     "1\n" * 2000)
    out = result.output
    assert result.exit_code == 0, out
    assert "Traceback" not in out
    assert "Final scores" in out and ("win" in out)
    assert out.count("Ada ›") >= 6 * (6 if players == 2 else 3) * 2 // players
    record = json.loads((data_dir / "autosave.json").read_text())
    assert record["step"] == "over"
    assert record["play"]["human"] == 0 and record["play"]["level"] == 1
    games = list((data_dir / "games").glob("*.json"))
    assert len(games) == 1 and str(games[0]) in out.replace("\n", "")
    st = State.from_dict(record)
    assert st.is_over() and len(st.names) == players
    # the record replays to the final position
    start = State.from_dict(record["play"]["start"])
    for t in record["play"]["moves"]:
        start.push_text(t)
    assert start.to_dict() == st.to_dict()


def test_full_four_player_game_with_a_varied_human():
    s = TerminalGame.new_game(ai=3, level=1, seed=5, seat=2, console=console(),
                              input_fn=None)
    script = Script(["help", "list", "log", "show", "", "nonsense"], random_text(1), s)
    s.input_fn = script
    assert s.run() == 0
    assert s.state.is_over()
    text = s.console.export_text()
    assert "Final scores" in text
    human_moves = [d.move for d in s.session.decisions if d.seat == 2]
    assert len(human_moves) >= 18          # 3 rounds x 6 cards, each a card decision at least


# ---------------------------------------------------------------------------------------------
# the input language

def card_state() -> State:
    st = state_at("card")
    return st


def test_numbers_pick_from_the_list():
    st = card_state()
    options = legal_list(st)
    assert interpret("1", st) == options[0]
    assert interpret(f"#{len(options)}", st) == options[-1]
    with pytest.raises(MoveError, match="no decision"):
        interpret(str(len(options) + 1), st)
    with pytest.raises(MoveError, match="no decision"):
        interpret("0", st)


def test_card_step_numbers_only_the_growths():
    """A place or a protect is typed with its space; only the growths carry a number, in the
    order of the hand (card by card, each card's bottom in order)."""
    st = card_state()
    numbered = legal_list(st)
    assert numbered and all(m.kind is MoveKind.GROW for m in numbered)
    grows = [m for m in st.legal_moves if m.kind is MoveKind.GROW]
    assert sorted(numbered, key=lambda m: m.action) == sorted(grows, key=lambda m: m.action)
    assert [m.card for m in numbered] == sorted(m.card for m in numbered)
    with pytest.raises(MoveError, match="typed with their space"):
        interpret(str(len(numbered) + 1), st)


def test_card_step_list_is_grouped_by_card_grow_protect_place():
    st = card_state()
    moves = every_decision(st)
    cards = [m.card for m in moves]
    assert cards == sorted(cards)
    first_card = [m for m in moves if m.card == cards[0]]
    kinds = [m.kind for m in first_card]
    order = [MoveKind.GROW, MoveKind.PROTECT, MoveKind.PLACE]
    assert kinds == sorted(kinds, key=order.index)


def test_short_forms_at_the_card_step():
    st = card_state()
    hand = st.hand(st.to_move)
    from ekonos.rules import COMPANIES, DECK
    card = hand[-1]
    pos = len(hand)
    bottom = COMPANIES[DECK[card - 1].bottom[0]]
    want = st.parse_move(f"play {card} grow {bottom}")
    assert interpret(f"play {card} grow {bottom}", st) == want
    assert interpret(f"PLAY {card} G {bottom[:3]}", st) == want
    assert interpret(f"#{pos} g {bottom.lower()}", st) == want
    assert interpret(f"{card} gr {bottom}", st) == want
    if pos not in hand:          # a bare number is a card, never a position: refused
        with pytest.raises(MoveError, match=rf"card {pos} is not in your hand \(hand: "):
            interpret(f"{pos} grow {bottom}", st)
    # a place on an empty space with the card first
    empty = [sp for sp in range(1, 37) if str(sp) not in st.to_dict()["board"]][0]
    assert interpret(f"#{pos} p {empty}", st) == st.parse_move(f"play {card} place {empty}")
    # card left out: only when one card can
    growers = [c for c in hand if COMPANIES.index(bottom) in DECK[c - 1].bottom]
    if len(growers) == 1:
        assert interpret(f"g {bottom}", st) == want
    else:
        with pytest.raises(MoveError, match="more than one card"):
            interpret(f"g {bottom}", st)


def test_a_card_number_is_never_read_as_a_position_in_the_hand():
    """`3 p 5` with no card 3 in the hand is refused with the hand shown, never the hand's 3rd
    card played; `#3` is the explicit way to name the 3rd card."""
    st = State.from_dict(position(2, hands={0: [3, 10, 20, 25, 30, 35]}))
    assert str(interpret("3 grow panda", st)) == "play 3 grow Panda"     # card 3
    assert str(interpret("play 3 g pan", st)) == "play 3 grow Panda"
    assert str(interpret("#3 g sun", st)) == "play 20 grow Sunset"       # the 3rd card
    with pytest.raises(MoveError, match=r"card 2 is not in your hand \(hand: 3, 10, 20, 25, "
                                        r"30, 35\)"):
        interpret("2 grow crown", st)                                 # not the 2nd card (10)
    with pytest.raises(MoveError, match=r"card 7 is not in your hand"):
        interpret("7 p 5", st)
    with pytest.raises(MoveError, match=r"there is no card 40"):
        interpret("40 p 5", st)
    assert str(interpret("25 g sun", st)) == "play 25 grow Sunset"


def test_wrong_input_explains():
    st = card_state()
    hand = st.hand(st.to_move)
    missing = next(c for c in range(7, 37) if c not in hand)
    for text, reason in [("play 37 place 1", "card 37 does not exist"),
                         (f"play {missing} place 1", "not in"),
                         ("buy Crown", "card step"),
                         ("flibber", "unknown move"),
                         (f"#{len(hand) + 1} g crown", "#1 to"),
                         ("#1 jump 3", "place (p), protect (pr) or grow (g)"),
                         ("#1 place 40", "space 40 does not exist"),
                         ("g zzz", "not a company")]:
        with pytest.raises(MoveError) as e:
            interpret(text, st)
        assert reason in e.value.reason, (text, e.value.reason)


def test_short_forms_at_the_other_steps():
    st = state_at("expand-choice")
    assert str(interpret("e", st)) == "expand"
    assert str(interpret("Y", st)) == "expand"
    assert str(interpret("w", st)) == "wait"
    assert str(interpret("no", st)) == "wait"
    st = state_at("expand")
    assert str(interpret("s", st)) == "stop"
    place = next(m for m in st.legal_moves if m.kind is MoveKind.PLACE)
    assert interpret(f"p {place.space}", st) == place
    st = state_at("sell")
    owned = next(m for m in st.legal_moves if m.kind is MoveKind.SELL)
    company = str(owned.company)
    assert interpret(company[:3], st) == owned
    assert interpret("s " + company, st) == owned
    assert str(interpret("-", st)) == "pass"
    st = state_at("buy")
    buy = next(m for m in st.legal_moves if m.kind is MoveKind.BUY)
    assert interpret("b " + str(buy.company)[:4], st) == buy
    assert interpret(str(buy.company).lower(), st) == buy
    assert str(interpret("n", st)) == "pass"
    st = state_at("successor")
    cand = next(iter(st.legal_moves))
    q = cand.seat
    assert interpret(st.names[q].lower(), st) == cand
    assert interpret(f"successor {q}", st) == cand


def test_commands_are_recognised():
    st = card_state()
    for text, name in [("help", "help"), ("?", "help"), ("hint", "hint"), ("undo", "undo"),
                       ("save my.json", "save"), ("show", "show"), ("log all", "log"),
                       ("quit", "quit"), ("q", "quit"), ("list", "list")]:
        got = interpret(text, st)
        assert isinstance(got, Command) and got.name == name
    assert interpret("save my.json", st).arg == "my.json"


@pytest.mark.parametrize("step", ["card", "expand-choice", "expand", "sell", "buy", "successor"])
def test_bad_input_at_every_kind_of_prompt_asks_again(step):
    st = state_at(step)
    seat = st.to_move
    bad = ["", "   ", "0", "999", "xyzzy", "play 1 grow", "sell Nowhere", "successor 9",
           "place 99", "#9 g crown", "buy"]
    good = str(legal_list(st)[-1])
    s = session(st, seat, bad + [good, "quit"])
    s.run()
    text = s.console.export_text()
    assert text.count("✗") >= len(bad) - 2        # the blank lines only remind
    made = s.session.decisions
    assert made and made[0].move == st.parse_move(good) and made[0].seat == seat
    assert "Traceback" not in text


# ---------------------------------------------------------------------------------------------
# commands in the game

def test_undo_returns_to_the_previous_decision_and_replays_identically():
    start = State.new(3, seed=21, names=["You", "Bruno", "Chiara"])
    human = start.to_move
    s = session(start, human, ["1", "1", "1", "undo"], level=2)
    s.run()
    # after undo: the position where the human made the last decision
    mine = [i for i, d in enumerate(s.session.decisions) if d.seat == human]
    assert s.state.to_move == human
    first_run = s.console.export_text()
    assert "Undone:" in first_run
    # replaying the same answers gives the same AI decisions
    s2 = session(start, human, ["1", "1", "1"], level=2)
    s2.run()
    s3 = session(start, human, ["1", "1", "1", "undo", "1"], level=2)
    s3.run()
    assert [d.move for d in s3.session.decisions] == [d.move for d in s2.session.decisions]
    assert len(mine) >= 1


def test_rules_at_the_prompt():
    st = state_at("card")
    s = session(st, st.to_move, ["rules", "quit"])
    s.run()
    assert "Ekonos in one screen" in s.console.export_text()


def test_undo_with_nothing_to_undo():
    st = state_at("card")
    s = session(st, st.to_move, ["undo", "quit"])
    s.run()
    assert "nothing to undo" in s.console.export_text()


def test_hint_shows_three_decisions():
    st = state_at("card")
    s = session(st, st.to_move, ["hint", "quit"], level=1)
    s.run()
    text = s.console.export_text()
    assert "Hint" in text and "win share" in text and "visits" in text
    rows = [line for line in text.splitlines() if re.match(r"\s*h[123] +play ", line)]
    assert len(rows) == 3 and all("%" in line for line in rows)
    wins = [int(re.search(r"(\d+)%", line).group(1)) for line in rows]
    assert wins == sorted(wins, reverse=True)


def test_a_hint_that_cannot_tell_its_rows_apart_says_so_under_the_table():
    st = State.new(3, seed=3)                     # round 1 of 3 players: no one can call it
    s = session(st, 0, ["hint", "quit"], level=3)
    s.run()
    text = " ".join(s.console.export_text().split())
    assert "h3 play" in text and "cannot tell them apart" in text


@pytest.mark.parametrize("width, continuation", [(50, False), (100, True)])
def test_the_hint_table_keeps_each_decision_on_one_line(width, continuation):
    st = state_at("card")
    s = session(st, st.to_move, ["hint", "quit"], level=1)
    s.console = Console(width=width, record=True, force_terminal=False, color_system=None)
    s.run()
    text = s.console.export_text()
    rows = re.findall(r"^\s*h[123] +(play \d+ \w+(?: \w+)?)\s", text, re.M)
    assert len(rows) == 3 and set(rows) <= set(st.legal_moves.texts())   # each one whole
    assert ("visits" in text) is continuation


def test_a_hint_row_is_played_by_its_label():
    st = state_at("card")
    s = session(st, st.to_move, ["hint", "h2", "quit"], level=1)
    s.run()
    row = re.search(r"^\s*h2 +(play \d+ \w+ \w+)", s.console.export_text(), re.M).group(1)
    assert str(s.session.decisions[0].move) == row


def test_save_and_load_mid_expansion(tmp_path):
    st = state_at("expand", players=3, seat=0)
    path = tmp_path / "mid.json"
    s = session(st, 0, [f"save {path}", "quit"])
    s.run()
    assert f"Saved to {path}" in s.console.export_text().replace("\n", "")
    loaded = TerminalGame.load(path, console=console(), input_fn=Script(["quit"]))
    assert loaded.state.to_dict() == st.to_dict()
    assert loaded.state.step is Step.EXPAND and loaded.session.human == 0
    # the two continue identically
    a = session(st, 0, then=first_legal)
    a.run()
    b = TerminalGame.load(path, console=console(), input_fn=None)
    script = Script(then=first_legal, session=b)
    b.input_fn = script
    assert b.session.ai_seed == a.session.ai_seed
    b.run()
    assert b.state.to_dict() == a.state.to_dict()


def test_save_to_a_bad_place_keeps_playing(tmp_path):
    st = state_at("card")
    (tmp_path / "afile").write_text("x")
    s = session(st, st.to_move, ["save", f"save {tmp_path}/afile/game.json", "save a\0b", "1",
                                 "quit"])
    s.run()
    text = s.console.export_text()
    assert "save needs a file name" in text and text.count("could not save") == 2
    assert s.session.decisions             # the game went on


def test_save_asks_before_replacing_a_file_and_the_default_is_no(tmp_path):
    st = state_at("card")
    target = tmp_path / "mine.json"
    target.write_text("precious")
    for answer in ("n", "", EOFError()):
        s = session(st, st.to_move, [f"save {target}", answer, "quit"])
        s.run()
        assert "Not saved." in s.console.export_text()
        assert target.read_text() == "precious"
    s = session(st, st.to_move, [f"save {target}", "y", "quit"])
    s.run()
    assert f"Saved to {target}" in s.console.export_text().replace("\n", "")
    assert State.from_dict(json.loads(target.read_text())) == st


def test_save_creates_no_folder_and_says_what_is_wrong(tmp_path):
    st = state_at("card")
    (tmp_path / "a.json").write_text("{}")
    s = session(st, st.to_move, [f"save {tmp_path}/no/such/x.json",
                                 f"save {tmp_path}/a.json/b.json", "quit"])
    s.run()
    text = s.console.export_text().replace("\n", "")
    assert f"there is no folder {tmp_path}/no" in text and not (tmp_path / "no").exists()
    assert f"{tmp_path}/a.json is not a folder" in text and "File exists" not in text
    assert (tmp_path / "a.json").read_text() == "{}"


def test_an_autosave_folder_that_cannot_be_written(tmp_path, monkeypatch):
    """Said when the game starts, with the path; at `quit` the person is asked for a file."""
    (tmp_path / "afile").write_text("x")
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path / "afile" / "data"))
    out = tmp_path / "kept.json"
    r = run_cli(["--ai", "1", "--level", "1", "--seed", "2"], f"1\nquit\n{out}\n")
    text = r.output.replace("\n", "")
    assert r.exit_code == 0, r.output
    assert "Autosave is off" in text and f"{tmp_path}/afile" in text
    assert "Save it to" in text and f"Saved to {out}" in text
    saved = json.loads(out.read_text())
    assert saved["play"]["moves"] and State.from_dict(saved).to_move == 0
    r = run_cli(["--ai", "1", "--level", "1", "--seed", "2"], "1\nquit\n\n")
    assert r.exit_code == 0 and "Game not saved." in r.output
    r = run_cli(["--ai", "1", "--level", "1", "--seed", "2"], "1\n")          # input ends
    assert r.exit_code == 0 and "The game is not saved" in r.output.replace("\n", " ")
    assert "Game saved in" not in r.output


def test_log_lists_the_decisions():
    st = state_at("card")
    s = session(st, st.to_move, ["1", "1", "log", "quit"])
    s.run()
    assert "decision" in s.console.export_text()


# ---------------------------------------------------------------------------------------------
# never lose a game

def test_autosave_then_resume_after_an_interrupted_run(data_dir):
    answers = "1\n" * 12
    r1 = run_cli(["--ai", "2", "--level", "1", "--seed", "8"], answers)   # input ends: EOF
    assert r1.exit_code == 0, r1.output
    auto = data_dir / "autosave.json"
    assert auto.exists() and "Resume with:" in r1.output
    assert f"play --load {auto}" in r1.output
    saved = json.loads(auto.read_text())
    assert saved["step"] != "over"
    r2 = run_cli(["--load", str(auto)], "1\n" * 2000)
    assert r2.exit_code == 0, r2.output
    assert "Final scores" in r2.output
    # exactly the game an uninterrupted run plays
    resumed = json.loads(auto.read_text())
    r3 = run_cli(["--ai", "2", "--level", "1", "--seed", "8"], "1\n" * 2000)
    assert r3.exit_code == 0
    whole = json.loads(auto.read_text())
    assert {k: v for k, v in resumed.items() if k != "play"} == \
        {k: v for k, v in whole.items() if k != "play"}
    assert resumed["play"]["moves"] == whole["play"]["moves"]


def test_the_printed_resume_command_runs_as_printed(data_dir):
    """`quit` prints the command that resumes the game; pasted into a shell it runs (here:
    with the Python running the tests, `-m cli.main`, from another folder)."""
    r = run_cli(["--ai", "1", "--level", "1", "--seed", "4"], "1\nquit\n")
    lines = r.output.splitlines()
    command = lines[lines.index(next(line for line in lines if "Resume with:" in line)) + 1]
    assert command.endswith(f"play --load {data_dir / 'autosave.json'}")
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root), EKONOS_DATA_DIR=str(data_dir))
    done = subprocess.run(command, shell=True, input="quit\n", capture_output=True, text=True,
                          env=env, cwd=data_dir.parent, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Game saved in" in done.stdout and "Traceback" not in done.stderr


def test_the_resume_command_names_the_real_ekonos(tmp_path, monkeypatch):
    from cli.commands.play import ekonos_command, resume_command
    exe = tmp_path / "venv" / "bin" / "ekonos"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(exe), "play"])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")                   # not on the PATH
    assert ekonos_command() == str(exe)
    monkeypatch.setenv("PATH", f"{exe.parent}:/usr/bin:/bin")     # activated
    assert ekonos_command() == "ekonos"
    monkeypatch.setattr(sys, "argv", ["ekonos", "play"])
    assert ekonos_command() == "ekonos"
    monkeypatch.setattr(sys, "argv", ["/somewhere/cli/main.py"])  # python -m cli.main
    assert ekonos_command().endswith(" -m cli.main")
    assert resume_command(tmp_path / "a b.json").endswith(f"play --load '{tmp_path}/a b.json'")


def test_ctrl_c_offers_to_save_and_quit(data_dir):
    st = state_at("card")
    auto = data_dir / "auto.json"
    s = session(st, st.to_move, ["1", KeyboardInterrupt(), "n", "1", KeyboardInterrupt(), "y"],
                autosave=auto)
    assert s.run() == 0
    text = s.console.export_text()
    assert "Interrupted" in text and f"Game saved in {auto}" in text.replace("\n", "")
    saved = json.loads(auto.read_text())
    assert len(saved["play"]["moves"]) == len(s.session.decisions) >= 2


def test_ctrl_c_while_the_ai_thinks(data_dir, monkeypatch):
    st = state_at("card")
    auto = data_dir / "auto.json"
    s = session(st, st.to_move, ["1", "y"], autosave=auto)
    calls = {"n": 0}
    real = s.session.bots[next(iter(s.session.bots))].__class__.choose

    def choose(self, view, seed=None):
        calls["n"] += 1
        if calls["n"] == 1:
            raise KeyboardInterrupt
        return real(self, view, seed)
    for bot in s.session.bots.values():
        monkeypatch.setattr(type(bot), "choose", choose)
    assert s.run() == 0
    assert "Game saved in" in s.console.export_text()
    assert json.loads(auto.read_text())["play"]["moves"]


# ---------------------------------------------------------------------------------------------
# bad flags and bad files: one line, exit 2

@pytest.mark.parametrize("args,message", [
    (["--ai", "0"], "--ai"), (["--ai", "6"], "--ai"), (["--level", "9"], "--level"),
    (["--ai", "1", "--seat", "2"], "--seat"), (["--seat", "-1"], "--seat"),
    (["--name", "  "], "--name"), (["--variant", "house"], "variant"),
    (["--load", "/nonexistent/x.json"], "no such file"),
    (["--load", "/nonexistent/x.json", "--ai", "2"], "cannot be used with --load"),
    (["--seed", "-4"], "seed"),
])
def test_bad_flags_one_line_exit_2(args, message):
    r = run_cli(args)
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert message in r.output


def test_bad_load_files(tmp_path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    r = run_cli(["--load", str(bad_json)])
    assert r.exit_code == 2 and "not valid JSON" in r.output
    bad_pos = tmp_path / "pos.json"
    d = State.new(3, seed=1).to_dict()
    d["round"] = 9
    bad_pos.write_text(json.dumps(d))
    r = run_cli(["--load", str(bad_pos)])
    assert r.exit_code == 2 and "round" in r.output
    bad_play = tmp_path / "play.json"
    d = State.new(3, seed=1).to_dict()
    d["play"] = {"human": 7, "level": 1, "ai_seed": 1}
    bad_play.write_text(json.dumps(d))
    r = run_cli(["--load", str(bad_play)])
    assert r.exit_code == 2 and "play.human" in r.output


def test_load_a_plain_position_with_hidden_hands(tmp_path):
    d = State.new(3, seed=4).to_dict()
    for p in d["players"][1:]:
        p["hand"] = None
    path = tmp_path / "table.json"
    path.write_text(json.dumps(d))
    s = TerminalGame.load(path, console=console(), input_fn=Script(["quit"]))
    assert s.state.hand(0) == d["players"][0]["hand"]
    assert all(s.state.hand_known(q) for q in range(3))
    assert "dealt at random" in s.console.export_text()


def test_the_ai_sees_only_its_view():
    """R21: each bot receives its seat's view (other hands unknown), never the game state."""
    st = state_at("card")
    s = session(st, st.to_move, ["1", "1", "1", "quit"])
    seen = []
    for seat, bot in s.session.bots.items():
        real = bot.choose

        def spy(view, seed=None, _real=real, _seat=seat):
            seen.append((_seat, view.to_move, [view.hand_known(q) for q in range(view.nplayers)]))
            assert view is not s.state
            return _real(view, seed)
        bot.choose = spy
    s.run()
    assert seen
    for seat, to_move, known in seen:
        assert to_move == seat and known == [q == seat for q in range(3)]


def test_a_new_game_never_overwrites_an_unfinished_one(data_dir):
    r1 = run_cli(["--ai", "1", "--level", "1", "--seed", "2"], "1\n" * 5)
    assert r1.exit_code == 0
    first = json.loads((data_dir / "autosave.json").read_text())
    r2 = run_cli(["--ai", "2", "--level", "1", "--seed", "3"], "1\n" * 5)
    assert r2.exit_code == 0
    kept = list(data_dir.glob("unfinished-*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == first
    assert str(kept[0]) in r2.output.replace("\n", "")
    # resuming the autosave itself does not move it
    r3 = run_cli(["--load", str(data_dir / "autosave.json")], "1\n" * 3)
    assert r3.exit_code == 0 and len(list(data_dir.glob("unfinished-*.json"))) == 1


def test_a_record_whose_history_does_not_match_still_loads(tmp_path):
    st = state_at("buy")
    s = session(st, st.to_move, ["1", f"save {tmp_path / 'g.json'}", "quit"])
    s.run()
    d = json.loads((tmp_path / "g.json").read_text())
    d["play"]["moves"] = ["play 1 place 1"]          # edited by hand: no longer leads here
    (tmp_path / "g.json").write_text(json.dumps(d))
    loaded = TerminalGame.load(tmp_path / "g.json", console=console(), input_fn=Script(["quit"]))
    assert "does not lead to this position" in loaded.console.export_text()
    assert loaded.state.to_dict() == State.from_dict(d).to_dict() and not loaded.session.decisions
    assert loaded.session.ply0 == d["play"]["ply0"] + 1


def test_odd_numerals_at_the_prompt_are_refused_not_guessed():
    """`１４`, `١` or `1_4` typed at the prompt ask again; they are never read as 14 or 1."""
    from cli.grammar import interpret
    st = State.new(2, seed=3)
    card = st.hand(st.to_move)[0]
    for text in (f"{card} p ١", f"{card} p +1", "１", "#１ g crown", f"play {card} place 1_0",
                 "9" * 5000):
        with pytest.raises(MoveError):
            interpret(text, st)


def test_the_level_help_names_each_budget_by_player_count():
    """`play --help` describes each level from its spec: a level whose budget is set by player
    count (`iterfor`) says it, so the levels' help cannot drift from what they search."""
    from cli.main import main
    from search.analysis import level_params
    from search.bots import LEVELS, budgets_by_count

    text = " ".join(CliRunner().invoke(main, ["play", "--help"]).output.split())
    for level in LEVELS:
        params = level_params(level)
        for players, n in budgets_by_count(params.get("iterfor", "")).items():
            assert f"{n // 1000}k with" in text or f"{n} with" in text
            assert f"{players}" in text.split(f"{level} ISMCTS")[1].split(")")[0]
    assert any(budgets_by_count(level_params(k).get("iterfor", "")) for k in LEVELS)
