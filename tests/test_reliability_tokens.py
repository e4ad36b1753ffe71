"""Issue 17: host tokens. serve makes tokens of at least 128 bits and refuses a custom one shorter
than 16 characters; wrong guesses are slowed per client address (then 429 with Retry-After)
without locking the real host out."""
from __future__ import annotations

import base64
import re
import subprocess
import sys

import pytest

from web.app import create_app
from helpers import ROOT, start_tableref

TOKEN = "the-right-token-0123456789"
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"]}


class Clock:
    now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def client(tmp_path, clock):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN, "TOKEN_GUESSES": {"clock": clock}})
    c = app.test_client()
    assert post(c, SETUP, TOKEN).status_code == 200
    yield c
    app.extensions["tableref"].shutdown()


def post(c, event, token, address="10.0.0.66"):
    return c.post("/api/tables/main/events", json=event, headers={"Authorization": f"Bearer {token}"},
                  environ_base={"REMOTE_ADDR": address})


def test_wrong_guesses_are_slowed_per_address_without_locking_the_host_out(client, clock):
    flip = {"type": "flip", "card": "red-5"}
    for i in range(10):                                   # ten free mistakes (a typo, an old link)
        assert post(client, flip, f"guess-{i}").status_code == 401
    r = post(client, flip, "guess-10")                    # the 11th: compared, wrong, and now blocked 1 s
    assert r.status_code == 429 and r.headers["Retry-After"] == "1"
    r = post(client, flip, "guess-11")
    assert r.status_code == 429 and r.headers["Retry-After"] == "1"
    assert "too many wrong host tokens" in r.get_json()["error"] and "nothing changed" in r.get_json()["error"]
    # while blocked the token is not even looked at: the right one from this address waits too
    assert post(client, flip, TOKEN).status_code == 429
    # the real host, on its own device, is not locked out; nor is a viewer on the guesser's address
    r = post(client, flip, TOKEN, address="10.0.0.5")
    assert r.status_code == 200 and r.get_json()["verdict"]["accepted"]
    assert client.get("/api/tables/main/state", environ_base={"REMOTE_ADDR": "10.0.0.66"}).status_code == 200
    # each further wrong guess doubles the wait, up to a minute
    waits = []
    for i in range(10):
        clock.now += 100
        r = post(client, {"type": "undo"}, f"again-{i}")
        assert r.status_code == 429
        waits.append(int(r.headers["Retry-After"]))
    assert waits[:6] == [2, 4, 8, 16, 32, 60] and max(waits) == 60
    assert client.get("/api/tables/main/state").get_json()["event_count"] == 2
    # the right token, once the wait is over, is accepted and forgives the address
    clock.now += 61
    assert post(client, {"type": "undo"}, TOKEN).status_code == 200
    assert post(client, {"type": "undo"}, "one-more-typo").status_code == 401


def test_auth_endpoint_counts_guesses_too(client, clock):
    for i in range(11):
        client.get("/api/auth", headers={"Authorization": f"Bearer g{i}"}, environ_base={"REMOTE_ADDR": "10.1.1.1"})
    r = client.get("/api/auth", headers={"Authorization": "Bearer g"}, environ_base={"REMOTE_ADDR": "10.1.1.1"})
    assert r.status_code == 429 and "Retry-After" in r.headers


def run_serve(*args, env=None):
    import os
    e = dict(os.environ, **(env or {}))
    e.pop("TABLEREF_HOST_TOKEN", None) if not env or "TABLEREF_HOST_TOKEN" not in env else None
    return subprocess.run([sys.executable, "-m", "web", "serve", "--port", "0", "--host", "127.0.0.1", *args],
                          cwd=ROOT, env=e, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("how", ["flag", "env"])
def test_a_short_custom_token_is_refused_at_start(tmp_path, how):
    short = "fifteen-chars-x"
    assert len(short) == 15
    if how == "flag":
        r = run_serve("--data", str(tmp_path), "--host-token", short)
        where = "--host-token"
    else:
        r = run_serve("--data", str(tmp_path), env={"TABLEREF_HOST_TOKEN": short})
        where = "TABLEREF_HOST_TOKEN"
    assert r.returncode == 2
    assert f"the host token of {where} is 15 characters long; use at least 16" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert not (tmp_path / "tableref.sqlite3").exists()


def test_a_made_token_has_at_least_128_bits(tmp_path):
    proc, base, out = start_tableref("serve", "--data", str(tmp_path))
    try:
        token = re.search(r"#token=(\S+)", out).group(1)
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128 and len(set(token)) > 10
    finally:
        proc.terminate()
        proc.wait(10)
