"""How long the whole view has been still, and which rest it is: what "Teach this deck" waits on
to take a card by itself once it has settled (web/teach_api.py, docs/teach.md).

Pure logic, fed once a frame by the pipeline with the same motion test the pile tracker uses
(vision/track/pipeline.py: MOTION_DIFF, MOTION_FRAC), but over the whole picture, since a card
being taught may lie anywhere. A *rest* begins with the first still frame after motion; rests are
numbered, so a card is taken once per rest and not again until the view has moved (the card
lifted, the next one laid). Stillness is measured in seconds of the source's clock, so dropped
frames only stretch the time between updates, as in vision/track/tracker.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class View:
    """One consistent look at the camera: read whole by the web thread while the pipeline runs."""
    frames: int                   # frames seen so far
    rest: int                     # number of the current rest (0 before the first frame)
    still_s: float                # how long the view has been still (0.0 while it moves)
    image: np.ndarray | None      # the newest frame, as it came


class StillWatch:
    def __init__(self) -> None:
        self.view = View(0, 0, 0.0, None)
        self._still_since: float | None = None

    def update(self, t: float, moving: bool, frame: np.ndarray) -> View:
        rest = self.view.rest
        if moving:
            self._still_since = None
        elif self._still_since is None:
            self._still_since, rest = t, rest + 1      # a new rest begins
        still = 0.0 if self._still_since is None else max(0.0, t - self._still_since)
        # one assignment, so a reader never sees a frame with another frame's rest or stillness
        self.view = View(self.view.frames + 1, rest, still, frame)
        return self.view
