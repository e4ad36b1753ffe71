"""`tableref identify`, `watch` and `train`: the recognizer from the command line."""
from __future__ import annotations

import argparse
import json
import sys


def _roi(text: str):
    try:
        x, y, w, h = (int(v) for v in text.split(","))
    except ValueError:
        raise SystemExit(f"tableref: a region is x,y,w,h in pixels of the 640-wide frame, got {text!r}")
    return (x, y, w, h)


TAUGHT_HELP = ("a deck taught with `tableref teach`: its cards are read by what was taught, the others by "
               "the built-in recognizer")


def register(sub) -> None:
    p = sub.add_parser("identify", help="recognize the cards in still images")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--deck", required=True)
    p.add_argument("--json", action="store_true")
    p.add_argument("--locator", choices=("detector", "contour"), default="detector",
                   help="how cards are found: the trained card detector (default) or white-border contours")
    p.add_argument("--taught", metavar="TAUGHT", help=TAUGHT_HELP)
    p.set_defaults(run=run_identify)

    p = sub.add_parser("watch", help="run the vision pipeline on a video or camera and print its card events")
    p.add_argument("src", metavar="SRC", help="camera index, video file or stream URL")
    p.add_argument("--deck", required=True)
    p.add_argument("--json", action="store_true")
    p.add_argument("--reveal", action="store_true", help="read every card laid out in view instead of the pile")
    p.add_argument("--discard", type=_roi, metavar="X,Y,W,H", help="discard pile region (default: found by itself)")
    p.add_argument("--draw", type=_roi, metavar="X,Y,W,H", help="draw pile region (default: found by itself)")
    p.add_argument("--realtime", action="store_true", help="pace a video file at its own speed")
    p.add_argument("--locator", choices=("detector", "contour"), default="detector",
                   help="how cards are found: the trained card detector (default) or white-border contours")
    p.add_argument("--seats", type=_seats, metavar="NAME=EDGE,...",
                   help="seats by their place along the picture's edge (0..4 clockwise from the top-left "
                        "corner: top 0..1, right 1..2, bottom 2..3, left 3..4), e.g. Ana=2.5,Ben=3.7: plays "
                        "then name the seat whose hand brought the card (docs/vision.md, Who played)")
    p.add_argument("--taught", metavar="TAUGHT", help=TAUGHT_HELP)
    p.set_defaults(run=run_watch)

    p = sub.add_parser("train", help="train the recognizer: the symbol classifier on rendered card faces, "
                                      "or (--detector) the card detector on synthetic table scenes")
    p.add_argument("--detector", action="store_true",
                   help="train the card detector (ultralytics YOLO11n-OBB from its yaml; needs "
                        "pip install -e '.[train]') instead of the symbol classifier")
    p.add_argument("--net", action="store_true",
                   help="train the symbol network (a small CNN beside the HOG classifier, uno/ono; needs "
                        "torch: pip install -e '.[train]') instead of the HOG classifier")
    p.add_argument("--confidence", action="store_true",
                   help="fit the confidence map of the deck's recognizer as shipped (its readers' confidence "
                        "as the chance of being right) on synthetic close-ups and table scenes, instead of "
                        "training a model; written beside the symbol model (models/uno-confidence.json)")
    p.add_argument("--scenes", type=int, default=None,
                   help="confidence: table scenes from above to read (default 100; close-ups: --closeups, "
                        "default 600)")
    p.add_argument("--deck", default="uno", help="deck whose art is rendered (uno and ono share one model)")
    p.add_argument("--samples", type=int, default=16000, help="symbol classifier: rendered training samples")
    p.add_argument("--epochs", type=int, default=None, help="training epochs (default 40; detector 15)")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed of the renders (default 1; --confidence: 2027, which no training run used)")
    p.add_argument("--images", type=int, default=1200, help="detector: synthetic scenes to render and train on")
    p.add_argument("--imgsz", type=int, default=320, help="detector: network input size in pixels")
    p.add_argument("--closeups", type=int, default=0,
                   help="detector: also render this many close-ups (cards held or lying near the lens)")
    p.add_argument("--edged", type=float, default=0.0, metavar="SHARE",
                   help="detector: the share of scenes whose deck is edged in black or a colour instead "
                        "of white (themed and home-printed decks; default 0)")
    p.add_argument("--lr0", type=float, default=None,
                   help="detector: learning rate (AdamW); default ultralytics' own choice from scratch, "
                        "0.0002 when continuing with --init")
    p.add_argument("--init", metavar="WEIGHTS",
                   help="detector: continue from the .pt weights of an earlier `train --detector` run, "
                        "or from a detector .onnx of ours such as models/card-detector.onnx")
    p.add_argument("--device", default="cpu",
                   help="detector: where torch trains, cpu (default) or a GPU's index such as 0")
    p.add_argument("--workers", type=int, default=0,
                   help="detector: data loader processes (default 0; 8 or more keep a GPU fed)")
    p.add_argument("--render-workers", type=int, default=2, metavar="N",
                   help="detector: processes rendering the synthetic scenes (default 2)")
    p.add_argument("--batch", type=int, default=16, help="detector: pictures per training step (default 16)")
    p.add_argument("--hours", type=float, default=None,
                   help="detector: stop training after this long; the epochs are then fitted to it")
    p.add_argument("--export", metavar="WEIGHTS",
                   help="detector: train nothing, export the .pt weights of a run (one trained on another "
                        "machine, say) to --out, with the run's card.json beside them as the model card")
    p.add_argument("--out", default=None,
                   help="model file (default: models/uno-symbols.npz, or models/card-detector.onnx)")
    p.add_argument("--prints", type=_names, default=None, metavar="NAME,NAME",
                   help="symbol classifier, uno/ono: train only on these print families of the card art "
                        "(default: all; see vision/art/style.py PRINTS)")
    p.add_argument("--exclude-print", action="append", default=[], metavar="NAME",
                   help="symbol classifier, uno/ono: leave this print family out of training (repeatable), "
                        "e.g. to test the model on a print it never saw")
    p.add_argument("--others", type=float, default=None, metavar="SHARE",
                   help="symbol classifier: the share of samples that are UNO cards labelled "
                        "'another deck' (default 0.15 for dino2 and snake-cup, 0 for uno/ono)")
    p.add_argument("--outline-error", type=float, default=1.0, metavar="SCALE",
                   help="symbol classifier: the locator's corner error the training views are warped "
                        "with, scaled (default 1; wider for decks printed at home and cut by hand)")
    p.set_defaults(run=run_train)


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _recognizer(deck: str, locator: str = "detector", taught: str | None = None, text: bool | None = None):
    from vision.errors import ModelError
    from vision.recognizer import Recognizer
    from vision.teach.file import TaughtFileError, load
    try:
        td = load(taught, deck) if taught else None
        return Recognizer(deck, locator=locator, taught=td, text=text)
    except KeyError as e:
        print(f"tableref: {e.args[0]}", file=sys.stderr)
    except (ModelError, TaughtFileError) as e:
        print(f"tableref: {e}", file=sys.stderr)
    return None


