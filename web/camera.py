"""The camera glue: runs the vision pipeline of a table in a thread and feeds its card events to
the table through the same door as the phones (TableRegistry.submit).

The vision package is imported only when a camera is asked for, so the server starts on a machine
without OpenCV or a model; when the import or the pipeline fails, the server keeps running and
`status()` says why (GET /api/tables/<id>/camera).

A video file is played like a live camera (LiveVideo): at its own speed (or `speed` times it),
and when recognition falls behind, the frames whose moment has passed are skipped, as a camera
delivers only its latest picture; the pipeline's settle timing runs on the video's own clock.
"""
from __future__ import annotations

import logging
import threading
from collections import deque
import time

from .who import charge

log = logging.getLogger("tableref.camera")


REFEREE_TYPES = ("flip", "play")
RECENT = 30               # pipeline events kept for the camera view (status "recent")


def to_referee(event: dict, current_player: int | None) -> tuple[dict | None, str]:
    """What the table does with one event of the vision pipeline when no seats are marked
    (docs/vision.md): a card play goes to the referee in the name of the player whose turn it is
    (a jump-in is corrected from a phone), an unconfirmed play and the hints wait for the table,
    never a guess. With seats marked, see web/who.py."""
    action, event, why = charge(event, current_player, {}, [])
    return (event if action == "submit" else None), why


class LiveVideo:
    """A video file as a live camera, with the interface of vision.camera.FrameSource
    (`frames(stop)` yielding (video time in s, BGR frame), `close()`).

    Each frame is due at its video time divided by `speed`, counted from the first frame. A frame
    whose successor is already due by the time it would be decoded is skipped with `grab()` (no
    decoding), so a slow reader sees the newest frame instead of falling further behind."""

    def __init__(self, path: str, speed: float = 1.0, on_status=lambda state, message: None,
                 max_width: int = 640):
        if speed <= 0:
            raise ValueError(f"speed must be above 0, got {speed}")
        self.path, self.speed, self.on_status, self.max_width = path, speed, on_status, max_width
        self.file = True
        self.frames_read = 0          # delivered to the reader
        self.frames_dropped = 0       # skipped because the reader was busy when they were due
        self._cap = None
        self._start: float | None = None

    def now(self) -> float | None:
        """The video time being shown now (None before the first frame)."""
        if self._start is None:
            return None
        return (time.monotonic() - self._start) * self.speed

    def frames(self, stop=lambda: False):
        import cv2
        self._cap = cap = cv2.VideoCapture(self.path)
        if not cap.isOpened():
            self.on_status("error", f"cannot open video {self.path}")
            return
        fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
        self.on_status("running", f"playing {self.path} as a live camera at {self.speed:g}x")
        self._start = time.monotonic()
        index = 0
        while not stop():
            # Skip what is already stale: frame index+1 is due, so frame index would be late.
            while (index + 1) / fps <= self.now():
                if not cap.grab():
                    self.on_status("ended", f"end of {self.path}")
                    return
                index += 1
                self.frames_dropped += 1
            ok, frame = cap.read()
            if not ok or frame is None:
                self.on_status("ended", f"end of {self.path}")
                return
            t = index / fps
            index += 1
            wait = t - self.now()
            if wait > 0:
                time.sleep(wait / self.speed)
            if frame.shape[1] > self.max_width:
                s = self.max_width / frame.shape[1]
                frame = cv2.resize(frame, (self.max_width, int(round(frame.shape[0] * s))),
                                   interpolation=cv2.INTER_AREA)
            self.frames_read += 1
            yield t, frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def is_video_file(source: str) -> bool:
    from pathlib import Path
    return "://" not in source and not source.isdigit() and Path(source).is_file()


