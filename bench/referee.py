"""Random-game throughput: tableref's referee against rlcard's UNO game engine, same run.

Both sides play whole games with the same random policy: at every turn one move drawn uniformly
from the engine's own legal moves. rlcard's UNO only lets a player draw who cannot play, so the
main tableref row uses the same shape: a random legal play when there is one, else draw (ONO!
allows a draw at any time; the row "uniform over every legal event" keeps that in, and its games
are several times longer). tableref's moves come from `Ono.legal_moves` (the referee's legal-move
generator) and every one is submitted to `Game.submit` on a physically simulated deck: envelope
check, every rule check, a state copy kept for undo and rejection-safety, the verdict with its
words, the real table carrying out the verdict's transfers. "+ invariants" rows also check every
card's place and every count after every event, as `tableref simulate` does. rlcard's side is
`UnoGame` with `rng.choice(state["legal_actions"])` (its engine, no validation: it only ever
generates legal moves), and, for reference, the same with its undo (`allow_step_back`).

The machine is shared, so the sides run interleaved in short slices, round after round; each
round gives a ratio, and the table prints the median ratio with the total rates.

    python bench/referee.py [--rounds 5] [--slice 1.0] [--players 2 4]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

# this file is called referee.py: keep its folder off the path so `referee` is the package
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]


class Side:
    """One engine's random player: `play(i)` plays game i whole and returns its events (steps)."""

    def __init__(self, name: str, play):
        self.name, self.play = name, play
        self.games = self.events = 0
        self.seconds = 0.0
        self.round_rates: list[float] = []

    def run(self, seconds: float) -> None:
        start, games, events = time.perf_counter(), 0, 0
        while time.perf_counter() - start < seconds:
            events += self.play(self.games + games)
            games += 1
        elapsed = time.perf_counter() - start
        self.games += games
        self.events += events
        self.seconds += elapsed
        self.round_rates.append(games / elapsed)


def tableref_player(players: int, check: bool, stuck_only: bool):
    from referee.simulate import SimReport, play_legal

    def play(i: int) -> int:
        report = SimReport("ono")
        play_legal("ono", players, 10_000 + i, {}, report, check=check, draw_only_when_stuck=stuck_only)
        assert not report.violations, report.violations
        return report.events
    return play


def rlcard_engine_player(players: int, step_back: bool = False):
    import numpy as np
    from rlcard.games.uno.game import UnoGame
    game = UnoGame(allow_step_back=step_back, num_players=players)
    game.np_random = np.random.RandomState(0)
    rng = random.Random(0)

    def play(i: int) -> int:
        state, _ = game.init_game()
        steps = 0
        while not game.is_over():
            state, _ = game.step(rng.choice(state["legal_actions"]))
            steps += 1
        return steps
    return play


def measure(players: int, rounds: int, slice_s: float, slow_rows: bool) -> list[Side]:
    sides = [Side("tableref referee, random legal play (draw only when stuck)", tableref_player(players, False, True)),
             Side("tableref, the same + invariants after every event", tableref_player(players, True, True)),
             Side("tableref, uniform over every legal event (draw any time)", tableref_player(players, False, False)),
             Side("rlcard UnoGame engine, random legal actions", rlcard_engine_player(players))]
    if slow_rows:
        sides.append(Side("rlcard UnoGame with allow_step_back (its undo)", rlcard_engine_player(players, True)))
    for _ in range(rounds):
        for side in sides:
            side.run(slice_s)
    return sides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per side per round")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--no-step-back", action="store_true", help="leave out rlcard's slow undo row")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at the start; {args.rounds} rounds of {args.slice:g} s per side")
    print(f"{'players':>7}  {'engine':<60}{'games/s':>9}{'events/s':>10}{'ev/game':>8}{'vs rlcard':>11}")
    for n in args.players:
        sides = measure(n, args.rounds, args.slice, not args.no_step_back)
        base = sides[3]
        for side in sides:
            ratio = statistics.median(a / b for a, b in zip(side.round_rates, base.round_rates))
            print(f"{n:>7}  {side.name:<60}{side.games / side.seconds:>9.0f}{side.events / side.seconds:>10.0f}"
                  f"{side.events / max(side.games, 1):>8.1f}{ratio:>10.2f}x")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
