"""The SQLite event store: durable, ordered, per table, in WAL mode, clear errors."""
import os
import sqlite3
import stat

import pytest

from referee import Game
from referee.store import SQLiteEventStore, StoreError

EVENTS = [{"type": "setup", "rules": "ono", "players": ["Ana", "Ben"]}, {"type": "flip", "card": "red-5"},
          {"type": "play", "player": "Ben", "cards": ["red-7"]}, {"type": "undo"}]


def test_events_come_back_in_order_per_table_after_reopening(tmp_path):
    path = tmp_path / "store" / "events.sqlite"
    store = SQLiteEventStore(path)
    assert [store.append("main", e) for e in EVENTS] == [1, 2, 3, 4]
    store.append("other", EVENTS[0])
    store.close()
    store = SQLiteEventStore(path)
    assert store.events("main") == EVENTS and store.events("other") == EVENTS[:1]
    assert store.tables() == ["main", "other"]
    assert store.events("nobody") == []
    # the state is rebuilt by replaying the log, undo included
    game = Game.replay(store.events("main"))
    assert game.to_dict()["top_card"] == "red-5" and game.to_dict()["event_count"] == 2


def test_the_store_uses_write_ahead_logging_and_full_sync(tmp_path):
    path = tmp_path / "events.sqlite"
    SQLiteEventStore(path).append("main", EVENTS[0])
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_committed_event_is_visible_to_another_connection_at_once(tmp_path):
    path = tmp_path / "events.sqlite"
    writer = SQLiteEventStore(path)
    writer.append("main", EVENTS[0])
    # no close: a second process opening the file must already see the event
    assert SQLiteEventStore(path).events("main") == EVENTS[:1]


def test_a_corrupt_file_gives_a_clear_error(tmp_path):
    path = tmp_path / "events.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the event store"):
        SQLiteEventStore(path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files")
def test_a_read_only_store_refuses_appends_with_a_clear_error(tmp_path):
    path = tmp_path / "events.sqlite"
    SQLiteEventStore(path).append("main", EVENTS[0])
    os.chmod(path, stat.S_IREAD)
    with pytest.raises(StoreError):
        SQLiteEventStore(path).append("main", EVENTS[1])
