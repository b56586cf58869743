"""Turn the device's packed self-play (each shard's arrays as .npy files, see device_selfplay.sh)
back into self-play folders: each shard re-zipped as shard-NNNNN.npz and its manifest entry's
sha256 and bytes set to the new file's (a zip records the time it was written, so the bytes
cannot be the device's); the arrays are the device's, checked against the positions and games
the entry lists.  The manifest gains "repacked" saying so.

    python repack.py RAW_FOLDER OUT_FOLDER      # e.g. data/gen2/raw/p2 data/gen2/p2
"""
import hashlib
import io
import json
import sys
from pathlib import Path

import numpy as np

ORDER = ["x", "players", "seat", "game", "ply", "win", "score", "rank", "action", "q", "legal",
         "pol_start", "pol_action", "pol_visits"]


def main(raw: str, out: str) -> None:
    raw, out = Path(raw), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    m = json.loads((raw / "manifest.json").read_text())
    for e in m["shards"]:
        d = raw / e["file"].removesuffix(".npz")
        arrays = {k: np.load(d / f"{k}.npy", allow_pickle=False) for k in ORDER}
        assert set(p.stem for p in d.glob("*.npy")) == set(ORDER), d
        assert len(arrays["x"]) == e["positions"], e
        assert len(np.unique(arrays["game"])) == e["games"], e
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        data = buf.getvalue()
        (out / e["file"]).write_bytes(data)
        e["sha256"], e["bytes"] = hashlib.sha256(data).hexdigest(), len(data)
    m["repacked"] = ("shards re-zipped after the transfer from the machine that played them "
                     "(benchmarks/results/2026-11-26-gen2/repack.py): same arrays, new sha256")
    (out / "manifest.json").write_text(json.dumps(m, indent=1) + "\n")
    print(out, len(m["shards"]), "shards", m["positions"], "positions")


if __name__ == "__main__":
    main(*sys.argv[1:])
