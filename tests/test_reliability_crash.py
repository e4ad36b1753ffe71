"""Crash safety: events streamed into a real `tableref serve` over HTTP while the server is killed
with SIGKILL at random moments (mid-request included) and restarted.

What must hold after every restart, checked against the referee run in this process on the same
events (expected states are the referee's, fed the simulator's legal games, not the server's):
- every acknowledged event is in the store, in order, none twice (the client retries an
  unanswered event with the same `event_id`; the server stores it at most once);
- at most the one event in flight when the server died is stored beyond the acknowledged ones;
- the restarted server's state is the referee's state after exactly the stored events, and
  replaying the store (`Game.replay`, and `tableref replay` at the end) gives that same state,
  which is the state the last answer before the kill carried when nothing was in flight.

The fast variant runs in the normal test run; the 1,000-event soak is marked `slow`.
"""
from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from referee import Game
from reliability_helpers import DROPPED, bare, get_json, post_event, sim_events, start, states_after, stop

TABLE = "soak"


def soak(tmp_path, n_events: int, kill_chance: float, seed: int) -> dict:
    rng = random.Random(seed)
    events = [dict(e, event_id=f"soak-{i}") for i, e in enumerate(sim_events(n_events, first_seed=seed))]
    expected = states_after(events)
    data = tmp_path / "data"
    proc, base, _ = start(data)
    acked = 0                    # events answered 200/accepted, in order
    last_answer = None           # the state in the last answer before a kill
    kills = retries = duplicates = 0
    restart_s: list[float] = []
    killer = None
    try:
        while acked < n_events:
            if killer is None and rng.random() < kill_chance:
                # SIGKILL at a random moment: before, during or just after the next request.
                killer = threading.Timer(rng.uniform(0.0, 0.012), proc.send_signal, (signal.SIGKILL,))
                killer.start()
            try:
                status, body = post_event(base, events[acked], table=TABLE, timeout=10)
            except DROPPED:
                if killer is None:
                    raise
                killer.join()
                proc.wait(10)
                kills += 1
                t0 = time.perf_counter()
                proc, base, out = start(data)
                restart_s.append(time.perf_counter() - t0)
                killer = None
                check_restarted(base, events, expected, acked, last_answer)
                retries += 1
                continue                          # the same event again, same event_id
            assert status == 200, body
            verdict = body["verdict"]
            assert verdict["accepted"], (acked, events[acked], verdict)
            duplicates += bool(body.get("duplicate"))
            assert bare(body["state"]) == expected[acked + 1], f"answer to event {acked}"
            acked += 1
            last_answer = body["state"]           # a kill after the answer: the next request finds out
    finally:
        if killer is not None:
            killer.cancel()
        stop(proc)

    # The store itself, read with sqlite3: intact, every event once, in order.
    db = sqlite3.connect(data / "tableref.sqlite3")
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    bodies = [json.loads(b) for (b,) in db.execute("SELECT body FROM events WHERE table_id = ? ORDER BY seq", (TABLE,))]
    db.close()
    assert bodies == events
    # And `tableref replay` on the store's events gives the final state.
    log = tmp_path / "stored.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in bodies))
    out = subprocess.run([sys.executable, "-m", "web", "replay", str(log), "--json"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    replayed = json.loads(out.stdout)
    assert all(v["accepted"] for v in replayed["verdicts"])
    assert bare(replayed["state"]) == expected[n_events]
    return {"events": n_events, "kills": kills, "retries": retries, "duplicates": duplicates,
            "restart_s_max": max(restart_s, default=0.0)}


def check_restarted(base, events, expected, acked, last_answer) -> None:
    stored = get_json(base, f"/api/tables/{TABLE}/events")["events"]
    n = len(stored)
    assert acked <= n <= acked + 1, f"{acked} acknowledged, {n} stored"
    assert stored == events[:n], "the store is not exactly the events sent, in order, once each"
    state = get_json(base, f"/api/tables/{TABLE}/state")
    assert bare(state) == expected[n]
    assert bare(Game.replay(stored).to_dict()) == bare(state)
    if n == acked and last_answer is not None:
        assert bare(state) == bare(last_answer), "the restarted state is not the state before the kill"


def test_sigkill_during_a_stream_of_events_loses_nothing_acknowledged(tmp_path):
    report = soak(tmp_path, n_events=200, kill_chance=0.04, seed=7)
    assert report["kills"] >= 3, report


@pytest.mark.slow
def test_soak_1000_events_with_random_sigkills(tmp_path):
    report = soak(tmp_path, n_events=1000, kill_chance=0.03, seed=11)
    print(f"\ncrash soak: {report}")
    assert report["kills"] >= 15, report


def test_a_retried_event_with_its_event_id_is_stored_once(tmp_path):
    """The answer was lost (here: simply asked twice); the retry is acknowledged, not applied again."""
    proc, base, _ = start(tmp_path / "data", "--rules", "ono", "--players", "Ana,Ben,Cy")
    try:
        flip = {"type": "flip", "card": "red-5", "event_id": "phone-1"}
        status, first = post_event(base, flip)
        assert status == 200 and first["verdict"]["accepted"] and "duplicate" not in first
        # Ben (left of the dealer Ana) draws one card: 7 + 1 = 8, Cy's turn is not yet reached.
        draw = {"type": "draw", "player": "Ben", "count": 1, "event_id": "phone-2"}
        status, once = post_event(base, draw)
        assert once["state"]["players"][1]["hand_count"] == 8
        status, again = post_event(base, draw)
        assert status == 200 and again["duplicate"] is True and again["verdict"]["accepted"]
        assert "already stored as event 3" in again["verdict"]["reason"]
        assert again["state"]["players"][1]["hand_count"] == 8          # not 9
        assert again["state"]["event_count"] == 3
        # Still a duplicate after a SIGKILL and restart: the key is in the stored event.
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc, base, _ = start(tmp_path / "data")
        status, after = post_event(base, draw)
        assert after["duplicate"] is True and after["state"]["players"][1]["hand_count"] == 8
        # A bad key is refused with a reason and changes nothing.
        for bad in (7, "", "x" * 101, "tab\there"):
            status, body = post_event(base, {"type": "undo", "event_id": bad})
            assert status == 400 and "event_id" in body["error"]
        assert get_json(base, "/api/tables/main/state")["event_count"] == 3
    finally:
        stop(proc)
