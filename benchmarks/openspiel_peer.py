"""Our ISMCTS against OpenSpiel's, in one run: prints a Markdown table (the run recorded in
benchmarks/results/2026-11-21-openspiel-peer.md).

    .venv/bin/python benchmarks/openspiel_peer.py [--games N] [--think S] [--iterations N]

1. Iterations per second, one core, the same number of iterations per search, on the same Ekonos
   positions (the 4-player opening and a 4-player mid-game position): our plain `ismcts` (PLAIN:
   light playouts to the game's end, UCT at the root, as in the recorded run) against OpenSpiel's
   Python `ISMCTSBot` on `python_ekonos` (ekonos/openspiel_game.py).
2. Head to head, 2 players: our plain `ismcts:time=S` against OpenSpiel's Python ISMCTS, the same think
   time per decision.  OpenSpiel's Python ISMCTS takes a simulation count, not a time: its
   simulations per decision are calibrated once, before the games, from its measured rate on
   2-player positions (rate x S); the time it really took per decision is reported next to it.
   Every deal is played twice with the seats swapped.  Our bot decides from `State.view(seat)`
   only; OpenSpiel's acts on the `python_ekonos` state of the same seeded deal (`seed` >= 0
   reproduces the engine's deals exactly; its ISMCTS resamples the hidden cards itself).
   Win share: a win counts 1, a shared win 1/k; 95% Wilson score interval over the games.
3. Simulated decisions per second: our `ismcts` on the 4-player Ekonos opening next to OpenSpiel's
   C++ `ISMCTSBot` on its C++ game `hearts` (4 players) after the deal, the same number of
   iterations each; decisions/s = iterations/s x decisions per simulated game (ours:
   `Searcher.decisions_simulated / iterations`; hearts: the length of random playouts from the
   same position, in decision nodes).

Everything runs in this one process, one search at a time (one core).  Time budgets are wall
clock, so a loaded machine slows both sides; the load average is printed with the table.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts as os_ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as os_mcts  # noqa: E402

import ekonos.openspiel_game  # noqa: E402,F401  (registers python_ekonos)
from ekonos import State  # noqa: E402
from search.bots import ISMCTSBot, derive_seed, make_bot  # noqa: E402
from search.lab.arena import wilson  # noqa: E402

DEAL_SEED = 2024            # the 4-player positions of item 1 and 3 (as benchmarks/test_bench_search)
MIDGAME_DECISIONS = 110     # about half of a 4-player game (~230 decisions with greedy play)
OS_UCT_C = 1.4              # OpenSpiel's ISMCTS exploration (docs/openspiel.md; returns in [0, 1])
GOALS = {"py_ratio": 30.0, "win_share": 0.80, "cpp_ratio": 1.0}


# -- positions ----------------------------------------------------------------------------------

class SeededSampler:
    """Stands in for pyspiel.UniformProbabilitySampler (which seeds itself from random_device)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        return self.rng.random()


def skip_chance(state) -> None:
    """A `python_ekonos` game with seed >= 0: every chance node has one outcome, the engine's."""
    while state.is_chance_node():
        [(outcome, _)] = state.chance_outcomes()
        state.apply_action(outcome)


def positions(players: int, seed: int, midgame: int):
    """(name, engine state, python_ekonos state) for the opening and a mid-game position reached
    by the greedy bot; both sides are the same game, checked struct for struct."""
    game = pyspiel.load_game("python_ekonos", {"players": players, "seed": seed})
    eng = State.new(players, seed=seed)
    ost = game.new_initial_state()
    skip_chance(ost)
    assert ost.ekonos_state()._same_core(eng)
    out = [("opening", eng.copy(), ost.clone())]
    greedy = make_bot("greedy", seed=seed)
    for _ in range(midgame):
        a = greedy.choose(eng.view(eng.to_move))
        eng.push(a)
        ost.apply_action(a)
        skip_chance(ost)
    assert ost.ekonos_state()._same_core(eng) and not eng.is_over()
    out.append((f"mid-game (round {eng.round}, after {midgame} decisions)", eng, ost))
    return game, out


