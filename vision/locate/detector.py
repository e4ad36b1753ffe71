"""Stage 1, learned: the card detector (models/card-detector.onnx) finds card faces and backs as
oriented boxes, on any table; a white-border contour inside each box then sharpens the box into
the card's own quadrilateral (perspective makes a card a trapezoid, which a box only approximates).

The model is a YOLO11n-OBB trained by vision/locate/train.py on synthetic scenes; it runs here
under onnxruntime with our own letterbox and decoding, so the product needs no torch.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..errors import BUNDLED, models_dir, onnx_session
from .contour import _quad_from_contour, whiteness_mask
from .edges import snap_to_edges, turn_to_edges
from .field import field_outline
from .overlap import share_inside
from .quad import CARD_ASPECT, Quad, aspect, inside_share, order_corners, quad_iou, side_lengths
from .verify import PRINTED, SHARP_PX, CardLook, Verdict, verify_once

MODEL_FILE = "card-detector.onnx"
DEFAULT_MODEL = BUNDLED / MODEL_FILE   # the committed one; CardDetector() honours TABLEREF_MODELS
CLASSES = ("card", "back")
FIELD_DISAGREES = 0.8  # an edge outline that far from the field's is taken to hold a neighbour too ...
FIELD_DISAGREES_SHARP = 0.9   # ... and on a card whose short side is SHARP_PX or more (session 24: with the
                       # field's quad refitted to its sides, an edge outline running onto a paper beside a
                       # 200-pixel card, 0.82 of it, "agreed" with the field's and won; a 50-pixel card's
                       # field outline is no sharper than its edges', and at 0.9 it took a red 4's place)
FIELD_BETTER = 0.05    # ... and where they agree, the field's outline verifies better by this much
TURN_CLOSE = 0.2       # boxes turned to the edges round them for cards whose short side is at least this share of the picture's
TURN_BOUND = True      # ... and the box's bounding rectangle in the edges' orientation: a box 20 degrees askew
                       # of a card filling the picture lies inside it, and turned it is too small for the snap's
                       # reach (or snaps onto the oval); the rectangle round it reaches the card's sides
BOUND_WEAKEST = 0.5    # ... taken only where each side's margin band in view is at least this share white: the
                       # rectangle round a box is bigger than the card, and may snap to the table beyond one side
                       # with an outline of card proportions that verifies better than the card's own
INSIDE = 0.6           # an outline this much inside another card's verified one is a shape on that card
ACROSS_APART = True    # two looks' boxes that overlap less than SAME_CARD_IOU with their long sides this far apart
ACROSS_DEGREES = 45.0  # or more are two cards, not one (group_boxes): on a pile, the first look boxed the top
SAME_CARD_IOU = 0.5    # card and the look from farther the card beneath, across it (IoU 0.3-0.5); grouped, an
                       # outline across both cards won and the top card was not found. Two boxes of one card
                       # turned 90 degrees about one centre overlap 1 / (2 x 1.55 - 1) = 0.475
FIELD_SETTLED = True   # a settled edge outline (SETTLED) is checked against the field's all the same where
FIELD_DOUBT = 0.8      # ... a side's margin band in view is under this share white: on white paper an
                       # outline askew of the card runs onto the paper on one side (the field costs ~7 ms)
FIELD_IN_OUTLINE = True  # the field looked for inside the best edge outline too, not only the leading box
FIELD_OTHERS = 2       # ... and, where neither gives a field outline that verifies, inside this many of the
                       # group's other boxes (other looks): a box cut short of the card crops its field, whose
                       # colour then runs on beyond the outline, and field_outline refuses it
SETTLED = 0.95         # a verify score from which a group's outline is taken without turning it or trying the
                       # group's boxes that lie on it ...
AGREES = 0.9           # ... at this IoU or more (a box elsewhere, another look's, is still tried)
EVEN_SIDE = 0.5        # a raw box (not snapped onto edges) ranks below the other outlines unless each side's
                       # margin band in view is at least this share of the border's colour (_rank)
WEAKEST_TIE = 0.01     # ... and among outlines verified within about this of each other, the whiter least white
                       # side: a home-printed card on gingham, its outline cut across its far end along
                       # the white label band (sides 0.87 / 0.93 / 1 / 1, 0.9577), beat its own edges
                       # (1 / 1 / 1 / 1, 0.9575) on the aspect of its perspective alone
IN_VIEW = 0.9          # an outline with less of it in the picture must come from edges found (the snap):
                       # verify judges only the sides in view, and a box's sides, or a white contour's cut
                       # by the crop, over a pale desk pass for margin (a transplanted close-up: a box round
                       # the desk, off the picture, verified 0.91)


@dataclass
class Detection:
    quad: Quad             # corners in frame pixels (refined where the border was found)
    kind: str              # "card" (a face) or "back"
    score: float           # the detector's confidence
    refined: bool          # True when the quad comes from the card's border, not the box
    verified: float = 0.0  # verify_quad's score of the quad (0: not verified as one whole card)
    from_field: bool = False  # the outline came from the card's coloured field (field.py)


STRIDE = 32   # the network's largest stride: a free-shape input's sides are multiples of it


def _stride_up(n: int) -> int:
    return max(STRIDE, -(-n // STRIDE) * STRIDE)


def box_corners(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    """The 4 corners of a rotated box (angle in radians, as ultralytics' OBB head gives it)."""
    c, s = np.cos(angle), np.sin(angle)
    dx = np.array([w / 2 * c, w / 2 * s])
    dy = np.array([-h / 2 * s, h / 2 * c])
    ctr = np.array([cx, cy])
    return np.stack([ctr - dx - dy, ctr + dx - dy, ctr + dx + dy, ctr - dx + dy]).astype(np.float32)


class CardDetector:
    def __init__(self, path: str | Path | None = None, threads: int = 2):
        path = Path(path) if path else models_dir() / MODEL_FILE
        self.session = onnx_session(path, "card detector", "train one with `tableref train --detector`, "
                                    "or restore it from git", threads)
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        # an int8 twin shares its float model's card (card-detector.int8.onnx -> card-detector.json)
        card = path.with_name(path.name.removesuffix(".onnx").removesuffix(".int8") + ".json")
        self.info = json.loads(card.read_text()) if card.is_file() else {}
        # a model exported with free height and width is fed the picture's own shape, padded only to
        # the network's stride: no time spent on grey bars (a 4:3 frame: 320x256, not 320x320; a
        # look from twice as far: 160x128, a quarter of the work)
        self.dynamic = not isinstance(inp.shape[-1], int)
        # what the deck's cards look like to verify_quad: the recognizer sets it for decks printed
        # at home and cut by hand, and for a taught deck's border and faces
        self.look: CardLook = PRINTED
        self.size = int(self.info.get("imgsz", 320)) if self.dynamic else int(inp.shape[-1])

    def _letterbox(self, bgr: np.ndarray, zoom_out: float = 1.0,
                   square: bool = False) -> tuple[np.ndarray, float, tuple[float, float]]:
        """The frame scaled into the model's input, centred on grey; `zoom_out` > 1 shrinks it
        further, as if the camera stood that many times farther away. `square`: the size x size
        input a fixed-shape model takes, for either kind (a batch of inputs of one shape)."""
        h, w = bgr.shape[:2]
        r = self.size / max(h, w) / zoom_out
        nw, nh = max(1, round(w * r)), max(1, round(h * r))
        img = cv2.resize(bgr, (nw, nh), interpolation=cv2.INTER_AREA if r < 1 else cv2.INTER_LINEAR)
        if not self.dynamic and zoom_out < 1.0:
            raise ValueError("a fixed-shape detector cannot look closer (zoom_out < 1)")
        cw, ch = (_stride_up(nw), _stride_up(nh)) if self.dynamic and not square else (self.size, self.size)
        top, left = (ch - nh) // 2, (cw - nw) // 2
        canvas = np.full((ch, cw, 3), 114, np.uint8)
        canvas[top:top + nh, left:left + nw] = img
        x = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
        return np.ascontiguousarray(x), r, (left, top)

    def boxes(self, bgr: np.ndarray, conf: float = 0.35, iou: float = 0.5,
              zoom_out: float = 1.0) -> list[tuple[np.ndarray, str, float]]:
        """Raw oriented boxes: (4x2 corners in frame pixels, class, score), best first."""
        x, r, (left, top) = self._letterbox(bgr, zoom_out)
        out = self.session.run(None, {self.input_name: x})[0][0]      # (4 + classes + 1, anchors)
        nc = len(CLASSES)
        scores = out[4:4 + nc]
        cls = scores.argmax(0)
        best = scores.max(0)
        keep = np.flatnonzero(best >= conf)
        if keep.size == 0:
            return []
        cx, cy, w, h = out[0, keep], out[1, keep], out[2, keep], out[3, keep]
        ang = out[4 + nc, keep]
        rects = [((float(a), float(b)), (float(c), float(d)), float(np.degrees(t)))
                 for a, b, c, d, t in zip(cx, cy, w, h, ang)]
        picked = cv2.dnn.NMSBoxesRotated(rects, best[keep].astype(float).tolist(), conf, iou)
        dets = []
        for i in np.array(picked).reshape(-1):
            k = keep[i]
            pts = box_corners(out[0, k], out[1, k], out[2, k], out[3, k], out[4 + nc, k])
            pts = (pts - np.array([left, top], np.float32)) / r
            dets.append((pts, CLASSES[int(cls[k])], float(best[k])))
        dets.sort(key=lambda d: -d[2])
        return dets

    def detect(self, bgr: np.ndarray, conf: float = 0.35, refine: bool = True,
               zoom_outs: tuple[float, ...] = (1.0,), boxes: list | None = None,
               looks: list[list] | None = None, outlines: dict | None = None) -> list[Detection]:
        """Cards and backs in the frame. With several `zoom_outs` the detector looks at the frame
        as it is and as if seen from farther away: it learned cards at table-scene sizes, so a
        card held close to the camera is found once the frame is shrunk around it. The boxes of
        one card from several looks are grouped; with `refine`, each box is sharpened onto the
        card's edges and verified (vision/locate/verify.py), and the best verified outline wins.
        `boxes`: raw boxes of a look already taken; `looks`: of several looks already taken (each
        a list); grouped with the others. `outlines`: the boxes' outlines worked out by an earlier
        call on the same frame, reused and added to (a second call with one more look)."""
        taken = list(looks or []) + ([boxes] if boxes else [])
        taken += [self.boxes(bgr, conf, zoom_out=z) for z in zoom_outs]
        raw = [b for look in taken for b in look]
        outlines = {} if outlines is None else outlines     # a box's best outline, worked out once
        groups = group_boxes(raw, looks=[k for k, look in enumerate(taken) for _ in look])
        found = [self._detection(bgr, g, refine, outlines, alone(g[0][0], [h[0][0] for h in groups if h is not g]))
                 for g in groups]
        dets = [d for d, _ in found]
        # a field outline lying within another card's verified outline is a shape inside that card
        # (its oval, its numeral), not a card: that group keeps its outline from the edges
        return [edges if d.from_field and any(o is not d and o.verified > 0 and share_inside(d.quad.pts, o.quad.pts) > INSIDE
                                             for o in dets) else d
                for d, edges in found]

    def _detection(self, bgr: np.ndarray, group: list, refine: bool, outlines: dict,
                   lone: bool = False) -> tuple[Detection, Detection]:
        """(the group's detection, the same from its edges only: they differ when the outline came
        from the card's coloured field). `lone`: no other card's box beside it (snap_to_edges' sweep)."""
        pts, kind, score = group[0]
        if not refine:
            quad = order_corners(pts)
            d = Detection(Quad(quad, _box_shape_score(quad, self.look.aspect)), kind, score, False)
            return d, d
        best = None
        for pts, _, s in group:
            box = order_corners(pts)
            # a settled outline (as good as it gets) skips the boxes that lie on it, not those that
            # lie elsewhere: a box across a home-printed card's label snapped onto the field's edge on
            # one side and verified 0.984; another look's box, on the card's edges, 0.994 (stage 6)
            if best is not None and _settled(best) and quad_iou(box, best[1]) >= AGREES:
                continue
            key = pts.tobytes()
            if key not in outlines:
                outlines[key] = _best_outline(bgr, box, s, self.look, lone, outlines)
            if best is None or _rank(outlines[key]) > _rank(best):
                best = outlines[key]
        out = []
        others = [order_corners(p) for p, _, _ in group[1:1 + FIELD_OTHERS]]
        for b in (_field_or(bgr, group[0], best, self.look, outlines, others),
                  best):
            (ok, vscore, _), quad, refined = b[:3]
            out.append(Detection(Quad(quad, _box_shape_score(quad, self.look.aspect)), kind, score, refined, vscore if ok else 0.0,
                                 from_field=b is not best))
        return out[0], out[1]


def _best_outline(bgr: np.ndarray, box: np.ndarray, score: float, look: CardLook = PRINTED,
                  sweep: bool = False, memo: dict | None = None):
    """((verified, verify score, box score), outline, refined, weakest side's white share) of the
    best outline of one box (`look`: see verify_quad; `sweep`: see snap_to_edges; `memo`: the
    frame's verdicts, verify_once)."""
    best = None
    for quad, refined, edges in _outlines(bgr, box, look.border, sweep, look.aspect):
        # an outline running off the picture only where its sides in view lie on edges found there
        v = (verify_once(memo, bgr, quad, look) if edges or inside_share(quad, bgr.shape) >= IN_VIEW
             else Verdict(False, 0.0, "runs off the picture, and no edge of it was found"))
        got = ((v.ok, v.score, score), quad, refined, v.weakest)
        if best is None or _rank(got) > _rank(best):
            best = got
    if _settled(best):
        return best
    for turned, bound in _turned_outlines(bgr, box, best[1] if best[0][0] else None, look.border, sweep):
        v = verify_once(memo, bgr, turned, look)
        if bound and v.weakest < BOUND_WEAKEST:
            continue
        got = ((v.ok, v.score, score), turned, True, v.weakest)
        if _rank(got) > _rank(best):
            best = got
    return best


def _rank(outline: tuple) -> tuple:
    """How an outline ((verified, verify score, box score), quad, refined, weakest) ranks among a
    card's candidates: verified first, then, of the detector's raw boxes, only those with every
    side's margin band in view at least EVEN_SIDE of the border's colour, then by score. A raw box
    askew of the card lies across its margin on one side and can verify better than the card's own
    edges (stage 6's first look at a card filling the picture, turned 2 degrees: 0.959 with one
    side's band 0.45 white, against 0.943); an outline snapped onto edges is not held back so (a
    card on a pile, one side under its neighbour, is outlined by its edges with that side's band dark).
    Of two outlines verified alike (the verify score saturates once the margin is 0.7 white), the one
    whose least white side is whiter (WEAKEST_TIE)."""
    (ok, vscore, score), refined, weakest = outline[0], outline[2], outline[3]
    return ok, refined or weakest >= EVEN_SIDE, vscore + WEAKEST_TIE * weakest, score


def _settled(outline: tuple) -> bool:
    """An outline as good as it gets: no other box or turn of the card is tried."""
    return outline[0][0] and outline[0][1] >= SETTLED and _rank(outline)[1]


NEAR = 1.3     # another card's box within a box grown this much about its centre lies beside it


def alone(box: np.ndarray, others: list[np.ndarray]) -> bool:
    """True when no other box lies beside `box` (within it grown by NEAR), but for a box of a shape
    inside the card or of the card round it (INSIDE): a card in a row of cards, or on a pile,
    offers a neighbour's edges within a side's reach."""
    c = box.mean(axis=0)
    grown = c + (box - c) * NEAR
    for o in others:
        if share_inside(o, box) > INSIDE or share_inside(box, o) > INSIDE:
            continue
        if cv2.intersectConvexConvex(grown.astype(np.float32), o.astype(np.float32))[0] > 0:
            return False
    return True


def _field_or(bgr: np.ndarray, leader: tuple, best: tuple, look: CardLook = PRINTED,
              fields: dict | None = None, others: list[np.ndarray] = ()) -> tuple:
    """The outline from the card's coloured field inside the group's leading box (field.py) instead
    of `best` (the best outline from the edges), when it verifies and either `best` does not, or
    `best` strays from it (IoU below FIELD_DISAGREES: on a pile, a white-border contour takes in
    the margin of the card below) and verifies worse; only for the leading box, not a box round a
    shape inside the card. At every size: on a card held close a thumb or glare over the field
    breaks it up, but verify's margin depth (verify.py) ranks such an outline below the edges'.
    `fields`: each box's field outline and verdict, worked out once for a frame (detect's second
    call, the closer look, meets the same boxes again). `others`: the group's other boxes, looked
    inside when neither the leading box nor the best outline gives a field outline that verifies."""
    pts, _, score = leader
    box = order_corners(pts)
    if best[0][0] and best[0][1] >= SETTLED and (not FIELD_SETTLED or best[3] >= FIELD_DOUBT):
        return best
    # the field inside the leading box, and inside the best outline from the edges where one
    # verified: a box askew of the card leaves part of its field outside, the outline less so
    boxes = [box] + ([best[1]] if FIELD_IN_OUTLINE and best[0][0] and quad_iou(best[1], box) < 0.95 else [])
    fields = {} if fields is None else fields

    def verified_field(b: np.ndarray):
        """The field outline inside `b` and its verdict when it verifies, else None (once a box)."""
        key = ("field", b.tobytes())
        if key not in fields:
            quad = field_outline(bgr, b, look.border)
            fields[key] = (quad, None if quad is None else verify_once(fields, bgr, quad, look))
        quad, v = fields[key]
        return (quad, v) if quad is not None and v.ok else None

    found = max(filter(None, map(verified_field, boxes)), key=lambda f: f[1].score, default=None)
    # where neither gives one, the first of the group's other boxes (unlike a box tried) that does
    tried = list(boxes)
    for b in others:
        if found is not None:
            break
        if all(quad_iou(b, t) < 0.95 for t in tried):
            tried.append(b)
            found = verified_field(b)
    if found is None:
        return best
    quad, v = found
    # where the two agree, the field's outline only when it verifies clearly better (the edges'
    # best is a rough box whose margin bands had to move inwards)
    sharp = float(side_lengths(quad).min()) >= SHARP_PX
    agree = best[0][0] and quad_iou(quad, best[1]) >= (FIELD_DISAGREES_SHARP if sharp else FIELD_DISAGREES)
    if not best[0][0] or v.score > best[0][1] + (FIELD_BETTER if agree else 0.0):
        return (True, v.score, score), quad, True, v.weakest
    return best


GROW = (1.2, 1.45)     # a box grown by these about its centre, for a deck of another border (_outlines)


def _outlines(bgr: np.ndarray, box: np.ndarray, border=None, sweep: bool = False, card_aspect: float = CARD_ASPECT):
    """Candidate outlines of the card in a box, each (outline, refined, on edges found): snapped onto
    its edges, its white-border contour, the box itself (`border`, `sweep`: see snap_to_edges)."""
    snapped = snap_to_edges(bgr, box, border, sweep)
    if snapped is not None and quad_iou(snapped, box) >= 0.6:
        yield snapped, True, True
    # a card seen at a slant is far from card-shaped: verify_quad judges the shape afterwards
    contour = refine_quad(bgr, box, min_shape=0.15, card_aspect=card_aspect)
    if contour is not None:
        yield contour, True, False
    yield box, False, False
    if border is not None:
        # on a card edged in black or a colour the detector's box may lie round the white oval or
        # circle inside, well within the card's edge (stage 4, which learned white edges only, often did)
        c = box.mean(axis=0)
        for grow in GROW:
            bigger = c + (box - c) * grow
            snapped = snap_to_edges(bgr, bigger, border)
            if snapped is not None and quad_iou(snapped, bigger) >= 0.6:
                yield snapped, True, True


def _turned_outlines(bgr: np.ndarray, box: np.ndarray, best: np.ndarray | None, border=None,
                     sweep: bool = False) -> list[tuple[np.ndarray, bool]]:
    """For a card held close whose best verified outline so far (`best`, None when none verified)
    lies askew of the edges round it: the box turned to those edges and snapped, and the box's
    bounding rectangle in the edges' orientation snapped (TURN_BOUND); none, one or both, each with
    whether it came from the bounding rectangle. The
    detector's angle is coarse on close cards; on tables seen from above it is not, and a turned
    box there took in a neighbour's margin."""
    if float(side_lengths(box).min()) < TURN_CLOSE * min(bgr.shape[:2]):
        return []
    turned = turn_to_edges(bgr, box, best)
    if turned is None:
        return []
    out = []
    tries = [turned] + ([_bounding_in(box, turned)] if TURN_BOUND else [])
    for k, start in enumerate(tries):
        snapped = snap_to_edges(bgr, start, border, sweep)
        if snapped is not None and quad_iou(snapped, start) >= 0.6:
            out.append((snapped, k == 1))
    return out


def _bounding_in(box: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """The smallest rectangle round `box` whose sides run along those of the rectangle `frame`."""
    d = frame[1] - frame[0]
    a = float(np.arctan2(d[1], d[0]))
    rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]], np.float32)
    c = box.mean(axis=0)
    p = (box - c) @ rot.T
    lo, hi = p.min(axis=0), p.max(axis=0)
    return order_corners(np.float32([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]]) @ rot + c)


