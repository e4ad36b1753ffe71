"""THE benchmark of the card recognizer: top-1, sure share and wrong-but-sure per cell, against the
targets top-1 >= 0.97 and wrong-but-sure <= 1 % in every cell, and a calibration table.

A cell's items are images (or cards); the first (most confident) reading is the answer; a picture
where nothing is read is wrong and not sure. "Sure" = Reading.sure (confidence >= CONFIRM_THRESHOLD):
the app takes the reading without asking; "wrong but sure" = the first reading wrong and sure.

Cells (groups for --cells):
  real       the real development photos as they are, read at run time and never trained on:
             ../shared/real-uno-dev (56 photos; 2 cards in no deck of ours are skipped and listed),
             ../shared/real-uno-dev2/on-black and /hand-held (120 each);
  squashed   the same real photos resized to 640 x 640, their aspect not kept, as datasets export
             photos "stretched" to a square (a 16:9 webcam frame's card squashed to 0.56 of its width);
  mirrored   the same real photos mirrored side for side (a selfie camera, a webcam script's cv2.flip);
  overexposed the same real photos 2.5 times as bright, clipped (a lamp or the sun on a glossy card,
             a phone exposing for a dark table: a clipped red turns orange, a green cyan);
  washed     the same real photos at half their saturation (haze, a lamp's glare, a cheap webcam);
  toned      the same real photos through a contrasty tone curve, each channel to the power TONE (2):
             mid-tones darkened, white kept (a phone's tone curve, a photo exposed for a lamp's
             bright white), a dark green field at a sixth of its paper;
  hued       the same real photos with every hue turned HUE_TURN (10) degrees, every other photo the
             other way (another print's inks: a red printed orange, a green printed teal; a phone's
             colour processing); white stays white, so the white balance cannot undo it;
  glare      the same real photos with a lamp's or a flash's reflection on the card (bench/vision_cells.py
             glare: a soft near-white spot of 0.25-0.5 the card's short side within 0.3 of its centre,
             0.8-1.0 strong), placed on the outline the recognizer finds in the photo as it is (a photo
             where it finds none is skipped and counted; the seed places the spots);
  inside     the real photos taken again from inside their card, its white margin cut off (a phone
             held too close): the face cut by 6% and 10% of its width on every side, and a 4:3 frame
             as wide as the 6% cut, centred (its ends' margin in view); from the outline read right
             in the photo as it is; every photo of real-uno-dev, every 2nd of real-uno-dev2's folders;
             and the same four frames of every card of the six print families rendered (vision.art,
             each family's own look), a phone's noise and JPEG on them: close-ups of prints no photo
             shows ("inside renders" cells);
  sweep      the 56 real-uno-dev photos re-rendered (bench/vision_cells.py): each photo's card quad
             found once with the contour locator, then the whole photo warped by a homography that
             carries the card to a target pose in a new 640x480 canvas (widened only where a card
             that big does not fit: 95 %), the table mirrored beyond the photo's edges with the card
             painted out of the mirrored part; card short side 5..95 % of the picture's short side
             (lying across), in-plane rotation 0..180 and camera tilt 15..45 degrees at 25 %, colour
             casts and dim light at 25 %, Gaussian and motion blur and JPEG at 25 %, a card run off
             the picture (upright at 90 %, by a corner at 55 %), a shadow's edge across the card
             (0.4-0.6 of the light, at 25 and 60 %). A fixed seed
             (--seed) places the card and draws the noise, so the sweep is the same every run;
  sweep2     the sweep's 28 cells on every 2nd photo of real-uno-dev2 (on-black and hand-held, the
             filled-oval print: 120 photos a cell), each photo's card quad the outline the
             recognizer reads right in the photo as it is (the contour locator outlines few of them);
             not run unless asked for (--cells ...,sweep2: about 16 minutes on 2 cores);
  transplant the real photos' cards (real-uno-dev and on-black) lifted out along the outline read
             right and drawn into new close-ups: other surfaces (tables, a sweater, a desk with a
             keyboard and papers), held with a thumb over an edge or lying, short side 15-90 %,
             any turn, tilted up to 45 degrees, lamp gradients, glare, blur, noise (--transplant
             N per face, default 2; the seed places them);
  tables     table scenes from above laid out as the synthetic scenes are (a discard pile, loose
             cards, backs, hands, a camera at a slant), their faces the real photos' cards lifted
             out as for transplant, one print a cell (real-uno-dev; on-black and hand-held, one
             print): every whole face-up card, matched as in scenes (--tables N scenes a cell,
             default 120; the seed lays them out); and, cells of their own (covered tables), the
             face-up cards 60-90 % in view in the same scenes (COVERED_SEEN: under another card, the
             draw pile, a hand, or cut by the picture's edge: the issue's "up to 40 % covered");
  far        the tables cells again with the camera farther up: each card 5-10 % of the picture's
             near edge on the table (FAR_WIDTH; the tables cells draw 10-26 %), less than half as
             wide, mostly 20-60 pixels in a 640 x 480 frame, as a webcam over a whole table sees
             them (--tables N / 2 scenes a cell; the seed lays them out);
  scenes     held-out synthetic table scenes from above (vision.synth make_scene, seed 4242, never
             trained on): every whole face-up card, read as the reading whose quad overlaps it at
             IoU >= 0.5 (none = wrong); and the demo recording: `tableref watch demo.mp4 --deck ono`
             flip/play events aligned with its true log (right, wrong, missing; extra ones counted);
  synthetic  held-out synthetic cut-out cards: fresh vision.art renders of the ono deck (the designed
             deck itself with --deck dino2|snake-cup) through vision.synth.augment.camera_view,
             identified from the rectified card;
  closeups   synthetic close-ups (vision/synth/closeup.py: a card held or lying close, a random print
             of the six families, fingers, glare, clutter, blur, JPEG) in three frame shapes (640 x 480,
             1280 x 720, 720 x 1280), --closeups N draws each (default 300); those showing one face card
             70 % or more are read whole, the first reading against that card (held out by seed; the
             detector learned close-ups of this generator at other seeds);
  lopo       leave one print out: for each family P of vision.art.style.PRINTS the symbol model
             trained without P (--lopo DIR, models made by bench/train_lopo.sh DIR) on renders of P.

--without-print P --lopo DIR reads every cell with both symbol readers trained without family P
(bench/train_lopo.sh DIR P, bench/train_lopo_net.sh DIR P): the real photos of P's print
(filled-oval: real-uno-dev2; classic: real-uno-dev) as a print the readers never saw.

Then calibration over the real-photo cells pooled (as they are; and with the sweep; and, apart, the
transplant and scenes cells, the ones least tuned on): a reliability table over confidence bins, the
expected calibration error, and the accuracy of the sure readings (should be >= 0.99).

    .venv/bin/python bench/vision_accuracy.py [--deck uno] [--quick] [--cells real,squashed,mirrored,overexposed,washed,toned,hued,glare,inside,sweep,sweep2,transplant,tables,far,scenes,synthetic,closeups,lopo]
        [--json] [--dump FILE.jsonl] [--lopo DIR] [--synthetic N] [--scenes N] [--seed S] [--real DIR]
        [--real2 DIR] [--locator detector|contour] [--symbols MODEL.npz] [--without-print P]
        [--net NET.onnx] [--far-net FAR.onnx|none] [--far-px PX] [--no-relook]

--quick: every 4th photo, 13 of the 28 sweep cells, 40 scenes, 280 synthetic cards (about 2 minutes
on a shared 2-core machine; the full run about 10). --dump: one JSON line per read image (cell,
name, truth, read, confidence, sure) to study the failures. --far-net none: cards seen small read by
the symbol network as every other card (the peer of the far network, models/README.md).
--no-relook: small faces keep the outlines of the detector's looks at the whole picture (the peer of
the second look at a small card, vision/locate/relook.py).
"""
from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.synth.augment import camera_view  # noqa: E402
from vision.errors import models_dir  # noqa: E402
from vision.recognizer import CONFIRM_THRESHOLD, MODEL_FOR_DECK, Recognizer, load_confidence_map  # noqa: E402

