"""`tableref teach` on bad input (issue 15): a clear message naming the file or card, and nothing
half-written: the taught deck is written atomically and a failed or interrupted teach leaves the
previous file byte for byte as it was."""
import shutil

import cv2
import numpy as np
import pytest

from vision.synth.photo import print_photos, write_teach_folder

CARDS = ["red-dingbat", "blue-chill"]


def cli(capsys, *args):
    from web.cli import main
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A good folder (two cards, two photos each) and a taught deck made from it."""
    root = tmp_path_factory.mktemp("good")
    write_teach_folder(root / "photos", "dino2", CARDS, 2, seed=11, held=0.0, strength=0.5)
    from web.cli import main
    assert main(["teach", "--deck", "dino2", "--from", str(root / "photos"), "--out", str(root / "old.npz")]) == 0
    return root


@pytest.fixture
def work(good, tmp_path):
    """A copy of the good folder to spoil, and a previous taught file at TAUGHT."""
    shutil.copytree(good / "photos", tmp_path / "photos")
    shutil.copy(good / "old.npz", tmp_path / "taught.npz")
    return tmp_path, (tmp_path / "taught.npz").read_bytes()


def teach(capsys, folder, out, *extra):
    return cli(capsys, "teach", "--deck", "dino2", "--from", folder, "--out", out, *extra)


def untouched(out, before):
    assert out.read_bytes() == before, "the previous taught deck changed"
    assert [p.name for p in out.parent.iterdir() if p.name.endswith(".tmp")] == [], "a temporary file was left"


def test_a_folder_that_is_no_card_id_is_named_and_nothing_is_written(work, capsys):
    tmp, before = work
    (tmp / "photos" / "red-dingbat").rename(tmp / "photos" / "red-dingbot")
    status, out, err = teach(capsys, tmp / "photos", tmp / "taught.npz")
    assert status == 2 and "'red-dingbot'" in err and "no card id" in err and "nothing written" in err
    untouched(tmp / "taught.npz", before)


def test_the_same_photo_under_two_ids_names_both_and_nothing_is_written(work, capsys):
    tmp, before = work
    shutil.copy(tmp / "photos" / "red-dingbat" / "0.jpg", tmp / "photos" / "blue-chill" / "9.jpg")
    status, out, err = teach(capsys, tmp / "photos", tmp / "taught.npz")
    assert status == 2 and "same photo" in err
    assert "red-dingbat" in err and "blue-chill" in err and "0.jpg" in err and "9.jpg" in err
    untouched(tmp / "taught.npz", before)


def test_unreadable_truncated_empty_and_cardless_photos_are_refused_by_name(work, capsys):
    tmp, before = work
    d = tmp / "photos" / "red-dingbat"
    data = (d / "0.jpg").read_bytes()
    (d / "2.jpg").write_bytes(data[: len(data) // 3])             # truncated
    (d / "3.jpg").write_bytes(b"")                                # empty
    (d / "4.png").write_bytes(b"this is not a picture")          # not an image
    table = np.full((480, 640, 3), (40, 90, 60), np.uint8)        # a plain green table, no card
    cv2.imwrite(str(tmp / "photos" / "blue-chill" / "5.jpg"), table)
    status, out, err = teach(capsys, tmp / "photos", tmp / "new.npz")
    assert status == 0, err
    refused = [line for line in out.splitlines() if line.startswith("refused")]
    assert any("2.jpg" in line for line in refused) and any("3.jpg" in line for line in refused)
    assert any("4.png" in line for line in refused)
    assert any("5.jpg" in line and "no card" in line for line in refused)
    assert "taught 2 of 88 cards" in out         # the good photos still teach both cards
    untouched(tmp / "taught.npz", before)


def test_a_photo_with_two_cards_is_refused(work, capsys):
    tmp, _ = work
    a, b = [img for _, _, img, _ in print_photos("dino2", ["red-dingbat", "blue-chill"], 1, seed=4, held=0.0, strength=0.3)]
    cv2.imwrite(str(tmp / "photos" / "red-dingbat" / "two.jpg"), cv2.hconcat([a, b]))
    status, out, err = teach(capsys, tmp / "photos", tmp / "new.npz")
    assert status == 0, err
    assert any("two.jpg" in line and "2 cards" in line for line in out.splitlines() if line.startswith("refused"))


def test_no_usable_photo_fails_and_leaves_the_previous_file(work, capsys):
    tmp, before = work
    for p in (tmp / "photos").rglob("*.jpg"):
        p.write_bytes(b"garbage " + p.parent.name.encode() + p.name.encode())   # unreadable, each its own
    status, out, err = teach(capsys, tmp / "photos", tmp / "taught.npz")
    assert status == 2 and "no photo could be used" in err and "nothing written" in err
    untouched(tmp / "taught.npz", before)


def test_ctrl_c_during_teach_leaves_the_previous_file(work, capsys, monkeypatch):
    tmp, before = work
    import vision.teach.teach as teach_mod
    real, calls = teach_mod.photo_prototypes, []

    def interrupted(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(teach_mod, "photo_prototypes", interrupted)
    status, out, err = teach(capsys, tmp / "photos", tmp / "taught.npz")
    assert status == 130 and "interrupted" in err and "nothing written" in err
    untouched(tmp / "taught.npz", before)


def test_a_write_that_fails_halfway_leaves_the_previous_file_and_no_temporary(work, capsys, monkeypatch):
    tmp, before = work
    import vision.teach.file as file_mod

    def half_then_fail(f, **arrays):
        f.write(b"PK\x03\x04 half a zip")
        raise KeyboardInterrupt           # Ctrl-C while writing
    monkeypatch.setattr(file_mod.np, "savez_compressed", half_then_fail)
    status, out, err = teach(capsys, tmp / "photos", tmp / "taught.npz")
    assert status == 130
    untouched(tmp / "taught.npz", before)


def test_a_folder_that_does_not_exist_or_holds_nothing(tmp_path, capsys):
    status, _, err = teach(capsys, tmp_path / "nope", tmp_path / "t.npz")
    assert status == 2 and "nope" in err and "not a folder" in err
    (tmp_path / "empty" / "red-dingbat").mkdir(parents=True)
    status, _, err = teach(capsys, tmp_path / "empty", tmp_path / "t.npz")
    assert status == 2 and "no photos" in err
    assert not (tmp_path / "t.npz").exists()


def test_the_written_file_loads_without_pickle_and_names_its_deck(good):
    from vision.teach.file import FORMAT, load
    with np.load(good / "old.npz", allow_pickle=False) as z:
        assert all(z[k].dtype != object for k in z.files)
    td = load(good / "old.npz")
    assert td.deck == "dino2" and td.meta["format"] == FORMAT and sorted(td.cards) == sorted(CARDS)


def test_a_phones_heic_photos_teach_and_a_text_file_beside_them_is_set_aside(work, capsys):
    """Photos straight from an iPhone are HEIC: they teach as JPEGs do. A note filed with them
    is set aside by name, not taken for a photo."""
    from PIL import Image
    tmp, _ = work
    for p in sorted((tmp / "photos").rglob("*.jpg")):
        with Image.open(p) as im:
            im.save(p.with_suffix(".heic"), format="HEIF", quality=90)
        p.unlink()
    (tmp / "photos" / "blue-chill" / "notes.txt").write_text("second photo a little blurred\n")
    status, out, err = teach(capsys, tmp / "photos", tmp / "new.npz")
    assert status == 0, err
    assert "taught 2 of 88 cards of dino2 from 4 photos" in out
    refused = [ln for ln in out.splitlines() if ln.startswith("refused")]
    assert len(refused) == 1 and "notes.txt: not a photo" in refused[0]
