"""bench/vision_cells.py: the pose sweep puts the card where it is asked to, the calibration error
is right on hand-worked toy sets, and the colour casts move colours the stated way."""
import math
import random

import cv2
import numpy as np
import pytest

from tests.helpers import load_bench

vc = load_bench("vision_cells")


def _card_on_table():
    """A rendered card on a plain dark table at a known, slightly turned quad: (image, quad)."""
    from vision.art import render_card
    face = render_card("red-7", "uno", rng=random.Random(3), size=(112, 174))
    img = np.full((480, 640, 3), 30, np.uint8)
    quad = vc.pose_quad((640, 480), 174 / 480 * 56 / 87, angle=20.0, shift=(-0.3, 0.2))
    h, w = face.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    H = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(face, H, (640, 480))
    a = warped[..., 3:4].astype(np.float32) / 255
    img = (warped[..., 2::-1] * a + img * (1 - a)).astype(np.uint8)
    return img, quad


def _located(img):
    from vision.locate import find_cards
    quads = find_cards(img)
    assert quads, "the contour locator found no card"
    return max(quads, key=lambda q: q.area).pts


def test_pose_sweep_puts_the_card_at_the_asked_size_and_turn():
    img, quad = _card_on_table()
    src = _located(img)
    assert vc.short_side(src) == pytest.approx(vc.short_side(quad), rel=0.05)
    for size in (0.5, 0.2):
        for angle in (0.0, 90.0):
            out = vc.pose_image(img, src, vc.pose_quad((640, 480), size, angle), (640, 480), vc.table_only(img, src))
            found = _located(out)
            assert vc.short_side(found) / 480 == pytest.approx(size, abs=0.02 * size)
            x, y, w, h = cv2.boundingRect(found.astype(np.float32))
            assert (h > 1.3 * w) if angle == 0 else (w > 1.3 * h)   # upright portrait, or turned across


def test_rotation_turns_the_card_and_tilt_foreshortens_it():
    q0, q90 = vc.pose_quad((640, 480), 0.25, 0), vc.pose_quad((640, 480), 0.25, 90)
    e0, e90 = q0[1] - q0[0], q90[1] - q90[0]                     # the short top edge
    assert math.degrees(math.atan2(e90[1], e90[0]) - math.atan2(e0[1], e0[0])) == pytest.approx(90, abs=0.1)
    flat, tilted = vc.pose_quad((640, 480), 0.25, 0), vc.pose_quad((640, 480), 0.25, 0, tilt=45)
    top, bottom = np.linalg.norm(tilted[1] - tilted[0]), np.linalg.norm(tilted[2] - tilted[3])
    assert top < bottom                                          # a trapezoid: the far edge is shorter
    height = lambda q: q[:, 1].max() - q[:, 1].min()            # noqa: E731
    assert height(tilted) < 0.8 * height(flat)                   # foreshortened about cos 45


def test_big_card_gets_a_canvas_it_fits_in():
    w, h = vc.canvas_for(0.95, 90)
    q = vc.pose_quad((w, h), 0.95, 90)
    assert h == 480 and w > 640
    assert q[:, 0].min() >= 0 and q[:, 0].max() <= w and q[:, 1].min() >= 0 and q[:, 1].max() <= h


def _items(conf, right, wrong):
    return ([{"truth": "a", "read": "a", "confidence": conf, "sure": conf >= 0.6}] * right
            + [{"truth": "a", "read": "b", "confidence": conf, "sure": conf >= 0.6}] * wrong)


def test_ece_is_zero_when_calibrated_and_large_when_overconfident():
    calibrated = _items(0.9, 9, 1) + _items(0.3, 3, 7)          # 90 % right at 0.9, 30 % at 0.3
    assert vc.calibration(calibrated)["ece"] == pytest.approx(0.0, abs=1e-9)
    over = _items(0.99, 5, 5) + _items(0.3, 3, 7)                # half right at 0.99: |0.5 - 0.99| on half
    cal = vc.calibration(over)
    assert cal["ece"] == pytest.approx(0.5 * 0.49)
    top = cal["bins"][-1]
    assert (top["n"], top["accuracy"]) == (10, 0.5)
    assert cal["sure_accuracy"] == pytest.approx(0.5)


def test_summarize_counts_wrong_but_sure_and_nothing_read():
    items = _items(0.95, 97, 1) + [{"truth": "a", "read": "(none)", "confidence": 0.0, "sure": False}] * 2
    s = vc.summarize(items)
    assert (s["n"], s["top1"], s["wrong_but_sure"]) == (100, 0.97, 1)
    assert s["pass"]
    assert not vc.summarize(items + _items(0.95, 0, 1))["pass"]