REAL = ROOT.parent / "shared" / "real-uno-dev"
SYMBOL = {"R": "reverse", "S": "skip", "T": "draw2"}
COLOUR = {"b": "blue", "g": "green", "r": "red", "y": "yellow"}
WILD = {"kW": "wild", "kF": "wild-draw4"}  # kB (blank) and kE (swap hands) are in no deck of ours


def real_truth(code: str) -> str | None:
    if code[0] == "k":
        return WILD.get(code)
    return f"{COLOUR[code[0]]}-{SYMBOL.get(code[1:], code[1:])}"


if str(ROOT / "bench") not in sys.path:
    sys.path.append(str(ROOT / "bench"))      # appended: bench/referee.py must not hide the referee package
import vision_cells as vc  # noqa: E402

REAL2 = ROOT.parent / "shared" / "real-uno-dev2"
SCENE_SEED = 4242                     # held out: the detector and the classifier never trained on it
DEMO = ROOT / "datasets" / "demo"
GROUPS = ("real", "squashed", "mirrored", "overexposed", "washed", "toned", "hued", "glare", "inside", "sweep", "sweep2", "transplant", "tables",
          "far", "scenes", "synthetic", "closeups", "lopo")
FAR_WIDTH = (0.05, 0.10)   # the far cells: a card's width as a share of the picture's near edge on the table
COVERED_SEEN = (0.6, 0.9)  # the covered tables cells: the share of a card in view (scene labels' "visible")


OVEREXPOSE = 2.5  # the overexposed cell: each channel times this, clipped at 255
WASH = 0.5        # the washed cell: each pixel's saturation times this
TONE = 2.0        # the toned cell: each channel (0..1) to this power
HUE_TURN = 10     # the hued cell: degrees every hue is turned, up and down by turns
SQUASH = 640    # the squashed cell: a real photo resized to this square, aspect not kept (a dataset's export)


def first_reading(rec: Recognizer, img) -> tuple[str, float, bool]:
    """(card, confidence, sure) of the most confident reading; nothing read = ("(none)", 0, False)."""
    reads = rec.read(img)
    if not reads:
        return "(none)", 0.0, False
    r = reads[0]
    return r.card, float(r.confidence), bool(getattr(r, "sure", r.confidence >= CONFIRM_THRESHOLD))


def item(cell: str, name: str, truth: str, read: str, conf: float, sure: bool) -> dict:
    return {"cell": cell, "name": name, "truth": truth, "read": read, "confidence": round(float(conf), 4),
            "sure": bool(sure)}


# ---------------------------------------------------------------- 1. real photos as they are

def real_rows(folder: Path) -> list[tuple[str, str | None]]:
    """(file, our card id or None when the card is in no deck of ours) of a folder's labels.csv:
    real-uno-dev spells codes (path,code,class), real-uno-dev2 our ids (file,card)."""
    rows = list(csv.DictReader(open(folder / "labels.csv")))
    if rows and "code" in rows[0]:
        return [(r["path"], real_truth(r["code"])) for r in rows]
    return [(r["file"], r["card"]) for r in rows]


def squashed(img: np.ndarray) -> np.ndarray:
    """A photo resized to SQUASH x SQUASH, its aspect not kept."""
    return cv2.resize(img, (SQUASH, SQUASH), interpolation=cv2.INTER_AREA)


