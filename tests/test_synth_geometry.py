"""vision/synth: labelled quads match the rendered cards after perspective; visibility; determinism."""

import cv2
import numpy as np
import pytest

from vision.art import render_card
from vision.synth.generate import class_names, make_scene
from vision.synth.scene import Canvas, camera, to_image, visibility
from vision.synth.writer import write_dataset, yolo_lines

W, H = 640, 480


def scene_with_one_card(tilt, yaw, angle):
    S = 960
    canvas = Canvas(np.full((S, S, 3), 60, np.uint8))
    card = render_card("blue-4", "uno", size=(112, 174))
    canvas.place(card, (S / 2 + 20, S / 2 - 10), angle, 150, "blue-4", shadow=0)
    Hc = camera(np.random.default_rng(0), S, W, H, tilt=tilt, yaw=yaw, zoom=0.5)
    img = to_image(canvas.img, Hc, W, H)
    (quad, seen, corners), = visibility(canvas.items, None, Hc, W, H)
    return img, card, quad, seen, corners


@pytest.mark.parametrize("tilt,yaw,angle", [(1.0, 0, 0), (1.6, 30, 17), (1.3, -120, 200)])
def test_warping_the_card_by_its_label_reproduces_the_image(tilt, yaw, angle):
    img, card, quad, seen, corners = scene_with_one_card(tilt, yaw, angle)
    h, w = card.shape[:2]
    src = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
    M = cv2.getPerspectiveTransform(src, quad)
    bg = np.full((H, W, 3), 60, np.float32)
    warped = cv2.warpPerspective(card, M, (W, H), flags=cv2.INTER_LINEAR)
    a = warped[..., 3:4].astype(np.float32) / 255
    expected = bg * (1 - a) + warped[..., 2::-1].astype(np.float32) * a
    inside = cv2.erode((warped[..., 3] == 255).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    assert inside.sum() > 2000
    diff = np.abs(expected - img.astype(np.float32))[inside].mean()
    assert diff < 6, diff                 # resampling differences only
    assert seen > 0.99 and corners == [2, 2, 2, 2]


def test_straight_down_camera_gives_a_rectangle_scaled_by_hand():
    # tilt 1, yaw 0: the footprint is an axis-aligned rectangle, so the canvas->image map is a
    # plain scale s = W / footprint width about the centre; the card quad is a rectangle of
    # 150 x 150*174/112 canvas pixels times s.
    img, card, quad, seen, corners = scene_with_one_card(1.0, 0, 0)
    w_img = quad[1, 0] - quad[0, 0]
    h_img = quad[3, 1] - quad[0, 1]
    assert abs(quad[0, 1] - quad[1, 1]) < 0.01 and abs(quad[0, 0] - quad[3, 0]) < 0.01
    assert abs(h_img / w_img - 174 / 112) < 0.01


def test_perspective_makes_the_far_edge_shorter():
    # tilt > 1 shows more table at the top of the image: a card's far (upper) edge is shorter
    _, _, quad, _, _ = scene_with_one_card(1.7, 0, 0)
    top = np.linalg.norm(quad[1] - quad[0])
    bottom = np.linalg.norm(quad[2] - quad[3])
    assert top < bottom * 0.97


def test_a_covered_card_is_labelled_hidden():
    S = 960
    canvas = Canvas(np.full((S, S, 3), 60, np.uint8))
    card = render_card("red-1", "uno", size=(64, 100))
    canvas.place(card, (480, 480), 0, 150, "red-1")
    canvas.place(card, (480, 480), 0, 150, "red-1")         # exactly on top
    canvas.place(card, (480 + 75, 480), 0, 150, "red-1")    # covers the right half of the second
    Hc = camera(np.random.default_rng(0), S, W, H, tilt=1.0, yaw=0, zoom=0.5)
    (q0, v0, c0), (q1, v1, c1), (q2, v2, c2) = visibility(canvas.items, None, Hc, W, H)
    assert v0 < 0.02 and c0 == [1, 1, 1, 1]
    assert abs(v1 - 0.5) < 0.05 and c1 == [2, 1, 1, 2]
    assert v2 > 0.98 and c2 == [2, 2, 2, 2]


def test_yolo_lines_skip_hidden_cards_and_normalise():
    labels = {"width": 100, "height": 50, "cards": [
        {"card": "red-0", "quad": [[10, 10], [30, 10], [30, 40], [10, 40]], "visible": 1.0, "corners": [2, 2, 1, 2]},
        {"card": "red-1", "quad": [[10, 10], [30, 10], [30, 40], [10, 40]], "visible": 0.1, "corners": [1, 1, 1, 1]},
        {"card": "back", "quad": [[90, 40], [110, 40], [110, 60], [90, 60]], "visible": 0.3, "corners": [2, 0, 0, 0]}]}
    names = class_names("uno")
    lines = yolo_lines(labels, names)
    assert len(lines) == 2
    assert lines[0].split() == ["0", "0.200000", "0.500000", "0.200000", "0.600000",
                                "0.100000", "0.200000", "2", "0.300000", "0.200000", "2",
                                "0.300000", "0.800000", "1", "0.100000", "0.800000", "2"]
    f = lines[1].split()
    assert f[0] == str(len(names) - 1)                        # "back" is the last class
    assert f[1:5] == ["0.950000", "0.900000", "0.100000", "0.200000"]   # clipped to the frame
    assert f[8:] == ["0.000000", "0.000000", "0"] * 3


def test_same_seed_same_bytes_different_seed_different():
    a = make_scene("uno", 5, 3, 320)
    b = make_scene("uno", 5, 3, 320)
    assert a[0] == b[0] and a[1] == b[1]
    assert make_scene("uno", 6, 3, 320)[0] != a[0]


def test_dataset_is_identical_with_one_or_two_workers(tmp_path):
    s1 = write_dataset("snake-cup", tmp_path / "a", 6, seed=9, imgsz=256, workers=1, contact=4)
    s2 = write_dataset("snake-cup", tmp_path / "b", 6, seed=9, imgsz=256, workers=2, contact=4)
    assert s1["images"] == s2["images"] == 6
    for sub in ("images", "labels", "meta"):
        fa = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a" / sub).rglob("*.*"))
        fb = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b" / sub).rglob("*.*"))
        assert fa == fb and len(fa) == 6
        for p in fa:
            ta, tb = (tmp_path / "a" / p).read_bytes(), (tmp_path / "b" / p).read_bytes()
            assert ta == tb or sub == "meta"      # meta records nothing machine-specific but the path
    yaml = (tmp_path / "a" / "data.yaml").read_text()
    assert "kpt_shape: [4, 3]" in yaml and "  60: snake\n" in yaml and "  61: back\n" in yaml   # 6 x 10 coloured ids, then snake
    assert (tmp_path / "a" / "contact.jpg").exists()
