"""Limits before work (issue 17): the HTTP server's guard against a hostile network.

waitress already refuses, before reading them, a body over `max_request_body_size` (413) and
headers over `max_request_header_size` (431); bodies this small are never buffered to disk. What
it lacks is added here, in its event loop, so no thread is ever spent on them:

- connections per client address: at most `per_client` open at once; one more is answered
  429 with Retry-After at once and closed, without reading it;
- idle connections per client: at most `idle_per_client` that are not being served (connected,
  sending headers, or kept alive between requests); a new one beyond that closes the client's
  oldest idle one instead, so a slowloris from the same address as a phone only ever evicts
  its own sockets and the phone's new request gets through;
- time: a request must arrive whole (headers and body) within `request_s` of its first byte,
  and a connection that sends nothing is closed after `idle_s`; checked every second.

The messages of waitress's own 413/431 are replaced with ones in words.
"""
from __future__ import annotations

import logging
import time
from collections import defaultdict

from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.utilities import RequestEntityTooLarge, RequestHeaderFieldsTooLarge

log = logging.getLogger("tableref.guard")


class Limits:
    def __init__(self, per_client=256, idle_per_client=32, request_s=10.0, idle_s=15.0):
        self.per_client, self.idle_per_client = per_client, idle_per_client
        self.request_s, self.idle_s = request_s, idle_s


class GuardedChannel(HTTPChannel):
    request_started = None      # monotonic time of the first byte of the request being received
    stream_table = None         # the table whose event stream the loop serves on this connection
    stream_camera = False       # ... and it is the table's camera view (MJPEG), not its events
    stream_frame = None         # the last camera frame sent on it

    def received(self, data):
        if self.stream_table is not None:
            return True                      # a stream's client has nothing more to say: ignored
        if self.request is None and data and self.request_started is None:
            self.request_started = time.monotonic()
        result = super().received(data)
        if self.request is None:
            self.request_started = None      # the request arrived whole (or none is being received)
        return result

    @property
    def idle(self) -> bool:
        """Not being served: connected and sending, or kept alive between requests."""
        return not self.requests and self.stream_table is None

    def del_channel(self, map=None):
        fd = self._fileno
        super().del_channel(map)
        if fd is not None:
            self.server.forget(self)
            if self.stream_table is not None and self.server.hub is not None:
                self.server.hub.forget(self)


class GuardedServer(TcpWSGIServer):
    channel_class = GuardedChannel

    def __init__(self, *args, guard: Limits, **kw):
        self.guard = guard
        self.by_client: dict[str, list[GuardedChannel]] = defaultdict(list)
        self.refused = 0
        self.evicted = 0
        self.timed_out = 0
        self.hub = None             # a web.streams.StreamHub, once the app is made
        super().__init__(*args, **kw)

    def add_task(self, channel):
        # Called by the loop as a request arrives whole on a connection with no request running:
        # a stream is served from here, by the loop, and never takes a thread (web/streams.py).
        if self.hub is not None and len(channel.requests) == 1 and channel.stream_table is None:
            request = channel.requests[0]
            if self.hub.take(channel, request):
                channel.requests.pop()
                channel.request_started = None
                return
        super().add_task(channel)

    def handle_accept(self):
        try:
            v = self.accept()
            if v is None:
                return
            conn, addr = v
            self.set_socket_options(conn)          # waitress's own (TCP_NODELAY)
        except OSError:
            return
        addr = self.fix_addr(addr)
        client = addr[0] if isinstance(addr, tuple) else str(addr)
        mine = self.by_client[client]
        if len(mine) >= self.guard.per_client:
            self.refused += 1
            _refuse(conn, 429, f"too many connections from your address (at most {self.guard.per_client}); "
                               "close some and try again", retry_after=5)
            return
        idle = [c for c in mine if c.idle]
        if len(idle) >= self.guard.idle_per_client:
            oldest = min(idle, key=lambda c: c.creation_time)
            self.evicted += 1
            oldest.will_close = True
            oldest.handle_close()
        channel = self.channel_class(self, conn, addr, self.adj, map=self._map)
        channel.client = client
        mine.append(channel)

    def forget(self, channel) -> None:
        mine = self.by_client.get(getattr(channel, "client", None))
        if mine is not None:
            try:
                mine.remove(channel)
            except ValueError:
                pass
            if not mine:
                del self.by_client[channel.client]

    def maintenance(self, now):
        cutoff = now - self.adj.channel_timeout
        for channel in self.active_channels.values():       # waitress's own, but streams stay
            if not channel.requests and getattr(channel, "stream_table", None) is None \
                    and channel.last_activity < cutoff:
                channel.will_close = True
        if self.hub is not None:
            self.hub.heartbeats()
        mono = time.monotonic()
        for channel in list(self.active_channels.values()):
            if not isinstance(channel, GuardedChannel) or not channel.idle:
                continue
            started = channel.request_started
            if started is not None:
                late = mono - started > self.guard.request_s
            else:
                late = now - channel.last_activity > self.guard.idle_s
            if late:
                self.timed_out += 1
                channel.will_close = True
                channel.handle_close()


def _refuse(conn, status: int, message: str, retry_after: int | None = None) -> None:
    body = (message + "\n").encode()
    head = (f"HTTP/1.1 {status} {'Too Many Requests' if status == 429 else 'Refused'}\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\nConnection: close\r\n")
    if retry_after is not None:
        head += f"Retry-After: {retry_after}\r\n"
    try:
        conn.setblocking(False)
        conn.send(head.encode() + b"\r\n" + body)
    except OSError:
        pass
    finally:
        conn.close()


# waitress's own answers, in words
RequestEntityTooLarge.reason = "Request Entity Too Large"
_413 = RequestEntityTooLarge.__init__
_431 = RequestHeaderFieldsTooLarge.__init__


def _words_413(self, body):
    _413(self, f"the request body is too large: {body}. An event is a few hundred bytes; nothing was read or stored")


def _words_431(self, body):
    _431(self, f"the request's headers are too large: {body}; nothing was read")


RequestEntityTooLarge.__init__ = _words_413
RequestHeaderFieldsTooLarge.__init__ = _words_431
