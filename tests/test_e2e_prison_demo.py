"""End to end: `tableref demo --rules prison` (the California Prison recording, datasets/demo-prison/,
played as a live camera with its seats marked) watched by a phone in headless Chromium until the
game is won. The camera must charge each play to the hand that brought it: the jump-ins to the
jumpers, never a play to someone who did not make it; doubles and the triple go down as a fan and
reach the referee as one play each, the top card last. The true log (who played what, in order) is
demo.events.jsonl; demo.frames.json says where each seat's arm comes into the picture.
"""
from __future__ import annotations

import json
import subprocess
import time
import urllib.request
import warnings
from pathlib import Path

import pytest

from chromium import launched, needs_chromium
from helpers import start_tableref
from referee import Game
from web.demo import CAMERA_GRACE_S, FIX_AFTER_S

ROOT = Path(__file__).resolve().parent.parent
PRISON = ROOT / "datasets" / "demo-prison"
TOKEN = "e2e-prison-token-0123"
LIMIT_S = 240          # the recording is 46 s; generous for a machine shared with a training run


def truth() -> list[dict]:
    return [json.loads(line) for line in (PRISON / "demo.events.jsonl").read_text().splitlines() if line.strip()]


def jump_ins(log: list[dict]) -> list[int]:
    """Indexes of the plays made out of turn (jump-ins), found by replaying the log."""
    game, found = Game(), []
    for i, e in enumerate(log):
        before = game.to_dict().get("current_player")
        assert game.submit(e).accepted, (i, e)
        if e["type"] == "play" and e["player"] != before:
            found.append(i)
    return found


def test_the_prison_recording_is_a_game_of_four_with_jump_ins_and_doubles_from_every_seat():
    log = truth()
    names = log[0]["players"]
    assert log[0]["rules"] == "prison" and len(names) == 4
    assert Game.replay(log).to_dict()["phase"] == "over"
    plays = [e for e in log if e["type"] == "play"]
    assert {log[i]["player"] for i in jump_ins(log)} == {0, 1, 2, 3}
    doubles = [e for e in plays if len(e["cards"]) > 1]
    assert {e["player"] for e in doubles} == {0, 1, 2, 3} and max(len(e["cards"]) for e in doubles) == 3
    frames = json.loads((PRISON / "demo.frames.json").read_text())
    assert sorted(frames["seats"]) == sorted(names)
    # every card the camera must see has its moment in the video, in the log's order
    seen = [c["event"] for c in frames["card_events"] if c["type"] in ("flip", "play")]
    assert seen == [i for i, e in enumerate(log) if e["type"] in ("flip", "play")]


def test_the_prison_recording_marks_its_seats_for_the_demo():
    from web.demo import DEMOS, DemoRecording
    from web.seats import check_seats
    rec = DemoRecording(DEMOS["prison"])
    checked = check_seats({"seats": rec.seats}, rec.setup["players"])    # what the host's marks must pass
    assert [s["player"] for s in checked] == rec.setup["players"]


def prison_table(tmp_path, upto: int):
    """A demo table of the prison recording holding the log's events before `upto`, its seats
    marked, and its demo host (not started: the tests drive it)."""
    from web.app import create_app
    from web.demo import DEMOS, DemoRecording, DemoTable
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    registry = app.extensions["tableref"]
    rec = DemoRecording(DEMOS["prison"])
    for event in rec.events[:upto]:
        assert registry.submit("main", dict(event)).verdict.accepted, event
    registry.set_seats("main", {"seats": rec.seats})
    return registry, DemoTable(app, "main", rec, loop=False)


def seen(t: float, cards: list[str], seat: str | None, sure: float = 0.99) -> dict:
    """A play as the camera's pipeline sends it."""
    return {"type": "play", "t": t, "cards": cards, "confidence": 0.95, "seat": seat, "seat_confidence": sure,
            "seat_likely": [[seat, sure]] if seat else [], "hands": 1 if seat else 0, "hand_edge": 0.5}


