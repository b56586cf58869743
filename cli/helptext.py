"""The `--help` example epilog every ekonos command ends with.

Its own module (it imports nothing) so that `cli.main` can end the group's help with it without
importing the shared options, which need the bots (`search`) for the range of `--level`.
`cli.options` re-exports it for the commands.
"""
from __future__ import annotations


def example(*lines: str) -> str:
    """The --help epilog every ekonos command ends with (\\b keeps the lines as written)."""
    return "\b\nExample:\n" + "\n".join("  " + line for line in lines)