def mirrored(img: np.ndarray) -> np.ndarray:
    """A photo mirrored side for side."""
    return np.ascontiguousarray(img[:, ::-1])


def overexposed(img: np.ndarray) -> np.ndarray:
    """A photo OVEREXPOSE times as bright, its channels clipped."""
    return np.clip(img.astype(np.float32) * OVEREXPOSE, 0, 255).astype(np.uint8)


def washed(img: np.ndarray) -> np.ndarray:
    """A photo at WASH times its saturation."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    hsv[..., 1] = (hsv[..., 1].astype(np.float32) * WASH).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def toned(img: np.ndarray) -> np.ndarray:
    """A photo with each channel (0..1) raised to the power TONE: darker mid-tones, white kept."""
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** TONE + 0.5, 0, 255).astype(np.uint8)
    return cv2.LUT(img, lut)


def hue_turned(img: np.ndarray, degrees: float) -> np.ndarray:
    """A photo with every pixel's hue turned by `degrees` (saturation and value kept)."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV_FULL)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + round(degrees * 256 / 360)) % 256).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL)


def hued(img: np.ndarray, i: int) -> np.ndarray:
    """The i-th photo of a folder with its hues turned HUE_TURN degrees, up for even i, down for odd."""
    return hue_turned(img, HUE_TURN if i % 2 == 0 else -HUE_TURN)


def real(rec: Recognizer, folder: Path, cell: str, step: int = 1,
         altered=None) -> tuple[list[dict], list[dict]]:
    """The photos of a folder as they are, or `altered` (squashed, mirrored, overexposed, washed, toned;
    hued, which is given the photo's index as well)."""
    items, outside = [], []
    for i, (name, truth) in enumerate(real_rows(folder)):
        if i % step:
            continue
        img = cv2.imread(str(folder / name))
        if altered is hued:
            img = hued(img, i)
        elif altered:
            img = altered(img)
        got, conf, sure = first_reading(rec, img)
        if truth is None or truth not in rec.deck.cards:
            outside.append({"cell": cell, "image": name, "read": got, "confidence": round(conf, 3)})
        else:
            items.append(item(cell, name, truth, got, conf, sure))
    return items, outside


def photos_read(rec: Recognizer, folder: Path, step: int = 1):
    """(index, name, card, photo, its readings as it is) for every `step`th photo of the folder whose
    card is in the deck: what the glare, transplant and tables cells start from."""
    for i, (name, truth) in enumerate(real_rows(folder)):
        if i % step or truth is None or truth not in rec.deck.cards:
            continue
        img = cv2.imread(str(folder / name))
        yield i, name, truth, img, rec.read(img)


def glared(rec: Recognizer, folder: Path, cell: str, seed: int, step: int = 1) -> tuple[list[dict], dict]:
    """The photos of a folder with glare on their card (vision_cells.glare), placed on the outline
    the recognizer reads first in the photo as it is, right or wrong."""
    items, skipped = [], []
    for i, name, truth, img, reads in photos_read(rec, folder, step):
        if not reads:
            skipped.append(name)
            continue
        pic = vc.glare(img, reads[0].quad.pts, np.random.default_rng([seed, 11, i]))
        got, conf, sure = first_reading(rec, pic)
        items.append(item(cell, name, truth, got, conf, sure))
    return items, {"skipped": skipped}


def inside(rec: Recognizer, folder: Path, prefix: str, step: int = 1) -> tuple[list[dict], dict]:
    """The photos of a folder taken again from inside their card (vision_cells.inside_frame: its
    white margin cut off), one cell per kind of frame (vision_cells.INSIDE_CELLS), from the outline
    the recognizer reads right in the photo as it is (photos it misreads are skipped and counted)."""
    items, skipped = [], []
    for i, name, truth, img, reads in photos_read(rec, folder, step):
        if not reads or reads[0].card != truth:
            skipped.append(name)
            continue
        for cell, inset, aspect in vc.INSIDE_CELLS:
            pic = vc.inside_frame(img, reads[0].quad.pts, inset, aspect)
            items.append(item(f"inside {cell} {prefix}", name, truth, *first_reading(rec, pic)))
    return items, {"skipped": skipped}


def inside_renders(rec: Recognizer, seed: int, quick: bool) -> list[dict]:
    """Every print family's cards (vision.art, each family's own clean look) taken from inside as
    the inside cells take the real photos (vision_cells.INSIDE_CELLS): close-ups of prints none of
    the photos show, a phone's noise and JPEG on them (the seed draws those)."""
    from vision.art import render_card
    from vision.art.style import PRINTS, print_style
    rng = np.random.default_rng([seed, 47])
    cards = sorted(rec.deck.cards)[::4 if quick else 1]
    items = []
    for family in PRINTS:
        style = print_style(family)
        for cid in cards:
            rgba = render_card(cid, rec.deck.id, style=style, size=(280, 435))
            face = cv2.cvtColor(np.ascontiguousarray(rgba[..., :3]), cv2.COLOR_RGB2BGR)
            h, w = face.shape[:2]
            quad = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
            for cell, inset, aspect in vc.INSIDE_CELLS:
                pic = vc.inside_frame(face, quad, inset, aspect).astype(np.float32)
                pic = np.clip(pic + rng.normal(0, rng.uniform(1, 4), pic.shape), 0, 255).astype(np.uint8)
                pic = vc.jpeg(int(rng.integers(60, 93)))(pic)
                items.append(item(f"inside renders {cell}", f"{family} {cid}", cid, *first_reading(rec, pic)))
    return items


# ---------------------------------------------------------------- 2. the pose sweep of real-uno-dev

