"""The web server's limits: time-outs and a cap on open connections, so slow or idle clients
cannot hold the server's sockets and files.

uvicorn (0.54) gives a keep-alive time-out between requests (`timeout_keep_alive`), a cap on
the header size (`h11_max_incomplete_event_size`) and a 503 past `limit_concurrency`; but it
has no time-out for a request's headers (a client sending a byte a second keeps its connection
for ever: uvicorn's keep-alive timer stops at the first byte), and its concurrency limit
answers 503 only once a request's headers are in.  `LimitedH11Protocol` adds both:

* **headers**: from the moment a connection opens (or a response ends), a request's headers
  must be complete within `header` seconds, however slowly they trickle in; past it: 408 and
  the connection closed;
* **connections**: past `connections` open connections, a new one gets 503 and is closed at
  once, before anything is read;
* **bodies**: the Guard (cli/web/security.py) reads a request's body whole within `body`
  seconds (408 and the connection closed past it);
* **idle**: between requests, uvicorn's keep-alive time-out (`keepalive` seconds).

The environment variable EKONOS_WEB_LIMITS changes them (tests, a slow network), e.g.
``EKONOS_WEB_LIMITS=header=0.5,body=0.5,keepalive=1,connections=8``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace

ENV = "EKONOS_WEB_LIMITS"


@dataclass(frozen=True)
class Limits:
    header: float = 10.0          # seconds for a request's headers
    body: float = 10.0            # seconds for a request's body
    keepalive: float = 5.0        # seconds idle between two requests
    connections: int = 64         # open connections at once (a browser opens about 6)
    header_bytes: int = 16384     # the largest request head


def current() -> Limits:
    """The limits, the environment's changes applied (ValueError for a bad one)."""
    text = os.environ.get(ENV, "").strip()
    limits = Limits()
    if not text:
        return limits
    kinds = {f.name: f.type for f in fields(Limits)}
    changes = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        name = name.strip()
        if name not in kinds:
            raise ValueError(f"{ENV}: {name!r} is not one of {', '.join(kinds)}")
        try:
            number = float(value) if kinds[name] == "float" else int(value)
        except ValueError:
            raise ValueError(f"{ENV}: {name} must be a number, not {value!r}") from None
        if not 0 < number <= 86400:
            raise ValueError(f"{ENV}: {name} must be above 0 and at most 86400")
        changes[name] = number
    return replace(limits, **changes)


def server_settings(limits: Limits | None = None) -> dict:
    """uvicorn.Config's keyword arguments for these limits (its HTTP protocol included)."""
    limits = limits or current()
    return {"http": protocol(limits), "timeout_keep_alive": limits.keepalive,
            "limit_concurrency": limits.connections + 1,     # ours refuses first
            "h11_max_incomplete_event_size": limits.header_bytes}


_CLOSE = b"Connection: close\r\nContent-Length: 0\r\n\r\n"
TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\n" + _CLOSE
BUSY = b"HTTP/1.1 503 Service Unavailable\r\n" + _CLOSE


def protocol(limits: Limits):
    """uvicorn's h11 protocol with a header time-out and a cap on open connections."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class LimitedH11Protocol(H11Protocol):
        _deadline = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > limits.connections:
                transport.write(BUSY)
                transport.close()
                return
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:      # the headers are in
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm()                                 # the next request's headers

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(limits.header, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                if self.conn.our_state is h11.IDLE:
                    self.transport.write(TIMED_OUT)
                self.transport.close()

    return LimitedH11Protocol
