"""ONO! rulings, each worked out by hand from shared/seeds/ono.txt.

Seats: Ana (0) deals, Ben (1) sits to her left and starts, then Cy (2), clockwise.
"""
import pytest

from helpers import call, color, counts, draw, game_of, pass_, play, rejected, setup, turn


# -- deck -----------------------------------------------------------------------------------------
def test_ono_deck_has_112_cards_as_the_seed_counts_them():
    from referee import load_deck
    deck = load_deck("ono")
    numbers = sum(n for cid, n in deck.counts.items() if deck.cards[cid].kind == "number")
    actions = sum(n for cid, n in deck.counts.items() if deck.cards[cid].kind == "action")
    assert (deck.size, numbers, actions, deck.counts["wild"], deck.counts["wild-draw4"]) == (112, 76, 24, 8, 4)


def test_uno_deck_has_108_cards_19_per_colour():
    from referee import load_deck
    deck = load_deck("uno")
    assert deck.size == 108
    for c in deck.colors:
        numbers = sum(n for cid, n in deck.counts.items() if cid.startswith(c + "-") and deck.cards[cid].kind == "number")
        assert numbers == 19
        assert deck.counts[f"{c}-skip"] == deck.counts[f"{c}-reverse"] == deck.counts[f"{c}-draw2"] == 2
    assert deck.counts["wild"] == deck.counts["wild-draw4"] == 4


# -- the deal and the first card ------------------------------------------------------------------
def test_setup_deals_seven_each_and_waits_for_the_first_card():
    state = game_of(setup()).to_dict()
    assert counts_of(state) == [7, 7, 7]
    assert state["draw_pile"] == 112 - 21
    assert state["phase"] == "flip"


def counts_of(state):
    return [p["hand_count"] for p in state["players"]]


def test_player_to_the_dealers_left_starts():
    g = game_of(setup(dealer=0), {"type": "flip", "card": "red-5"})
    assert turn(g) == "Ben"
    assert g.to_dict()["active_color"] == "red"
    g = game_of(setup(dealer=2), {"type": "flip", "card": "red-5"})
    assert turn(g) == "Ana"


def test_skip_turned_first_skips_the_first_player():
    g = game_of(setup(), {"type": "flip", "card": "green-skip"})
    assert turn(g) == "Cy"


def test_reverse_turned_first_acts_as_if_the_dealer_played_it():
    g = game_of(setup(), {"type": "flip", "card": "green-reverse"})
    # play now runs to the dealer's right: Cy (seat 2) is next after Ana (seat 0)
    assert turn(g) == "Cy"
    assert g.to_dict()["direction"] == "counterclockwise"


def test_draw_two_turned_first_makes_the_first_player_draw_two_and_miss_the_turn():
    g = game_of(setup(), {"type": "flip", "card": "blue-draw2"})
    assert turn(g) == "Ben" and g.to_dict()["pending_draw"] == 2
    rejected(g, play("Ben", "blue-4"))
    g.submit(draw("Ben", 2))
    assert counts(g) == [7, 9, 7]
    assert turn(g) == "Cy" and g.to_dict()["pending_draw"] == 0


@pytest.mark.parametrize("first", ["wild", "wild-draw4"])
def test_a_wild_turned_first_goes_back_and_another_card_is_turned(first):
    g = game_of(setup(), {"type": "flip", "card": first})
    state = g.to_dict()
    assert state["phase"] == "flip" and state["top_card"] is None
    assert state["draw_pile"] == 91          # the wild went back into the pile
    g.submit({"type": "flip", "card": "yellow-3"})
    assert g.to_dict()["top_card"] == "yellow-3" and turn(g) == "Ben"


# -- matching -------------------------------------------------------------------------------------
def started(first="red-5", **options):
    return game_of(setup(**options), {"type": "flip", "card": first})


def test_match_by_colour_and_by_number():
    g = started("red-5")
    g.submit(play("Ben", "red-7"))            # colour
    g.submit(play("Cy", "blue-7"))            # number
    assert g.to_dict()["top_card"] == "blue-7"
    reason = rejected(g, play("Ana", "green-5"))
    assert "green-5" in reason and "blue-7" in reason


def test_match_by_food_across_colour_and_number():
    # red-1 and green-2 both carry an apple (docs/rules/ono.md)
    g = started("green-2")
    g.submit(play("Ben", "red-1"))
    assert g.to_dict()["top_card"] == "red-1"
    g2 = started("green-3")                    # green-3 is a pear: no match for red-1
    assert "food" in rejected(g2, play("Ben", "red-1"))


