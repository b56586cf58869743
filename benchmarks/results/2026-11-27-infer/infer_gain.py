"""Information about the hidden hands from the opponents' card plays: particles weighted by a
softmax policy, marginal log loss of the true owners against the uniform deal."""
import os
OUT = os.environ.get("OUT", "/tmp/w")     # where the games and tables go
import pickle, math, sys
from collections import defaultdict
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from infer_fit import rows, card_L, CARD

def run(beta, kind, agg, M=4000, seed=1):
    rng = np.random.default_rng(seed)
    by = defaultdict(list)
    for row in rows:
        by[(row["g"], row["r"])].append(row)
    tot_u = tot_b = 0.0; ncards = 0; ess_all = []
    by_k = defaultdict(lambda: [0.0, 0.0, 0])
    for key, rs in by.items():
        rs.sort(key=lambda r: r["k"])
        E = [None] * len(rs)
        for idx, R in enumerate(rs):
            k, i = R["k"], R["j"]
            past = [r for r in rs if r["k"] < k and r["j"] != i]
            if not past:
                continue
            hands = R["hands"]
            opps = [q for q in range(6) if q != i]
            U = sorted(c for q in opps for c in hands[q])
            pos = {c: n for n, c in enumerate(U)}
            sizes = [len(hands[q]) for q in opps]
            # particles: owner index (0..4 into opps) of each card of U
            base = np.repeat(np.arange(len(opps)), sizes)
            own = np.array([rng.permutation(base) for _ in range(M)])      # M x |U|
            logw = np.zeros(M)
            for r in past:
                jj = opps.index(r["j"])
                L = card_L(r, beta, kind, agg)
                F = [x["vals"] and CARD(x["a"]) for x in rs if x["j"] == r["j"] and r["k"] <= x["k"] < k]
                Evec = np.array([math.exp(L.get(c, -1e9)) for c in U])
                s = (own == jj) @ Evec + sum(math.exp(L[c]) for c in F)
                logw -= np.log(s)
            w = np.exp(logw - logw.max()); w /= w.sum()
            ess_all.append(1 / (w ** 2).sum())
            for q_i, q in enumerate(opps):
                for c in hands[q]:
                    pb = (w * (own[:, pos[c]] == q_i)).sum()
                    pu = sizes[q_i] / len(U)
                    pb = max(pb, 1e-4)
                    tot_b -= math.log(pb); tot_u -= math.log(pu); ncards += 1
                    bk = by_k[k // 6]
                    bk[0] -= math.log(pu); bk[1] -= math.log(pb); bk[2] += 1
    print(f"beta={beta} {kind} {agg}: per card log loss uniform {tot_u/ncards:.4f} "
          f"belief {tot_b/ncards:.4f} gain {(tot_u-tot_b)/ncards:.4f} nats; "
          f"median ESS {np.median(ess_all):.0f} of {M}", flush=True)
    for kk in sorted(by_k):
        u, b, n = by_k[kk]
        print(f"   turn {kk+1}: gain {(u-b)/n:.4f} nats/card over {n} cards")

if __name__ == "__main__":
    for spec in sys.argv[1:]:
        b, kind, agg = spec.split(",")
        run(float(b), kind, agg)
