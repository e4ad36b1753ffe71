"""California Prison UNO rulings, each worked out by hand from shared/seeds/california-prison.txt.

Seats, clockwise: Ana (0) deals, Ben (1), Cy (2), Dee (3). Play starts at the dealer's right and runs
counterclockwise, so the order of turns is Ana -> Dee -> Cy -> Ben -> Ana: Dee starts.
"""
import pytest

from helpers import call, counts, draw, game_of, pass_, play, rejected, setup, turn

FOUR = ("Ana", "Ben", "Cy", "Dee")


def prison(players=FOUR, dealer=0, **options):
    return setup("prison", players, dealer, **options)


def flip(card):
    return {"type": "flip", "card": card}


def jump(player, *cards, announced=True, **extra):
    return play(player, *cards, announced=announced, **extra)


def state(g):
    return g.to_dict()


# -- the deal, the seats, the first card -------------------------------------------------------------
def test_ten_cards_each_and_two_to_ten_players():
    g = game_of(prison())
    assert counts(g) == [10, 10, 10, 10]
    assert state(g)["draw_pile"] == 108 - 40
    ten = [f"P{i}" for i in range(10)]
    assert counts(game_of(prison(ten))) == [10] * 10          # 100 dealt, 8 left to draw
    from referee import Game
    assert not Game().submit(prison(ten + ["P10"])).accepted
    assert not Game().submit(prison(["Solo"])).accepted


def test_the_dealers_right_starts_and_play_runs_counterclockwise():
    g = game_of(prison(), flip("red-5"))
    assert turn(g) == "Dee" and state(g)["direction"] == "counterclockwise"
    game_of_more = [play("Dee", "red-7"), play("Cy", "red-8"), play("Ben", "red-9")]
    for e in game_of_more:
        assert g.submit(e).accepted
    assert turn(g) == "Ana"
    g = game_of(prison(dealer=2), flip("red-5"))
    assert turn(g) == "Ben"                                   # seat 2 - 1


def test_a_draw2_turned_first_hits_the_dealers_right():
    g = game_of(prison(), flip("blue-draw2"))
    assert turn(g) == "Dee" and state(g)["pending_draw"] == 2


def test_a_skip_turned_first_skips_the_dealers_right():
    g = game_of(prison(), flip("blue-skip"))
    assert turn(g) == "Cy"


def test_a_wild_turned_first_goes_back():
    g = game_of(prison(), flip("wild"))
    assert state(g)["phase"] == "flip" and state(g)["draw_pile"] == 68


# -- jump-ins ------------------------------------------------------------------------------------------
def test_announced_jump_in_with_the_same_number_any_colour_moves_the_turn_to_the_jumpers_right():
    g = game_of(prison(), flip("yellow-8"), jump("Ben", "red-8"))
    # Ben (seat 1) jumped in: the turn passes to his right, Ana (seat 0)
    assert turn(g) == "Ana"
    assert counts(g) == [10, 9, 10, 10]
    assert state(g)["active_color"] == "red"


def test_an_unannounced_jump_in_costs_two_cards():
    g = game_of(prison(), flip("yellow-8"), jump("Ben", "red-8", announced=False))
    assert counts(g) == [10, 11, 10, 10]        # 10 - 1 played + 2 penalty
    assert turn(g) == "Ana"
    assert "jump in" in g.last_verdict.reason


def test_a_jump_in_event_without_the_announced_field_counts_as_silent_unless_the_option_says_otherwise():
    g = game_of(prison(), flip("yellow-8"), play("Ben", "red-8"))
    assert counts(g)[1] == 11
    g = game_of(prison(jump_in_announced_by_default=True), flip("yellow-8"), play("Ben", "red-8"))
    assert counts(g)[1] == 9
    g = game_of(prison(jump_in_penalty=3), flip("yellow-8"), jump("Ben", "red-8", announced=False))
    assert counts(g)[1] == 12


def test_announced_means_nothing_on_ones_own_turn():
    g = game_of(prison(), flip("yellow-8"), play("Dee", "yellow-2", announced=False))
    assert counts(g) == [10, 10, 10, 9]
    assert turn(g) == "Cy"


def test_a_jump_in_needs_the_same_number_colour_is_not_enough():
    g = game_of(prison(), flip("yellow-8"))
    reason = rejected(g, jump("Ben", "yellow-3"))
    assert "8" in reason and "Dee's turn" in reason