def test_match_by_action():
    g = started("red-skip")                    # Ben skipped, Cy plays
    g.submit(play("Cy", "blue-skip"))
    assert turn(g) == "Ben"                    # Ana skipped
    rejected(g, play("Ben", "green-draw2"))


def test_play_out_of_turn_is_rejected_with_whose_turn_it_is():
    g = started()
    assert rejected(g, play("Cy", "red-9")).startswith("it is Ben's turn, not Cy's")


def test_unknown_card_and_unknown_player_are_rejected():
    g = started()
    assert "not a card" in rejected(g, play("Ben", "purple-5"))
    assert "no player" in rejected(g, play("Dan", "red-9"))
    assert "no player" in rejected(g, play(7, "red-9"))


def test_a_card_whose_copies_are_all_on_the_pile_cannot_be_played_again():
    g = started("red-0")                       # the deck has one red-0
    g.submit(play("Ben", "red-1"))
    g.submit(play("Cy", "red-1"))              # both red-1 are now on the pile
    reason = rejected(g, play("Ana", "red-1"))
    assert "deck has 2" in reason


# -- wilds ---------------------------------------------------------------------------------------
def test_wild_can_be_played_any_time_and_the_named_colour_must_follow():
    g = started("red-5")
    g.submit(play("Ben", "wild"))
    assert g.to_dict()["phase"] == "color"
    rejected(g, play("Cy", "red-6"))             # the colour is not named yet
    rejected(g, color("Cy", "blue"))             # only Ben names it
    g.submit(color("Ben", "blue"))
    assert turn(g) == "Cy" and g.to_dict()["active_color"] == "blue"
    rejected(g, play("Cy", "red-5"))             # red no longer matches
    g.submit(play("Cy", "blue-5"))


def test_wild_with_the_colour_in_the_play_event():
    g = started("red-5")
    g.submit(play("Ben", "wild", color="green"))
    assert turn(g) == "Cy" and g.to_dict()["active_color"] == "green"
    assert "only a wild" in rejected(g, play("Cy", "green-4", color="red"))


def test_wild_draw_four_next_player_draws_four_and_misses_the_turn():
    g = started("red-5")
    g.submit(play("Ben", "wild-draw4", color="yellow"))
    assert turn(g) == "Cy" and g.to_dict()["pending_draw"] == 4
    assert "draw 4" in rejected(g, play("Cy", "yellow-2"))
    assert "owes 4" in rejected(g, draw("Cy", 5))
    g.submit(draw("Cy", 4))
    assert counts(g) == [7, 6, 11] and turn(g) == "Ana"


# -- actions -----------------------------------------------------------------------------------
def test_draw_two_next_player_draws_two_and_misses_the_turn():
    g = started("red-5")
    g.submit(play("Ben", "red-draw2"))
    g.submit(draw("Cy", 1))                      # in two goes
    assert turn(g) == "Cy" and g.to_dict()["pending_draw"] == 1
    g.submit(draw("Cy", 1))
    assert counts(g) == [7, 6, 9] and turn(g) == "Ana"


def test_reverse_changes_direction():
    g = started("red-5")
    g.submit(play("Ben", "red-reverse"))
    assert turn(g) == "Ana" and g.to_dict()["direction"] == "counterclockwise"
    g.submit(play("Ana", "red-reverse"))
    assert turn(g) == "Ben" and g.to_dict()["direction"] == "clockwise"


def test_with_two_players_a_reverse_acts_as_a_skip_unless_the_option_is_off():
    g = game_of(setup(players=("Ana", "Ben")), {"type": "flip", "card": "red-5"})
    g.submit(play("Ben", "red-reverse"))
    assert turn(g) == "Ben"
    g = game_of(setup(players=("Ana", "Ben"), two_player_reverse_skips=False), {"type": "flip", "card": "red-5"})
    g.submit(play("Ben", "red-reverse"))
    assert turn(g) == "Ana"


def test_skip():
    g = started("red-5")
    g.submit(play("Ben", "red-skip"))
    assert turn(g) == "Ana"                      # Cy is skipped