def sweep(rec: Recognizer, folder: Path, seed: int, quick: bool) -> tuple[list[dict], dict]:
    from vision.locate import find_cards
    cells = vc.sweep_cells(quick)
    items, skipped, used = [], [], 0
    for i, (name, truth) in enumerate(real_rows(folder)):
        if truth is None or truth not in rec.deck.cards or (quick and i % 4):
            continue
        img = cv2.imread(str(folder / name))
        quads = find_cards(img)
        if not quads:
            skipped.append(name)
            continue
        used += 1
        q = max(quads, key=lambda q: q.area).pts
        items += swept(rec, img, q, cells, seed, i, "sweep ", name, truth)
    return items, {"photos": used, "no_card_found": skipped}


def sweep_draws(seed: int, photo: int, cell: int) -> np.random.Generator:
    """The draws (where the card sits, the noise) of one photo in one sweep cell: the photo's index
    in its folder, the cell's in the list of cells."""
    return np.random.default_rng([seed, photo, cell])


def swept(rec: Recognizer, img: np.ndarray, q: np.ndarray, cells: list[dict], seed: int, photo: int,
          prefix: str, name: str, truth: str) -> list[dict]:
    """One photo, its card at quad `q`, read through each of the sweep's `cells` (sweep_draws)."""
    table = vc.table_only(img, q)
    return [item(prefix + cell["name"], name, truth,
                 *first_reading(rec, vc.sweep_image(img, q, cell, sweep_draws(seed, photo, j), table)))
            for j, cell in enumerate(cells)]


def sweep_read(rec: Recognizer, folders: list[Path], seed: int, step: int) -> tuple[list[dict], dict]:
    """The sweep's cells on the photos of other folders (every `step`th), one cell each across them
    ("sweep2 ..."): each photo's card quad the outline the recognizer reads right in the photo as it
    is (as transplant's; photos it misreads are skipped and counted), for prints and photos the
    contour locator does not outline (a dark print on black, a card in a hand). The draws per photo
    and cell are the sweep's (sweep_draws)."""
    cells = vc.sweep_cells(False)
    items, skipped = [], []
    for folder in folders:
        for i, name, truth, img, reads in photos_read(rec, folder, step):
            if not reads or reads[0].card != truth:
                skipped.append(name)
                continue
            items += swept(rec, img, reads[0].quad.pts, cells, seed, i, "sweep2 ", f"{folder.name}/{name}", truth)
    return items, {"skipped": skipped}


# ---------------------------------------------------------------- 2b. real faces in new places

def transplanted(face: np.ndarray, seed: int, photo: int, k: int) -> np.ndarray:
    """The `k`th close-up the transplant cell draws of a lifted face (vision_cells.lift_face): its
    draws [seed, 7, the photo's index in its folder, k], 640x480 and 480x640 in turn."""
    pic, _ = vc.transplant_image(face, np.random.default_rng([seed, 7, photo, k]),
                                 (640, 480) if (photo + k) % 2 == 0 else (480, 640))
    return pic


def transplant(rec: Recognizer, folder: Path, cell: str, seed: int, per_face: int, step: int = 1
               ) -> tuple[list[dict], dict]:
    """Each photo's card lifted out along the outline the recognizer reads right (photos it misreads
    are skipped and counted) and drawn into `per_face` new close-ups (bench/vision_cells.py
    transplant_image: another surface, held or lying, tilted, another light), 640x480 and 480x640
    in turn. The surfaces and hands are the synthetic close-ups' own; the card's print, its wear and
    its gloss are the real photo's."""
    items, skipped = [], []
    for i, name, truth, img, reads in photos_read(rec, folder, step):
        if not reads or reads[0].card != truth:
            skipped.append(name)
            continue
        face = vc.lift_face(img, reads[0].quad.pts)
        for k in range(per_face):
            got, conf, sure = first_reading(rec, transplanted(face, seed, i, k))
            items.append(item(cell, f"{name} #{k}", truth, got, conf, sure))
    return items, {"skipped": skipped}


# ---------------------------------------------------------------- 2c. real faces on tables, from above

def lifted_faces(rec: Recognizer, folders: list[Path]) -> dict[str, list[np.ndarray]]:
    """Card id -> the faces of its photos in `folders`, lifted out along the outline the recognizer
    reads right (a photo it misreads gives none)."""
    faces: dict[str, list[np.ndarray]] = {}
    for folder in folders:
        for _, _, truth, img, reads in photos_read(rec, folder):
            if reads and reads[0].card == truth:
                faces.setdefault(truth, []).append(vc.lift_face(img, reads[0].quad.pts))
    return faces


def real_tables(rec: Recognizer, faces: dict[str, list[np.ndarray]], cell: str, n: int, seed: int,
                card_width: tuple | None = None, covered: str | None = None) -> list[dict]:
    """Table scenes from above as the synthetic scenes lay them out (vision.synth.generate.compose:
    a discard pile, loose cards, a draw pile of backs, hands reaching in, a camera above at a slant,
    its light and noise), their faces real cards of one print (`faces`); every whole face-up card
    read as the reading whose quad overlaps it best (IoU >= 0.5), as in `scenes`. `card_width`: the
    range of a card's width as a share of the picture's near edge (generate.CARD_WIDTH unless given).
    `covered`: the cell of the cards partly in view (COVERED_SEEN), matched alike; None: not read."""
    from vision.synth.generate import CARD_WIDTH, compose
    items = []
    for i in range(n):
        g, rng = np.random.default_rng([seed, 11, i]), random.Random(seed * 7_919 + i)
        img, labels = compose(rec.deck.id, g, rng, 640, 480, faces=faces, card_width=card_width or CARD_WIDTH)
        items += scene_items(rec, img, labels, cell, f"table {i}", covered)
    return items


