"""`tableref serve` as a process: links, resume after SIGKILL, streams that end on SIGTERM."""
from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import urllib.request
from helpers import start_tableref

TOKEN = "serve-test-token"


def start(data, *extra):
    return start_tableref("serve", "--data", str(data), *extra)


def post(base, event, token=TOKEN):
    req = urllib.request.Request(f"{base}/api/tables/main/events", data=json.dumps(event).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.load(r)


def state(base):
    with urllib.request.urlopen(f"{base}/api/tables/main/state", timeout=5) as r:
        return json.load(r)


def test_killed_server_comes_back_in_the_same_state(tmp_path):
    proc, base, out = start(tmp_path, "--rules", "ono", "--players", "Ana,Ben,Cy", "--host-token", TOKEN)
    assert "new table main: ONO!: Ana, Ben, Cy" in out
    assert f"{base}/t/main#token={TOKEN}" in out              # the token only in the fragment
    assert f"phones and viewers:  {base}/t/main\n" in out
    post(base, {"type": "flip", "card": "red-5"})
    post(base, {"type": "play", "player": "Ben", "cards": ["red-7"]})
    before = state(base)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)

    proc, base, out = start(tmp_path, "--host-token", TOKEN)
    try:
        assert "resuming table main: ono, Ana, Ben, Cy, 3 events" in out
        after = state(base)
        assert {k: v for k, v in after.items() if k != "last_verdict"} == \
               {k: v for k, v in before.items() if k != "last_verdict"}
        assert after["top_card"] == "red-7" and after["current_player"] == 2
    finally:
        proc.terminate()
        proc.wait(10)


def test_sigterm_ends_the_streams_cleanly(tmp_path):
    proc, base, _ = start(tmp_path, "--host-token", TOKEN)
    host, port = base.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request("GET", "/api/tables/main/stream")
    r = conn.getresponse()
    assert r.status == 200 and r.getheader("Content-Type").startswith("text/event-stream")
    first = r.readline()
    assert first.startswith(b"retry:") or first.strip()
    proc.terminate()
    rest = r.read()                               # returns at the end of the stream, no error
    assert isinstance(rest, bytes)
    assert proc.wait(10) == 0


def test_a_made_token_is_printed_and_a_bad_setup_is_refused(tmp_path):
    proc, base, out = start(tmp_path)
    try:
        token = out.split("#token=")[1].split()[0]
        assert len(token) >= 24
        assert post(base, {"type": "flip", "card": "red-5"}, token)["verdict"]["accepted"]
    finally:
        proc.terminate()
        proc.wait(10)
    bad = subprocess.run([sys.executable, "-m", "web", "serve", "--port", "0", "--host", "127.0.0.1",
                          "--data", str(tmp_path / "other"), "--players", "Solo"],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "2 to 10 players" in bad.stderr


def test_rule_options_of_a_new_table_come_from_the_command_line(tmp_path):
    proc, base, _ = start(tmp_path, "--rules", "dino2", "--option", "speed_round=true", "--host-token", TOKEN)
    try:
        s = state(base)
        assert s["rules"] == "dino2" and s["options"]["speed_round"] is True
        # a speed round deals three cards each (shared/seeds/dino2.txt)
        assert [p["hand_count"] for p in s["players"]] == [3, 3, 3]
    finally:
        proc.terminate()
        proc.wait(10)
    bad = subprocess.run([sys.executable, "-m", "web", "serve", "--port", "0", "--host", "127.0.0.1",
                          "--data", str(tmp_path / "other"), "--option", "jokers=4"],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "no option jokers" in bad.stderr