class CameraFeed:
    def __init__(self, table_id: str, source: str, deck: str, submit, current_player=lambda: None,
                 speed: float = 1.0, seats=lambda: {}, names=lambda: [], camera_play=None, on_reveal=None,
                 note_hand=None, taught: str | None = None):
        self.table_id = table_id
        self.taught = taught                  # a taught deck's file (vision/teach/) for this deck, or None
        self.source = source
        self.deck = deck
        self.speed = speed                    # of a video file played as a live camera
        self._submit = submit                 # submit(table_id, event) -> Submission
        self._current_player = current_player # () -> the seat whose turn it is, or None
        self._seats = seats                   # () -> {player: border position} of the game, {} when not marked
        self._names = names                   # () -> the game's player names
        self._camera_play = camera_play       # camera_play(table_id, event, question=None) -> [Submission]
        self._on_reveal = on_reveal           # on_reveal(table_id, reveal_cards event, width, height)
        self._note_hand = note_hand           # note_hand(table_id, seat, border position): to suggest seats
        # before_event(event): run with each pipeline event before the table judges it, or None; the
        # demo's host (web/demo.py) fills in what the camera missed before the play that shows it
        self.before_event = None
        self.pipeline = None
        self.teach_until = 0.0                # monotonic time until which the teach page holds the pipeline
        self.state = "starting"
        self.message = f"opening {source}"
        self.events_sent = 0
        self.last_event: dict | None = None
        self.last_reason: str | None = None
        self.recent: deque = deque(maxlen=RECENT)   # the pipeline's latest events with what became of each
        self.stop_event = threading.Event()
        self._swap = threading.Lock()         # the pipeline's creation and a taught deck's arrival, one at a time
        self.thread = threading.Thread(target=self._run, name=f"camera-{table_id}", daemon=True)

    def start(self) -> "CameraFeed":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()

    def join(self, timeout: float) -> bool:
        """Waits up to `timeout` s for the thread to end once stopped (it ends after the frame it is
        reading): True if it has. The server waits so, that no frame is mid-inference when the
        process exits (ONNX Runtime's thread pools, torn down under a running session, can hang)."""
        if self.thread.is_alive():
            self.thread.join(timeout)
        return not self.thread.is_alive()

    # -- the thread --------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            from vision.track.pipeline import TablePipeline     # lazily: OpenCV and the model load here
        except Exception as e:                           # missing module, missing OpenCV, bad model
            self._fail("unavailable", f"the vision pipeline cannot be loaded: {type(e).__name__}: {e}")
            return
        try:
            taught = self.taught
            extra = {}       # the pipeline's own recognizer, unless a taught deck is to be read with
            if taught:
                extra["recognizer"] = self._taught_recognizer(taught)
            if is_video_file(self.source):
                pipeline = TablePipeline(self.source, self.deck, realtime=False, **extra)
                pipeline.source = LiveVideo(self.source, self.speed, on_status=self._pipeline_status)
            else:
                pipeline = TablePipeline(self._source_arg(), self.deck, **extra)
                pipeline.source.on_status = self._pipeline_status   # the terminal hears of dropouts
            with self._swap:
                self.pipeline = pipeline
                taught_since = self.taught if self.taught != taught else None
            if taught_since:        # the host page taught the deck while the camera was opening
                self.pipeline.use_recognizer(self._taught_recognizer(taught_since))
            self.set_seats(self._seats())
            self.pipeline.doubles_together = True    # a double is one play for the referee
            self.pipeline.paused = self.teaching     # cards laid to teach the deck are no plays
            self.state, self.message = "running", f"watching {self.source}"
            self.pipeline.run(self._on_event, self.stop_event)
        except Exception as e:
            self._fail("error", f"the camera pipeline stopped: {type(e).__name__}: {e}")
            return
        if self.state == "running":
            self.state, self.message = "stopped", f"{self.source} ended"

    def use_taught(self, path: str) -> None:
        """Read with the deck taught at `path` from the next frame on (the host page has just taught
        it): no restart, the pile and the game's state carried on. A file that cannot be used raises
        TaughtFileError, and the camera goes on reading as before."""
        recognizer = self._taught_recognizer(path)
        with self._swap:
            self.taught = path
            if self.pipeline is not None:
                self.pipeline.use_recognizer(recognizer)

    def _taught_recognizer(self, path: str):
        from vision.recognizer import Recognizer
        from vision.teach.file import load
        return Recognizer(self.deck, taught=load(path, self.deck))

    def reveal(self, on: bool) -> None:
        """Reveal mode (read every card in view, for "read a hand") on or off."""
        if self.pipeline is not None and hasattr(self.pipeline, "set_reveal"):
            self.pipeline.set_reveal(on)
        elif self.pipeline is not None:
            self.pipeline.reveal = on

    def hold_for_teaching(self, seconds: float) -> None:
        """The host's teach page is open: the pipeline reads no plays for `seconds` more. The page
        renews it as it polls, so a closed page lets the camera watch the game again."""
        self.teach_until = time.monotonic() + seconds

    def teaching(self) -> bool:
        return time.monotonic() < self.teach_until

    def set_seats(self, seats: dict[str, float]) -> None:
        """The seats the pipeline names hands by (the host marked or cleared them)."""
        if self.pipeline is not None:
            self.pipeline.seats = dict(seats)

    def _source_arg(self):
        # A camera index is given as digits on the command line; the pipeline wants an int then.
        return int(self.source) if str(self.source).isdigit() else self.source

    def _pipeline_status(self, state: str, message: str) -> None:
        before = (getattr(self.pipeline, "status", None) or {}).get("state")
        self.pipeline.status = {"state": state, "message": message}
        # one line in the terminal when the camera goes away and one when it is back, not one per retry
        if state in ("reconnecting", "error") and before not in ("reconnecting", "error"):
            log.warning("camera of table %s: %s. Check that it is plugged in, not used by another app, and "
                        "that the index or address is right; it keeps retrying, and the camera view says "
                        "how it is doing", self.table_id, message)
        elif state == "running" and before in ("reconnecting", "error"):
            log.warning("camera of table %s: %s again", self.table_id, message)

    def clock(self) -> float | None:
        """The video time a video file is showing now; None for a live camera or before it starts."""
        now = getattr(getattr(self.pipeline, "source", None), "now", None)
        return now() if callable(now) else None

    def _fail(self, state: str, message: str) -> None:
        self.state, self.message = state, message
        log.warning("camera of table %s: %s", self.table_id, message)

    def _on_event(self, event: dict) -> None:
        hook = self.before_event
        if hook is not None:
            try:
                hook(event)
            except Exception:          # the camera goes on without the hook's help
                log.exception("camera of table %s: before_event failed", self.table_id)
        try:
            self._judge(event)
        finally:
            if event.get("type") != "draw_hint":
                self.recent.append({"event": event, "result": self.last_reason})

    def _judge(self, event: dict) -> None:
        from referee import MalformedEvent
        from referee.store import StoreError
        from .tables import Stopping, UnknownTable
        self.last_event = event
        if event.get("type") == "reveal_cards":
            if self._on_reveal is not None:
                size = getattr(self.pipeline, "frame_size", None) or (None, None)
                self._on_reveal(self.table_id, event, *size)
            self.last_reason = "a shown hand read: waiting for the table to confirm it"
            return
        seats = self._seats()
        action, got, why = charge(event, self._current_player(), seats, self._names() if seats else [])
        if action == "skip" or (action == "ask" and self._camera_play is None):
            self.last_reason = why
            return
        try:
            if self._camera_play is None:
                results = [self._submit(self.table_id, got)]
            elif action == "ask":
                results = self._camera_play(self.table_id, event, got)
            else:
                results = self._camera_play(self.table_id, got)
        except (MalformedEvent, UnknownTable, StoreError, Stopping) as e:
            self.last_reason = f"not submitted: {e}"
            log.warning("camera event %s of table %s %s", event, self.table_id, self.last_reason)
            return
        self.events_sent += len(results)
        if not results:
            self.last_reason = why if action == "ask" else f"{why}; waits behind an open \"who played?\""
            return
        result = results[-1]
        self.last_reason = ("accepted: " if result.verdict.accepted else "rejected: ") + result.verdict.reason
        if (not seats and self._note_hand is not None and result.verdict.accepted and got.get("type") == "play"
                and isinstance(got.get("player"), int) and got.get("hand_edge") is not None and got.get("hands") == 1):
            self._note_hand(self.table_id, got["player"], got["hand_edge"])
        if why:
            self.last_reason += f" ({why})"

    # -- reading -----------------------------------------------------------------------------------
    @property
    def latest_jpeg(self) -> bytes | None:
        return getattr(self.pipeline, "latest_jpeg", None) if self.pipeline is not None else None

    def status(self) -> dict:
        pipeline_status = getattr(self.pipeline, "status", None) if self.pipeline is not None else None
        if not isinstance(pipeline_status, dict):
            pipeline_status = None
        state, message = self.state, self.message
        if state == "running" and pipeline_status and pipeline_status.get("state") in ("reconnecting", "error"):
            # A camera that is not there (or dropped out) is retried; say so rather than "running".
            state, message = pipeline_status["state"], pipeline_status.get("message", message)
        elif state == "running" and self.teaching():
            message = f"{message}; no plays read while the host teaches the deck (Teach this deck is open)"
        source = getattr(self.pipeline, "source", None)
        frames = ({"read": source.frames_read, "dropped": source.frames_dropped}
                  if isinstance(source, LiveVideo) else None)
        seats = self._seats()
        seats_note = (f"seats marked: plays are charged to the hand's seat ({', '.join(seats)})" if seats else
                      "no seats marked: every play the camera sees is charged to the player whose turn it is "
                      "(mark the seats to have jump-ins and plays out of turn charged to who made them)")
        return {"source": self.source, "deck": self.deck, "state": state, "message": message,
                "seats_marked": bool(seats), "seats_note": seats_note,
                "pipeline": pipeline_status, "frames": frames,
                "events_sent": self.events_sent, "last_event": self.last_event,
                "last_result": self.last_reason, "recent": list(self.recent),
                "has_frame": self.latest_jpeg is not None, "teaching": self.teaching(),
                "taught": self.taught}

    def frames(self, stopping: threading.Event, interval: float = 0.1):
        """multipart/x-mixed-replace parts, one per new frame, until the server stops."""
        last = None
        while not stopping.is_set():
            frame = self.latest_jpeg
            if frame is not None and frame is not last:
                last = frame
                yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(frame)).encode()
                       + b"\r\n\r\n" + frame + b"\r\n")
            elif not self.thread.is_alive() and frame is None:
                return
            time.sleep(interval)
