"""Wording: the engine's reasons and the game's lines are grammatical for any name,
including the default "You"; skipped steps are said once; passes are named; AI lines carry no
empty passes; played cards show what they were; a sale that hands over a presidency warns."""
from __future__ import annotations

import random
import re

import pytest
from rich.console import Console
from rich.text import Text

from cli.narration import describe
from cli.panels import decision_label, log_table
from cli.events import Decision
from cli.render.board import header_text, played_text
from ekonos import State
from ekonos.moves import Move, MoveKind
from ekonos.rules import COMPANIES, DECK, Company, Step
from helpers import position


def text_of(renderable, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text()


# ---------------------------------------------------------------------------------------------
# the engine's reasons (ekonos/state.py `_word_reason`)

@pytest.mark.parametrize("name", ["You", "you"])
def test_reasons_address_a_player_called_you_as_you(name):
    st = State.from_dict(position(3, hands={0: [3, 10, 20, 25, 30, 35]}, coins=[1, 5, 5],
                                  names=[name, "Anna", "Bruno"]))
    missing = next(c for c in range(1, 37) if c not in st.hand(0))
    why = st.why_illegal(Move.play(missing, MoveKind.GROW, company=DECK[missing - 1].bottom[0]))
    assert f"card {missing} is not in your hand" in why
    assert "You's" not in why and "you's" not in why
    why = st.why_illegal(Move(Step.SELL, MoveKind.SELL, company=Company.CROWN))
    assert "not a sell decision" in why and "(you to decide)" in why
    why = st.why_illegal(Move(Step.EXPAND, MoveKind.STOP))
    assert "not an expand decision" in why and "a expand" not in why


def test_reasons_for_coins_and_shares_agree_with_you():
    d = position(3, step="buy", turn={"player": 0, "card": 5, "sold": False}, coins=[1, 5, 5],
                 shares={"Crown": [0, 2, 1]}, names=["You", "Anna", "Bruno"],
                 hands={0: [3, 10, 20, 25, 30]}, discard=[5])
    st = State.from_dict(d)
    why = st.why_illegal(Move(Step.BUY, MoveKind.BUY, company=Company.CROWN))
    assert "you have 1 coin" in why and "You has" not in why and "1 coins" not in why
    named = State.from_dict(dict(d, players=[dict(p, name=n) for p, n in
                                             zip(d["players"], ["Ada", "Anna", "Bruno"])]))
    assert "Ada has 1 coin" in named.why_illegal(Move(Step.BUY, MoveKind.BUY,
                                                      company=Company.CROWN))


def test_no_share_to_sell_is_worded_for_you():
    d = position(3, step="sell", turn={"player": 0, "card": 5, "sold": False},
                 shares={"Crown": [1, 2, 1]}, names=["You", "Anna", "Bruno"],
                 hands={0: [3, 10, 20, 25, 30]}, discard=[5])
    st = State.from_dict(d)
    why = st.why_illegal(Move(Step.SELL, MoveKind.SELL, company=Company.PANDA))
    assert why == "you own no share of Panda"


# ---------------------------------------------------------------------------------------------
# the game's lines (cli/narration.py, cli/panels.py, the board)

def test_a_skipped_buy_is_said_once_with_its_reason():
    """The person plays a card with too few coins for any share: the engine passes the buy;
    the line of the card says so, once."""
    d = position(3, hands={0: [3, 10, 20, 25, 30, 35]}, coins=[0, 5, 5],
                 shares={"Crown": [0, 2, 1]}, names=["You", "Anna", "Bruno"])
    st = State.from_dict(d)
    move = next(m for m in st.legal_moves if m.kind is MoveKind.GROW
                and st.growth(m.company) + 1 not in (4, 6))
    after = st.copy()
    after.push(move)
    assert after.to_move != 0                           # the turn is over
    line = describe(st, after, move, 0, you=0)
    assert line.count("buy skipped") == 1 and "no share affordable: buy skipped" in line
    other = describe(st, after, move, 0, you=1)          # said to the person only
    assert "skipped" not in other


def test_a_buy_step_that_asks_is_not_called_skipped():
    d = position(3, hands={0: [3, 10, 20, 25, 30, 35]}, coins=[9, 5, 5],
                 names=["You", "Anna", "Bruno"])
    st = State.from_dict(d)
    move = next(m for m in st.legal_moves if m.kind is MoveKind.GROW)
    after = st.copy()
    after.push(move)
    assert after.step is Step.BUY and after.to_move == 0
    assert "skipped" not in describe(st, after, move, 0, you=0)


def test_log_names_the_sell_pass_and_the_buy_pass():
    sell = Move(Step.SELL, MoveKind.PASS)
    buy = Move(Step.BUY, MoveKind.PASS)
    decisions = [Decision(1, 0, sell, 1, ""), Decision(2, 0, buy, 1, "")]
    text = text_of(log_table(decisions, ["You", "Anna"]))
    assert "sell: pass" in text and "buy: pass" in text


def test_played_cards_show_what_they_were():
    st = State.new(3, seed=2)
    while len(st.discard) < 4:
        st.push(next(iter(st.legal_moves)))
    text = played_text(st).plain
    for card in st.discard:
        info = DECK[card - 1]
        code = (f"{card} {COMPANIES[info.top][:3]}|{COMPANIES[info.bottom[0]][:3]}+"
                f"{COMPANIES[info.bottom[1]][:3]}")
        assert code in text
    assert re.search(r"played this round: +\d+ [A-Z][a-z]{2}\|", header_text(st).plain)
    # in one line of 60 columns: the newest cards, and how many earlier
    short = played_text(st, 60, lines=1).plain
    assert "\n" not in short and len(short) <= 60 and "earlier" in short
    assert str(st.discard[-1]) in short


def test_selling_a_presided_company_warns_when_the_presidency_passes():
    d = position(3, step="sell", turn={"player": 0, "card": 5, "sold": False},
                 shares={"Crown": [2, 2, 0], "Panda": [2, 1, 0], "Hydra": [1, 1, 1],
                         "Gemini": [1, 0, 0]},
                 president={"Crown": 0, "Panda": 0, "Hydra": 0, "Gemini": 0},
                 names=["You", "Anna", "Bruno"], hands={0: [3, 10, 20, 25, 30]}, discard=[5])
    st = State.from_dict(d)

    def label(company):
        return Text.from_markup(decision_label(st, Move(Step.SELL, MoveKind.SELL,
                                                        company=company))).plain
    assert "presidency passes to Anna" in label(Company.CROWN)        # 1 left against 2
    assert "⚠" not in label(Company.PANDA)                             # 1 left against 1: kept
    assert "Anna or Bruno (you choose)" in label(Company.HYDRA)
    assert "no president" in label(Company.GEMINI)


def test_ai_lines_omit_empty_passes():
    from cli.commands.play import TerminalGame
    from cli.session import GameSession
    console = Console(width=100, record=True, color_system=None, file=open("/dev/null", "w"))
    game = TerminalGame(GameSession.new(ai=2, level=1, seed=3), console=console,
                        input_fn=lambda prompt: "quit")
    answers = iter(["1"] * 30)
    game.input_fn = lambda prompt: next(answers, "quit") if "›" in prompt else ""
    game.run()
    text = console.export_text()
    ai_passes = [d for d in game.session.decisions
                 if d.seat != 0 and d.move.kind is MoveKind.PASS]
    assert ai_passes                                    # there were some
    for name in ("Anna", "Bruno"):
        assert not re.search(rf"^{name}: pass\b", text, re.M)
    assert re.search(r"^(Anna|Bruno): (play|buy|sell)", text, re.M)


def test_the_rules_fit_one_screen():
    from click.testing import CliRunner

    from cli.commands.rules import RULES
    from cli.main import main
    plain = Text.from_markup(RULES).plain
    lines = plain.splitlines()
    assert len(lines) <= 23 and max(len(line) for line in lines) <= 80
    for words in ("Goal", "Turn", "Growth", "Expand", "President", "docs/rules.md"):
        assert words in plain
    r = CliRunner().invoke(main, ["rules"])
    assert r.exit_code == 0 and r.output.strip().splitlines()[0].startswith("Ekonos in one")
