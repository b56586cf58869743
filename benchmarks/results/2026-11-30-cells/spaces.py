"""Where level 3's search (4 000 iterations, the self-play of generation 3) puts tiles, against a
uniform choice among the spaces it could use:

- expansions that could both take another company's tile and fill an empty space: how often
  the move played was a capture, against the captures' share of the spaces offered;
- card turns that placed a tile: the space played minus the mean over that card's spaces, of
  [own company's tiles next to it, empty spaces next to it, other companies' unprotected tiles
  next to it, their protected tiles, its neighbours] (± two standard errors).

    .venv/bin/python benchmarks/results/2026-11-30-cells/spaces.py data/gen3/local-s40/p4 40
"""
import sys

import numpy as np

from ekonos import State
from ekonos.moves import Move, MoveKind
from ekonos.rules import ADJACENCY, DECK
from ekonos.state import Step
from search.bots import derive_seed
from search.learn.selfplay import load_dataset, read_manifest, game_arrays, game_seed

folder = sys.argv[1]; ngames = int(sys.argv[2])
m = read_manifest(folder); arrays = load_dataset([folder])
players, seed = int(m["players"]), int(m["seed"])
xp = {"cap_share": [], "cap_frac": []}
feats = []   # per card place decision: (visit-weighted mean - uniform mean) of features
def space_feats(s, space, comp):
    nb = ADJACENCY[space]
    own = sum(1 for q in nb if s.owner(q) == comp)
    empty = sum(1 for q in nb if s.owner(q) is None)
    other_soft = sum(1 for q in nb if s.owner(q) not in (None, comp) and not s.is_protected(q))
    other_hard = sum(1 for q in nb if s.owner(q) not in (None, comp) and s.is_protected(q))
    return [own, empty, other_soft, other_hard, len(nb)]
for game in sorted(set(arrays["game"].tolist()))[:ngames]:
    g = game_arrays(arrays, game)
    st = State.new(players, seed=derive_seed(game_seed(seed, players, game), 0))
    k = 0
    while not st.is_over():
        if st.count_legal() == 1:
            st.push(st.nth_legal(0)); continue
        a0, a1 = g["pol_start"][k], g["pol_start"][k + 1]
        acts = g["pol_action"][a0:a1].tolist(); vis = g["pol_visits"][a0:a1].astype(float)
        moves = [Move.from_action(a) for a in acts]
        if st.step is Step.EXPAND and vis.sum() > 0:
            pl = [i for i, mv in enumerate(moves) if mv.kind is MoveKind.PLACE]
            cap = [i for i in pl if st.owner(moves[i].space) is not None]
            if pl and cap and len(cap) < len(pl):
                played = Move.from_action(int(g["action"][k]))
                if played.kind is MoveKind.PLACE:
                    xp["cap_share"].append(float(st.owner(played.space) is not None)); xp["cap_frac"].append(len(cap) / len(pl))
        if st.step is Step.CARD and vis.sum() > 0:
            a = int(g["action"][k]); played = Move.from_action(a)
            if played.kind is MoveKind.PLACE:
                same = [i for i, mv in enumerate(moves) if mv.kind is MoveKind.PLACE and mv.card == played.card]
                if len(same) > 2 and vis[same].sum() > 0:
                    comp = DECK[played.card - 1].top
                    F = np.array([space_feats(st, moves[i].space, comp) for i in same], float)
                    w = np.array([1.0 if moves[i].space == played.space else 0.0 for i in same])
                    feats.append((w @ F) - F.mean(axis=0))
        st.push(int(g["action"][k])); k += 1
print(f"expansion place decisions with both kinds: {len(xp['cap_share'])}; the search played a capture "
      f"{np.mean(xp['cap_share']):.3f} against their share of the places {np.mean(xp['cap_frac']):.3f}")
f = np.array(feats)
print(f"card places: {len(f)}; played minus uniform mean of [own nb, empty nb, other unprotected nb, other protected nb, degree]:",
      np.round(f.mean(axis=0), 3), "+-", np.round(f.std(axis=0) / np.sqrt(len(f)) * 2, 3))