def _loaded(paths: list[str]):
    """(path, (picture, scale) from load_image, or the BadImage it raised) for each path in turn, the
    next photo decoded in a thread while this one is read (a phone's 12 MP JPEG takes 50-70 ms to
    decode at half size, a fifth to a third of reading it; the decoder leaves Python's lock to the
    reader: 24 such photos 150-195 ms a photo, against 179-208 one by one)."""
    from concurrent.futures import ThreadPoolExecutor
    from vision.imageio import BadImage, load_image

    def load(path):
        try:
            return load_image(path)
        except BadImage as e:
            return e
    with ThreadPoolExecutor(1, thread_name_prefix="photo-decoder") as pool:
        ahead = pool.submit(load, paths[0]) if paths else None
        for i, path in enumerate(paths):
            got = ahead.result()
            ahead = pool.submit(load, paths[i + 1]) if i + 1 < len(paths) else None
            yield path, got


def run_identify(args) -> int:
    from vision.imageio import BadImage
    from vision.locate import Quad
    rec = _recognizer(args.deck, args.locator, args.taught)
    if rec is None:
        return 2
    status = 0
    for path, got in _loaded(args.images):
        if isinstance(got, BadImage):
            print(f"tableref: {got}", file=sys.stderr, flush=True)
            status = 2      # the other images are still read; the exit status tells one failed
            continue
        img, scale = got                    # a huge photo comes reduced, `scale` file pixels a pixel
        cards = []
        readings, back_quads = rec.read_all(img)
        for r in readings:
            c = r.as_json()
            if scale != 1.0:     # polygons in the photo's own pixels
                c["polygon"] = Quad(r.quad.pts * scale, r.quad.score).polygon()
            cards.append(c)
        # cards lying face down: the UNO family's backs, or a taught deck's own back (docs/teach.md)
        backs = [Quad(q.pts * scale, q.score).polygon() for q in back_quads]
        if args.json:
            print(json.dumps({"image": path, "cards": cards, "backs": backs}))
        else:
            found = ", ".join(f"{c['card']} ({c['confidence']:.2f}{'' if c['sure'] else ', unsure: confirm'})"
                              for c in cards) or "no card found"
            if backs:
                found += f"; {len(backs)} card{'s' if len(backs) > 1 else ''} face down"
            if rec.foreign:     # found, but a card of no card id of this deck (a UNO card on a DINO 2 table)
                found += (f"; {rec.foreign} card{'s' if rec.foreign > 1 else ''} of another deck "
                          f"(not {args.deck}): not read")
            print(f"{path}: {found}")
    return status


