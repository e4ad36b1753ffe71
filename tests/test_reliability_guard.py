"""Issue 17: limits before work, against a real `tableref serve`: oversize bodies and headers refused
before they are read, connections per client bounded (429 with Retry-After), a slowloris from any
address cannot keep a phone's page from loading, a request that trickles in is closed.

Attackers connect from other loopback addresses (127.0.0.2, ...: all of 127/8 is this machine), as
another device on the Wi-Fi would; the phone from 127.0.0.1."""
from __future__ import annotations

import json
import socket
import time
import urllib.request

import pytest

from reliability_helpers import TOKEN, get_json, post_event, start, stop


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, base, _ = start(tmp_path_factory.mktemp("guard"), "--rules", "ono", "--players", "Ana,Ben,Cy",
                          "--max-client-connections", "40", "--request-timeout", "2")
    yield base
    stop(proc)


def addr(base):
    host, port = base.split("//")[1].split(":")
    return host, int(port)


def connect(base, source="127.0.0.1"):
    s = socket.socket()
    s.settimeout(10)
    s.bind((source, 0))
    s.connect(addr(base))
    return s


def read_all(s, limit=1 << 20) -> bytes:
    out = b""
    try:
        while len(out) < limit:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
    except (ConnectionError, socket.timeout):
        pass
    return out


def stored(base) -> int:
    return len(get_json(base, "/api/tables/main/events")["events"])


def test_a_huge_body_is_refused_before_it_is_read_or_the_token_checked(server):
    n = stored(server)
    for auth in (f"Bearer {TOKEN}", "Bearer wrong"):
        s = connect(server)
        t0 = time.monotonic()
        s.sendall(f"POST /api/tables/main/events HTTP/1.1\r\nHost: x\r\nAuthorization: {auth}\r\n"
                  f"Content-Type: application/json\r\nContent-Length: {1 << 30}\r\n\r\n".encode() + b"[" * 1000)
        answer = read_all(s)
        s.close()
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"too large" in answer and b"nothing was read or stored" in answer
        assert time.monotonic() - t0 < 2                 # answered without waiting for 1 GiB
    assert stored(server) == n


def test_a_chunked_body_over_64_kib_is_refused(server):
    n = stored(server)
    s = connect(server)
    s.sendall(f"POST /api/tables/main/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
              "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
    chunk = b" " * 8192
    try:
        for _ in range(12):
            s.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
    except OSError:
        pass                                            # the server may close as soon as it has answered
    answer = read_all(s)
    s.close()
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert stored(server) == n


def test_oversize_headers_are_refused_with_431(server):
    s = connect(server)
    s.sendall(b"GET /api/tables/main/state HTTP/1.1\r\nHost: x\r\n" + b"X-Junk: " + b"a" * 100_000 + b"\r\n\r\n")
    answer = read_all(s)
    s.close()
    assert answer.split(b" ")[1] == b"431", answer[:200]
    assert b"headers are too large" in answer


def test_connections_per_client_are_bounded_with_429_and_retry_after(server):
    # streams are being served, so they are not idle and not evicted: 40 of them fill the quota
    held = []
    for _ in range(40):
        s = connect(server, "127.0.0.3")
        s.sendall(b"GET /api/tables/main/stream HTTP/1.1\r\nHost: x\r\n\r\n")
        held.append(s)
    for s in held:
        assert s.recv(100).startswith(b"HTTP/1.1 200")
    extra = connect(server, "127.0.0.3")
    answer = read_all(extra)
    assert answer.startswith(b"HTTP/1.1 429") and b"Retry-After: 5" in answer, answer[:300]
    assert b"too many connections" in answer
    # another address is not affected
    with urllib.request.urlopen(f"{server}/t/main", timeout=5) as r:
        assert r.status == 200
    for s in held:
        s.close()


@pytest.mark.parametrize("attacker", ["127.0.0.4", "127.0.0.1"], ids=["other-address", "same-address"])
def test_a_slowloris_cannot_keep_a_phone_page_from_loading(server, attacker):
    socks = []
    for i in range(1100):
        try:
            s = connect(server, attacker)
            s.sendall(b"GET /t/main HTTP/1.1\r\nHost: x\r\nX-a: ")      # headers that never end
            socks.append(s)
        except OSError:
            pass
    t0 = time.monotonic()
    with urllib.request.urlopen(f"{server}/t/main", timeout=5) as r:
        assert r.status == 200 and b"<html" in r.read().lower()
    assert time.monotonic() - t0 < 1.0
    status, body = post_event(server, {"type": "flip", "card": "red-5", "event_id": f"guard-{attacker}"})
    assert status == 200
    for s in socks:
        s.close()


def test_a_request_that_trickles_in_is_closed(server):
    s = connect(server, "127.0.0.5")
    s.sendall(b"GET /api/tables/main/state HTTP/1.1\r\n")
    t0 = time.monotonic()
    closed = False
    while time.monotonic() - t0 < 8:
        try:
            s.sendall(b"X: y\r\n")
        except OSError:
            closed = True
            break
        s.settimeout(0.5)
        try:
            if s.recv(100) == b"":
                closed = True
                break
        except socket.timeout:
            pass
    s.close()
    assert closed and time.monotonic() - t0 < 5
