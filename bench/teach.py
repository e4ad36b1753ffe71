"""Benchmark of taught decks (issue 15): teach from photos, read other photos, print a table.

    python bench/teach.py                 # everything (about 10 minutes on 2 cores)
    python bench/teach.py --cards 20      # the first 20 cards of each deck only (quick)
    python bench/teach.py --only dino2    # one row group: uno, dino2, snake-cup, real, speed, border, hand, back, shape
    python bench/teach.py --only hand --face-net build/facenet/face-embed.onnx   # with a face network

Rows:
- synthetic prints (vision/art + vision/synth/photo.py): one random print of a deck, photographed
  TEACH+TEST times per card, each photo its own table, size, turn, tilt (up to 40 degrees), light,
  blur, and in 30% a hand holding it; taught from the first 1 (or 3) photos of each card, read on
  the TEST others. Never the photos taught.
- real development photos (../shared/real-uno-dev2, used at run time, never copied or shipped):
  taught from the first photo of each card, read on the other photos of it and on altered copies
  of them (scaled down, turned, tilted, lighter or darker). Never the photos taught.
- prints edged in black or purple instead of white (the paper round the face), taught through
  `tableref teach`'s own path, which learns the border from the photos; read on other photos.
- decks drawn by hand (vision/art/handdrawn.py: marker on blank card stock, the colour coloured in
  or the ink's), taught through `tableref teach`'s own path from 1 and 3 photos, read on 2 others.
- the deck's back (FOLDER/back/, three photos of it): decks printed and drawn by hand, taught from one
  photo a card and read on other photos of the back and of the cards, with and without the back.
- decks cut in other shapes than a standard card (square, 1.25, poker size 1.4, 1.7): a DINO 2 print
  pasted at each shape, taught from one photo a card through `tableref teach`'s own path (which
  learns the shape, vision/teach/shape.py), read on 2 others.
- teach time for 54 photos through `tableref teach`'s own code path (a folder of JPEGs), and read
  time per photo with and without the taught deck.

top-1: the first reading is the card; wrong-but-sure: a first reading that is wrong and sure
(confidence >= 0.6); unsure: right or wrong, below 0.6; none: no card found.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import load_deck                                        # noqa: E402
from vision.recognizer import CONFIRM_THRESHOLD, Recognizer          # noqa: E402
from vision.synth.photo import print_photos, write_teach_folder      # noqa: E402
from vision.teach.build import build_deck                            # noqa: E402
from vision.teach.teach import taught_photo, teach_folder           # noqa: E402

REAL = ROOT.parent / "shared" / "real-uno-dev2"


MISSES = False     # --misses: every reading not right named on stderr, not only the sure ones


def _name(what: str, img: np.ndarray, outline: np.ndarray | None = None) -> None:
    """One reading not right, on stderr: what, its outline, the picture's size."""
    where = f"outline {np.round(outline).astype(int).tolist()}, " if outline is not None else ""
    print(f"  {what} ({where}picture {img.shape[1]}x{img.shape[0]})", file=sys.stderr, flush=True)


def score(rec, photos) -> dict:
    """top-1, wrong-but-sure, unsure and no-card counts of `rec` reading (card, image) pairs."""
    n = right = wrong_sure = unsure = none = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for cid, img in photos:
        n += 1
        r = rec.read(img)
        if not r:
            none += 1
            if MISSES:
                _name(f"miss: {cid} no card found", img)
            continue
        right += r[0].card == cid
        sure = r[0].confidence >= CONFIRM_THRESHOLD
        if r[0].card != cid and (sure or MISSES):
            wrong_sure += sure
            # named, so that a wrong and sure reading can be looked at (stderr: the table stays clean)
            _name(f"{'wrong and sure' if sure else 'miss'}: {cid} read as {r[0].card} at {r[0].confidence:.2f}"
                  f"{'' if sure else ', unsure'}", img, r[0].quad.pts)
        unsure += not sure
    return {"n": n, "top1": right / max(n, 1), "wrong_sure": wrong_sure / max(n, 1), "unsure": unsure / max(n, 1),
            "none": none, "read_ms": 1000 * (time.perf_counter() - t0) / max(n, 1),
            "read_cpu_ms": 1000 * (time.process_time() - c0) / max(n, 1)}


