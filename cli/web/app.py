"""The web board: a Starlette app around one `GameSession`, the same object `ekonos play` drives.

* `WebGame` holds the session, runs the AI off the event loop (`ai_turn()`, then `think()` in a
  worker thread, then `commit()`; a decision computed for a position that changed meanwhile is
  dropped by `StaleTurn`), and streams what happens to every open page;
* `create_app(game, token, hosts)` is the ASGI app: the page (cli.web.page), a small JSON API
  and the stream, behind `cli.web.security.Guard` (Host, token cookie, Origin, body size);
* a finished game's review (cli.web.review) runs in a thread of its own, its progress streamed.

The stream is **server-sent events** (`GET /api/stream`): the traffic is one-way (the server
tells, the page asks by POST), it is plain HTTP so the same guard checks it with no second
protocol to secure, and the browser's EventSource reconnects by itself after a reload or a
server restart.  Every message carries the whole position as the person may see it, so a page
that missed messages is right again at the next one; a (re)connection starts with the position.

Every request's answer is computed from the session; the session autosaves after every
decision, so a reload, a closed tab or a restarted server loses nothing.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from ekonos.errors import EkonosError, MoveError
from search.bots import LEVELS
from search.review import DEFAULT_ITERATIONS

from cli.events import DecisionMade, Event, GameOver, Redone, RoundStarted, Undone
from cli.narration import EVEN_NOTE
from cli.session import GameSession, NotYourTurn, SessionError, StaleTurn
from cli.web.page import Assets
from cli.web.replay import Lines, Refused, parse_ply
from cli.web.replay import position as review_position
from cli.web.review import NotOver, Reviews
from cli.web.security import BODY_TIMEOUT, MAX_BODY, Guard
from cli.web.views import decision_json, layout, state_json

MAX_TEXT = 200                 # longest move text accepted
KEEPALIVE = 15.0               # seconds between comment lines on an idle stream
log = logging.getLogger("ekonos.web")


class BadRequest(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class WebGame:
    """The game behind the page: the session (replaced by a new game), the AI runner, the
    pages listening.  `new_session(**settings)` builds a new game's session (with the data
    folder's autosave); `pace` seconds pass between two AI decisions, so a person can follow;
    a review searches `review_iterations` a decision."""

    def __init__(self, session: GameSession, new_session: Callable[..., GameSession],
                 pace: float = 0.0, review_iterations: int = DEFAULT_ITERATIONS):
        self.session = session
        self.new_session = new_session
        self.pace = pace
        self.thinking: int | None = None
        self.error: str | None = None
        # which game the page sees: this server's own id and a count of new games (a page
        # orders the states of one game by version, and takes any state of another game)
        self._boot = secrets.token_hex(4)
        self.games = 1
        self._listeners: set[asyncio.Queue] = set()
        self.closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task | None = None
        self._unsubscribe = session.subscribe(self._on_event)
        self.reviews = Reviews(self.publish, iterations=review_iterations)
        self.lines = Lines()

    # -- what the page is told ----------------------------------------------------------------
    def snapshot(self) -> dict:
        """The position for the person, plus the session's settings and the AI's status."""
        s = self.session
        data = state_json(s.state, s.human, s.decisions)
        data.update({
            "game": f"{self._boot}-{self.games}", "version": s.version, "level": s.level, "levels": sorted(LEVELS),
            "can_undo": s.can_undo(), "can_redo": s.can_redo(),
            "thinking": self.thinking, "error": self.error,
            "autosave": str(s.autosave) if s.autosave_ok else None,
            "autosave_error": s.autosave_error if s.autosave is not None else None,
            "kept_unfinished": str(s.kept_unfinished) if s.kept_unfinished else None,
            "review": self.reviews.status(s),
        })
        return data

    def _on_event(self, event: Event) -> None:
        """A session event (under the session's lock): send it with the position to every page."""
        message: dict[str, Any] = {"kind": type(event).__name__}
        names = list(self.session.names)
        if isinstance(event, DecisionMade):
            message["decision"] = decision_json(event.decision, names)
            message["human"] = event.human
        elif isinstance(event, (Undone, Redone)):
            message["moves"] = [str(d.move) for d in event.decisions]
        elif isinstance(event, RoundStarted):
            message["round"] = event.round
        elif isinstance(event, GameOver):
            message["winners"] = list(event.winners)
        else:
            message["text"] = getattr(event, "reason", "")
        self.publish(message)

    def publish(self, message: dict) -> None:
        """Send `message` (with the position now) to every open stream, from any thread."""
        message = dict(message, state=self.snapshot())
        text = json.dumps(message)
        loop = self._loop
        if loop is None:
            return
        for queue in list(self._listeners):
            loop.call_soon_threadsafe(_offer, queue, text)

    def listen(self) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(maxsize=1000)
        self._listeners.add(queue)
        return queue

    def unlisten(self, queue: asyncio.Queue) -> None:
        self._listeners.discard(queue)

    def close_streams(self) -> None:
        """End every open stream (the server is stopping; the pages will reconnect)."""
        self.closing = True
        loop = self._loop
        if loop is not None:
            for queue in list(self._listeners):
                loop.call_soon_threadsafe(_offer, queue, None)

    # -- the AI ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Bind to the running loop and let the AI play if it is its turn (after a restart)."""
        self._loop = asyncio.get_running_loop()
        self.kick()

    def kick(self) -> None:
        """Start the AI runner unless it runs already (it plays every AI decision due)."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run_ai())

    async def _run_ai(self) -> None:
        while True:
            s = self.session
            if not s.ai_to_move():
                return
            turn = s.ai_turn()
            self.thinking = turn.seat
            self.publish({"kind": "Thinking", "seat": turn.seat})
            try:
                move = await run_in_threadpool(turn.think)
            except Exception as e:                      # a bot failure: say so, stop
                log.exception("the AI failed")
                self.thinking = None
                self.error = f"the AI failed: {e}"
                self.publish({"kind": "Error", "text": self.error})
                return
            self.thinking = None
            if s is not self.session:                   # a new game began meanwhile
                continue
            try:
                s.commit(turn, move)
            except StaleTurn:                           # undo meanwhile: think again
                continue
            if self.pace and s.ai_to_move():
                await asyncio.sleep(self.pace)

    async def wait_idle(self) -> None:
        """Until the AI has made every decision due (tests, shutdown)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    # -- the person's requests -------------------------------------------------------------------
    def decide(self, body: dict) -> None:
        text = body.get("move")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest(400, 'a decision is {"move": "<notation>"}, e.g. '
                                  '{"move": "play 7 place 12"}')
        if len(text) > MAX_TEXT:
            raise BadRequest(400, f"a move is at most {MAX_TEXT} characters")
        self._check_version(body)
        try:
            self.session.decide(text)
        except NotYourTurn as e:
            raise BadRequest(409, str(e)) from None
        except MoveError as e:
            legal = f" (legal here: {', '.join(e.legal)})" if 0 < len(e.legal) <= 8 else ""
            raise BadRequest(400, f"{e.text!r}: {e.reason}{legal}") from None
        except SessionError as e:
            raise BadRequest(409, str(e)) from None
        self.kick()

    def _check_version(self, body: dict) -> None:
        version = body.get("version")
        if version is None:
            return
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest(400, "version must be an integer")
        if version != self.session.version:
            raise BadRequest(409, "the game has moved on since this page was drawn: look again")

    def undo(self) -> None:
        try:
            self.session.undo()
        except SessionError as e:
            raise BadRequest(409, str(e)) from None
        self.kick()

    def redo(self) -> None:
        try:
            self.session.redo()
        except SessionError as e:
            raise BadRequest(409, str(e)) from None
        self.kick()

    def set_level(self, body: dict) -> None:
        level = body.get("level")
        if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
            raise BadRequest(400, f"level must be an integer {min(LEVELS)}-{max(LEVELS)}")
        self.session.set_level(level)
        self.session.autosave_now()                    # the record keeps the level
        self.publish({"kind": "Level", "level": level})

    def new_game(self, body: dict) -> None:
        settings: dict[str, Any] = {}
        for key, low, high in (("ai", 1, 5), ("level", min(LEVELS), max(LEVELS)),
                               ("seat", 0, 5), ("seed", 0, 2**64 - 1)):
            value = body.get(key)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise BadRequest(400, f"{key} must be an integer {low}-{high}")
            settings[key] = value
        unknown = set(body) - {"ai", "level", "seat", "seed"}
        if unknown:
            raise BadRequest(400, f"unknown setting(s): {', '.join(sorted(unknown))}")
        settings.setdefault("ai", self.session.state.nplayers - 1)
        settings.setdefault("level", self.session.level)
        try:
            session = self.new_session(**settings)
        except SessionError as e:
            raise BadRequest(400, str(e)) from None
        self._unsubscribe()
        self.reviews.cancel()                           # the last game's review is not wanted
        self.session.close()                            # (the new one owns the autosave now)
        self.session = session
        self.games += 1
        self.error = None
        self.thinking = None
        self._unsubscribe = session.subscribe(self._on_event)
        self.publish({"kind": "NewGame"})
        self.kick()

    async def hint(self) -> dict:
        s = self.session
        if not s.human_to_move():
            raise BadRequest(409, "a hint is for your own decision: it is not yours now")
        version = s.version
        try:
            result = await run_in_threadpool(s.hint, 3)
        except EkonosError as e:
            raise BadRequest(409, str(e)) from None
        return {"version": version, "iterations": result["iterations"],
                "moves": [{"move": m["move"], "win": m["win"], "win_raw": m["win_raw"],
                           "visits": m["visits"]}
                          for m in result["moves"]],
                "note": EVEN_NOTE if result["even"] else None,
                "exact": bool(result.get("exact"))}

    # -- the review -----------------------------------------------------------------------------
    def start_review(self) -> dict:
        """Begin the review of the finished game (or find it running, or done): its status."""
        try:
            return self.reviews.start(self.session).summary()
        except NotOver as e:
            raise BadRequest(409, str(e)) from None

    def review(self) -> dict:
        """The review's status, with its data once done (409 while the game is on)."""
        s = self.session
        if not s.state.is_over():
            raise BadRequest(409, "the review is for a finished game: this one is not over yet")
        job = self.reviews.job(s)
        if job is None:
            return {"status": "none"}
        return dict(job.summary(), review=job.result)

    def review_position(self, ply_text: str | None) -> dict:
        """The review board at a reviewed decision (cli.web.replay): the position before it."""
        s = self.session
        return review_position(s, self.reviews.job(s), parse_ply(ply_text))

    async def review_line(self, ply_text: str | None) -> dict:
        """The better move's expected line at a reviewed decision (a search off the loop)."""
        s, ply = self.session, parse_ply(ply_text)
        return await run_in_threadpool(self.lines.line, s, self.reviews.job(s), ply,
                                       self.reviews.iterations)


def _offer(queue: asyncio.Queue, text: str | None) -> None:
    try:
        queue.put_nowait(text)
    except asyncio.QueueFull:            # a page that stopped reading: it will resync
        pass


# ---------------------------------------------------------------------------------------------
# The app

async def _json_body(request: Request) -> dict:
    raw = await request.body()
    try:
        data = json.loads(raw.decode("utf-8")) if raw else {}
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise BadRequest(400, "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "the request body must be a JSON object")
    return data


def create_app(game: WebGame, token: str, hosts, max_body: int = MAX_BODY,
               body_timeout: float = BODY_TIMEOUT) -> Guard:
    """The ASGI app for `game`, guarded (cli.web.security)."""

    def answer(handler):
        """A POST endpoint: JSON in, the position out (or {"error"} with its 4xx status)."""
        async def endpoint(request: Request):
            try:
                body = await _json_body(request)
                extra = await handler(body)
            except BadRequest as e:
                return JSONResponse({"error": e.message}, status_code=e.status)
            out = {"state": game.snapshot()}
            if extra:
                out.update(extra)
            return JSONResponse(out)
        return endpoint

    async def do_move(body):
        game.decide(body)

    async def do_undo(body):
        game.undo()

    async def do_redo(body):
        game.redo()

    async def do_level(body):
        game.set_level(body)

    async def do_new(body):
        game.new_game(body)

    async def do_hint(body):
        return {"hint": await game.hint()}

    assets = Assets()
    fixed = layout()

    async def index(request: Request):
        # the layout and the position inside the page: the board draws with no request more
        return assets.page({"layout": fixed, "state": game.snapshot()})

    async def static(request: Request):
        return assets.file(request.path_params["name"], request)

    async def get_state(request: Request):
        return JSONResponse(game.snapshot())

    async def get_layout(request: Request):
        return JSONResponse(fixed)

    async def do_review(body):
        return {"review": game.start_review()}

    async def get_review(request: Request):
        try:
            return JSONResponse(game.review())
        except BadRequest as e:
            return JSONResponse({"error": e.message}, status_code=e.status)

    async def get_review_position(request: Request):
        try:
            return JSONResponse(game.review_position(request.query_params.get("ply")))
        except Refused as e:
            return JSONResponse({"error": e.message}, status_code=e.status)

    async def get_review_line(request: Request):
        try:
            return JSONResponse(await game.review_line(request.query_params.get("ply")))
        except Refused as e:
            return JSONResponse({"error": e.message}, status_code=e.status)

    async def stream(request: Request):
        follow = request.query_params.get("follow", "1") != "0"
        queue = game.listen()

        async def messages():
            try:
                hello = json.dumps({"kind": "Hello", "state": game.snapshot()})
                yield f"event: state\ndata: {hello}\n\n"
                while follow and not game.closing:
                    try:
                        text = await asyncio.wait_for(queue.get(), KEEPALIVE)
                    except asyncio.TimeoutError:
                        yield ": keepalive\n\n"
                        continue
                    if text is None:                    # the server is stopping
                        return
                    yield f"event: state\ndata: {text}\n\n"
            finally:
                game.unlisten(queue)
        return StreamingResponse(messages(), media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    @contextlib.asynccontextmanager
    async def lifespan(app):
        game.start()
        yield
        game.reviews.close()

    routes = [
        Route("/", index),
        Route("/api/layout", get_layout),
        Route("/api/state", get_state),
        Route("/api/stream", stream),
        Route("/api/review", get_review),
        Route("/api/review", answer(do_review), methods=["POST"]),
        Route("/api/review/position", get_review_position),
        Route("/api/review/line", get_review_line),
        Route("/api/move", answer(do_move), methods=["POST"]),
        Route("/api/undo", answer(do_undo), methods=["POST"]),
        Route("/api/redo", answer(do_redo), methods=["POST"]),
        Route("/api/level", answer(do_level), methods=["POST"]),
        Route("/api/new", answer(do_new), methods=["POST"]),
        Route("/api/hint", answer(do_hint), methods=["POST"]),
        Route("/static/{name}", static),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.game = game
    return Guard(app, token, hosts, max_body, body_timeout)
