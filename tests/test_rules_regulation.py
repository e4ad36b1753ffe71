"""Regulation UNO rulings, each worked out by hand from shared/seeds/regulation.txt.

Seats, clockwise: Ana (0) deals, Ben (1), Cy (2), Dee (3); Ben starts and play runs clockwise.
Seven cards each: 108 - 28 = 80 in the draw pile before the first card is turned up.
"""
import pytest

from helpers import call, color, counts, draw, game_of, pass_, play, rejected, setup, turn

FOUR = ("Ana", "Ben", "Cy", "Dee")


def regulation(players=FOUR, dealer=0, **options):
    return setup("regulation", players, dealer, **options)


def flip(card):
    return {"type": "flip", "card": card}


def challenge(player):
    return {"type": "challenge", "player": player}


def reveal(player, *cards):
    return {"type": "reveal", "player": player, "cards": list(cards)}


def state(g):
    return g.to_dict()


# -- matching ------------------------------------------------------------------------------------------
def test_a_card_matches_by_the_colour_being_played_or_the_number():
    g = game_of(regulation(), flip("red-5"), play("Ben", "blue-5"), play("Cy", "blue-9"), play("Dee", "green-9"))
    assert turn(g) == "Ana" and state(g)["active_color"] == "green"
    assert "matches neither" in rejected(g, play("Ana", "red-4"))


def test_a_wild_goes_on_anything_even_holding_the_colour():
    g = game_of(regulation(), flip("green-9"), play("Ben", "wild", color="red"))
    assert state(g)["active_color"] == "red" and turn(g) == "Cy"


def test_a_skip_goes_only_on_its_own_colour():
    g = game_of(regulation(), flip("green-4"), play("Ben", "green-skip"))
    assert turn(g) == "Dee"                       # Cy loses the turn
    assert "own colour" in rejected(g, play("Dee", "red-skip"))
    g = game_of(regulation(skip_on_skip=True), flip("green-4"), play("Ben", "green-skip"), play("Dee", "red-skip"))
    assert turn(g) == "Ben"


def test_a_reverse_goes_on_its_colour_or_on_another_reverse_and_the_player_before_plays_again():
    g = game_of(regulation(), flip("red-5"), play("Ben", "red-reverse"))
    assert state(g)["direction"] == "counterclockwise" and turn(g) == "Ana"   # Ana played (dealt) before Ben
    g.submit(play("Ana", "green-reverse"))
    assert state(g)["direction"] == "clockwise" and turn(g) == "Ben"


def test_with_two_players_a_reverse_gives_the_turn_to_the_other_player_unless_the_option_says_skip():
    g = game_of(regulation(("Ana", "Ben")), flip("red-5"), play("Ben", "red-reverse"))
    assert turn(g) == "Ana"
    g = game_of(regulation(("Ana", "Ben"), two_player_reverse_skips=True), flip("red-5"), play("Ben", "red-reverse"))
    assert turn(g) == "Ben"


# -- draw two ----------------------------------------------------------------------------------------------
def test_draw2_makes_the_next_player_take_two_and_miss_the_turn():
    g = game_of(regulation(), flip("red-5"), play("Ben", "red-draw2"))
    assert turn(g) == "Cy" and state(g)["pending_draw"] == 2
    g.submit(draw("Cy", 2))
    assert counts(g) == [7, 6, 9, 7] and turn(g) == "Dee"


def test_a_draw2_is_never_stacked_and_after_a_paid_one_only_of_the_colour_in_play():
    g = game_of(regulation(), flip("red-5"), play("Ben", "red-draw2"))
    rejected(g, play("Cy", "blue-draw2"))           # no stacking: Cy must draw
    g.submit(draw("Cy", 2))
    assert "cannot go on a draw2" in rejected(g, play("Dee", "blue-draw2"))   # not the colour in play
    g.submit(play("Dee", "red-draw2"))              # paid, and the colour in play (default)
    assert turn(g) == "Ana" and state(g)["pending_draw"] == 2
    # the stricter reading as an option: never a draw2 on a draw2
    g = game_of(regulation(draw2_on_paid_draw2=False), flip("red-5"), play("Ben", "red-draw2"), draw("Cy", 2))
    assert "cannot go on a draw2" in rejected(g, play("Dee", "red-draw2"))


def test_option_the_draw2_victim_keeps_the_turn():
    g = game_of(regulation(penalty_skips_turn=False), flip("red-5"), play("Ben", "red-draw2"), draw("Cy", 2))
    assert turn(g) == "Cy"


# -- the first card ------------------------------------------------------------------------------------------
def test_a_draw2_turned_first_the_first_player_takes_two_then_discards_one_of_its_colour():
    g = game_of(regulation(), flip("blue-draw2"))
    assert turn(g) == "Ben" and state(g)["pending_draw"] == 2
    rejected(g, play("Ben", "blue-4"))              # the two come first
    g.submit(draw("Ben", 2))
    assert state(g)["phase"] == "discard" and turn(g) == "Ben" and counts(g)[1] == 9
    assert "blue" in rejected(g, play("Ben", "wild", color="blue"))
    rejected(g, pass_("Ben"))
    g.submit(play("Ben", "blue-4"))
    assert counts(g)[1] == 8 and turn(g) == "Cy" and state(g)["phase"] == "play"


