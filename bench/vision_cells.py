"""Pieces of bench/vision_accuracy.py that are worth testing on their own:

- the pose sweep: a real photo re-rendered with a homography that carries its card (and the table
  around it) to a chosen size, in-plane rotation and camera tilt in a new canvas (pose_quad,
  card_corners, pose_image, SWEEP);
- the picture damage of the sweep: colour casts, dim light, blur, motion blur, JPEG (CASTS, DAMAGE);
- real faces in new places: a real photo's card lifted out (lift_face) and drawn into a new
  close-up, on another surface, held or lying, tilted, in another light (transplant_image);
- the per-cell summary (top-1, sure, wrong-but-sure) and the calibration table with its expected
  calibration error (summarize, calibration).
"""
from __future__ import annotations

import math
from collections import Counter

import cv2
import numpy as np

CARD_ASPECT = 87.0 / 56.0
CANVAS = (640, 480)                        # width, height of a sweep picture unless a cell widens it
TARGET_TOP1, TARGET_WBS = 0.97, 0.01       # every cell: top-1 >= 0.97, wrong-but-sure <= 1 %
BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 1.0)


# ---------------------------------------------------------------- geometry of the sweep

def card_corners(quad: np.ndarray) -> np.ndarray:
    """A located card's 4 corners clockwise (image coordinates, y down) with a short side first:
    p0->p1 short, p1->p2 long. Mapped onto a target in the same spelling, the card is not mirrored."""
    pts = np.asarray(quad, np.float64).reshape(4, 2)
    c = pts.mean(axis=0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))]
    if np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[3] - pts[2]) > \
            np.linalg.norm(pts[2] - pts[1]) + np.linalg.norm(pts[0] - pts[3]):
        pts = np.roll(pts, -1, axis=0)
    return pts.astype(np.float32)


def canvas_for(size: float, angle: float = 0.0, canvas=CANVAS) -> tuple[int, int]:
    """The canvas a card of short side `size` (share of the picture's short side) fits in whole:
    640x480, widened when a card this big does not fit (95 % needs a 708 px long side)."""
    w, h = canvas
    s = size * min(w, h)
    a = math.radians(angle)
    bw = abs(s * math.cos(a)) + abs(s * CARD_ASPECT * math.sin(a))
    bh = abs(s * math.sin(a)) + abs(s * CARD_ASPECT * math.cos(a))
    return max(w, int(math.ceil(bw * 1.05))), max(h, int(math.ceil(bh * 1.05)))


def pose_quad(canvas_wh, size: float, angle: float = 0.0, tilt: float = 0.0, shift=(0.0, 0.0),
              focal: float | None = None) -> np.ndarray:
    """Where the card goes: its 4 corners (card_corners spelling) in a canvas of canvas_wh.

    size: the card's short side as a share of the canvas's short side; angle: in-plane rotation in
    degrees (0 = upright portrait, 90 = lying across); tilt: degrees the table is turned about a
    horizontal axis away from a camera looking straight down (foreshortening and a trapezoid, a
    pinhole of focal length `focal`, default the canvas width); shift in [-1, 1]^2: where the card
    sits between the centre (0) and the frame's edge (+-1) along x and y."""
    w, h = canvas_wh
    s = size * min(w, h)
    half = np.array([[-s / 2, -s * CARD_ASPECT / 2], [s / 2, -s * CARD_ASPECT / 2],
                     [s / 2, s * CARD_ASPECT / 2], [-s / 2, s * CARD_ASPECT / 2]])
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = half @ rot.T
    if tilt:
        f = focal or float(w)
        t = math.radians(tilt)
        x, y = pts[:, 0], pts[:, 1]
        depth = f - y * math.sin(t)                       # the top edge recedes, the bottom comes near
        pts = np.stack([f * x / depth, f * y * math.cos(t) / depth], axis=1)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    room = np.maximum(0.0, (np.array([w, h]) - (hi - lo)) / 2 - 2)   # how far the card may move
    centre = np.array([w / 2, h / 2]) - (lo + hi) / 2 + np.clip(shift, -1, 1) * room
    return (pts + centre).astype(np.float32)


