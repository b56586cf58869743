"""`ekonos serve`: the game against the AI on a board in the browser (cli/web/).

The same `GameSession` as `ekonos play`, with the same autosave and records: a game started
here resumes with `ekonos play --load <autosave>`, and the other way round.  The server binds
127.0.0.1 unless told otherwise; the URL it prints carries a secret token (kept in the data
folder, so a restarted server accepts an open page again).
"""
from __future__ import annotations

import os
import socket
import sys
import threading
import webbrowser
from pathlib import Path

import click

from cli import storage
from cli.busy import BESIDE, open_beside
from cli.busy import choose as busy_choice, refusal as busy_refusal
from cli.errors import InputError
from cli.options import example, level_option, seed_option
from cli.session import GameSession, SessionError

DEFAULT_PORT = 8737
TOKEN_FILE = "web-token"


def _token(folder: Path) -> str:
    """The server's secret: read from the data folder (mode 0600), made on first use."""
    from cli.web.security import new_token
    path = folder / TOKEN_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 32 and text.replace("-", "").replace("_", "").isalnum():
            return text
    except (OSError, UnicodeDecodeError):
        pass
    token = new_token()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(token + "\n")
    except OSError:
        pass                               # not kept: a restart will need the new link
    return token


def _unfinished(path: Path) -> bool:
    try:
        data = storage.read_json(path)
    except storage.StorageError:
        return False
    return isinstance(data, dict) and data.get("step") not in (None, "over")


def _session(ai, level, seat, seed, load) -> GameSession:
    """The game to serve: --load's; else the autosave's unfinished game when no setting asks
    for a new one (only --level may be given: it changes the resumed game's level); else a new
    game with `ekonos play`'s defaults (GameSession.new's: 3 AI opponents at level 3, seat 0)."""
    auto = storage.autosave_path()
    try:
        return _open(ai, level, seat, seed, load, auto)
    except storage.AutosaveBusy as busy:        # another process plays there: never taken
        if load is not None or not sys.stdin.isatty():
            raise InputError(busy_refusal(busy, load is not None)) from None
        from rich.console import Console
        if busy_choice(busy, Console(), input, can_watch=False) != BESIDE:
            raise SystemExit(0) from None
        return open_beside(lambda path: _open(ai, level, seat, seed, load, path), auto)


def _open(ai, level, seat, seed, load, auto: Path) -> GameSession:
    kwargs = dict(autosave=auto, record_dir=storage.games_dir(), owner="ekonos serve")
    try:
        if load is not None:
            if ai is not None or seed is not None:
                raise click.UsageError("--ai and --seed cannot be used with --load: the saved "
                                       "game fixes them (--level and --seat may change)")
            return GameSession.load(load, level=level, seat=seat, **kwargs)
        if ai is None and seed is None and seat is None and _unfinished(auto):
            return GameSession.load(auto, level=level, **kwargs)        # resume
        given = {k: v for k, v in (("ai", ai), ("level", level), ("seat", seat)) if v is not None}
        return GameSession.new(seed=seed, **given, **kwargs)
    except SessionError as e:
        if e.setting is not None:
            raise click.BadParameter(str(e), param_hint=f"'--{e.setting}'") from None
        raise


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket.  Its protocol is named (IPPROTO_TCP, not 0): asyncio turns Nagle's
    algorithm off (TCP_NODELAY) only on sockets that say they are TCP, and with Nagle on, an
    answer's body waits behind its headers for the browser's delayed ACK, 40 ms a request."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {e.strerror or e} (try another "
                         "--port)") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


@click.command(epilog=example("ekonos serve --ai 1 --level 2",
                              "ekonos serve --load ~/.local/share/ekonos/autosave.json",
                              "ekonos serve --port 9000 --no-browser"))
@click.option("--ai", type=click.IntRange(1, 5), default=None,
              help="AI opponents, 1-5 (default 3, as `ekonos play`).")
