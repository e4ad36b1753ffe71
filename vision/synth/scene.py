"""Synthetic table scenes: cards laid on a procedural table top-down, a perspective camera over it,
hands over the cards, then light, blur, noise and colour as a phone camera records them.

Geometry is exact: a card is placed on the top-down canvas by an affine map from its rendered
pixels, the camera is a homography from canvas to image, and a card's labelled quad is the image
of its four outer corners (card top-left, top-right, bottom-right, bottom-left of the upright art)
under both maps. Pixel centres are at integer coordinates (OpenCV's convention), so a card of w
pixels spans -0.5 .. w-0.5.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

SKIN = [(95, 145, 205), (80, 125, 190), (60, 100, 160), (45, 75, 125), (35, 55, 90), (120, 165, 225),
        (100, 150, 215)]   # BGR, light to dark


@dataclass
class Item:
    card: str                 # a card id, or "back"
    quad: np.ndarray          # (4, 2) float32 on the canvas, card TL, TR, BR, BL
    role: str = "pile"        # "pile", "single" or "draw"


@dataclass
class Canvas:
    """The table seen from straight above; cards and hands are drawn here in z-order."""
    img: np.ndarray                               # (S, S, 3) uint8 BGR
    items: list = field(default_factory=list)
    hand_mask: np.ndarray | None = None           # (S, S) uint8, 255 where a hand is

    def place(self, rgba: np.ndarray, centre, angle_deg: float, width: float, card: str, role="pile",
              shadow=0.35, shadow_offset=(3.0, 4.0)) -> Item:
        """Draws a card image (RGB with alpha) centred at `centre`, turned clockwise by angle_deg,
        `width` canvas pixels wide; returns its item with the exact quad."""
        h, w = rgba.shape[:2]
        s = width / w
        t = math.radians(angle_deg)
        a, b = s * math.cos(t), s * math.sin(t)
        cx, cy = (w - 1) / 2, (h - 1) / 2
        M = np.float32([[a, -b, centre[0] - (a * cx - b * cy)], [b, a, centre[1] - (b * cx + a * cy)]])
        corners = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
        quad = corners @ M[:, :2].T + M[:, 2]
        S = self.img.shape[0]
        pad = int(max(shadow_offset) + width * 0.06) + 3
        x0, y0 = np.floor(quad.min(0)).astype(int) - pad
        x1, y1 = np.ceil(quad.max(0)).astype(int) + pad
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, S), min(y1, S)
        if x1 > x0 and y1 > y0:
            Mr = M.copy()
            Mr[:, 2] -= (x0, y0)
            size = (x1 - x0, y1 - y0)
            warped = cv2.warpAffine(rgba, Mr, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                    borderValue=(0, 0, 0, 0))
            roi = self.img[y0:y1, x0:x1].astype(np.float32)
            alpha = warped[..., 3].astype(np.float32) / 255.0
            if shadow > 0:
                sh = cv2.warpAffine(alpha, np.float32([[1, 0, shadow_offset[0]], [0, 1, shadow_offset[1]]]), size)
                sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, width * 0.03))
                roi *= (1 - shadow * sh)[..., None]
            rgb = warped[..., 2::-1].astype(np.float32)     # RGB -> BGR
            roi = roi * (1 - alpha[..., None]) + rgb * alpha[..., None]
            self.img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
        item = Item(card, quad.astype(np.float32), role)
        self.items.append(item)
        return item

    def hand(self, g: np.random.Generator, target, direction_deg: float, scale: float, skin=None,
             sleeve=None, spread=1.0):
        """A hand whose fingertips reach `target`, the arm coming from `direction_deg` (the way
        it points from the target back to the body). `scale` is about a card's width."""
        S = self.img.shape[0]
        mask = np.zeros((S, S), np.uint8)
        t = math.radians(direction_deg)
        ux, uy = math.cos(t), math.sin(t)          # towards the body
        nx, ny = -uy, ux
        tx, ty = target
        palm_c = (tx + ux * scale * 1.05, ty + uy * scale * 1.05)
        finger_w = max(3, int(scale * 0.2))
        for k, (off, length) in enumerate(((-0.33, 0.80), (-0.11, 0.98), (0.11, 0.95), (0.31, 0.78))):
            o = off * spread * scale
            base = (palm_c[0] + nx * o - ux * scale * 0.25, palm_c[1] + ny * o - uy * scale * 0.25)
            L = length * scale * g.uniform(0.85, 1.05)
            bend = g.uniform(-0.15, 0.15)
            tip = (base[0] - (ux + nx * bend) * L, base[1] - (uy + ny * bend) * L)
            cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 255, finger_w, cv2.LINE_AA)
        thumb_side = 1 if g.random() < 0.5 else -1
        tb = (palm_c[0] + nx * thumb_side * scale * 0.45, palm_c[1] + ny * thumb_side * scale * 0.45)
        tt = (tb[0] + (nx * thumb_side * 0.55 - ux * 0.5) * scale, tb[1] + (ny * thumb_side * 0.55 - uy * 0.5) * scale)
        cv2.line(mask, (int(tb[0]), int(tb[1])), (int(tt[0]), int(tt[1])), 255, int(finger_w * 1.15), cv2.LINE_AA)
        cv2.ellipse(mask, (int(palm_c[0]), int(palm_c[1])), (int(scale * 0.5), int(scale * 0.55 * spread)),
                    math.degrees(t), 0, 360, 255, -1, cv2.LINE_AA)
        arm_end = (palm_c[0] + ux * S * 1.5, palm_c[1] + uy * S * 1.5)
        arm = np.zeros_like(mask)
        cv2.line(arm, (int(palm_c[0] + ux * scale * 0.4), int(palm_c[1] + uy * scale * 0.4)),
                 (int(arm_end[0]), int(arm_end[1])), 255, int(scale * 0.85), cv2.LINE_AA)
        skin = np.float32(skin if skin is not None else SKIN[g.integers(len(SKIN))])
        both = np.maximum(mask, arm)
        # work only inside the hand's bounding box (plus its shadow), blurring at a quarter size
        bx, by, bw, bh = cv2.boundingRect(both)
        pad = int(scale * 0.5) + 4
        x0, y0, x1, y1 = max(0, bx - pad), max(0, by - pad), min(S, bx + bw + pad), min(S, by + bh + pad)
        if x1 <= x0 or y1 <= y0:
            return
        mk, ar = mask[y0:y1, x0:x1], arm[y0:y1, x0:x1]
        bt = both[y0:y1, x0:x1]

        def soft(a, sigma):
            small = cv2.resize(a, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
            small = cv2.GaussianBlur(small, (0, 0), max(0.5, sigma / 4))
            return cv2.resize(small, (a.shape[1], a.shape[0]), interpolation=cv2.INTER_LINEAR)

        m = cv2.GaussianBlur(mk, (0, 0), max(0.8, scale * 0.015)).astype(np.float32) / 255
        shade = soft(mk, max(2.0, scale * 0.15))
        colour = skin[None, None] * (0.72 + 0.35 * shade[..., None])
        # the hand's own shadow on the table, then the hand
        hs = soft(bt, max(2.0, scale * 0.12))
        hs = np.roll(hs, (int(scale * 0.15), int(scale * 0.1)), axis=(0, 1))
        img = self.img[y0:y1, x0:x1].astype(np.float32) * (1 - 0.45 * hs[..., None])
        img = img * (1 - m[..., None]) + colour * m[..., None]
        am = cv2.GaussianBlur(ar, (0, 0), max(0.8, scale * 0.015)).astype(np.float32) / 255
        arm_col = np.float32(sleeve) if sleeve is not None else skin
        arm_colour = arm_col[None, None] * (0.75 + 0.3 * soft(ar, max(2.0, scale * 0.2))[..., None])
        img = img * (1 - am[..., None]) + arm_colour * am[..., None]
        self.img[y0:y1, x0:x1] = np.clip(img, 0, 255).astype(np.uint8)
        both = np.maximum(mask, arm)
        self.hand_mask = both if self.hand_mask is None else np.maximum(self.hand_mask, both)


# --- the camera ------------------------------------------------------------------------------------

def camera(g: np.random.Generator, S: int, out_w: int, out_h: int, tilt: float | None = None,
           yaw: float | None = None, zoom: float | None = None) -> np.ndarray:
    """A homography from image pixels to canvas pixels: the footprint of the image on the table.
    tilt 1 is straight down; larger values see the far edge wider (a camera at an angle)."""
    tilt = g.uniform(1.0, 1.8) if tilt is None else tilt
    yaw = g.uniform(-180, 180) if yaw is None else yaw
    zoom = g.uniform(0.42, 0.62) if zoom is None else zoom
    wb = S * zoom / math.sqrt(tilt)
    wt = wb * tilt
    hf = wb * out_h / out_w * (1 + 0.6 * (tilt - 1))
    pts = np.float32([[-wt / 2, -hf / 2], [wt / 2, -hf / 2], [wb / 2, hf / 2], [-wb / 2, hf / 2]])
    c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    pts = pts @ np.float32([[c, s], [-s, c]])
    ext = np.abs(pts).max()
    if ext > S * 0.49:
        pts *= S * 0.49 / ext
    centre = np.float32([S / 2, S / 2]) + g.uniform(-0.03, 0.03, 2).astype(np.float32) * S
    pts += centre
    img_corners = np.float32([[-0.5, -0.5], [out_w - 0.5, -0.5], [out_w - 0.5, out_h - 0.5], [-0.5, out_h - 0.5]])
    return cv2.getPerspectiveTransform(img_corners, pts)


def to_image(canvas_img: np.ndarray, H_img2can: np.ndarray, out_w: int, out_h: int) -> np.ndarray:
    return cv2.warpPerspective(canvas_img, H_img2can, (out_w, out_h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REFLECT)


def project(points: np.ndarray, H_img2can: np.ndarray) -> np.ndarray:
    """Canvas points to image points."""
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64),
                                    np.linalg.inv(H_img2can)).reshape(-1, 2).astype(np.float32)


