"""Ekonos: the game (rules, state, notation, position files).  Knows nothing of search or CLI."""