def test_first_player_without_the_colour_draws_one_and_may_pass():
    g = game_of(regulation(), flip("blue-draw2"), draw("Ben", 2), draw("Ben"))
    assert "blue" in rejected(g, play("Ben", "red-4"))
    g.submit(pass_("Ben"))
    assert counts(g)[1] == 10 and turn(g) == "Cy"
    assert g.submit(play("Cy", "blue-1")).accepted    # the ordinary rules again


def test_a_reverse_turned_first_makes_play_run_counterclockwise():
    g = game_of(regulation(), flip("red-reverse"))
    assert state(g)["direction"] == "counterclockwise" and turn(g) == "Dee"


def test_a_skip_turned_first_costs_the_first_player_the_turn():
    g = game_of(regulation(), flip("red-skip"))
    assert turn(g) == "Cy"


def test_a_draw4_turned_first_goes_back_and_the_pile_is_shuffled():
    g = game_of(regulation(), flip("wild-draw4"))
    assert state(g)["phase"] == "flip" and state(g)["draw_pile"] == 80 and state(g)["top_card"] is None
    assert g.last_verdict.reason.startswith("wild-draw4 is turned up: it goes back")


def test_a_wild_turned_first_the_first_player_names_the_colour_and_plays():
    g = game_of(regulation(), flip("wild"))
    assert state(g)["phase"] == "color"
    rejected(g, color("Ana", "green"))
    g.submit(color("Ben", "green"))
    assert turn(g) == "Ben" and state(g)["active_color"] == "green"


def test_option_the_dealer_names_the_first_wilds_colour():
    g = game_of(regulation(first_wild_named_by="dealer"), flip("wild"), color("Ana", "green"))
    assert turn(g) == "Ben" and state(g)["active_color"] == "green"


# -- wild draw four and its challenge --------------------------------------------------------------------
def four_on_red():
    """Ben plays a wild draw four on a red 5 and names blue; Cy is the victim."""
    return [regulation(), flip("red-5"), play("Ben", "wild-draw4", color="blue")]


def test_a_wild_draw4_opens_a_challenge_window_for_the_victim():
    g = game_of(*four_on_red())
    s = state(g)
    assert s["phase"] == "challenge" and turn(g) == "Cy" and s["pending_draw"] == 4
    assert s["challenge"] == {"player": 1, "victim": 2, "color_before": "red", "hand_at_play": 6}
    rejected(g, play("Cy", "blue-3"))
    rejected(g, challenge("Dee"))


def test_the_victim_may_just_draw_four_and_miss_the_turn():
    g = game_of(*four_on_red(), draw("Cy", 4))
    assert counts(g) == [7, 6, 11, 7] and turn(g) == "Dee"
    assert state(g)["challenge"] is None
    rejected(g, challenge("Cy"))


def test_a_challenge_the_bluffer_held_the_colour_being_played_and_takes_the_four():
    g = game_of(*four_on_red(), challenge("Cy"))
    assert state(g)["phase"] == "reveal"
    rejected(g, draw("Cy", 4))
    rejected(g, reveal("Cy", "red-1", "red-2", "red-3", "red-4", "blue-1", "blue-2", "blue-3"))
    g.submit(reveal("Ben", "red-9", "green-1", "green-2", "yellow-3", "wild", "blue-6"))
    assert counts(g) == [7, 10, 7, 7]
    assert turn(g) == "Cy" and state(g)["pending_draw"] == 0 and state(g)["phase"] == "play"
    assert "bluff" in g.last_verdict.reason
    assert "red-9" in state(g)["players"][1]["known_cards"]


def test_a_challenge_the_player_had_no_card_of_the_colour_so_the_challenger_takes_four_plus_two():
    g = game_of(*four_on_red(), challenge("Cy"),
                reveal("Ben", "green-1", "green-2", "yellow-3", "wild", "blue-6", "blue-skip"))
    # a wild has no colour: it does not count as a red card
    assert counts(g) == [7, 6, 13, 7] and turn(g) == "Dee"


def test_the_reveal_must_show_the_whole_hand():
    g = game_of(*four_on_red(), challenge("Cy"))
    assert "holds 6" in rejected(g, reveal("Ben", "green-1", "green-2"))


def test_a_revealed_hand_stays_known_so_a_card_not_shown_cannot_be_played():
    g = game_of(*four_on_red(), challenge("Cy"),
                reveal("Ben", "green-1", "green-2", "yellow-3", "wild", "blue-6", "blue-skip"),
                draw("Dee"), pass_("Dee"), play("Ana", "blue-1"))
    assert "is known to be" in rejected(g, play("Ben", "blue-7"))   # not among the six shown
    assert g.submit(play("Ben", "blue-6")).accepted


