"""snap_to_edges: a rough box's sides moved onto the card's own outer edge.

A card held close and tilted towards the camera is a trapezoid inside the detector's rectangle,
whose corners lie far from the card's; and a thumb along one side, or glare, can hide that side's
edge while the other three are plain."""
from __future__ import annotations

import random

import cv2
import numpy as np

from vision.art import render_card
from vision.locate.quad import order_corners


def _card_in(quad: np.ndarray, table: int = 50, size=(640, 480)) -> np.ndarray:
    """A red 7 warped onto `quad` (TL, TR, BR, BL) of a plain table."""
    face = render_card("red-7", "uno", rng=random.Random(3), size=(224, 348))
    h, w = face.shape[:2]
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad.astype(np.float32))
    warped = cv2.warpPerspective(face, H, size)
    a = warped[..., 3:4].astype(np.float32) / 255
    img = np.full((size[1], size[0], 3), table, np.float32)
    return (warped[..., 2::-1] * a + img * (1 - a)).astype(np.uint8)


def _corner_error(got: np.ndarray, truth: np.ndarray) -> float:
    return float(np.abs(order_corners(got) - order_corners(truth)).max())


# a card held at a slant: its far edge a third as wide as its near edge
TRAPEZOID = np.float32([[275, 70], [365, 70], [450, 420], [190, 420]])


def test_a_trapezoid_inside_its_rectangle_snaps_to_its_corners(monkeypatch):
    img = _card_in(TRAPEZOID)
    box = cv2.boxPoints(cv2.minAreaRect(TRAPEZOID)).astype(np.float32)
    assert _corner_error(box, TRAPEZOID) > 80        # the rectangle's corners are far from the card's
    from vision.locate.edges import snap_to_edges
    got = snap_to_edges(img, box)
    assert got is not None and _corner_error(got, TRAPEZOID) < 4
    # why: corners that may move only two REACHes refuse the trapezoid
    import vision.locate.edges as edges
    monkeypatch.setattr(edges, "CORNER_MOVE", 0.0)
    assert snap_to_edges(img, box) is None


def test_a_side_hidden_by_fingers_keeps_the_rough_side_and_snaps_the_others(monkeypatch):
    quad = np.float32([[220, 100], [420, 100], [420, 411], [220, 411]])
    img = _card_in(quad)
    # fingers over the left edge and its margin, each reaching in its own way
    for y, reach in ((150, 236), (250, 246), (350, 230)):
        cv2.ellipse(img, (reach - 30, y), (30, 52), 0, 0, 360, (70, 110, 170), -1, cv2.LINE_AA)
    rough = quad + np.float32([[-3, -5], [5, -4], [4, 5], [-3, 4]])
    from vision.locate.edges import snap_to_edges
    got = snap_to_edges(img, rough)
    assert got is not None
    got = order_corners(got)
    # the top, right and bottom sides on the card's edges (the right corners exact), the left
    # side where the rough box had it
    assert np.abs(got[1] - quad[1]).max() < 3 and np.abs(got[2] - quad[2]).max() < 3
    assert abs(got[0][1] - quad[0][1]) < 3 and abs(got[3][1] - quad[3][1]) < 3
    assert abs(got[0][0] - rough[0][0]) < 3
    import vision.locate.edges as edges
    monkeypatch.setattr(edges, "MIN_SIDES", 4)
    monkeypatch.setattr(edges, "SWEEP", False)      # (the whole-line search would look along it again)
    assert snap_to_edges(img, rough) is None


