"""Who played: seat attribution of the vision pipeline on fresh synthetic recordings (issue 16).

From --seed, generates --recordings recordings with vision/synth/seated.py (3 to 5 players round a
random table and camera, every card carried to the pile by its player's arm; some plays with a
second hand reaching in at the same moment, some with the hand resting on the pile), runs the
table pipeline on each with the seats marked where an arm straight from each seat crosses the
picture's edge, moved by a host's tap error (normal, 0.03 of a side), and compares the `seat` of
every `play` event with who really played.

A true play is matched with the first play event between its card landing and the next true
play's landing. Seats are scored on the plays the pipeline saw (a card never read is the card
reader's miss, counted in plays_seen; seat_accuracy_all_plays counts it as not right). Per play: right (seat named is the player), sure (seat_confidence >= SURE, the
web charges it; below, the phones ask), wrong-but-sure (sure and not the player: the error that
costs a game). A play the pipeline did not see counts as not right. Also the time the hand watch
adds to a frame (HandWatch.update, median), and the median frame of the whole pipeline.

    .venv/bin/python bench/seats.py [--seed N] [--recordings K] [--plays P] [--keep DIR] [--json]
    .venv/bin/python bench/seats.py --speed      # the demo recording with and without the hand watch
    .venv/bin/python bench/seats.py --recordings 0 --prison    # only the California Prison game

Reveal: --reveal N hands (default 40) shown to the camera (vision/synth/shown_hand.py, seeds from --seed + 500), read
as reveal mode reads a still picture: reveal_top1 is the share of whole cards read right. This
measures the reading only; in the app the table confirms or fixes the list before the referee rules
(docs/api.md, "Reading a shown hand"), so a misread card costs a correction, not a wrong ruling.

With --json the last line is {"seat_accuracy", "seat_wrong_sure", "reveal_top1", "plays",
"plays_seen", "seat_accuracy_all_plays", "reveal", ...}.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.synth.seated import render_seated  # noqa: E402
from vision.track.pipeline import TablePipeline  # noqa: E402
from vision.track.seats import PERIMETER, SURE  # noqa: E402

TAP_ERROR = 0.03


def run_one(folder: Path, seed: int, plays: int) -> dict:
    meta = render_seated(str(folder), seed, plays=plays)
    tap = random.Random(seed + 1)
    seats = {name: (s["edge"] + tap.gauss(0, TAP_ERROR)) % PERIMETER for name, s in meta["seats"].items()}
    p = TablePipeline(str(folder / "seated.mp4"), "ono", realtime=False, seats=seats)
    update, hand_ms = p.hands.update, []

    def timed(*a, **k):
        t0 = time.perf_counter()
        update(*a, **k)
        hand_ms.append((time.perf_counter() - t0) * 1000)
    p.hands.update = timed
    events: list[dict] = []
    p.run(events.append)
    seen = [e for e in events if e["type"] == "play"]
    fps = meta["fps"]
    rows = []
    truth = meta["plays"]
    for i, tp in enumerate(truth):
        start = tp["land_frame"] / fps - 0.05
        end = truth[i + 1]["land_frame"] / fps - 0.05 if i + 1 < len(truth) else float("inf")
        got = next((e for e in seen if start <= e["t"] < end), None)
        rows.append({"seed": seed, "kind": tp["kind"], "player": tp["player"], "card": tp["card"],
                     "seen": got is not None, "card_read": got is not None and got["cards"] == [tp["card"]],
                     "seat": got and got.get("seat"), "confidence": got and got.get("seat_confidence"),
                     "likely": got and got.get("seat_likely"), "hands": got and got.get("hands")})
    return {"meta": meta, "rows": rows, "hand_ms": hand_ms, "frame_ms": p.frame_ms}


def demo_speed(rounds: int = 2) -> dict:
    """Median frame of the pipeline on the demo recording (frames decoded beforehand) with the hand
    watch and with it switched off, alternating runs (the machine is shared), and the hand watch
    alone: what seat attribution adds to a frame."""
    from vision.camera import decoded_frames
    frames, _ = decoded_frames(ROOT / "datasets" / "demo" / "demo.mp4")
    from vision.recognizer import Recognizer
    rec = Recognizer("ono")
    got: dict[str, list[float]] = {"with": [], "without": [], "hand watch": []}
    for _ in range(rounds):
        for mode in ("without", "with"):
            p = TablePipeline(str(ROOT / "datasets" / "demo" / "demo.mp4"), "ono", realtime=False, recognizer=rec,
                              seats={"Ana": 2.4, "Ben": 3.9, "Cleo": 1.1})
            update = p.hands.update
            if mode == "without":
                p.hands.update = lambda *a, **k: None
            else:
                def timed(*a, **k):
                    t0 = time.perf_counter()
                    update(*a, **k)
                    got["hand watch"].append((time.perf_counter() - t0) * 1000)
                p.hands.update = timed
            for i, f in enumerate(frames):
                t0 = time.perf_counter()
                p.process(i / 30, f)
                got[mode].append((time.perf_counter() - t0) * 1000)
    return {k: round(float(np.median(v)), 2) for k, v in got.items()} | {"frames": len(frames), "rounds": rounds}


def prison_game(folder: Path) -> dict:
    """The California Prison game of vision/synth/prison_demo.py acted out at a seated table: the
    jump-ins among the plays the pipeline saw, and how many were charged to the right player
    (sure), asked, or charged to someone else (sure and wrong)."""
    from referee import Game
    from vision.synth.prison_demo import render_prison_demo
    meta = render_prison_demo(str(folder))
    log = [json.loads(line) for line in (folder / "demo.events.jsonl").read_text().splitlines() if line.strip()]
    names = log[0]["players"]
    p = TablePipeline(str(folder / "demo.mp4"), "uno", realtime=False,
                      seats={n: s["edge"] for n, s in meta["seats"].items()})
    p.doubles_together = True
    events: list[dict] = []
    p.run(events.append)
    seen = [e for e in events if e["type"] == "play"]
    fps, game = meta["fps"], Game()
    plays = [c for c in meta["card_events"] if c["type"] == "play"]
    out = {"plays": len(plays), "seen": 0, "jump_ins": 0, "jump_ins_seen": 0, "right_sure": 0, "asked": 0,
           "wrong_sure": 0, "cards_read_right": 0}
    k = 0
    for i, e in enumerate(log):
        current = game.to_dict().get("current_player")
        game.submit(e)
        if e["type"] != "play":
            continue
        c = plays[k]
        k += 1
        jump = e["player"] != current
        out["jump_ins"] += jump
        start = c["land_frame"] / fps - 0.05
        end = plays[k]["land_frame"] / fps - 0.05 if k < len(plays) else float("inf")
        got = next((x for x in seen if start <= x["t"] < end), None)
        if got is None:
            continue
        out["seen"] += 1
        out["cards_read_right"] += sorted(got["cards"]) == sorted(e["cards"])
        if not jump:
            continue
        out["jump_ins_seen"] += 1
        sure = (got.get("seat_confidence") or 0) >= SURE
        right = got.get("seat") == names[e["player"]]
        out["right_sure" if sure and right else "wrong_sure" if sure else "asked"] += 1
    return out


def report(rows, seen, tables, hand_ms, frame_ms, result) -> None:
    n = len(rows)
    print("recordings:")
    for line in tables:
        print("  " + line)
    print(f"plays: {n}, seen by the pipeline: {sum(r['seen'] for r in rows)}, card read right: "
          f"{sum(r['card_read'] for r in rows)}")
    print("of the plays the pipeline saw:")
    print(f"{'kind':<10} {'plays':>5} {'right':>6} {'sure':>6} {'sure+right':>10} {'wrong+sure':>10}")
    for kind in ["all"] + sorted(Counter(r["kind"] for r in seen)):
        rs = seen if kind == "all" else [r for r in seen if r["kind"] == kind]
        if not rs:
            continue
        s = [r for r in rs if r["confidence"] is not None and r["confidence"] >= SURE]
        print(f"{kind:<10} {len(rs):>5} {sum(r['seat'] == r['player'] for r in rs) / len(rs):>6.1%} "
              f"{len(s) / len(rs):>6.1%} {sum(r['seat'] == r['player'] for r in s) / len(rs):>10.1%} "
              f"{sum(r['seat'] != r['player'] for r in s) / len(rs):>10.1%}")
    for r in seen:
        if r["seat"] != r["player"]:
            print(f"  not right: seed {r['seed']} {r['kind']} {r['player']} {r['card']}: named {r['seat']} "
                  f"({r['confidence']}), likely {r['likely']}, hands {r['hands']}")
    print(f"time: hand watch {np.median(hand_ms):.2f} ms median a frame (p95 {np.percentile(hand_ms, 95):.2f}); "
          f"whole pipeline frame {np.median(frame_ms):.2f} ms median")
    print(f"seat accuracy {result['seat_accuracy']:.1%} of the plays seen (target >= 95%; "
          f"{result['seat_accuracy_all_plays']:.1%} of all plays), wrong but sure {result['seat_wrong_sure']:.1%} "
          f"(target <= 1%); sure = seat_confidence >= {SURE}")


def reveal_reading(seed: int, hands: int) -> dict:
    """Reveal mode's reading of shown hands (vision/synth/shown_hand.py: 3 to 9 cards laid out in
    one or two rows): the recognizer on the still picture, as TablePipeline does in reveal mode.
    A card counts when it is whole in the picture; it is read right when the reading whose outline
    centre lies on it names it. Also the readings sure (confidence >= 0.6, the recognizer's own
    threshold) and wrong."""
    import cv2
    from vision.recognizer import CONFIRM_THRESHOLD, Recognizer
    from vision.synth.shown_hand import shown_hand
    rec = Recognizer("ono")
    cards = right = wrong_sure = 0
    for k in range(hands):
        img, truth = shown_hand(seed + k)
        readings = rec.read(img)
        for t in truth:
            if t["visible"] < 0.95:
                continue
            cards += 1
            q = np.float32(t["quad"])
            hit = next((r for r in readings
                        if cv2.pointPolygonTest(q, tuple(float(v) for v in r.quad.pts.mean(axis=0)), False) >= 0), None)
            if hit is not None and hit.card == t["card"]:
                right += 1
            elif hit is not None and hit.confidence >= CONFIRM_THRESHOLD:
                wrong_sure += 1
    return {"hands": hands, "cards": cards, "right": right, "wrong_sure": wrong_sure,
            "top1": round(right / max(1, cards), 4)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1000, help="recordings are made from seeds N, N+1, ...")
    ap.add_argument("--recordings", type=int, default=4)
    ap.add_argument("--plays", type=int, default=24, help="plays per recording")
    ap.add_argument("--keep", help="write the recordings here (default: a temporary folder, removed)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--speed", action="store_true", help="only time the pipeline on the demo recording with and "
                                                         "without the hand watch")
    # 40 hands (about 240 cards): 20 hands swung by 2 to 3 points from one seed to the next (fresh seed
    # 3500: 0.950 on its first 20 hands, 0.970 on 40), and the documented figures were always 40
    ap.add_argument("--reveal", type=int, default=40, metavar="N",
                    help="shown hands to read in reveal mode (reveal_top1; 0: skip)")
    ap.add_argument("--prison", action="store_true", help="also act out the California Prison game of "
                                                          "vision/synth/prison_demo.py and score its jump-ins")
    args = ap.parse_args()
    if args.speed:
        got = demo_speed()
        print(f"demo recording, {got['frames']} frames x {got['rounds']}: median frame {got['without']} ms without "
              f"the hand watch, {got['with']} ms with it; the hand watch alone {got['hand watch']} ms")
        print(json.dumps(got) if args.json else "", end="\n" if args.json else "")
        return 0
    rows, hand_ms, frame_ms, tables = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep) if args.keep else Path(tmp)
        for k in range(args.recordings):
            seed = args.seed + k
            one = run_one(base / f"seed-{seed}", seed, args.plays)
            rows += one["rows"]
            hand_ms += one["hand_ms"]
            frame_ms += one["frame_ms"]
            m = one["meta"]
            tables.append(f"seed {seed}: {len(m['players'])} players, table {m['table']}, {m['frames']} frames")
    n = len(rows)
    seen = [r for r in rows if r["seen"]]
    right = [r for r in seen if r["seat"] == r["player"]]
    sure = [r for r in seen if r["confidence"] is not None and r["confidence"] >= SURE]
    wrong_sure = [r for r in sure if r["seat"] != r["player"]]
    # Seat attribution is scored on the plays the pipeline saw: a card it never read is the card
    # reader's miss (docs/vision.md), reported as plays_seen, not a seat named wrong.
    result = {"seat_accuracy": round(len(right) / max(1, len(seen)), 4),
              "seat_wrong_sure": round(len(wrong_sure) / max(1, len(seen)), 4),
              "reveal_top1": None, "plays": n, "plays_seen": len(seen),
              "seat_accuracy_all_plays": round(len(right) / max(1, n), 4)}
    if n:
        report(rows, seen, tables, hand_ms, frame_ms, result)
    else:                        # --recordings 0: nothing measured, not a score of 0
        result.update(seat_accuracy=None, seat_wrong_sure=None, seat_accuracy_all_plays=None)
    if args.reveal:
        rv = reveal_reading(args.seed + 500, args.reveal)
        result["reveal_top1"] = rv["top1"]
        result["reveal"] = rv
        print(f"reveal: {rv['hands']} shown hands, {rv['cards']} cards whole in the picture, {rv['right']} read right "
              f"(top-1 {rv['top1']:.1%}, target >= 97%), {rv['wrong_sure']} read wrong but sure")
    if args.prison:
        with tempfile.TemporaryDirectory() as tmp:
            pr = prison_game(Path(args.keep) / "prison" if args.keep else Path(tmp))
        print(f"prison game: {pr['plays']} plays, {pr['seen']} seen ({pr['cards_read_right']} with every card read "
              f"right); jump-ins {pr['jump_ins']}, {pr['jump_ins_seen']} seen: {pr['right_sure']} charged to the "
              f"jumper, {pr['asked']} asked, {pr['wrong_sure']} charged to someone else")
        result["prison"] = pr
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
