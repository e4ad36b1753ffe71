"""Snake Cup Rainbow rulings, worked out by hand from shared/seeds/snake-cup.txt ("this version").

Seats, clockwise: Ana (0) deals, Ben (1) sits to her left and lays the first card, then Cy (2).
Rainbow order: red > orange > yellow > green > blue > violet > red.
"""
import pytest

from helpers import counts, draw, game_of, pass_, play, rejected, setup, turn
from referee import Game
from referee.rules import get_rules
from referee.simulate import simulate


def start(players=("Ana", "Ben", "Cy"), **options):
    return setup("snake-cup-rainbow", players=players, **options)


def top(game):
    return game.to_dict()["top_card"]


# -- the deal: seven each, no card turned ---------------------------------------------------------
def test_seven_each_and_the_snakes_set_aside_unless_wild():
    g = game_of(start())
    state = g.to_dict()
    assert counts(g) == [7, 7, 7]
    assert state["draw_pile"] == 60 - 21            # 60 coloured cards, no SNAKE
    assert state["phase"] == "play" and state["top_card"] is None
    assert turn(g) == "Ben"
    g = game_of(start(snake_wild=True))
    assert g.to_dict()["draw_pile"] == 62 - 21


def test_no_card_is_turned_up_first():
    g = game_of(start())
    assert "no 'flip' events" in rejected(g, {"type": "flip", "card": "red-suns"})


def test_eight_players_at_most():
    assert not Game().submit(start([f"P{i}" for i in range(9)])).accepted
    assert Game().submit(start([f"P{i}" for i in range(8)])).accepted


# -- matching ---------------------------------------------------------------------------------------
def test_the_first_player_may_lay_any_card():
    for card in ("violet-rain", "red-leaves", "green-crosses"):
        g = game_of(start(), play("Ben", card))
        assert top(g) == card and turn(g) == "Cy" and counts(g) == [7, 6, 7]


def test_a_different_card_of_the_same_colour_follows():
    g = game_of(start(), play("Ben", "red-leaves"), play("Cy", "red-suns"))
    assert top(g) == "red-suns" and turn(g) == "Ana"


def test_a_card_of_the_next_colour_follows():
    g = game_of(start(), play("Ben", "red-leaves"), play("Cy", "orange-leaves"),
                play("Ana", "yellow-stars"), play("Ben", "green-stars"), play("Cy", "blue-rain"),
                play("Ana", "violet-rain"))
    assert top(g) == "violet-rain"


def test_violet_is_followed_by_red():
    g = game_of(start(), play("Ben", "violet-rain"), play("Cy", "red-river"))
    assert top(g) == "red-river"


@pytest.mark.parametrize("card", ["yellow-suns", "violet-suns", "blue-leaves", "green-leaves"])
def test_other_colours_do_not_follow_red(card):
    g = game_of(start(), play("Ben", "red-leaves"))
    reason = rejected(g, play("Cy", card))
    assert reason == f"{card} does not follow red-leaves: play a different red card or an orange card"


def test_the_colour_before_does_not_follow():
    g = game_of(start(), play("Ben", "orange-leaves"))
    assert "does not follow" in rejected(g, play("Cy", "red-suns"))


def test_the_same_card_cannot_be_laid_twice():
    g = game_of(start(), play("Ben", "red-leaves"))
    assert "cannot hold" in rejected(g, play("Cy", "red-leaves"))


def test_out_of_turn_and_two_cards_are_refused():
    g = game_of(start())
    assert "Ben's turn" in rejected(g, play("Cy", "red-leaves"))
    assert "one card at a time" in rejected(g, play("Ben", "red-leaves", "red-suns"))


# -- drawing when stuck -----------------------------------------------------------------------------
def test_a_stuck_player_draws_one_and_may_lay_it():
    g = game_of(start(), play("Ben", "red-leaves"), draw("Cy"))
    assert counts(g) == [7, 6, 8] and g.to_dict()["phase"] == "drawn"
    g.submit(play("Cy", "orange-suns"))
    assert counts(g) == [7, 6, 7] and turn(g) == "Ana"


def test_a_drawn_card_that_does_not_fit_is_kept_and_the_turn_passes():
    g = game_of(start(), play("Ben", "red-leaves"), draw("Cy"))
    assert "does not follow" in rejected(g, play("Cy", "blue-suns"))
    assert "drawn already" in rejected(g, draw("Cy"))
    g.submit(pass_("Cy"))
    assert counts(g) == [7, 6, 8] and turn(g) == "Ana"


def test_passing_needs_a_draw_first_and_one_card_is_drawn():
    g = game_of(start(), play("Ben", "red-leaves"))
    assert "must lay a card or draw one" in rejected(g, pass_("Cy"))
    assert "draws one, not 2" in rejected(g, draw("Cy", 2))


def test_with_nothing_left_to_draw_a_stuck_player_passes():
    names = [f"P{i}" for i in range(8)]                # 56 dealt, 4 left to draw
    g = game_of(start(names), play("P1", "red-leaves"))
    for seat in (2, 3, 4, 5):
        g.submit(draw(f"P{seat}"))
        g.submit(pass_(f"P{seat}"))
    state = g.to_dict()
    assert state["draw_pile"] == 0 and state["discard_pile"] == 1
    assert "no card is left" in rejected(g, draw("P6"))
    g.submit(pass_("P6"))
    assert turn(g) == "P7"


