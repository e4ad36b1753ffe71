"""The camera glue: runs the vision pipeline of a table in a thread and feeds its card events to
the table through the same door as the phones (TableRegistry.submit).

The vision package is imported only when a camera is asked for, so the server starts on a machine
without OpenCV or a model; when the import or the pipeline fails, the server keeps running and
`status()` says why (GET /api/tables/<id>/camera).
"""
from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("tableref.camera")


REFEREE_TYPES = ("flip", "play")


def to_referee(event: dict, current_player: int | None) -> tuple[dict | None, str]:
    """What the table does with one event of the vision pipeline (docs/vision.md): a card play
    goes to the referee in the name of the player whose turn it is (a jump-in is corrected from
    a phone), an unconfirmed play and the hints wait for the table, never a guess."""
    kind = event.get("type")
    if kind not in REFEREE_TYPES:
        return None, f"{kind} noted for the table"
    if event.get("unconfirmed"):
        return None, f"unconfirmed {event.get('cards')}: waiting for the table to confirm"
    if kind == "play" and "player" not in event:
        if current_player is None:
            return None, "a play seen before the game started"
        event = {**event, "player": current_player}
    return event, ""


class CameraFeed:
    def __init__(self, table_id: str, source: str, deck: str, submit, current_player=lambda: None):
        self.table_id = table_id
        self.source = source
        self.deck = deck
        self._submit = submit                 # submit(table_id, event) -> Submission
        self._current_player = current_player # () -> the seat whose turn it is, or None
        self.pipeline = None
        self.state = "starting"
        self.message = f"opening {source}"
        self.events_sent = 0
        self.last_event: dict | None = None
        self.last_reason: str | None = None
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"camera-{table_id}", daemon=True)

    def start(self) -> "CameraFeed":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()

    # -- the thread --------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            from vision.pipeline import TablePipeline     # lazily: OpenCV and the model load here
        except Exception as e:                           # missing module, missing OpenCV, bad model
            self._fail("unavailable", f"the vision pipeline cannot be loaded: {type(e).__name__}: {e}")
            return
        try:
            self.pipeline = TablePipeline(self._source_arg(), self.deck)
            self.state, self.message = "running", f"watching {self.source}"
            self.pipeline.run(self._on_event, self.stop_event)
        except Exception as e:
            self._fail("error", f"the camera pipeline stopped: {type(e).__name__}: {e}")
            return
        if self.state == "running":
            self.state, self.message = "stopped", f"{self.source} ended"

    def _source_arg(self):
        # A camera index is given as digits on the command line; the pipeline wants an int then.
        return int(self.source) if str(self.source).isdigit() else self.source

    def _fail(self, state: str, message: str) -> None:
        self.state, self.message = state, message
        log.warning("camera of table %s: %s", self.table_id, message)

    def _on_event(self, event: dict) -> None:
        from referee import MalformedEvent
        from referee.store import StoreError
        from .tables import Stopping, UnknownTable
        self.last_event = event
        event, why = to_referee(event, self._current_player())
        if event is None:
            self.last_reason = why
            return
        try:
            result = self._submit(self.table_id, event)
        except (MalformedEvent, UnknownTable, StoreError, Stopping) as e:
            self.last_reason = f"not submitted: {e}"
            log.warning("camera event %s of table %s %s", event, self.table_id, self.last_reason)
            return
        self.events_sent += 1
        self.last_reason = ("accepted: " if result.verdict.accepted else "rejected: ") + result.verdict.reason

    # -- reading -----------------------------------------------------------------------------------
    @property
    def latest_jpeg(self) -> bytes | None:
        return getattr(self.pipeline, "latest_jpeg", None) if self.pipeline is not None else None

    def status(self) -> dict:
        pipeline_status = getattr(self.pipeline, "status", None) if self.pipeline is not None else None
        return {"source": self.source, "deck": self.deck, "state": self.state, "message": self.message,
                "pipeline": pipeline_status if isinstance(pipeline_status, dict) else None,
                "events_sent": self.events_sent, "last_event": self.last_event,
                "last_result": self.last_reason, "has_frame": self.latest_jpeg is not None}

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
