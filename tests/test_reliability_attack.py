"""Issue 17: bench/load.py --attack with small counts, as a regression test (the full counts are in
docs/reliability.md): idle streams plus churn with threads flat and nothing dropped, a slowloris
that leaves the phone page quick, every poison value and oversize request refused with nothing
stored, the ghost undo undone once, and a restart that opens the same table."""
from __future__ import annotations

from helpers import load_bench


def test_attack_bench_small():
    r = load_bench("load").attack(n_streams=60, churn=5.0, seconds=3.0, n_slowloris=60)
    s = r["streams"]
    assert s["connected"] == 60 and s["dropped"] == 0 and s["taps"] >= 10
    assert s["threads_max"] - s["threads_min"] <= 2 and s["threads_after_close"] <= s["threads_max"]
    assert s["tap_p99_ms"] < 2000 and s["fanout_all_p99_ms"] < 2000
    assert r["slowloris"]["slowloris_sockets"] == 60 and r["slowloris"]["page_load_max_ms"] < 1000
    for p in r["poison"]:
        assert p["status"] in (400, 413, 431) and p["stored"] == 0, p
    assert r["ghost_undo"]["with event_id and version"] == {"undos": 1, "held_tap_status": 409}
    assert r["ghost_undo"]["old client, no version"]["undos"] == 2          # why the version is needed
    assert r["restart"]["same_event_count"] and r["restart"]["problems"] == []