def test_casts_move_colours_the_stated_way():
    img = np.full((8, 8, 3), 120, np.uint8)                      # grey, BGR
    b, g, r = (vc.warm(img)[0, 0].astype(int))
    assert r > 120 > g > b
    b, g, r = vc.green_cast(img)[0, 0].astype(int)
    assert g > 120 and r < 120 and b < 120
    b, g, r = vc.blue_cast(img)[0, 0].astype(int)
    assert b > 120 and r < 120 and g == 120
    d = vc.dim(img, np.random.default_rng(0)).astype(float)
    assert d.mean() == pytest.approx(42, abs=1.5) and d.std() > 2


def test_a_lifted_face_is_the_card_alone_with_round_corners():
    img, quad = _card_on_table()
    face = vc.lift_face(img, quad)
    h, w = face.shape[:2]
    assert (w, h) == (vc.TRANSPLANT_W, round(vc.TRANSPLANT_W * vc.CARD_ASPECT))
    assert face[0, 0, 3] == 0 and face[h // 2, w // 2, 3] == 255        # corners cut round, the face kept
    inside = face[h // 4:3 * h // 4, w // 4:3 * w // 4, :3].reshape(-1, 3).astype(int)
    red = (inside[:, 0] > inside[:, 2] + 60).mean()                     # RGBA: red over blue
    assert red > 0.3                                                    # the red 7's field
    edge = face[3:-3, 2, :3].astype(int)                                # down its left margin: paper
    assert edge.min(axis=1).mean() > 150                                # none of the dark table


def test_a_transplanted_face_lands_whole_in_the_new_picture():
    img, quad = _card_on_table()
    face = vc.lift_face(img, quad)
    sizes = []
    for k in range(12):
        wh = (640, 480) if k % 2 else (480, 640)
        out, q = vc.transplant_image(face, np.random.default_rng([3, k]), wh)
        assert out.shape == (wh[1], wh[0], 3) and out.dtype == np.uint8
        assert q.min() >= 0 and q[:, 0].max() < wh[0] and q[:, 1].max() < wh[1]   # framed whole
        sizes.append(vc.short_side(q) / min(wh))
    assert 0.1 < min(sizes) and max(sizes) < 0.95 and max(sizes) > 2 * min(sizes)  # close and far
    # the same generator draws the same picture: the cell is the same every run
    a, _ = vc.transplant_image(face, np.random.default_rng(5))
    b, _ = vc.transplant_image(face, np.random.default_rng(5))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("name", ["runs off: upright @90%", "runs off: a corner @55%"])
def test_the_run_off_cells_cut_the_card_by_the_share_they_name(name):
    # the cells of a card held close that the picture cuts: the card's outline in the 640x480
    # picture has the asked share inside it, and the card keeps its size
    from vision.locate.quad import inside_share
    img, quad = _card_on_table()
    src = _located(img)
    cell = next(c for c in vc.sweep_cells() if c["name"] == name)
    for seed in range(5):
        g = np.random.default_rng(seed)
        wh = vc.CANVAS
        dst = vc.pose_quad(wh, cell["size"], cell["angle"], cell["tilt"], shift=g.uniform(-0.6, 0.6, 2))
        out = vc.run_off(dst, wh, 0.7, cell["towards"], g)
        assert 0.68 <= inside_share(out, (wh[1], wh[0])) <= 0.7
        assert vc.short_side(out) == pytest.approx(vc.short_side(dst), rel=1e-4)
        pic = vc.sweep_image(img, src, cell, np.random.default_rng(seed))
        assert pic.shape[:2] == (480, 640)


def test_the_overexposed_and_washed_photos_are_what_their_cells_say():
    va = load_bench("vision_accuracy")
    img = np.zeros((4, 4, 3), np.uint8)
    img[:] = (40, 60, 200)                                       # a red, BGR
    bright = va.overexposed(img)[0, 0].astype(int)
    assert list(bright) == [100, 150, 255]                       # x2.5, red clipped
    washed = cv2.cvtColor(va.washed(img), cv2.COLOR_BGR2HSV)[0, 0].astype(int)
    s = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)[0, 0, 1]
    assert abs(washed[1] - s * 0.5) <= 2 and abs(int(washed[2]) - 200) <= 1


def test_the_toned_photos_darken_mid_tones_and_keep_white():
    va = load_bench("vision_accuracy")
    img = np.array([[[255, 128, 0], [60, 140, 40]]], np.uint8)
    out = va.toned(img).astype(int)
    assert list(out[0, 0]) == [255, 64, 0]                       # (128/255)^2 x 255 = 64.3
    assert list(out[0, 1]) == [14, 77, 6]                        # a green field: 60 -> 14, 140 -> 77, 40 -> 6


def test_the_hued_photos_turn_every_hue_and_keep_white():
    va = load_bench("vision_accuracy")
    img = np.zeros((2, 4, 3), np.uint8)
    img[:, :2] = (0, 0, 255)                                     # pure red, hue 0 (BGR)
    img[:, 2:] = 255                                             # white
    up, down = va.hued(img, 0), va.hued(img, 1)
    hsv = cv2.cvtColor(up, cv2.COLOR_BGR2HSV_FULL).astype(int)
    assert abs(hsv[0, 0, 0] * 360 / 256 - 10) <= 2.0            # turned 10 degrees up (hue in 1.4-degree steps)
    assert hsv[0, 0, 1] >= 250 and hsv[0, 0, 2] == 255           # saturation and value kept
    hsv = cv2.cvtColor(down, cv2.COLOR_BGR2HSV_FULL).astype(int)
    assert abs(hsv[0, 0, 0] * 360 / 256 - 350) <= 2.0           # the next photo 10 degrees down
    assert (up[:, 2:] == 255).all() and (down[:, 2:] == 255).all()   # white stays white


def test_a_table_scene_of_given_faces_lays_out_those_faces_where_its_labels_say():
    # the tables cell: generate.compose with real faces instead of renders; here two plain faces of
    # colours no render has (a pure magenta and a pure cyan field in a white margin)
    from vision.synth.generate import compose

    def face(bgr):
        f = np.full((174, 112, 4), 255, np.uint8)
        f[10:-10, 8:-8, :3] = bgr
        return cv2.cvtColor(f, cv2.COLOR_BGRA2RGBA)

    faces = {"red-7": [face((255, 0, 255))], "blue-2": [face((255, 255, 0))]}
    seen = 0
    for i in range(6):
        img, labels = compose("uno", np.random.default_rng([5, i]), random.Random(i), 640, 480, faces=faces)
        for c in labels["cards"]:
            if c["card"] == "back":
                continue
            assert c["card"] in faces
            if c["visible"] < 0.95 or c.get("role") != "single" and not c.get("top"):
                continue
            mask = np.zeros(img.shape[:2], np.uint8)
            q = np.float32(c["quad"])
            centre = q.mean(axis=0)
            cv2.fillPoly(mask, [np.int32(centre + (q - centre) * 0.5)], 1)
            b, g, r = (float(img[..., k][mask > 0].mean()) for k in range(3))
            # the card's middle shows its face's colour: magenta (red and blue high, green low), or cyan
            if c["card"] == "red-7":
                assert r > g + 60 and b > g + 60, (b, g, r)
            else:
                assert g > r + 60 and b > r + 60, (b, g, r)
            seen += 1
    assert seen >= 3



def test_the_second_prints_sweep_poses_each_photo_from_the_outline_read_right(tmp_path, monkeypatch):
    # bench/vision_accuracy.py sweep2: the sweep's cells on photos the contour locator does not
    # outline (the filled-oval print on black), from the outline the recognizer reads right; a
    # photo it misreads is skipped and counted, not swept
    va = load_bench("vision_accuracy")
    from vision.recognizer import Recognizer
    img, _ = _card_on_table()
    cv2.imwrite(str(tmp_path / "a.png"), img)
    cv2.imwrite(str(tmp_path / "b.png"), img)
    (tmp_path / "labels.csv").write_text("file,card\na.png,red-7\nb.png,blue-3\n")
    cells = [c for c in vc.sweep_cells() if c["name"] in ("size 50%", "rot 90 @25%")]
    monkeypatch.setattr(va.vc, "sweep_cells", lambda quick=False: cells)
    items, info = va.sweep_read(Recognizer("uno"), [tmp_path], seed=5, step=1)
    assert info["skipped"] == ["b.png"]                 # read as the red 7 it is, not a blue 3
    assert [it["cell"] for it in items] == ["sweep2 size 50%", "sweep2 rot 90 @25%"]
    assert all(it["name"] == f"{tmp_path.name}/a.png" and it["truth"] == "red-7" for it in items)
    assert all(it["read"] == "red-7" for it in items)


@pytest.mark.parametrize("argv,says", [
    (["--without-print", "classic", "--cells", "real"], "--without-print needs --lopo DIR"),
    (["--without-print", "classic", "--lopo", "{tmp}", "--deck", "dino2"], "for the UNO family"),
    (["--without-print", "nope", "--lopo", "{tmp}", "--cells", "real"], "ono-symbols-without-nope.npz missing"),
])
def test_reading_as_a_print_never_seen_names_what_it_lacks(argv, says, tmp_path, capsys):
    # the readers trained without a print are made by bench/train_lopo*.sh: without them the bench
    # says which file and which script, and reads nothing
    va = load_bench("vision_accuracy")
    with pytest.raises(SystemExit) as e:
        va.main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert e.value.code == 2 and says in capsys.readouterr().err


@pytest.mark.parametrize("cell,inset,aspect", vc.INSIDE_CELLS)
def test_an_inside_frame_shows_the_cards_field_to_its_edges_and_no_table(cell, inset, aspect):
    img, quad = _card_on_table()
    pic = vc.inside_frame(img, quad, inset, aspect)
    w = round(vc.INSIDE_W * (1 - 2 * inset))
    assert pic.shape[1] == w
    if aspect:
        assert pic.shape[0] == round(w * aspect)
    else:   # cut by the same pixels at the ends as at the sides
        assert pic.shape[0] == round(vc.INSIDE_W * vc.CARD_ASPECT) - 2 * round(inset * vc.INSIDE_W)
    # no table (grey 30) at its corners
    assert all(pic[y, x].max() > 60 for y in (0, -1) for x in (0, -1))
    if inset < 0.1:
        return      # this render's margin is 8% of its width: a thin white edge stays in view
    # its long sides are the red field, not the white margin
    sides = np.concatenate([pic[pic.shape[0] // 3:2 * pic.shape[0] // 3, :3], pic[pic.shape[0] // 3:2 * pic.shape[0] // 3, -3:]])
    b, g, r = (sides.reshape(-1, 3).mean(axis=0))
    assert r > 150 and g < 100 and b < 100


def test_a_table_scene_seen_from_farther_up_lays_its_cards_smaller():
    # the far cells: generate.compose's card_width draws each card's width from a lower range (5-10 %
    # of the picture's near edge against 10-26 %), the same draw mapped onto it: every card at most
    # half as wide, so the cards' median width falls to under 0.6 of the default's
    from vision.synth.generate import CARD_WIDTH, compose

    def widths(card_width):
        out = []
        for i in range(6):
            _, labels = compose("uno", np.random.default_rng([7, i]), random.Random(i), 640, 480,
                                card_width=card_width)
            for c in labels["cards"]:
                q = np.float32(c["quad"])
                out.append(min(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[1] - q[2])))
        return np.median(out)

    near, far = widths(CARD_WIDTH), widths((0.05, 0.10))
    assert far < 0.6 * near, (far, near)
    assert 10 < far < 80, far          # a 640 x 480 frame: cards tens of pixels wide


def test_the_close_ups_cells_read_one_face_card_per_picture_in_three_frame_shapes():
    va = load_bench("vision_accuracy")

    class Seen:     # records the pictures it is shown; reads nothing in them
        deck = type("D", (), {"id": "uno"})()
        shapes = []

        def read(self, img):
            self.shapes.append(img.shape[:2])
            return []

    rec = Seen()
    items = va.closeups(rec, 6, 17571)
    assert items, "no close-up showed one face card"
    assert {it["cell"] for it in items} <= {f"close-ups {w}x{h}" for w, h in va.CLOSEUP_FRAMES}
    assert {(h, w) for h, w in rec.shapes} <= {(h, w) for w, h in va.CLOSEUP_FRAMES}
    assert len(rec.shapes) == len(items)                         # only those pictures are read
    from referee.cards import load_deck
    cards = load_deck("uno").cards
    assert all(it["truth"] in cards and it["read"] == "(none)" and not it["sure"] for it in items)
    assert len({it["name"] for it in items}) == len(items)      # each picture once


def test_the_covered_tables_cells_take_the_cards_partly_in_view_and_only_those():
    import random

    from vision.recognizer import Recognizer
    from vision.synth.generate import compose
    va = load_bench("vision_accuracy")
    # seed 470, scene 19: four whole cards, and a yellow +2 0.66 in view under another
    g, rng = np.random.default_rng([470, 5, 19]), random.Random(470 * 31 + 19)
    img, labels = compose("uno", g, rng, 640, 480)
    faces = [c for c in labels["cards"] if c["card"] != "back"]
    whole = sorted(c["card"] for c in faces if c["visible"] >= 0.9)
    partly = sorted(c["card"] for c in faces if 0.6 <= c["visible"] < 0.9)
    assert whole and partly, "the scene has whole cards and a card partly in view"
    rec = Recognizer("uno")
    items = va.scene_items(rec, img, labels, "t", "scene", covered="c")
    assert sorted(it["truth"] for it in items if it["cell"] == "t") == whole
    assert sorted(it["truth"] for it in items if it["cell"] == "c") == partly
    # without a covered cell, the whole cards alone, as before
    assert sorted(it["truth"] for it in va.scene_items(rec, img, labels, "t", "scene")) == whole
