"""Random-game throughput: tableref's referee against rlcard's UNO game engine, same run.

Both sides play whole games with random legal moves. tableref's side is `simulate`'s random
player on a physically simulated deck, every event validated by the referee (`Game.submit`:
envelope check, rule check, a copied state kept for undo); rows with "+ invariants" also check
every card's place and every count after every event, as `tableref simulate` does. rlcard's
side is `UnoGame` driven by a uniformly random choice among its legal actions (its engine, no
validation), and, for reference, its usual `env.run` loop with RandomAgents.

    python bench/referee.py [--seconds 5] [--players 2 4]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

# this file is called referee.py: keep its folder off the path so `referee` is the package
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]


def time_games(play, seconds: float) -> tuple[float, float]:
    """Games per second and events per second of `play(i) -> events`, over at least `seconds`."""
    start, games, events = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        events += play(games)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, events / elapsed


def tableref_player(players: int, check: bool):
    from referee.simulate import SimReport, play_one

    def play(i: int) -> int:
        report = SimReport("ono")
        play_one("ono", players, 10_000 + i, {}, report, check_rejections=False, check=check)
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


def rlcard_env_player(players: int):
    import rlcard
    from rlcard.agents import RandomAgent
    env = rlcard.make("uno", config={"game_num_players": players, "seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(players)])

    def play(i: int) -> int:
        trajectories, _ = env.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)
    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    rows = []
    for n in args.players:
        ours = time_games(tableref_player(n, check=False), args.seconds)
        ours_checked = time_games(tableref_player(n, check=True), args.seconds)
        engine = time_games(rlcard_engine_player(n), args.seconds)
        engine_back = time_games(rlcard_engine_player(n, step_back=True), args.seconds)
        env = time_games(rlcard_env_player(n), args.seconds)
        rows += [(n, "tableref referee (ONO!, full validation, undo kept)", ours, ours[0] / engine[0]),
                 (n, "tableref + invariants after every event", ours_checked, ours_checked[0] / engine[0]),
                 (n, "rlcard UnoGame engine, random legal actions", engine, 1.0),
                 (n, "rlcard UnoGame with allow_step_back (undo)", engine_back, engine_back[0] / engine[0]),
                 (n, "rlcard env.run with RandomAgents", env, env[0] / engine[0])]
    print(f"{'players':>7}  {'engine':<52}{'games/s':>10}{'events/s':>11}{'vs rlcard engine':>18}")
    for n, name, (gps, eps), ratio in rows:
        print(f"{n:>7}  {name:<52}{gps:>10.0f}{eps:>11.0f}{ratio:>17.2f}x")


if __name__ == "__main__":
    main()
