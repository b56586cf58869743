"""`ismcts:sharp=X`: the linear model's sharpness (beta, fitted to predict who wins) times X
for play, the same search as a model file whose beta is scaled by hand."""
import json

import pytest

from search import evaluation
from search.bots import ISMCTSBot, SpecError, make_bot, spec_text
from helpers import card_positions


def scaled_model(tmp_path, factor: float) -> str:
    """The shipped model with every beta times `factor`, as a file."""
    data = json.loads(evaluation.model_path().read_text())
    data["beta"] = [[b * factor for b in row] for row in data["beta"]]
    path = tmp_path / "scaled.json"
    path.write_text(json.dumps(data))
    return str(path)


def moves(bot: ISMCTSBot, st) -> list[tuple[int, int, float]]:
    return [(m["action"], m["visits"], round(m["win"], 12))
            for m in bot.analyse(st.view(st.to_move), seed=7).moves]


@pytest.mark.parametrize("st", card_positions(3)[0::2],    # 2 and 4 players
                         ids=lambda s: f"{s.nplayers}p")
def test_sharp_searches_as_a_model_with_beta_scaled(tmp_path, st):
    file = scaled_model(tmp_path, 0.5)
    sharp = moves(ISMCTSBot(iterations=2000, sharp=0.5), st)
    assert sharp == moves(ISMCTSBot(iterations=2000, model=file), st)
    assert sharp != moves(ISMCTSBot(iterations=2000), st)


def test_sharp_is_spelled_only_when_given():
    assert "sharp" not in spec_text("level3")
    assert spec_text("ismcts:sharp=0.5").endswith(",sharp=0.5")


def test_sharp_needs_the_linear_model_and_a_readable_product(tmp_path):
    with pytest.raises(SpecError, match="needs a horizon"):
        make_bot("ismcts:horizon=0,sharp=0.5")
    make_bot("ismcts:horizon=0,sharp=1")                   # the default asks for nothing
    steep = scaled_model(tmp_path, 300.0)                  # the largest beta about 50
    make_bot(f"ismcts:model={steep}")
    with pytest.raises(SpecError, match="passes 100"):
        make_bot(f"ismcts:model={steep},sharp=3")