# -- drawing ------------------------------------------------------------------------------------
def test_a_player_who_does_not_play_draws_one_then_plays_it_or_keeps_it():
    g = started("red-5")
    assert "must play or draw" in rejected(g, pass_("Ben"))
    assert "one card" in rejected(g, draw("Ben", 2))
    g.submit(draw("Ben", 1))
    assert "drawn already" in rejected(g, draw("Ben", 1))
    g.submit(pass_("Ben"))                       # keeps it
    assert counts(g) == [7, 8, 7] and turn(g) == "Cy"
    g.submit(draw("Cy", 1))
    g.submit(play("Cy", "red-6"))                # plays the card drawn
    assert counts(g) == [7, 8, 7] and turn(g) == "Ana"


def test_a_player_may_draw_even_with_a_playable_card():
    g = started("red-5")
    g.submit(draw("Ben", 1))
    assert g.to_dict()["phase"] == "drawn"


def test_empty_draw_pile_is_refilled_from_the_discard_pile():
    g = game_of(setup(players=("Ana", "Ben")), {"type": "flip", "card": "red-5"})
    assert g.to_dict()["draw_pile"] == 112 - 14 - 1      # 97
    for i in range(97):
        name = "Ben" if i % 2 == 0 else "Ana"
        g.submit(draw(name, 1))
        g.submit(pass_(name))
    state = g.to_dict()
    assert state["draw_pile"] == 0 and counts_of(state) == [7 + 48, 7 + 49]
    # Ana's turn: nothing to draw, so she may pass without drawing
    assert "no card is left" in rejected(g, draw("Ana", 1))
    g.submit(play("Ana", "red-6"))
    g.submit(play("Ben", "red-7"))
    # the discard pile holds red-5, red-6, red-7: red-5 and red-6 become the draw pile
    g.submit(draw("Ana", 1))
    state = g.to_dict()
    assert state["draw_pile"] == 1 and state["discard_pile"] == 1 and state["top_card"] == "red-7"
    assert sum(counts_of(state)) + state["draw_pile"] + state["discard_pile"] == 112


def test_longer_game_keeps_drawing_until_a_card_can_be_played():
    g = started("red-5", longer_game=True)
    g.submit(draw("Ben", 3))
    assert "keeps drawing" in rejected(g, pass_("Ben"))
    g.submit(draw("Ben", 1))
    g.submit(play("Ben", "wild", color="red"))
    assert counts(g) == [7, 10, 7]


def test_shorter_game_removes_six_to_nine():
    g = game_of(setup(shorter_game=True))
    assert g.to_dict()["draw_pile"] == 112 - 32 - 21
    rejected(g, {"type": "flip", "card": "red-7"})
    g.submit({"type": "flip", "card": "red-5"})
    assert "not a card" in rejected(g, play("Ben", "red-9"))


# -- the ONO! call ------------------------------------------------------------------------------
def ben_down_to_one():
    """Ben plays six red cards while Cy and Ana draw and pass five times: Ben 1, Cy 12, Ana 12."""
    g = started("red-0")
    for card in ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6"]:
        g.submit(play("Ben", card))
        if card != "red-6":
            g.submit(draw("Cy"))
            g.submit(pass_("Cy"))
            g.submit(draw("Ana"))
            g.submit(pass_("Ana"))
    assert counts(g) == [12, 1, 12]
    return g


def test_catching_a_player_who_did_not_call_ono_switches_hands():
    g = ben_down_to_one()
    assert g.to_dict()["call_open"] == 1
    g.submit(call("Cy", "Ben"))
    assert counts(g) == [12, 12, 1]
    assert turn(g) == "Cy"                       # the turn itself does not move


def test_a_player_who_called_ono_is_safe():
    g = ben_down_to_one()
    g.submit(call("Ben", "Ben"))
    assert "safe" in rejected(g, call("Cy", "Ben"))


def test_the_window_closes_when_the_next_player_plays_or_draws():
    g = ben_down_to_one()
    g.submit(draw("Cy"))
    assert "safe" in rejected(g, call("Ana", "Ben"))


def test_calling_ono_on_a_player_with_more_cards_costs_four():
    g = ben_down_to_one()
    g.submit(call("Ana", "Cy"))
    assert counts(g) == [16, 1, 12]


def test_a_bluff_about_ones_own_last_card_is_legal():
    g = started()
    verdict = g.submit(call("Ben", "Ben"))
    assert verdict.accepted and counts(g) == [7, 7, 7]


