"""`tableref identify` on bad input: a clear one-line message naming the file and why, the other
images still read, exit status 2 when any failed; no card is "cards": []; a huge photo is decoded
reduced (memory stays small) with its polygons in its own pixels; alpha, grey and 16-bit read."""
import io
import json
import re
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from helpers import table_with

ROOT = Path(__file__).resolve().parent.parent


def identify(capsys, *args):
    from web.cli import main
    status = main(["identify", *map(str, args), "--deck", "ono"])
    out, err = capsys.readouterr()
    return status, out, err


def good_png(tmp_path, name="good.png"):
    path = tmp_path / name
    cv2.imwrite(str(path), table_with("ono", [("green-4", (200, 150), True)]))
    return path


def test_bad_files_are_named_with_the_reason_and_the_others_still_read(tmp_path, capsys):
    good = good_png(tmp_path)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    jpeg = cv2.imencode(".jpg", table_with("ono", [("red-7", (60, 60), False)]))[1].tobytes()
    truncated = tmp_path / "truncated.jpg"
    truncated.write_bytes(jpeg[:len(jpeg) // 2])
    text = tmp_path / "notes.jpg"
    text.write_text("this is not a picture\n")
    folder = tmp_path / "folder.jpg"
    folder.mkdir()
    missing = tmp_path / "missing.jpg"
    status, out, err = identify(capsys, empty, truncated, good, text, folder, missing, "--json")
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 5, err        # one line each, no warnings from the decoder, no traceback
    why = {"empty.jpg": "empty", "truncated.jpg": "truncated", "notes.jpg": "not an image",
           "folder.jpg": "directory", "missing.jpg": "no such file"}
    for line, (name, reason) in zip(lines, why.items()):
        assert line.startswith(f"tableref: cannot read image {tmp_path / name}: ") and reason in line, line
    # the good image between them is read all the same
    [result] = [json.loads(x) for x in out.strip().splitlines()]
    assert result["image"] == str(good) and [c["card"] for c in result["cards"]] == ["green-4"]


def test_all_images_good_is_exit_0(tmp_path, capsys):
    status, out, err = identify(capsys, good_png(tmp_path))
    assert status == 0 and err == "" and "green-4" in out


@pytest.mark.parametrize("kind", ["grey", "noise"])
def test_a_picture_without_a_card_is_no_card_found(tmp_path, capsys, kind):
    rng = np.random.default_rng(0)
    img = np.full((480, 640, 3), 128, np.uint8) if kind == "grey" else \
        rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    path = tmp_path / f"{kind}.png"
    cv2.imwrite(str(path), img)
    status, out, err = identify(capsys, path, "--json")
    assert status == 0 and err == ""
    assert json.loads(out) == {"image": str(path), "cards": [], "backs": []}
    status, out, err = identify(capsys, path)
    assert status == 0 and out.strip() == f"{path}: no card found"


# -- a huge photo, written without holding it in memory ---------------------------------------
# A baseline JPEG with a restart marker every TILE pixels of an 8-pixel row: each interval's data
# is independent (the DC predictors restart), so a 20,000 x 15,000 photo is put together from the
# intervals of a small solid tile and of a band that holds a card.

TILE = 1000                 # pixels per restart interval (125 MCUs of 8 x 8, no subsampling)
BG = (40, 40, 40)           # the table's colour (RGB)


def _intervals(rgb: np.ndarray) -> tuple[bytes, list[bytes]]:
    """(the file's bytes up to its scan data, the scan data of each restart interval)."""
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "JPEG", quality=90, subsampling=0, restart_marker_blocks=TILE // 8)
    data = buf.getvalue()
    sos = data.index(b"\xff\xda")
    start = sos + 2 + int.from_bytes(data[sos + 2:sos + 4], "big")
    return data[:start], re.split(rb"\xff[\xd0-\xd7]", data[start:data.rindex(b"\xff\xd9")])


def _with_size(header: bytes, w: int, h: int) -> bytes:
    sof = header.index(b"\xff\xc0")
    return header[:sof + 5] + h.to_bytes(2, "big") + w.to_bytes(2, "big") + header[sof + 9:]


def huge_jpeg(path: Path, w: int = 20000, h: int = 15000, card_at=(8000, 4000), card_size=(2400, 3720)):
    """A w x h JPEG of a dark table with a red 7 of card_size (w, h) at card_at (x, y) (multiples of
    TILE and 8). Returns the card's corners in the photo's pixels."""
    from vision.art import render_card
    from vision.synth.augment import rgba_to_bgr_on
    header, [solid] = _intervals(np.full((8, TILE, 3), BG, np.uint8))
    cw, ch = card_size
    bw, bh = -(-cw // TILE) * TILE, -(-ch // 8) * 8 + 8
    face = cv2.resize(render_card("red-7", "ono", size=(84, 130)), (cw, ch), interpolation=cv2.INTER_CUBIC)
    band = np.full((bh, bw, 3), BG[::-1], np.uint8)
    band[:ch, :cw] = rgba_to_bgr_on(face, band[:ch, :cw])
    _, card = _intervals(np.ascontiguousarray(band[:, :, ::-1]))
    per_band_row = bw // TILE
    x0, y0 = card_at[0] // TILE, card_at[1] // 8
    parts = []
    for r in range(h // 8):
        for c in range(w // TILE):
            inside = 0 <= r - y0 < bh // 8 and 0 <= c - x0 < per_band_row
            parts.append(card[(r - y0) * per_band_row + (c - x0)] if inside else solid)
    scan = b"".join(seg + (b"\xff" + bytes([0xd0 + i % 8]) if i < len(parts) - 1 else b"")
                    for i, seg in enumerate(parts))
    path.write_bytes(_with_size(header, w, h) + scan + b"\xff\xd9")
    x, y = card_at
    return np.array([[x, y], [x + cw, y], [x + cw, y + ch], [x, y + ch]], float)


def test_huge_photo_is_decoded_reduced_in_small_memory(tmp_path):
    path = tmp_path / "huge.jpg"
    huge_jpeg(path)
    import vision.imageio  # noqa: F401  (raises Pillow's own bomb limit to ours, as identify runs it)
    assert path.stat().st_size < 30_000_000 and Image.open(path).size == (20000, 15000)
    # decoded whole it takes 900 MB; in its own process so the peak is its own
    # (VmHWM, this program's own peak: ru_maxrss would count the forked pytest's before exec)
    code = ("import re, sys; from vision.imageio import load_image; img, s = load_image(sys.argv[1]); "
            "kb = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1); "
            "print(img.shape[1], img.shape[0], s, int(kb) // 1024)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    w, h, scale, peak_mb = int(out[0]), int(out[1]), float(out[2]), int(out[3])
    # 1/8, the decoder's smallest (2500 x 1875), still over 2,048 px: then resized, 20000 / 2048 file px a px
    assert (w, h, scale) == (2048, 1536, 9.765625)
    assert peak_mb < 400, f"peak memory {peak_mb} MB"


def test_huge_photo_polygons_are_in_the_photos_own_pixels(tmp_path, capsys):
    path = tmp_path / "huge.jpg"
    corners = huge_jpeg(path)
    status, out, err = identify(capsys, path, "--json")
    assert status == 0, err
    cards = json.loads(out)["cards"]
    assert [c["card"] for c in cards] == ["red-7"]
    poly = np.array(cards[0]["polygon"])
    # each found corner near a true one (a few reduced pixels, x 8)
    assert max(np.min(np.linalg.norm(corners - p, axis=1)) for p in poly) < 120, poly


def test_reduced_factor_is_the_smallest_that_fits(tmp_path):
    from vision.imageio import MAX_SIDE, load_image
    path = tmp_path / "big.jpg"
    huge_jpeg(path, w=6000, h=4000, card_at=(1000, 400), card_size=(600, 930))
    img, scale = load_image(path)
    # 6000 / 2 = 3000 is over MAX_SIDE (2048), 6000 / 4 = 1500 is not
    assert MAX_SIDE == 2048
    assert img.shape[:2] == (1000, 1500) and scale == 4.0 and max(img.shape) <= MAX_SIDE


def test_decompression_bombs_are_refused_from_the_header(tmp_path, capsys):
    header, _ = _intervals(np.full((8, TILE, 3), BG, np.uint8))
    bomb = tmp_path / "bomb.jpg"          # 60,000 x 60,000: 3.6 gigapixels (10.8 GB decoded)
    bomb.write_bytes(_with_size(header, 60000, 60000) + b"\xff\xd9")
    png = tmp_path / "bomb.png"           # 20,000 x 10,000 PNG: decoded whole, over its limit

    def chunk(kind, data):
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")
    ihdr = (20000).to_bytes(4, "big") + (10000).to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b""))
    status, out, err = identify(capsys, bomb, png)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 2 and all("too large" in line for line in lines), err
    assert str(bomb) in lines[0] and str(png) in lines[1]


@pytest.mark.parametrize("kind", ["rgba", "grey", "grey16", "rgb16"])
def test_alpha_grey_and_16_bit_pngs_read_as_colour(tmp_path, capsys, kind):
    bgr = table_with("ono", [("green-4", (200, 150), True)])
    img = {"rgba": lambda: cv2.cvtColor(bgr, cv2.COLOR_BGR2BGRA),
           "grey": lambda: cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY),
           "grey16": lambda: cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.uint16) * 257,
           "rgb16": lambda: bgr.astype(np.uint16) * 257}[kind]()
    path = tmp_path / f"{kind}.png"
    cv2.imwrite(str(path), img)
    from vision.imageio import load_image
    loaded, scale = load_image(path)
    assert loaded.shape == (480, 640, 3) and loaded.dtype == np.uint8 and scale == 1.0
    assert np.abs(loaded.astype(int) - cv2.cvtColor(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
                  if kind.startswith("grey") else loaded.astype(int) - bgr).max() <= 1
    status, out, err = identify(capsys, path, "--json")
    assert status == 0 and err == ""
    cards = json.loads(out)["cards"]
    if not kind.startswith("grey"):      # a grey picture has lost the card's colour
        assert [c["card"] for c in cards] == ["green-4"]


def test_recognizer_reads_nothing_in_no_picture():
    from vision.recognizer import Recognizer
    rec = Recognizer("ono")
    assert rec.read_all(None) == ([], [])
    assert rec.read_all(np.zeros((0, 0, 3), np.uint8)) == ([], [])
    grey = cv2.cvtColor(table_with("ono", [("green-4", (200, 150), True)]), cv2.COLOR_BGR2GRAY)
    rec.read(grey)          # no crash; grey read as colour
    rec.read(cv2.cvtColor(table_with("ono", [("green-4", (200, 150), True)]), cv2.COLOR_BGR2BGRA))


@pytest.mark.parametrize("content", [b"", b"not a video at all\n", "half"])
def test_watch_on_an_empty_or_corrupt_video_is_a_clear_message(tmp_path, capsys, content):
    from web.cli import main
    path = tmp_path / "clip.mp4"
    if content == "half":
        demo = (ROOT / "datasets" / "demo" / "demo.mp4").read_bytes()
        content = demo[:len(demo) // 2]
    path.write_bytes(content)
    assert main(["watch", str(path), "--deck", "ono"]) == 2
    assert f"cannot open video {path}" in capsys.readouterr().err


def test_a_phones_heic_photo_is_read(tmp_path, capsys):
    """An iPhone saves HEIC by default: identify reads it as it reads a JPEG (pillow-heif)."""
    from pillow_heif import register_heif_opener
    register_heif_opener()
    bgr = table_with("ono", [("green-4", (200, 150), True)])
    path = tmp_path / "IMG_0001.HEIC"
    Image.fromarray(bgr[:, :, ::-1]).save(path, format="HEIF", quality=90)
    from vision.imageio import load_image
    loaded, scale = load_image(path)
    assert loaded.shape == (480, 640, 3) and scale == 1.0
    assert np.abs(loaded.astype(int) - bgr).mean() < 6     # lossy, as a phone's photo is
    status, out, err = identify(capsys, path, "--json")
    assert status == 0 and err == ""
    assert [c["card"] for c in json.loads(out)["cards"]] == ["green-4"]


def test_a_heic_photo_without_pillow_heif_says_what_to_install(tmp_path):
    from pillow_heif import register_heif_opener
    register_heif_opener()
    path = tmp_path / "IMG_0002.heic"
    Image.new("RGB", (64, 48), (200, 30, 30)).save(path, format="HEIF")
    # a fresh interpreter where pillow_heif cannot be imported (an install without it)
    code = ("import sys; sys.modules['pillow_heif'] = None\n"
            "from vision.imageio import BadImage, load_image\n"
            f"try:\n    load_image({str(path)!r})\nexcept BadImage as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == (f"cannot read image {path}: a HEIC photo: pip install pillow-heif to read it, "
                                  "or save it as JPEG")