def scene_items(rec: Recognizer, img: np.ndarray, labels: dict, cell: str, name: str,
                covered: str | None = None) -> list[dict]:
    """Every whole face-up card (visible >= 0.9) of a labelled scene, read as the reading whose
    quad overlaps it best (IoU >= 0.5; its whole outline, however much of it is in view); a card no
    reading overlaps is wrong, not sure. `covered`: the cell of the cards COVERED_SEEN in view too."""
    from vision.locate import quad_iou
    reads = rec.read(img)
    items = []
    for c in labels["cards"]:
        whole = c["visible"] >= COVERED_SEEN[1]
        if c["card"] == "back" or not (whole or (covered and c["visible"] >= COVERED_SEEN[0])):
            continue
        cell_of = cell if whole else covered
        q = np.array(c["quad"], np.float32)
        best = max(reads, key=lambda r: quad_iou(r.quad.pts, q), default=None)
        if best is not None and quad_iou(best.quad.pts, q) >= 0.5:
            sure = getattr(best, "sure", best.confidence >= CONFIRM_THRESHOLD)
            items.append(item(cell_of, name, c["card"], best.card, best.confidence, sure))
        else:
            items.append(item(cell_of, name, c["card"], "(none)", 0, False))
    return items


# ---------------------------------------------------------------- 3. table scenes from above

def scenes(rec: Recognizer, deck: str, n: int, seed: int = SCENE_SEED) -> list[dict]:
    """Every whole face-up card (visible >= 0.9) of n held-out synthetic scenes, read as the reading
    whose quad overlaps it best (IoU >= 0.5); a card no reading overlaps is wrong, not sure."""
    from vision.synth.generate import make_scene
    items = []
    for i in range(n):
        jpeg, labels = make_scene(deck, seed, i, 640)
        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        items += scene_items(rec, img, labels, "scenes from above", f"scene {i} ({labels['table']})")
    return items


def demo(folder: Path = DEMO) -> tuple[list[dict], dict]:
    """`tableref watch demo.mp4 --deck ono --json`: its flip and play events against the recording's
    true log, aligned in order (difflib): right, wrong (another card), missing; extra events apart."""
    import contextlib
    import difflib
    import io
    from web.cli import main as cli
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cli(["watch", str(folder / "demo.mp4"), "--deck", "ono", "--json"])
    key = lambda e: e["type"] + " " + (e["card"] if e["type"] == "flip" else "+".join(e["cards"]))  # noqa: E731
    seen = [json.loads(x) for x in out.getvalue().splitlines() if x.strip().startswith("{")]
    seen = [e for e in seen if e.get("type") in ("flip", "play")]
    truth = [json.loads(x) for x in (folder / "demo.events.jsonl").read_text().splitlines() if x.strip()]
    truth = [e for e in truth if e["type"] in ("flip", "play")]
    a, b = [key(e) for e in truth], [key(e) for e in seen]
    items, extra = [], 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        for k in range(i2 - i1):
            t = a[i1 + k]
            if op in ("equal", "replace") and j1 + k < j2:
                e = seen[j1 + k]
                items.append(item("demo recording", f"event {i1 + k}", t, b[j1 + k], e.get("confidence", 1.0),
                                  not e.get("unconfirmed")))
            else:
                items.append(item("demo recording", f"event {i1 + k}", t, "(none)", 0, False))
        extra += max(0, (j2 - j1) - (i2 - i1))
    return items, {"exit": rc, "events_seen": len(seen), "events_true": len(truth), "extra": extra}


# ---------------------------------------------------------------- 4. synthetic cut-out cards

def synthetic(rec: Recognizer, n: int, seed: int, cell: str = "synthetic cut-out") -> list[dict]:
    from vision.art import render_card
    ids = list(rec.deck.cards)
    rng, prng = np.random.default_rng(seed), random.Random(seed)
    items = []
    for i in range(n):
        cid = ids[i % len(ids)]
        w = int(rng.integers(120, 220))
        face = render_card(cid, rec.deck.id, rng=prng, size=(w, int(round(w * 87 / 56))))
        got, conf = rec.identify_card(camera_view(face, rng))
        items.append(item(cell, f"{i}", cid, got or "(none)", conf, conf >= CONFIRM_THRESHOLD))
    return items


CLOSEUP_FRAMES = ((640, 480), (1280, 720), (720, 1280))   # a webcam's, a phone's across and upright
CLOSEUP_SEEN = 0.7     # the close-ups cells: the face card at least this share in view, the only face


def closeups(rec: Recognizer, n: int, seed: int) -> list[dict]:
    """Synthetic close-ups (vision/synth/closeup.py: a card held or lying close, a random print of
    the six families, fingers, glare, light, clutter, blur, noise and JPEG) in three frame shapes,
    `n` draws each; those with one face card CLOSEUP_SEEN or more in view are read whole (first
    reading against that card). Held out by seed: the detector learned close-ups of this generator
    (models/README.md, its stages), at other seeds; the symbol readers learned cut-out renders."""
    from vision.synth.closeup import compose_closeup
    items = []
    for f, (w, h) in enumerate(CLOSEUP_FRAMES):
        for i in range(n):
            k = (seed * 10 + f) * 1000 + i
            img, labels = compose_closeup(rec.deck.id, np.random.default_rng(k), random.Random(k), w, h)
            faces = [c for c in labels["cards"] if c["card"] != "back"]
            if len(faces) != 1 or faces[0]["visible"] < CLOSEUP_SEEN:
                continue
            items.append(item(f"close-ups {w}x{h}", f"{k}", faces[0]["card"], *first_reading(rec, img)))
    return items


# ---------------------------------------------------------------- 5. leave one print out

