"""How often a change to level 3's search changes its decision, against how often a new seed does:
a screen before the arena (an idea that changes almost nothing cannot be measured there).

    PYTHONPATH=. python decisions.py PLAYERS POSITIONS STEP SUFFIX
    (STEP card: card steps of random play; expand: expansion steps with 4 legal moves or more;
     SUFFIX: what the change adds to level 3's spec, e.g. ,xorder=1 or the patch's parameter)

Prints: positions, decisions differing between seeds 1 and 2 of level 3, decisions differing
between level 3 and the change at seed 1 (the same random stream until the change acts)."""
import random
import sys

from ekonos import State
import search.bots  # noqa: F401  (registers the bots)
from search.registry import make_bot

LEVEL3 = ("ismcts:iterations=25000,c=0.5,horizon=1,plain=1,root=halving,eps=0.03,epsfor=4,cfor=5,"
          "iterfor=3:500/45:2000/6:5000,model=eval-0678b3d9c83c")


def positions(players: int, count: int, step: str) -> list[State]:
    rng, out, game = random.Random(players), [], 0
    while len(out) < count:
        st = State.new(players, seed=900 + game)
        game += 1
        if step == "card":
            for _ in range(rng.randrange(10, 150)):
                if st.is_over():
                    break
                st.push(rng.choice(st.legal_actions()))
            if not st.is_over() and st.count_legal() > 1 and st.step.name == "CARD":
                out.append(st)
        else:
            for _ in range(400):
                if st.is_over() or (st.step.name == "EXPAND" and st.count_legal() >= 4
                                    and rng.random() < 0.5):
                    break
                st.push(rng.choice(st.legal_actions()))
            if not st.is_over() and st.step.name == "EXPAND" and st.count_legal() >= 4:
                out.append(st)
    return out


def main() -> None:
    players, count, step, suffix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    seeds = changed = 0
    for st in positions(players, count, step):
        view = st.view(st.to_move)
        one = make_bot(LEVEL3, 1).choose(view, seed=1)
        seeds += one != make_bot(LEVEL3, 1).choose(view, seed=2)
        changed += one != make_bot(LEVEL3 + suffix, 1).choose(view, seed=1)
    print(f"{players} players, {count} {step} steps: a new seed changes {seeds}, "
          f"the change {changed}")


if __name__ == "__main__":
    main()
