"""Self-play games: what the learned evaluation and the value network learn from.

`play_and_sample` keeps a game's round starts for the linear evaluation (search/learn/fit.py);
`record_game` keeps every real decision of a game for the network: the deciding seat's inputs
(its view only, R21: the public state and its own hand), the search's root visits, the move
played, and how the game ended, each seat relative to the deciding one (relative seat j is seat
(p + j) % n, as the network reads them; search/_net.pxd)."""
from __future__ import annotations

import random

import numpy as np

from ekonos import State
from ekonos.rules import Step
from search._ismcts import EVAL_FEATURES, NET_INPUT_COUNT, company_features_of, net_inputs_of
from search.bots import ISMCTSBot, derive_seed, make_bot
from search.evaluation import MAXP, NCOMP
from search.learn.fit import Samples

#: The arrays of a recorded game (or of a shard: games concatenated), and their types.  Per
#: position i: x its inputs, players, seat (absolute), game, ply (its number among the game's
#: recorded decisions), win/score/rank of each relative seat at the end (zero past the players),
#: action played, q (the search's mean win share of that move for the mover, NaN for a bot that
#: does not search), legal (moves to choose from), and the root visits of its moves:
#: pol_action[pol_start[i]:pol_start[i + 1]] with pol_visits alike.
ARRAYS = {"x": np.float32, "players": np.int8, "seat": np.int8, "game": np.int32,
          "ply": np.int16, "win": np.float32, "score": np.float32, "rank": np.float32,
          "action": np.int16, "q": np.float32, "legal": np.int16, "pol_start": np.int32,
          "pol_action": np.int16, "pol_visits": np.int32}


def game_seed(seed: int, players: int, game: int) -> int:
    """The seed of game `game` of a self-play run (its deal and every seat's search)."""
    return derive_seed(seed, players, game)


def record_game(players: int, spec: str, seed: int, game: int, explore: int = 0) -> dict:
    """Self-play game `game` of run `seed`: `spec` in every seat, each deciding from its own
    view.  Every decision with more than one legal move is recorded (ARRAYS).  `explore`: the
    first that many recorded decisions play a move drawn in proportion to its root visits
    instead of the search's choice (variety of positions; 0: the bot's own choice always)."""
    gseed = game_seed(seed, players, game)
    state = State.new(players, seed=derive_seed(gseed, 0))
    bots = [make_bot(spec, seed=derive_seed(gseed, 1, q)) for q in range(players)]
    draw = random.Random(derive_seed(gseed, 2))
    xs, seats, actions, qs, legal, pol_a, pol_v, starts = [], [], [], [], [], [], [], [0]
    while not state.is_over():
        seat = state.to_move
        view = state.view(seat)
        count = view.count_legal()
        if count == 1:
            state.push(view.nth_legal(0))
            continue
        bot = bots[seat]
        moves = bot.analyse(view).moves if isinstance(bot, ISMCTSBot) else []
        if moves:
            action, q = moves[0]["action"], moves[0]["win"]
            if len(xs) < explore:
                picked = draw.choices(moves, weights=[m["visits"] for m in moves])[0]
                action, q = picked["action"], picked["win"]
        else:
            action, q = bot.choose(view), float("nan")
        xs.append(net_inputs_of(view, seat))
        seats.append(seat)
        actions.append(action)
        qs.append(q)
        legal.append(count)
        pol_a += [m["action"] for m in moves]
        pol_v += [m["visits"] for m in moves]
        starts.append(len(pol_a))
        state.push(action)
    scores = state.scores()
    winners = state.winners()
    win = [(1 / len(winners)) if q in winners else 0.0 for q in range(players)]
    rank = [sum(1 for s in scores if s > scores[q]) + (sum(1 for s in scores if s == scores[q])
                                                        + 1) / 2 for q in range(players)]
    k = len(xs)

    def relative(values):
        out = np.zeros((k, MAXP), dtype=np.float32)
        for i, p in enumerate(seats):
            for j in range(players):
                out[i, j] = values[(p + j) % players]
        return out

    arrays = {"x": np.array(xs, dtype=np.float32).reshape(k, NET_INPUT_COUNT),
              "players": np.full(k, players), "seat": np.array(seats),
              "game": np.full(k, game), "ply": np.arange(k),
              "win": relative(win), "score": relative(scores), "rank": relative(rank),
              "action": np.array(actions), "q": np.array(qs), "legal": np.array(legal),
              "pol_start": np.array(starts), "pol_action": np.array(pol_a),
              "pol_visits": np.array(pol_v)}
    return {name: np.asarray(a, dtype=ARRAYS[name]) for name, a in arrays.items()}


def concat_games(games: list[dict]) -> dict:
    """Recorded games as one block of positions (a shard)."""
    out = {}
    for name, dtype in ARRAYS.items():
        if name == "pol_start":
            starts, base = [np.zeros(1, dtype=dtype)], 0
            for g in games:
                starts.append(g["pol_start"][1:] + base)
                base += int(g["pol_start"][-1])
            out[name] = np.concatenate(starts).astype(dtype)
        else:
            out[name] = np.concatenate([g[name] for g in games]).astype(dtype)
    return out


def play_and_sample(players: int, spec: str, seed: int) -> Samples:
    """One self-play game of `spec` in every seat (each seat's view only, R21); its round starts."""
    state = State.new(players, seed=derive_seed(seed, 0))
    bots = [make_bot(spec, seed=derive_seed(seed, 1, q)) for q in range(players)]
    rows: list[tuple] = []
    seen_round = 1
    while not state.is_over():
        if state.round != seen_round and state.step is Step.CARD:
            seen_round = state.round
            coins = [state.coins(q) for q in range(players)] + [0] * (MAXP - players)
            shares = [[state.shares(q, c) for c in range(NCOMP)] for q in range(players)]
            shares += [[0] * NCOMP] * (MAXP - players)
            rows.append((state.rounds - state.round + 1, company_features_of(state), coins,
                         shares))
        seat = state.to_move
        state.push(bots[seat].choose(state.view(seat)))
    final = [state.value(c) for c in range(NCOMP)]
    winners = state.winners()
    win = [(1 / len(winners)) if q in winners else 0.0 for q in range(players)]
    win += [0.0] * (MAXP - players)
    k = len(rows)
    return Samples(np.full(k, players), np.array([r[0] for r in rows]),
                   np.array([r[1] for r in rows], dtype=float).reshape(k, NCOMP, EVAL_FEATURES),
                   np.array([r[2] for r in rows], dtype=float).reshape(k, MAXP),
                   np.array([r[3] for r in rows], dtype=float).reshape(k, MAXP, NCOMP),
                   np.array([final] * k, dtype=float).reshape(k, NCOMP),
                   np.array([win] * k, dtype=float).reshape(k, MAXP))