def footprint(H_img2can: np.ndarray, out_w: int, out_h: int) -> np.ndarray:
    corners = np.float32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
    return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), H_img2can).reshape(-1, 2)


# --- what the labels say ---------------------------------------------------------------------------

def visibility(items: list, hand_mask, H_img2can, out_w: int, out_h: int, f: float = 0.5):
    """Per item: (quad in the image, fraction of the card visible in the image, visibility of each
    corner: 2 seen, 1 in the frame but covered, 0 outside the frame)."""
    w, h = max(1, int(out_w * f)), max(1, int(out_h * f))
    Hinv = np.linalg.inv(H_img2can)
    quads = [cv2.perspectiveTransform(it.quad.reshape(-1, 1, 2).astype(np.float64), Hinv).reshape(-1, 2)
             .astype(np.float32) for it in items]
    polys = [np.round((q + 0.5) * f - 0.5).astype(np.int32) for q in quads]
    hand = None
    if hand_mask is not None:
        Hs = np.diag([1 / f, 1 / f, 1.0]) @ np.array([[1, 0, 0.5 * (1 - f)], [0, 1, 0.5 * (1 - f)], [0, 0, 1]])
        hand = cv2.warpPerspective(hand_mask, H_img2can @ Hs, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    above = np.zeros((h, w), np.uint8) if hand is None else (hand > 127).astype(np.uint8) * 255
    out = [None] * len(items)
    for k in range(len(items) - 1, -1, -1):        # top of the z-order first
        m = np.zeros((h, w), np.uint8)
        cv2.fillPoly(m, [polys[k]], 255)
        area = max(1e-6, cv2.contourArea(quads[k]) * f * f)
        seen = np.count_nonzero((m > 0) & (above == 0))
        corners = []
        for x, y in quads[k]:
            if not (0 <= x < out_w and 0 <= y < out_h):
                corners.append(0)
                continue
            # look just inside the corner, where the card itself is
            cxy = quads[k].mean(0)
            px, py = x + (cxy[0] - x) * 0.04, y + (cxy[1] - y) * 0.04
            covered = above[min(h - 1, int(py * f)), min(w - 1, int(px * f))] > 0
            corners.append(1 if covered else 2)
        out[k] = (quads[k], min(1.0, seen / area), corners)
        above = np.maximum(above, m)
    return out


# --- the camera's look -----------------------------------------------------------------------------

def photometric(img: np.ndarray, g: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Light falloff, cast shadow, glare, white balance, blur, motion blur and sensor noise."""
    h, w = img.shape[:2]
    x = img.astype(np.float32)
    xs = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
    ys = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
    # a light gradient and vignette
    ang = g.uniform(0, 2 * np.pi)
    gain = 1 + g.uniform(0.1, 0.6) * strength * (xs * np.cos(ang) + ys * np.sin(ang))
    gain = gain * (1 - g.uniform(0, 0.5) * strength * (xs ** 2 + ys ** 2)) * g.uniform(0.65, 1.2)
    x *= gain[..., None]
    # a cast shadow (a person, a phone) with a soft edge
    if g.random() < 0.3 * strength:
        m = np.zeros((h, w), np.float32)
        pts = (g.random((5, 2)) * [w * 1.4, h * 1.4] - [w * 0.2, h * 0.2]).astype(np.int32)
        cv2.fillPoly(m, [cv2.convexHull(pts)], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), g.uniform(5, 30))
        x *= (1 - g.uniform(0.2, 0.5) * m)[..., None]
    # glare: a bright soft spot, as from a lamp on glossy cards
    if g.random() < 0.35 * strength:
        cx, cy = g.uniform(0.2, 0.8) * w, g.uniform(0.2, 0.8) * h
        sx, sy = g.uniform(0.03, 0.15) * w, g.uniform(0.03, 0.15) * h
        ex = np.exp(-((np.arange(w) - cx) / sx) ** 2)
        ey = np.exp(-((np.arange(h) - cy) / sy) ** 2)
        x += (g.uniform(60, 220) * np.outer(ey, ex))[..., None]
    # white balance
    x *= g.uniform(0.85, 1.15, 3).astype(np.float32)[None, None]
    x = np.clip(x, 0, 255)
    # focus blur or motion blur
    r = g.random()
    if r < 0.25 * strength:
        x = cv2.GaussianBlur(x, (0, 0), g.uniform(0.5, 1.8))
    elif r < 0.4 * strength:
        k = int(g.integers(3, 10))
        kern = np.zeros((k, k), np.float32)
        a = g.uniform(0, np.pi)
        c = (k - 1) / 2
        cv2.line(kern, (int(c - np.cos(a) * c), int(c - np.sin(a) * c)), (int(c + np.cos(a) * c), int(c + np.sin(a) * c)),
                 1.0, 1)
        x = cv2.filter2D(x, -1, kern / max(kern.sum(), 1))
    # sensor noise, stronger in the dark
    sigma = g.uniform(1, 7) * strength
    x += g.standard_normal(x.shape, dtype=np.float32) * (sigma * (1.3 - x / 255 * 0.6))
    return np.clip(x, 0, 255).astype(np.uint8)