def group_boxes(boxes: list[tuple[np.ndarray, str, float]], iou: float = 0.3,
                looks: list[int] | None = None) -> list[list[tuple[np.ndarray, str, float]]]:
    """Boxes from several looks at one frame grouped by card: each group led by its most confident
    box (whose class, face or back, is the group's), which no other group's leader overlaps by
    `iou` or more. `looks`: the look each box came from; a group takes at most one box of a look,
    since two boxes that one look's suppression kept apart are two cards (on a pile, the top
    card's box overlaps the one beneath by a third or more); and a box joins a leader it overlaps
    by under SAME_CARD_IOU only where their long sides lie within ACROSS_DEGREES of each other
    (a card lying across another is another card)."""
    groups: list[list[tuple[np.ndarray, str, float]]] = []
    taken: list[set[int]] = []
    order = sorted(range(len(boxes)), key=lambda i: -boxes[i][2])
    for i in order:
        b, look = boxes[i], (looks[i] if looks is not None else None)
        for g, seen in zip(groups, taken):
            overlap = quad_iou(b[0], g[0][0])
            if look not in seen and (overlap >= SAME_CARD_IOU or (
                    overlap >= iou and (not ACROSS_APART or _turned(b[0], g[0][0]) < ACROSS_DEGREES))):
                g.append(b)   # its outline may be the better one, whatever it took the card for
                if look is not None:
                    seen.add(look)
                break
        else:
            groups.append([b])
            taken.append({look} if look is not None else set())
    return groups


