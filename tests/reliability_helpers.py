"""Shared by the tests/test_reliability_*.py files: a real `tableref serve` subprocess, raw HTTP
that reports a dropped connection instead of hiding it, and event logs made by the simulator.

Builds on tests/test_web_serve.py's `start` (the server prints its links; the base URL is read
from them)."""
from __future__ import annotations

import http.client
import json
import subprocess

from helpers import start_tableref
from referee import Game
from referee.simulate import SimReport, play_one

TOKEN = "reliability-token"
# What a client sees when the server dies under it: refused, reset, closed half-way, timed out.
DROPPED = (ConnectionError, http.client.HTTPException, OSError, TimeoutError)


def start(data, *extra, env_extra=None, preexec_fn=None, timeout=30.0):
    """Starts `tableref serve` on a free port; returns (process, base URL, what it printed)."""
    return start_tableref("serve", "--data", str(data), "--host-token", TOKEN, *extra, env_extra=env_extra,
                          preexec_fn=preexec_fn, timeout=timeout)


def stop(proc) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def request(base, method, path, body=None, headers=None, timeout=10.0):
    """(status, headers dict, body bytes); raises one of DROPPED when the connection fails."""
    host, port = base.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def post_event(base, event, table="main", token=TOKEN, timeout=10.0):
    """(status, JSON body) of one POST .../events."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    status, _, body = request(base, "POST", f"/api/tables/{table}/events", json.dumps(event).encode(), headers,
                              timeout)
    return status, json.loads(body)


def get_json(base, path):
    status, _, body = request(base, "GET", path)
    assert status == 200, (path, status, body[:300])
    return json.loads(body)


def bare(state: dict) -> dict:
    """The state without `last_verdict` (which tells the last answer, not the table)."""
    return {k: v for k, v in state.items() if k != "last_verdict"}


def sim_events(count: int, rules="ono", players=3, first_seed=1) -> list[dict]:
    """At least `count` accepted events of whole random games on physical cards (referee/simulate.py),
    one game after another, each game starting with its setup. Every event is accepted in order."""
    events: list[dict] = []
    seed = first_seed
    while len(events) < count:
        game = play_one(rules, players, seed, {}, SimReport(rules), check=False)
        events.extend(json.loads(json.dumps(e)) for e in game.log)
        seed += 1
    return events[:count]


def states_after(events: list[dict]) -> list[dict]:
    """bare(state) after 0, 1, ..., len(events) events, worked out by the referee in this process."""
    game = Game()
    out = [bare(game.to_dict())]
    for e in events:
        assert game.submit(e).accepted, e
        out.append(bare(game.to_dict()))
    return out