def test_the_demo_host_taps_in_a_missed_card_before_the_cameras_next_play_which_then_stands(tmp_path):
    from web.demo import game_events
    from web.who import charge
    registry, demo = prison_table(tmp_path, 15)     # the table is at Cleo's yellow-4, which the camera missed
    table = registry.get("main")
    try:
        ben = seen(20.633, ["yellow-0"], "Ben")        # the camera's next play: Ben's yellow-0 (event 16)
        demo._camera_saw(ben)
        assert len(game_events(table)) == 16 and demo.corrections == [
            "the camera missed ['yellow-4'] and its next play shows ['yellow-0']; tapping it in first"]
        action, got, _ = charge(ben, table.game.to_dict()["current_player"], table.seat_map(), table.player_names())
        assert action == "submit" and registry.camera_play("main", got)[0].verdict.accepted
        assert demo.out_of_step(game_events(table)) is None and game_events(table)[-1]["player"] == "Ben"
        # a play the log has nowhere next (a misread) fills in nothing: the referee judges it as it is
        demo._camera_saw(seen(21.9, ["green-9"], "Ana"))
        assert len(game_events(table)) == 17 and len(demo.corrections) == 1
    finally:
        registry.shutdown()


def test_a_tap_the_phones_owed_before_the_cameras_play_is_sent_first_and_is_no_correction(tmp_path):
    from web.demo import game_events
    registry, demo = prison_table(tmp_path, 19)     # Dev's wild is down; his colour (event 19) not yet
    try:
        demo._camera_saw(seen(24.533, ["wild"], "Ana"))    # Ana jumps in with a wild (event 20)
        assert [e["type"] for e in game_events(registry.get("main"))[-2:]] == ["play", "choose_color"]
        assert demo.corrections == []
    finally:
        registry.shutdown()


def test_the_demo_host_answers_who_played_from_the_log_after_tapping_in_what_was_missed(tmp_path):
    from web.demo import game_events
    from web.who import question_for
    registry, demo = prison_table(tmp_path, 15)
    table = registry.get("main")
    try:
        unsure = seen(20.633, ["yellow-0"], None)      # no hand seen: the table is asked
        assert registry.camera_play("main", unsure, question_for(unsure, table.player_names())) == []
        assert table.pending
        demo._answer(table)
        assert not table.pending and len(game_events(table)) == 17
        assert demo.out_of_step(game_events(table)) is None and game_events(table)[-1]["player"] == "Ben"
        assert "missed ['yellow-4']" in demo.corrections[0] and "answering Ben" in demo.corrections[1]
    finally:
        registry.shutdown()