def test_an_empty_draw_pile_is_refilled_from_under_the_top_card():
    names = [f"P{i}" for i in range(8)]
    g = game_of(start(names), play("P1", "red-leaves"), play("P2", "red-suns"), play("P3", "orange-suns"))
    for seat in (4, 5, 6, 7):
        g.submit(draw(f"P{seat}"))
        g.submit(pass_(f"P{seat}"))
    g.submit(draw("P0"))                               # the 2 cards under orange-suns are reshuffled
    state = g.to_dict()
    assert (state["draw_pile"], state["discard_pile"], state["top_card"]) == (1, 1, "orange-suns")


# -- winning ----------------------------------------------------------------------------------------
def test_the_first_player_out_of_cards_wins():
    g = game_of(start(("Ana", "Ben")))
    cards = ["red-leaves", "red-suns", "orange-suns", "orange-rain", "yellow-rain", "yellow-river", "green-river"]
    for i, card in enumerate(cards):
        g.submit(play("Ben", card))
        if i < len(cards) - 1:
            assert g.submit(draw("Ana")).accepted and g.submit(pass_("Ana")).accepted
    state = g.to_dict()
    assert state["phase"] == "over" and state["winner"] == 1 and counts(g) == [13, 0]
    assert rejected(g, play("Ana", "green-stars")).startswith("the game is over")


# -- options ----------------------------------------------------------------------------------------
def test_without_the_wild_option_the_snake_is_not_in_play():
    g = game_of(start())
    assert "set aside" in rejected(g, play("Ben", "snake"))


def test_a_wild_snake_goes_on_anything_and_then_leaves_or_blue_follows():
    g = game_of(start(snake_wild=True), play("Ben", "red-leaves"), play("Cy", "snake"))
    assert g.to_dict()["must_follow"].startswith("a LEAVES card or a blue card")
    assert "LEAVES card or a blue card, not orange-suns" in rejected(g, play("Ana", "orange-suns"))
    assert "not violet-rain" in rejected(g, play("Ana", "violet-rain"))
    g.submit(play("Ana", "green-leaves"))             # any LEAVES
    g.submit(play("Ben", "blue-suns"))                # then the usual rule: green > blue


def test_a_blue_card_follows_a_wild_snake_and_a_snake_follows_a_snake():
    g = game_of(start(snake_wild=True), play("Ben", "snake"), play("Cy", "snake"), play("Ana", "blue-rain"))
    assert top(g) == "blue-rain"


def test_the_after_snake_rule_stays_while_players_draw():
    g = game_of(start(snake_wild=True), play("Ben", "snake"), draw("Cy"), pass_("Cy"))
    assert "after the SNAKE" in rejected(g, play("Ana", "red-suns"))
    g.submit(play("Ana", "red-leaves"))


def test_poppies_and_orchids_are_compatible_only_with_the_option():
    g = game_of(start(), play("Ben", "red-poppies"))
    assert "does not follow" in rejected(g, play("Cy", "green-orchids"))
    g = game_of(start(poppies_orchids=True), play("Ben", "red-poppies"), play("Cy", "green-orchids"),
                play("Ana", "violet-poppies"))
    assert top(g) == "violet-poppies"
    # POPPIES on POPPIES is still no match
    g = game_of(start(poppies_orchids=True), play("Ben", "red-poppies"))
    assert "does not follow" in rejected(g, play("Cy", "yellow-poppies"))


# -- invariants and simulation ----------------------------------------------------------------------
def test_invariants_catch_an_illegal_pile():
    g = game_of(start(), play("Ben", "red-leaves"))
    st = g.state.copy()
    st.discard.append("blue-suns")
    st.vars["under"] = "red-leaves"
    assert any("illegal card" in p for p in get_rules("snake-cup-rainbow").invariants(st))


@pytest.mark.parametrize("players", [2, 4, 6, 8])
@pytest.mark.parametrize("options", [{}, {"snake_wild": True}, {"poppies_orchids": True},
                                     {"snake_wild": True, "poppies_orchids": True}])
def test_random_games_keep_every_invariant(players, options):
    report = simulate("snake-cup-rainbow", 30, players, seed=3, options=options)
    assert report.violations == [] and report.unfinished == 0 and report.games == 30


def test_the_example_game_replays_to_the_hand_worked_end():
    import json
    from pathlib import Path
    path = Path(__file__).parent.parent / "docs/examples/snake-cup-rainbow-game.jsonl"
    g = Game()
    verdicts = [g.submit(json.loads(line)) for line in path.read_text().splitlines()]
    # rejected: a pass without a draw, blue-suns on violet-poppies, orange-rain after the SNAKE
    assert [i + 1 for i, v in enumerate(verdicts) if not v.accepted] == [6, 11, 13]
    # Ben laid all seven; Ana laid 6 of 8 (one drawn), Cy 5 of 8
    assert g.to_dict()["winner"] == 1 and counts(g) == [2, 0, 3]