def table_only(img: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The photo with its card painted out (inpainted from the table around it): what the sweep
    mirrors beyond the photo's edges, so the mirrored table holds no mirrored copies of the card."""
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(card_corners(quad)).astype(np.int32), 255)
    grow = max(9, int(0.15 * short_side(quad)) | 1)            # the white edge and the card's shadow too
    mask = cv2.dilate(mask, np.ones((grow, grow), np.uint8))
    small = max(1, int(round(max(img.shape[:2]) / 320)))      # inpaint at about 320 px, it is slow
    if small > 1:
        lo = cv2.inpaint(cv2.resize(img, None, fx=1 / small, fy=1 / small, interpolation=cv2.INTER_AREA),
                         cv2.resize(mask, None, fx=1 / small, fy=1 / small, interpolation=cv2.INTER_NEAREST),
                         5, cv2.INPAINT_TELEA)
        lo = cv2.resize(lo, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
        out = img.copy()
        out[mask > 0] = lo[mask > 0]
        return out
    return cv2.inpaint(img, mask, 5, cv2.INPAINT_TELEA)


# (and a photo cropped to its card a little inside its outer edge, the margin running off the picture)
INSIDE_CELLS = (("cut 6%", 0.06, None), ("cut 10%", 0.10, None), ("4:3 frame", 0.06, 4 / 3), ("cropped 3%", 0.03, None))
INSIDE_W = 600                             # pixels of the card's width in an inside-the-card picture


def inside_frame(img: np.ndarray, quad: np.ndarray, inset: float, aspect: float | None = None) -> np.ndarray:
    """A picture taken inside the card at `quad`: its face cut by `inset` of its width on every
    side (a phone held too close for the white margin, 5-8% of a card's width), or, with `aspect` (height / width), a
    frame of that shape centred on the card, as wide as the cut face (a 4:3 phone photo held
    upright over the card: its long sides cut, the ends of the card's margin in view)."""
    h = int(round(INSIDE_W * CARD_ASPECT))
    src = card_corners(quad).astype(np.float64)
    dst = np.float32([[0, 0], [INSIDE_W - 1, 0], [INSIDE_W - 1, h - 1], [0, h - 1]])
    face = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src.astype(np.float32), dst), (INSIDE_W, h),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    fw = int(round(INSIDE_W * (1 - 2 * inset)))
    fh = int(round(fw * aspect)) if aspect else int(round(h * (1 - 2 * inset * INSIDE_W / h)))
    x0, y0 = (INSIDE_W - fw) // 2, (h - fh) // 2
    return np.ascontiguousarray(face[y0:y0 + fh, x0:x0 + fw])


def pose_image(img: np.ndarray, src_quad: np.ndarray, dst_quad: np.ndarray, canvas_wh,
               table: np.ndarray | None = None) -> np.ndarray:
    """The whole photo warped so its card (src_quad) lands on dst_quad; the table comes along and is
    mirrored where the photo runs out (BORDER_REFLECT; the mirrored part is taken from `table`, the
    photo without its card, see table_only, when given). A shrinking warp is done at k times the
    size and area-averaged down, as a camera's pixels average the light (no aliasing of a 5 % card)."""
    src, dst = card_corners(src_quad), np.asarray(dst_quad, np.float32)
    scale = short_side(dst) / max(1e-6, short_side(src))
    k = int(min(6, max(1, math.ceil(1.0 / scale))))
    w, h = (int(v) for v in canvas_wh)
    H = cv2.getPerspectiveTransform(src, dst * k)
    size = (w * k, h * k)
    out = cv2.warpPerspective(img, H, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    if table is not None:
        inside = cv2.warpPerspective(np.full(img.shape[:2], 255, np.uint8), H, size, flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        mirrored = cv2.warpPerspective(table, H, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        a = (inside.astype(np.float32) / 255.0)[..., None]
        out = (out * a + mirrored * (1 - a)).astype(np.uint8)
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_AREA) if k > 1 else out


def short_side(quad: np.ndarray) -> float:
    """Mean length of a card quad's two short sides."""
    p = card_corners(quad)
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[3] - p[2])) / 2)


# ---------------------------------------------------------------- picture damage

def _gains(img: np.ndarray, b: float, g: float, r: float) -> np.ndarray:
    return np.clip(img.astype(np.float32) * np.array([b, g, r], np.float32), 0, 255).astype(np.uint8)


def warm(img, rng=None):
    """A warm lamp: B*0.65, G*0.9, R*1.1."""
    return _gains(img, 0.65, 0.9, 1.1)


