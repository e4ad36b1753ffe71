"""`tableref print-deck` and `tableref synth`: printable decks and synthetic training sets."""
from __future__ import annotations

import sys


def register(sub) -> None:
    p = sub.add_parser("print-deck", help="print-and-play PDF of a deck at real card size (56 x 87 mm)")
    p.add_argument("deck")
    p.add_argument("--out", required=True, help="the PDF to write")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.add_argument("--dpi", type=int, default=300)
    p.add_argument("--duplex", action="store_true",
                   help="a mirrored back page after every face page, for double-sided printing")
    p.set_defaults(run=run_print_deck)

    p = sub.add_parser("synth", help="write a synthetic training set (YOLO pose format, 4 corners per card)")
    p.add_argument("--deck", required=True)
    p.add_argument("--out", required=True, help="the folder to write (images/, labels/, data.yaml)")
    p.add_argument("--images", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--imgsz", type=int, default=640, help="longer image side in pixels")
    p.add_argument("--val", type=float, default=0.1, help="fraction of images in the val split")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--task", choices=("pose", "obb", "obb-ids"), default="pose",
                   help="labels: pose (a class per card id, 4 corner keypoints), obb (oriented boxes of "
                        "card faces and backs, for the card detector) or obb-ids (oriented boxes, a class "
                        "per card id: the one-detector design the model card compares)")
    p.set_defaults(run=run_synth)


def _known_deck(deck: str) -> bool:
    from referee.cards import available_decks
    if deck not in available_decks():
        print(f"tableref: unknown deck {deck!r}; decks: {', '.join(available_decks())}", file=sys.stderr)
        return False
    return True


def run_print_deck(args) -> int:
    if not _known_deck(args.deck):
        return 2
    if not 72 <= args.dpi <= 600:
        print("tableref: --dpi must be between 72 and 600", file=sys.stderr)
        return 2
    from vision.art.printdeck import write_pdf
    pages = write_pdf(args.deck, args.out, paper=args.paper, dpi=args.dpi, duplex=args.duplex)
    print(f"wrote {args.out}: {pages} pages ({args.paper}, {args.dpi} dpi)")
    return 0


def run_synth(args) -> int:
    if not _known_deck(args.deck):
        return 2
    if args.images < 1 or not 64 <= args.imgsz <= 4096 or not 0 <= args.val < 1 or args.workers < 1:
        print("tableref: need --images >= 1, 64 <= --imgsz <= 4096, 0 <= --val < 1, --workers >= 1",
              file=sys.stderr)
        return 2
    import time
    from vision.synth.writer import write_dataset
    t0 = time.perf_counter()
    summary = write_dataset(args.deck, args.out, args.images, seed=args.seed, imgsz=args.imgsz,
                            val_fraction=args.val, workers=args.workers, task=args.task)
    dt = time.perf_counter() - t0
    print(f"wrote {summary['images']} images, {summary['cards']} card labels to {args.out} "
          f"in {dt:.1f} s ({summary['images'] / dt:.1f} images/s); contact sheet {summary['contact']}")
    return 0