def _turned(quad: np.ndarray, degrees: float) -> np.ndarray:
    t = np.radians(degrees)
    rot = np.float32([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    c = quad.mean(axis=0)
    return ((quad - c) @ rot.T + c).astype(np.float32)


# a card held close, turned 30 degrees: short side 220 of the picture's 480
UPRIGHT = np.float32([[210, 69], [430, 69], [430, 411], [210, 411]])
TURNED_CARD = _turned(UPRIGHT, 30)


def test_a_box_turned_wrong_is_turned_to_the_card_s_edges_then_snapped():
    from vision.locate.edges import edge_orientation, snap_to_edges, turn_to_edges
    img = _card_in(TURNED_CARD)
    # the detector's angle on the transplanted close-ups was off by 20-38 degrees on the cards it lost
    box = _turned(TURNED_CARD, 25)
    # why: the snap's profiles reach 0.14 of the short side, and the box's far ends lie further off
    # (it follows a box up to about 16 degrees off here)
    assert snap_to_edges(img, box) is None
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    assert abs((edge_orientation(grey, box) - 30 + 45) % 90 - 45) <= 2     # the card's own angle
    turned = turn_to_edges(img, box)
    assert turned is not None
    got = snap_to_edges(img, turned)
    assert got is not None and _corner_error(got, TURNED_CARD) < 4


def test_a_box_already_along_the_edges_is_not_turned():
    from vision.locate.edges import turn_to_edges
    img = _card_in(TURNED_CARD)
    assert turn_to_edges(img, _turned(TURNED_CARD, 1.5)) is None


FLAT = np.float32([[220, 100], [420, 100], [420, 411], [220, 411]])


def _on_pale_desk(desk: int, seed: int = 1) -> np.ndarray:
    """The red 7 held close over a desk nearly as bright as its margin, with a phone's noise."""
    img = _card_in(FLAT, table=desk).astype(np.float32)
    img += np.random.default_rng(seed).normal(0, 8, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_faint_edge_on_a_pale_desk_is_found_as_a_whole_line(monkeypatch):
    import vision.locate.edges as edges
    img = _on_pale_desk(225)            # the margin about 20 grey levels over the desk
    rough = FLAT + np.float32([[-6, -8], [8, -6], [6, 8], [-6, 6]])
    got = edges.snap_to_edges(img, rough, sweep=True)
    assert got is not None and _corner_error(got, FLAT) < 3
    # why: one profile at a time, no side's rise clears MIN_RISE through the noise
    assert edges.snap_to_edges(img, rough) is None
    monkeypatch.setattr(edges, "SWEEP", False)
    assert edges.snap_to_edges(img, rough, sweep=True) is None


def test_a_small_card_is_not_swept(monkeypatch):
    # on a table seen from above a small card's box holds a pattern's lines as long as its sides,
    # and a row of cards their neighbours' edges: the whole-line search is kept to cards held close
    import vision.locate.edges as edges
    small = (FLAT - FLAT.mean(axis=0)) * 0.25 + FLAT.mean(axis=0)
    img = _card_in(small, table=225).astype(np.float32)
    img = np.clip(img + np.random.default_rng(2).normal(0, 8, img.shape), 0, 255).astype(np.uint8)
    called = []
    monkeypatch.setattr(edges, "_side_sweep", lambda *a: called.append(1))
    edges.snap_to_edges(img, small + 1.5, sweep=True)
    assert not called
    edges.snap_to_edges(_on_pale_desk(225), FLAT + 1.5, sweep=True)     # (a card held close is)
    assert called


def test_the_picture_s_rim_is_no_edge_for_the_whole_line_search():
    # a card held close whose top runs off the picture: the top side's window reaches outside,
    # where the replicated rim would pass for an edge; no line is found there
    from vision.locate.edges import MARGIN, _side_sweep
    quad = FLAT + np.float32([0, -130])                       # top edge at y = -30
    img = _on_pale_desk(225)
    img = np.roll(img, -130, axis=0)
    img[-130:] = 225
    a, b = quad[0], quad[1]
    assert _side_sweep(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), a, b,
                       np.float32([0, 1]), 0.14 * 200, MARGIN * 200) is None


def test_a_card_in_a_row_is_not_alone_and_a_shape_inside_it_is_no_neighbour():
    # the detector sweeps only a lone card's sides: a neighbour's edge lies within a side's reach
    from vision.locate.detector import alone
    card = np.float32([[100, 100], [200, 100], [200, 255], [100, 255]])
    beside = card + np.float32([110, 0])          # 10 px apart, a row of cards shown to the camera
    far = card + np.float32([300, 0])
    oval = (card - card.mean(axis=0)) * 0.6 + card.mean(axis=0)   # a box round the card's oval
    assert not alone(card, [beside])
    assert alone(card, [far, oval])
    assert alone(oval, [card])


def test_a_box_inside_a_card_filling_the_picture_reaches_it_from_its_bounding_rectangle(monkeypatch):
    # a card held close, upright, filling the picture's width and running off its foot; the
    # detector's box lies inside it, 20 degrees askew (sweep "runs off: upright @90%"). Turned to
    # the edges it is too small for the snap's reach, and snaps nowhere or onto the oval; the
    # rectangle round it, along the edges, snaps onto the card's sides
    import vision.locate.detector as detector
    card = np.float32([[85, 8], [525, 8], [525, 690], [85, 690]])
    img = _card_in(card, table=30)
    box = order_corners(_turned((card - card.mean(0)) * 0.72 + np.float32([320, 290]), 20))
    def on_card(q):     # the corners in view on the card's, the sides beyond the picture's foot
        q = order_corners(q)
        return (np.abs(q[:2] - card[:2]).max() < 4 and np.abs(q[2:, 0] - card[2:, 0]).max() < 6
                and q[2:, 1].min() >= 480)
    got = detector._turned_outlines(img, box, None)
    assert any(on_card(q) for q, _ in got), [q.round().tolist() for q, _ in got]
    monkeypatch.setattr(detector, "TURN_BOUND", False)                # the box turned alone (before)
    assert not any(on_card(q) for q, _ in detector._turned_outlines(img, box, None))
