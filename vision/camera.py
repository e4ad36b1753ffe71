"""Frames from a camera index, a video file or a network stream (MJPEG/RTSP URL), through OpenCV.

A live source that drops out is reopened with exponential backoff (0.5 s doubling to 8 s) and
reports what it is doing through `on_status`, instead of raising. A video file simply ends.
Each frame comes with its time in seconds: the file's own timestamps, or the wall clock since
opening for live sources.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np


def parse_source(src) -> int | str:
    """'0' -> camera 0; a path or URL stays a string."""
    if isinstance(src, int):
        return src
    s = str(src).strip()
    return int(s) if s.isdigit() else s


def _quietly(fn, *args):
    """Calls fn with OpenCV's own logging off: a missing camera makes each of its backends print a
    warning on every attempt (dozens of lines a retry); our status line says it once, plainly."""
    from cv2.utils import logging as cvlog
    level = cvlog.getLogLevel()
    cvlog.setLogLevel(cvlog.LOG_LEVEL_SILENT)
    try:
        return fn(*args)
    finally:
        cvlog.setLogLevel(level)


def is_file(src) -> bool:
    return isinstance(src, str) and "://" not in src and Path(src).exists()


def decoded_frames(path) -> tuple[list[np.ndarray], float]:
    """Every frame of the video file at `path`, decoded at its own size, and its frames per second
    (30 where the file does not say): for benchmarks that time the processing of frames, not their
    decoding, and take frames by index."""
    cap = cv2.VideoCapture(str(path))
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    frames = []
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        frames.append(frame)
    cap.release()
    return frames, fps


class FrameSource:
    def __init__(self, src, on_status: Callable[[str, str], None] | None = None, max_width: int = 640):
        self.src = parse_source(src)
        self.file = is_file(self.src)
        if isinstance(self.src, str) and "://" not in self.src and not self.file:
            raise FileNotFoundError(f"no such video file: {self.src}")
        self.on_status = on_status or (lambda state, msg: None)
        self.max_width = max_width
        self._cap = None
        self._t0 = time.monotonic()

    def _open(self) -> bool:
        cap = _quietly(cv2.VideoCapture, self.src)
        if not cap.isOpened():
            cap.release()
            return False
        self._cap = cap
        return True

    def frames(self, stop: Callable[[], bool] = lambda: False) -> Iterator[tuple[float, np.ndarray]]:
        backoff = 0.5
        index = 0
        fps = None
        while not stop():
            if self._cap is None:
                if self._open():
                    fps = self._cap.get(cv2.CAP_PROP_FPS) or None
                    self.on_status("running", f"reading {self.src}")
                    backoff = 0.5
                elif self.file:
                    self.on_status("error", f"cannot open video {self.src}")
                    return
                else:
                    self.on_status("reconnecting", f"camera {self.src} unavailable; retrying in {backoff:.1f} s")
                    _sleep(backoff, stop)
                    backoff = min(backoff * 2, 8.0)
                    continue
            ok, frame = self._cap.read()
            if not ok or frame is None:
                self._cap.release()
                self._cap = None
                if self.file:
                    self.on_status("ended", f"end of {self.src}")
                    return
                self.on_status("reconnecting", f"camera {self.src} dropped out; reopening")
                continue
            if self.file:
                t = index / fps if fps and fps > 0 else self._cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
            else:
                t = time.monotonic() - self._t0
            index += 1
            if frame.shape[1] > self.max_width:
                s = self.max_width / frame.shape[1]
                frame = cv2.resize(frame, (self.max_width, int(round(frame.shape[0] * s))), interpolation=cv2.INTER_AREA)
            yield t, frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def _sleep(seconds: float, stop: Callable[[], bool]) -> None:
    end = time.monotonic() + seconds
    while not stop() and time.monotonic() < end:
        time.sleep(0.05)