def _long_axis(quad: np.ndarray) -> float:
    """The direction (degrees, modulo 180) of a box's long sides."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    a, b = q[1] - q[0], q[2] - q[1]
    v = a if np.hypot(*a) >= np.hypot(*b) else b
    return float(np.degrees(np.arctan2(v[1], v[0])) % 180.0)


def _turned(a: np.ndarray, b: np.ndarray) -> float:
    """Degrees (0..90) between two boxes' long axes."""
    d = abs(_long_axis(a) - _long_axis(b)) % 180.0
    return min(d, 180.0 - d)


def _box_shape_score(quad: np.ndarray, card_aspect: float = CARD_ASPECT) -> float:
    return float(np.exp(-abs(np.log(aspect(quad, floor=1.0) / card_aspect)) / 0.25))


def refine_quad(bgr: np.ndarray, box: np.ndarray, pad: float = 0.3, min_iou: float = 0.45,
                min_shape: float = 0.6, card_aspect: float = CARD_ASPECT) -> np.ndarray | None:
    """The card's border quadrilateral inside (a margin around) a detected box, or None when no
    white-bordered card shape there agrees with the box. Searching only near the box keeps the
    table's own bright patches out of the way."""
    h, w = bgr.shape[:2]
    c = box.mean(axis=0)
    grown = c + (box - c) * (1 + pad)
    x0, y0 = np.floor(grown.min(0)).astype(int).clip(0, [w - 1, h - 1])
    x1, y1 = np.ceil(grown.max(0)).astype(int).clip(1, [w, h])
    if x1 - x0 < 12 or y1 - y0 < 12:
        return None
    crop = bgr[y0:y1, x0:x1]
    # the whole upright crop, not just the box: a box turned a little wrong would cut the border
    mask = cv2.morphologyEx(whiteness_mask(crop), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best, best_iou = None, min_iou
    for cnt in contours:
        got = _quad_from_contour(cnt, card_aspect)
        if got is None or got[1] < min_shape:   # a blob of several cards is no card's outline
            continue
        q = got[0] + np.array([x0, y0], np.float32)
        i = quad_iou(q, box)
        if i > best_iou:
            best, best_iou = order_corners(q), i
    return best
