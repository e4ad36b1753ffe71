"""The demo table: a bundled recording (datasets/demo/, ONO!; datasets/demo-prison/, California
Prison with its seats marked) played as a live camera, plus the table's own taps.

The camera reads the cards that land on the pile (the flip and every play). What a camera cannot
see, the colour named after a wild, cards drawn, passes and ONO! calls, players enter on a phone;
in the demo those taps come from the recording's true log (demo.events.jsonl), each sent once the
table holds exactly the log's events before it and its moment in the video has come
(demo.frames.json says when a drawn card leaves the pile; a colour, a pass or a call follows the
card event before it). The taps never stand in for the camera as it works: a tap waits until the
table holds exactly the log's events before it.

When the camera misses a card or a wrong event gets onto the table (a misread card, a play in the
wrong player's name), the demo does what a host would do from the host controls, and says so in the
server's log ("demo: host: ..."):
- the camera's next play shows a card it missed (the play is a later card of the log, and earlier
  ones are not on the table yet): the host taps in the missing events from the log at once, then the
  camera's play goes to the referee as the camera charged it. Without this every later play would
  come one card early and be refused, and the host would end up playing the rest of the game by hand.
- the camera sends a play unconfirmed (unsure of its cards): the host confirms it at once;
- the camera asks "who played?": the host answers with the log's player;
- no reading CAMERA_GRACE_S after the card came to rest, and no later play to show it (the last card,
  or one before a tap): the host plays it by hand;
- a wrong event stays on the table FIX_AFTER_S: the host takes it back.
On an idle machine this rarely happens; on a starved one it keeps the demo going.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

log = logging.getLogger("tableref.demo")

DEMO = Path(__file__).resolve().parent.parent / "datasets" / "demo"
# the bundled recordings by rule set: `tableref demo --rules ID`
DEMOS = {"ono": DEMO, "prison": DEMO.parent / "demo-prison"}
CAMERA_TYPES = ("flip", "play")   # what the pipeline sends (web.camera.REFEREE_TYPES)
TAP_DELAY_S = 0.4                 # a colour, pass or call comes this long after the card it follows
HOLD_S = 8.0                      # a looping demo shows the final state this long before dealing again
CAMERA_GRACE_S = 3.0              # video seconds after a card rests before the host plays it by hand
# what the camera adds to an event besides what it says (docs/events.md), and the client's key
BOOKKEEPING = ("t", "confidence", "event_id", "camera", "seat", "seat_confidence", "seat_likely", "hands", "hand_edge")
FIX_AFTER_S = 1.0                 # seconds a wrong event stays on the table before the host takes it back


class DemoRecording:
    def __init__(self, folder: Path = DEMO):
        self.video = folder / "demo.mp4"
        self.events = [json.loads(line) for line in (folder / "demo.events.jsonl").read_text().splitlines()
                       if line.strip()]
        frames = json.loads((folder / "demo.frames.json").read_text())
        fps = frames["fps"]
        landed = {c["event"]: c["land_frame"] / fps for c in frames["card_events"]}
        settled = {c["event"]: c["settled_frame"] / fps for c in frames["card_events"]}
        self.setup = self.events[0]
        # where each player's arm comes into the picture, when the recording says (the prison one):
        # the demo marks them as the table's seats, as a host would, so plays are charged by hand
        self.seats = [{"player": name, "x": s["x"], "y": s["y"]} for name, s in (frames.get("seats") or {}).items()]
        # (log index, video time it is due, event) for every event the camera cannot see
        self.taps: list[tuple[int, float, dict]] = []
        # {log index: video time the card came to rest} for every event the camera sends
        self.rested: dict[int, float] = {}
        # {log index: video time the card first lay on the pile} for the same
        self.landed: dict[int, float] = {}
        last_settled = 0.0
        for i, event in enumerate(self.events[1:], start=1):
            if event["type"] in CAMERA_TYPES:
                last_settled = self.rested[i] = settled[i]
                self.landed[i] = landed[i]
                continue
            due = landed.get(i, last_settled + TAP_DELAY_S)
            last_settled = settled.get(i, last_settled)
            self.taps.append((i, due, event))


def same_event(event: dict, players: list[str]) -> tuple:
    """What an event says, without its bookkeeping (the camera's `t`, `confidence` and who-played
    fields, an `event_id`); a player given by name counts as the seat of that name."""
    def seat(v):
        return players.index(v) if isinstance(v, str) and v in players else v
    keep = {k: v for k, v in event.items() if k not in BOOKKEEPING}
    for k in ("player", "caller", "target"):
        if k in keep:
            keep[k] = seat(keep[k])
    return tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in keep.items()))


def game_events(table) -> list[dict]:
    """The accepted events of the table's current game, its setup first."""
    events = table.game.log
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == "setup":
            return events[i:]
    return []


