"""Event streams served from the HTTP server's event loop, not from a thread each (issue 17).

waitress reads and writes every connection in one asyncore loop and runs requests in a pool of
threads; a Server-Sent Events stream run as a request keeps its thread for as long as the viewer
watches, so 320 viewers used to take every thread. Here a `GET /api/tables/<id>/stream` that
arrives on a fresh request is taken out of the thread pool's way (`StreamHub.take`): the loop
writes its headers and the current state into the connection's output buffer and keeps the
connection in a list of the table's viewers. A change of a table (TableRegistry's publish hook,
on whatever thread judged the event) hands one message to the loop through waitress's trigger;
the loop appends it to every viewer's buffer and sends it as the sockets take it. A viewer costs
its socket and its buffer, no thread; one that closes is dropped the moment the loop sees the
close; one that does not read (its backlog over `MAX_BACKLOG`) is closed rather than letting
memory grow. Heartbeat comments are written by the loop's once-a-second maintenance.

The camera view (`GET /api/tables/<id>/camera.mjpg`, multipart JPEG frames) is served the same
way: one helper thread for all views wakes the loop ten times a second, and the loop appends the
camera's newest frame to each view that has not had it yet; a view that is behind skips frames.

Why this and not Quart/Hypercorn or gevent: the app stays one Flask/WSGI app with one server and
one set of limits (web/guard.py), no new dependency, no monkey-patching of the standard library,
and the only asynchronous code is this one small fan-out. The fan-out takes (table, message)
pairs, so a shared message broker (Redis pub/sub, NATS) can feed it the same pairs when tables
run on several machines. The Flask route stays as it was for every other way of serving the app
(tests' client, a request that comes second on a kept-alive connection).
"""
from __future__ import annotations

import logging
import re
import time
from collections import defaultdict

log = logging.getLogger("tableref.streams")

STREAM_PATH = re.compile(r"^/api/tables/([a-z0-9][a-z0-9-]*)/stream/?$")
MJPEG_PATH = re.compile(r"^/api/tables/([a-z0-9][a-z0-9-]*)/camera\.mjpg$")
FRAME_S = 0.1                      # how often the camera views are given the newest frame
MAX_BACKLOG = 1024 * 1024          # bytes waiting for a viewer that does not read: then it is dropped
HEADERS = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n"
           b"X-Accel-Buffering: no\r\nReferrer-Policy: no-referrer\r\nX-Content-Type-Options: nosniff\r\n"
           b"Connection: close\r\nServer: tableref\r\n\r\n")
MJPEG_HEADERS = (b"HTTP/1.1 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n"
                 b"Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\nReferrer-Policy: no-referrer\r\n"
                 b"X-Content-Type-Options: nosniff\r\nConnection: close\r\nServer: tableref\r\n\r\n")


