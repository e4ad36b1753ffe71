"""Load: N open SSE streams and a steady stream of events for a while, against a real `tableref serve`.

Starts the server (bench/push_latency.py's client code: raw sockets read by one selector loop),
opens N streams (default 200), then posts R events a second (default 4; a draw then an undo,
alternating, so the game never ends) for D seconds (default 60). Records:
- every (event, stream) arrival's push latency (from just before the POST to the moment the
  message with the new event count was read): p50, p99, max;
- streams dropped (closed by the server, or that missed an event): must be 0;
- the server's resident memory (VmRSS from /proc/PID/status) once a second: first, after the
  warm-up (the first tenth of the run), last, max, and the growth from warm-up to the end.

    .venv/bin/python bench/load.py [--streams 200] [--rate 4] [--seconds 60] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path


def _push_latency():
    # bench/ is not a package, and putting it on sys.path would hide the referee package behind
    # bench/referee.py: load the sibling file by its path instead.
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_push_latency", Path(__file__).resolve().parent / "push_latency.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_pl = _push_latency()
open_streams, percentile, post, start_server = _pl.open_streams, _pl.percentile, _pl.post, _pl.start_server


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def run(n_streams: int = 200, rate: float = 4.0, seconds: float = 60.0) -> dict:
    with tempfile.TemporaryDirectory() as data:
        proc, base = start_server(data)
        try:
            return _run(proc.pid, base, n_streams, rate, seconds)
        finally:
            proc.terminate()
            proc.wait(10)


def _run(pid: int, base: str, n_streams: int, rate: float, seconds: float) -> dict:
    sel, streams = open_streams(base, n_streams)
    dropped: set[int] = set()

    def pump(until: float, done=lambda: False) -> None:
        while time.perf_counter() < until and not done():
            for key, _ in sel.select(timeout=0.01):
                try:
                    key.data.feed(time.perf_counter())
                except (ConnectionError, OSError):
                    dropped.add(id(key.data))
                    sel.unregister(key.fileobj)

    t_connect = time.perf_counter()
    pump(t_connect + 30, lambda: all(2 in s.seen for s in streams))
    connect_s = time.perf_counter() - t_connect
    if any(2 not in s.seen for s in streams):
        raise RuntimeError(f"only {sum(2 in s.seen for s in streams)} of {n_streams} streams connected")

    latencies, posts, rss = [], [], [(0.0, rss_kib(pid))]
    missed = 0
    count, i = 2, 0
    start = time.perf_counter()
    next_sample = start + 1.0
    while time.perf_counter() - start < seconds:
        tick = start + i / rate
        pump(tick)
        event = {"type": "draw", "player": 1, "count": 1} if i % 2 == 0 else {"type": "undo"}
        count += 1 if i % 2 == 0 else -1
        for s in streams:
            s.seen.pop(count, None)        # an undo takes the count back to one seen before
        t0 = time.perf_counter()
        body = post(base, event)
        posts.append(time.perf_counter() - t0)
        if not body["verdict"]["accepted"]:
            raise RuntimeError(body)
        pump(t0 + 5.0, lambda: all(count in s.seen for s in streams if id(s) not in dropped))
        for s in streams:
            if count in s.seen:
                latencies.append(s.seen[count] - t0)
            elif id(s) not in dropped:
                missed += 1
        i += 1
        if time.perf_counter() >= next_sample:
            rss.append((time.perf_counter() - start, rss_kib(pid)))
            next_sample += 1.0
    rss.append((time.perf_counter() - start, rss_kib(pid)))
    for s in streams:
        s.sock.close()
    warm = [kib for t, kib in rss if t >= seconds / 10] or [rss[-1][1]]
    ms = lambda x: round(x * 1000, 1)
    return {"streams": n_streams, "seconds": round(time.perf_counter() - start, 1), "events": i,
            "events_per_second": round(i / (time.perf_counter() - start), 2), "arrivals": len(latencies),
            "connect_s": round(connect_s, 2), "dropped": len(dropped), "missed": missed,
            "p50_ms": ms(statistics.median(latencies)), "p99_ms": ms(percentile(latencies, 99)),
            "max_ms": ms(max(latencies)), "post_p50_ms": ms(statistics.median(posts)),
            "rss_start_mib": round(rss[0][1] / 1024, 1), "rss_warm_mib": round(warm[0] / 1024, 1),
            "rss_end_mib": round(rss[-1][1] / 1024, 1), "rss_max_mib": round(max(k for _, k in rss) / 1024, 1),
            "rss_growth_after_warmup_mib": round((rss[-1][1] - warm[0]) / 1024, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=200)
    ap.add_argument("--rate", type=float, default=4.0, help="events per second")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = run(args.streams, args.rate, args.seconds)
    if args.json:
        print(json.dumps(r))
    else:
        for k, v in r.items():
            print(f"{k:>28}: {v}")
    return 0 if r["dropped"] == 0 and r["missed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
