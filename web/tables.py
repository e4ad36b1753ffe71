"""The tables a server runs: each one a Game, its stored log, and the streams watching it.

This is the web layer's service. Every change to a table, from a phone, the host or the camera,
goes through `TableRegistry.submit`: one lock per table puts submissions in order, an accepted
event is appended to the store *before* it is acknowledged, and every open stream is woken with
the new state. A table's settings (rules, players, dealer, options, camera source) are its
first event, the setup; a table exists once a setup has been accepted for it.
"""
from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from referee import Game, MalformedEvent, Verdict
from referee.events import validate
from referee.limits import Limits, check_values
from referee.store import EventStore, StoreError

from .redact import redact

log = logging.getLogger("tableref.web")

TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
LOG_TAIL = 12     # entries of the recent-events log pushed with the state
EVENT_ID = "event_id"   # optional client key: a retried event with a stored key is not applied twice
EVENT_ID_MAX = 100
# Fields a client sends with a command, not part of the event: never stored (see `take_meta`).
VERSION, SESSION, SENT_MS, TTL_MS = "version", "session", "sent_ms", "ttl_ms"
META = (VERSION, SESSION, SENT_MS, TTL_MS)
TTL_DEFAULT_MS = 8000       # a command with a session and sent_ms but no ttl_ms waits at most this long
ANSWERS_KEPT = 2000         # answers remembered per table for event_ids seen again (in memory)
SESSIONS_KEPT = 4096        # clock baselines remembered per server
SEATS = "seats"             # the store's setting key of a table's seats
WHO = "who_played"          # ... and of the camera plays waiting for "who played?"


# Fields of a stream's payload that are the table's, not the referee's state object.
TABLE_FIELDS = ("log", "table", "version", "problems", "seats", "seats_marked", "who_played", "reveal_reading")


class NoReveal(LookupError):
    """A reading of a hand asked for, confirmed or ended where none can be (no camera, none under way)."""


class UnknownQuestion(LookupError):
    """A "who played?" answer to a question that is not open (answered already, or never asked)."""


class UnknownTable(LookupError):
    pass


class TooMany(RuntimeError):
    """A server limit (tables per server) would be passed: nothing was created."""


@dataclass(frozen=True)
class ServerLimits(Limits):
    max_tables: int = 100
    max_id: int = 40


def replay_safely(events: list[dict], summaries: list[str] | None = None) -> tuple[Game, list[str]]:
    """A Game rebuilt from stored events, skipping any event that can no longer be replayed
    (an error raised by the referee, e.g. poison stored by an older version), with a line in
    words for each one skipped: the table opens at the last good state instead of not at all.
    `summaries`, if given, receives the referee's words for each stored event."""
    game, problems = Game(), []
    for n, event in enumerate(events, 1):
        try:
            verdict = game.submit(event)
            words = verdict.reason
        except Exception as e:          # noqa: BLE001 - any failure of one event must not stop the table
            kind = event.get("type") if isinstance(event, dict) else None
            problems.append(f"stored event {n} ({kind or 'not an event'}) cannot be replayed and was skipped: "
                            f"{type(e).__name__}: {str(e)[:200]}")
            words = f"stored event {n} (skipped)"
        if summaries is not None:
            summaries.append(words)
    return game, problems


@dataclass
class Meta:
    """What a client says about a command besides the event: the table version it was made
    against, and when it was sent (its session's own clock) and how long it may wait."""
    version: int | None = None
    session: str | None = None
    sent_ms: float | None = None
    ttl_ms: float = TTL_DEFAULT_MS


def take_meta(event: dict) -> Meta:
    """Removes the command's meta fields from the event (they are not stored) and checks them."""
    meta = Meta()
    if VERSION in event:
        v = event.pop(VERSION)
        if type(v) is not int or not 0 <= v <= 2 ** 53:
            raise MalformedEvent(f"{VERSION} must be the table's version the command was made against (a whole number >= 0)")
        meta.version = v
    if SESSION in event:
        v = event.pop(SESSION)
        if not isinstance(v, str) or not 1 <= len(v) <= EVENT_ID_MAX or not v.isprintable():
            raise MalformedEvent(f"{SESSION} must be a string of 1 to {EVENT_ID_MAX} printable characters")
        meta.session = v
    for name in (SENT_MS, TTL_MS):
        if name in event:
            v = event.pop(name)
            if type(v) not in (int, float) or not math.isfinite(v) or not 0 <= v <= 2 ** 53:
                raise MalformedEvent(f"{name} must be a number of milliseconds >= 0")
            setattr(meta, name, v)
    if (meta.sent_ms is None) != (meta.session is None):
        raise MalformedEvent(f"{SENT_MS} and {SESSION} go together (the time is on that session's clock)")
    if not 100 <= meta.ttl_ms <= 600_000:
        raise MalformedEvent(f"{TTL_MS} must be between 100 and 600000 milliseconds")
    return meta


