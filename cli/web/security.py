"""The web board's guard: one ASGI middleware in front of every request.

A local game server is reachable by every web page the person visits (their browser can send
requests to 127.0.0.1), so each request must prove it comes from the page we served:

* **Host** must be the address we are bound to (`127.0.0.1:P`, `localhost:P`, `[::1]:P`, or the
  `--host` given): a DNS-rebinding page has its own name in Host, and is refused (421... we use
  403 with a message);
* **token**: a random secret printed in the URL (`/?token=...`); the first request carrying it
  gets it as an HttpOnly, SameSite=Strict cookie and is redirected to the bare URL, so the token
  leaves the address bar; every later request must carry the cookie (or the token);
* **Origin** of a POST (and of a websocket, if one is ever added) must be our own origin, so
  another site cannot make the person's browser decide moves (the cookie is SameSite=Strict
  too);
* **bodies** are read whole before the app runs, at most `max_body` bytes (Content-Length
  checked first, then the bytes as they arrive): 413 beyond it;
* every answer carries a Content-Security-Policy (`'self'` only), no-referrer (the token never
  leaks in a Referer), nosniff and frame-ancestors none; and `Cache-Control: no-store` unless
  the app set its own (the static files, kept by the browser under their content's hash).

Refusals are JSON `{"error": "..."}` with a 4xx status.
"""
from __future__ import annotations

import hmac
import json
import secrets
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

COOKIE = "ekonos_token"
MAX_BODY = 4096
LOOPBACK = ("127.0.0.1", "localhost", "::1")

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


def new_token() -> str:
    """A fresh secret for the URL: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host header values a request may carry for a server bound to `host`:`port`."""
    names = set(LOOPBACK) if host in LOOPBACK else {host}
    out = set()
    for name in names:
        shown = f"[{name}]" if ":" in name else name
        out.add(f"{shown}:{port}")
        if port == 80:
            out.add(shown)
    return out


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Guard:
    """ASGI middleware: Host, token/cookie, Origin and body size, before the app sees anything.

    `hosts` are the Host values accepted (`allowed_hosts`); the origins accepted are
    `http://` + each of them."""

    def __init__(self, app, token: str, hosts: set[str], max_body: int = MAX_BODY):
        self.app = app
        self.token = token
        self.hosts = {h.lower() for h in hosts}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        try:
            fresh = self._check(scope)
        except Refused as e:
            return await _refuse(scope, receive, send, e.status, e.message)
        if fresh:                          # the token came in the URL: cookie, then clean URL
            return await self._welcome(scope, send)
        if scope["type"] == "http" and scope.get("method") not in ("GET", "HEAD"):
            try:
                body = await self._read_body(scope, receive)
            except Refused as e:
                return await _refuse(scope, receive, send, e.status, e.message)
            if body is None:                # the client went away
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, self._with_headers(send))

    # -- the checks -------------------------------------------------------------------------
    def _check(self, scope) -> bool:
        """Refused, or True when the token came in the query string (a first visit)."""
        headers = _headers(scope)
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            raise Refused(403, f"refused: the Host header {host or '(none)'!r} is not this "
                               "server's address (DNS rebinding protection)")
        method = scope.get("method", "GET")
        if scope["type"] == "websocket" or method not in ("GET", "HEAD"):
            origin = headers.get("origin")
            if origin is None or origin.lower() not in self.origins:
                raise Refused(403, f"refused: the Origin {origin or '(none)'!r} is not this "
                                   "server's page")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = query.get("token", [None])[0]
        if given is not None and hmac.compare_digest(given.encode(), self.token.encode()):
            return scope["type"] == "http" and method == "GET"
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:                  # a malformed cookie header: as if none were sent
            cookie = SimpleCookie()
        morsel = cookie.get(COOKIE)
        if morsel is not None and hmac.compare_digest(morsel.value.encode(), self.token.encode()):
            return False
        raise Refused(403, "refused: this page needs the link `ekonos serve` printed (with its "
                           "token)")

    async def _welcome(self, scope, send) -> None:
        """Set the cookie and send the browser to the same path without the token."""
        path = scope.get("path", "/") or "/"
        headers = [(b"location", path.encode()),
                   (b"set-cookie", f"{COOKIE}={self.token}; HttpOnly; SameSite=Strict; "
                                   f"Path=/".encode()),
                   (b"content-length", b"0")] + SECURITY_HEADERS
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _read_body(self, scope, receive) -> bytes | None:
        """The whole request body, refused (413) past max_body bytes, declared or sent."""
        too_big = Refused(413, f"refused: the request body is larger than {self.max_body} bytes")
        declared = _headers(scope).get("content-length")
        if declared is not None:
            if not declared.isdigit():
                raise Refused(400, "refused: a bad Content-Length header")
            if int(declared) > self.max_body:
                raise too_big
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            if len(body) > self.max_body:
                raise too_big
            if not message.get("more_body", False):
                return body

    def _with_headers(self, send):
        """The security headers on every answer; `no-store` unless the app said how to cache
        (the page's static files, cli.web.page)."""
        async def sending(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                headers = list(message.get("headers", []))
                own = any(k.lower() == b"cache-control" for k, _ in headers)
                message["headers"] = headers + [h for h in SECURITY_HEADERS
                                                if not (own and h[0] == b"cache-control")]
            await send(message)
        return sending


def _replay(body: bytes, receive):
    """A `receive` that gives the body already read, then waits on the real one."""
    sent = False

    async def replay():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replay


def _headers(scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


async def _refuse(scope, receive, send, status: int, message: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())] + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": body})