def get(base: str, path: str, token: str | None = None) -> dict:
    req = urllib.request.Request(f"{base}{path}", headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def camera_plays(stored: list[dict]) -> list[dict]:
    """Every play the camera charged by its seat (a play the demo's host took back later still
    counts: it reached the referee)."""
    return [e for e in stored if e["type"] == "play" and "seat" in e]


def card_made(t: float) -> int:
    """The index in the true log of the card event the camera saw at video time t: the last one
    to come to rest on the pile before t (demo.frames.json)."""
    frames = json.loads((PRISON / "demo.frames.json").read_text())
    rested = [c for c in frames["card_events"] if c["type"] in ("flip", "play")
              and c["land_frame"] / frames["fps"] - 0.05 <= t]
    return rested[-1]["event"]


@needs_chromium
@pytest.mark.skipif(not (PRISON / "demo.mp4").exists(), reason="prison recording not present")
def test_the_prison_demo_charges_every_play_to_the_hand_that_made_it():
    log = truth()
    names = log[0]["players"]
    proc, base, out = start_tableref("demo", "--rules", "prison", "--once", "--host-token", TOKEN)
    try:
        assert "new table main: " in out and "Ana, Ben, Cleo, Dev" in out, out
        started = time.monotonic()
        with launched() as browser:
            phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                        bypass_csp=True).new_page()
            phone.goto(f"{base}/t/main")
            phone.wait_for_selector("#pile", state="attached")
            # until the game is won; once the recording has ended, the demo's host may still play
            # a card the camera left (CAMERA_GRACE_S after it came to rest): a few seconds more
            ended = None
            while time.monotonic() - started < LIMIT_S:
                state, cam = get(base, "/api/tables/main/state"), get(base, "/api/tables/main/camera")
                if state["phase"] == "over":
                    break
                if cam["state"] not in ("starting", "running"):
                    ended = ended or time.monotonic()
                    if time.monotonic() - ended > CAMERA_GRACE_S + FIX_AFTER_S + 4:
                        break
                time.sleep(0.5)
            stored = get(base, "/api/tables/main/events", TOKEN)["events"]
            assert state["phase"] == "over", (cam["recent"], "\n".join(map(json.dumps, stored)))
            assert cam["seats_marked"], cam["seats_note"]
            winner = names[Game.replay(log).to_dict()["winner"]]
            phone.wait_for_function(f"document.getElementById('turn').textContent === '{winner} wins!'",
                                    timeout=10000)
    finally:
        proc.terminate()
        try:
            rest = proc.communicate(timeout=15)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            rest = proc.communicate()[0]
    assert "demo: seats marked: Ana, Ben, Cleo, Dev" in out + rest

    # The table ends where the true log does (the demo's host fills in what the camera left).
    final = {k: v for k, v in state.items() if k != "last_verdict"}
    assert final == {k: v for k, v in Game.replay(log).to_dict().items() if k != "last_verdict"}

    # Every play the camera charged by its seat names the player who made the cards it saw (the
    # card event that came to rest just before), its cards in the order they lie (the top card
    # last); none is charged to someone else.
    charged = [(card_made(e["t"]), e) for e in camera_plays(stored)]
    wrong = [(k, e) for k, e in charged if log[k].get("player") != names.index(e["player"])]
    assert not wrong, wrong
    # and each stands in the name of the seat the camera named when it was sure (the host never
    # re-charges a camera play; it answers only the camera's own "who played?")
    assert all(e["player"] == e["seat"] for _, e in charged if (e.get("seat_confidence") or 0) >= 0.8), charged
    misread = [(k, e) for k, e in charged if e["cards"] != log[k]["cards"]]
    # The jump-ins all come from the camera, in the jumper's name (a busy machine that skips frames
    # may leave a card to the host: at most one, said).
    jumps = jump_ins(log)
    by_camera = {k for k, e in charged if e["cards"] == log[k]["cards"]}
    missed_jumps = [log[k] for k in jumps if k not in by_camera]
    doubles = [k for k, e in enumerate(log) if e["type"] == "play" and len(e["cards"]) > 1]
    doubles_by_camera = [k for k in doubles if k in by_camera]
    corrections = [line for line in rest.splitlines() if "demo: host:" in line]
    print(f"\nprison demo: {len(charged)} camera plays of {sum(e['type'] == 'play' for e in log)}, jump-ins "
          f"{len(jumps) - len(missed_jumps)}/{len(jumps)} by the camera, doubles {len(doubles_by_camera)}/"
          f"{len(doubles)}, {len(misread)} misread, {len(corrections)} host corrections")
    # The camera supplies the plays it is sure of and the host fills in only what it missed: when the
    # camera's next play shows a missed card, the host taps that card in first and the camera's play
    # stands (web/demo.py), so one miss costs one correction, not the rest of the game. Measured
    # (docs/benchmarks.md): 27 of 31 plays from the camera, all 6 jump-ins, 4 corrections (3 plays
    # the camera sent unsure, 1 missed), the same at 1x, and at 2x and 4x on one core; the limits
    # leave room for a slow, loaded machine.
    assert len(by_camera) >= 24, (len(by_camera), corrections)
    assert len(corrections) <= 7, corrections
    assert len(misread) <= 1, misread
    assert len(missed_jumps) <= 1, missed_jumps
    # a double the camera sends reaches the referee whole (one play, every card, the top card last);
    # one whose lower card it is unsure of is sent unconfirmed and the host confirms it (measured
    # offline, bench/seats.py --prison: 4 of 7 sure; live the same)
    assert len(doubles_by_camera) >= 3, (doubles, charged)
    assert not [e for k, e in misread if len(e["cards"]) > 1], misread
    if missed_jumps or misread:
        warnings.warn(f"the camera left {len(missed_jumps)} jump-in(s) to the host and misread {len(misread)} "
                      f"play(s): " + " | ".join(corrections))
