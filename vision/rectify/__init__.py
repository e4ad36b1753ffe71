"""Stage 2, rectify: warp a located card to an upright canonical card (0 or 180 degrees left)."""
from .warp import CANON_H, CANON_W, portrait_corners, warp_card

__all__ = ["CANON_H", "CANON_W", "portrait_corners", "warp_card"]