def python_bot(game, sims: int, seed: int):
    seed %= 2**32 - 3                                   # numpy's RandomState takes 32 bits
    evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1,
                                               random_state=np.random.RandomState(seed))
    bot = os_ismcts.ISMCTSBot(game, evaluator, uct_c=OS_UCT_C, max_simulations=sims,
                              random_state=np.random.RandomState(seed + 1))
    sampler = SeededSampler(seed + 2)
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, sampler))
    return bot


# -- item 1: iterations per second --------------------------------------------------------------

#: Our search as the recorded comparison ran it: playouts to the end, UCT at the root.
PLAIN = dict(c=0.7, horizon=0, plain=0, root="uct")


def time_ours(view: State, iterations: int, seed: int):
    searcher = ISMCTSBot(**PLAIN).searcher()
    t0 = time.perf_counter()
    searcher.run(view, view.to_move, iterations=iterations, seed=seed)
    dt = time.perf_counter() - t0
    assert searcher.iterations_done == iterations
    return dt, searcher.decisions_simulated


def time_python(game, ost, iterations: int, seed: int) -> float:
    bot = python_bot(game, iterations, seed)
    t0 = time.perf_counter()
    bot.run_search(ost)
    return time.perf_counter() - t0


def iteration_rates(iterations: int, repeats: int, log) -> list[dict]:
    """Per position: median iterations/s of each searcher over `repeats` searches of
    `iterations`, interleaved (ours, OpenSpiel) so that load changes hit both."""
    game, poss = positions(4, DEAL_SEED, MIDGAME_DECISIONS)
    rows = []
    for name, eng, ost in poss:
        view = eng.view(eng.to_move)
        light, py = [], []
        for r in range(repeats):
            light.append(time_ours(view, iterations, r + 1)[0])
            py.append(time_python(game, ost, iterations, r + 1))
        row = {"position": name, "legal": eng.count_legal(),
               "ours": iterations / statistics.median(light),
               "python": iterations / statistics.median(py)}
        log(f"  {name}: ours {row['ours']:,.0f} it/s, OpenSpiel Python {row['python']:,.1f}")
        rows.append(row)
    return rows


# -- item 2: head to head -----------------------------------------------------------------------

def calibrate(think: float, log, sims: int = 20, every: int = 30) -> tuple[int, float]:
    """OpenSpiel Python ISMCTS simulations per `think` seconds, from its rate on the positions of
    one 2-player game (greedy play), every `every` decisions from the opening to the end: total
    sims / total time, so that its mean time per decision over a game is about `think`."""
    seed = DEAL_SEED + 1
    game = pyspiel.load_game("python_ekonos", {"players": 2, "seed": seed})
    eng = State.new(2, seed=seed)
    ost = game.new_initial_state()
    greedy = make_bot("greedy", seed=seed)
    total_t, total_n, k = 0.0, 0, 0
    while not eng.is_over():
        skip_chance(ost)
        if k % every == 0:
            total_t += time_python(game, ost, sims, 100 + k)
            total_n += sims
        a = greedy.choose(eng.view(eng.to_move))
        eng.push(a)
        ost.apply_action(a)
        k += 1
    rate = total_n / total_t
    n = max(2, round(rate * think))     # its first simulation only expands the root: 2 at least
    log(f"  calibration: OpenSpiel Python ISMCTS {rate:.1f} sims/s over {total_n // sims} "
        f"positions of a 2-player game -> {n} simulations per {think} s decision")
    return n, rate


