"""The second bundled recording: a California Prison game for four, with jump-ins and doubles from
every seat, seen by a fixed camera with each player's arm coming from their own side.

The game is found by the referee's own simulator and checked by it (GAME_SEED: 41 events, 31
plays, jump-ins by all four players, 7 doubles). A camera cannot hear "jump in", so the table plays
with `jump_in_announced_by_default` and the log carries no `announced`. Written to
datasets/demo-prison/ in the demo's format (web/demo.py): demo.mp4, demo.events.jsonl (the true log,
replayable) and demo.frames.json (each card event's frames, plus where each seat is on the
picture's edge, which `tableref demo --rules prison` marks as the table's seats).

    python -m vision.synth.prison_demo [OUT_DIR]
"""
from __future__ import annotations

from referee import Game

from .seated import render_seated

GAME_SEED = 40
SCENE_SEED = 4                      # the table, camera, seats and arms
NAMES = ["Ana", "Ben", "Cleo", "Dev"]
OPTIONS = {"jump_in_announced_by_default": True}


def prison_game(seed: int = GAME_SEED) -> list[dict]:
    from referee.simulate import SimReport, play_one
    game = play_one("prison", 4, seed, dict(OPTIONS), SimReport("prison"))
    log = camera_shaped(game.log)
    log[0]["players"] = list(NAMES)
    replay = Game()
    for i, e in enumerate(log):
        verdict = replay.submit(e)
        if not verdict.accepted:
            raise RuntimeError(f"prison game {seed}: event {i} {e} is refused without 'announced': {verdict.reason}")
    if replay.state.phase != "over":
        raise RuntimeError(f"prison game {seed} has no winner")
    return log


def camera_shaped(log: list[dict]) -> list[dict]:
    """The simulator's log as a camera table makes it: no `announced` (a camera cannot hear "jump
    in"), and the colour named after a wild as its own `choose_color` (a tap on a phone) after the
    play the camera sees, not a field of that play."""
    out = []
    for e in log:
        e = {k: v for k, v in e.items() if k != "announced"}
        color = e.pop("color", None) if e["type"] == "play" else None
        out.append(e)
        if color is not None:
            out.append({"type": "choose_color", "player": e["player"], "color": color})
    return out


def render_prison_demo(out_dir: str, seed: int = GAME_SEED, scene_seed: int = SCENE_SEED) -> dict:
    return render_seated(out_dir, scene_seed, name="demo", script=prison_game(seed), deck="uno")


if __name__ == "__main__":
    import sys
    meta = render_prison_demo(sys.argv[1] if len(sys.argv) > 1 else "datasets/demo-prison")
    print(f"{meta['frames']} frames ({meta['frames'] / meta['fps']:.1f} s), {len(meta['card_events'])} card events, "
          f"seats {meta['seats']}")
