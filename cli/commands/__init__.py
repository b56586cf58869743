"""The `ekonos` commands, one module per family: positions (new, show, apply), play, hint,
review, serve, arena, ladder, suite, lab, learn, ...

Each module defines plain click commands over the library (`ekonos`, `search`) and the
rendering (`cli.render`); `cli.main` names each in `COMMANDS` and imports it when asked for.
A command reports bad input by raising (`cli.errors`); it never prints an error itself.
"""