class Stopping(RuntimeError):
    """The server is shutting down and takes no more events."""


@dataclass
class Submission:
    verdict: Verdict
    state: dict
    duplicate: bool = False                     # the event_id was seen before: nothing changed
    version: int = 0                            # the table's version after this (its stored events)
    refused: str | None = None                  # "stale" or "late": not judged at all (see docs/api.md)
    message: str | None = None                  # why, in words, when refused
    meanwhile: list[str] = field(default_factory=list)   # what was stored since the command's version

    def body(self) -> dict:
        body = {"verdict": self.verdict.to_dict(), "state": self.state, "version": self.version}
        if self.refused:
            body.update(error=self.message, refused=self.refused, meanwhile=self.meanwhile)
        if self.duplicate:
            body["duplicate"] = True
        return body


@dataclass
class Table:
    id: str
    game: Game
    stored: list[dict]                          # the accepted events, as in the store
    lock: threading.Lock = field(default_factory=threading.Lock)
    changed: threading.Condition = field(default_factory=threading.Condition)
    pushes: int = 0                             # bumped on every push (rejections too)
    message: str = ""                           # the latest pushed payload, JSON text
    message_id: int = 0                         # its event_count, the SSE id
    camera: object | None = None                # a web.camera.CameraFeed when one runs
    event_ids: dict[str, int] = field(default_factory=dict)   # stored event_id -> its place in the log (1, 2, ...)
    problems: list[str] = field(default_factory=list)         # stored events skipped at load (see replay_safely)
    summaries: list[str] = field(default_factory=list)        # the referee's words for each stored event
    answers: OrderedDict = field(default_factory=OrderedDict) # event_id -> the first answer (Submission)
    seats: list[dict] = field(default_factory=list)           # where each player sits on the picture (web/seats.py)
    # camera plays waiting for the table, in the order seen: {"id", "event", "player"} where player
    # is None while "who played?" is open (with the question's fields), else the player it goes to
    pending: list[dict] = field(default_factory=list)
    drain_lock: threading.Lock = field(default_factory=threading.Lock)
    # "read a hand" under way (web/reveal.py): {"player", "reading" (None until the camera reads)};
    # kept in memory only: a restart ends it, nothing having been charged
    reveal: dict | None = None
    # where the hands came in for the camera plays charged to each player before seats were marked
    # (web/seats.py, suggest_seats): player -> border positions, the latest few
    hands_seen: dict = field(default_factory=dict)

    @property
    def version(self) -> int:
        """Bumped by every stored event (undos too), never taken back: what a command is made against."""
        return len(self.stored)

    def remember(self, event: dict) -> None:
        """Notes a stored event (the last of `stored`) under its client key, if it has one."""
        key = event.get(EVENT_ID)
        if isinstance(key, str):
            self.event_ids.setdefault(key, len(self.stored))

    def questions(self) -> list[dict]:
        """The open "who played?" questions, oldest first, each with how many plays wait behind it."""
        out = []
        for n, item in enumerate(self.pending):
            if item["player"] is None and not item.get("dismissed"):
                out.append({k: item[k] for k in ("id", "text", "cards", "likely", "shares", "why")} |
                           {"t": item["event"].get("t"), "waiting": len(self.pending) - n - 1})
        return out

    def player_names(self) -> list[str]:
        return [p["name"] for p in self.game.to_dict()["players"]]

    def seat_map(self) -> dict[str, float]:
        """{player: border position} of the game in force, {} when no seats fit it (web/seats.py)."""
        from .seats import seat_map
        return seat_map(self.seats, self.player_names())

    @property
    def setup(self) -> dict:
        return self.stored[0] if self.stored else {}

    def recent_log(self) -> list[dict]:
        """The last accepted events still in force, with the referee's words for each."""
        return self.game.recent(LOG_TAIL)

    def payload(self) -> dict:
        """What a stream sends: the state object plus the recent log and the table id."""
        state = self.game.to_dict()
        state["table"] = self.id
        state["log"] = redact(self.recent_log())          # a setup's camera address, without its password
        state["version"] = self.version
        state["seats"] = self.seats
        from .seats import seat_map
        state["seats_marked"] = bool(seat_map(self.seats, [p["name"] for p in state["players"]]))
        state["who_played"] = self.questions()
        state["reveal_reading"] = self.reveal
        if self.problems:
            state["problems"] = self.problems
        return state


