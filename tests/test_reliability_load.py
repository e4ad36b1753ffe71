"""Load: many open streams plus a steady stream of events against a real `tableref serve`
(bench/load.py): no stream dropped or missing an event, the server's memory flat, push latency
recorded. The minute with 200 streams is marked `slow`; docs/reliability.md has its figures."""
from __future__ import annotations

import pytest

from helpers import load_bench

run = load_bench("load").run


def check(r: dict, streams: int, min_events: int, rss_growth_mib: float) -> None:
    assert r["dropped"] == 0 and r["missed"] == 0, r
    assert r["events"] >= min_events, r
    assert r["arrivals"] == r["events"] * streams, r          # every stream got every event
    assert r["rss_growth_after_warmup_mib"] < rss_growth_mib, r
    assert r["p99_ms"] < 2000, r                                # generous: a loaded 2-core CI machine


def test_50_streams_and_4_events_a_second_for_8_seconds():
    r = run(50, 4.0, 8.0)
    print(f"\nload: {r}")
    check(r, 50, 28, 16)


@pytest.mark.slow
def test_200_streams_and_4_events_a_second_for_a_minute():
    r = run(200, 4.0, 60.0)
    print(f"\nload: {r}")
    check(r, 200, 220, 16)