def teach(rec, photos) -> tuple:
    """A taught deck from (card, image) pairs, and the seconds it took."""
    t0 = time.perf_counter()
    taught = []
    for k, (cid, img) in enumerate(photos):
        got, _ = taught_photo(rec, img, seed=k)
        if got is not None:
            taught.append((cid, *got))
    td = build_deck(rec.deck, taught)
    return td, time.perf_counter() - t0


def synthetic(deck: str, cards: int | None, seed: int, test: int = 2) -> list[dict]:
    """One random print of the deck, 3 + `test` photos of each card; taught from the first 1 and 3,
    read on the `test` others, and the built-in recognizer on those."""
    ids = list(load_deck(deck).cards)[:cards]
    shots = list(print_photos(deck, ids, 3 + test, seed=seed))
    rec = Recognizer(deck, text=False)
    rows = []
    for n in (1, 3):
        td, secs = teach(rec, [(c, img) for c, k, img, _ in shots if k < n])
        tests = [(c, img) for c, k, img, _ in shots if k >= 3]
        reader = Recognizer(deck, taught=td)
        rows.append(dict(score(reader, tests), what=f"{deck}, synthetic print, {len(ids)} cards, taught from {n}",
                         teach_s=secs, photos=len([1 for c, k, *_ in shots if k < n])))
    rows.append(dict(score(Recognizer(deck), tests), what=f"{deck}, same test photos, built-in recognizer",
                     teach_s=None, photos=0))
    return rows


