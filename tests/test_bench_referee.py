"""bench/referee.py and its floor: the floor must really validate (else it bounds nothing), and the
benchmark must run and print its rows, the Cython-compiled row included."""
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import load_bench

BENCH = Path(__file__).resolve().parents[1] / "bench"

floor = load_bench("referee_floor")


def test_the_floor_deck_is_the_108_card_uno_deck():
    assert len(floor.DECK) == 108
    assert floor.DECK.count("wild") == 4 and floor.DECK.count("wild-draw4") == 4
    assert floor.DECK.count("red-0") == 1 and floor.DECK.count("red-7") == 2 and floor.DECK.count("blue-draw2") == 2


def test_the_floor_rejects_what_a_referee_must_reject_and_changes_nothing():
    ref = floor.FloorReferee(2, "red-5")     # seat 0 to play on a red 5
    before = (ref.current, ref.counts[:], ref.discard[:], ref.color, ref.drawn, ref.draw_count)
    rejected = [
        {"type": "dance", "player": 0},
        {"type": "play", "player": 2, "cards": ["red-1"]},                 # no seat 2 at two players
        {"type": "play", "player": 1, "cards": ["red-1"]},                 # seat 1 is not to play
        {"type": "play", "player": 0, "cards": ["blue-7"]},                # neither colour nor number
        {"type": "play", "player": 0, "cards": ["red-1", "red-2"]},        # one card at a time
        {"type": "play", "player": 0, "cards": ["purple-5"]},              # not in the deck
        {"type": "play", "player": 0, "cards": ["wild"]},                  # a wild names a colour
        {"type": "play", "player": 0, "cards": ["red-1"], "color": "blue"},  # only a wild does
        {"type": "pass", "player": 0},                                     # draw or play first
        {"type": "draw", "player": 0, "count": 2},                         # one card
    ]
    for event in rejected:
        accepted, reason = ref.submit(event)
        assert not accepted and reason, event
        assert (ref.current, ref.counts, ref.discard, ref.color, ref.drawn, ref.draw_count) == before, event


def test_the_floor_rules_worked_by_hand():
    ref = floor.FloorReferee(3, "red-5")
    assert ref.submit({"type": "play", "player": 0, "cards": ["blue-5"]})[0]     # same number
    assert (ref.color, ref.current, ref.counts) == ("blue", 1, [6, 7, 7])
    assert ref.submit({"type": "play", "player": 1, "cards": ["blue-skip"]})[0]  # same colour; seat 2 skipped
    assert ref.current == 0
    assert ref.submit({"type": "play", "player": 0, "cards": ["blue-reverse"]})[0]   # now counterclockwise
    assert (ref.direction, ref.current) == (-1, 2)
    assert ref.submit({"type": "play", "player": 2, "cards": ["wild-draw4"], "color": "green"})[0]
    # seat 1 (next counterclockwise from 2) takes four and misses the turn: seat 0 plays next
    assert (ref.color, ref.counts, ref.current) == ("green", [5, 10, 6], 0)
    assert ref.submit({"type": "draw", "player": 0, "count": 1})[0]
    assert not ref.submit({"type": "draw", "player": 0, "count": 1})[0]           # once a turn
    assert ref.submit({"type": "pass", "player": 0})[0]
    assert ref.current == 2 and ref.counts == [6, 10, 6]


def test_floor_games_end_on_real_cards():
    rng = random.Random(7)
    lengths = [floor.play_game(players, rng) for players in (2, 3, 4) for _ in range(30)]
    assert all(length > 7 for length in lengths)    # nobody sheds seven cards in the flip and six plays


def run_bench(*args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / "referee.py"), "--rounds", "1", "--slice", "0.05",
                           "--players", "2", "--no-step-back", *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def ratio(out: str, row: str) -> float:
    line = next(line for line in out.splitlines() if row in line)
    return float(re.search(r"([\d.]+)x\s*$", line).group(1))


def test_the_benchmark_prints_every_row_against_rlcard():
    out = run_bench()
    assert ratio(out, "rlcard UnoGame engine") == 1.0
    for row in ("tableref referee, random legal play", "invariants after every event", "rlcard UNO environment",
                "floor: least validating referee"):
        assert ratio(out, row) > 0, row


@pytest.mark.slow
def test_the_benchmark_compiles_the_referee_with_cython_and_measures_it():
    out = run_bench("--compiled")
    assert ratio(out, "tableref referee compiled by Cython") > 0
