"""ONO!'s legal-move generator (Ono.legal_moves) and the random-legal player built on it.

Expected moves are worked out by hand from shared/seeds/ono.txt and docs/rules/ono.md (foods:
apple is on red-1 and green-2).
"""
import random

import pytest

from referee import Game, all_rules
from referee.simulate import PhysicalTable, SimReport, play_legal

from helpers import draw, play, setup

ONO = all_rules()["ono"]


def moves_of(game, hands):
    return ONO.legal_moves(game.state, hands)


def as_keys(moves):
    return sorted((m["type"], m["player"], tuple(m.get("cards", ())), m.get("color"), m.get("count"))
                  for m in moves)


def started(first="red-1"):
    g = Game()
    g.submit(setup(players=("Ana", "Ben"), dealer=0))
    g.submit({"type": "flip", "card": first})
    return g


BEN = ["green-2", "green-7", "blue-1", "yellow-9", "wild", "red-draw2", "green-2"]


def test_plays_by_colour_number_food_and_wild_then_draw():
    g = started("red-1")                      # Ana deals, Ben plays first; red-1 is an apple
    hands = [["red-5"] * 7, BEN]
    got = as_keys(moves_of(g, hands))
    wilds = [("play", 1, ("wild",), c, None) for c in ("red", "yellow", "green", "blue")]
    assert got == sorted([
        ("play", 1, ("green-2",), None, None),    # apple on apple (listed once for two copies)
        ("play", 1, ("blue-1",), None, None),     # number
        ("play", 1, ("red-draw2",), None, None),  # colour
        *wilds,                                   # a wild, once per colour named
        ("draw", 1, (), None, 1),                 # drawing is allowed with a playable card
    ])                                            # green-7 and yellow-9 match nothing


def test_after_a_draw_play_or_pass_but_not_draw_again():
    g = started("red-1")
    assert g.submit(draw("Ben")).accepted
    hands = [["red-5"] * 7, BEN + ["yellow-3"]]
    got = as_keys(moves_of(g, hands))
    assert ("pass", 1, (), None, None) in got
    assert not [m for m in got if m[0] == "draw"]
    assert ("play", 1, ("yellow-3",), None, None) not in got


def test_a_player_who_owes_cards_draws_them_and_nothing_else():
    g = started("red-1")
    assert g.submit(play("Ben", "red-draw2")).accepted
    assert as_keys(moves_of(g, [["red-5"] * 7, BEN])) == [("draw", 0, (), None, 2)]


def test_a_wild_without_colour_asks_its_player_for_one():
    g = started("red-1")
    assert g.submit(play("Ben", "wild")).accepted
    assert as_keys(moves_of(g, [["red-5"] * 7, BEN])) == sorted(
        ("choose_color", 1, (), c, None) for c in ("red", "yellow", "green", "blue"))


def test_longer_game_draws_again_and_never_passes_while_cards_are_left():
    g = Game()
    g.submit(setup(players=("Ana", "Ben"), dealer=0, longer_game=True))
    g.submit({"type": "flip", "card": "red-1"})
    assert g.submit(draw("Ben")).accepted
    got = as_keys(moves_of(g, [["red-5"] * 7, ["yellow-9"] * 8]))
    assert got == [("draw", 1, (), None, 1)]


TURN_TYPES = ("play", "draw", "pass", "choose_color", "reveal")


def every_turn_move(st, hands):
    """Every turn event of the player the referee waits for, legal or not, in canonical form (a
    penalty drawn whole, not in parts; a wild with its colour named)."""
    seat = st.current
    out = [{"type": "draw", "player": seat, "count": min(st.pending_draw, st.drawable()) or 1}]
    out.append({"type": "pass", "player": seat})
    for cid in set(hands[seat]):
        if st.deck.cards[cid].kind == "wild":
            out += [{"type": "play", "player": seat, "cards": [cid], "color": c} for c in st.deck.colors]
        else:
            out.append({"type": "play", "player": seat, "cards": [cid]})
    if st.phase == "color":
        out += [{"type": "choose_color", "player": st.vars["chooser"], "color": c} for c in st.deck.colors]
    if st.phase == "scoring":
        out += [{"type": "reveal", "player": s, "cards": list(hands[s])} for s in st.vars["unrevealed"]]
    return out


@pytest.mark.parametrize("options", [{}, {"longer_game": True}, {"shorter_game": True}, {"points_target": 150}])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_generated_moves_are_exactly_the_accepted_turn_moves(options, players):
    """Along whole random games on real cards: every listed move is accepted, and every turn move
    the referee accepts (in its canonical form) is listed."""
    for seed in range(3):
        rng = random.Random(seed)
        game = Game()
        verdict = game.submit(setup(players=[f"P{i}" for i in range(players)], dealer=seed % players, **options))
        table = PhysicalTable(game.state.deck, players, rng)
        table.carry_out(verdict.effects)
        steps = 0
        while game.state.phase != "over":
            st = game.state
            if st.phase == "flip":
                event = {"type": "flip", "card": table.draw[-1]}
            else:
                listed = ONO.legal_moves(st, table.hands)
                accepted = [m for m in every_turn_move(st, table.hands) if game.check(m).accepted]
                assert len(set(as_keys(listed))) == len(listed), "a move listed twice"
                assert as_keys(listed) == sorted(set(as_keys(accepted))), st.phase
                plays = [m for m in listed if m["type"] == "play"]
                event = rng.choice(plays or listed)     # draw only when stuck: short games
            verdict = game.submit(event)
            assert verdict.accepted, verdict.reason
            table.carry_out(verdict.effects)
            steps += 1
            assert steps < 3000


def test_random_legal_games_never_break_an_invariant():
    report = SimReport("ono")
    for seed in range(40):
        play_legal("ono", 2 + seed % 4, seed, {}, report, check=True, draw_only_when_stuck=seed % 2 == 0)
    assert report.violations == [] and report.games == 40 and report.unfinished == 0


def test_undo_walks_back_through_snapshots_to_each_earlier_state():
    """Undo replays from the nearest snapshot (every SNAPSHOT_EVERY events): every step back must
    equal a fresh replay of the shorter log, on both sides of each snapshot."""
    from referee.game import SNAPSHOT_EVERY
    from helpers import without_verdict
    game = play_legal("ono", 3, 7, {}, SimReport("ono"), check=False)
    assert len(game.log) > 2 * SNAPSHOT_EVERY + 2
    log = list(game.log)
    for cut in range(len(log) - 1, 0, -1):
        verdict = game.submit({"type": "undo"})
        assert verdict.accepted
        assert without_verdict(game.to_dict()) == without_verdict(Game.replay(log[:cut]).to_dict())
    assert game.submit({"type": "undo"}).accepted and game.state is None
    assert not game.submit({"type": "undo"}).accepted
