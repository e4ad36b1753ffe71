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

With --attack (issue 17; loopback only, at most 2,000 streams or sockets and 300 s): 1,000 idle
streams (--streams) plus 20 opened and closed a second (--churn) for a minute with 4 host taps a
second: tap p99, the time until every viewer has a tap's change (p99), RSS and threads; 1,000
slowloris sockets (--slowloris) and a phone page's load time; each poison value and oversize
request refused with nothing stored; the ghost undo; a restart on the same store.

    .venv/bin/python bench/load.py --attack [--streams 1000] [--churn 20] [--seconds 60] [--slowloris 1000]
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
    ap.add_argument("--attack", action="store_true",
                    help="issue 17: idle streams plus churn, slowloris, poison and oversize requests, ghost undo")
    ap.add_argument("--churn", type=float, default=20.0, help="with --attack: streams opened and closed a second")
    ap.add_argument("--slowloris", type=int, default=1000, help="with --attack: half-open sockets")
    args = ap.parse_args()
    if args.attack:
        n = min(args.streams if args.streams != 200 else 1000, 2000)
        r = attack(n, min(args.churn, 100.0), min(args.seconds, 300.0), min(args.slowloris, 2000))
        print(json.dumps(r)) if args.json else print_attack(r)
        return 0
    r = run(args.streams, args.rate, args.seconds)
    if args.json:
        print(json.dumps(r))
    else:
        for k, v in r.items():
            print(f"{k:>28}: {v}")
    return 0 if r["dropped"] == 0 and r["missed"] == 0 else 1



# -- issue 17: load and attack ------------------------------------------------------------------------
# Viewers and attackers connect from other loopback addresses (127.0.x.y: all of 127/8 is this
# machine), as other devices on the Wi-Fi would; the host and the phone from 127.0.0.1.
def _source(i: int) -> str:
    return f"127.0.{1 + i // 250}.{2 + i % 250}"