def test_jump_in_with_two_cards_of_the_number():
    g = game_of(prison(), flip("yellow-5"), jump("Cy", "blue-5", "red-5"))
    assert counts(g) == [10, 10, 8, 10]
    assert turn(g) == "Ben"                      # Cy's right
    assert state(g)["top_card"] == "red-5" and state(g)["active_color"] == "red"


def test_a_jumper_who_gets_jumped_passes_the_turn_to_the_last_jumpers_right():
    g = game_of(prison(), flip("red-5"), jump("Ben", "blue-5"), jump("Cy", "green-5"))
    assert turn(g) == "Ben"                      # Cy's right is Ben
    assert counts(g) == [10, 9, 9, 10]


def test_nobody_jumps_in_on_their_own_card():
    g = game_of(prison(), flip("red-5"), jump("Ben", "blue-5"))
    assert "cannot jump in on it" in rejected(g, jump("Ben", "yellow-5"))


def test_everybody_may_jump_on_the_first_card_the_dealer_too():
    g = game_of(prison(), flip("red-5"), jump("Ana", "blue-5"))
    assert turn(g) == "Dee"                      # Ana's right
    assert counts(g)[0] == 9


def test_jump_in_while_the_player_on_turn_is_drawing():
    g = game_of(prison(), flip("red-5"), draw("Dee"), jump("Ben", "green-5"))
    assert turn(g) == "Ana" and counts(g) == [10, 9, 10, 11]
    assert state(g)["phase"] == "play"


def test_no_jump_in_while_a_colour_is_owed():
    g = game_of(prison(), flip("red-5"), play("Dee", "wild"))
    assert "colour" in rejected(g, jump("Ben", "wild"))


def test_plain_wilds_jump_in_on_plain_wilds_unless_the_option_forbids_it():
    g = game_of(prison(), flip("red-5"), play("Dee", "wild", color="blue"), jump("Ben", "wild", color="green"))
    assert turn(g) == "Ana" and state(g)["active_color"] == "green"
    g = game_of(prison(jump_in_wilds=False), flip("red-5"), play("Dee", "wild", color="blue"))
    assert "plain wild" in rejected(g, jump("Ben", "wild", color="green"))


def test_reverses_jump_in_and_flip_the_direction_each_time():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-reverse"))
    assert state(g)["direction"] == "clockwise" and turn(g) == "Ana"        # Dee's left
    g.submit(jump("Cy", "blue-reverse"))
    assert state(g)["direction"] == "counterclockwise" and turn(g) == "Ben"  # Cy's right


# -- progressive penalties ---------------------------------------------------------------------------
def test_a_draw2_on_a_draw2_makes_the_next_player_draw_four():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-draw2"))
    assert turn(g) == "Cy" and state(g)["pending_draw"] == 2
    g.submit(play("Cy", "blue-draw2"))
    assert turn(g) == "Ben" and state(g)["pending_draw"] == 4
    g.submit(draw("Ben", 4))
    assert counts(g) == [10, 14, 9, 9]
    assert turn(g) == "Ana" and state(g)["pending_draw"] == 0   # Ben drew and missed the turn


def test_anyone_with_a_draw2_can_jump_on_the_stack_and_hit_the_player_after_them():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-draw2"), jump("Ana", "green-draw2"))
    # Cy is let off; Ana's right is Dee, who now owes 2 + 2
    assert turn(g) == "Dee" and state(g)["pending_draw"] == 4
    assert counts(g) == [9, 10, 10, 9]


def test_draw4_on_draw4_adds_up():
    g = game_of(prison(), flip("red-3"), play("Dee", "wild-draw4", color="red"),
                play("Cy", "wild-draw4", color="blue"))
    assert turn(g) == "Ben" and state(g)["pending_draw"] == 8
    g.submit(draw("Ben", 8))
    assert counts(g)[1] == 18 and turn(g) == "Ana"


def test_draw2_and_draw4_never_mix():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-draw2"))
    rejected(g, play("Cy", "wild-draw4", color="red"))
    rejected(g, jump("Ana", "wild-draw4", color="red"))
    g = game_of(prison(), flip("red-3"), play("Dee", "wild-draw4", color="red"))
    rejected(g, play("Cy", "red-draw2"))
    rejected(g, jump("Ben", "blue-draw2"))