class DemoTable:
    """Sends the recording's taps to table `table_id` in step with its camera, and with `loop`
    deals the same game again once it is over and the recording has ended."""

    def __init__(self, app, table_id: str, recording: DemoRecording, loop: bool, hold_s: float = HOLD_S):
        self.app, self.table_id, self.recording = app, table_id, recording
        self.loop, self.hold_s = loop, hold_s
        self.registry = app.extensions["tableref"]
        players = recording.setup["players"]
        self.truth = [same_event(e, players) for e in recording.events]
        self.games = 1
        self.corrections: list[str] = []
        # one host at a time: the demo's thread and the camera's (before_event) both submit
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="demo-table", daemon=True)

    def start(self) -> "DemoTable":
        self.thread.start()
        return self

    def _stopping(self) -> bool:
        return self.registry.stopping.is_set()

    def _run(self) -> None:
        try:
            while not self._stopping():
                self._play_taps()
                if not self.loop or not self._next_game():
                    return
        except Exception:                      # the server goes on; the demo table says why in the log
            log.exception("the demo table stopped")

    def out_of_step(self, events: list[dict]) -> int | None:
        """The first of the game's events (game_events) that differs from the recording's log, or None."""
        players = self.recording.setup["players"]
        for i, event in enumerate(events):
            if i >= len(self.truth) or same_event(event, players) != self.truth[i]:
                return i
        return None

    def _play_taps(self) -> None:
        """Until the table holds the whole recorded game: each tap at its moment, in step with the
        camera; the host's corrections when the camera gets it wrong."""
        table = self.registry.get(self.table_id)
        taps = {i: (due, e) for i, due, e in self.recording.taps}
        total = len(self.recording.events)
        self._wrong_seen, self._wrong_since = None, 0.0
        while not self._stopping():
            time.sleep(0.02)
            with self._lock:
                if self._step(table, taps, total):
                    return

    def _step(self, table, taps: dict, total: int) -> bool:
        """One look at the table: sends what is due, corrects what is wrong. True once the table
        holds the whole recorded game."""
        feed = table.camera
        if getattr(feed, "before_event", False) is None:
            feed.before_event = self._camera_saw     # each new feed (a looping demo starts one a game)
        now = feed.clock() if feed is not None else None
        if table.pending:
            self._answer(table)
            return False
        events = game_events(table)
        wrong = self.out_of_step(events)
        if wrong is not None:
            if wrong != self._wrong_seen:
                self._wrong_seen, self._wrong_since = wrong, time.monotonic()
            elif time.monotonic() - self._wrong_since > FIX_AFTER_S:
                self._host(f"the camera put {events[wrong]} where the recording has "
                           f"{self.recording.events[wrong] if wrong < total else 'nothing'}; taking back "
                           f"{len(events) - wrong} event(s)", [{"type": "undo"}] * (len(events) - wrong))
                self._wrong_seen = None
            return False
        self._wrong_seen = None
        if len(events) >= total:
            return True
        if now is None:
            return False
        if len(events) in taps:
            due, event = taps[len(events)]
            if now >= due:
                result = self.registry.submit(self.table_id, dict(event))
                if not result.verdict.accepted:     # cannot happen in step; do not spin on it
                    log.warning("demo: %s rejected: %s", event, result.verdict.reason)
                    time.sleep(1.0)
        elif self._unsure(feed, len(events)):
            event = self.recording.events[len(events)]
            self._host(f"the camera is unsure of {event.get('card') or event.get('cards')}; confirming the "
                       f"play from the host controls", [event])
        elif now >= self.recording.rested[len(events)] + CAMERA_GRACE_S:
            event = self.recording.events[len(events)]
            self._host(f"the camera has not read {event.get('card') or event.get('cards')} "
                       f"{CAMERA_GRACE_S:g} s after it came to rest; playing it by hand", [event])
        return False

    def _unsure(self, feed, index: int) -> bool:
        """The camera sent the card event `index` unconfirmed (the phones say "unsure: confirm"):
        a host confirms it at once rather than let the next cards come first. Its event is the
        unconfirmed play seen after the card landed and before the next one did."""
        start = self.recording.landed.get(index)
        end = min((t for i, t in self.recording.landed.items() if i > index), default=float("inf"))
        return start is not None and any(
            r["event"].get("type") == "play" and r["event"].get("unconfirmed") and start <= r["event"].get("t", -1.0) < end
            for r in list(getattr(feed, "recent", None) or []))

    def _truth_index(self, event: dict, start: int) -> int | None:
        """The card event of the log, from index `start` on, that a camera event shows: the first
        with the same card(s) that had landed on the pile by the camera's moment `t`; None if none
        (a misread)."""
        key = "card" if event.get("type") == "flip" else "cards"
        t = event.get("t")
        if t is None or event.get(key) is None:
            return None
        for i in sorted(self.recording.landed):
            truth = self.recording.events[i]
            if i >= start and truth["type"] == event["type"] and truth.get(key) == event[key] \
                    and self.recording.landed[i] - 0.05 <= t:
                return i
        return None

    def _fill(self, table, upto: int, seen: dict, why: str) -> None:
        """Taps in the log's events from where the table is up to `upto` (not included), as the host
        does when the camera's next play (`seen`) shows what it missed. A missed card is a host
        correction; a tap the phones owed by then (a colour, a draw) is sent as it would have been."""
        events = game_events(table)
        for i in range(len(events), upto):
            event = self.recording.events[i]
            if i in self.recording.landed:
                self._host(f"the camera missed {event.get('card') or event.get('cards')} and {why} "
                           f"{seen.get('card') or seen.get('cards')}; tapping it in first", [event])
            else:
                result = self.registry.submit(self.table_id, dict(event))
                if not result.verdict.accepted:     # cannot happen in step; stop rather than guess
                    log.warning("demo: %s rejected: %s", event, result.verdict.reason)
                    return

    def _camera_saw(self, event: dict) -> None:
        """CameraFeed.before_event: a card the camera saw that is a later one of the log than the
        table has come to means the camera missed the ones between. A host taps them in before the
        referee judges the camera's play (which would otherwise be refused, or taken back, and the
        next one too), so the camera's play stands, charged as the camera charged it."""
        if event.get("type") not in CAMERA_TYPES:
            return
        with self._lock:
            table = self.registry.get(self.table_id)
            if table.pending:            # waits behind a question anyway; filled when it is answered
                return
            events = game_events(table)
            if not events or self.out_of_step(events) is not None:
                return
            k = self._truth_index(event, len(events))
            if k is not None and k > len(events):
                self._fill(table, k, event, "its next play shows")

    def _answer(self, table) -> None:
        """The camera asked "who played?": the host answers from the log, first tapping in what the
        camera missed before that play; a play the log does not have (a misread) is dismissed."""
        from .tables import UnknownQuestion
        head = table.pending[0]
        if head["player"] is not None or head.get("dismissed"):
            return                       # being drained
        events = game_events(table)
        k = None if self.out_of_step(events) is not None else self._truth_index(head["event"], len(events))
        cards = head["event"].get("cards")
        if k is not None:
            self._fill(table, k, head["event"], "the play it asks about is")
            player = self.recording.setup["players"][self.recording.events[k]["player"]]
            why = f"the camera asked who played {cards}; answering {player}"
        else:
            player, why = None, f"the camera asked who played {cards}, which the recording has not there; answering nobody"
        self._host(why, [])
        try:
            self.registry.answer(self.table_id, head["id"], player)
        except UnknownQuestion:
            pass

    def _host(self, why: str, events: list[dict]) -> None:
        log.warning("demo: host: %s", why)
        self.corrections.append(why)
        for event in events:
            self.registry.submit(self.table_id, dict(event))

    def _next_game(self) -> bool:
        """Waits for the recording to end, shows the final state a while, then deals again."""
        from .app import start_camera
        table = self.registry.get(self.table_id)
        while table.camera is not None and table.camera.thread.is_alive():
            if self._stopping():
                return False
            time.sleep(0.1)
        end = time.monotonic() + self.hold_s
        while time.monotonic() < end:
            if self._stopping():
                return False
            time.sleep(0.1)
        if table.game.to_dict()["phase"] != "over":
            # The camera lost the game (see the warnings above): take it back to deal again.
            log.warning("demo: the recording ended before the game did; taking the game back to deal again")
            for _ in range(len(game_events(table))):
                self.registry.submit(self.table_id, {"type": "undo"})
        result = self.registry.submit(self.table_id, dict(self.recording.setup, camera=str(self.recording.video)))
        if not result.verdict.accepted:
            log.warning("demo: not dealing again: %s", result.verdict.reason)
            return False
        self.games += 1
        table.camera = None
        start_camera(self.app, table)
        return True