class _Viewer(_pl.Stream):
    def __init__(self, host: str, port: int, source: str):
        import socket
        self.sock = socket.socket()
        self.sock.bind((source, 0))
        self.sock.connect((host, port))
        self.sock.sendall(f"GET /api/tables/main/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.buf, self.headers_done, self.seen = b"", False, {}


def _threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


def idle_streams_and_churn(base: str, pid: int, n: int = 1000, churn: float = 20.0, seconds: float = 60.0,
                           rate: float = 4.0) -> dict:
    """n idle viewers, `churn` viewers opened and closed a second, `rate` host taps a second."""
    import selectors
    host, port = base.split("//")[1].split(":")
    port = int(port)
    sel = selectors.DefaultSelector()
    viewers = []
    for i in range(n):
        v = _Viewer(host, port, _source(i))
        sel.register(v.sock, selectors.EVENT_READ, v)
        viewers.append(v)
    dropped = set()

    def pump(until, done=lambda: False):
        while time.perf_counter() < until and not done():
            for key, _ in sel.select(timeout=0.005):
                try:
                    key.data.feed(time.perf_counter())
                except (ConnectionError, OSError):
                    dropped.add(id(key.data))
                    sel.unregister(key.fileobj)

    pump(time.perf_counter() + 60, lambda: all(v.seen for v in viewers))
    connected = sum(1 for v in viewers if v.seen)
    threads = [_threads(pid)]
    rss = [rss_kib(pid)]
    taps, fanout, arrivals = [], [], []
    count = max(max(v.seen) for v in viewers if v.seen)
    churned, i = 0, 0
    start = time.perf_counter()
    next_churn, next_sample = start, start + 1
    while time.perf_counter() - start < seconds:
        now = time.perf_counter()
        while next_churn <= now:                    # churn: open, let the first message in, close
            try:
                c = _Viewer(host, port, _source(n + churned % 2000))
                c.sock.close()
                churned += 1
            except OSError:
                pass
            next_churn += 1 / churn
        pump(start + i / rate)
        event = {"type": "draw", "player": 1, "count": 1} if i % 2 == 0 else {"type": "undo"}
        count += 1 if i % 2 == 0 else -1
        for v in viewers:
            v.seen.pop(count, None)
        t0 = time.perf_counter()
        post(base, event)
        taps.append(time.perf_counter() - t0)
        pump(t0 + 5, lambda: all(count in v.seen for v in viewers if id(v) not in dropped))
        got = [v.seen[count] - t0 for v in viewers if count in v.seen]
        arrivals.extend(got)
        fanout.append(max(got) if got else float("inf"))
        i += 1
        if time.perf_counter() >= next_sample:
            threads.append(_threads(pid))
            rss.append(rss_kib(pid))
            next_sample += 1
    for v in viewers:
        v.sock.close()
    time.sleep(1.0)
    ms = lambda x: round(x * 1000, 1)
    return {"idle_streams": n, "connected": connected, "churn_per_s": churn, "churned": churned, "seconds": seconds,
            "taps": i, "tap_p50_ms": ms(statistics.median(taps)), "tap_p99_ms": ms(percentile(taps, 99)),
            "fanout_all_p99_ms": ms(percentile(fanout, 99)), "arrival_p99_ms": ms(percentile(arrivals, 99)),
            "dropped": len(dropped), "rss_max_mib": round(max(rss) / 1024, 1),
            "threads_min": min(threads), "threads_max": max(threads), "threads_after_close": _threads(pid)}


def slowloris(base: str, n: int = 1000) -> dict:
    """n sockets that send half a request and nothing more, then a phone page from 127.0.0.1."""
    import socket
    import urllib.request
    host, port = base.split("//")[1].split(":")
    socks = []
    for i in range(n):
        try:
            s = socket.socket()
            s.bind((_source(3000 + i), 0))
            s.connect((host, int(port)))
            s.sendall(b"GET /t/main HTTP/1.1\r\nHost: x\r\nX-a: ")
            socks.append(s)
        except OSError:
            pass
    time.sleep(0.5)
    loads = []
    for _ in range(5):
        t0 = time.perf_counter()
        with urllib.request.urlopen(f"{base}/t/main", timeout=10) as r:
            r.read()
        loads.append(time.perf_counter() - t0)
    for s in socks:
        s.close()
    return {"slowloris_sockets": len(socks), "page_load_max_ms": round(max(loads) * 1000, 1)}


def _raw(base: str, data: bytes, timeout: float = 10.0) -> tuple[int, bytes]:
    import socket
    host, port = base.split("//")[1].split(":")
    s = socket.create_connection((host, int(port)), timeout=timeout)
    try:
        s.sendall(data)
    except OSError:
        pass
    out = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
    except OSError:
        pass
    s.close()
    status = int(out.split(b" ")[1]) if out.startswith(b"HTTP/") else 0
    return status, out


def _post_raw(base: str, text: str | bytes, extra: str = "") -> tuple[int, bytes]:
    body = text.encode() if isinstance(text, str) else text
    head = (f"POST /api/tables/main/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {_pl.TOKEN}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n{extra}\r\n")
    return _raw(base, head.encode() + body)


POISON = {
    "1e999": '{"type": "play", "player": 1, "cards": ["red-7"], "x": 1e999}',
    "Infinity": '{"type": "draw", "player": 1, "count": Infinity}',
    "NaN": '{"type": "draw", "player": 1, "count": NaN}',
    "4,300-digit number": '{"type": "draw", "player": 1, "count": ' + "9" * 4300 + "}",
    "4,299-digit number": '{"type": "play", "player": 1, "cards": ["red-7"], "n": ' + "9" * 4299 + "}",
    "list nested 976 deep": '{"type": "play", "player": 1, "cards": ["red-7"], "x": ' + "[" * 976 + "]" * 976 + "}",
    "draw 10**9 cards": '{"type": "draw", "player": 1, "count": 1000000000}',
    "10,000-character string": json.dumps({"type": "play", "player": 1, "cards": ["red-7"], "color": "r" * 10000}),
    "name with a line break": json.dumps({"type": "setup", "rules": "ono", "players": ["A\nB", "C"]}),
}


def poison_and_oversize(base: str) -> list[dict]:
    rows = []
    events = lambda: len(json.load(__import__("urllib.request").request.urlopen(f"{base}/api/tables/main/events"))["events"])
    for name, text in POISON.items():
        n = events()
        status, out = _post_raw(base, text)
        rows.append({"case": name, "status": status, "stored": events() - n,
                     "message": json.loads(out.split(b"\r\n\r\n", 1)[1]).get("error", "")[:90]})
    n = events()
    t0 = time.perf_counter()
    status, out = _raw(base, (f"POST /api/tables/main/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                              f"Content-Length: {1 << 30}\r\n\r\n").encode() + b"{" * 1000)
    rows.append({"case": "1 GiB body (Content-Length), no token", "status": status, "stored": events() - n,
                 "message": f"answered in {round((time.perf_counter() - t0) * 1000)} ms: " +
                            out.split(b"\r\n\r\n", 1)[-1].decode(errors="replace").splitlines()[-3][:60]})
    status, out = _raw(base, b"GET /t/main HTTP/1.1\r\nHost: x\r\nX-Junk: " + b"a" * 250_000 + b"\r\n\r\n")
    rows.append({"case": "250 KB of headers", "status": status, "stored": 0, "message": "headers are too large"})
    return rows


def ghost_undo(base: str) -> dict:
    """The host taps undo, the request is held up (its body arrives 1 s late), the host taps undo
    again: both made against the same version. Then the same with old clients (no version)."""
    import socket
    import urllib.request
    state = lambda: json.load(urllib.request.urlopen(f"{base}/api/tables/main/state"))
    version = json.load(urllib.request.urlopen(f"{base}/api/tables/main/events"))["events"]
    results = {}
    for label, extra in (("with event_id and version", True), ("old client, no version", False)):
        post(base, {"type": "draw", "player": state()["current_player"], "count": 1})
        post(base, {"type": "draw", "player": state()["current_player"], "count": 1})
        v = len(json.load(urllib.request.urlopen(f"{base}/api/tables/main/events"))["events"])
        before = state()["event_count"]
        body = {"type": "undo"}
        a = dict(body, event_id=f"ghost-a-{label}", version=v) if extra else body
        b = dict(body, event_id=f"ghost-b-{label}", version=v) if extra else body
        raw = json.dumps(a).encode()
        host, port = base.split("//")[1].split(":")
        held = socket.create_connection((host, int(port)), timeout=10)
        held.sendall(f"POST /api/tables/main/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {_pl.TOKEN}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(raw)}\r\nConnection: close\r\n\r\n".encode()
                     + raw[:5])
        time.sleep(1.0)
        post(base, b)
        held.sendall(raw[5:])
        answer = b""
        while True:
            chunk = held.recv(65536)
            if not chunk:
                break
            answer += chunk
        held.close()
        results[label] = {"undos": before - state()["event_count"], "held_tap_status": int(answer.split(b" ")[1])}
    return results


def attack(n_streams=1000, churn=20.0, seconds=60.0, n_slowloris=1000) -> dict:
    import subprocess
    with tempfile.TemporaryDirectory() as data:
        proc, base = _start(data)
        try:
            out = {"streams": idle_streams_and_churn(base, proc.pid, n_streams, churn, seconds)}
            out["slowloris"] = slowloris(base, n_slowloris)
            out["poison"] = poison_and_oversize(base)
            out["ghost_undo"] = ghost_undo(base)
            before = json.load(__import__("urllib.request").request.urlopen(f"{base}/api/tables/main"))
        finally:
            proc.terminate()
            proc.wait(10)
        proc, base = _start(data)          # restart on the same store
        try:
            after = json.load(__import__("urllib.request").request.urlopen(f"{base}/api/tables/main"))
            out["restart"] = {"same_event_count": after["event_count"] == before["event_count"],
                              "event_count": [before["event_count"], after["event_count"]],
                              "problems": after.get("problems")}
        finally:
            proc.terminate()
            proc.wait(10)
    return out


def _start(data: str):
    import os
    import subprocess
    proc = subprocess.Popen([sys.executable, "-m", "web", "serve", "--rules", "ono", "--players", "Ana,Ben,Cy",
                             "--host", "127.0.0.1", "--port", "0", "--data", data, "--host-token", _pl.TOKEN],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    seen = []
    for line in proc.stdout:
        if "phones and viewers:" in line:
            base = line.split()[-1].rsplit("/t/", 1)[0]
            if not any("resuming" in l for l in seen):
                post(base, {"type": "flip", "card": "red-5"})
            return proc, base
        seen.append(line)
    raise SystemExit("tableref serve did not start")


def print_attack(r: dict) -> None:
    s = r["streams"]
    print("| idle streams | churn /s | seconds | taps | tap p50 ms | tap p99 ms | fan-out to all p99 ms | "
          "arrival p99 ms | dropped | RSS max MiB | threads min-max (after close) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {s['connected']}/{s['idle_streams']} | {s['churn_per_s']:g} | {s['seconds']:g} | {s['taps']} | "
          f"{s['tap_p50_ms']} | {s['tap_p99_ms']} | {s['fanout_all_p99_ms']} | {s['arrival_p99_ms']} | {s['dropped']} | "
          f"{s['rss_max_mib']} | {s['threads_min']}-{s['threads_max']} ({s['threads_after_close']}) |")
    sl = r["slowloris"]
    print(f"\n| slowloris sockets | phone page load, worst of 5 |\n|---|---|\n| {sl['slowloris_sockets']} | "
          f"{sl['page_load_max_ms']} ms |")
    print("\n| poison or oversize request | status | events stored | message |\n|---|---|---|---|")
    for p in r["poison"]:
        print(f"| {p['case']} | {p['status']} | {p['stored']} | {p['message']} |")
    print("\n| ghost undo (first tap held up 1 s) | undos | held tap's answer |\n|---|---|---|")
    for label, g in r["ghost_undo"].items():
        print(f"| {label} | {g['undos']} | {g['held_tap_status']} |")
    print(f"\nrestart on the same store: same event count {r['restart']['same_event_count']} "
          f"({r['restart']['event_count']}), "
          f"problems {r['restart']['problems']}")


if __name__ == "__main__":
    sys.exit(main())
