"""Recordings with seats: players around a synthetic table, each playing with their own arm.

The ground truth for "who played" (vision/track/hands.py, bench/seats.py). From a seed: 3 to 5
players sit round the table at roughly even angles, each with a skin tone and a sleeve (or a bare
arm) of their own; a camera at a random turn and tilt looks down at it. After the dealer's flip,
every card comes onto the pile carried by the hand of the player who plays it, in no particular
order (jump-ins, plays out of turn: the seats are what is measured, not the rules). Some steps
are visits to the draw pile. Some plays are harder on purpose:

- `two_hands`: another player's hand reaches towards the pile at the same moment;
- `resting`: the player's hand stays on the pile a while after putting the card down;
- `held_fan`: the player plays straight from the hand of cards they hold: a fan of 3 to 5 backs
  comes in with the hand, stays in it and leaves with it (about a quarter of the plain plays;
  drawn from a stream of its own, so the rest of a seed's recording is as before).

Writes NAME.mp4 and NAME.truth.json: the players, each seat's place on the picture's edge (where
an arm straight from that seat crosses the border, as border position `edge` and point x, y:
vision/track/seats.py) and, for every play, who played which card, its kind and its frames.

The demo recording (vision/synth/demo.py) is a separate generator and is left as it is.
"""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import cv2
import numpy as np

from vision.art import render_back, render_card, style_for
from vision.track.seats import edge_position

from .scene import SKIN, Canvas, camera, footprint, photometric, project, to_image
from .tables import make_table

FPS = 30
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli"]
SKINS = SKIN + [(25, 40, 70), (140, 180, 235)]           # BGR: light to very dark
SLEEVES = [None, (150, 60, 30), (40, 120, 40), (60, 60, 170), (30, 30, 30), (200, 200, 200), (40, 160, 200),
           (120, 40, 120)]                               # None: a bare arm
CARDS = ["red-1", "red-7", "blue-3", "blue-9", "green-2", "green-8", "yellow-4", "yellow-6", "red-skip",
         "blue-reverse", "green-draw2", "yellow-0", "red-5", "blue-6", "green-4", "yellow-9"]
KINDS = {"normal": 0.8, "two_hands": 0.08, "resting": 0.12}
HELD_FAN = 0.25       # share of the plain plays made from a fan of cards held in the hand
HELD_SPREAD = 18.0    # degrees between the cards of a held fan