def drawn(deck: str, coloured_in: bool, cards: int | None, seed: int, test: int = 2) -> list[dict]:
    """A deck drawn by hand (vision/art/handdrawn.py: one player's hand, the colour `coloured_in` as a
    field or drawn in coloured ink), each card photographed 3 + `test` times; taught through
    `tableref teach`'s own path (a folder of JPEGs, white faces learned from the photos) from the
    first 1 and 3 photos, read on the `test` others; and the built-in recognizer on those."""
    import random
    from dataclasses import replace
    from vision.art.handdrawn import random_hand
    ids = list(load_deck(deck).cards)[:cards]
    hand = replace(random_hand(random.Random(f"{deck}/{seed}")), coloured_in=coloured_in)
    shots = list(print_photos(deck, ids, 3 + test, seed=seed, hand=hand))
    tests = [(c, img) for c, k, img, _ in shots if k >= 3]
    kind = f"drawn by hand ({'coloured in' if coloured_in else 'in coloured ink'}, {hand.font.split('.')[0]})"
    rows = []
    for n in (1, 3):
        with tempfile.TemporaryDirectory() as tmp:
            for c, k, img, _ in shots:
                if k < n:
                    (Path(tmp) / c).mkdir(exist_ok=True)
                    cv2.imwrite(str(Path(tmp) / c / f"{k}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
            t0 = time.perf_counter()
            td, report = teach_folder(Recognizer(deck, text=False), tmp)
            secs = time.perf_counter() - t0
        rows.append(dict(score(Recognizer(deck, taught=td), tests), teach_s=secs, photos=n * len(ids),
                         what=f"{deck}, {kind}, {len(ids)} cards, taught from {n} (faces learned: "
                              f"{report.faces}{_shape(report)}; {len(report.refused)} photos refused)"))
    rows.append(dict(score(Recognizer(deck), tests), what=f"{deck} drawn by hand, same test photos, built-in recognizer",
                     teach_s=None, photos=0))
    return rows


BORDERS = {"black": (28, 26, 30), "purple": (96, 44, 150)}     # RGB of the border round the face


def bordered(deck: str, colour: str, cards: int | None, seed: int, test: int = 2) -> list[dict]:
    """A print of the deck edged in `colour` instead of white: taught through `tableref teach`'s
    own path (a folder of JPEGs, one photo a card, the border learned from them), read on `test`
    other photos of each card; and the built-in recognizer on the same photos (it looks for a white
    margin and finds none)."""
    import random
    from dataclasses import replace
    from vision.art import style_for
    ids = list(load_deck(deck).cards)[:cards]
    style = replace(style_for(deck, random.Random(seed)), edge=BORDERS[colour])
    with tempfile.TemporaryDirectory() as tmp:
        write_teach_folder(Path(tmp) / "photos", deck, ids, 1, seed=seed, style=style)
        t0 = time.perf_counter()
        td, report = teach_folder(Recognizer(deck, text=False), Path(tmp) / "photos")
        secs = time.perf_counter() - t0
    tests = [(c, img) for c, k, img, _ in print_photos(deck, ids, test, seed=seed + 1, style=style)]
    what = f"{deck}, a print edged in {colour}, {len(ids)} cards, taught from 1 (border learned: {report.border}{_shape(report)})"
    return [dict(score(Recognizer(deck, taught=td), tests), what=what, teach_s=secs, photos=len(ids)),
            dict(score(Recognizer(deck), tests), what=f"{deck} edged in {colour}, same test photos, built-in recognizer",
                 teach_s=None, photos=0)]


def _shape(report) -> str:
    """The shape a teach learned, for a row's words ("" for a standard card's)."""
    return f"; shape learned: {report.aspect:.3f}" if report.aspect is not None else ""


SHAPES = (1.0, 1.25, 1.4, 1.7)   # long side over short side of the decks cut in other shapes
SHAPE_CARDS = 60


def shaped(deck: str, aspect: float, cards: int, seed: int, test: int = 2) -> list[dict]:
    """A print of the deck cut at `aspect` to 1 (its faces pasted into that shape), taught through
    `tableref teach`'s own path from one photo a card, read on `test` other photos of each card:
    with the shape learned from the photos (vision/teach/shape.py), and without (as a standard card)."""
    from vision.teach import shape
    ids = list(load_deck(deck).cards)[:cards]
    shots = list(print_photos(deck, ids, 1 + test, seed=seed, aspect=aspect))
    tests = [(c, img) for c, k, img, _ in shots if k > 0]
    rows = []
    for learn in (False, True):
        shape.LEARN = learn
        try:
            with tempfile.TemporaryDirectory() as tmp:
                for c, k, img, _ in shots:
                    if k == 0:
                        (Path(tmp) / c).mkdir()
                        cv2.imwrite(str(Path(tmp) / c / "0.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
                t0 = time.perf_counter()
                td, report = teach_folder(Recognizer(deck, text=False), tmp)
                secs = time.perf_counter() - t0
        finally:
            shape.LEARN = True
        learned = _shape(report)[2:] if learn else "shape not learned"
        rows.append(dict(score(Recognizer(deck, taught=td), tests), teach_s=secs, photos=len(ids),
                         what=f"{deck}, a print cut at {aspect:.2f} to 1, {len(ids)} cards, taught from 1 "
                              f"({learned or 'standard shape'}; {len(report.refused)} photos refused)"))
    return rows


def altered(img: np.ndarray, g: np.random.Generator) -> np.ndarray:
    """A copy of a photo scaled to 40-100%, turned any angle, tilted up to 25 degrees, 0.5-1.4 x as bright."""
    h, w = img.shape[:2]
    s = g.uniform(0.4, 1.0)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    tilt = g.uniform(-0.12, 0.12, (4, 2)) * [w, h]
    dst = (src + tilt.astype(np.float32)) * s
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    rot = np.vstack([cv2.getRotationMatrix2D((w * s / 2, h * s / 2), g.uniform(0, 360), 1.0), [0, 0, 1]])
    out = cv2.warpPerspective(img, rot @ m, (int(w * s), int(h * s)), borderMode=cv2.BORDER_REFLECT)
    return np.clip(out.astype(np.float32) * g.uniform(0.5, 1.4) * g.uniform(0.9, 1.1, 3), 0, 255).astype(np.uint8)


def real(folder: str, cards: int | None) -> list[dict]:
    rows_csv = list(csv.DictReader(open(REAL / folder / "labels.csv")))
    by_card: dict[str, list] = {}
    for r in rows_csv:
        by_card.setdefault(r["card"], []).append(REAL / folder / r["file"])
    ids = [c for c in load_deck("uno").cards if len(by_card.get(c, [])) >= 2][:cards]
    rec = Recognizer("uno", text=False)
    td, secs = teach(rec, [(c, cv2.imread(str(sorted(by_card[c])[0]))) for c in ids])
    g = np.random.default_rng(0)
    others = [(c, cv2.imread(str(p))) for c in ids for p in sorted(by_card[c])[1:]]
    alt = [(c, altered(img, g)) for c, img in others for _ in range(2)]
    reader = Recognizer("uno", taught=td)
    what = f"real {folder} (second UNO print), {len(ids)} cards, taught from 1"
    return [dict(score(reader, others), what=what + ", other photos", teach_s=secs, photos=len(ids)),
            dict(score(reader, alt), what=what + ", altered copies of the others", teach_s=None, photos=0),
            dict(score(Recognizer("uno"), others), what=f"real {folder}, other photos, built-in recognizer",
                 teach_s=None, photos=0)]


def speed(seed: int) -> list[dict]:
    """Teach time of 54 photos through the command's own path; read time with and without. The
    photos read are other photos of the print taught (a table teaches its own deck); each reader
    reads a few first, so that no row pays the models' first runs, and the two readers then take
    turns, photo by photo, so that a busy machine slows both alike."""
    import random
    from vision.art import style_for
    ids = list(load_deck("uno").cards)[:54]
    style = style_for("uno", random.Random(seed))
    with tempfile.TemporaryDirectory() as tmp:
        write_teach_folder(Path(tmp) / "photos", "uno", ids, 1, seed=seed, style=style)
        rec = Recognizer("uno", text=False)
        t0 = time.perf_counter()
        td, report = teach_folder(rec, Path(tmp) / "photos")
        secs = time.perf_counter() - t0
    tests = [(c, img) for c, k, img, _ in print_photos("uno", ids[:20], 1, seed=seed + 1, style=style)]
    # the whole deck taught (a card whose photo was refused taught from a second photo): a sure
    # taught reading alone answers, the built-in readers do not run
    extra = [(c, img) for c, k, img, _ in print_photos("uno", report.missing, 2, seed=seed + 2, style=style)]
    taught = [(c, *p) for c, p in ((c, taught_photo(rec, img, seed=k)[0]) for k, (c, img) in enumerate(extra))
              if p is not None]
    full = _with_more(rec, td, taught)
    readers = {"some": Recognizer("uno", taught=td), "none": Recognizer("uno")}
    if set(full.cards) >= set(load_deck("uno").cards):
        readers["full"] = Recognizer("uno", taught=full)
    scores = _in_turns(readers, tests)
    rows = [dict(scores["some"], what=f"uno, 54 photos through `tableref teach` ({report.photos_used} used, "
                                      f"{len(report.missing)} cards not taught); read 20 other photos of that print with it",
                 teach_s=secs, photos=54),
            dict(scores["none"], what="read the same 20 photos without a taught deck", teach_s=None, photos=0)]
    if "full" in scores:
        rows.insert(1, dict(scores["full"], what="the same 20 photos, the whole deck taught", teach_s=None, photos=0))
    return rows


def _in_turns(readers: dict, photos) -> dict:
    """score() of each reader on the same photos, the readers taking turns photo by photo after a
    warm-up read of three photos each. The warm-up photos are read again, so the text reader's
    cache (a card at the same place looking the same is not read by OCR again) is emptied before
    each photo: every photo is read afresh."""
    for rec in readers.values():
        for _, img in photos[:3]:
            rec.read(img)
    parts = {k: [] for k in readers}
    for cid, img in photos:
        for k, rec in readers.items():
            rec._text_cache = []
            parts[k].append(score(rec, [(cid, img)]))
    out = {}
    for k, ps in parts.items():
        n = len(ps)
        out[k] = {"n": n, "none": sum(p["none"] for p in ps),
                  **{m: sum(p[m] for p in ps) / n for m in ("top1", "wrong_sure", "unsure", "read_ms", "read_cpu_ms")}}
    return out


def _with_more(rec, td, more):
    """The taught deck `td` with more photos' (card, prototypes, keypoints) added."""
    taught = [(td.cards[td.labels[td.photos == k][0]], td.protos[td.photos == k],
               td.local[k] if td.local is not None and k < len(td.local) else None) for k in np.unique(td.photos)]
    return build_deck(rec.deck, taught + more)


BACK_CARDS = 40    # the back rows' decks: their first 40 cards (--cards sets another number)
BACK_DECKS = (("dino2", "print"), ("snake-cup", "print"), ("uno", "print"),
              ("dino2", "coloured in"), ("snake-cup", "coloured in"), ("uno", "in coloured ink"))


def backs(deck: str, kind: str, cards: int | None, seed: int, taught_backs: int = 3, test: int = 24) -> list[dict]:
    """A deck (a random print, or drawn by hand: `kind`) taught through `tableref teach`'s own path
    from one photo a card and `taught_backs` photos of its back (FOLDER/back/), then read on `test`
    other photos of the back and two other photos of each card, with the back and without it (the
    same deck, its back prototypes dropped). A back is read right when no card is read in its photo
    and a back is found; a face right when its card is read first."""
    import random
    from dataclasses import replace
    from vision.art import render_back, style_for
    from vision.art.handdrawn import draw_back, random_hand
    from vision.synth.photo import card_photo
    ids = list(load_deck(deck).cards)[:cards]
    if kind == "print":
        hand = None
        style = style_for(deck, random.Random(seed))
        faces = [render_back(deck, style=replace(style, seed=k)) for k in range(taught_backs + test)]
    else:
        hand = replace(random_hand(random.Random(f"{deck}/{seed}")), coloured_in=kind == "coloured in")
        faces = [draw_back(deck, hand, seed=k) for k in range(taught_backs + test)]
    g = np.random.default_rng(seed + 7)
    back_photos = [card_photo(f, g)[0] for f in faces]
    shots = list(print_photos(deck, ids, 3, seed=seed, hand=hand))
    with tempfile.TemporaryDirectory() as tmp:
        for c, k, img, _ in shots:
            if k == 0:
                (Path(tmp) / c).mkdir(exist_ok=True)
                cv2.imwrite(str(Path(tmp) / c / f"{k}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (Path(tmp) / "back").mkdir()
        for k, img in enumerate(back_photos[:taught_backs]):
            cv2.imwrite(str(Path(tmp) / "back" / f"{k}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        td, report = teach_folder(Recognizer(deck, text=False), tmp)
    tests = [(c, img) for c, k, img, _ in shots if k > 0]
    rows = []
    for taught in (False, True):
        rec = Recognizer(deck, taught=td if taught else replace(td, back=None))
        row = {"what": f"{deck}, {kind}, {len(ids)} cards", "back": f"{report.backs} photos" if taught else "no",
               "n_backs": len(back_photos) - taught_backs, "as_back": 0, "as_card": 0, "as_card_sure": 0,
               "n_faces": len(tests), "faces_right": 0, "faces_sure_wrong": 0, "faces_as_back": 0}
        for img in back_photos[taught_backs:]:
            readings, found = rec.read_all(img)
            row["as_back"] += not readings and bool(found)
            row["as_card"] += bool(readings)
            row["as_card_sure"] += bool(readings) and readings[0].sure
        for cid, img in tests:
            readings, found = rec.read_all(img)
            row["faces_right"] += bool(readings) and readings[0].card == cid
            row["faces_sure_wrong"] += bool(readings) and readings[0].card != cid and readings[0].sure
            row["faces_as_back"] += not readings and bool(found)
        rows.append(row)
    return rows


def show_backs(rows: list[dict]) -> None:
    for r in rows:
        print(f"| {r['what']} | {r['back']} | {r['n_backs']} | {r['as_back']} | {r['as_card']} ({r['as_card_sure']}) | "
              f"{r['n_faces']} | {r['faces_right']} | {r['faces_sure_wrong']} | {r['faces_as_back']} |", flush=True)


# decks drawn by hand: (deck, its colour coloured in as a field, else drawn in coloured ink)
HANDS = (("dino2", True), ("dino2", False), ("snake-cup", True), ("uno", False))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=None, help="the first N cards of each deck only")
    ap.add_argument("--only", action="append",
                    choices=("uno", "dino2", "snake-cup", "real", "speed", "border", "hand", "back", "shape"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--misses", action="store_true", help="name every reading not right on stderr (wrong and sure ones always are)")
    ap.add_argument("--face-net", metavar="FILE",
                    help="a face network (python -m vision.teach.train_face_net) added to the taught embedding")
    ap.add_argument("--face-weight", type=float, default=2.0, help="its part's weight with --face-net (default 2)")
    args = ap.parse_args()
    global MISSES
    MISSES = args.misses
    if args.face_net:
        from pathlib import Path as _Path
        from vision.teach import embed, face_net
        face_net.PATH, embed.FACE_WEIGHT = _Path(args.face_net), args.face_weight
    only = set(args.only or ("uno", "dino2", "snake-cup", "real", "speed", "border", "hand", "back", "shape"))
    print(f"| what | read | top-1 | wrong-but-sure | unsure | no card | teach s (photos) | read ms/photo | read CPU ms/photo |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|", flush=True)
    # each group's rows as soon as they are measured
    for deck in ("uno", "dino2", "snake-cup"):
        if deck in only:
            show(synthetic(deck, args.cards, args.seed))
    if "real" in only:
        if REAL.is_dir():
            for folder in ("on-black", "hand-held"):
                show(real(folder, args.cards))
        else:
            print(f"(no real photos at {REAL}: real rows skipped)", file=sys.stderr)
    if "speed" in only:
        show(speed(args.seed + 100))
    if "border" in only:
        for deck, colour in (("uno", "black"), ("dino2", "black"), ("uno", "purple")):
            show(bordered(deck, colour, args.cards, args.seed + 200))
    if "hand" in only:
        for deck, coloured_in in HANDS:
            show(drawn(deck, coloured_in, args.cards, args.seed + 300))
    if "shape" in only:
        for aspect in SHAPES:
            show(shaped("dino2", aspect, args.cards or SHAPE_CARDS, args.seed + 500))
    if "back" in only:
        print("\n| deck | back taught | back photos | read as a back | read as a card (sure) | face photos | "
              "read right | wrong but sure | taken for a back |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|", flush=True)
        for deck, kind in BACK_DECKS:
            show_backs(backs(deck, kind, args.cards or BACK_CARDS, args.seed + 400))
    return 0


def show(rows: list[dict]) -> None:
    for r in rows:
        t = f"{r['teach_s']:.1f} ({r['photos']})" if r["teach_s"] is not None else ""
        print(f"| {r['what']} | {r['n']} | {r['top1']:.3f} | {r['wrong_sure']:.3f} | {r['unsure']:.3f} | "
              f"{r['none']} | {t} | {r['read_ms']:.0f} | {r['read_cpu_ms']:.0f} |", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
