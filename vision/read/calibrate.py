"""Stage 3e: a reading's confidence as the chance that it is right.

The readers' confidence (the symbol belief times the colour's share times how well the outline
verified) ranks readings well, but its numbers are not probabilities: on every photo set measured,
readings at 0.3 were right 70-80% of the time and readings at 0.7 all but always. A
`ConfidenceMap` turns it into a probability by isotonic regression (pool adjacent violators)
fitted on synthetic photos the models never trained on, never on the development photos:
`tableref train --confidence` (fit_confidence below) renders close-ups and table scenes, reads
them, and writes models/<model>-confidence.json.

The map never moves a reading across the app's threshold (CONFIRM_THRESHOLD, 0.6): what was sure
stays sure, what was unsure stays unsure, so "sure" keeps its measured meaning (wrong at most 1% of
the time). Each side of the threshold is fitted on its own and kept on its side of it: the numbers
move, the decisions do not.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

THRESHOLD = 0.6         # the app's sure threshold (recognizer.CONFIRM_THRESHOLD), which no reading crosses
BELOW_MAX = 0.595       # an unsure reading's probability stays under the threshold ...
ABOVE_MAX = 0.995       # ... and a sure one's never claims better than one miss in 200: synthetic photos
                        # are not the user's, and a probability of 1 would say nothing could go wrong
PRIOR = 1.0             # a block's rate is (right + PRIOR) / (n + 2 * PRIOR): few readings say little
MIN_BLOCK = 20          # blocks of fewer readings are pooled with their neighbour: a knot needs evidence


@dataclass(frozen=True)
class ConfidenceMap:
    """A monotone map from the readers' confidence to the chance of being right, as two piecewise
    linear curves (knots (confidence, probability)), one below THRESHOLD and one from it up."""
    below: tuple[tuple[float, float], ...] = ()
    above: tuple[tuple[float, float], ...] = ()
    meta: dict = field(default_factory=dict, compare=False)

    def __call__(self, confidence: float) -> float:
        """The chance that a reading of this confidence is right (the confidence itself where no
        curve was fitted)."""
        c = float(confidence)
        knots = self.above if c >= THRESHOLD else self.below
        if not knots:
            return c
        xs, ys = zip(*knots)
        p = float(np.interp(c, xs, ys))
        # on its side of the threshold, whatever the knots (a hand-edited file)
        return min(p, BELOW_MAX) if c < THRESHOLD else min(max(p, THRESHOLD), ABOVE_MAX)

    @property
    def identity(self) -> bool:
        return not self.below and not self.above

    @classmethod
    def load(cls, path: Path) -> "ConfidenceMap":
        """The map in `path`, or the identity where there is no such file (a model without one)."""
        if not path.is_file():
            return cls()
        data = json.loads(path.read_text())
        try:
            below = tuple((float(x), float(y)) for x, y in data["below"])
            above = tuple((float(x), float(y)) for x, y in data["above"])
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{path}: not a confidence map ({e.__class__.__name__}: {e})") from e
        for name, knots in (("below", below), ("above", above)):
            xs = [x for x, _ in knots]
            ys = [y for _, y in knots]
            if xs != sorted(xs) or ys != sorted(ys):
                raise ValueError(f"{path}: the {name} knots must rise in both confidence and probability")
        return cls(below, above, {k: v for k, v in data.items() if k not in ("below", "above")})

    def save(self, path: Path) -> None:
        from ..atomic import write_atomic
        data = dict(self.meta, threshold=THRESHOLD, below=[list(k) for k in self.below],
                    above=[list(k) for k in self.above])
        # one entry a line, the knots' pairs kept on theirs: a file to read as well as load
        text = "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items()) + "\n}\n"
        write_atomic(path, lambda f: f.write(text.encode()))


def isotonic(x: np.ndarray, right: np.ndarray, min_block: int = MIN_BLOCK,
             prior: float = PRIOR) -> list[tuple[float, float]]:
    """Knots (mean confidence, rate right) of the isotonic regression of `right` (0/1) on `x`, by
    pool adjacent violators, each block at least `min_block` readings (the last may pool back), the
    rates smoothed by `prior` (then kept rising)."""
    order = np.argsort(x, kind="stable")
    x, right = np.asarray(x, np.float64)[order], np.asarray(right, np.float64)[order]
    # blocks: [sum x, sum right, n]; start from runs of min_block readings, then pool violators
    blocks: list[list[float]] = []
    for i in range(0, len(x), max(1, min_block)):
        blocks.append([float(x[i:i + min_block].sum()), float(right[i:i + min_block].sum()),
                       float(len(x[i:i + min_block]))])
    if len(blocks) > 1 and blocks[-1][2] < min_block:
        last = blocks.pop()
        blocks[-1] = [a + b for a, b in zip(blocks[-1], last)]
    pooled: list[list[float]] = []
    for b in blocks:
        pooled.append(b)
        # a violator (a rate not above the block before), or two blocks of one confidence (ties)
        while len(pooled) > 1 and (pooled[-2][1] / pooled[-2][2] >= pooled[-1][1] / pooled[-1][2]
                                   or pooled[-2][0] / pooled[-2][2] >= pooled[-1][0] / pooled[-1][2]):
            b2 = pooled.pop()
            pooled[-1] = [a + c for a, c in zip(pooled[-1], b2)]
    knots, top = [], 0.0
    for sx, sr, n in pooled:
        top = max(top, (sr + prior) / (n + 2 * prior))
        knots.append((round(sx / n, 4), round(top, 4)))
    return knots


def fit(confidence, right) -> ConfidenceMap:
    """The map fitted on readings' confidences and whether each was right (no reading: confidence
    0, wrong), each side of THRESHOLD on its own."""
    c = np.asarray(confidence, np.float64)
    r = np.asarray(right, bool)
    sides = []
    for m, cap in ((c < THRESHOLD, BELOW_MAX), (c >= THRESHOLD, ABOVE_MAX)):
        knots = isotonic(c[m], r[m]) if m.any() else []
        lo = 0.0 if cap == BELOW_MAX else THRESHOLD
        sides.append(_flat_runs_cut([(x, float(np.clip(y, lo, cap))) for x, y in knots]))
    return ConfidenceMap(sides[0], sides[1], {"readings": int(c.size), "right": int(r.sum()),
                                              "sure": int((c >= THRESHOLD).sum()),
                                              "sure_right": int((r & (c >= THRESHOLD)).sum())})


def _flat_runs_cut(knots: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """The knots without those inside a run of one probability (the caps make such runs): the
    first and last of a run give the same curve."""
    return tuple(k for i, k in enumerate(knots)
                 if not (0 < i < len(knots) - 1 and knots[i - 1][1] == k[1] == knots[i + 1][1]))


def expected_calibration_error(confidence, right, bins=(0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 1.0)) -> float:
    """sum over confidence bins of (share of readings) x |rate right - mean confidence|."""
    c = np.asarray(confidence, np.float64)
    r = np.asarray(right, np.float64)
    if not c.size:
        return 0.0
    idx = np.clip(np.searchsorted(bins, c, side="right") - 1, 0, len(bins) - 2)
    return float(sum(abs(r[idx == k].mean() - c[idx == k].mean()) * (idx == k).sum()
                     for k in range(len(bins) - 1) if (idx == k).any()) / c.size)
