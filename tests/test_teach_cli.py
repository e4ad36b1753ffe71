"""`tableref teach` end to end on small folders of rendered photos (issue 15), and `--taught` on
identify: the taught cards are read by what was taught, a re-drawn print included."""
import json

import cv2
import pytest

from vision.synth.photo import print_photos, write_teach_folder

CARDS = ["red-dingbat", "blue-chill", "green-shoe"]


def cli(capsys, *args):
    from web.cli import main
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Two photos each of three dino2 cards of one print, and a third photo of each to read."""
    root = tmp_path_factory.mktemp("teach")
    write_teach_folder(root / "photos", "dino2", CARDS, 2, seed=11, held=0.0, strength=0.5)
    tests = []
    for cid, k, img, _ in print_photos("dino2", CARDS, 1, seed=12, held=0.0, strength=0.5):
        p = root / "read" / f"{cid}.jpg"
        p.parent.mkdir(exist_ok=True)
        cv2.imwrite(str(p), img)
        tests.append((cid, p))
    return root, tests


@pytest.fixture(scope="module")
def taught(folder, tmp_path_factory):
    from web.cli import main
    out = tmp_path_factory.mktemp("taught") / "dino2.npz"
    assert main(["teach", "--deck", "dino2", "--from", str(folder[0] / "photos"), "--out", str(out)]) == 0
    return out


def test_teach_reports_and_identify_reads_the_taught_cards(folder, tmp_path, capsys):
    out = tmp_path / "deck.npz"
    status, stdout, err = cli(capsys, "teach", "--deck", "dino2", "--from", folder[0] / "photos", "--out", out, "--json")
    assert status == 0, err
    report = json.loads(stdout)
    assert sorted(report["taught"]) == sorted(CARDS)
    assert len(report["missing"]) == 88 - 3 and "red-chill" in report["missing"]
    assert report["refused"] == []
    # leave-one-photo-out: each of the 6 photos read by the other photo of its card
    assert report["leave_one_out"]["total"] == 6 and report["leave_one_out"]["right"] >= 5
    # the built-in recognizer knows this print: it read the teach photos, and may overrule the taught deck
    assert report["builtin"]["photos"] == 6 and report["builtin"]["wrong_but_sure"] == 0
    from vision.teach.file import load
    assert load(out).builtin_trusted
    assert "photos" in err and "cards done" in err and "s left" in err     # the progress bar
    status, stdout, err = cli(capsys, "identify", "--deck", "dino2", "--taught", out, "--json",
                              *[p for _, p in folder[1]])
    assert status == 0, err
    lines = [json.loads(line) for line in stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(p) for _, p in folder[1]]
    for (cid, _), line in zip(folder[1], lines):
        assert line["cards"], f"no card read in {line['image']}"
        c = line["cards"][0]
        assert set(c) == {"card", "confidence", "sure", "polygon"}      # the identify --json contract
        assert c["card"] == cid and c["sure"], line


def test_the_text_report_names_taught_missing_and_the_estimate(folder, tmp_path, capsys):
    status, stdout, _ = cli(capsys, "teach", "--deck", "dino2", "--from", folder[0] / "photos", "--out", tmp_path / "t.npz")
    assert status == 0
    assert "taught 3 of 88 cards of dino2 from 6 photos" in stdout
    assert "not taught (85" in stdout and "leave-one-photo-out:" in stdout
    assert "built-in recognizer on these photos: " in stdout and "a stranger" not in stdout


def test_a_redrawn_print_is_read_by_what_was_taught(tmp_path, capsys):
    """A home-made dino2 deck drawn with other art (here: UNO faces stand for three dino2 cards):
    the built-in dino2 classifier cannot know it, the taught deck reads it."""
    stand_in = {"red-dingbat": "red-3", "blue-chill": "blue-skip", "green-shoe": "green-8"}
    photos, read = tmp_path / "photos", []
    from vision.art import style_for
    import random
    style = style_for("uno", random.Random(5))
    for n, (dino, uno) in enumerate(stand_in.items()):
        shots = list(print_photos("uno", [uno], 3, seed=20 + n, style=style, held=0.0, strength=0.5))
        for _, k, img, _ in shots[:2]:
            (photos / dino).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(photos / dino / f"{k}.jpg"), img)
        cv2.imwrite(str(tmp_path / f"{dino}.jpg"), shots[2][2])
        read.append((dino, tmp_path / f"{dino}.jpg"))
    out = tmp_path / "redrawn.npz"
    assert cli(capsys, "teach", "--deck", "dino2", "--from", photos, "--out", out)[0] == 0
    _, with_taught, _ = cli(capsys, "identify", "--deck", "dino2", "--taught", out, "--json", *[p for _, p in read])
    _, builtin, _ = cli(capsys, "identify", "--deck", "dino2", "--json", *[p for _, p in read])
    got = [(json.loads(line)["cards"] or [{"card": None}])[0]["card"] for line in with_taught.splitlines()]
    before = [(json.loads(line)["cards"] or [{"card": None}])[0]["card"] for line in builtin.splitlines()]
    assert got == [d for d, _ in read]
    assert sum(b == d for b, (d, _) in zip(before, read)) == 0, before


def test_an_untaught_card_falls_back_to_the_built_in_recognizer(taught, tmp_path, capsys):
    """red-candy was not taught: with the taught deck it is read as it is without one."""
    img = next(print_photos("dino2", ["red-candy"], 1, seed=3, held=0.0, strength=0.3))[2]
    p = tmp_path / "candy.jpg"
    cv2.imwrite(str(p), img)
    _, plain, _ = cli(capsys, "identify", "--deck", "dino2", "--json", p)
    _, with_taught, _ = cli(capsys, "identify", "--deck", "dino2", "--taught", taught, "--json", p)
    assert json.loads(plain)["cards"][0]["card"] == "red-candy"
    assert json.loads(with_taught)["cards"][0]["card"] == "red-candy"


def test_a_taught_deck_of_another_deck_or_a_damaged_file_is_refused(taught, tmp_path, capsys):
    status, _, err = cli(capsys, "identify", "--deck", "snake-cup", "--taught", taught, "--json", taught)
    assert status == 2 and "taught for deck 'dino2'" in err
    bad = tmp_path / "bad.npz"
    bad.write_bytes(taught.read_bytes()[:2000])
    status, _, err = cli(capsys, "identify", "--deck", "dino2", "--taught", bad, "--json", bad)
    assert status == 2 and str(bad) in err and "cannot be read" in err


def test_a_taught_deck_made_with_another_symbol_network_is_refused(taught, tmp_path, capsys, monkeypatch):
    """The embedding holds the symbol network's features, so a retrained network (models/ or
    TABLEREF_MODELS changed) makes every taught file stale: refused by name, never misread."""
    import shutil
    import onnx
    models = tmp_path / "models"
    shutil.copytree("models", models)
    net = onnx.load(str(models / "uno-symbols-net.onnx"))
    net.metadata_props.add(key="retrained", value="yes")     # another file, the same graph
    onnx.save(net, str(models / "uno-symbols-net.onnx"))
    monkeypatch.setenv("TABLEREF_MODELS", str(models))
    status, _, err = cli(capsys, "identify", "--deck", "dino2", "--taught", taught, "--json", taught)
    assert status == 2 and str(taught) in err and "another symbol network" in err
    monkeypatch.delenv("TABLEREF_MODELS")
    status, _, err = cli(capsys, "identify", "--deck", "dino2", "--taught", taught, "--json", taught)
    assert "another symbol network" not in err


def test_watch_with_a_taught_deck_reads_a_redrawn_card_on_the_table(tmp_path, capsys):
    """`watch --taught`: a video of a table with a home-made card (UNO art standing for a dino2
    card) gives the flip of the taught card id."""
    import random
    from vision.art import style_for
    style = style_for("uno", random.Random(5))
    shots = list(print_photos("uno", ["green-8"], 3, seed=31, style=style, held=0.0, strength=0.4))
    for _, k, img, _ in shots[:2]:
        (tmp_path / "photos" / "green-shoe").mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(tmp_path / "photos" / "green-shoe" / f"{k}.jpg"), img)
    (tmp_path / "photos" / "red-dingbat").mkdir()
    other = next(print_photos("uno", ["red-3"], 1, seed=32, style=style, held=0.0, strength=0.4))[2]
    cv2.imwrite(str(tmp_path / "photos" / "red-dingbat" / "0.jpg"), other)
    out = tmp_path / "t.npz"
    assert cli(capsys, "teach", "--deck", "dino2", "--from", tmp_path / "photos", "--out", out)[0] == 0
    video = tmp_path / "table.mp4"
    frame = shots[2][2]
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 5, (frame.shape[1], frame.shape[0]))
    for _ in range(10):
        w.write(frame)
    w.release()
    status, stdout, err = cli(capsys, "watch", video, "--deck", "dino2", "--taught", out, "--json")
    assert status == 0, err
    events = [json.loads(line) for line in stdout.splitlines()]
    assert events and events[0]["type"] == "flip" and events[0]["card"] == "green-shoe", events
