"""The web server's limits, with real sockets against `ekonos serve` on 127.0.0.1 (a child
process on a free port, short limits through EKONOS_WEB_LIMITS): an idle connection and one
whose headers trickle in are closed within the header time-out, a body that never arrives gets
408 and the connection is closed, and past the cap a new connection gets 503 at once."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from cli.web.limits import ENV, Limits, current  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SLACK = 4.0          # seconds beyond a time-out a busy machine may take to close


class Server:
    def __init__(self, tmp: Path, limits: str, host: str = "127.0.0.1"):
        env = {**os.environ, "PYTHONPATH": str(REPO), "EKONOS_DATA_DIR": str(tmp), ENV: limits}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--no-browser", "--port", "0",
             "--host", host, "--ai", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
            stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        self.url = None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"http://([\d.]+):(\d+)/\?token=(\S+)", line)
            if m:
                self.host, self.port, self.token = m.group(1), int(m.group(2)), m.group(3)
                self.url = line.strip()
                break
        if self.url is None:
            self.stop()
            pytest.fail("ekonos serve did not print its link")

    def connect(self) -> socket.socket:
        s = socket.create_connection((self.host, self.port), timeout=10)
        return s

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("serve"), "header=0.8,body=0.8,keepalive=0.8")
    yield srv
    srv.stop()


def closed_within(s: socket.socket, seconds: float) -> tuple[float, bytes]:
    """Read until the server closes; (seconds it took, what it sent)."""
    start = time.monotonic()
    got = b""
    s.settimeout(seconds)
    while True:
        try:
            chunk = s.recv(4096)
        except (socket.timeout, TimeoutError):
            raise AssertionError(f"still open after {seconds} s (got {got[:80]!r})") from None
        except ConnectionResetError:
            break
        if not chunk:
            break
        got += chunk
    return time.monotonic() - start, got


def test_an_idle_connection_is_closed(server):
    with server.connect() as s:
        took, got = closed_within(s, 0.8 + SLACK)
    assert got.startswith(b"HTTP/1.1 408") and took >= 0.5


def test_headers_trickling_in_are_cut_at_the_time_out(server):
    with server.connect() as s:
        start = time.monotonic()
        for b in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n":     # a byte every 0.1 s, never done
            try:
                s.sendall(bytes([b]))
            except OSError:
                break
            time.sleep(0.1)
            if time.monotonic() - start > 0.8 + SLACK:
                break
        took, _ = closed_within(s, 0.8 + SLACK)
        assert time.monotonic() - start < 0.8 + 2 * SLACK


def _post(server, declared: int, sent: bytes) -> bytes:
    origin = f"http://{server.host}:{server.port}"
    return (f"POST /api/move?token={server.token} HTTP/1.1\r\nHost: {server.host}:{server.port}"
            f"\r\nOrigin: {origin}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {declared}\r\n\r\n").encode() + sent


def test_a_body_that_never_arrives_gets_408_and_is_closed(server):
    with server.connect() as s:
        s.sendall(_post(server, 4000, b'{"move": "'))           # 10 of 4,000 bytes
        took, got = closed_within(s, 0.8 + SLACK)
    assert got.startswith(b"HTTP/1.1 408"), got[:200]
    assert b"connection: close" in got.lower()


def test_a_normal_request_is_answered_and_the_idle_keep_alive_closed(server):
    with server.connect() as s:
        s.sendall(f"GET /?token={server.token} HTTP/1.1\r\nHost: {server.host}:{server.port}"
                  "\r\n\r\n".encode())
        took, got = closed_within(s, 0.8 + SLACK)
    assert got.startswith(b"HTTP/1.1 303"), got[:200]


def test_past_the_cap_a_connection_gets_503_at_once(tmp_path):
    srv = Server(tmp_path, "header=30,connections=4")
    held = []
    try:
        held = [srv.connect() for _ in range(4)]
        time.sleep(0.3)
        extra = [srv.connect() for _ in range(3)]
        for s in extra:
            took, got = closed_within(s, SLACK)
            assert got.startswith(b"HTTP/1.1 503"), got
            s.close()
        for s in held:                       # the others are untouched: still open
            s.settimeout(0.2)
            with pytest.raises((socket.timeout, TimeoutError)):
                s.recv(1)
        for s in held:
            s.close()
        time.sleep(0.3)
        with srv.connect() as s:             # freed: served again
            s.sendall(f"GET /?token={srv.token} HTTP/1.1\r\nHost: {srv.host}:{srv.port}\r\n"
                      "Connection: close\r\n\r\n".encode())
            _, got = closed_within(s, SLACK + 5)
        assert got.startswith(b"HTTP/1.1 303"), got[:200]
    finally:
        for s in held:
            s.close()
        srv.stop()


def test_serve_listens_on_any_loopback_address(tmp_path):
    srv = Server(tmp_path, "header=5", host="127.0.0.2")
    try:
        assert srv.host == "127.0.0.2"
        with srv.connect() as s:
            s.sendall(f"GET /?token={srv.token} HTTP/1.1\r\nHost: 127.0.0.2:{srv.port}\r\n"
                      "Connection: close\r\n\r\n".encode())
            _, got = closed_within(s, SLACK + 5)
        assert got.startswith(b"HTTP/1.1 303"), got[:200]
    finally:
        srv.stop()


def test_the_limits_setting(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    assert current() == Limits()
    monkeypatch.setenv(ENV, "header=0.5, connections=8")
    assert current() == Limits(header=0.5, connections=8)
    for bad in ("header=x", "nope=1", "body=0", "connections=1e9"):
        monkeypatch.setenv(ENV, bad)
        with pytest.raises(ValueError, match=ENV):
            current()