def test_calling_with_two_cards_before_the_last_play_counts():
    g = ben_down_to_one()
    g.submit(call("Ben", "Ben"))
    # Ben is safe, so a catch is refused; a false alarm by Cy on Ana still costs four
    g.submit(call("Cy", "Ana"))
    assert counts(g) == [12, 1, 16]


def test_winning_ends_the_game():
    g = ben_down_to_one()
    g.submit(call("Ben", "Ben"))
    g.submit(draw("Cy"))
    g.submit(pass_("Cy"))
    g.submit(draw("Ana"))
    g.submit(pass_("Ana"))
    g.submit(play("Ben", "red-7"))
    state = g.to_dict()
    assert state["winner"] == 1 and state["phase"] == "over"
    assert "over" in rejected(g, play("Cy", "red-8"))


# -- playing for points -------------------------------------------------------------------------
def test_points_the_round_winner_scores_the_other_hands_and_a_new_round_is_dealt():
    g = game_of(setup(players=("Ana", "Ben"), points_target=500), {"type": "flip", "card": "red-0"})
    ben = ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7"]
    for i, card in enumerate(ben):
        if i == 6:
            g.submit(call("Ben", "Ben"))
        g.submit(play("Ben", card))
        if i < 6:
            g.submit(draw("Ana"))
            g.submit(pass_("Ana"))
    state = g.to_dict()
    assert state["phase"] == "scoring" and counts_of(state) == [13, 0]
    rejected(g, {"type": "reveal", "player": "Ana", "cards": ["blue-1"]})     # 13 cards, not 1
    hand = ["blue-1", "blue-2", "green-9", "green-skip", "yellow-reverse", "blue-draw2", "wild",
            "wild-draw4", "yellow-0", "yellow-5", "green-3", "blue-8", "yellow-9"]
    g.submit({"type": "reveal", "player": "Ana", "cards": hand})
    # 1+2+9 + 20+20+20 + 50+50 + 0+5+3+8+9 = 197
    state = g.to_dict()
    assert state["scores"] == [0, 197]
    assert state["round"] == 2 and state["phase"] == "flip" and state["winner"] is None
    assert state["dealer"] == 1 and counts_of(state) == [7, 7] and state["draw_pile"] == 98


def test_points_reaching_the_target_wins_the_game():
    g = game_of(setup(players=("Ana", "Ben"), points_target=100), {"type": "flip", "card": "red-0"})
    for i, card in enumerate(["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7"]):
        if i == 6:
            g.submit(call("Ben", "Ben"))
        g.submit(play("Ben", card))
        if i < 6:
            g.submit(draw("Ana"))
            g.submit(pass_("Ana"))
    hand = ["wild"] * 2 + ["blue-1"] * 2 + ["green-1"] * 2 + ["yellow-1"] * 2 + ["blue-0", "green-0", "yellow-0",
                                                                                 "red-0", "blue-2"]
    # only one red-0 exists and it lies on the pile
    assert "red-0" in rejected(g, {"type": "reveal", "player": "Ana", "cards": hand})
    hand[-2] = "green-2"
    g.submit({"type": "reveal", "player": "Ana", "cards": hand})
    state = g.to_dict()
    assert state["scores"] == [0, 100 + 6 + 4] and state["winner"] == 1 and state["phase"] == "over"


# -- undo and setup -------------------------------------------------------------------------------
def test_undo_takes_back_the_last_accepted_event():
    g = started("red-5")
    before = g.to_dict()
    g.submit(play("Ben", "red-draw2"))
    g.submit({"type": "undo"})
    after = g.to_dict()
    before.pop("last_verdict"), after.pop("last_verdict")
    assert after == before


def test_nothing_to_undo_and_no_game_yet():
    from referee import Game
    g = Game()
    assert "nothing to undo" in rejected(g, {"type": "undo"})
    assert "setup" in rejected(g, play("Ana", "red-1"))


@pytest.mark.parametrize("bad, words", [
    (setup(players=("Ana",)), "2 to 10"),
    (setup(players=("Ana", "ana")), "same name"),
    (setup(dealer=5), "dealer"),
    (setup(colour_blind=True), "no option colour_blind"),
    (setup(points_target="lots"), "whole number"),
    ({"type": "setup", "rules": "poker", "players": ["A", "B"]}, "unknown rule set"),
])
def test_bad_setups_are_rejected_with_a_reason(bad, words):
    from referee import Game
    assert words in rejected(Game(), bad)


def test_a_second_setup_during_a_game_is_rejected():
    g = started()
    assert "already under way" in rejected(g, setup())
