"""How often the light playout policy makes the move the search made, in self-play.

The playouts play every seat's moves after the tree (and the other seats' moves the tree has
not reached), so how close the policy plays to the search is how good a model of the players
the search evaluates against.  Replays games of self-play folders from their deals (as
`ekonos learn fit` does), and at each recorded decision after the first `explore` (those were
drawn from the root visits) compares the search's move with `search._flat.light_move` (eps 0,
so the policy's own choice): at a card step the card and what it does with it (place, protect,
grow one of its two bottom companies; the space is drawn at random by the policy, so not
compared), at the other steps the move itself.  `chance`: the same for a uniformly random
legal move.  Also the share of the search's root visits that went to moves of the policy's
kind (card steps: the same card and use), and at card steps how often the two agree on the use
alone (place, protect, grow), on the company it moves and on the card, with what the policy
did where the search placed, protected or grew.

    .venv/bin/python benchmarks/results/2026-11-27-flat/policy_agreement.py GAMES FOLDER...
"""
from __future__ import annotations

import sys
from collections import defaultdict

from ekonos.rules import DECK, Step
from search._flat import light_move
from search.bots import derive_seed
from search.learn.selfplay import read_manifest, replayed_decisions

CARD_SUBS, NSPACES = 74, 36


def kind(step: Step, a: int) -> tuple:
    """What is compared of a move: a card step's card and use, else the move."""
    if step is Step.CARD:
        card, sub = divmod(a, CARD_SUBS)
        use = "place" if sub < NSPACES else "protect" if sub < 2 * NSPACES else sub
        return card, use
    if step is Step.EXPAND:
        return ("place", "protect", "stop")[0 if a < 2702 else 1 if a < 2738 else 2]
    return a


def card_use(a: int) -> tuple[int, str, int]:
    """A card move's card, use and the company it moves (the top one, or the bottom grown)."""
    card, sub = divmod(a, CARD_SUBS)
    if sub < 2 * NSPACES:
        return card, "place" if sub < NSPACES else "protect", DECK[card].top
    return card, "grow", DECK[card].bottom[sub - 2 * NSPACES]


def main(games: int, folders: list[str]) -> None:
    for folder in folders:
        m = read_manifest(folder)
        players, seed, explore = int(m["players"]), int(m["seed"]), int(m.get("explore", 0))
        agree, chance, share, count = (defaultdict(float) for _ in range(4))
        same, uses = defaultdict(int), defaultdict(int)     # card steps: parts that agree
        played = set()
        for game, k, state, g in replayed_decisions(folder, games):
            played.add(game)
            if k < explore:
                continue
            a, step = int(g["action"][k]), state.step
            policy_move = light_move(state.view(state.to_move), derive_seed(seed, game, k))
            mine = kind(step, policy_move)
            legal = [kind(step, b) for b in state.legal_actions()]
            lo, hi = int(g["pol_start"][k]), int(g["pol_start"][k + 1])
            visits = {int(b): int(v) for b, v in zip(g["pol_action"][lo:hi],
                                                   g["pol_visits"][lo:hi])}
            total = sum(visits.values()) or 1
            name = step.name.lower()
            count[name] += 1
            agree[name] += mine == kind(step, a)
            chance[name] += legal.count(kind(step, a)) / len(legal)
            share[name] += sum(v for b, v in visits.items() if kind(step, b) == mine) / total
            if step is Step.CARD:
                theirs, ours = card_use(a), card_use(policy_move)
                for i, part in enumerate(("card", "use", "company")):
                    same[part] += theirs[i] == ours[i]
                uses[theirs[1], ours[1]] += 1
        print(f"{folder} ({players} players, {len(played)} games)")
        for name in sorted(count, key=lambda n: -count[n]):
            n = count[name]
            print(f"  {name:14s} {int(n):6d} decisions  policy = search {agree[name] / n:6.1%}"
                  f"  (chance {chance[name] / n:6.1%})  search's visits to the policy's move"
                  f" {share[name] / n:6.1%}")
        n = count["card"]
        print(f"  card steps: the same use {same['use'] / n:.1%}, company {same['company'] / n:.1%},"
              f" card {same['card'] / n:.1%}")
        for u in ("place", "protect", "grow"):
            row = [uses[u, v] for v in ("place", "protect", "grow")]
            print(f"    the search {u}s ({sum(row) / n:5.1%}): the policy places {row[0]}, "
                  f"protects {row[1]}, grows {row[2]}")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
