"""The deck's back, taught from FOLDER/back/ (issue 15: "it must also teach the locator what is
needed to find cards of that deck (a deck whose back ... differs)").

A deck drawn by hand on blank card stock has a back of its own (here vision/art/handdrawn.py
`draw_back`: the game's name in marker and a zigzag of each colour), which the card detector,
trained on the UNO family's black backs, does not know: untaught, a card lying face down is found
as a card-shaped outline and read as some card. Taught, it is a back.
"""
import json
import random

import cv2
import numpy as np
import pytest

from vision.art.handdrawn import HandStyle, draw_back
from vision.synth.photo import card_photo, print_photos, write_teach_folder

DECK = "dino2"
CARDS = ["red-dingbat", "red-candy", "blue-chill", "blue-shoe", "green-shoe", "orange-double"]
HAND = HandStyle(coloured_in=False, corners=True, font="DejaVuSans-Bold.ttf")


def _back_photos(n: int, seed: int, first: int = 0) -> list[np.ndarray]:
    """n photos of the deck's back, each of its own drawing (a deck's backs are drawn alike)."""
    g = np.random.default_rng(seed)
    return [card_photo(draw_back(DECK, HAND, seed=first + k), g, held=0.0, strength=0.4)[0] for k in range(n)]


def test_a_hand_drawn_back_keeps_the_art_contract():
    a = draw_back(DECK, HAND, seed=1)
    assert a.shape == (348, 224, 4) and a.dtype == np.uint8
    assert (draw_back(DECK, HAND, seed=1) == a).all()
    assert not (draw_back(DECK, HAND, seed=2) == a).all()
    # mostly bare stock, a black frame and name and four markers' zigzags
    hsv = cv2.cvtColor(a[:, :, :3], cv2.COLOR_RGB2HSV).reshape(-1, 3)
    inked = hsv[hsv[:, 1] > 120]
    assert 0.03 < len(inked) / len(hsv) < 0.3
    assert len({int(h) // 30 for h in inked[:, 0]}) >= 3      # red, yellow, green and blue hues


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A teach folder of six hand-drawn cards (one photo each) and three photos of the back; other
    photos of the cards and of the back to read."""
    root = tmp_path_factory.mktemp("back")
    write_teach_folder(root / "photos", DECK, CARDS, 1, seed=41, hand=HAND, held=0.0, strength=0.4)
    (root / "photos" / "back").mkdir()
    for k, img in enumerate(_back_photos(3, seed=42)):
        cv2.imwrite(str(root / "photos" / "back" / f"{k}.jpg"), img)
    faces = []
    for cid, k, img, _ in print_photos(DECK, CARDS, 2, seed=41, hand=HAND, held=0.0, strength=0.4):
        if k == 1:
            p = root / "read" / f"{cid}.jpg"
            p.parent.mkdir(exist_ok=True)
            cv2.imwrite(str(p), img)
            faces.append((cid, p))
    backs = []
    for k, img in enumerate(_back_photos(6, seed=43, first=10)):
        p = root / "read" / f"back-{k}.jpg"
        cv2.imwrite(str(p), img)
        backs.append(p)
    return root, faces, backs


def _teach(folder, out, capsys, *extra):
    from web.cli import main
    status = main(["teach", "--deck", DECK, "--from", str(folder), "--out", str(out), *extra])
    return status, capsys.readouterr()


def _identify(taught, paths, capsys):
    from web.cli import main
    assert main(["identify", "--deck", DECK, "--taught", str(taught), "--json", *[str(p) for p in paths]]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_taught_back_is_no_card_and_the_faces_still_read(folder, tmp_path, capsys):
    root, faces, backs = folder
    with_back = tmp_path / "with.npz"
    status, got = _teach(root / "photos", with_back, capsys, "--json")
    assert status == 0, got.err
    report = json.loads(got.out)
    assert sorted(report["taught"]) == sorted(CARDS) and "back" not in report["taught"] + report["missing"]
    assert report["back"]["photos"] == 3
    # each back photo told as the back by the other two
    assert report["back"]["leave_one_out"] == {"right": 3, "total": 3}
    # without the back: the same cards, the back's folder left out
    without = tmp_path / "without.npz"
    import shutil
    shutil.copytree(root / "photos", tmp_path / "cards only", ignore=shutil.ignore_patterns("back"))
    assert _teach(tmp_path / "cards only", without, capsys)[0] == 0

    read_without = _identify(without, backs, capsys)
    read_with = _identify(with_back, backs, capsys)
    # untaught, the backs are read as cards (unsure or not): what the taught back mends
    assert sum(1 for line in read_without if line["cards"]) >= len(backs) // 2, read_without
    assert all(line["cards"] == [] for line in read_with), read_with
    assert all(len(line["backs"]) >= 1 for line in read_with), read_with
    # the faces are read as they were: the back takes nothing from them
    first = [[(line["cards"] or [{"card": None}])[0]["card"] for line in _identify(t, [p for _, p in faces], capsys)]
             for t in (without, with_back)]
    assert first[0] == first[1]
    assert sum(1 for (cid, _), got in zip(faces, first[1]) if got == cid) >= len(faces) // 2


def test_the_text_report_says_whether_the_back_was_taught(folder, tmp_path, capsys):
    root = folder[0]
    status, got = _teach(root / "photos", tmp_path / "a.npz", capsys)
    assert status == 0
    assert "back: taught from 3 photos" in got.out and "3/3 told as the back" in got.out
    import shutil
    shutil.copytree(root / "photos", tmp_path / "cards only", ignore=shutil.ignore_patterns("back"))
    status, got = _teach(tmp_path / "cards only", tmp_path / "b.npz", capsys)
    assert status == 0 and "back: not taught" in got.out and "back/" in got.out


def test_the_back_survives_the_file_and_a_damaged_one_is_refused(folder, tmp_path, capsys):
    from vision.teach.file import TaughtFileError, load
    out = tmp_path / "t.npz"
    assert _teach(folder[0] / "photos", out, capsys)[0] == 0
    td = load(out)
    assert td.has_back and td.back.shape[1] == td.protos.shape[1] and len(td.back) == 3 * len(td.protos) // len(CARDS)
    with np.load(out, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["back"] = arrays["back"][:, :10]       # a back of another embedding
    bad = tmp_path / "bad.npz"
    np.savez_compressed(bad, **arrays)
    with pytest.raises(TaughtFileError, match="back"):
        load(bad)
    # a file taught before backs were (no back array) still loads, with no back
    del arrays["back"]
    old = tmp_path / "old.npz"
    np.savez_compressed(old, **arrays)
    assert not load(old).has_back


def test_only_photos_of_the_back_teach_nothing(tmp_path, capsys):
    (tmp_path / "photos" / "back").mkdir(parents=True)
    cv2.imwrite(str(tmp_path / "photos" / "back" / "1.jpg"), _back_photos(1, seed=5)[0])
    status, got = _teach(tmp_path / "photos", tmp_path / "t.npz", capsys)
    assert status == 2 and "no photos" in got.err and "nothing written" in got.err
    assert not (tmp_path / "t.npz").exists()


def test_the_same_photo_as_a_card_and_as_the_back_is_refused(tmp_path, capsys):
    img = _back_photos(1, seed=6)[0]
    for sub in ("back", "red-candy"):
        (tmp_path / "photos" / sub).mkdir(parents=True)
        cv2.imwrite(str(tmp_path / "photos" / sub / "1.png"), img)
    status, got = _teach(tmp_path / "photos", tmp_path / "t.npz", capsys)
    assert status == 2 and "filed under two cards" in got.err and "back/ is for the deck's back" in got.err


def test_a_card_is_never_taken_for_the_back_when_nearer_a_card():
    """Match.is_back: the back only where it is nearer than every card, and near (deck.BACK_NEAR)."""
    from vision.teach.deck import BACK_NEAR, Match
    assert Match("red-1", 0.9, 1.0, 3.0, "red-2", True, back=0.5).is_back
    assert not Match("red-1", 0.9, 1.0, 3.0, "red-2", True, back=1.2).is_back       # a card nearer
    assert not Match("red-1", 0.0, 4.5, 4.6, "red-2", False, back=BACK_NEAR + 0.1).is_back   # far from both
    assert not Match("red-1", 0.9, 1.0, 3.0, "red-2", True).is_back                 # no back taught
