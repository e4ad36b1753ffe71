"""Issue 17: a viewer does not cost a thread. Event streams are served from the server's event loop
(web/streams.py): many idle streams leave the thread count flat and taps fast, every stream gets
every change, closed streams are let go at once (churn does not slow taps)."""
from __future__ import annotations

import socket
import time
import urllib.request

from reliability_helpers import post_event, start, stop


def threads(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise RuntimeError


def open_stream(base: str, i: int) -> socket.socket:
    host, port = base.split("//")[1].split(":")
    s = socket.socket()
    s.bind((f"127.0.{1 + i // 200}.{2 + i % 200}", 0))      # many viewers, many addresses
    s.settimeout(10)
    s.connect((host, int(port)))
    s.sendall(b"GET /api/tables/main/stream HTTP/1.1\r\nHost: x\r\n\r\n")
    return s


def read_until(s: socket.socket, needle: bytes, timeout: float = 10.0) -> bytes:
    s.settimeout(timeout)
    buf = b""
    end = time.monotonic() + timeout
    while needle not in buf and time.monotonic() < end:
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        buf += chunk
    return buf


def test_idle_streams_cost_no_thread_and_churn_does_not_slow_taps(tmp_path):
    proc, base, _ = start(tmp_path / "data", "--rules", "ono", "--players", "Ana,Ben,Cy")
    try:
        before = threads(proc.pid)
        streams = [open_stream(base, i) for i in range(400)]      # more than the 320 threads of old
        for s in streams:
            assert read_until(s, b"id: 1\n").startswith(b"HTTP/1.1 200")
        assert threads(proc.pid) <= before + 2
        t0 = time.perf_counter()
        status, body = post_event(base, {"type": "flip", "card": "red-5"})
        tap = time.perf_counter() - t0
        assert status == 200 and tap < 1.0, tap
        for s in streams:                                          # every viewer gets the change
            assert b"id: 2\n" in read_until(s, b"id: 2\n")
        # churn: 400 streams opened and closed, then a tap and a page are still quick
        for i in range(400):
            open_stream(base, 400 + i).close()
        for s in streams:
            s.close()
        time.sleep(1.0)
        t0 = time.perf_counter()
        status, _ = post_event(base, {"type": "draw", "player": 1, "count": 1})
        assert status == 200 and time.perf_counter() - t0 < 1.0
        t0 = time.perf_counter()
        with urllib.request.urlopen(f"{base}/t/main", timeout=5) as r:
            assert r.status == 200
        assert time.perf_counter() - t0 < 1.0
        assert threads(proc.pid) <= before + 2
    finally:
        stop(proc)



def test_camera_views_share_one_thread(tmp_path):
    from helpers import ROOT
    video = ROOT / "datasets" / "demo" / "demo.mp4"
    proc, base, _ = start(tmp_path / "data", "--rules", "ono", "--players", "Ana,Ben,Cleo", "--camera", str(video))
    try:
        host, port = base.split("//")[1].split(":")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:                 # the first frame (the pipeline loads first)
            with urllib.request.urlopen(f"{base}/api/tables/main/camera", timeout=5) as r:
                if b'"has_frame":true' in r.read().replace(b" ", b""):
                    break
            time.sleep(0.5)
        before = threads(proc.pid)
        views = []
        for i in range(40):
            s = socket.socket()
            s.bind((f"127.0.9.{2 + i}", 0))
            s.settimeout(10)
            s.connect((host, int(port)))
            s.sendall(b"GET /api/tables/main/camera.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
            views.append(s)
        for s in views:
            data = read_until(s, b"\xff\xd9\r\n")
            assert data.startswith(b"HTTP/1.1 200") and b"multipart/x-mixed-replace" in data
            assert b"--frame\r\nContent-Type: image/jpeg" in data
        assert threads(proc.pid) <= before + 2            # one helper for all views, not one each
        for s in views:
            s.close()
    finally:
        stop(proc)


def test_the_fan_out_drops_a_viewer_that_does_not_read():
    """The hub's rule, on stand-in connections: a viewer with over MAX_BACKLOG unread is closed and
    given nothing more; the others get the message."""
    import types
    from web.streams import MAX_BACKLOG, StreamHub

    class Buf(list):
        def append(self, data):
            super().append(data)

    def viewer(backlog):
        return types.SimpleNamespace(outbufs=[Buf()], total_outbufs_len=backlog, current_outbuf_count=0,
                                     last_activity=0, will_close=False, stream_last=0)
    registry = types.SimpleNamespace(push_hooks=[], stop_hooks=[])
    hub = StreamHub(types.SimpleNamespace(), registry)
    slow, fine = viewer(MAX_BACKLOG + 1), viewer(10)
    hub.viewers["main"] = _IdSet([slow, fine])
    hub._fan_out("main", b"id: 3\ndata: {}\n\n")
    assert slow.will_close and slow.outbufs[0] == []
    assert not fine.will_close and fine.outbufs[0] == [b"id: 3\ndata: {}\n\n"] and fine.total_outbufs_len == 10 + 16


class _IdSet(list):
    """A list standing in for the hub's set of channels (SimpleNamespace is not hashable)."""