def lopo(models: Path, n: int, seed: int, use_net: bool = True) -> tuple[list[dict], str | None]:
    """For each print family P of vision.art.style.PRINTS: the symbol model trained without P
    (models/ono-symbols-without-P.npz, with the symbol network ono-symbols-net-without-P.onnx
    where there is one) on n renders of P seen through camera_view."""
    try:
        from vision.art.style import PRINTS, random_style
    except ImportError:
        return [], "vision.art.style.PRINTS does not exist yet: no print families to leave out"
    from vision.art import render_card
    items, notes = [], []
    for P in PRINTS:
        path = models / f"ono-symbols-without-{P}.npz"
        if not path.is_file():
            notes.append(f"{path.name} missing (bench/train_lopo.sh {models})")
            continue
        # the symbol network left without P too when there is one (else the HOG classifier alone:
        # the committed network has seen P)
        net = models / f"ono-symbols-net-without-{P}.onnx"
        rec = Recognizer("ono", model_path=path, locator="contour", net_path=net if net.is_file() and use_net else False)
        ids = list(rec.deck.cards)
        rng, prng = np.random.default_rng(seed), random.Random(seed)
        for i in range(n):
            cid = ids[i % len(ids)]
            w = int(rng.integers(120, 220))
            style = random_style(prng, prints=[P])
            face = render_card(cid, "ono", style=style, size=(w, int(round(w * 87 / 56))))
            got, conf = rec.identify_card(camera_view(face, rng))
            items.append(item(f"lopo without {P}", f"{i}", cid, got or "(none)", conf, conf >= CONFIRM_THRESHOLD))
    return items, "; ".join(notes) or None


# ---------------------------------------------------------------- output

def fmt_row(name: str, s: dict) -> str:
    verdict = "PASS" if s["pass"] else "FAIL"
    return (f"{name:<28} | {s['n']:>5} | {s['top1']:.3f} | {s['sure_share']:.3f} | "
            f"{s['wrong_but_sure_share']:.3f} ({s['wrong_but_sure']:>3}) | {verdict}")


def print_calibration(title: str, cal: dict) -> None:
    print(f"\ncalibration, {title}: {cal['n']} readings, ECE {cal['ece']:.3f}; readings marked sure: "
          f"{cal['sure_n']}, their accuracy {cal['sure_accuracy'] if cal['sure_accuracy'] is None else round(cal['sure_accuracy'], 3)}"
          f" (target >= 0.99)")
    print("confidence  |     n | accuracy | mean confidence")
    for b in cal["bins"]:
        acc = "-" if b["accuracy"] is None else f"{b['accuracy']:.3f}"
        mc = "-" if b["mean_confidence"] is None else f"{b['mean_confidence']:.3f}"
        print(f"{b['lo']:.2f}-{b['hi']:.2f}   | {b['n']:>5} | {acc:>8} | {mc:>8}")