def play_game(deal_seed: int, our_seat: int, think: float, sims: int, seed: int) -> dict:
    eng = State.new(2, seed=deal_seed)
    game = pyspiel.load_game("python_ekonos", {"players": 2, "seed": deal_seed})
    ost = game.new_initial_state()
    ours = make_bot("ismcts:" + ",".join([f"time={think}"] + [f"{k}={v}" for k, v in PLAIN.items()]),
                    seed=seed)
    theirs = python_bot(game, sims, seed)
    spent = {"ours": 0.0, "theirs": 0.0}
    count = {"ours": 0, "theirs": 0}
    while not eng.is_over():
        skip_chance(ost)
        seat = eng.to_move
        assert ost.current_player() == seat
        who = "ours" if seat == our_seat else "theirs"
        t0 = time.perf_counter()
        if who == "ours":
            action = ours.choose(eng.view(seat))
        else:
            action = int(theirs.step(ost))
        spent[who] += time.perf_counter() - t0
        count[who] += 1
        eng.push(action)
        ost.apply_action(action)
    skip_chance(ost)
    assert ost.is_terminal() and ost.ekonos_state()._same_core(eng)
    winners = eng.winners()
    return {"share": 1.0 / len(winners) if our_seat in winners else 0.0,
            "scores": eng.scores(), "our_seat": our_seat, "spent": spent, "count": count}


def head_to_head(games: int, think: float, sims: int, log) -> dict:
    results = []
    t_start = time.perf_counter()
    for g in range(games):
        deal, our_seat = DEAL_SEED + 1000 + g // 2, g % 2
        r = play_game(deal, our_seat, think, sims, derive_seed(DEAL_SEED, g))
        results.append(r)
        log(f"  game {g + 1}/{games}: deal {deal}, ours seat {our_seat}, share {r['share']:g}, "
            f"scores {r['scores']}, {time.perf_counter() - t_start:.0f} s so far")
    share = statistics.fmean(r["share"] for r in results) if results else 0.0
    lo, hi = wilson(share, len(results))
    per = {w: sum(r["spent"][w] for r in results) / max(1, sum(r["count"][w] for r in results))
           for w in ("ours", "theirs")}
    return {"games": len(results), "share": share, "lo": lo, "hi": hi,
            "wins": sum(r["share"] == 1.0 for r in results),
            "ties": sum(0 < r["share"] < 1 for r in results),
            "ours_s": per["ours"], "theirs_s": per["theirs"],
            "decisions": sum(sum(r["count"].values()) for r in results) / max(1, len(results)),
            "seconds": time.perf_counter() - t_start}


# -- item 3: simulated decisions per second ----------------------------------------------------

def hearts_root(seed: int):
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


def hearts_decisions(root, playouts: int, seed: int) -> float:
    """Mean number of decision nodes in uniformly random playouts of hearts from `root`."""
    rng = random.Random(seed)
    total = 0
    for _ in range(playouts):
        s = root.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                total += 1
    return total / playouts


