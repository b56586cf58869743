"""How often another model changes level 3's decision, against how often a new seed does: a
screen before the arena (the 2026-12-02-screens script, with the model as the change and the
market steps as positions).

    PYTHONPATH=. python decisions.py PLAYERS POSITIONS STEP MODEL
    (STEP card, sell or buy: that step of random play with 2 legal moves or more)

Prints: positions, decisions differing between seeds 1 and 2 of level 3, decisions differing
between level 3 and level 3 reading MODEL at seed 1."""
import random
import sys

from ekonos import State
import search.bots  # noqa: F401  (registers the bots)
from search.registry import make_bot

LEVEL3 = ("ismcts:iterations=25000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,"
          "iterfor=3:500/45:2000/6:5000,model=")
SHIPPED = "eval-0678b3d9c83c"


def positions(players: int, count: int, step: str) -> list[State]:
    rng, out, game = random.Random(players), [], 0
    while len(out) < count:
        st = State.new(players, seed=900 + game)
        game += 1
        for _ in range(rng.randrange(10, 150)):
            if st.is_over():
                break
            st.push(rng.choice(st.legal_actions()))
        # on to the next decision of the step asked for
        while not st.is_over() and not (st.step.name == step.upper() and st.count_legal() > 1):
            st.push(rng.choice(st.legal_actions()))
        if not st.is_over():
            out.append(st)
    return out


def main() -> None:
    players, count, step, model = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    seeds = changed = 0
    for st in positions(players, count, step):
        view = st.view(st.to_move)
        one = make_bot(LEVEL3 + SHIPPED, 1).choose(view, seed=1)
        seeds += one != make_bot(LEVEL3 + SHIPPED, 1).choose(view, seed=2)
        changed += one != make_bot(LEVEL3 + model, 1).choose(view, seed=1)
    print(f"{players} players, {count} {step} steps: a new seed changes {seeds}, "
          f"the change {changed}")


if __name__ == "__main__":
    main()
