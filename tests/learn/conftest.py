"""A small self-play data set for the value network's tests: 2- and 3-player games of a quick
search (`ismcts:iterations=20`), every 4th recorded decision kept (a few hundred positions
from a dozen games, so the split by game has games on both sides), written as two folders of
shards as `ekonos learn train` reads them."""
from __future__ import annotations

import numpy as np
import pytest

from search.learn.selfplay import concat_games, record_game

SPEC = "ismcts:iterations=20"
GAMES = 6                    # per player count


def thinned(game: dict, every: int = 4) -> dict:
    """Every `every`-th position of a recorded game (the per-position arrays only)."""
    keep = slice(None, None, every)
    out = dict(game)
    for k in ("x", "players", "seat", "game", "ply", "win", "score", "rank", "action", "q",
              "legal"):
        out[k] = game[k][keep]
    n = len(out["x"])
    out["pol_start"] = np.zeros(n + 1, dtype=game["pol_start"].dtype)
    out["pol_action"] = game["pol_action"][:0]
    out["pol_visits"] = game["pol_visits"][:0]
    return out


@pytest.fixture(scope="session")
def selfplay(tmp_path_factory):
    """(folders, arrays): a folder per player count (two shards each) and all their positions
    as one arrays dict."""
    root = tmp_path_factory.mktemp("selfplay")
    folders, blocks = [], []
    for n in (2, 3):
        folder = root / f"{n}p"
        folder.mkdir()
        games = [thinned(record_game(n, SPEC, 1, g)) for g in range(GAMES)]
        for s, part in enumerate((games[:GAMES // 2], games[GAMES // 2:])):
            block = concat_games(part)
            np.savez_compressed(folder / f"shard-{s:03d}.npz", **block)
            blocks.append(block)
        folders.append(folder)
    return folders, concat_games(blocks)
