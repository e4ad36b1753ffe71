"""`tableref identify`, `watch` and `train`: the recognizer from the command line."""
from __future__ import annotations

import json
import sys


def _roi(text: str):
    try:
        x, y, w, h = (int(v) for v in text.split(","))
    except ValueError:
        raise SystemExit(f"tableref: a region is x,y,w,h in pixels of the 640-wide frame, got {text!r}")
    return (x, y, w, h)


def register(sub) -> None:
    p = sub.add_parser("identify", help="recognize the cards in still images")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--deck", required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_identify)

    p = sub.add_parser("watch", help="run the vision pipeline on a video or camera and print its card events")
    p.add_argument("src", metavar="SRC", help="camera index, video file or stream URL")
    p.add_argument("--deck", required=True)
    p.add_argument("--json", action="store_true")
    p.add_argument("--reveal", action="store_true", help="read every card laid out in view instead of the pile")
    p.add_argument("--discard", type=_roi, metavar="X,Y,W,H", help="discard pile region (default: found by itself)")
    p.add_argument("--draw", type=_roi, metavar="X,Y,W,H", help="draw pile region (default: found by itself)")
    p.add_argument("--realtime", action="store_true", help="pace a video file at its own speed")
    p.set_defaults(run=run_watch)

    p = sub.add_parser("train", help="train the card symbol classifier on rendered card faces")
    p.add_argument("--deck", default="uno", help="deck whose art is rendered (uno and ono share one model)")
    p.add_argument("--samples", type=int, default=16000)
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None, help="model file (default: models/uno-symbols.npz)")
    p.set_defaults(run=run_train)


def _recognizer(deck: str):
    from vision.recognizer import Recognizer
    try:
        return Recognizer(deck)
    except KeyError as e:
        print(f"tableref: {e.args[0]}", file=sys.stderr)
        return None


def run_identify(args) -> int:
    import cv2
    rec = _recognizer(args.deck)
    if rec is None:
        return 2
    status = 0
    for path in args.images:
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None:
            print(f"tableref: cannot read image {path}", file=sys.stderr)
            status = 2
            continue
        cards = [r.as_json() for r in rec.read(img)]
        if args.json:
            print(json.dumps({"image": path, "cards": cards}))
        else:
            found = ", ".join(f"{c['card']} ({c['confidence']:.2f})" for c in cards) or "no card found"
            print(f"{path}: {found}")
    return status


def run_watch(args) -> int:
    from vision.pipeline import TablePipeline
    rec = _recognizer(args.deck)
    if rec is None:
        return 2
    try:
        pipe = TablePipeline(args.src, args.deck, discard_roi=args.discard, draw_roi=args.draw, reveal=args.reveal,
                             realtime=args.realtime, recognizer=rec)
    except FileNotFoundError as e:
        print(f"tableref: {e}", file=sys.stderr)
        return 2

    def show(ev):
        if args.json:
            print(json.dumps(ev), flush=True)
        else:
            what = ev.get("cards") or ev.get("card") or ""
            extra = " (unconfirmed)" if ev.get("unconfirmed") else ""
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
    from vision.recognizer import MODELS
    from vision.train import fit, make_set
    deck = load_deck(args.deck)
    out = Path(args.out) if args.out else MODELS / "uno-symbols.npz"
    t0 = time.time()
    print(f"rendering {args.samples} training samples of deck {deck.id} (seed {args.seed})", flush=True)
    x, y, names = make_set(deck, args.samples, args.seed)
    model = fit(x, y, names, epochs=args.epochs, seed=args.seed,
                meta={"deck": deck.id, "samples": args.samples, "epochs": args.epochs, "seed": args.seed,
                      "command": "tableref train " + " ".join(sys.argv[2:])})
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"wrote {out} in {time.time() - t0:.0f} s")
    return 0