def test_the_colour_that_counts_is_the_one_named_before_the_draw4():
    g = game_of(regulation(), flip("red-5"), play("Ben", "wild", color="green"),
                play("Cy", "wild-draw4", color="yellow"), challenge("Dee"),
                reveal("Cy", "green-3", "red-1", "red-2", "red-3", "red-4", "red-6"))
    assert counts(g) == [7, 6, 10, 7] and turn(g) == "Dee"


# -- drawing ---------------------------------------------------------------------------------------------
def test_a_player_who_cannot_play_takes_one_card_then_plays_it_or_passes():
    g = game_of(regulation(), flip("red-5"))
    rejected(g, pass_("Ben"))
    assert "one card" in rejected(g, draw("Ben", 2))
    g.submit(draw("Ben"))
    rejected(g, draw("Ben"))
    g.submit(pass_("Ben"))
    assert counts(g)[1] == 8 and turn(g) == "Cy"


# -- UNO ------------------------------------------------------------------------------------------------
def down_to_one():
    """Two players, Ben leads: after his sixth card he holds one and Ana (five played) holds two."""
    ben = ["red-1", "red-3", "red-7", "red-9", "blue-2", "blue-4"]
    ana = ["red-2", "red-4", "red-8", "blue-9", "blue-6"]
    events = [regulation(("Ana", "Ben")), flip("red-5")]
    for i, card in enumerate(ben):
        events.append(play("Ben", card))
        if i < len(ana):
            events.append(play("Ana", ana[i]))
    return events


def test_down_to_one_card_without_calling_takes_a_penalty_card_when_the_window_shuts():
    g = game_of(*down_to_one())
    assert counts(g) == [2, 1] and state(g)["call_open"] == 1
    g.submit(play("Ana", "blue-3"))
    assert counts(g) == [1, 2]
    assert "never called" in g.last_verdict.reason


def test_calling_in_time_saves_the_card():
    g = game_of(*down_to_one(), call("Ben", "Ben"), play("Ana", "blue-3"))
    assert counts(g) == [1, 1]
    # Ana did not call either; Ben plays, the window on Ana shuts and she takes one
    g.submit(play("Ben", "blue-7"))
    assert state(g)["winner"] == 1 and counts(g) == [2, 0]


def test_a_claim_by_another_player_costs_the_silent_player_one_card_at_once():
    g = game_of(*down_to_one(), call("Ana", "Ben"))
    assert counts(g) == [2, 2] and state(g)["call_open"] is None


def test_a_claim_on_a_player_with_more_cards_is_refused():
    g = game_of(regulation(), flip("red-5"))
    assert "no last card" in rejected(g, call("Ana", "Ben"))


def test_option_penalty_only_when_claimed():
    events = down_to_one()
    events[0] = regulation(("Ana", "Ben"), penalize_uncaught=False)
    g = game_of(*events, play("Ana", "blue-3"))
    assert counts(g) == [1, 1]


def test_going_out_without_having_called_does_not_win():
    # Ben's skip gives him the turn again before anyone else acts, still silent on his last card
    events = down_to_one()[:-1] + [play("Ben", "blue-skip")]
    g = game_of(*events)
    assert counts(g) == [2, 1] and turn(g) == "Ben"
    g.submit(play("Ben", "blue-5"))
    assert state(g)["winner"] is None and counts(g) == [2, 1]


# -- options and simulation ------------------------------------------------------------------------------
def test_every_option_is_listed_for_tableref_rules():
    from referee import all_rules
    names = {o["name"] for o in all_rules()["regulation"].describe()["options"]}
    assert {"two_player_reverse_skips", "penalty_skips_turn", "skip_on_skip", "draw2_on_paid_draw2",
            "first_wild_named_by", "call_penalty", "penalize_uncaught"} <= names


@pytest.mark.parametrize("players,options", [
    (2, {}), (4, {}), (10, {}),
    (3, {"two_player_reverse_skips": True, "penalty_skips_turn": False, "skip_on_skip": True,
         "draw2_on_paid_draw2": True, "first_wild_named_by": "dealer", "penalize_uncaught": False}),
])
def test_random_games_keep_every_invariant(players, options):
    from referee.simulate import simulate
    report = simulate("regulation", 60, players=players, seed=11, options=options)
    assert report.violations == []
    assert report.games == 60 and report.unfinished == 0


def test_the_example_game_replays_through_the_command_line():
    import json
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "web", "replay", str(root / "docs/examples/regulation-game.jsonl"),
                          "--json"], capture_output=True, text=True, cwd=root, check=True)
    data = json.loads(out.stdout)
    # refused: playing before taking the first draw two's cards (3), a red card as the blue discard
    # (5), a red skip on a blue skip (8), stacking a draw two (12), a draw two of another colour than
    # the one in play on a draw two (14)
    assert [v["line"] for v in data["verdicts"] if not v["accepted"]] == [3, 5, 8, 12, 14]
    state = data["state"]
    assert state["winner"] == 0
    # Ana 7 -2 -1 draw four (4 shown) -3 +1 penalty -2; Ben 7 +2 -4 +4 +6 -3 +1; Cy 7 -1 +2 -6
    assert [p["hand_count"] for p in state["players"]] == [0, 13, 2]
