"""The lab: what measures the bots, never what plays.

`arena` (games between bots, seats rotated, fixed seeds) runs its blocks through `backends`
(this process, a process pool, Ray); `ladder` puts many bots on one Elo scale (`ladder_fit` is
its maximum-likelihood fit and file); `ratings` and `sprt` are the statistics (Elo with
intervals, the sequential test); `suite` builds the position suite and `suite_score` scores a
bot on it.  The tools behind `ekonos lab ...` are here too: `pool_sprt` (one SPRT over
several arena runs), `think_time` (time per decision of several specs), `suite_pairs` (paired
loss differences on one suite), `pointless_moves` (sales bought back to the same position).

The lab may import the playing part (`search.*`); the playing part never imports the lab.
"""
