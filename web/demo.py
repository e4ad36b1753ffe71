"""The demo table: the bundled recording (datasets/demo/) played as a live camera, plus the table's
own taps.

The camera reads the cards that land on the pile (the flip and every play). What a camera cannot
see, the colour named after a wild, cards drawn, passes and ONO! calls, players enter on a phone;
in the demo those taps come from the recording's true log (demo.events.jsonl), each sent once the
table holds exactly the log's events before it and its moment in the video has come
(demo.frames.json says when a drawn card leaves the pile; a colour, a pass or a call follows the
card event before it). The taps never stand in for the camera: when the camera misses or misreads
a card the table is out of step with the log, the taps wait and the log says so, and a correction
from the host controls (undo, or the card played by hand) puts the demo back on its way.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

log = logging.getLogger("tableref.demo")

DEMO = Path(__file__).resolve().parent.parent / "datasets" / "demo"
CAMERA_TYPES = ("flip", "play")   # what the pipeline sends (web.camera.REFEREE_TYPES)
TAP_DELAY_S = 0.4                 # a colour, pass or call comes this long after the card it follows
HOLD_S = 8.0                      # a looping demo shows the final state this long before dealing again


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
        # (log index, video time it is due, event) for every event the camera cannot see
        self.taps: list[tuple[int, float, dict]] = []
        last_settled = 0.0
        for i, event in enumerate(self.events[1:], start=1):
            if event["type"] in CAMERA_TYPES:
                last_settled = settled.get(i, last_settled)
                continue
            due = landed.get(i, last_settled + TAP_DELAY_S)
            last_settled = settled.get(i, last_settled)
            self.taps.append((i, due, event))


def same_event(event: dict, players: list[str]) -> tuple:
    """What an event says, without its bookkeeping (the camera's `t` and `confidence`, an
    `event_id`); a player given by name counts as the seat of that name."""
    def seat(v):
        return players.index(v) if isinstance(v, str) and v in players else v
    keep = {k: v for k, v in event.items() if k not in ("t", "confidence", "event_id", "camera")}
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

    def out_of_step(self, table) -> int | None:
        """The first event of the table's game that differs from the recording's log, or None."""
        players = self.recording.setup["players"]
        for i, event in enumerate(game_events(table)):
            if i >= len(self.truth) or same_event(event, players) != self.truth[i]:
                return i
        return None

    def _play_taps(self) -> None:
        table = self.registry.get(self.table_id)
        for index, due, event in self.recording.taps:
            warned = None
            while not self._stopping():
                feed = table.camera
                now = feed.clock() if feed is not None else None
                wrong = self.out_of_step(table)
                if wrong is None and len(game_events(table)) == index and now is not None and now >= due:
                    break
                if wrong is not None and wrong != warned:
                    got = game_events(table)[wrong]
                    log.warning("demo: the table is out of step with the recording at event %d: it has %s, the "
                                "recording %s; fix it from the host controls (undo, or play the card by hand) and "
                                "the demo goes on", wrong, got, self.recording.events[wrong]
                                if wrong < len(self.recording.events) else "nothing")
                    warned = wrong
                time.sleep(0.02)
            else:
                return
            result = self.registry.submit(self.table_id, dict(event))
            if not result.verdict.accepted:
                log.warning("demo: %s rejected: %s", event, result.verdict.reason)

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