def dim(img, rng):
    """A dim room: x0.35, and the sensor noise that comes with it (sigma 4)."""
    out = img.astype(np.float32) * 0.35 + rng.normal(0, 4, img.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def green_cast(img, rng=None):
    """G*1.2, R*0.85, B*0.85."""
    return _gains(img, 0.85, 1.2, 0.85)


def blue_cast(img, rng=None):
    """B*1.25, R*0.8."""
    return _gains(img, 1.25, 1.0, 0.8)


def gaussian(sigma):
    def f(img, rng=None):
        return cv2.GaussianBlur(img, (0, 0), sigma)
    return f


def motion(px):
    def f(img, rng=None):
        k = np.zeros((px, px), np.float32)
        k[px // 2, :] = 1.0 / px                       # a horizontal smear px pixels long
        return cv2.filter2D(img, -1, k, borderType=cv2.BORDER_REFLECT)
    return f


def jpeg(quality):
    def f(img, rng=None):
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return f


CASTS = {"warm lamp": warm, "dim x0.35": dim, "green cast": green_cast, "blue cast": blue_cast}
DAMAGE = {"gauss blur 1.5": gaussian(1.5), "gauss blur 3": gaussian(3.0), "motion blur 9px": motion(9),
          "jpeg q15": jpeg(15), "jpeg q40": jpeg(40)}


# ---------------------------------------------------------------- the sweep's cells

def sweep_cells(quick: bool = False) -> list[dict]:
    """One dict per cell: name, size, angle, tilt, fx (a picture damage or None)."""
    cells = [{"name": f"size {int(s * 100)}%", "size": s, "angle": 90.0, "tilt": 0.0, "fx": None}
             for s in (0.05, 0.10, 0.20, 0.35, 0.50, 0.70, 0.95)]
    cells += [{"name": f"rot {a} @25%", "size": 0.25, "angle": float(a), "tilt": 0.0, "fx": None}
              for a in (0, 45, 90, 135, 180)]
    cells += [{"name": f"tilt {t} @25%", "size": 0.25, "angle": 0.0, "tilt": float(t), "fx": None}
              for t in (15, 30, 45)]
    cells += [{"name": f"{k} @25%", "size": 0.25, "angle": 0.0, "tilt": 0.0, "fx": fn} for k, fn in CASTS.items()]
    cells += [{"name": f"{k} @25%", "size": 0.25, "angle": 0.0, "tilt": 0.0, "fx": fn} for k, fn in DAMAGE.items()]
    # a card held close that the picture cuts: upright at 90% of a 4:3 picture's height (a quarter
    # to a third of it out, both ends), and one pushed out by a corner (10-30% of it out). Last, so
    # that the cells above keep their draws
    cells += [{"name": "runs off: upright @90%", "size": 0.9, "angle": 0.0, "tilt": 0.0, "fx": None,
               "off": (0.66, 0.75), "towards": "end"},
              {"name": "runs off: a corner @55%", "size": 0.55, "angle": 30.0, "tilt": 15.0, "fx": None,
               "off": (0.7, 0.9), "towards": "corner"}]
    # a shadow's edge across the card (the phone or the hand held over it): one part of the card,
    # its margin and field together, at 0.4-0.6 of the light of the rest. Added after the cells
    # above, so that they keep their draws
    cells += [{"name": f"cast shadow @{int(s * 100)}%", "size": s, "angle": 0.0, "tilt": 0.0, "fx": None,
               "shade": (0.4, 0.6)} for s in (0.25, 0.6)]
    if quick:
        keep = {"size 5%", "size 10%", "size 50%", "size 95%", "rot 45 @25%", "rot 180 @25%",
                "tilt 45 @25%", "warm lamp @25%", "dim x0.35 @25%", "gauss blur 3 @25%", "jpeg q15 @25%",
                "runs off: upright @90%", "cast shadow @60%"}
        cells = [c for c in cells if c["name"] in keep]
    return cells


def run_off(quad: np.ndarray, wh, share: float, towards: str, rng: np.random.Generator) -> np.ndarray:
    """The quad slid out of the picture until at most `share` of it is inside: along the card's
    long side ("end") or towards one of the picture's corners ("corner")."""
    if towards == "end":
        d = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0]) * rng.choice([-1.0, 1.0])
    else:
        d = np.array([rng.choice([-1.0, 1.0]), rng.choice([-1.0, 1.0])]) / math.sqrt(2)
    from vision.locate.quad import inside_share
    q = np.asarray(quad, np.float32).copy()
    for _ in range(1000):
        if inside_share(q, (wh[1], wh[0])) <= share:
            break
        q += (2.0 * d).astype(np.float32)
    return q


