"""The store on a full or read-only disk, and a damaged store file: a clear error, nothing
acknowledged that was not stored, never a corrupt store.

Which real condition each test stands for (docs/reliability.md):
- a tmpfs of 512 KiB filled to the last byte: a real full disk (ENOSPC), under a real server;
  the tmpfs remounted read-only: a real read-only disk at start. Both need `mount` (root with
  CAP_SYS_ADMIN) and are skipped where it is not permitted;
- RLIMIT_FSIZE on the server process: every write past the limit fails (EFBIG), as a disk that
  fills up would make them fail, with no privilege needed;
- PRAGMA max_page_count: SQLite's own "database or disk is full";
- PRAGMA query_only: the store's file turning read-only under a running server.
"""
from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from referee.store import SQLiteEventStore, StoreError
from reliability_helpers import bare, get_json, post_event, sim_events, start, states_after, stop
from web.app import create_app

EVENTS = sim_events(400)
EXPECTED = states_after(EVENTS)


def _mount_permitted() -> bool:
    probe = Path(f"/tmp/tableref-mount-probe-{uuid.uuid4().hex[:8]}")
    probe.mkdir()
    try:
        ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)],
                            capture_output=True).returncode == 0
        if ok:
            subprocess.run(["umount", str(probe)], capture_output=True)
        return ok
    except OSError:
        return False
    finally:
        probe.rmdir()


needs_mount = pytest.mark.skipif(not _mount_permitted(), reason="mounting a tmpfs is not permitted here")


@pytest.fixture
def small_disk(tmp_path):
    mnt = tmp_path / "disk"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mnt)], check=True)
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def fill(folder: Path) -> Path:
    """Writes a file until the disk says it is full; returns it (delete it to free the space)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as e:
        assert e.errno in (28, 27), e          # ENOSPC, EFBIG
    finally:
        os.close(fd)
    return filler


def feed_until_refused(base, start_at=0, limit=len(EVENTS)):
    """Posts the simulator's events in order; returns (acknowledged count, the refusal)."""
    n = start_at
    while n < limit:
        status, body = post_event(base, EVENTS[n], table="t")
        if status != 200:
            return n, (status, body)
        assert body["verdict"]["accepted"] and bare(body["state"]) == EXPECTED[n + 1]
        n += 1
    return n, None


def intact(db_path: Path) -> list:
    db = sqlite3.connect(db_path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return [b for (b,) in db.execute("SELECT body FROM events WHERE table_id = 't' ORDER BY seq")]
    finally:
        db.close()


# -- a real full disk -------------------------------------------------------------------------------
@needs_mount
def test_full_disk_refuses_events_with_503_and_resumes_when_space_is_freed(small_disk):
    data = small_disk / "data"
    proc, base, _ = start(data)
    try:
        acked, _ = feed_until_refused(base, 0, 20)
        filler = fill(small_disk)
        acked, refusal = feed_until_refused(base, acked)
        assert refusal is not None, "a full disk took every event"
        status, body = refusal
        assert status == 503 and "not stored" in body["error"] and "full" in body["error"]
        assert "Traceback" not in body["error"]
        # Nothing half-done: the state and the log are those of the acknowledged events.
        assert bare(get_json(base, "/api/tables/t/state")) == EXPECTED[acked]
        assert len(get_json(base, "/api/tables/t/events")["events"]) == acked
        filler.unlink()
        more, refusal = feed_until_refused(base, acked, acked + 10)       # the same event, now stored
        assert refusal is None and more == acked + 10
    finally:
        stop(proc)
    assert len(intact(data / "tableref.sqlite3")) == acked + 10
    proc, base, _ = start(data)
    try:
        assert bare(get_json(base, "/api/tables/t/state")) == EXPECTED[acked + 10]
    finally:
        stop(proc)


@needs_mount
def test_read_only_disk_at_start_is_a_clear_error(small_disk):
    data = small_disk / "data"
    proc, base, _ = start(data, "--rules", "ono")
    stop(proc)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    for folder in (data, small_disk / "new"):
        r = subprocess.run([sys.executable, "-m", "web", "serve", "--port", "0", "--host", "127.0.0.1",
                            "--data", str(folder)], capture_output=True, text=True, timeout=30)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "cannot open the event store" in r.stderr and "read-only" in r.stderr
        assert "Traceback" not in r.stderr


# -- without privileges ---------------------------------------------------------------------------------
def _limit_file_size(limit: int):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)     # a failed write, not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_writes_failing_past_a_file_size_limit_refuse_events_and_keep_the_store_whole(tmp_path):
    data = tmp_path / "data"
    proc, base, _ = start(data, preexec_fn=_limit_file_size(48 * 1024))
    try:
        acked, refusal = feed_until_refused(base)
        assert refusal is not None and acked > 0
        status, body = refusal
        assert status == 503 and "not stored" in body["error"] and "Traceback" not in body["error"]
        assert bare(get_json(base, "/api/tables/t/state")) == EXPECTED[acked]
        for _ in range(3):                     # refused again and again, never half-stored
            assert post_event(base, EVENTS[acked], table="t")[0] == 503
        assert len(get_json(base, "/api/tables/t/events")["events"]) == acked
        proc.send_signal(signal.SIGKILL)       # and then the power goes
        proc.wait(10)
    finally:
        stop(proc)
    assert len(intact(data / "tableref.sqlite3")) == acked
    proc, base, _ = start(data)                # room again: the same game goes on
    try:
        assert bare(get_json(base, "/api/tables/t/state")) == EXPECTED[acked]
        assert feed_until_refused(base, acked, acked + 5) == (acked + 5, None)
    finally:
        stop(proc)


