"""How close a playout policy of a few fitted weights could play to the search (no play: a fit).

For each player count: card-step and buy-step decisions of self-play games (replayed from their
deals, as `policy_agreement.py` does; the first `explore` decisions of a game left out), each a
choice among candidates (card step: a card and its use, the space not counted; buy step: a
company or the pass) described by the light policy's quantities (the mover's shares and the
largest other holding of the company, its tiles, growth, what the rest of the game promises).
A conditional logit (one weight per feature, maximum likelihood, scipy) is fitted on the games of
one folder and its argmax compared with the search's move on the games of another, beside the
light policy's own choice (its score without its noise) on the same decisions.

    .venv/bin/python benchmarks/results/2026-11-27-flat/policy_fit.py GAMES FIT_ROOT TEST_ROOT
    (FIT_ROOT/pP and TEST_ROOT/pP for P = 2..6)
"""
from __future__ import annotations

import sys

import numpy as np
from scipy.optimize import minimize

from ekonos import State
from ekonos.rules import DECK, MAX_TILES, Step
from search.learn.selfplay import read_manifest, replayed_decisions

CARD_SUBS, NSPACES, A_BUY, A_BUY_PASS = 74, 36, 2746, 2752
CARD_FEATURES = ["protect", "grow", "place x own", "place x other", "place x own x left",
                 "place x tiles", "protect x own", "protect x unprotected", "grow x own x left",
                 "grow x other x left", "grow to 4 x own", "grow to 6 x own", "grow to 4",
                 "grow to 6", "grow, no tiles", "grow x growth"]
BUY_FEATURES = ["buy", "worth - price", "own", "other", "makes president", "price", "coins left"]


def holdings(st: State, p: int, c: int) -> tuple[int, int]:
    other = max((st.shares(q, c) for q in range(st.nplayers) if q != p), default=0)
    return st.shares(p, c), other


def left_of(st: State) -> float:
    return (st.rounds - st.round + 1.0) / st.rounds


def card_kind(a: int) -> tuple[int, object]:
    card, sub = divmod(a, CARD_SUBS)
    return card, ("place" if sub < NSPACES else "protect" if sub < 2 * NSPACES else sub)


def card_candidates(st: State) -> tuple[list, np.ndarray, np.ndarray]:
    """The (card, use) choices of a card step, their features and the light policy's score."""
    p, left = st.to_move, left_of(st)
    kinds = sorted({card_kind(a) for a in st.legal_actions()}, key=str)
    feats, light = [], []
    for card, use in kinds:
        f = np.zeros(len(CARD_FEATURES))
        top = DECK[card].top
        if use in ("place", "protect"):
            own, other = holdings(st, p, top)
            stake = own - 0.5 * other
            if use == "place":
                f[2:6] = own, other, own * left, len(st.tiles(top)) / MAX_TILES
                light.append(stake)
            else:
                f[0] = 1
                f[6:8] = own, len(st.tiles(top)) - len(st.protected_tiles(top))
                light.append(0.2 * stake)
        else:
            b = DECK[card].bottom[use - 2 * NSPACES]
            own, other = holdings(st, p, b)
            stake = own - 0.5 * other
            g = st.growth(b) + 1
            f[1] = 1
            f[8:10] = own * left, other * left
            f[10:14] = own * (g == 4), own * (g == 6), g == 4, g == 6
            f[14] = not st.tiles(b)
            f[15] = st.growth(b)
            light.append(0.35 * stake * left + (stake * (1.5 if g == 6 else 1.0) if g in (4, 6)
                                                else 0.0))
        feats.append(f)
    return kinds, np.array(feats), np.array(light)


def worth(st: State, c: int) -> float:
    return len(st.tiles(c)) + left_of(st) * (1.0 + 0.5 * st.growth(c))


def buy_candidates(st: State) -> tuple[list, np.ndarray, np.ndarray]:
    p = st.to_move
    kinds = sorted(st.legal_actions())
    feats, light = [], []
    for a in kinds:
        f = np.zeros(len(BUY_FEATURES))
        if a == A_BUY_PASS:
            light.append(-0.5)
        else:
            c = a - A_BUY
            own, other = holdings(st, p, c)
            price = st.column(c) + 1
            gain = worth(st, c) - price
            f[:] = 1, gain, own, other, own + 1 > other, price, st.coins(p) - price
            light.append(gain)
        feats.append(f)
    return kinds, np.array(feats), np.array(light)


def decisions(root: str, players: int, games: int) -> dict:
    folder = f"{root}/p{players}"
    explore = int(read_manifest(folder).get("explore", 0))
    out = {"card": [], "buy": []}
    for _, k, st, g in replayed_decisions(folder, games):
        if k >= explore and st.step in (Step.CARD, Step.BUY):
            a = int(g["action"][k])
            if st.step is Step.CARD:
                kinds, x, light = card_candidates(st)
                out["card"].append((x, kinds.index(card_kind(a)), light))
            else:
                kinds, x, light = buy_candidates(st)
                out["buy"].append((x, kinds.index(a), light))
    return out


def fit(rows: list) -> np.ndarray:
    k = rows[0][0].shape[1]

    def nll(w):
        total, grad = 0.0, np.zeros(k)
        for x, y, _ in rows:
            z = x @ w
            z -= z.max()
            e = np.exp(z)
            pr = e / e.sum()
            total -= np.log(pr[y])
            grad -= x[y] - pr @ x
        return total / len(rows), grad / len(rows)
    return minimize(nll, np.zeros(k), jac=True, method="L-BFGS-B").x


def agreement(rows: list, score) -> float:
    return float(np.mean([np.argmax(score(x, light)) == y for x, y, light in rows]))


def main(games: int, fit_root: str, test_root: str) -> None:
    for players in (2, 3, 4, 5, 6):
        train, test = decisions(fit_root, players, games), decisions(test_root, players, games)
        for step, names in (("card", CARD_FEATURES), ("buy", BUY_FEATURES)):
            w = fit(train[step])
            fitted = agreement(test[step], lambda x, light: x @ w)
            light = agreement(test[step], lambda x, light: light)
            print(f"{players} players, {step:4s}: fitted on {len(train[step])}, held out "
                  f"{len(test[step])}: light policy {light:.1%}, fitted {fitted:.1%}")
            print("    " + ", ".join(f"{n} {v:+.2f}" for n, v in zip(names, w)))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