def vision_tree() -> str:
    """The commit measured, and whether vision/ or models/ differ from it in the working tree."""
    import subprocess
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "vision", "models"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    return head + (" + uncommitted changes in vision/ or models/" if dirty else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deck", default="uno")
    ap.add_argument("--cells", default="real,squashed,mirrored,overexposed,washed,toned,hued,glare,inside,sweep,transplant,tables,far,scenes,synthetic,closeups,lopo",
                    help="comma-separated groups: " + ",".join(GROUPS) + " (lopo needs --lopo DIR)")
    ap.add_argument("--quick", action="store_true", help="a subset for a fast loop: every 4th photo, 11 sweep "
                    "cells on 14 photos, 40 scenes, 280 synthetic cards")
    ap.add_argument("--synthetic", type=int, default=None, help="synthetic cut-out cards (default 1120; quick 280)")
    ap.add_argument("--scenes", type=int, default=None, help="held-out synthetic scenes (default 200; quick 40)")
    ap.add_argument("--seed", type=int, default=777, help="synthetic cards, the sweep's card placement and noise")
    ap.add_argument("--real", default=str(REAL))
    ap.add_argument("--real2", default=str(REAL2))
    ap.add_argument("--lopo", metavar="DIR", help="folder of ono-symbols-without-P.npz models (bench/train_lopo.sh)")
    ap.add_argument("--transplant", type=int, default=2, help="new close-ups per lifted real face")
    ap.add_argument("--closeups", type=int, default=300,
                    help="synthetic close-ups drawn per frame shape (about half have one face card in view)")
    ap.add_argument("--tables", type=int, default=120, help="table scenes a cell with real faces (quick: a quarter)")
    ap.add_argument("--lopo-n", type=int, default=300, help="renders per print family in the lopo cell")
    ap.add_argument("--no-demo", action="store_true", help="skip the demo recording in the scenes group")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--dump", metavar="FILE.jsonl", help="one JSON line per read image, to study the failures")
    ap.add_argument("--locator", default="detector", choices=("detector", "contour"))
    ap.add_argument("--without-print", metavar="P",
                    help="read every cell with the symbol readers trained without print family P (--lopo DIR's "
                         "ono-symbols-without-P.npz and ono-symbols-net-without-P.onnx, bench/train_lopo.sh and "
                         "train_lopo_net.sh) and the shipped confidence map: P's real photos as a print never seen")
    ap.add_argument("--symbols", help="a symbol model to measure instead of the committed one")
    ap.add_argument("--net", help="a symbol network (.onnx) to measure instead of the committed one")
    ap.add_argument("--net-weight", type=float, default=None,
                    help="the network's exponent in the two readers' product (vision/read/net.py NET_WEIGHT)")
    ap.add_argument("--far-net", metavar="FILE",
                    help="a network for cards seen small to measure instead of the committed one "
                         "(vision/recognizer.py FAR_NET_FOR_DECK); `none`: the symbol network reads every size")
    ap.add_argument("--far-px", type=float, default=None,
                    help="the card width under which the far network reads (vision/recognizer.py FAR_CARD_PX)")
    ap.add_argument("--no-relook", action="store_true",
                    help="small faces keep the outline of the detector's looks at the whole picture "
                         "(vision/recognizer.py RELOOK off: the peer of the second look, locate/relook.py)")
    ap.add_argument("--no-net", action="store_true",
                    help="the HOG symbol classifier alone, without the symbol network (the peer)")
    args = ap.parse_args(argv)
    groups = [g for g in args.cells.split(",") if g]
    unknown = set(groups) - set(GROUPS)
    if unknown:
        ap.error(f"unknown cells {', '.join(sorted(unknown))}; choose from {', '.join(GROUPS)}")
    uno_family = args.deck in ("uno", "ono")
    if args.without_print:
        if not uno_family:
            ap.error("--without-print is for the UNO family's print families (--deck uno or ono)")
        if not args.lopo:
            ap.error("--without-print needs --lopo DIR (the folder bench/train_lopo.sh wrote)")
        args.symbols = str(Path(args.lopo) / f"ono-symbols-without-{args.without_print}.npz")
        args.net = str(Path(args.lopo) / f"ono-symbols-net-without-{args.without_print}.onnx")
        for path, script in ((args.symbols, "train_lopo.sh"), (args.net, "train_lopo_net.sh")):
            if not Path(path).is_file():
                ap.error(f"{path} missing: make it with bench/{script} {args.lopo} {args.without_print}")
    net = False if args.no_net else args.net
    if args.net_weight is not None:
        import vision.read.net
        vision.read.net.NET_WEIGHT = args.net_weight
    far = False if args.far_net == "none" else args.far_net
    if args.far_px is not None:
        import vision.recognizer
        vision.recognizer.FAR_CARD_PX = args.far_px
    if args.no_relook:
        import vision.recognizer
        vision.recognizer.RELOOK = False
    rec = Recognizer(args.deck, model_path=args.symbols, locator=args.locator, net_path=net, far_net_path=far)
    if args.without_print:   # the confidence the app reports: the shipped map, not the identity
        rec.calibration = load_confidence_map(models_dir() / MODEL_FOR_DECK[args.deck])
    res = {"model": rec.model.meta, "net": rec.net.meta if rec.net else None,
           "far_net": rec.far_net.meta if rec.far_net else None, "relook": not args.no_relook, "deck": args.deck, "locator": args.locator, "confirm_threshold": CONFIRM_THRESHOLD,
           "targets": {"top1_min": vc.TARGET_TOP1, "wrong_but_sure_max": vc.TARGET_WBS}, "quick": args.quick,
           "seconds": {}, "notes": []}
    res["vision_tree"] = vision_tree()
    items: list[dict] = []
    step = 4 if args.quick else 1
    clock = time.perf_counter

    def timed(group, fn, *a, **kw):
        t0 = clock()
        out = fn(*a, **kw)
        res["seconds"][group] = round(res["seconds"].get(group, 0) + clock() - t0, 1)
        return out

    if "real" in groups and uno_family:
        outside = []
        for cell, folder in (("real-uno-dev", Path(args.real)), ("real-uno-dev2 on-black", Path(args.real2) / "on-black"),
                             ("real-uno-dev2 hand-held", Path(args.real2) / "hand-held")):
            if (folder / "labels.csv").exists():
                got, out = timed("real", real, rec, folder, cell, step)
                items += got
                outside += out
            else:
                res["notes"].append(f"{cell}: {folder} not found, skipped")
        res["not_in_deck"] = outside
    for group, altered in (("squashed", squashed), ("mirrored", mirrored), ("overexposed", overexposed),
                           ("washed", washed), ("toned", toned), ("hued", hued)):
        if group not in groups or not uno_family:
            continue
        for cell, folder in ((f"{group} real-uno-dev", Path(args.real)), (f"{group} on-black", Path(args.real2) / "on-black"),
                             (f"{group} hand-held", Path(args.real2) / "hand-held")):
            if (folder / "labels.csv").exists():
                items += timed(group, real, rec, folder, cell, step, altered)[0]
    if "glare" in groups and uno_family:
        for cell, folder in (("glare real-uno-dev", Path(args.real)), ("glare on-black", Path(args.real2) / "on-black"),
                             ("glare hand-held", Path(args.real2) / "hand-held")):
            if (folder / "labels.csv").exists():
                got, info = timed("glare", glared, rec, folder, cell, args.seed, step)
                items += got
                if info["skipped"]:
                    res["notes"].append(f"{cell}: no card found in {len(info['skipped'])} photos as they are, skipped")
    if "inside" in groups and uno_family:
        for prefix, folder, every in (("real-uno-dev", Path(args.real), 1), ("on-black", Path(args.real2) / "on-black", 2),
                                      ("hand-held", Path(args.real2) / "hand-held", 2)):
            if (folder / "labels.csv").exists():
                got, info = timed("inside", inside, rec, folder, prefix, step * every)
                items += got
                if info["skipped"]:
                    res["notes"].append(f"inside {prefix}: {len(info['skipped'])} photos misread as they are, skipped")
        items += timed("inside renders", inside_renders, rec, args.seed, args.quick)
    if "sweep" in groups and uno_family and (Path(args.real) / "labels.csv").exists():
        got, info = timed("sweep", sweep, rec, Path(args.real), args.seed, args.quick)
        items += got
        res["sweep"] = info
    if "sweep2" in groups and uno_family:
        folders = [f for f in (Path(args.real2) / "on-black", Path(args.real2) / "hand-held") if (f / "labels.csv").exists()]
        if folders:
            got, info = timed("sweep2", sweep_read, rec, folders, args.seed, 8 if args.quick else 2)
            items += got
            if info["skipped"]:
                res["notes"].append(f"sweep2: {len(info['skipped'])} photos misread as they are, not swept")
    if "transplant" in groups and uno_family:
        for cell, folder in (("transplant real-uno-dev", Path(args.real)),
                             ("transplant on-black", Path(args.real2) / "on-black")):
            if (folder / "labels.csv").exists():
                got, info = timed("transplant", transplant, rec, folder, cell, args.seed, args.transplant, step)
                items += got
                if info["skipped"]:
                    res["notes"].append(f"{cell}: {len(info['skipped'])} photos misread as they are, not lifted")
    if ("tables" in groups or "far" in groups) and uno_family:
        for name, folders in (("real-uno-dev", [Path(args.real)]),
                              ("real-uno-dev2", [Path(args.real2) / "on-black", Path(args.real2) / "hand-held"])):
            folders = [f for f in folders if (f / "labels.csv").exists()]
            if not folders:
                continue
            faces = timed("tables", lifted_faces, rec, folders)
            n = args.tables // (4 if args.quick else 1)
            if "tables" in groups:
                items += timed("tables", real_tables, rec, faces, f"tables {name}", n, args.seed,
                               covered=f"covered tables {name}")
            if "far" in groups:
                items += timed("far", real_tables, rec, faces, f"far tables {name}", n // 2, args.seed, FAR_WIDTH)
    if "scenes" in groups:
        n = args.scenes if args.scenes is not None else (40 if args.quick else 200)
        items += timed("scenes", scenes, rec, args.deck, n)
        if uno_family and not args.no_demo and (DEMO / "demo.mp4").exists():
            got, info = timed("scenes", demo)
            items += got
            res["demo"] = info
    if "synthetic" in groups:
        n = args.synthetic if args.synthetic is not None else (280 if args.quick else 1120)
        srec = rec if not uno_family or args.deck == "ono" else Recognizer("ono", model_path=args.symbols, locator="contour", net_path=net,
                                                                            far_net_path=far)
        if srec is not rec and args.without_print:
            srec.calibration = rec.calibration
        if n:
            items += timed("synthetic", synthetic, srec, n, args.seed)
    if "closeups" in groups and uno_family:
        n = args.closeups // (4 if args.quick else 1)
        items += timed("closeups", closeups, rec, n, args.seed)
    if "lopo" in groups and args.lopo:
        got, note = timed("lopo", lopo, Path(args.lopo), args.lopo_n // (4 if args.quick else 1), args.seed,
                          not args.no_net)
        items += got
        if note:
            res["notes"].append("lopo: " + note)
    elif "lopo" in groups and "lopo" in args.cells.split(","):
        res["notes"].append("lopo: skipped (give --lopo DIR of ono-symbols-without-P.npz, see bench/train_lopo.sh)")

    order = list(dict.fromkeys(it["cell"] for it in items))
    res["cells"] = {c: vc.summarize([it for it in items if it["cell"] == c]) for c in order}
    real_cells = [c for c in order if c.startswith("real-")]
    pooled = {"real photos as is": [it for it in items if it["cell"] in real_cells],
              "real photos + sweep": [it for it in items if it["cell"] in real_cells or it["cell"].startswith(("sweep ", "sweep2 "))],
              # the cells least tuned on: real cards in new surroundings, and scenes from above
              "transplant + tables + scenes": [it for it in items if it["cell"].startswith(("transplant ", "tables ", "scenes"))],
              # and apart, cards seen from farther up than any other cell's
              "far tables": [it for it in items if it["cell"].startswith("far ")]}
    res["calibration"] = {k: vc.calibration(v) for k, v in pooled.items() if v}
    if args.dump:
        with open(args.dump, "w") as f:
            for it in items:
                f.write(json.dumps(it) + "\n")
    if args.json:
        print(json.dumps(res, indent=1))
        return 0
    print(f"deck {args.deck}, locator {args.locator}, sure = confidence >= {CONFIRM_THRESHOLD}"
          f"{' (quick)' if args.quick else ''}; targets: top-1 >= {vc.TARGET_TOP1}, wrong-but-sure <= "
          f"{vc.TARGET_WBS:.0%} in every cell")
    print(f"recognizer code: {res['vision_tree']}")
    print(f"{'cell':<28} | {'n':>5} | top-1 | sure  | wrong-but-sure | target")
    print("-" * 80)
    for c in order:
        print(fmt_row(c, res["cells"][c]))
    fails = [c for c in order if not res["cells"][c]["pass"]]
    print(f"\n{len(order) - len(fails)} of {len(order)} cells pass")
    if "sweep" in res:
        print(f"sweep: {res['sweep']['photos']} photos; no card found by the contour locator in "
              f"{len(res['sweep']['no_card_found'])}{': ' + ', '.join(res['sweep']['no_card_found']) if res['sweep']['no_card_found'] else ''}")
    if "demo" in res:
        d = res["demo"]
        print(f"demo: {d['events_true']} true flip/play events, {d['events_seen']} emitted, {d['extra']} extra")
    for note in res["notes"]:
        print("note:", note)
    print("\nmost frequent confusions of the failing cells (true -> read x count):")
    for c in fails:
        conf = res["cells"][c]["confusions"][:4]
        print(f"  {c}: " + ", ".join(f"{x['true']} -> {x['read']} x{x['count']}" for x in conf))
    for k, cal in res["calibration"].items():
        print_calibration(k, cal)
    for o in res.get("not_in_deck", []):
        print(f"not in deck: {o['cell']} {o['image']} read as {o['read']} ({o['confidence']})")
    print("\nseconds: " + ", ".join(f"{k} {v}" for k, v in res["seconds"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