def sweep_image(img: np.ndarray, src_quad: np.ndarray, cell: dict, rng: np.random.Generator,
                table: np.ndarray | None = None) -> np.ndarray:
    """One photo through one sweep cell. rng draws where the card sits (and the dim cell's noise);
    table: the photo without its card (table_only), for the mirrored surround."""
    wh = canvas_for(cell["size"], cell["angle"]) if "off" not in cell else CANVAS
    shift = rng.uniform(-0.6, 0.6, 2)
    dst = pose_quad(wh, cell["size"], cell["angle"], cell["tilt"], shift=shift)
    if "off" in cell:
        dst = run_off(dst, wh, rng.uniform(*cell["off"]), cell["towards"], rng)
    out = pose_image(img, src_quad, dst, wh, table)
    if "shade" in cell:
        out = cast_shadow(out, dst, rng.uniform(*cell["shade"]), rng)
    return cell["fx"](out, rng) if cell["fx"] else out


def cast_shadow(img: np.ndarray, quad: np.ndarray, light: float, rng: np.random.Generator) -> np.ndarray:
    """The picture at `light` of its brightness beyond a straight edge through the card: through a
    point in the middle 60% of the card, at any angle, the edge softened by a blur of 1.5-5 px."""
    h, w = img.shape[:2]
    q = np.asarray(quad, np.float32)
    u, v = rng.uniform(0.2, 0.8, 2)
    top, bottom = q[0] + u * (q[1] - q[0]), q[3] + u * (q[2] - q[3])
    p = top + v * (bottom - top)
    a = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    side = ((xx - p[0]) * np.cos(a) + (yy - p[1]) * np.sin(a) > 0).astype(np.float32)
    side = cv2.GaussianBlur(side, (0, 0), rng.uniform(1.5, 5.0))
    gain = 1.0 - (1.0 - light) * side
    return np.clip(img.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def glare(img: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp's or a flash's reflection on a glossy card: a soft near-white ellipse (0.25-0.5 of the
    card's short side long, 0.12-0.3 wide, any angle) centred within 0.3 short sides of the card's
    centre, blended at 0.8-1.0 in its core, slightly warm or white."""
    offset = rng.uniform(-0.3, 0.3, 2)
    axes = (rng.uniform(0.25, 0.5), rng.uniform(0.12, 0.3))
    angle = float(rng.uniform(0, 180))
    strength = rng.uniform(0.8, 1.0)
    tint = (rng.uniform(235, 255), rng.uniform(240, 255), 255)
    return spot(img, quad, offset, axes, angle, strength, tint)


def spot(img: np.ndarray, quad: np.ndarray, offset, axes, angle: float, strength: float = 1.0,
         tint=(250, 248, 255)) -> np.ndarray:
    """A soft near-white ellipse (BGR `tint`) on the card at `quad`: `offset` from its centre and
    `axes`, both in short sides of the card, turned by `angle` degrees; blended at `strength` in its core."""
    q = np.asarray(quad, np.float32)
    short = short_side(q)
    centre = q.mean(axis=0) + np.asarray(offset) * short
    ax = (int(short * axes[0]), int(short * axes[1]))
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.ellipse(mask, tuple(int(v) for v in centre), ax, angle, 0, 360, 255, -1)
    mask = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(2.0, ax[1] / 2.5))[..., None]
    return np.clip(img * (1 - strength * mask) + np.float32(tint) * strength * mask, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- real faces, new places

TRANSPLANT_W = 240                         # pixels of a lifted face's width (its height: the card's aspect)


def lift_face(img: np.ndarray, quad: np.ndarray, inset: float = 0.012) -> np.ndarray:
    """A real card's face lifted out of its photo as RGBA: warped upright from its quad pulled in by
    `inset` of the card's width (so no sliver of the old table comes along), its corners rounded
    as a card's are."""
    w, h = TRANSPLANT_W, int(round(TRANSPLANT_W * CARD_ASPECT))
    src = card_corners(quad).astype(np.float64)
    c = src.mean(axis=0)
    src = c + (src - c) * (1.0 - 2 * inset)
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    face = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src.astype(np.float32), dst), (w, h),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    alpha = np.zeros((h, w), np.uint8)
    r = int(0.06 * w)                                           # a card's corner radius, about 3.5 mm of 56
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    rgba = cv2.cvtColor(face, cv2.COLOR_BGR2RGBA)
    rgba[..., 3] = alpha
    return rgba


def transplant_image(face_rgba: np.ndarray, g: np.random.Generator, out_wh=(640, 480)) -> tuple[np.ndarray, np.ndarray]:
    """A lifted real face in a new picture, as vision/synth/closeup.py draws its close-ups: a new
    surface (tables, a sweater, a desk with a keyboard, papers, a phone, mugs), the card's short side
    15-90 % of the picture's (less where it would not be framed
    whole), turned any way, its plane tilted up to 45 degrees, held in a hand with
    a thumb over an edge in half of them, then the camera's light, glare, blur and noise.
    Returns (picture, the card's quad in it: TL, TR, BR, BL of the upright face)."""
    from vision.synth.closeup import _background, _card_quad, _hold, _paste
    from vision.synth.scene import SKIN, photometric
    w, h = out_wh
    img, _ = _background(g, w, h)
    short = min(w, h)
    width = float(np.exp(g.uniform(np.log(0.15), np.log(0.9)))) * short
    tilt = g.uniform(0, 45)
    spin = g.uniform(0, 360)
    focal = max(w, h) * g.uniform(0.8, 1.6)
    centre = np.float32([w / 2, h / 2]) + g.uniform(-0.25, 0.25, 2).astype(np.float32) * (
        np.float32([w, h]) - width * 1.2).clip(0)
    quad = _card_quad(g, centre, width, spin, tilt, focal)
    for _ in range(30):           # framed whole, as a person photographs the card they ask about
        lo, hi = quad.min(axis=0), quad.max(axis=0)
        if lo.min() >= 2 and hi[0] <= w - 3 and hi[1] <= h - 3:
            break
        width *= 0.92
        centre = np.float32([w / 2, h / 2]) + (centre - np.float32([w / 2, h / 2])) * 0.92
        quad = _card_quad(g, centre, width, spin, tilt, focal)
    held = g.random() < 0.5
    _paste(img, face_rgba, quad, 0.0 if held else 0.3, g)
    if held:
        _hold(g, img, np.zeros((h, w), np.uint8), quad, SKIN[int(g.integers(len(SKIN)))])
    return photometric(np.clip(img, 0, 255).astype(np.uint8), g), quad


# ---------------------------------------------------------------- scoring

def summarize(items: list[dict]) -> dict:
    """items: {truth, read, confidence, sure}; read None or "(none)" = nothing read (wrong, not sure)."""
    n = len(items)
    right = [it["read"] == it["truth"] for it in items]
    sure = [bool(it["sure"]) for it in items]
    n_sure = sum(sure)
    wbs = sum(s and not r for r, s in zip(right, sure))
    top1 = sum(right) / n if n else 0.0
    confusions = Counter((it["truth"], it["read"]) for it, r in zip(items, right) if not r)
    return {"n": n, "top1": top1, "sure_share": n_sure / n if n else 0.0,
            "wrong_but_sure": wbs, "wrong_but_sure_share": wbs / n if n else 0.0,
            "sure_accuracy": (sum(r and s for r, s in zip(right, sure)) / n_sure) if n_sure else None,
            "pass": bool(n) and top1 >= TARGET_TOP1 and wbs / n <= TARGET_WBS,
            "confusions": [{"true": t, "read": g, "count": k} for (t, g), k in confusions.most_common()]}


def calibration(items: list[dict], bins=BINS) -> dict:
    """Reliability table over confidence bins [lo, hi) (the last one closed) and the expected
    calibration error: sum over bins of (bin share) * |accuracy - mean confidence|."""
    conf = np.array([float(it["confidence"]) for it in items], np.float64)
    ok = np.array([it["read"] == it["truth"] for it in items], np.float64)
    rows, ece, n = [], 0.0, len(items)
    for i, (lo, hi) in enumerate(zip(bins[:-1], bins[1:])):
        last = i == len(bins) - 2
        m = (conf >= lo) & ((conf <= hi) if last else (conf < hi))
        k = int(m.sum())
        acc = float(ok[m].mean()) if k else None
        mc = float(conf[m].mean()) if k else None
        if k:
            ece += k / n * abs(acc - mc)
        rows.append({"lo": lo, "hi": hi, "n": k, "accuracy": acc, "mean_confidence": mc})
    sure = [it for it in items if it["sure"]]
    return {"n": n, "bins": rows, "ece": ece if n else None,
            "sure_n": len(sure),
            "sure_accuracy": (sum(it["read"] == it["truth"] for it in sure) / len(sure)) if sure else None}
