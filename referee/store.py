"""The event store: an append-only log of accepted events per table.

`EventStore` is the interface the app uses; `SQLiteEventStore` keeps it in one SQLite file in
WAL mode with synchronous=FULL, so an append has reached the disk when `append` returns, and
only then is the event acknowledged. A server database can take its place behind the same
methods when one machine is not enough.

Besides the log, a table has settings that are not events (the referee never sees them), kept
durably by key: `put_setting` / `setting` (the seats marked on the camera's picture, web/seats.py).
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from abc import ABC, abstractmethod
from pathlib import Path


class StoreError(RuntimeError):
    """The store cannot be read or written (full or read-only disk, a corrupt file)."""


class EventStore(ABC):
    @abstractmethod
    def append(self, table: str, event: dict) -> int:
        """Stores one accepted event durably; returns its sequence number in the table (1, 2, ...)."""

    @abstractmethod
    def events(self, table: str) -> list[dict]:
        """Every stored event of a table, in order."""

    @abstractmethod
    def tables(self) -> list[str]:
        """Ids of the tables that have events."""

    @abstractmethod
    def put_setting(self, table: str, key: str, value) -> None:
        """Stores a table's setting (any JSON value) durably; None removes it."""

    @abstractmethod
    def setting(self, table: str, key: str):
        """A table's setting, or None when it has none."""

    @abstractmethod
    def close(self) -> None: ...


class SQLiteEventStore(EventStore):
    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = None
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("CREATE TABLE IF NOT EXISTS events (table_id TEXT NOT NULL, seq INTEGER NOT NULL, "
                             "body TEXT NOT NULL, PRIMARY KEY (table_id, seq))")
            self._db.execute("CREATE TABLE IF NOT EXISTS settings (table_id TEXT NOT NULL, key TEXT NOT NULL, "
                             "body TEXT NOT NULL, PRIMARY KEY (table_id, key))")
            check = self._db.execute("PRAGMA quick_check").fetchone()
            if check != ("ok",):
                raise sqlite3.DatabaseError(f"the file is damaged ({check[0]})")
            # A write that changes nothing: a read-only file or disk is refused now, at start,
            # not at the first event of the game.
            (version,) = self._db.execute("PRAGMA user_version").fetchone()
            self._db.execute(f"PRAGMA user_version = {int(version)}")
        except (sqlite3.DatabaseError, OSError) as e:
            if self._db is not None:
                self._db.close()     # no handle left open on a file we refuse
            raise StoreError(f"cannot open the event store {self.path}: {e}{self._why_not(e)}") from e

    def _why_not(self, error: Exception) -> str:
        """A hint in words for the usual causes of an open that failed."""
        folder = Path(self.path).parent
        if self.path == ":memory:":
            return ""
        if "readonly" in str(error) or "Read-only" in str(error) or (folder.is_dir() and not os.access(folder, os.W_OK)) or \
                (Path(self.path).exists() and not os.access(self.path, os.W_OK)):
            return " (the store's file or folder is read-only: give tableref a writable --data folder)"
        if "not a database" in str(error) or "malformed" in str(error) or "damaged" in str(error):
            return " (the file is not a tableref store or is damaged: move it away and restore a backup)"
        if "full" in str(error):
            return " (the disk is full: free some space)"
        return ""

    def append(self, table: str, event: dict) -> int:
        body = json.dumps(event, separators=(",", ":"), sort_keys=True)
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                (seq,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE table_id = ?",
                                          (table,)).fetchone()
                self._db.execute("INSERT INTO events VALUES (?, ?, ?)", (table, seq, body))
                self._db.execute("COMMIT")
            except (sqlite3.DatabaseError, OSError) as e:
                if self._db.in_transaction:
                    try:
                        self._db.execute("ROLLBACK")
                    except sqlite3.DatabaseError:
                        pass         # SQLite rolls back a failed write itself; the journal keeps the file whole
                hint = " (the disk is full)" if "full" in str(e) else \
                       " (the store's file became read-only)" if "readonly" in str(e) else ""
                raise StoreError(f"the event was not stored: {e}{hint}") from e
        return seq

    def events(self, table: str) -> list[dict]:
        with self._lock:
            rows = self._db.execute("SELECT body FROM events WHERE table_id = ? ORDER BY seq", (table,)).fetchall()
        return [json.loads(body) for (body,) in rows]

    def tables(self) -> list[str]:
        with self._lock:
            return [t for (t,) in self._db.execute("SELECT DISTINCT table_id FROM events ORDER BY table_id")]

    def put_setting(self, table: str, key: str, value) -> None:
        with self._lock:
            try:
                if value is None:
                    self._db.execute("DELETE FROM settings WHERE table_id = ? AND key = ?", (table, key))
                else:
                    self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?, ?)",
                                     (table, key, json.dumps(value, separators=(",", ":"), sort_keys=True)))
            except (sqlite3.DatabaseError, OSError) as e:
                raise StoreError(f"the setting was not stored: {e}") from e

    def setting(self, table: str, key: str):
        with self._lock:
            row = self._db.execute("SELECT body FROM settings WHERE table_id = ? AND key = ?", (table, key)).fetchone()
        return json.loads(row[0]) if row else None

    def close(self) -> None:
        with self._lock:
            self._db.close()
