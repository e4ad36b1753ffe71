"""Reading a shown hand: what the camera's reveal mode read, put in words for the page (pure).

The camera in reveal mode sends `reveal_cards` (every card in view with its confidence and outline,
docs/vision.md) whenever what it reads changes. The page shows that reading with the unsure cards
marked; nothing goes to the referee until the player or the host confirms the list (fixing it
first if need be), as a `reveal` event in that player's name.

A card is unsure when the recognizer is (confidence below 0.6), when its outline is cut by the
picture's edge, or when it overlaps another card: a reading that hides part of a card is not to be
trusted, and the page says which and why.
"""
from __future__ import annotations

SURE = 0.6            # the recognizer's own threshold (vision.recognizer.CONFIRM_THRESHOLD)
EDGE_PX = 3           # an outline this close to the picture's edge is cut by it


def _box(poly):
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def _overlap(a, b) -> bool:
    """Do two card outlines overlap? Their bounding boxes, shrunk by a tenth so cards laid side by
    side, slightly askew, do not count."""
    ax0, ay0, ax1, ay1 = _box(a)
    bx0, by0, bx1, by1 = _box(b)
    sx, sy = 0.1 * (ax1 - ax0), 0.1 * (ay1 - ay0)
    return ax0 + sx < bx1 and bx0 < ax1 - sx and ay0 + sy < by1 and by0 < ay1 - sy


def reading(event: dict, width: int | None = None, height: int | None = None) -> dict:
    """{"cards": [{"card", "confidence", "sure", "problem"}], "problems": [words]} from one
    `reveal_cards` event; width and height of the picture, when known, find cards cut by its edge."""
    cards = [c for c in event.get("cards") or [] if isinstance(c, dict) and isinstance(c.get("card"), str)]
    out, problems = [], []
    for i, c in enumerate(cards):
        poly = c.get("polygon") or []
        problem = None
        if width and height and poly and any(x <= EDGE_PX or y <= EDGE_PX or x >= width - 1 - EDGE_PX or
                                             y >= height - 1 - EDGE_PX for x, y in poly):
            problem = "cut by the picture's edge"
        elif poly and any(_overlap(poly, o.get("polygon") or poly) for j, o in enumerate(cards) if j != i and o.get("polygon")):
            problem = "overlaps another card"
        elif (c.get("confidence") or 0) < SURE:
            problem = "not sure of this card"
        if problem:
            problems.append(f"{c['card']}: {problem}")
        out.append({"card": c["card"], "confidence": round(float(c.get("confidence") or 0), 3),
                    "sure": problem is None, "problem": problem})
    return {"cards": out, "problems": problems}
