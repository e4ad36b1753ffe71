"""The demo table: the bundled recording (datasets/demo/) played as a live camera, plus the table's
own taps.

The camera reads the cards that land on the pile (the flip and every play). What a camera cannot
see, the colour named after a wild, cards drawn, passes and ONO! calls, players enter on a phone;
in the demo those taps come from the recording's true log (demo.events.jsonl), each sent once every
event before it is on the table and its moment in the video has come (demo.frames.json says when a
drawn card leaves the pile; a colour, a pass or a call follows the card event before it). The taps
never stand in for the camera: a play the camera misses holds them back.
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

    def _play_taps(self) -> None:
        table = self.registry.get(self.table_id)
        for index, due, event in self.recording.taps:
            warned = False
            while not self._stopping():
                feed = table.camera
                now = feed.clock() if feed is not None else None
                in_step = len(game_events(table)) == index
                if in_step and now is not None and now >= due:
                    break
                if not warned and now is not None and now > due + 10:
                    log.warning("demo: waiting for the table to reach event %d before %s (camera: %s)",
                                index, event, feed.status().get("last_result") if feed else None)
                    warned = True
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
        result = self.registry.submit(self.table_id, dict(self.recording.setup, camera=str(self.recording.video)))
        if not result.verdict.accepted:
            log.warning("demo: not dealing again: %s", result.verdict.reason)
            return False
        self.games += 1
        table.camera = None
        start_camera(self.app, table)
        return True
