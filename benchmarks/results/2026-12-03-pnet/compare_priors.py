"""Offline: the 4-player file and the two pooled files on 20 000 held-out 4-player positions (the
same split, seed 1): top-16 recall of the search's move, the target mass kept, the kept sets' overlap.
Run from the repository with PYTHONPATH=. (paths of this session's machine); output in
compare_priors.txt."""
import numpy as np
from search.learn import policy_data, selfplay, net_data
from search.policy import load_policy
arrays = selfplay.load_dataset(["/work/data/pol4"])
t = policy_data.targets(arrays, 4)
held = net_data.game_draw(t, 1) < 0.1
idx = np.nonzero(held & (t["played"] >= 0))[0]
rng = np.random.default_rng(0)
idx = np.sort(rng.choice(idx, 20000, replace=False))
files = {"4p": "/work/runs/pnet/net-7fa599eec797.json", "pooled": "/work/runs/pnet/net-91bc67d4d4f6.json",
         "pooled12k": "/work/runs/pnet/t12k/net-c7cb5041647d.json"}
ranks, kept = {}, {}
for k, f in files.items():
    w = load_policy(f).weights
    x = t["x"][idx]
    h = np.maximum(np.maximum(x @ w["w1"] + w["b1"], 0) @ w["w2"] + w["b2"], 0)
    full = h @ w["w3"] + w["b3"]
    lg = np.take_along_axis(full, t["cand"][idx].astype(int), axis=1)
    lg = np.where(np.arange(lg.shape[1])[None] < t["width"][idx][:, None], lg, -np.inf)
    order = np.argsort(-lg, axis=1, kind="stable")
    ranks[k] = (order == t["played"][idx][:, None]).argmax(axis=1)
    kept[k] = [set(o[:16].tolist()) for o in order]
W = t["width"][idx]
big = W > 16
for k in files:
    print(k, "top16 recall on big roots", np.mean(ranks[k][big] < 16).round(4), "top1", np.mean(ranks[k] == 0).round(4))
ov = np.mean([len(a & b) / 16 for a, b, w in zip(kept["4p"], kept["pooled"], W) if w > 16])
print("overlap of kept sets 4p vs pooled (big roots)", round(ov, 3))
# mass of the search's visits kept
tv = t["target"][idx]
for k in files:
    m = [tv[i][list(kept[k][i])].sum() for i in range(len(idx)) if W[i] > 16]
    print(k, "target mass kept on big roots", np.mean(m).round(4))
# by width band
for lo, hi in ((17, 50), (50, 100), (100, 300)):
    sel = (W >= lo) & (W < hi)
    print(lo, hi, sel.sum(), {k: np.mean(ranks[k][sel] < 16).round(3) for k in files})
