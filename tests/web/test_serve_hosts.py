"""`serve --host`: one rule.  Every 127.0.0.0/8 address and ::1 is loopback; any wildcard,
however it is spelled, and any other address need --allow-remote; the Host header check
accepts what the rule lets the server listen on."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")

from cli.main import main  # noqa: E402
from cli.web.security import allowed_hosts, parse_host  # noqa: E402

CASES = [
    # text, kind, address bound
    ("127.0.0.1", "loopback", "127.0.0.1"),
    ("127.0.0.2", "loopback", "127.0.0.2"),
    ("127.255.255.254", "loopback", "127.255.255.254"),
    ("127.1", "loopback", "127.0.0.1"),
    ("localhost", "loopback", "127.0.0.1"),
    ("LocalHost", "loopback", "127.0.0.1"),
    ("::1", "loopback", "::1"),
    ("[::1]", "loopback", "::1"),
    ("0:0:0:0:0:0:0:1", "loopback", "::1"),
    ("::ffff:127.0.0.3", "loopback", "127.0.0.3"),
    ("0", "wildcard", "0.0.0.0"),
    ("0.0.0.0", "wildcard", "0.0.0.0"),
    ("0x0", "wildcard", "0.0.0.0"),
    ("000.000.000.000", "wildcard", "0.0.0.0"),
    ("", "wildcard", "0.0.0.0"),
    ("::", "wildcard", "::"),
    ("::0", "wildcard", "::"),
    ("[::]", "wildcard", "::"),
    ("192.168.1.20", "remote", "192.168.1.20"),
    ("10.0.0.1", "remote", "10.0.0.1"),
    ("128.0.0.1", "remote", "128.0.0.1"),
    ("fe80::1", "remote", "fe80::1"),
    ("::ffff:192.168.1.20", "remote", "192.168.1.20"),
]


@pytest.mark.parametrize("text,kind,address", CASES, ids=[c[0] or "empty" for c in CASES])
def test_the_rule(text, kind, address):
    listen = parse_host(text)
    assert (listen.kind, listen.address) == (kind, address)


@pytest.mark.parametrize("text", ["no.such.host.invalid", "1.2.3.4.5", "::g", "a b", "a/b"])
def test_what_is_no_address_is_refused(text):
    with pytest.raises(ValueError):
        parse_host(text)


@pytest.mark.parametrize("text,kind", [(c[0], c[1]) for c in CASES if c[1] != "loopback"],
                         ids=[c[0] or "empty" for c in CASES if c[1] != "loopback"])
def test_serve_needs_allow_remote_beyond_loopback(tmp_path, monkeypatch, text, kind):
    monkeypatch.setenv("EKONOS_DATA_DIR", str(tmp_path))
    r = CliRunner().invoke(main, ["serve", "--no-browser", "--host", text])
    lines = r.stderr.splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and "--allow-remote" in lines[0], r.output
    assert ("every interface" in lines[0]) == (kind == "wildcard")


def test_the_host_header_check_accepts_what_the_rule_allows():
    hosts = allowed_hosts("127.0.0.2", 8000)
    assert "127.0.0.2:8000" in hosts and "127.0.0.2:8001" not in hosts
    assert "evil.example:8000" not in hosts
    std = allowed_hosts("127.0.0.1", 8000)
    assert {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"} <= set(std)
    assert "[::1]:8000" in allowed_hosts("::1", 8000)
    assert "192.168.1.20:80" in allowed_hosts("192.168.1.20", 80)
    assert "192.168.1.20" in allowed_hosts("192.168.1.20", 80)
    wild = allowed_hosts("0x0", 8000)     # every interface: any IP address, never a name
    for ok in ("127.0.0.1:8000", "192.168.1.20:8000", "[fe80::1]:8000", "localhost:8000"):
        assert ok in wild, ok
    for bad in ("evil.example:8000", "192.168.1.20:8001", "192.168.1.20", "[::1]x:8000",
                "1.2.3.4.5:8000"):
        assert bad not in wild, bad
    assert wild.origin_ok("http://192.168.1.20:8000")
    assert not wild.origin_ok("http://evil.example:8000") and not wild.origin_ok(None)
