"""The web board's guard: one ASGI middleware in front of every request.

A local game server is reachable by every web page the person visits (their browser can send
requests to 127.0.0.1), so each request must prove it comes from the page we served:

* **Host** must be the address we are bound to (`127.0.0.1:P`, `localhost:P`, `[::1]:P`, or the
  `--host` given; on a wildcard address, any IP address with our port): a DNS-rebinding page
  has its own name in Host, and is refused (421... we use 403 with a message);
* **token**: a random secret printed in the URL (`/?token=...`); the first request carrying it
  gets it as an HttpOnly, SameSite=Strict cookie and is redirected to the bare URL, so the token
  leaves the address bar; every later request must carry the cookie (or the token);
* **Origin** of a POST (and of a websocket, if one is ever added) must be our own origin, so
  another site cannot make the person's browser decide moves (the cookie is SameSite=Strict
  too);
* **bodies** are read whole before the app runs, at most `max_body` bytes (Content-Length
  checked first, then the bytes as they arrive): 413 beyond it; within `body_timeout` seconds
  (a client declaring more than it sends): 408 past it, and the connection closed;
* every answer carries a Content-Security-Policy (`'self'` only), no-referrer (the token never
  leaks in a Referer), nosniff and frame-ancestors none; and `Cache-Control: no-store` unless
  the app set its own (the static files, kept by the browser under their content's hash).

Refusals are JSON `{"error": "..."}` with a 4xx status.
"""
from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import secrets
import socket
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

COOKIE = "ekonos_token"
MAX_BODY = 4096
#: Seconds to read a request's whole body (cli/web/limits.py says the server's other limits).
BODY_TIMEOUT = 10.0
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


# -- where the server listens: one rule for --host ------------------------------------------

@dataclass(frozen=True)
class Listen:
    """What `--host` means: the address to bind, how to show it in a URL, and its kind:
    "loopback" (every 127.0.0.0/8 address and ::1: only this computer), "wildcard" (every
    interface: 0.0.0.0, ::, and the spellings the system reads as them: 0, 0x0,
    000.000.000.000, ::0) or "remote" (any other address).  The last two need --allow-remote."""

    given: str
    address: str
    kind: str

    @property
    def url_host(self) -> str:
        """The host of the printed link: on a wildcard, this computer's loopback address."""
        if self.kind == "wildcard":
            return "[::1]" if ":" in self.address else "127.0.0.1"
        return f"[{self.address}]" if ":" in self.address else self.address


def parse_host(text: str) -> Listen:
    """`--host` text as an address (ValueError saying why not): an IPv4 or IPv6 address (in
    brackets or not), `localhost`, the short IPv4 forms the system accepts (`0`, `127.1`,
    `0x7f.1`), or a host name, resolved."""
    name = text.strip()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    addr: ipaddress.IPv4Address | ipaddress.IPv6Address
    if name == "":
        addr = ipaddress.IPv4Address(0)
    elif name.lower() == "localhost":
        addr = ipaddress.IPv4Address("127.0.0.1")
    else:
        try:
            addr = ipaddress.ip_address(name)
        except ValueError:
            try:                                   # 0, 0x0, 127.1, 000.000.000.000 ...
                addr = ipaddress.IPv4Address(socket.inet_aton(name))
            except (OSError, ValueError):
                addr = _resolve(name)
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped                    # ::ffff:127.0.0.1 is 127.0.0.1
    kind = "wildcard" if addr.is_unspecified else "loopback" if addr.is_loopback else "remote"
    return Listen(text, str(addr), kind)


def _resolve(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    if not name or len(name) > 253 or not name.isascii() or any(c in name for c in "/ \0"):
        raise ValueError(f"{name!r} is not an address or a host name")
    try:
        infos = socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise ValueError(f"cannot resolve {name!r} ({getattr(e, 'strerror', None) or e})") \
            from None
    return ipaddress.ip_address(str(infos[0][4][0]).split("%")[0])


class AllowedHosts:
    """The Host header values a request may carry (see `allowed_hosts`); also the origins
    (`http://` + a Host value accepted)."""

    def __init__(self, names: set[str], port: int, any_address: bool = False):
        self.port = port
        self.any_address = any_address
        self.exact = set()
        for name in names:
            shown = f"[{name}]" if ":" in name else name
            self.exact.add(f"{shown}:{port}".lower())
            if port == 80:
                self.exact.add(shown.lower())

    def __contains__(self, host: object) -> bool:
        if not isinstance(host, str):
            return False
        host = host.lower()
        if host in self.exact:
            return True
        return self.any_address and _ip_literal_with_port(host, self.port)

    def __iter__(self):
        return iter(sorted(self.exact))

    def origin_ok(self, origin: str | None) -> bool:
        return origin is not None and origin.lower().startswith("http://") \
            and origin[len("http://"):] in self


def _ip_literal_with_port(host: str, port: int) -> bool:
    """An IP address (IPv6 in brackets) with `port` (or no port for 80): a name that no DNS
    rebinding can give, so a server on every interface may accept it."""
    if host.startswith("["):
        addr, _, rest = host[1:].partition("]")
        if rest and not rest.startswith(":"):
            return False
        given = rest[1:]
    else:
        addr, _, given = host.partition(":")
    if given != str(port) and not (given == "" and port == 80):
        return False
    try:
        ipaddress.ip_address(addr)
    except ValueError:
        return False
    return True


def allowed_hosts(host: str | Listen, port: int) -> AllowedHosts:
    """The Host header values a request may carry for a server bound to `host`:`port`: the
    address as given and as parsed; the loopback names for 127.0.0.1 and ::1; and, on a
    wildcard, this computer's names and any IP address (with the port)."""
    listen = host if isinstance(host, Listen) else parse_host(host)
    names = {listen.given.strip().strip("[]"), listen.address}
    if listen.address in ("127.0.0.1", "::1"):
        names |= set(LOOPBACK)
    wildcard = listen.kind == "wildcard"
    if wildcard:
        names |= set(LOOPBACK) | {socket.gethostname()}
    return AllowedHosts({n for n in names if n}, port, any_address=wildcard)


def _exact(hosts: set[str]) -> AllowedHosts:
    """Host values given as text ("127.0.0.1:8737"), accepted exactly."""
    out = AllowedHosts(set(), 0)
    out.exact = {h.lower() for h in hosts}
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

    def __init__(self, app, token: str, hosts: AllowedHosts | set[str],
                 max_body: int = MAX_BODY, body_timeout: float = BODY_TIMEOUT):
        self.app = app
        self.body_timeout = body_timeout
        self.token = token
        self.hosts = hosts if isinstance(hosts, AllowedHosts) else \
            AllowedHosts(set(), 0) if not hosts else _exact(hosts)
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
            except Refused as e:               # the rest of the body is never read: close
                return await _refuse(scope, receive, send, e.status, e.message, close=True)
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
            if not self.hosts.origin_ok(origin):
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
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise Refused(408, f"refused: the request body did not arrive within "
                                   f"{self.body_timeout:g} s") from None
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


async def _refuse(scope, receive, send, status: int, message: str, close: bool = False) -> None:
    """A JSON refusal; `close`: the connection is closed after it (a body left unread)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"error": message}).encode()
    closing = [(b"connection", b"close")] if close else []
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())] + closing
                + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": body})
