"""The `ekonos` commands, one module per family: positions (new, show, apply), hint, arena.

Each module defines plain click commands over the library (`ekonos`, `search`) and the
rendering (`cli.render`); `cli.main` registers them on the group.  A command reports bad input
by raising (`cli.errors`); it never prints an error itself.
"""