def _seats(text: str) -> dict[str, float]:
    seats = {}
    for part in text.split(","):
        name, _, edge = part.partition("=")
        try:
            value = float(edge)
        except ValueError:
            value = -1.0
        if not name.strip() or not 0 <= value < 4 or name.strip() in seats:
            raise argparse.ArgumentTypeError(f"{part!r}: give each seat once as NAME=EDGE with EDGE from 0 to 4 "
                                             f"(its place along the picture's edge)")
        seats[name.strip()] = value
    return seats


def run_watch(args) -> int:
    from vision.track.pipeline import TablePipeline
    rec = _recognizer(args.deck, args.locator, args.taught)
    if rec is None:
        return 2
    try:
        pipe = TablePipeline(args.src, args.deck, discard_roi=args.discard, draw_roi=args.draw, reveal=args.reveal,
                             realtime=args.realtime, recognizer=rec, seats=args.seats)
    except FileNotFoundError as e:
        print(f"tableref: {e}", file=sys.stderr)
        return 2

    def show(ev):
        if args.json:
            print(json.dumps(ev), flush=True)
        else:
            what = ev.get("cards") or ev.get("card") or ""
            extra = " (unconfirmed)" if ev.get("unconfirmed") else ""
            if ev.get("type") == "play" and args.seats:
                extra += f" by {ev.get('seat') or 'nobody seen'} ({ev.get('seat_confidence', 0):.0%})"
            print(f"{ev['t']:8.2f}s {ev['type']} {what}{extra}", flush=True)

    pipe.run(show)
    if pipe.status["state"] == "error":
        print(f"tableref: {pipe.status['message']}", file=sys.stderr)
        return 2
    return 0


def run_train(args) -> int:
    import time
    from pathlib import Path
    from referee import load_deck
    from vision.errors import BUNDLED as MODELS
    from vision.read.train import fit, make_set, select_prints
    if args.detector:
        args.seed = 1 if args.seed is None else args.seed
        return _train_detector(args)
    if args.confidence:
        return _fit_confidence(args)
    args.seed = 1 if args.seed is None else args.seed
    if args.net:
        return _train_net(args)
    args.epochs = args.epochs or 40
    deck = load_deck(args.deck)
    try:
        prints = select_prints(args.prints, args.exclude_print)
    except ValueError as e:
        print(f"tableref: {e}", file=sys.stderr)
        return 2
    from vision.art import UNO_FAMILY
    from vision.art.style import PRINTS
    if prints is not None and deck.id not in UNO_FAMILY:
        print(f"tableref: --prints and --exclude-print are for the {'/'.join(UNO_FAMILY)} art", file=sys.stderr)
        return 2
    from vision.recognizer import MODEL_FOR_DECK
    # each deck its own file (uno and ono share one, as MODEL_FOR_DECK says)
    out = Path(args.out) if args.out else MODELS / MODEL_FOR_DECK.get(deck.id, f"{deck.id}-symbols.npz")
    # a designed deck's table may see a stray UNO card: its model learns them as "another deck"
    others = args.others if args.others is not None else (0.0 if deck.id in UNO_FAMILY else 0.15)
    if not 0.0 <= others < 1.0:
        print("tableref: --others must be at least 0 and below 1", file=sys.stderr)
        return 2
    if not 0.0 < args.outline_error <= 4.0:
        print("tableref: --outline-error must be above 0 and at most 4", file=sys.stderr)
        return 2
    t0 = time.time()
    only = f", prints {', '.join(prints)}" if prints else ""
    print(f"rendering {args.samples} training samples of deck {deck.id} (seed {args.seed}{only})", flush=True)
    x, y, names = make_set(deck, args.samples, args.seed, prints=prints, others=others,
                           outline_error=args.outline_error)
    meta = {"deck": deck.id, "samples": args.samples, "epochs": args.epochs, "seed": args.seed,
            "others": others, "outline_error": args.outline_error,
            "command": "tableref train " + " ".join(sys.argv[2:])}
    if deck.id in UNO_FAMILY:    # which print families the model saw (leave-one-print-out)
        meta["prints"] = list(prints or PRINTS)
    model = fit(x, y, names, epochs=args.epochs, seed=args.seed, meta=meta)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"wrote {out} in {time.time() - t0:.0f} s")
    return 0


