"""Stage 1, locate: every card in a frame as a quadrilateral of its outer edge.

quad.py      the located card (Quad) and its geometry
detector.py  the trained card detector (models/card-detector.onnx), the default locator
contour.py   white-border contours: no model, a plain dark table only
around.py    a card looked for again round a rough outline (GrabCut, the region's pale pixels)
relook.py    a small card outlined again by the detector on its neighbourhood enlarged
train.py     trains the card detector on synthetic scenes (ultralytics)
"""
from .contour import find_cards
from .quad import CARD_ASPECT, Quad, order_corners, quad_iou

__all__ = ["CARD_ASPECT", "Quad", "find_cards", "order_corners", "quad_iou"]
