"""Recall at large k of a shipped policy file on the held-out games of a self-play folder."""
import sys
import jax.numpy as jnp
from search import network
from search.learn import policy_data, policy_train, net_data

name, folder = sys.argv[1], sys.argv[2]
w, _ = network.read(network.net_path(name), network.POLICY_KIND)
params = {k: jnp.asarray(v) for k, v in w.items()}
t, _ = policy_data.read_folders([folder], policy_train.Config().mix)
held = net_data.game_draw(t, 1) < 0.1
test = policy_data.subset(t, held)
for n, m in policy_train.metrics(params, test, (16, 32, 48, 64, 96, 128)).items():
    print(n, {k: v for k, v in m.items() if k.startswith(("top", "roots"))})
