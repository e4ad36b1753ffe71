"""The committed recognizer on still images: rendered cards placed on a table, and the real
development photos (read from ../shared/real-uno-dev at run time, skipped where absent)."""
import csv
import json
from pathlib import Path

import cv2
import pytest

from vision.recognizer import CONFIRM_THRESHOLD, Recognizer
from helpers import table_with

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real-uno-dev"


def test_reads_rendered_cards_on_a_table_with_their_outlines():
    img = table_with("ono", [("red-7", (60, 60), False), ("blue-skip", (300, 200), True), ("wild", (480, 60), False)])
    reads = Recognizer("ono").read(img)
    assert sorted(r.card for r in reads) == ["blue-skip", "red-7", "wild"]
    red = next(r for r in reads if r.card == "red-7")
    xs, ys = zip(*red.quad.polygon())
    # the red 7 was pasted at x 60..143, y 60..189
    assert abs(min(xs) - 60) < 6 and abs(max(xs) - 143) < 6 and abs(min(ys) - 60) < 6 and abs(max(ys) - 189) < 6
    assert [r.confidence for r in reads] == sorted((r.confidence for r in reads), reverse=True)


def test_a_picture_over_the_working_size_is_read_shrunk_and_its_outlines_given_in_its_own_pixels(monkeypatch):
    import numpy as np
    import vision.recognizer as recognizer
    small = table_with("ono", [("red-7", (60, 60), False), ("blue-skip", (300, 200), True)])   # 640 x 480
    big = cv2.resize(small, (3200, 2400), interpolation=cv2.INTER_CUBIC)                      # 5 x, over 2048
    rec = Recognizer("ono")
    reads = rec.read(big)
    assert sorted(r.card for r in reads) == ["blue-skip", "red-7"]
    red = next(r for r in reads if r.card == "red-7")
    xs, ys = zip(*red.quad.polygon())
    # the red 7 was pasted at x 60..143, y 60..189 of the small picture: x 5 in the big one
    assert abs(min(xs) - 300) < 30 and abs(max(xs) - 715) < 30 and abs(min(ys) - 300) < 30 and abs(max(ys) - 945) < 30
    # read shrunk: the outline searches saw a picture 2048 long, not 3200
    seen = []
    monkeypatch.setattr(rec, "locate_all", lambda bgr, *a, **k: (seen.append(bgr.shape), ([], []))[1])
    rec.read(big)
    assert seen == [(1536, 2048, 3)]


def test_unknown_deck_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown deck"):
        Recognizer("poker")


def test_identify_command_json(tmp_path, capsys):
    from web.cli import main
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), table_with("ono", [("green-4", (200, 150), True)]))
    assert main(["identify", str(path), "--deck", "ono", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert out["image"] == str(path)
    assert out["cards"][0]["card"] == "green-4"
    card = out["cards"][0]
    assert set(card) == {"card", "confidence", "sure", "polygon"} and len(card["polygon"]) == 4
    # "sure" is the app's own decision: a reading it would take without asking the table
    assert card["sure"] is (card["confidence"] >= CONFIRM_THRESHOLD)


def test_identify_missing_image_is_exit_2(tmp_path, capsys):
    from web.cli import main
    assert main(["identify", str(tmp_path / "nope.jpg"), "--deck", "ono"]) == 2
    assert "cannot read image" in capsys.readouterr().err


@pytest.mark.skipif(not (REAL / "labels.csv").exists(), reason="development photos not present")
def test_real_development_photos_colour_is_always_right():
    """Colour carries over from renders to photos; every coloured card's colour must be right."""
    rec = Recognizer("ono")
    colours = {"b": "blue", "g": "green", "r": "red", "y": "yellow"}
    for row in csv.DictReader(open(REAL / "labels.csv")):
        if row["code"][0] == "k":
            continue
        reads = rec.read(cv2.imread(str(REAL / row["path"])))
        assert len(reads) == 1, row["path"]
        assert reads[0].card.split("-")[0] == colours[row["code"][0]], row["path"]


def test_identify_plain_output_marks_only_unsure_readings(tmp_path, capsys):
    from web.cli import main
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), table_with("ono", [("green-4", (200, 150), True)]))
    assert main(["identify", str(path), "--deck", "ono"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{path}: green-4 (") and "unsure" not in line
    assert main(["identify", str(path), "--deck", "ono", "--json"]) == 0
    card = json.loads(capsys.readouterr().out)["cards"][0]
    assert card["sure"] is True


def _held_close(fingers: bool):
    """A red 7 lying sideways over half the picture's height, fingertips over two of its sides or not."""
    import random
    import numpy as np
    from vision.art import render_card
    from vision.synth.augment import rgba_to_bgr_on
    img = np.full((480, 640, 3), 40, np.uint8)
    face = np.ascontiguousarray(np.rot90(render_card("red-7", "uno", rng=random.Random(0), size=(224, 348))))
    fh, fw = face.shape[:2]
    y, x = (480 - fh) // 2, (640 - fw) // 2
    img[y:y + fh, x:x + fw] = rgba_to_bgr_on(face, img[y:y + fh, x:x + fw])
    if fingers:
        cv2.ellipse(img, (x + fw // 2, y + fh), (120, 45), 0, 0, 360, (90, 120, 190), -1)
        cv2.ellipse(img, (x + fw, y + fh // 2), (25, 60), 0, 0, 360, (90, 120, 190), -1)
    return img


def test_a_card_held_close_and_outlined_well_at_first_look_costs_one_look():
    rec = Recognizer("uno")
    zooms = []
    boxes = rec.detector.boxes

    def counted(bgr, conf=0.35, iou=0.5, zoom_out=1.0):
        zooms.append(zoom_out)
        return boxes(bgr, conf, iou, zoom_out)
    rec.detector.boxes = counted
    reads = rec.read(_held_close(fingers=False))
    assert [r.card for r in reads] == ["red-7"] and reads[0].sure
    assert zooms == [1.0]      # its outline verified at FIRST_ENOUGH (0.95) or more: no look from farther
    zooms.clear()
    reads = rec.read(_held_close(fingers=True))
    # fingertips over two sides: the outline verifies less well, and the looks from farther are taken
    assert [r.card for r in reads] == ["red-7"]
    assert zooms[:2] == [1.0, 2.0]
