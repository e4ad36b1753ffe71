"""Seats on the picture's edge, and who played: pure geometry and arithmetic, no OpenCV.

A seat is a place on the border of the camera's picture: where that player's arm comes into
view. Places are given in picture coordinates normalised to 0..1 (x to the right, y down) and
kept as one number, `edge`: the position along the border, clockwise from the top-left corner,
0..4 (top edge 0..1, right edge 1..2, bottom edge 2..3, left edge 3..4). One number because an
arm that crosses a corner is still one place, and distances along the border wrap around.

`name_seat` turns what the pipeline saw of the hands that reached the pile (border positions,
each with a weight: how much of that hand was on the pile in that frame) into a seat and a
confidence. Each sighting votes for every seat by how close it came in (a Gaussian of the
distance along the border), plus a fixed vote for "somebody not at a marked seat"; the votes
are averaged over the sightings. So one hand straight from a seat is sure, a hand from a corner
between two seats splits its vote, two hands at once split it by how much of each was on the
pile, and no hand at all names nobody.
"""
from __future__ import annotations

import math

PERIMETER = 4.0
SIGMA = 0.15          # spread of where one player's arm crosses the border (border units, 1 = a side)
NOBODY_AT = 3.0       # a hand this many SIGMA from every seat is as likely from nobody's seat
MIN_APART = 0.25      # two seats closer than this along the border cannot be told apart
EDGE_BAND = 0.25      # a mark must lie this close to the picture's edge (a share of the picture)
SURE = 0.8            # a seat named with at least this confidence is charged; below, the table is asked


def edge_position(x: float, y: float) -> float:
    """The border position (0..4) nearest to the picture point (x, y), both 0..1."""
    x, y = min(1.0, max(0.0, x)), min(1.0, max(0.0, y))
    d = {"top": y, "right": 1 - x, "bottom": 1 - y, "left": x}
    side = min(d, key=d.get)
    if side == "top":
        return x
    if side == "right":
        return 1 + y
    if side == "bottom":
        return 2 + (1 - x)
    return (3 + (1 - y)) % PERIMETER


def edge_point(s: float) -> tuple[float, float]:
    """The picture point (0..1, 0..1) at border position s: the inverse of edge_position on the border."""
    s = s % PERIMETER
    if s < 1:
        return (s, 0.0)
    if s < 2:
        return (1.0, s - 1)
    if s < 3:
        return (1 - (s - 2), 1.0)
    return (0.0, 1 - (s - 3))


def edge_distance(a: float, b: float) -> float:
    """Distance along the border, the short way round."""
    d = abs(a - b) % PERIMETER
    return min(d, PERIMETER - d)


def distance_to_edge(x: float, y: float) -> float:
    return min(x, y, 1 - x, 1 - y)


def circular_mean(positions: list[float], weights: list[float] | None = None) -> float:
    """The mean of border positions, wrapping around (a hand across the top-left corner)."""
    weights = weights or [1.0] * len(positions)
    sx = sum(w * math.cos(2 * math.pi * p / PERIMETER) for p, w in zip(positions, weights))
    sy = sum(w * math.sin(2 * math.pi * p / PERIMETER) for p, w in zip(positions, weights))
    return (math.atan2(sy, sx) * PERIMETER / (2 * math.pi)) % PERIMETER


def seat_votes(position: float, seats: dict[str, float], sigma: float = SIGMA) -> dict[str | None, float]:
    """One sighting's vote: the share of each seat (and None: nobody marked there), summing to 1."""
    raw: dict[str | None, float] = {name: math.exp(-0.5 * (edge_distance(position, s) / sigma) ** 2)
                                    for name, s in seats.items()}
    raw[None] = math.exp(-0.5 * NOBODY_AT ** 2)
    total = sum(raw.values())
    return {k: v / total for k, v in raw.items()}


def name_seat(sightings: list[tuple[float, float]], seats: dict[str, float]) -> dict:
    """Who brought the card, from the hands seen reaching the pile while it came.

    sightings: (border position, weight) for each hand in each frame. Returns {"seat": name or
    None, "seat_confidence": 0..1, "likely": [[name, share], ...] best first (seats only)}."""
    if not seats:
        return {"seat": None, "seat_confidence": 0.0, "likely": []}
    total = sum(w for _, w in sightings if w > 0)
    if total <= 0:
        # no hand seen: every seat equally likely, so none is named
        return {"seat": None, "seat_confidence": 0.0, "likely": [[n, round(1 / len(seats), 3)] for n in seats]}
    shares: dict[str | None, float] = {}
    for position, w in sightings:
        if w <= 0:
            continue
        for k, v in seat_votes(position, seats).items():
            shares[k] = shares.get(k, 0.0) + v * w / total
    likely = sorted(((k, v) for k, v in shares.items() if k is not None), key=lambda kv: -kv[1])
    best, conf = likely[0]
    return {"seat": best, "seat_confidence": round(conf, 3), "likely": [[k, round(v, 3)] for k, v in likely]}