class StreamHub:
    def __init__(self, server, registry, heartbeat_s: float = 15.0):
        self.server, self.registry, self.heartbeat_s = server, registry, heartbeat_s
        self.viewers: dict[str, set] = defaultdict(set)     # table id -> channels (loop thread only)
        self.cameras: dict[str, set] = defaultdict(set)     # table id -> camera view channels (loop thread)
        self._ticker = None
        self.opened = 0
        self.closed = 0
        registry.push_hooks.append(self.publish)
        registry.stop_hooks.append(self.stop)

    # -- the loop thread ---------------------------------------------------------------------------
    def take(self, channel, request) -> bool:
        """True when the channel's request is a stream this hub serves (the loop thread calls it
        as the request arrives whole, before any thread is asked for)."""
        if request.command != "GET" or request.error is not None or self.registry.stopping.is_set():
            return False
        cam = MJPEG_PATH.match(request.path or "")
        if cam is not None:
            return self._take_camera(channel, cam.group(1))
        m = STREAM_PATH.match(request.path or "")
        if m is None or m.group(1) not in self.registry.tables:
            return False                                        # 404 and the like: the app answers
        table = self.registry.tables[m.group(1)]
        _, message, event_id = self.registry.latest(table)
        channel.stream_table = table.id
        channel.stream_last = time.monotonic()
        self._append(channel, HEADERS + f"retry: 1000\nid: {event_id}\ndata: {message}\n\n".encode())
        self.viewers[table.id].add(channel)
        self.opened += 1
        self.registry.stream_opened(+1)
        return True

    def _take_camera(self, channel, table_id: str) -> bool:
        table = self.registry.tables.get(table_id)
        if table is None or table.camera is None:
            return False                                        # 404 in words: the app answers
        channel.stream_table = table_id
        channel.stream_camera = True
        channel.stream_last = time.monotonic()
        channel.stream_frame = None
        self._append(channel, MJPEG_HEADERS)
        self.cameras[table_id].add(channel)
        self._send_frame(channel, table)
        self.opened += 1
        self.registry.stream_opened(+1)
        if self._ticker is None:
            import threading
            # One thread for every camera view of every table: it only wakes the loop.
            self._ticker = threading.Thread(target=self._tick, name="camera-views", daemon=True)
            self._ticker.start()
        return True

    def _tick(self) -> None:
        while not self.registry.stopping.wait(FRAME_S):
            self.server.trigger.pull_trigger(self._frames)

    def _frames(self) -> None:
        for table_id, views in list(self.cameras.items()):
            table = self.registry.tables.get(table_id)
            for channel in list(views):
                self._send_frame(channel, table)

    def _send_frame(self, channel, table) -> None:
        camera = table.camera if table is not None else None
        frame = camera.latest_jpeg if camera is not None else None
        if frame is None:
            if camera is None or not camera.thread.is_alive():
                channel.close_when_flushed = True              # no picture and none coming: the view ends
            return
        if frame is channel.stream_frame or channel.total_outbufs_len > 2 * len(frame):
            return                                              # nothing new, or the viewer is behind: skip
        channel.stream_frame = frame
        self._append(channel, b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(frame)).encode()
                     + b"\r\n\r\n" + frame + b"\r\n")

    def forget(self, channel) -> None:
        if getattr(channel, "stream_camera", False):
            views = self.cameras.get(channel.stream_table)
            if views is not None and channel in views:
                views.discard(channel)
                self.closed += 1
                self.registry.stream_opened(-1)
            return
        viewers = self.viewers.get(channel.stream_table)
        if viewers is not None and channel in viewers:
            viewers.discard(channel)
            self.closed += 1
            self.registry.stream_opened(-1)

    def _fan_out(self, table_id: str, data: bytes) -> None:
        now = time.monotonic()
        for channel in list(self.viewers.get(table_id, ())):
            if channel.total_outbufs_len > MAX_BACKLOG:
                channel.will_close = True                       # not reading: drop it, not our memory
                continue
            self._append(channel, data)
            channel.stream_last = now

    def heartbeats(self) -> None:
        """From the loop's maintenance, once a second."""
        now = time.monotonic()
        for viewers in self.viewers.values():
            for channel in list(viewers):
                if now - channel.stream_last >= self.heartbeat_s:
                    self._append(channel, b": heartbeat\n\n")
                    channel.stream_last = now

    def _end_all(self) -> None:
        for viewers in list(self.viewers.values()) + list(self.cameras.values()):
            for channel in list(viewers):
                channel.close_when_flushed = True

    @staticmethod
    def _append(channel, data: bytes) -> None:
        # Only the loop thread touches a stream channel's buffers (it has no request running, so
        # waitress flushes it from the loop without a lock): appending here is race-free.
        channel.outbufs[-1].append(data)
        channel.current_outbuf_count += len(data)
        channel.total_outbufs_len += len(data)
        channel.last_activity = time.time()

    # -- any thread ---------------------------------------------------------------------------------
    def publish(self, table_id: str, message: str, event_id: int) -> None:
        data = f"id: {event_id}\ndata: {message}\n\n".encode()
        self.server.trigger.pull_trigger(lambda: self._fan_out(table_id, data))

    def stop(self) -> None:
        self.server.trigger.pull_trigger(self._end_all)

    def count(self) -> int:
        return sum(len(v) for v in self.viewers.values())