def _app(tmp_path):
    store = SQLiteEventStore(tmp_path / "tableref.sqlite3")
    app = create_app({"STORE": store, "HOST_TOKEN": "t"})
    return app, store, app.test_client()


def _post(client, n):
    return client.post("/api/tables/t/events", json=EVENTS[n], headers={"Authorization": "Bearer t"})


@pytest.mark.parametrize("pragma, words", [("max_page_count", "full"), ("query_only", "read-only")])
def test_sqlite_full_or_read_only_mid_game_is_503_and_changes_nothing(tmp_path, pragma, words):
    app, store, client = _app(tmp_path)
    for n in range(30):
        assert _post(client, n).status_code == 200
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count = {pages}" if pragma == "max_page_count" else "PRAGMA query_only = 1")
    n = 30
    while n < len(EVENTS):            # a page with room left takes a few more; then it is refused
        r = _post(client, n)
        if r.status_code != 200:
            break
        n += 1
    assert r.status_code == 503, "the store never refused"
    assert words in r.get_json()["error"] and "nothing changed" in r.get_json()["error"]
    assert bare(client.get("/api/tables/t/state").get_json()) == EXPECTED[n]
    store._db.execute("PRAGMA max_page_count = 1073741823" if pragma == "max_page_count" else "PRAGMA query_only = 0")
    assert _post(client, n).get_json()["state"]["event_count"] == EXPECTED[n + 1]["event_count"]
    app.extensions["tableref"].shutdown()
    store.close()
    assert len(intact(tmp_path / "tableref.sqlite3")) == n + 1


# -- a damaged store file -----------------------------------------------------------------------------------
@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_store_is_a_clear_error_at_start(tmp_path, damage):
    store = SQLiteEventStore(tmp_path / "tableref.sqlite3")
    for e in EVENTS[:200]:
        store.append("t", e)
    store.close()
    path = tmp_path / "tableref.sqlite3"
    raw = path.read_bytes()
    damaged = os.urandom(len(raw)) if damage == "garbage" else raw[: len(raw) // 3]
    path.write_bytes(damaged)
    with pytest.raises(StoreError, match="cannot open the event store"):
        SQLiteEventStore(path)
    r = subprocess.run([sys.executable, "-m", "web", "serve", "--port", "0", "--host", "127.0.0.1",
                        "--data", str(tmp_path)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "cannot open the event store" in r.stderr and "Traceback" not in r.stderr
    assert "damaged" in r.stderr
    assert path.read_bytes() == damaged          # left as it was, for its owner to inspect or restore
