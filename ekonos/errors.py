"""Exceptions of the game layer.  All subclass ValueError and carry the bad input in the message."""


class EkonosError(ValueError):
    """Base class of every error the game layer raises on bad input."""


class MoveError(EkonosError):
    """A move that cannot be applied: `text` is the input, `reason` says why, `legal` lists the
    canonical texts that would be accepted here (may be empty)."""

    def __init__(self, text: str, reason: str, legal: list[str] | None = None):
        self.text = text
        self.reason = reason
        self.legal = list(legal or [])
        super().__init__(f"{text!r}: {reason}")


class InvalidMoveError(MoveError):
    """The text is not a move in the notation of docs/position-format.md (or is ambiguous)."""


class IllegalMoveError(MoveError):
    """The text is a well-formed move, but not legal in this position."""


class PositionError(EkonosError):
    """A position file that breaks the format or describes an impossible state."""

    def __init__(self, field: str, reason: str):
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}" if field else reason)
