"""A camera short of CPU: the bundled recordings fed to TablePipeline one frame in k, as a live
camera delivers them to a host too busy to take every frame (the pipeline keeps only the newest).

For each recording and each k, the cards reported (flips and plays, a double counted card by card)
against the recording's true log: how many of them in order (the longest common subsequence),
how many more (invented or doubled), and the settle delay (event time minus the frame where the
hand that brought the card stopped, demo.frames.json `settled_frame`; median and worst: negative
where the pile lay still before the hand had left the picture). Each cell is run twice in the same run:
with the rest counted from the frame a still one was compared with (the tracker as shipped,
`PileTracker.rest_from_compared`) and, as the peer, from the first still frame (before session 50).
No timing of this machine is involved: frames are taken by their index, so the figures repeat.

    .venv/bin/python bench/starved_camera.py [--every 1,3,6,9,12,15] [--recordings ono,prison]
"""
from __future__ import annotations

import argparse
import difflib
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.camera import decoded_frames  # noqa: E402
from vision.track.pipeline import TablePipeline  # noqa: E402

RECORDINGS = {"ono": (ROOT / "datasets" / "demo", "ono"), "prison": (ROOT / "datasets" / "demo-prison", "uno")}


def recording(folder: Path) -> dict:
    """What a run needs of a bundled recording, read once: its frames, fps, true cards in order and
    the time each came to rest (one entry a card, or one a play of several cards: a double put down
    at once, each card its rest)."""
    meta = json.loads((folder / "demo.frames.json").read_text())
    fps = meta["fps"]
    truth = [json.loads(line) for line in (folder / "demo.events.jsonl").read_text().splitlines() if line.strip()]
    return {"frames": decoded_frames(folder / "demo.mp4")[0], "fps": fps, "video": str(folder / "demo.mp4"),
            "cards": [c for e in truth if e["type"] in ("flip", "play") for c in _cards(e)],
            "rested": [c["settled_frame"] / fps for c in meta["card_events"] if c["type"] in ("flip", "play")
                       for _ in (c.get("cards") or [c["card"]])]}


def _cards(event: dict) -> list[str]:
    return [event["card"]] if event["type"] == "flip" else event["cards"]


def run(rec: dict, deck: str, every: int, from_compared: bool) -> dict:
    p = TablePipeline(rec["video"], deck)
    p.tracker.rest_from_compared = from_compared
    frames, fps = rec["frames"], rec["fps"]
    seen: list[tuple[str, float]] = []
    for i in range(0, len(frames), every):
        for e in p.process(i / fps, frames[i]):
            if e["type"] in ("flip", "play"):
                seen += [(c, e["t"]) for c in _cards(e)]
    sm = difflib.SequenceMatcher(None, [c for c, _ in seen], rec["cards"], autojunk=False)
    delays = [seen[b.a + j][1] - rec["rested"][b.b + j] for b in sm.get_matching_blocks() for j in range(b.size)]
    right = len(delays)
    return {"cards": len(rec["cards"]), "right": right, "extra": len(seen) - right,
            "delay_median": statistics.median(delays) if delays else None, "delay_max": max(delays, default=None)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--every", default="1,3,6,9,12,15")
    ap.add_argument("--recordings", default="ono,prison")
    args = ap.parse_args()
    print("| recording | frames kept | frames/s | rest counted from | cards in order | extra | settle delay median / max (s) |")
    print("|---|---:|---:|---|---:|---:|---|")
    for name in args.recordings.split(","):
        folder, deck = RECORDINGS[name]
        rec = recording(folder)
        fps = rec["fps"]
        for k in (int(x) for x in args.every.split(",")):
            row = {}
            for from_compared in (True, False):
                r = row[from_compared] = run(rec, deck, k, from_compared)
                delay = "-" if r["delay_median"] is None else f"{r['delay_median']:.2f} / {r['delay_max']:.2f}"
                label = "the compared frame (shipped)" if from_compared else "the first still frame (peer)"
                print(f"| {name} | 1 in {k} | {fps / k:.1f} | {label} | {r['right']} of {r['cards']} | {r['extra']} | {delay} |")
            ratio = row[True]["right"] / max(row[False]["right"], 1)
            print(f"| {name} | 1 in {k} | | shipped / peer | {ratio:.2f} | | |")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