def _ease(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


FAN_SHIFT = 0.72      # card widths between the cards of a double put down as a fan
FAN_TURN = 7.0        # degrees each card of the fan is turned from the one below


def fanned(cards: list, angle: float, cw: float) -> list[tuple]:
    """A double (or more) as players put it down: fanned, each card on the one before, shifted
    sideways so that the lower card's face shows but for a strip (its corner index, its numeral),
    as a player spreads a double for the table to see. (card, offset from the middle, turn) each,
    lower card first."""
    side = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    mid = (len(cards) - 1) / 2
    return [(card, side * cw * FAN_SHIFT * (i - mid), FAN_TURN * (i - mid)) for i, card in enumerate(cards)]


def seat_edge(pile_img: np.ndarray, direction_deg: float, pile_can: np.ndarray, H: np.ndarray, W: int, Hh: int,
              S: int) -> dict:
    """Where an arm straight from a seat crosses the picture's border: walk the seat's direction
    on the table from the pile until its image leaves the picture."""
    u = np.array([math.cos(math.radians(direction_deg)), math.sin(math.radians(direction_deg))])
    last = pile_img
    for r in np.linspace(0, S, 600):
        p = project(np.float32([pile_can + u * r]), H)[0]
        if not (0 <= p[0] < W and 0 <= p[1] < Hh):
            break
        last = p
    x, y = float(last[0]) / W, float(last[1]) / Hh
    return {"edge": round(edge_position(x, y), 4), "x": round(x, 4), "y": round(y, 4)}


def render_seated(out_dir: str, seed: int, name: str = "seated", plays: int = 24, players: int | None = None,
                  size=(640, 480), codec: str | None = None, script: list[dict] | None = None,
                  deck: str = "ono") -> dict:
    """Random plays by random seats (bench/seats.py), or with `script` (a game's event log, its
    setup first) that game as it was played: each card event by the hand of its player, doubles
    carried together and put down as a fan (`fanned`), draws taken from the draw pile, spoken events a
    short pause. The script's truth then goes to NAME.frames.json in the demo's format."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    g = np.random.default_rng(seed)
    if script is not None:
        players = len(script[0]["players"])
    n = players or rng.randint(3, 5)
    names = NAMES[:n] if script is None else list(script[0]["players"])
    W, Hh = size
    S = int(max(W, Hh) * 1.5)
    table, table_kind = make_table(g, S)
    H = camera(g, S, W, Hh, tilt=rng.uniform(1.0, 1.5), yaw=rng.uniform(-180, 180), zoom=rng.uniform(0.45, 0.55))
    fp = footprint(H, W, Hh)
    centre = fp.mean(0)
    cw = float(np.linalg.norm(fp[2] - fp[3])) * 0.17
    size_px = (int(cw * 1.2) // 8 * 8, int(int(cw * 1.2) // 8 * 8 * 87 / 56))
    style = style_for(deck, random.Random(seed))
    faces: dict[str, np.ndarray] = {}

    def face(cid):
        if cid not in faces:
            faces[cid] = render_card(cid, deck, style=style, size=size_px)
        return faces[cid]

    back = render_back(deck, size=size_px)
    turn = rng.uniform(0, 360)
    seat_dirs = [turn + i * 360 / n + rng.uniform(-10, 10) for i in range(n)]
    skins = [SKINS[rng.randrange(len(SKINS))] for _ in range(n)]
    sleeves = [SLEEVES[rng.randrange(len(SLEEVES))] for _ in range(n)]
    # the draw pile to one side of the pile, away from every seat as far as it goes
    pile_pos = centre.copy()
    gaps = sorted(d % 360 for d in seat_dirs)
    widest = max(range(n), key=lambda i: (gaps[(i + 1) % n] - gaps[i]) % 360 or 360)
    mid = gaps[widest] + ((gaps[(widest + 1) % n] - gaps[widest]) % 360 or 360) / 2
    draw_pos = pile_pos + np.array([math.cos(math.radians(mid)), math.sin(math.radians(mid))]) * cw * 2.2
    pile_img = project(np.float32([pile_pos]), H)[0]
    seats = {names[i]: seat_edge(pile_img, seat_dirs[i], pile_pos, H, W, Hh, S) for i in range(n)}

    base = Canvas(table.copy())
    draw_ang = mid + 90
    for i in range(6):
        base.place(back, draw_pos - i * 0.7, draw_ang + (i % 3 - 1) * 2, cw, "back", role="draw",
                   shadow=0.3 if i == 0 else 0.12)
    look = int(g.integers(1 << 30))
    path = out / f"{name}.mp4"
    writer, used = None, None
    for cc in ([codec] if codec else ["mp4v", "avc1"]):     # mp4v: every OpenCV build writes it
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*cc), FPS, (W, Hh))
        if writer.isOpened():
            used = cc
            break
    if used is None:
        raise RuntimeError("no MP4 encoder available in this OpenCV build")
    frame_no = 0

    def emit(img, k=1):
        nonlocal frame_no
        lit = photometric(to_image(img, H, W, Hh), np.random.default_rng(look), strength=0.5)
        for _ in range(k):
            writer.write(lit)
            frame_no += 1

    def arm(c, seat, hand_at, ang, ev_seed):
        c.hand(np.random.default_rng([seed, seat, ev_seed]), hand_at, ang, cw * 0.95, skin=skins[seat],
               sleeve=sleeves[seat])

    def reach(seat, target, carry=None, carry_ang=0.0, carry_out=None, frames_in=16, frames_out=13, rest=0,
              other=None, ev_seed=0, held=0):
        """A hand from `seat` to `target` (and `other`: a second seat's hand towards the pile at the
        same time); `carry` is a card or a list of cards (a double: put down as a fan, `fanned`);
        `held`: the hand also holds a fan of that many backs, its own hand of cards, which comes
        and goes with it. Returns (land frame, last frame of the movement)."""
        if isinstance(carry, list):
            cards = fanned(carry, carry_ang, cw)
        else:
            cards = [(carry, np.zeros(2), 0.0)]
        ang = seat_dirs[seat] + rng.uniform(-12, 12)
        away = np.array([math.cos(math.radians(ang)), math.sin(math.radians(ang))])
        far = target + away * S * 0.6
        if other is not None:
            o_ang = seat_dirs[other] + rng.uniform(-12, 12)
            o_away = np.array([math.cos(math.radians(o_ang)), math.sin(math.radians(o_ang))])
            o_target = pile_pos + o_away * cw * rng.uniform(0.9, 1.4)      # reaches near the pile, not onto it
            o_far = o_target + o_away * S * 0.6
        land = None
        total = frames_in + rest + frames_out
        for k in range(total):
            if k < frames_in:
                t = _ease((k + 1) / frames_in)
            elif k < frames_in + rest:
                t = 1.0
            else:
                t = 1 - _ease((k - frames_in - rest + 1) / frames_out)
            pos = far + (target - far) * t
            c = Canvas(base.img.copy())
            if carry is not None and k < frames_in - 1:
                for card, off, turn in cards:
                    c.place(card, pos + off, carry_ang + turn + (1 - t) * 25, cw, "moving", shadow=0.45,
                            shadow_offset=(6, 8))
            if carry_out is not None and k >= frames_in + rest:
                c.place(carry_out, pos, carry_ang, cw, "moving", shadow=0.45, shadow_offset=(6, 8))
            if carry is not None and k == frames_in - 1:
                for card, off, turn in cards:        # lower card first: the last one lies on top
                    base.place(card, target + off, carry_ang + turn, cw, "landed")
                c = Canvas(base.img.copy())
                land = frame_no
            if carry_out is not None and k == frames_in + rest:
                land = frame_no
            hand_at = pos + away * cw * 0.35
            if np.linalg.norm(hand_at - target) < S * 0.75:
                # a held fan under the wrist, behind the card played: each card turned about a
                # pivot in the hand, spreading back towards the player; the arm over it
                pivot = hand_at + away * cw * 0.5
                for j in range(held):
                    turn = (j - (held - 1) / 2) * HELD_SPREAD
                    t_rad = math.radians(ang + turn)
                    c.place(back, pivot + np.array([math.cos(t_rad), math.sin(t_rad)]) * cw * 0.5,
                            ang + 90 + turn, cw, "held", role="held", shadow=0.4, shadow_offset=(6, 8))
                arm(c, seat, hand_at, ang, ev_seed)
            if other is not None:
                # the other hand comes a little later and leaves a little earlier
                ot = _ease(min(1.0, max(0.0, (k - 3) / frames_in))) if k < frames_in + rest else \
                    1 - _ease((k - frames_in - rest + 3) / frames_out)
                o_pos = o_far + (o_target - o_far) * max(0.0, ot)
                if ot > 0.02:
                    arm(c, other, o_pos, o_ang, ev_seed + 7)
            emit(c.img)
        return land, frame_no - 1

    emit(base.img, 20)
    if script is not None:
        return _play_script(script, names, seats, meta_base={"fps": FPS, "width": W, "height": Hh, "seed": seed},
                            reach=reach, emit=lambda k: emit(base.img, k), face=face, back=back, pile_pos=pile_pos,
                            draw_pos=draw_pos, draw_ang=draw_ang, cw=cw, rng=rng, out=out, name=name,
                            finish=lambda: (writer.release(), frame_no, used)[1:])
    dealer = rng.randrange(n)
    first = rng.choice(CARDS)
    land, settled = reach(dealer, pile_pos, carry=face(first), carry_ang=draw_ang + rng.uniform(-30, 30), ev_seed=0)
    truth = {"flip": {"player": names[dealer], "card": first, "land_frame": land, "settled_frame": settled},
             "plays": [], "draws": []}
    emit(base.img, 8)
    last = first
    step = 0
    fans = random.Random(seed * 7919 + 1)       # its own stream: the other draws are as before
    while len(truth["plays"]) < plays:
        step += 1
        seat = rng.randrange(n)
        if rng.random() < 0.2:
            land, settled = reach(seat, draw_pos, carry_out=back, carry_ang=draw_ang, frames_in=11, frames_out=9,
                                  ev_seed=step)
            truth["draws"].append({"player": names[seat], "land_frame": land, "settled_frame": settled})
            emit(base.img, 6)
            continue
        kind = rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
        card = rng.choice([c for c in CARDS if c != last])
        last = card
        off = np.array([rng.gauss(0, cw * 0.22), rng.gauss(0, cw * 0.22)])
        other = rng.choice([s for s in range(n) if s != seat]) if kind == "two_hands" else None
        # drawn for every play, so the stream keeps step whatever the kind; only plain plays use it
        held = fans.randint(3, 5) if fans.random() < HELD_FAN else 0
        held = held if kind == "normal" else 0
        kind = "held_fan" if held else kind
        land, settled = reach(seat, pile_pos + off, carry=face(card), carry_ang=draw_ang + rng.uniform(-45, 45),
                              rest=rng.randint(12, 24) if kind == "resting" else 0, other=other, ev_seed=step,
                              held=held)
        truth["plays"].append({"player": names[seat], "card": card, "kind": kind, "land_frame": land,
                               "settled_frame": settled, **({"other": names[other]} if other is not None else {})})
        emit(base.img, 8)
    emit(base.img, 20)
    writer.release()
    meta = {"fps": FPS, "width": W, "height": Hh, "frames": frame_no, "codec": used, "seed": seed,
            "table": table_kind, "players": names, "seats": seats, **truth,
            "note": "seats: where an arm straight from each seat crosses the picture's border (edge: border "
                    "position clockwise from the top-left corner, 0..4; x, y: shares of the picture); "
                    "land_frame: the first frame with the card on the pile; settled_frame: the hand's last frame."}
    (out / f"{name}.truth.json").write_text(json.dumps(meta, indent=1))
    return meta


def _play_script(script, names, seats, meta_base, reach, emit, face, back, pile_pos, draw_pos, draw_ang, cw, rng, out,
                 name, finish) -> dict:
    """A game log acted out: see render_seated. Writes NAME.frames.json (the demo's format, plus
    the seats) and NAME.events.jsonl."""
    card_events = []
    for idx, ev in enumerate(script):
        kind = ev["type"]
        if kind == "flip":
            land, settled = reach(script[0].get("dealer", 0), pile_pos, carry=face(ev["card"]),
                                  carry_ang=draw_ang + rng.uniform(-30, 30), ev_seed=idx)
            card_events.append({"event": idx, "type": kind, "card": ev["card"], "land_frame": land,
                                "settled_frame": settled})
            emit(8)
        elif kind == "play":
            seat = ev["player"] if isinstance(ev["player"], int) else names.index(ev["player"])
            off = np.array([rng.gauss(0, cw * 0.2), rng.gauss(0, cw * 0.2)])
            carry = [face(c) for c in ev["cards"]] if len(ev["cards"]) > 1 else face(ev["cards"][0])
            land, settled = reach(seat, pile_pos + off, carry=carry, carry_ang=draw_ang + rng.uniform(-20, 20),
                                  ev_seed=idx)
            card_events.append({"event": idx, "type": kind, "player": seat, "cards": ev["cards"], "land_frame": land,
                                "settled_frame": settled})
            emit(8)
        elif kind == "draw":
            seat = ev["player"] if isinstance(ev["player"], int) else names.index(ev["player"])
            first = None
            for j in range(ev["count"]):
                land, settled = reach(seat, draw_pos, carry_out=back, carry_ang=draw_ang, frames_in=11,
                                      frames_out=9, ev_seed=idx * 10 + j)
                first = first if first is not None else land
            card_events.append({"event": idx, "type": kind, "player": seat, "count": ev["count"],
                                "land_frame": first, "settled_frame": settled})
            emit(6)
        elif kind != "setup":
            emit(6)          # spoken events (a colour named, ONO! called): nothing to see
    emit(30)
    frames, used = finish()
    meta = {**meta_base, "frames": frames, "codec": used, "players": names, "seats": seats,
            "note": "land_frame: the first frame with the card at rest on the pile (for draws, the first frame "
                    "the card is off the draw pile); settled_frame: the last frame of the hand's movement. seats: "
                    "where an arm straight from each seat crosses the picture's edge (vision/track/seats.py).",
            "card_events": card_events}
    (out / f"{name}.frames.json").write_text(json.dumps(meta, indent=1))
    (out / f"{name}.events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in script))
    return meta


if __name__ == "__main__":     # python -m vision.synth.seated OUT_DIR [SEED]
    import sys
    m = render_seated(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    print(f"{m['frames']} frames, {len(m['players'])} players, {len(m['plays'])} plays, table {m['table']}")