def _fit_confidence(args) -> int:
    """`train --confidence`: the confidence map (vision/read/calibrate.py) of the deck's recognizer
    as shipped, fitted on fresh synthetic photos, written beside its symbol model."""
    import time
    from pathlib import Path
    from vision.errors import BUNDLED as MODELS, ModelError, models_dir
    from vision.read.calibrate import ConfidenceMap
    from vision.read.train_confidence import SEED, fit_confidence
    from vision.recognizer import MODEL_FOR_DECK, Recognizer, confidence_map_for
    closeups = args.closeups or 600       # (0, the detector's default: none of its own)
    scenes = 100 if args.scenes is None else args.scenes
    if closeups < 0 or scenes < 0 or closeups + scenes == 0:
        print("tableref: --closeups and --scenes must not be negative, nor both 0", file=sys.stderr)
        return 2
    try:
        rec = Recognizer(args.deck)
    except (KeyError, ModelError) as e:
        print(f"tableref: {e.args[0] if isinstance(e, KeyError) else e}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else confidence_map_for(models_dir() / MODEL_FOR_DECK[rec.deck.id])
    seed = SEED if args.seed is None else args.seed
    print(f"reading {closeups} close-ups and {scenes} table scenes of deck {rec.deck.id} (seed {seed})", flush=True)
    t0 = time.time()
    # the cards read, kept to fit again or study: beside a map written elsewhere, else in build/
    readings = (out.parent if args.out else MODELS.parent / "build" / "confidence") / f"{out.stem}-readings.jsonl"
    m = fit_confidence(rec, closeups, scenes, seed, log=lambda line: print(line, flush=True), readings=readings)
    meta = dict(m.meta, command="tableref train " + " ".join(sys.argv[2:]))
    ConfidenceMap(m.below, m.above, meta).save(out)
    print(f"{meta['readings']} cards read, {meta['right']} right; sure {meta['sure']}, of them {meta['sure_right']} "
          f"right; expected calibration error {meta['ece_before']:.3f} -> {meta['ece_after']:.3f} on these photos")
    print(f"wrote {out} in {time.time() - t0:.0f} s (each card read: {readings})")
    return 0


def _train_net(args) -> int:
    """The symbol network (vision/read/net.py): glyphs rendered in two processes, then PyTorch on
    the CPU, exported to ONNX."""
    import time
    from pathlib import Path
    try:
        import torch  # noqa: F401
        import onnx  # noqa: F401
    except ImportError:
        print("tableref train --net needs torch and onnx: .venv/bin/pip install -e '.[train]'", file=sys.stderr)
        return 2
    from vision.art import UNO_FAMILY
    from vision.read.train import select_prints
    from vision.read.train_net import export, fit, render_set
    from vision.recognizer import NET_FOR_DECK
    if args.deck not in UNO_FAMILY:
        print(f"tableref: the symbol network is for the {'/'.join(UNO_FAMILY)} art", file=sys.stderr)
        return 2
    epochs = args.epochs or 8
    if args.samples < 100 or epochs < 1:
        print("tableref: need --samples >= 100 and --epochs >= 1", file=sys.stderr)
        return 2
    try:
        prints = select_prints(args.prints, ())
        select_prints(None, args.exclude_print)        # the names are checked before rendering
    except ValueError as e:
        print(f"tableref: {e}", file=sys.stderr)
        return 2
    from vision.errors import BUNDLED as MODELS
    out = Path(args.out) if args.out else MODELS / NET_FOR_DECK[args.deck]
    t0 = time.time()
    print(f"rendering {args.samples} glyphs of deck {args.deck} (seed {args.seed})", flush=True)
    data = render_set(args.deck, args.samples, args.seed, prints=prints)
    net, meta = fit(data, epochs, seed=args.seed, exclude=args.exclude_print)
    meta.update(deck=args.deck, command="tableref train " + " ".join(sys.argv[2:]))
    export(net, meta, out)
    print(f"wrote {out} in {time.time() - t0:.0f} s")
    return 0


def _train_detector(args) -> int:
    from pathlib import Path
    try:
        import ultralytics  # noqa: F401
    except ImportError:
        print("tableref train --detector needs ultralytics: .venv/bin/pip install -e '.[train]'", file=sys.stderr)
        return 2
    from vision.locate.detector import DEFAULT_MODEL
    from vision.locate.train import train
    epochs = args.epochs or 15
    if (args.images < 10 or args.closeups < 0 or epochs < 1 or not 64 <= args.imgsz <= 1280
            or (args.lr0 is not None and not 0 < args.lr0 <= 0.1) or not 0 <= args.edged <= 1
            or args.workers < 0 or args.render_workers < 1 or args.batch < 1
            or (args.hours is not None and not args.hours > 0)):
        print("tableref: need --images >= 10, --closeups >= 0, --epochs >= 1, 64 <= --imgsz <= 1280, "
              "0 < --lr0 <= 0.1, 0 <= --edged <= 1, --workers >= 0, --render-workers >= 1, --batch >= 1, "
              "--hours > 0",
              file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else DEFAULT_MODEL
    if args.export:
        return _export_detector(Path(args.export), out)
    if args.device != "cpu":
        import torch
        if not torch.cuda.is_available() or not all(
                d.isdigit() and int(d) < torch.cuda.device_count() for d in args.device.split(",")):
            print(f"tableref: no GPU {args.device} here (torch sees {torch.cuda.device_count()}); "
                  "--device takes cpu or a GPU's index", file=sys.stderr)
            return 2
    if args.init and not Path(args.init).is_file():
        print(f"tableref: no weights at {args.init}", file=sys.stderr)
        return 2
    if args.init and args.init.endswith(".int8.onnx"):
        print(f"tableref: {args.init} is the int8 run-time twin; continue from the float model "
              f"{args.init.removesuffix('.int8.onnx')}.onnx", file=sys.stderr)
        return 2
    train(images=args.images, epochs=epochs, imgsz=args.imgsz, seed=args.seed, out=out, init=args.init,
          closeups=args.closeups, lr0=args.lr0, edged=args.edged, device=args.device, workers=args.workers,
          render_workers=args.render_workers, batch=args.batch, hours=args.hours,
          command="tableref train " + " ".join(sys.argv[2:]))
    print(f"wrote {out} and {out.with_suffix('.json')}")
    return 0


def _export_detector(weights, out) -> int:
    """`train --detector --export RUN/weights/best.pt`: the ONNX export of a run's weights, its model
    card taken from the run's card.json (every run writes one beside its weights, see train())."""
    import json
    from vision.locate.train import export
    card_file = weights.parent.parent / "card.json"
    if not weights.is_file() or weights.suffix != ".pt":
        print(f"tableref: no .pt weights at {weights}", file=sys.stderr)
        return 2
    try:
        card = json.loads(card_file.read_text())
        imgsz = int(card["imgsz"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"tableref: {card_file} (the run's model card) is missing or unreadable: {exc}", file=sys.stderr)
        return 2
    try:
        export(weights, out, imgsz, card)
    except Exception as exc:   # a truncated or foreign checkpoint: torch's and ultralytics' errors vary
        print(f"tableref: cannot export {weights}: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {out} and {out.with_suffix('.json')}")
    return 0
