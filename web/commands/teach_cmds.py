"""`tableref teach`: a deck taught from a folder of photos (issue 15, vision/teach/)."""
from __future__ import annotations

import json
import sys


def register(sub) -> None:
    p = sub.add_parser("teach", help="teach tableref a deck from a few photos of each card")
    p.add_argument("--deck", required=True, help="the deck the cards belong to (`tableref cards DECK` lists its ids)")
    p.add_argument("--from", dest="folder", required=True, metavar="FOLDER",
                   help="one subfolder per card id holding 1-5 photos of that card (FOLDER/red-7/*.jpg); "
                        "FOLDER/back/ may hold 1-5 photos of the deck's back")
    p.add_argument("--out", required=True, metavar="TAUGHT",
                   help="the taught deck to write (.npz); read it with --taught on identify, watch, serve, demo")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(run=run_teach)


def progress_line(done: int, total: int, cards: int, seconds: float, look: int = 1, start: int = 0,
                  width: int = 24) -> str:
    """`[#######.................]  12/54 photos, 10 cards done, 8 s left`; a look again at the
    photos (`look` 2 and on, from photo `start`) is named: `look 2: [###...] 12/54 photos looked at
    again, ...`, its time left from its own pace."""
    fill = int(width * done / max(total, 1))
    pace = seconds / (done - start) if done > start else 0.0
    again = f"look {look}: " if look > 1 else ""
    return (f"{again}[{'#' * fill}{'.' * (width - fill)}] {done:>3}/{total} photos{' looked at again' if again else ''}, "
            f"{cards} cards done, {pace * (total - done):.0f} s left")


def run_teach(args) -> int:
    from vision.teach.file import save
    from vision.teach.teach import TeachError, teach_folder
    from .vision_cmds import _recognizer
    from vision.errors import ModelError
    from vision.teach.embed import check_networks
    rec = _recognizer(args.deck, text=False)
    if rec is None:
        return 2
    try:
        check_networks()
    except ModelError as e:
        print(f"tableref: {e}", file=sys.stderr)
        return 2
    tty = sys.stderr.isatty()

    def progress(done, total, cards, seconds, look=1, start=0):
        line = progress_line(done, total, cards, seconds, look, start)
        # a terminal sees one bar redrawn; a log gets a line every tenth of the way
        if tty:
            print("\r" + line, end="" if done < total else "\n", file=sys.stderr, flush=True)
        elif done == total or done % max(1, total // 10) == 0:
            print(line, file=sys.stderr, flush=True)

    try:
        td, report = teach_folder(rec, args.folder, progress)
        save(td, args.out)
    except TeachError as e:
        print(f"tableref: {e}; nothing written", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ntableref: interrupted; nothing written ({args.out} is as it was)", file=sys.stderr)
        return 130
    except OSError as e:
        print(f"tableref: cannot write {args.out}: {e.strerror or e}; nothing written", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(dict(report.as_json(), out=args.out)))
    else:
        print(format_report(report, args.out))
    return 0


def builtin_standing(r) -> str:
    """What the built-in recognizer's showing on the teach photos makes of it (reader.combine)."""
    if not r.builtin_trusted:
        return " (a stranger to this deck: it never overrules the taught cards)"
    if not r.builtin_sure:
        # (right on half of them or more, too few to be sure of: vision/teach/deck.py BUILTIN_SURE)
        return " (right on too few to be sure of on this deck: it never makes a reading sure, nor changes its colour)"
    return ""


def format_report(r, out: str) -> str:
    lines = [f"taught {len(r.taught)} of {r.cards} cards of {r.deck} from {r.photos_used} photos "
             f"in {r.seconds:.1f} s -> {out}"]
    if r.border != "white":
        lines.append(f"border: {r.border} (learned from the photos: cards of this deck are found by it)")
    if r.faces == "white":
        lines.append("faces: white inside as well as round (learned from the photos: a deck drawn on white card stock)")
    if r.aspect is not None:
        lines.append(f"shape: {r.aspect:.2f} to 1, long side to short (learned from the photos: cards of this "
                     f"deck are looked for in it; a standard card is 1.55 to 1)")
    if r.missing:
        lines.append(f"not taught ({len(r.missing)}, read by the built-in recognizer): {', '.join(r.missing)}")
    if r.builtin_total:
        lines.append(f"built-in recognizer on these photos: {r.builtin_right}/{r.builtin_total} right, "
                     f"{r.builtin_sure_wrong} wrong but sure"
                     + builtin_standing(r))
    if r.backs:
        told = (f"; leave-one-photo-out: {r.back_loo_right}/{r.back_loo_total} told as the back"
                if r.back_loo_total else "")
        lines.append(f"back: taught from {r.backs} photo{'s' if r.backs > 1 else ''} (a card lying face down "
                     f"is not read as a card){told}")
    else:
        lines.append("back: not taught (photos of it in FOLDER/back/ teach it: a card lying face down is then "
                     "not read as a card)")
    for path, why in r.refused:
        lines.append(f"refused {path}: {why}")
    if r.loo_total:
        lines.append(f"leave-one-photo-out: {r.loo_right}/{r.loo_total} photos read right "
                     f"({r.loo_accuracy:.1%}), {r.loo_sure_wrong} wrong but sure"
                     + (f", {r.loo_as_back} taken for the back" if r.loo_as_back else ""))
    else:
        lines.append("leave-one-photo-out: no estimate (no card has two photos; two per card give one)")
    return "\n".join(lines)
