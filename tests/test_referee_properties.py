"""Properties of the referee that hold for any event stream (hypothesis)."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import Game, MalformedEvent, all_rules, load_deck
from referee.simulate import SimReport, play_one

from helpers import without_verdict

ONO_CARDS = list(load_deck("ono").counts) + ["purple-3", "red-10", ""]
PLAYERS = st.one_of(st.integers(-1, 4), st.sampled_from(["Ana", "Ben", "Cy", "Dan", "ana"]))

event_strategy = st.one_of(
    st.builds(lambda c: {"type": "flip", "card": c}, st.sampled_from(ONO_CARDS)),
    st.builds(lambda p, cs, col: {"type": "play", "player": p, "cards": cs, **({"color": col} if col else {})},
              PLAYERS, st.lists(st.sampled_from(ONO_CARDS), min_size=0, max_size=3),
              st.sampled_from([None, "red", "green", "blue", "yellow", "pink"])),
    st.builds(lambda p, n: {"type": "draw", "player": p, "count": n}, PLAYERS, st.integers(-2, 6)),
    st.builds(lambda p, c: {"type": "choose_color", "player": p, "color": c}, PLAYERS,
              st.sampled_from(["red", "green", "blue", "yellow", "pink"])),
    st.builds(lambda p: {"type": "pass", "player": p}, PLAYERS),
    st.builds(lambda a, b: {"type": "call", "caller": a, "target": b}, PLAYERS, PLAYERS),
    st.builds(lambda p: {"type": "challenge", "player": p}, PLAYERS),
    st.builds(lambda p, cs: {"type": "reveal", "player": p, "cards": cs}, PLAYERS,
              st.lists(st.sampled_from(ONO_CARDS), max_size=8)),
    st.just({"type": "undo"}),
    st.just({"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"]}),
    # not events at all
    st.sampled_from([{}, {"type": "teleport"}, {"type": "play", "player": 1}, {"type": "draw", "player": 1, "count": "2"},
                     {"type": "play", "player": True, "cards": ["red-1"]}, [], "play", None]),
)

START = [{"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "dealer": 0},
         {"type": "flip", "card": "red-5"}]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(event_strategy, max_size=40))
def test_random_streams_never_crash_rejections_change_nothing_and_replay_rebuilds(events):
    game = Game()
    for e in START:
        game.submit(e)
    for event in events:
        before = without_verdict(game.to_dict())
        try:
            verdict = game.submit(event)
        except MalformedEvent:
            assert without_verdict(game.to_dict()) == before
            continue
        if not verdict.accepted:
            assert verdict.reason
            assert without_verdict(game.to_dict()) == before
    replayed = Game.replay(game.log)
    assert without_verdict(replayed.to_dict()) == without_verdict(game.to_dict())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 6), st.sampled_from(sorted(all_rules())))
def test_random_legal_games_replay_to_the_same_state_and_undo_restores_each_step(seed, players, rules_id):
    rules = all_rules()[rules_id]
    players = max(rules.min_players, min(players, rules.max_players))
    report = SimReport(rules_id)
    game = play_one(rules_id, players, seed, {}, report)
    assert report.violations == []
    live = without_verdict(game.to_dict())
    assert without_verdict(Game.replay(game.log).to_dict()) == live
    # undo walks back through every earlier state exactly
    rng = random.Random(seed)
    cut = rng.randrange(1, len(game.log) + 1)
    expected = without_verdict(Game.replay(game.log[:cut - 1]).to_dict())
    for _ in range(len(game.log) - cut + 1):
        assert game.submit({"type": "undo"}).accepted
    assert without_verdict(game.to_dict()) == expected
