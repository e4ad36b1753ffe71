"""Wrong host-token guesses slowed per client address (issue 17).

Each address may get the token wrong `free` times (default 10); each wrong guess after that
blocks the address for twice as long as the one before (1 s, 2 s, 4 s, ... at most `longest`,
60 s). While blocked, a request from that address that carries a token is answered 429 with
Retry-After *without the token being compared*, so guessing is slowed to a crawl. The real host
is not locked out: the block is per address (the host's phone is another device than the
guesser's), and a right token from an address resets its count. A request without any token
(a viewer) is never counted or blocked. Memory is bounded (the oldest addresses forgotten).
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict


class GuessLimiter:
    def __init__(self, free: int = 10, longest: float = 60.0, kept: int = 10_000, clock=time.monotonic):
        self.free, self.longest, self.kept, self.clock = free, longest, kept, clock
        self._lock = threading.Lock()
        self._by: OrderedDict[str, list] = OrderedDict()      # address -> [wrong guesses, blocked until]

    def wait(self, address: str) -> float:
        """Seconds this address must wait before its token is looked at again (0: go ahead)."""
        with self._lock:
            entry = self._by.get(address)
            return max(0.0, entry[1] - self.clock()) if entry else 0.0

    def wrong(self, address: str) -> float:
        """Notes a wrong guess; returns how long the address is blocked now (0 while still free)."""
        with self._lock:
            entry = self._by.pop(address, None) or [0, 0.0]
            entry[0] += 1
            over = entry[0] - self.free
            block = 0.0 if over <= 0 else min(self.longest, 2.0 ** (over - 1))
            entry[1] = self.clock() + block
            self._by[address] = entry
            while len(self._by) > self.kept:
                self._by.popitem(last=False)
            return block

    def right(self, address: str) -> None:
        with self._lock:
            self._by.pop(address, None)