def test_the_victim_may_only_stack_or_draw():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-draw2"))
    assert "must draw 2" in rejected(g, play("Cy", "red-4"))
    rejected(g, pass_("Cy"))


def test_two_draw_fours_make_eight_and_the_player_before_can_make_it_twelve():
    # "If you have two draw fours... the person after you has to draw 8 cards... the player
    # before you in rotation can jump in and now YOU have to draw twelve cards."
    g = game_of(prison(), flip("red-3"), play("Dee", "wild-draw4", "wild-draw4", color="green"))
    assert turn(g) == "Cy" and state(g)["pending_draw"] == 8
    g.submit(jump("Ana", "wild-draw4", color="red"))      # Ana plays just before Dee
    assert turn(g) == "Dee" and state(g)["pending_draw"] == 12
    g.submit(draw("Dee", 12))
    assert counts(g) == [9, 10, 10, 20]
    assert turn(g) == "Cy"


def test_a_penalty_stack_may_be_drawn_in_parts():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-draw2"), play("Cy", "blue-draw2"), draw("Ben", 1))
    assert state(g)["pending_draw"] == 3 and turn(g) == "Ben"
    g.submit(draw("Ben", 3))
    assert turn(g) == "Ana" and counts(g)[1] == 14


def test_option_the_victim_plays_after_drawing_the_stack():
    g = game_of(prison(penalty_skips_turn=False), flip("red-3"), play("Dee", "red-draw2"), draw("Cy", 2))
    assert turn(g) == "Cy"


# -- doubles ---------------------------------------------------------------------------------------------
def test_a_double_goes_down_when_one_of_its_cards_matches_and_the_last_one_lies_on_top():
    g = game_of(prison(), flip("red-5"), play("Dee", "blue-9", "red-9"))
    assert counts(g)[3] == 8 and turn(g) == "Cy"
    assert state(g)["top_card"] == "red-9" and state(g)["active_color"] == "red"


def test_a_double_where_no_card_matches_is_refused():
    g = game_of(prison(), flip("red-5"))
    assert "none of" in rejected(g, play("Dee", "blue-9", "green-9"))


def test_cards_that_go_down_together_share_their_number():
    g = game_of(prison(), flip("red-5"))
    assert "same number" in rejected(g, play("Dee", "red-6", "red-7"))


def test_several_skips_count_as_one():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-skip", "blue-skip", "green-skip"))
    assert turn(g) == "Ben"               # only Cy is skipped


def test_several_reverses_count_as_one():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-reverse", "blue-reverse"))
    assert state(g)["direction"] == "clockwise" and turn(g) == "Ana"


def test_two_draw2s_make_four():
    g = game_of(prison(), flip("red-3"), play("Dee", "red-draw2", "yellow-draw2"))
    assert state(g)["pending_draw"] == 4 and turn(g) == "Cy"


def test_option_limits_how_many_cards_go_down_together():
    g = game_of(prison(max_cards_per_play=2), flip("red-3"))
    rejected(g, play("Dee", "red-9", "blue-9", "green-9"))
    assert g.submit(play("Dee", "red-9", "blue-9")).accepted


# -- drawing ---------------------------------------------------------------------------------------------
def test_a_player_who_cannot_play_draws_until_they_can():
    g = game_of(prison(), flip("red-3"), draw("Dee"))
    assert "keeps drawing" in rejected(g, pass_("Dee"))
    g.submit(draw("Dee", 3))                  # several at once are fine too
    assert counts(g)[3] == 14 and turn(g) == "Dee"
    g.submit(play("Dee", "red-4"))
    assert turn(g) == "Cy"


# -- the last card ---------------------------------------------------------------------------------------
SEVENS = ["red-7", "red-7", "yellow-7", "yellow-7", "green-7", "green-7", "blue-7", "blue-7"]


def ben_down_to_two():
    """Two players: Ana deals, Ben (her right) starts; Ben sheds all eight sevens at once."""
    return [prison(("Ana", "Ben")), flip("red-5"), play("Ben", *SEVENS), play("Ana", "blue-3")]


def test_going_out_on_a_double_without_announcing_costs_the_penalty_and_the_game_goes_on():
    g = game_of(*ben_down_to_two())
    assert counts(g) == [9, 2] and turn(g) == "Ben"
    g.submit(play("Ben", "blue-9", "red-9"))
    assert state(g)["winner"] is None
    assert counts(g) == [9, 2]                # 0 + 2 penalty cards
    assert "without announcing" in g.last_verdict.reason