def time_cpp_hearts(root, iterations: int, seed: int) -> float:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.ISMCTSBot(seed, evaluator, OS_UCT_C, iterations, -1,
                            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    t0 = time.perf_counter()
    bot.step(root)
    return time.perf_counter() - t0


def decision_rates(iterations: int, repeats: int, log) -> dict:
    eng = State.new(4, seed=DEAL_SEED)
    view = eng.view(eng.to_move)
    root = hearts_root(DEAL_SEED)
    ours_t, ours_d, cpp_t = [], [], []
    for r in range(repeats):
        dt, dec = time_ours(view, iterations, r + 1)
        ours_t.append(dt)
        ours_d.append(dec / iterations)
        cpp_t.append(time_cpp_hearts(root, iterations, r + 1))
    hd = hearts_decisions(root, 200, DEAL_SEED)
    out = {"ours_its": iterations / statistics.median(ours_t),
           "ours_dec": statistics.fmean(ours_d),
           "cpp_its": iterations / statistics.median(cpp_t), "cpp_dec": hd}
    out["ours_dps"] = out["ours_its"] * out["ours_dec"]
    out["cpp_dps"] = out["cpp_its"] * out["cpp_dec"]
    log(f"  ours {out['ours_its']:,.0f} it/s x {out['ours_dec']:.1f}; "
        f"C++ hearts {out['cpp_its']:,.0f} it/s x {out['cpp_dec']:.1f}")
    return out


# -- report -------------------------------------------------------------------------------------

def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, open_spiel {_version('open_spiel')}")


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:  # noqa: BLE001
        return "?"


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def met(ok: bool) -> str:
    return "**met**" if ok else "**not met**"


def table(args, rates, cal, h2h, dec) -> str:
    L = ["| # | measure | ours | OpenSpiel | ratio / result | goal |", "|---|---|---|---|---|---|"]
    for r in rates:
        ratio = r["ours"] / r["python"]
        L.append(f"| 1 | iterations/s, 4 players, {r['position']}, {r['legal']} legal moves; "
                 f"{args.iterations} iterations per search, 1 core, median of {args.repeats} | "
                 f"{r['ours']:,.0f} | "
                 f"{r['python']:,.1f} (Python ISMCTS) | **{ratio:,.0f}×** | "
                 f"≥ {GOALS['py_ratio']:.0f}×: {met(ratio >= GOALS['py_ratio'])} |")
    if h2h is not None:
        sims, rate = cal
        L.append(f"| 2 | head to head, 2 players, {h2h['games']} games ({h2h['games'] // 2} deals, "
                 f"seats swapped), {args.think} s per decision | win share "
                 f"**{h2h['share']:.1%}** [{h2h['lo']:.1%}, {h2h['hi']:.1%}] "
                 f"({h2h['wins']} wins, {h2h['ties']} ties; {h2h['decisions']:.0f} decisions a game); "
                 f"{h2h['ours_s']:.3f} s/decision | "
                 f"Python ISMCTS, {sims} sims/decision (calibrated: {rate:.1f} sims/s × "
                 f"{args.think} s); {h2h['theirs_s']:.3f} s/decision | "
                 f"{h2h['share']:.1%} (95% Wilson) | ≥ {GOALS['win_share']:.0%}: "
                 f"{met(h2h['share'] >= GOALS['win_share'])} |")
    ratio = dec["ours_dps"] / dec["cpp_dps"]
    L.append(f"| 3 | simulated decisions/s, 1 core, {args.cpp_iterations} iterations per "
             f"search, median of {args.repeats} | {dec['ours_dps']:,.0f} = {dec['ours_its']:,.0f} "
             f"it/s × {dec['ours_dec']:.1f} decisions (Ekonos, 4 players, opening) | "
             f"{dec['cpp_dps']:,.0f} = {dec['cpp_its']:,.0f} it/s × {dec['cpp_dec']:.1f} "
             f"decisions (C++ ISMCTSBot, hearts, 4 players) | **{ratio:.2f}×** | "
             f"≥ {GOALS['cpp_ratio']:.1f}×: {met(ratio >= GOALS['cpp_ratio'])} |")
    return "\n".join(L)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100,
                    help="head-to-head games (even: each deal twice, seats swapped; 0 skips)")
    ap.add_argument("--think", type=float, default=0.5, help="seconds per decision, both bots")
    ap.add_argument("--iterations", type=int, default=500,
                    help="iterations per search for the iterations/s comparison (item 1)")
    ap.add_argument("--cpp-iterations", type=int, default=10000,
                    help="iterations per search for the decisions/s comparison (item 3)")
    ap.add_argument("--repeats", type=int, default=5, help="searches per measurement (median)")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = ap.parse_args(argv)

    def log(msg: str) -> None:
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    load0 = load()
    log("1. iterations per second")
    rates = iteration_rates(args.iterations, args.repeats, log)
    log("3. simulated decisions per second")
    dec = decision_rates(args.cpp_iterations, args.repeats, log)
    cal = h2h = None
    if args.games > 0:
        log("2. head to head")
        cal = calibrate(args.think, log)
        h2h = head_to_head(args.games, args.think, cal[0], log)
    print(f"Machine: {machine()}")
    print(f"Load average (1, 5, 15 min): {load0} at the start, {load()} at the end")
    cmd = ["benchmarks/openspiel_peer.py"] + list(argv if argv is not None else sys.argv[1:])
    print(f"Command: .venv/bin/python {' '.join(cmd)}")
    print(f"Run time: {time.perf_counter() - t0:.0f} s")
    print()
    print(table(args, rates, cal, h2h, dec))
    return 0


if __name__ == "__main__":
    sys.exit(main())
