"""Learning: what makes the learned evaluation's model, never what plays.

`selfplay` plays games and keeps their round starts for the fit.  Playing reads a model through
`search.evaluation` only.

Learning may import the playing part (`search.*`); the playing part never imports it.
"""