class TableRegistry:
    def __init__(self, store: EventStore, limits: ServerLimits | None = None):
        self.store = store
        self.limits = limits or ServerLimits()
        self.tables: dict[str, Table] = {}
        self._lock = threading.Lock()          # guards self.tables and self._pending
        self._pending: dict[str, Table] = {}   # new tables whose setup is being judged
        self.stopping = threading.Event()
        self.open_streams = 0                  # streams being served now (for a clean stop)
        self._streams_lock = threading.Lock()
        self.on_new_table = None               # callback(table), e.g. to start its camera
        self._clocks: OrderedDict[str, float] = OrderedDict()   # session -> smallest (our ms - its sent_ms)
        self.push_hooks: list = []             # hook(table id, payload JSON, event_count) after every push
        self.stop_hooks: list = []             # hook() when the server stops (web/streams.py)
        for table_id in store.tables():
            try:
                self._load(table_id)
            except Exception:           # noqa: BLE001 - one table that cannot load leaves the others running
                log.exception("table %s cannot be loaded from the store; the other tables run", table_id)

    # -- lookup -------------------------------------------------------------------------------
    def _load(self, table_id: str) -> Table:
        stored = self.store.events(table_id)
        summaries: list[str] = []
        game, problems = replay_safely(stored, summaries)
        table = Table(table_id, game, [], problems=problems, summaries=summaries)
        table.seats = self.store.setting(table_id, SEATS) or []
        table.pending = self.store.setting(table_id, WHO) or []
        for line in problems:
            log.error("table %s: %s; it opens at the state after the events that replay", table_id, line)
        for event in stored:
            table.stored.append(event)
            table.remember(event)
        payload = table.payload()
        table.message, table.message_id = json.dumps(payload), payload["event_count"]
        self.tables[table_id] = table
        return table

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise UnknownTable(f"there is no table {table_id!r}")
        return table

    def ids(self) -> list[str]:
        return sorted(self.tables)

    # -- the one door for changes ---------------------------------------------------------------
    def submit(self, table_id: str, event) -> Submission:
        """Judges one event, stores it if accepted, wakes the streams, and returns the verdict.

        A command may carry, besides the event, `event_id` (a retry of the same id gets the first
        answer again and changes nothing), `version` (the table's version it was made against: if
        the table has moved on since, it is refused as "stale" with what happened meanwhile) and
        `session` + `sent_ms` (+ `ttl_ms`): a command that waited longer than ttl_ms before its turn
        is refused as "late", not carried out. See docs/api.md.

        Raises MalformedEvent (not an event), UnknownTable (no such table and the event is not a
        setup that creates it), TooMany, StoreError (not stored: nothing changed) or Stopping."""
        if self.stopping.is_set():
            raise Stopping("the server is shutting down")
        validate(event)
        event = dict(event)
        meta = take_meta(event)
        check_event_id(event)
        check_values(event, self.limits)
        table = self.tables.get(table_id)
        if table is None:
            table = self._create(table_id, event)
        created = False
        with table.lock:
            if table_id not in self.tables:        # a setup that lost the race to create it
                created = True
            key = event.get(EVENT_ID)
            if key is not None:
                # The same tap again (a retry after a lost answer, a double send, a restarted
                # server): the first answer again, never applied twice.
                first = table.answers.get(key)
                if key in table.event_ids:
                    n = table.event_ids[key]
                    note = f"already stored as event {n} of this table (event_id {key!r}); nothing changed"
                    verdict = (Verdict(first.verdict.index, first.verdict.type, True, f"{first.verdict.reason} ({note})",
                                       first.verdict.effects, first.verdict.player) if first is not None
                               else Verdict(table.game.submitted, event["type"], True, note))
                    return Submission(verdict, table.game.to_dict(), duplicate=True, version=table.version)
                if first is not None:
                    return Submission(first.verdict, table.game.to_dict(), True, table.version,
                                      first.refused, first.message, first.meanwhile)
            refusal = self._refusal(table, event, meta)
            if refusal is not None:
                self._remember_answer(table, key, refusal)
                return refusal
            verdict = table.game.submit(event)
            if verdict.accepted:
                try:
                    self.store.append(table_id, event)
                except StoreError:
                    # Not stored, so not acknowledged: the game goes back to the stored log.
                    table.game = replay_safely(table.stored)[0]
                    raise
                table.stored.append(event)
                table.summaries.append(verdict.reason)
                table.remember(event)
                if event["type"] == "setup" and table.pending:
                    # a new game: the camera's questions about the last one are moot
                    self._save_pending(table, [])
            if created:
                if not verdict.accepted:
                    with self._lock:
                        self._pending.pop(table_id, None)     # a refused setup leaves no table behind
                    return Submission(verdict, table.game.to_dict(), version=table.version)
                with self._lock:
                    self.tables[table_id] = table
                    self._pending.pop(table_id, None)
            state = self._publish(table)
            result = Submission(verdict, state, version=table.version)
            self._remember_answer(table, key, result)
        if created and self.on_new_table is not None:
            self.on_new_table(table)
        return result

    @staticmethod
    def _remember_answer(table: Table, key, result: Submission) -> None:
        if key is None:
            return
        table.answers[key] = result
        while len(table.answers) > ANSWERS_KEPT:
            table.answers.popitem(last=False)

    def _refusal(self, table: Table, event: dict, meta: Meta) -> Submission | None:
        """A "late" or "stale" refusal of a command, or None when it may be judged now."""
        kind = event["type"]
        if meta.session is not None:
            now = time.monotonic() * 1000
            with self._lock:
                # The session's clock against ours: the smallest difference seen is the one with
                # the least delay, so how long this command waited is its difference minus that.
                offset = now - meta.sent_ms
                base = min(offset, self._clocks.pop(meta.session, offset))
                self._clocks[meta.session] = base
                while len(self._clocks) > SESSIONS_KEPT:
                    self._clocks.popitem(last=False)
            waited = offset - base
            if waited > meta.ttl_ms:
                message = (f"not carried out: this {kind} waited {waited / 1000:.1f} s, longer than its "
                           f"{meta.ttl_ms / 1000:g} s, before its turn; nothing changed. Look at the table and tap again "
                           f"if it is still wanted")
                return Submission(Verdict(table.game.submitted, kind, False, message), table.game.to_dict(),
                                  version=table.version, refused="late", message=message)
        if meta.version is not None and meta.version != table.version:
            now = table.version
            if meta.version > now:
                meanwhile = []
                message = (f"not carried out: this {kind} was made against version {meta.version} of the table, "
                           f"which it never had (it is at {now}); nothing changed")
            else:
                meanwhile = table.summaries[meta.version:now]
                shown = "; ".join(meanwhile[-3:]) + (f" (and {len(meanwhile) - 3} more)" if len(meanwhile) > 3 else "")
                message = (f"not carried out: the game moved on since this {kind} was tapped: {shown} came first; "
                           f"nothing changed. Look at the table and tap again if it is still wanted")
            return Submission(Verdict(table.game.submitted, kind, False, message), table.game.to_dict(),
                              version=now, refused="stale", message=message, meanwhile=meanwhile)
        return None

    def _create(self, table_id: str, event: dict) -> Table:
        max_id = self.limits.max_id
        if not TABLE_ID.match(table_id) or len(table_id) > max_id:
            raise UnknownTable(f"there is no table {table_id[:max_id]!r} (a new table's id is 1 to {max_id} lower-case "
                               f"letters, digits and hyphens, starting with a letter or digit)")
        if event.get("type") != "setup":
            raise UnknownTable(f"there is no table {table_id!r}; post a setup event to create it")
        with self._lock:
            if table_id not in self._pending and len(self.tables) + len(self._pending) >= self.limits.max_tables:
                raise TooMany(f"this server already runs {len(self.tables)} tables (at most {self.limits.max_tables}; "
                              f"`tableref serve --max-tables N` raises it); no table was created")
            # Not listed until its setup is accepted and stored (see submit); two setups racing
            # for the same new id share one Table, so its lock puts them in order.
            table = self.tables.get(table_id) or self._pending.get(table_id)
            if table is None:
                table = self._pending[table_id] = Table(table_id, Game(), [])
            return table

    # -- seats (not events: the referee never sees them) -----------------------------------------
    def set_seats(self, table_id: str, body) -> list[dict]:
        """Checks and stores where the players sit (None clears the seats); raises BadSeats (nothing
        changed), UnknownTable or StoreError. The camera and every stream hear of it."""
        from .seats import check_seats
        table = self.get(table_id)
        with table.lock:
            seats = [] if body is None else check_seats(body, table.player_names())
            self.store.put_setting(table_id, SEATS, seats or None)
            table.seats = seats
            if table.camera is not None and hasattr(table.camera, "set_seats"):
                table.camera.set_seats(table.seat_map())
            self._publish(table)
        return seats

    # -- camera plays and "who played?" (web/who.py) -------------------------------------------------
    def camera_play(self, table_id: str, event: dict, question: dict | None = None) -> list[Submission]:
        """A play seen by the camera. With a question (the camera was unsure who played) it waits,
        charged to nobody, until answered; a play with its player is submitted at once, unless
        earlier plays wait for an answer: then it waits behind them, so the referee judges the
        plays in the order they were made. Returns the submissions made now."""
        table = self.get(table_id)
        with table.lock:
            if question is None and not table.pending:
                held = False
            else:
                held = True
                number = max((i["id"] for i in table.pending), default=0) + 1
                item = {"id": number, "event": event, "player": None if question else event["player"]}
                if question:
                    item |= question
                self._save_pending(table, table.pending + [item])
                self._publish(table)
        return [] if held else [self.submit(table_id, event)]

    def answer(self, table_id: str, question_id, player) -> list[Submission]:
        """Answers "who played?": `player` (a name or seat index) played it, or None: nobody did
        (not a play). The play goes to the referee in that player's name, then every play that
        waited behind it and knows its player, up to the next open question. Raises
        UnknownQuestion, or MalformedEvent for a player not at the table (nothing changed)."""
        table = self.get(table_id)
        with table.lock:
            item = next((i for i in table.pending if i["id"] == question_id and i["player"] is None
                         and not i.get("dismissed")), None)
            if item is None:
                raise UnknownQuestion(f"there is no open question {question_id!r} at table {table_id!r} "
                                      f"(answered already?)")
            names = table.player_names()
            if player is None:
                chosen = None
            elif type(player) is int and 0 <= player < len(names):
                chosen = names[player]
            elif isinstance(player, str) and sum(n.casefold() == player.casefold() for n in names) == 1:
                chosen = next(n for n in names if n.casefold() == player.casefold())
            else:
                raise MalformedEvent(f"{str(player)[:40]!r} does not play at this table (players: {', '.join(names)})")
            updated = [dict(i) for i in table.pending]
            for i in updated:
                if i["id"] == question_id:
                    i["player"], i["dismissed"] = chosen, chosen is None
            self._save_pending(table, updated)
        return self._drain(table)

    def _drain(self, table: Table) -> list[Submission]:
        """Submits the waiting plays from the oldest while each knows its player (or was dismissed)."""
        results = []
        with table.drain_lock:
            while True:
                with table.lock:
                    if not table.pending or (table.pending[0]["player"] is None and not table.pending[0].get("dismissed")):
                        self._publish(table)
                        return results
                    head = table.pending[0]
                    self._save_pending(table, table.pending[1:])
                if not head.get("dismissed"):
                    results.append(self.submit(table.id, {**head["event"], "player": head["player"]}))

    def note_hand(self, table_id: str, player: int, edge: float) -> None:
        """A camera play charged to `player` (the player on turn, no seats marked) was accepted and
        its hand came in at border position `edge`: material for suggesting seats."""
        table = self.get(table_id)
        with table.lock:
            names = table.player_names()
            if not 0 <= player < len(names):
                return
            table.hands_seen.setdefault(names[player], []).append(float(edge))
            del table.hands_seen[names[player]][:-8]

    # -- reading a shown hand (web/reveal.py) -------------------------------------------------------
    def start_reveal(self, table_id: str, player) -> dict:
        """The camera reads every card in view for `player`'s hand until confirmed or ended.
        Raises NoReveal (no camera) or MalformedEvent (no such player); nothing changes then."""
        table = self.get(table_id)
        with table.lock:
            if table.camera is None or not hasattr(table.camera, "reveal"):
                raise NoReveal("this table has no camera to read a hand with")
            name = _player_name(player, table.player_names())
            table.reveal = {"player": name, "reading": None}
            table.camera.reveal(True)
            self._publish(table)
            return table.reveal

    def reveal_seen(self, table_id: str, event: dict, width=None, height=None) -> None:
        """What the camera read while a hand is shown (a `reveal_cards` event)."""
        from .reveal import reading
        table = self.get(table_id)
        with table.lock:
            if table.reveal is None:
                return
            table.reveal = {**table.reveal, "reading": reading(event, width, height), "t": event.get("t")}
            self._publish(table)

    def end_reveal(self, table_id: str, cards: list | None = None) -> Submission | None:
        """Ends the reading of a hand: with `cards` (the list the player or host confirmed) a
        `reveal` goes to the referee in the player's name and its verdict is returned; without,
        nothing is charged. Raises NoReveal when none is under way."""
        table = self.get(table_id)
        with table.lock:
            if table.reveal is None:
                raise NoReveal(f"no hand is being read at table {table_id!r}")
            player = table.reveal["player"]
        result = None
        if cards is not None:
            result = self.submit(table_id, {"type": "reveal", "player": player, "cards": cards})
            if not result.verdict.accepted:
                return result           # still reading: fix the list or end it
        with table.lock:
            table.reveal = None
            if table.camera is not None and hasattr(table.camera, "reveal"):
                table.camera.reveal(False)
            self._publish(table)
        return result

    def _save_pending(self, table: Table, pending: list[dict]) -> None:
        self.store.put_setting(table.id, WHO, pending or None)     # raises StoreError: nothing changed
        table.pending = pending

    def _publish(self, table: Table) -> dict:
        payload = table.payload()
        with table.changed:
            table.message, table.message_id = json.dumps(payload), payload["event_count"]
            table.pushes += 1
            table.changed.notify_all()
            for hook in self.push_hooks:
                hook(table.id, table.message, table.message_id)
        return {k: v for k, v in payload.items() if k not in TABLE_FIELDS}

    # -- streams ---------------------------------------------------------------------------------
    def latest(self, table: Table) -> tuple[int, str, int]:
        """(version, payload JSON, event_count) of the latest push."""
        with table.changed:
            return table.pushes, table.message, table.message_id

    def wait(self, table: Table, seen: int, timeout: float) -> tuple[int, str, int] | None:
        """Blocks until the table has a push newer than version `seen` (returns it, as `latest`
        does) or until timeout or shutdown (None)."""
        with table.changed:
            if table.pushes == seen and not self.stopping.is_set():
                table.changed.wait(timeout)
            if table.pushes == seen:
                return None
            return table.pushes, table.message, table.message_id

    def stream_opened(self, delta: int) -> None:
        with self._streams_lock:
            self.open_streams += delta

    def shutdown(self) -> None:
        """Ends every stream and stops the cameras; later submissions raise Stopping."""
        self.stopping.set()
        for hook in self.stop_hooks:
            hook()
        for table in list(self.tables.values()):
            if table.camera is not None:
                table.camera.stop()
            with table.changed:
                table.changed.notify_all()

    def join_cameras(self, timeout: float) -> list[str]:
        """Waits, `timeout` s at most in all, for the stopped cameras' threads to end: the ids of the
        tables whose camera is still reading."""
        end = time.monotonic() + timeout
        late = []
        for table in list(self.tables.values()):
            camera = table.camera
            if camera is not None and hasattr(camera, "join") and not camera.join(max(0.0, end - time.monotonic())):
                late.append(table.id)
        return late


def _player_name(player, names: list[str]) -> str:
    if type(player) is int and 0 <= player < len(names):
        return names[player]
    if isinstance(player, str):
        hits = [n for n in names if n.casefold() == player.strip().casefold()]
        if len(hits) == 1:
            return hits[0]
    raise MalformedEvent(f"{str(player)[:40]!r} does not play at this table (players: {', '.join(names)})")


def check_event_id(event: dict) -> None:
    key = event.get(EVENT_ID)
    if key is None:
        return
    if not isinstance(key, str) or not 1 <= len(key) <= EVENT_ID_MAX or not key.isprintable():
        raise MalformedEvent(f"{EVENT_ID} must be a string of 1 to {EVENT_ID_MAX} printable characters")


__all__ = ["NoReveal", "UnknownQuestion", "MalformedEvent", "ServerLimits", "StoreError", "Stopping", "Submission", "Table", "TableRegistry", "TooMany",
           "UnknownTable", "replay_safely"]
