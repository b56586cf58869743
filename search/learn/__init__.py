"""Learning: what makes the learned evaluation's model, never what plays.

`selfplay` plays games and keeps their round starts; `fit` turns those samples into weights
(ridge regression, then the softmax's sharpness) and measures them (log loss, per-cell
diagnosis); `model_file` writes a model file named by its content hash, with its format, the
hash of the features it was fitted for, its command, data manifest and metrics; `train` holds
the steps behind `ekonos learn sample|fit|check`.  Playing reads a model through
`search.evaluation` only.

Learning may import the playing part (`search.*`); the playing part never imports it.
"""
