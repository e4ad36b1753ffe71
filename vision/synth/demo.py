"""The demo recording: a legal 3-player ONO! game, found by the referee's own simulator and checked
by it, animated on one synthetic table seen by a fixed camera. Hands reach in from each player's
side to put cards on the pile and to take cards from the draw pile.

Writes demo.mp4, demo.events.jsonl (the true log, replayable) and demo.frames.json (for every
card event, the frame where the card lands or leaves the draw pile and the frame where the hand
is gone: the ground truth for the vision pipeline's latency)."""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import cv2
import numpy as np

from vision.art import render_back, render_card, style_for

from .scene import Canvas, camera, footprint, photometric, to_image
from .tables import make_table

FPS = 30
NAMES = ["Ana", "Ben", "Cleo"]
GAME_SEED = 18          # a simulator game that has a wild, a card id played twice running, a winner


def scripted_game(seed: int = GAME_SEED) -> list[dict]:
    from referee.simulate import SimReport, play_one
    game = play_one("ono", 3, seed, None, SimReport("ono"))
    if game.state.winner is None:
        raise RuntimeError(f"simulator game {seed} has no winner")
    log = [dict(e) for e in game.log]
    log[0]["players"] = list(NAMES)
    return log


def _ease(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


def render_demo(out_dir: str, seed: int = GAME_SEED, size=(640, 480), codec: str | None = None) -> dict:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    events = scripted_game(seed)
    W, Hh = size
    S = int(max(W, Hh) * 1.5)
    g = np.random.default_rng(2024)
    rng = random.Random(2024)
    table, _ = make_table(g, S, kind="wood")
    H = camera(g, S, W, Hh, tilt=1.35, yaw=4.0, zoom=0.5)
    fp = footprint(H, W, Hh)
    centre = fp.mean(0)
    down = (fp[2] + fp[3]) / 2 - centre                 # towards the camera's near edge
    base_ang = math.degrees(math.atan2(down[1], down[0]))
    seat_dirs = [base_ang, base_ang + 120, base_ang - 120]
    cw = float(np.linalg.norm(fp[2] - fp[3])) * 0.17
    size_px = (int(cw * 1.2) // 8 * 8, int(int(cw * 1.2) // 8 * 8 * 87 / 56))
    style = style_for("ono", random.Random(5))
    faces = {}

    def face(cid):
        if cid not in faces:
            faces[cid] = render_card(cid, "ono", style=style, size=size_px)
        return faces[cid]

    back = render_back("ono", size=size_px)
    up = -down / (np.linalg.norm(down) + 1e-9)
    side = np.array([up[1], -up[0]])
    draw_pos = centre + side * cw * 2.2 + up * cw * 0.3
    pile_pos = centre - side * cw * 0.3
    base = Canvas(table.copy())
    draw_ang = base_ang + 90 + 8
    for i in range(6):
        base.place(back, draw_pos - i * 0.7, draw_ang + (i % 3 - 1) * 2, cw, "back", role="draw",
                   shadow=0.3 if i == 0 else 0.12)
    look = int(g.integers(1 << 30))      # one light for the whole recording; fresh noise each frame
    frames_json, frame_no = [], 0
    fourcc_used = None
    path = out / "demo.mp4"
    for cc in ([codec] if codec else ["avc1", "mp4v"]):
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*cc), FPS, (W, Hh))
        if writer.isOpened():
            fourcc_used = cc
            break
    if fourcc_used is None:
        raise RuntimeError("no MP4 encoder available in this OpenCV build")

    def emit(canvas_img, n=1):
        nonlocal frame_no
        img = to_image(canvas_img, H, W, Hh)
        for _ in range(n):
            gg = np.random.default_rng(look)
            lit = photometric(img, gg, strength=0.5)
            writer.write(lit)      # fixed sensor noise: a still scene stays cheap to encode
            frame_no += 1

    def reach(seat, target, carry=None, carry_ang=0.0, frames_in=16, frames_out=13, ev_seed=0,
              carry_out=None):
        """A hand from `seat` to `target`; with carry, the card rides in and is put down at the end
        of the approach; with carry_out, a card rides out. Returns (land frame, settled frame)."""
        ang = seat_dirs[seat] + rng.uniform(-12, 12)
        away = np.array([math.cos(math.radians(ang)), math.sin(math.radians(ang))])
        far = target + away * S * 0.6
        land = settled = None
        for k in range(frames_in + frames_out):
            if k < frames_in:
                t = _ease((k + 1) / frames_in)
            else:
                t = 1 - _ease((k - frames_in + 1) / frames_out)
            pos = far + (target - far) * t
            c = Canvas(base.img.copy())
            if carry is not None and k < frames_in - 1:
                c.place(carry, pos, carry_ang + (1 - t) * 25, cw, "moving", shadow=0.45, shadow_offset=(6, 8))
            if carry_out is not None and k >= frames_in:
                c.place(carry_out, pos, carry_ang, cw, "moving", shadow=0.45, shadow_offset=(6, 8))
            if carry is not None and k == frames_in - 1:
                base.place(carry, target, carry_ang, cw, "landed")
                c = Canvas(base.img.copy())
                land = frame_no
            hand_at = pos + away * cw * 0.35
            if np.linalg.norm(hand_at - target) < S * 0.75:
                c.hand(np.random.default_rng([seat, ev_seed]), hand_at, ang, cw * 0.95, skin=SKINS[seat],
                       sleeve=SLEEVES[seat])
            if carry_out is not None and k == frames_in:
                land = frame_no
            emit(c.img)
        settled = frame_no - 1
        return land, settled

    SKINS = [(95, 145, 205), (45, 75, 125), (120, 165, 225)]
    SLEEVES = [(150, 60, 30), (40, 120, 40), (60, 60, 170)]
    emit(base.img, 20)
    dealer = events[0]["dealer"]
    for idx, ev in enumerate(events):
        t = ev["type"]
        if t == "flip":
            off = np.array([rng.gauss(0, cw * 0.1), rng.gauss(0, cw * 0.1)])
            land, settled = reach(dealer, pile_pos + off, carry=face(ev["card"]),
                                  carry_ang=base_ang + 90 + rng.uniform(-30, 30), ev_seed=idx)
            frames_json.append({"event": idx, "type": t, "card": ev["card"], "land_frame": land,
                                "settled_frame": settled})
            emit(base.img, 8)
        elif t == "play":
            for j, cid in enumerate(ev["cards"]):
                off = np.array([rng.gauss(0, cw * 0.22), rng.gauss(0, cw * 0.22)])
                land, settled = reach(ev["player"], pile_pos + off, carry=face(cid),
                                      carry_ang=base_ang + 90 + rng.uniform(-45, 45), ev_seed=idx * 10 + j)
                frames_json.append({"event": idx, "type": t, "player": ev["player"], "card": cid,
                                    "land_frame": land, "settled_frame": settled})
            emit(base.img, 8)
        elif t == "draw":
            first = None
            for j in range(ev["count"]):
                land, settled = reach(ev["player"], draw_pos, carry_out=back, carry_ang=draw_ang,
                                      frames_in=11, frames_out=9, ev_seed=idx * 10 + j)
                first = first if first is not None else land
            frames_json.append({"event": idx, "type": t, "player": ev["player"], "count": ev["count"],
                                "land_frame": first, "settled_frame": settled})
            emit(base.img, 6)
        elif t != "setup":
            emit(base.img, 6)      # spoken events (colour named, ONO! called, pass): nothing to see
    emit(base.img, 30)
    writer.release()
    (out / "demo.events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    meta = {"fps": FPS, "width": W, "height": Hh, "frames": frame_no, "codec": fourcc_used,
            "game_seed": seed, "players": NAMES,
            "note": "land_frame: the first frame with the card at rest on the pile (for draws, the first "
                    "frame the card is off the draw pile); settled_frame: the last frame of the hand's "
                    "movement, after which the scene is still until the next event.",
            "card_events": frames_json}
    (out / "demo.frames.json").write_text(json.dumps(meta, indent=1))
    return meta


if __name__ == "__main__":      # python -m vision.synth.demo [OUT_DIR]: remakes datasets/demo
    import sys
    meta = render_demo(sys.argv[1] if len(sys.argv) > 1 else "datasets/demo")
    print(f"{meta['frames']} frames ({meta['frames'] / FPS:.1f} s, {meta['codec']}), "
          f"{len(meta['card_events'])} card events")
