"""Ekonos: the game (rules, state, notation, position files).  Knows nothing of search or CLI."""
from ekonos.errors import (EkonosError, IllegalMoveError, InvalidMoveError, MoveError,
                           PositionError)
from ekonos.files import load_file, save_file
from ekonos.rules import COMPANIES, DECK, PLAYER_TABLE
from ekonos.state import State

__all__ = ["State", "EkonosError", "MoveError", "InvalidMoveError", "IllegalMoveError",
           "PositionError", "load_file", "save_file", "COMPANIES", "DECK", "PLAYER_TABLE"]
