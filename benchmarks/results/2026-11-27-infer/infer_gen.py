"""Play 6-player level-3 games, record each card play: the full state before it and the action."""
import os
OUT = os.environ.get("OUT", "/tmp/w")     # where the games and tables go
import pickle, sys
from multiprocessing import Pool
from ekonos import State
from ekonos.rules import Step
from search.bots import make_bot, derive_seed

P = 6
def game(g):
    st = State.new(P, seed=derive_seed(9001, g))
    bots = [make_bot("level3", seed=derive_seed(9002, g, q)) for q in range(P)]
    rec = []
    while not st.is_over():
        seat = st.to_move
        v = st.view(seat)
        if v.count_legal() == 1:
            st.push(v.nth_legal(0)); continue
        a = bots[seat].choose(v)
        if st.step is Step.CARD:
            rec.append((st.copy(), a))
        st.push(a)
    return rec

if __name__ == "__main__":
    n0, n1 = int(sys.argv[1]), int(sys.argv[2])
    with Pool(2) as p:
        games = p.map(game, range(n0, n1))
    pickle.dump(games, open(OUT + f"/games_{n0}_{n1}.pkl", "wb"))
