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

# this file is called referee.py: keep its folder off the path so `referee` is the package, and
# import its neighbours (referee_floor, compiled_referee) from it by name
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]


def _neighbour(name: str):
    import importlib.util
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


class Side:
    """One engine's random player: `play(i)` plays game i whole and returns its events (steps)."""

    def __init__(self, name: str, play):
        self.name, self.play = name, play
        self.games = self.events = 0
        self.seconds = 0.0
        self.round_rates: list[float] = []

    def run(self, seconds: float) -> tuple[int, int, float]:
        """Plays whole games for `seconds`; returns and records (games, events, elapsed)."""
        start, games, events = time.perf_counter(), 0, 0
        while time.perf_counter() - start < seconds:
            events += self.play(self.games + games)
            games += 1
        elapsed = time.perf_counter() - start
        self.record(games, events, elapsed)
        return games, events, elapsed

    def record(self, games: int, events: int, elapsed: float) -> None:
        self.games += games
        self.events += events
        self.seconds += elapsed
        self.round_rates.append(games / elapsed)


class ChildSide(Side):
    """A side whose games run in a child process (bench/compiled_referee.py serve), one round
    at a time when told, so that its rounds interleave with the other sides'."""

    def __init__(self, name: str, child):
        super().__init__(name, None)
        self.child = child

    def run(self, seconds: float) -> tuple[int, int, float]:
        self.child.stdin.write(f"{seconds}\n")
        self.child.stdin.flush()
        games, events, elapsed = self.child.stdout.readline().split()
        self.record(int(games), int(events), float(elapsed))
        return int(games), int(events), float(elapsed)

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait()


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


def floor_player(players: int):
    play_game = _neighbour("referee_floor").play_game
    rng = random.Random(0)
    return lambda i: play_game(players, rng)


def rlcard_env_player(players: int):
    """rlcard's environment (what its users train against): the engine plus its state encoding."""
    import rlcard
    from rlcard.agents import RandomAgent
    env = rlcard.make("uno", config={"game_num_players": players, "seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(players)])

    def play(i: int) -> int:
        trajectories, _ = env.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)
    return play


BASE = "rlcard UnoGame engine, random legal actions"


def measure(players: int, rounds: int, slice_s: float, slow_rows: bool, compiled: bool) -> list[Side]:
    sides = [Side("tableref referee, random legal play (draw only when stuck)", tableref_player(players, False, True)),
             Side("tableref, the same + invariants after every event", tableref_player(players, True, True)),
             Side("tableref, uniform over every legal event (draw any time)", tableref_player(players, False, False)),
             Side(BASE, rlcard_engine_player(players)),
             Side("rlcard UNO environment (rlcard.make, RandomAgent)", rlcard_env_player(players)),
             Side("floor: least validating referee in pure Python (referee_floor)", floor_player(players))]
    if compiled:
        child = _neighbour("compiled_referee").start_child(players)
        sides.insert(1, ChildSide("tableref referee compiled by Cython, unchanged", child))
    if slow_rows:
        sides.append(Side("rlcard UnoGame with allow_step_back (its undo)", rlcard_engine_player(players, True)))
    for _ in range(rounds):
        for side in sides:
            side.run(slice_s)
    for side in sides:
        getattr(side, "close", lambda: None)()
    return sides


def breakdown(players: int, games: int, repeats: int = 5) -> None:
    """Where tableref's time goes, per event: each part timed alone over the same recorded games
    (best of `repeats`), the whole loop included, so that the rest is the player and its table."""
    import gc
    from referee.events import validate
    from referee.game import Game
    from referee.simulate import SimReport, play_legal

    def best(run) -> float:
        times = []
        for _ in range(repeats):
            gc.collect()
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        return min(times)

    logs: list[list[dict]] = []

    def whole() -> None:
        logs.clear()
        report = SimReport("ono")
        for i in range(games):
            logs.append(play_legal("ono", players, 10_000 + i, {}, report, check=False, draw_only_when_stuck=True).log)

    t_whole = best(whole)
    events = [e for log in logs for e in log]
    steps = []          # (state, rules, event) before each event after the setup
    for log in logs:
        game = Game()
        game.submit(log[0])
        for event in log[1:]:
            steps.append((game.state, game.rules, event))
            game.submit(event)

    def submit_all() -> None:
        for log in logs:
            submit = Game().submit
            for event in log:
                submit(event)

    def envelope() -> None:
        for event in events:
            validate(event)

    def copies() -> None:
        for state, _, _ in steps:
            state.copy()

    def rulings() -> None:
        for state, rules, event in steps:
            rules.handle(state.copy(), event)

    def deals() -> None:
        for log in logs:
            Game().submit(log[0])

    t_submit, t_env, t_copy = best(submit_all), best(envelope), best(copies)
    t_rules, t_deal = best(rulings) - t_copy, best(deals)
    n = len(events)
    us = lambda t: f"{t / n * 1e6:6.2f}"
    print(f"tableref per-event breakdown, {players} players, {games} games, {n / games:.1f} events/game, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  whole loop                           {us(t_whole)} µs/event  ({games / t_whole:.0f} games/s)")
    print(f"  Game.submit                          {us(t_submit)}")
    print(f"    envelope check (events.validate)   {us(t_env)}")
    print(f"    state copy (rejection-safety)      {us(t_copy)}")
    print(f"    rule checks and ruling, verdict text {us(t_rules)}")
    print(f"    setup and deal (once a game)       {us(t_deal)}")
    print(f"    Game bookkeeping (verdict, log, snapshots) {us(t_submit - t_env - t_copy - t_rules - t_deal)}")
    print(f"  random player and physical cards     {us(t_whole - t_submit)} (legal moves, choice, carrying out)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per side per round")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--no-step-back", action="store_true", help="leave out rlcard's slow undo row")
    parser.add_argument("--breakdown", action="store_true", help="print where tableref's time goes per event, then stop")
    parser.add_argument("--compiled", action="store_true",
                        help="add a row for the referee compiled by Cython as it stands (builds it first, about a minute)")
    args = parser.parse_args()
    if args.breakdown:
        for n in args.players:
            breakdown(n, 300)
        return
    print(f"load average {os.getloadavg()[0]:.1f} at the start; {args.rounds} rounds of {args.slice:g} s per side")
    print(f"{'players':>7}  {'engine':<60}{'games/s':>9}{'events/s':>10}{'ev/game':>8}{'vs rlcard':>11}")
    for n in args.players:
        sides = measure(n, args.rounds, args.slice, not args.no_step_back, args.compiled)
        base = next(side for side in sides if side.name == BASE)
        for side in sides:
            ratio = statistics.median(a / b for a, b in zip(side.round_rates, base.round_rates))
            print(f"{n:>7}  {side.name:<60}{side.games / side.seconds:>9.0f}{side.events / side.seconds:>10.0f}"
                  f"{side.events / max(side.games, 1):>8.1f}{ratio:>10.2f}x")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
