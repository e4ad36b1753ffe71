"""Local features of a taught face: the very card found again by its own marks.

A taught deck's embedding (embed.py) describes a face coarsely (64 x 96, HOG regions, the symbol
network's features), which is what lets one photo stand for every later photo of the card under
another light; but a drawing in thin ink, blurred, slanted or partly under a thumb, is then often as
near another card's. The photos a deck is taught from and the photos it reads are of the same
physical cards, though: the same strokes, the same lettering. So each taught photo also keeps its
face's SIFT keypoints (Lowe 2004), and a reading the taught deck is unsure of is checked the way
image retrieval verifies a candidate: keypoints matched to each taught photo of the reading's colour
and of its symbol in other colours (Lowe's ratio test), then a RANSAC homography, whose inliers count
where it lays one rectified face onto the other (aligned). Where one card's photos hold clearly
more inliers than any other candidate's (MIN_INLIERS, RATIO_OVER_NEXT), that card is the reading,
sure (the recognizer's TAUGHT_LOCAL). Measured on bench/teach.py's decks drawn by hand
(docs/teach.md "Local features").

Keypoints are taken on two views of the face, its grey and its darkest channel (a yellow or orange
stroke on white hardly shows in grey), each contrast-limited (CLAHE) against the light's level.
A pure function of the face: the taught file keeps the keypoints' positions and descriptors.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..rectify import portrait_corners, warp_card

LOCAL_W, LOCAL_H = 160, 240     # the face is warped at this size for its keypoints
FEATURES = 150                  # keypoints at most per view (grey, darkest channel): 300 read as well and cost twice the time
RATIO = 0.8                     # Lowe's ratio: a match's distance under this share of the next
RANSAC_PX = 6.0                 # a keypoint within this many pixels of where the homography puts it is an inlier
MIN_MATCHES = 5                 # fewer good matches than this: no homography, no inliers
MIN_INLIERS = 15                # the best card's inliers at least this ...
RATIO_OVER_NEXT = 3.0           # ... and this many times the next candidate's (at least 1)
ALIGN = 0.25                    # a homography moving a face's corner farther than this share of its height is no match (aligned)


@dataclass(frozen=True)
class Features:
    pts: np.ndarray     # N x 2 float32, pixels of the LOCAL_W x LOCAL_H face
    desc: np.ndarray    # N x 128 uint8 (SIFT's descriptors are whole numbers 0..255)

    def __len__(self) -> int:
        return len(self.pts)


_sift = None


def _detector():
    global _sift
    if _sift is None:
        _sift = cv2.SIFT_create(nfeatures=FEATURES)
    return _sift


def face_features(face_bgr: np.ndarray) -> Features:
    """The keypoints of a face warped at LOCAL_W x LOCAL_H."""
    clahe = cv2.createCLAHE(2.0, (4, 4))
    pts, desc = [], []
    for view in (cv2.cvtColor(face_bgr, cv2.COLOR_BGR2GRAY), face_bgr.min(axis=2)):
        kp, d = _detector().detectAndCompute(clahe.apply(np.ascontiguousarray(view)), None)
        if d is not None and len(kp):
            pts.append(np.float32([k.pt for k in kp]))
            desc.append(np.clip(np.rint(d), 0, 255).astype(np.uint8))
    if not pts:
        return Features(np.zeros((0, 2), np.float32), np.zeros((0, 128), np.uint8))
    return Features(np.concatenate(pts), np.concatenate(desc))


def features(bgr: np.ndarray, quad: np.ndarray) -> Features:
    """The keypoints of the card at `quad` in the picture `bgr`."""
    return face_features(warp_card(bgr, quad, (LOCAL_W, LOCAL_H)))


_matcher = cv2.BFMatcher(cv2.NORM_L2)


def inliers(a: Features, b: Features) -> int:
    """How many of `a`'s keypoints match `b`'s consistently with one homography: 0 when fewer than
    MIN_MATCHES pass the ratio test. The faces may lie upright or upside down to each other (a
    rectified card lies either way): a homography takes either."""
    return _aligned_inliers(a, b, _good_matches(a, b))


def _good_matches(a: Features, b: Features) -> tuple[np.ndarray, np.ndarray]:
    """`a`'s matches to `b` that pass Lowe's ratio test, as (a's keypoint indices, b's); none where
    either has too few keypoints."""
    if len(a) < MIN_MATCHES or len(b) < 2:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    pairs = _matcher.knnMatch(a.desc.astype(np.float32), b.desc.astype(np.float32), k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
    return np.intp([m.queryIdx for m in good]), np.intp([m.trainIdx for m in good])


def _aligned_inliers(a: Features, b: Features, good: tuple[np.ndarray, np.ndarray]) -> int:
    """The inliers of the homography through `good` (a's matches to b: _good_matches), 0 where it is none or does
    not lay one face onto the other (aligned). At most as many as the matches."""
    fitted = _aligned_homography(a, b, good)
    return fitted[1] if fitted is not None else 0


def _aligned_homography(a: Features, b: Features, good: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, int] | None:
    """(the homography taking a's face onto b's through `good`, its inliers), or None where there are
    too few matches or it does not lay one face onto the other (aligned)."""
    if len(good[0]) < MIN_MATCHES:
        return None
    h, mask = cv2.findHomography(a.pts[good[0]], b.pts[good[1]], cv2.RANSAC, RANSAC_PX)
    if h is None or mask is None or not aligned(h):
        return None
    return h, int(mask.sum())


_CORNERS = np.float32([[0, 0], [LOCAL_W, 0], [LOCAL_W, LOCAL_H], [0, LOCAL_H]])


def laid_outline(quad: np.ndarray, read: Features, taught: Features) -> np.ndarray | None:
    """The outline in the picture of the card whose face was warped at `quad` to give `read`, where
    the homography of `read`'s keypoints onto the taught face `taught` lays that face's corners; None
    where no homography aligns. An outline found loosely (a piece of the card, the card and some
    table) shows the drawing off its place; the taught face puts it back."""
    fitted = _aligned_homography(read, taught, _good_matches(read, taught))
    if fitted is None:
        return None
    face = np.float32([[0, 0], [LOCAL_W - 1, 0], [LOCAL_W - 1, LOCAL_H - 1], [0, LOCAL_H - 1]])   # as warp_card lays it
    try:
        corners = cv2.perspectiveTransform(face[None], np.linalg.inv(fitted[0]))[0]
    except np.linalg.LinAlgError:
        return None
    to_picture = cv2.getPerspectiveTransform(face, portrait_corners(quad))
    return cv2.perspectiveTransform(corners[None].astype(np.float32), to_picture)[0]


def aligned(h: np.ndarray) -> bool:
    """Whether homography `h` takes one rectified face onto the other as two photos of one card lie:
    each corner within ALIGN of the face's height of where it was, or of where the half turn puts it.
    Matches of one card's lettering or pattern to another's at another place (the same letters in
    another name, a field's texture, a sheet of lined paper caught in a teach photo's outline) make
    a homography too, one that moves the face far: on the teach bench's DINO 2 deck coloured in, of
    the homographies with 15 inliers or more between a photo and a taught photo of another card, 7
    of 381 moved no corner more than 0.25 of the face's height; of those with its own card's, 0.96
    (measured with 300 keypoints a view, before FEATURES went to 150)."""
    p = cv2.perspectiveTransform(_CORNERS[None], h)[0]
    if not np.all(np.isfinite(p)):
        return False
    moved = min(np.abs(p - _CORNERS).max(), np.abs(p - _CORNERS[[2, 3, 0, 1]]).max())
    return bool(moved <= ALIGN * LOCAL_H)


def verified(read: Features, taught: dict[str, list[Features]]) -> tuple[str | None, int, int]:
    """(the card whose taught photos hold clearly the most inliers with `read`, its inliers, the
    next card's), or (None, best, next) where no card stands out (MIN_INLIERS, RATIO_OVER_NEXT);
    (None, 0, 0) once no photo could hold MIN_INLIERS any more.
    `taught`: card id -> its taught photos' features, the candidates (deck.local_candidates: one
    colour's cards and its symbol's in other colours).

    A photo's inliers are at most its good matches (those passing the ratio test), so the
    homographies, most of the cost, are fitted best bound first, and only while a photo's bound could
    still change the answer: reach the best card's inliers, or a third of them (the next card's
    share that RATIO_OVER_NEXT allows). The card and its inliers are those of fitting every photo; the
    next card's inliers are exact wherever they could matter, else a bound under a third of the best
    (session 62: 40 candidate photos of a DINO 2 deck drawn in ink, 82 ms -> 54 ms a reading, the same
    card and inliers for each of 20)."""
    if not taught:
        return None, 0, 0
    bounds = [(len(good[0]), c, f, good) for c, fs in taught.items() for f in fs
              for good in [_good_matches(read, f)]]
    bounds.sort(key=lambda t: -t[0])
    scores: dict[str, int] = {c: 0 for c in taught}
    for bound, c, f, good in bounds:
        best = max(scores.values())
        if best < MIN_INLIERS and bound < MIN_INLIERS:
            # no photo left can hold MIN_INLIERS (bounds only fall): no card will stand out
            return None, 0, 0
        # a photo bounded by its card's inliers so far, or under the best so far and a third of it
        # (the best only grows): its inliers change neither the card, nor its inliers, nor the ratio test
        if bound <= scores[c] or (bound < best and bound * RATIO_OVER_NEXT < best):
            continue
        scores[c] = max(scores[c], _aligned_inliers(read, f, good))
    order = sorted(((n, c) for c, n in scores.items()), reverse=True)
    best, card = order[0]
    second = order[1][0] if len(order) > 1 else 0
    if best >= MIN_INLIERS and best >= RATIO_OVER_NEXT * max(second, 1):
        return card, best, second
    return None, best, second


def pack(per_photo: list[Features | None]) -> dict[str, np.ndarray]:
    """The taught photos' features as flat arrays for the taught file (`local_photo`: each keypoint's
    photo index); a photo without features (None) has no keypoints."""
    pts, desc, photo = [], [], []
    for k, f in enumerate(per_photo):
        if f is not None and len(f):
            pts.append(f.pts)
            desc.append(f.desc)
            photo.append(np.full(len(f), k, np.int32))
    if not pts:
        return {"local_pts": np.zeros((0, 2), np.float32), "local_desc": np.zeros((0, 128), np.uint8),
                "local_photo": np.zeros(0, np.int32)}
    return {"local_pts": np.concatenate(pts), "local_desc": np.concatenate(desc), "local_photo": np.concatenate(photo)}


def unpack(pts: np.ndarray, desc: np.ndarray, photo: np.ndarray, photos: int) -> list[Features | None]:
    """pack's arrays back as one Features (or None) per taught photo."""
    out: list[Features | None] = [None] * photos
    for k in np.unique(photo):
        sel = photo == k
        if 0 <= int(k) < photos:
            out[int(k)] = Features(np.asarray(pts[sel], np.float32), np.asarray(desc[sel], np.uint8))
    return out