def test_going_out_on_a_double_after_announcing_wins():
    g = game_of(*ben_down_to_two(), call("Ben", "Ben"), play("Ben", "blue-9", "red-9"))
    assert state(g)["winner"] == 1 and state(g)["phase"] == "over"


def test_announcing_with_three_cards_covers_a_triple():
    g = game_of(prison(("Ana", "Ben")), flip("red-5"), play("Ben", *SEVENS[:7]), play("Ana", "blue-3"),
                call("Ben", "Ben"))
    assert counts(g) == [9, 3]
    g.submit(play("Ben", "red-9", "blue-9", "green-9"))
    assert state(g)["winner"] == 1


def test_a_single_last_card_not_announced_costs_two_when_the_window_shuts():
    g = game_of(*ben_down_to_two(), play("Ben", "blue-4"))      # one left, nothing said
    assert state(g)["call_open"] == 1
    g.submit(play("Ana", "blue-6"))                               # the window shuts
    assert counts(g) == [8, 3]
    assert "never announced" in g.last_verdict.reason


def test_a_silent_last_card_caught_by_another_player_costs_two_at_once():
    g = game_of(*ben_down_to_two(), play("Ben", "blue-4"), call("Ana", "Ben"))
    assert counts(g) == [9, 3]


def test_a_single_last_card_announced_in_time_wins():
    g = game_of(*ben_down_to_two(), play("Ben", "blue-4"), call("Ben", "Ben"), play("Ana", "blue-6"),
                play("Ben", "blue-1"))
    assert state(g)["winner"] == 1


def test_playing_the_last_card_while_still_silent_on_it_does_not_win():
    # two players: a skip gives Ben the turn again before anyone could act
    g = game_of(*ben_down_to_two(), play("Ben", "blue-skip"))
    assert turn(g) == "Ben" and counts(g)[1] == 1
    g.submit(play("Ben", "blue-1"))
    assert state(g)["winner"] is None and counts(g)[1] == 2


def test_option_no_penalty_unless_caught():
    events = ben_down_to_two()
    events[0] = prison(("Ana", "Ben"), penalize_uncaught=False)
    g = game_of(*events, play("Ben", "blue-4"), play("Ana", "blue-6"))
    assert counts(g) == [8, 1]


def test_calling_on_a_player_with_several_cards_is_refused():
    g = game_of(prison(), flip("red-5"))
    assert "no last card" in rejected(g, call("Ana", "Ben"))


# -- options and simulation ------------------------------------------------------------------------------
def test_every_option_is_listed_for_tableref_rules():
    from referee import all_rules
    names = {o["name"] for o in all_rules()["prison"].describe()["options"]}
    assert {"jump_in_penalty", "jump_in_announced_by_default", "jump_in_wilds", "max_cards_per_play",
            "last_card_penalty", "penalize_uncaught", "penalty_skips_turn", "two_player_reverse_skips"} <= names


@pytest.mark.parametrize("players,options", [
    (2, {}), (4, {}), (10, {}),
    (4, {"max_cards_per_play": 2, "penalize_uncaught": False, "penalty_skips_turn": False}),
    (3, {"jump_in_announced_by_default": True, "jump_in_wilds": False, "last_card_penalty": 0}),
])
def test_random_games_keep_every_invariant(players, options):
    from referee.simulate import simulate
    report = simulate("prison", 60, players=players, seed=7, options=options)
    assert report.violations == []
    assert report.games == 60 and report.unfinished == 0


def test_the_example_game_replays_through_the_command_line():
    import json
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "web", "replay", str(root / "docs/examples/prison-game.jsonl"),
                          "--json"], capture_output=True, text=True, cwd=root, check=True)
    data = json.loads(out.stdout)
    # lines 6 (a 4 jumping on a 7), 10 (a draw four on a draw-two stack) and 19 (passing while
    # cards can be drawn) are refused; Ben goes out on an announced double of eights
    assert [v["line"] for v in data["verdicts"] if not v["accepted"]] == [6, 10, 19]
    state = data["state"]
    assert state["winner"] == 1
    assert [p["hand_count"] for p in state["players"]] == [15, 0, 14]
