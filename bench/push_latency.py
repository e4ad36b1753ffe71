"""Push latency: the time from an event's POST to its arrival on every one of N open SSE streams.

Starts a real `tableref serve` (waitress) on 127.0.0.1 with a fresh data folder, opens N streams
(default 200) with raw sockets read by one selector loop, then posts E events one at a time (a
draw then an undo, alternating, so the game never ends) and, for each, records on every stream the
time from just before the POST was sent to the moment the message carrying the new event count was
read. Prints p50, p99 and max over all (event, stream) arrivals, and the POST round trip.

    .venv/bin/python bench/push_latency.py [--streams 200] [--events 50]
"""
from __future__ import annotations

import argparse
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

TOKEN = "bench-token-0123456789"


def start_server(data: str):
    proc = subprocess.Popen([sys.executable, "-m", "web", "serve", "--rules", "ono", "--players", "Ana,Ben,Cy",
                             "--host", "127.0.0.1", "--port", "0", "--data", data, "--host-token", TOKEN],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    for line in proc.stdout:
        if "phones and viewers:" in line:
            base = line.split()[-1].rsplit("/t/", 1)[0]
            return proc, base
    raise SystemExit("tableref serve did not start")


def post(base: str, event: dict) -> dict:
    req = urllib.request.Request(f"{base}/api/tables/main/events", data=json.dumps(event).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


class Stream:
    def __init__(self, host: str, port: int):
        self.sock = socket.create_connection((host, port))
        self.sock.sendall(f"GET /api/tables/main/stream HTTP/1.1\r\nHost: {host}\r\n"
                          f"Accept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.buf = b""
        self.headers_done = False
        self.seen: dict[int, float] = {}     # event_count -> arrival time

    def feed(self, now: float) -> None:
        data = self.sock.recv(1 << 20)
        if not data:
            raise ConnectionError("stream closed")
        self.buf += data
        if not self.headers_done:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if not sep:
                return
            self.headers_done, self.buf = True, rest
        # Chunked transfer coding: the SSE messages are inside; their "id:" lines are what we need.
        while b"\n\n" in self.buf:
            message, self.buf = self.buf.split(b"\n\n", 1)
            for line in message.split(b"\n"):
                if line.startswith(b"id: "):
                    self.seen.setdefault(int(line[4:]), now)


def percentile(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=200)
    ap.add_argument("--events", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as data:
        proc, base = start_server(data)
        try:
            return run(base, args.streams, args.events)
        finally:
            proc.terminate()
            proc.wait(10)


def pump(sel, until: float, done=lambda: False) -> None:
    while time.perf_counter() < until and not done():
        for key, _ in sel.select(timeout=0.01):
            key.data.feed(time.perf_counter())


def open_streams(base: str, n_streams: int):
    """Turns a first card up (event 2), then opens n streams on one selector: (selector, streams)."""
    host, port = base.split("//")[1].split(":")
    post(base, {"type": "flip", "card": "red-5"})
    sel = selectors.DefaultSelector()
    streams = [Stream(host, int(port)) for _ in range(n_streams)]
    for s in streams:
        sel.register(s.sock, selectors.EVENT_READ, s)
    return sel, streams


def run(base: str, n_streams: int, n_events: int) -> int:
    sel, streams = open_streams(base, n_streams)
    pump(sel, time.perf_counter() + 30, lambda: all(2 in s.seen for s in streams))
    connected = sum(2 in s.seen for s in streams)
    if connected < n_streams:
        raise SystemExit(f"only {connected} of {n_streams} streams got the state on connect")

    latencies, posts = [], []
    count = 2
    for i in range(n_events):
        event = {"type": "draw", "player": 1, "count": 1} if i % 2 == 0 else {"type": "undo"}
        count += 1 if i % 2 == 0 else -1
        # An undo takes the count back to one seen before: forget it, so its new arrival counts.
        for s in streams:
            s.seen.pop(count, None)
        t0 = time.perf_counter()
        body = post(base, event)
        posts.append(time.perf_counter() - t0)
        assert body["verdict"]["accepted"], body
        pump(sel, time.perf_counter() + 10, lambda: all(count in s.seen for s in streams))
        missing = sum(count not in s.seen for s in streams)
        if missing:
            raise SystemExit(f"event {i}: {missing} streams never got it")
        latencies.extend(s.seen[count] - t0 for s in streams)
    ms = lambda x: f"{x * 1000:8.1f}"
    print(f"{'streams':>8} {'events':>7} {'arrivals':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'POST p50 ms':>12}")
    print(f"{n_streams:>8} {n_events:>7} {len(latencies):>9} {ms(statistics.median(latencies))} "
          f"{ms(percentile(latencies, 99))} {ms(max(latencies))} {ms(statistics.median(posts)):>12}")
    for s in streams:
        s.sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