@level_option(help="AI strength (default 3, as `ekonos play`; the page can change it).")
@click.option("--seat", type=click.IntRange(0, 5), default=None,
              help="Your seat, 0 = first (default 0; seat order is turn order).")
@seed_option(help="Seed of the deal (default: random).")
@click.option("--load", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Resume a saved game (or start from a position file).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; other than loopback (127.0.0.0/8, ::1) needs "
                   "--allow-remote (a wildcard such as 0.0.0.0: every interface).")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--allow-remote", is_flag=True,
              help="Allow a --host other than loopback, or a wildcard (anyone with the link "
                   "can play).")
@click.option("--pace", type=click.FloatRange(0, 10), default=0.6, show_default=True,
              help="Seconds between two AI decisions, to follow them on the board.")
@click.option("--no-browser", is_flag=True, help="Print the link; do not open a browser.")
def serve(ai, level, seat, seed, load, host, port, allow_remote, pace, no_browser) -> int:
    """Play against the AI on a board in your browser.

    Starts a local server (127.0.0.1) and opens the board.  It is the game of `ekonos play`:
    the same levels and defaults, the same autosave (resume it in either), and at the end the
    review of your decisions (as `ekonos review`).  Ctrl-C stops the server; the game is saved
    after every decision.

    One difference from `ekonos play`, which starts a new game (keeping an unfinished one
    aside): without --load, --ai, --seat and --seed, serve resumes the unfinished game of the
    autosave, so a page left open carries on after the server is restarted.
    """
    try:
        import uvicorn

        from cli.web.app import WebGame, create_app
        from cli.web.limits import current as current_limits, server_settings
        from cli.web.security import allowed_hosts, parse_host
    except ImportError as e:
        raise InputError(f"ekonos serve needs the web extra ({e.name} is missing): "
                         "pip install 'ekonos[web]'") from None
    try:
        limits = current_limits()
    except ValueError as e:
        raise InputError(str(e)) from None
    try:
        listen = parse_host(host)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="'--host'") from None
    if listen.kind != "loopback" and not allow_remote:
        what = "every interface of this computer" if listen.kind == "wildcard" else \
            f"{listen.address}, not a loopback address"
        raise click.BadParameter(f"{host!r} listens on {what}: anyone who can reach it and has "
                                 "the link could play; add --allow-remote to do it anyway",
                                 param_hint="'--host'")
    host = listen.address
    sock = _bind(host, port)             # the port first: a busy one changes no file
    try:
        session = _session(ai, level, seat, seed, load)
    except BaseException:
        sock.close()
        raise
    port = sock.getsockname()[1]
    if listen.kind != "loopback":
        where = "every interface" if listen.kind == "wildcard" else f"{host}:{port}"
        click.echo(f"Warning: listening on {where} (port {port}), not only this computer; the "
                   "link is the only protection (plain HTTP).", err=True)
    token = _token(storage.data_dir())
    url = f"http://{listen.url_host}:{port}/?token={token}"

    def new_session(**settings) -> GameSession:
        return GameSession.new(autosave=session.autosave, record_dir=storage.games_dir(),
                               owner="ekonos serve", **settings)

    game = WebGame(session, new_session, pace=pace)
    app = create_app(game, token, allowed_hosts(listen, port), body_timeout=limits.body)
    for note in session.notes:
        click.echo(f"Note: {note}")
    if session.kept_unfinished is not None:
        click.echo(f"Note: your unfinished game was kept in {session.kept_unfinished}")
    click.echo(f"Ekonos board: {url}")
    click.echo(f"The game is saved in {session.autosave} after every decision. Ctrl-C stops.")
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:          # Ctrl-C: end the open streams
            game.close_streams()                            # too, so the server can stop
            if self.should_exit:    # already stopping (within timeout_graceful_shutdown): a
                return              # forced exit would skip the lifespan's end, a traceback
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=3,
                            **server_settings(limits))
    try:
        Server(config).run(sockets=[sock])
    finally:
        game.session.close()
    return 0
