"""DINO 2 rulings, each worked out by hand from shared/seeds/dino2.txt and docs/rules/dino2.md.

Seats (four players unless said): Ana (0) deals, Ben (1) sits to her left and starts, then Cy (2),
Dee (3), clockwise. Five cards each unless said.
"""
import json
from pathlib import Path

import pytest

from helpers import color, counts, draw, game_of, pass_, play, rejected, turn
from referee import Game, load_deck

FOUR = ("Ana", "Ben", "Cy", "Dee")
TWO = ("Ana", "Ben")


def setup(players=FOUR, date=None, **options):
    event = {"type": "setup", "rules": "dino2", "players": list(players), "dealer": 0, "options": options}
    if date:
        event["date"] = date
    return event


def flip(card):
    return {"type": "flip", "card": card}


def give(player, count=None, cards=None):
    event = {"type": "give", "player": player}
    if count is not None:
        event["count"] = count
    if cards is not None:
        event["cards"] = cards
    return event


def state(game):
    return game.to_dict()


# -- the deck ---------------------------------------------------------------------------------------
SEED_COUNTS = {"streak": 2, "draw7": 1, "dino": 1, "nathan": 1, "ice": 1, "fuego": 1, "skip": 4, "skip2": 4,
               "draw3": 8, "skip-draw2": 3, "give": 4, "double": 2, "reverse": 13, "make-it-rain": 2,
               "switch-hands": 1, "place2": 4, "captain-jack-sparrow": 4,
               **{s: 8 for s in ("dingbat", "whale-rabbit", "candy", "spaghetti", "cool-kids", "fab4", "shoe",
                                 "chill", "girl", "ice-cream", "spork")}}


def test_deck_has_144_cards_counted_as_the_seed_lists_them():
    deck = load_deck("dino2")
    assert deck.size == 144
    assert deck.colors == ("red", "orange", "green", "blue")
    by_symbol = {}
    for cid, n in deck.counts.items():
        by_symbol[deck.cards[cid].symbol] = by_symbol.get(deck.cards[cid].symbol, 0) + n
    assert by_symbol == SEED_COUNTS
    assert sum(n for cid, n in deck.counts.items() if deck.cards[cid].kind == "normal") == 88
    assert sum(n for cid, n in deck.counts.items() if deck.cards[cid].kind != "normal") == 56
    # one rainbow reverse among thirteen; FUEGO warm, ICE cool
    assert deck.counts["rainbow-reverse"] == 1 and deck.cards["rainbow-reverse"].kind == "wild"
    assert deck.cards["red-fuego"].color == "red" and deck.cards["blue-ice"].color == "blue"


def test_deck_file_labels_every_symbol_and_colours_every_colour():
    spec = json.loads((Path(__file__).resolve().parents[1] / "referee/decks/dino2.json").read_text())
    deck = load_deck("dino2")
    assert {c.symbol for c in deck.cards.values()} == set(spec["labels"])
    assert spec["labels"]["whale-rabbit"] == "WHALE RABBIT" and spec["labels"]["draw3"] == "DRAW 3"
    assert set(spec["color_hex"]) == set(deck.colors)


# -- the deal, the date and the first card ------------------------------------------------------------
@pytest.mark.parametrize("date,options,hand", [
    (None, {}, 5),
    ("2024-11-28", {}, 7),          # November 2024: Thursdays 7, 14, 21, 28 -> the fourth
    ("2023-11-23", {}, 7),          # November 2023: Thursdays 2, 9, 16, 23
    ("2024-11-21", {}, 5),          # the third Thursday is no feast
    ("2024-12-25", {}, 7),
    ("2024-12-24", {}, 5),
    (None, {"speed_round": True}, 3),
    ("2024-12-25", {"speed_round": True}, 3),
    (None, {"date": "2025-12-25"}, 7),   # the option stands in for a setup without a date
])
def test_hand_size_by_day_and_speed_round(date, options, hand):
    event = setup(date=date)
    event["options"] = options
    s = state(game_of(event))
    assert counts_of(s) == [hand] * 4
    assert s["draw_pile"] == 144 - 4 * hand


def test_the_setup_date_wins_over_the_option_and_is_kept_in_the_state():
    event = setup(date="2024-12-25")
    event["options"] = {"date": "2024-03-01"}
    s = state(game_of(event))
    assert (s["date"], s["feast"]) == ("2024-12-25", "christmas")


def test_a_bad_date_is_refused():
    verdict = Game().submit(setup(date="25/12/2024"))
    assert not verdict.accepted and "YYYY-MM-DD" in verdict.reason


def counts_of(s):
    return [p["hand_count"] for p in s["players"]]


def test_first_card_has_no_effect_and_the_dealers_left_starts():
    g = game_of(setup(), flip("red-skip2"))
    assert turn(g) == "Ben" and state(g)["active_color"] == "red"
    g = game_of(setup(), flip("green-draw3"))
    assert turn(g) == "Ben" and state(g)["pending_draw"] == 0 and state(g)["owed"] == [0, 0, 0, 0]


def test_a_rainbow_first_card_lets_any_colour_follow():
    g = game_of(setup(), flip("dino"), play("Ben", "green-candy"))
    assert turn(g) == "Cy" and state(g)["active_color"] == "green"


# -- matching ---------------------------------------------------------------------------------------
def test_match_by_colour_or_symbol():
    g = game_of(setup(), flip("red-candy"), play("Ben", "blue-candy"), play("Cy", "blue-shoe"))
    assert turn(g) == "Dee"
    assert "does not match" in rejected(g, play("Dee", "red-girl"))


def test_rainbow_cards_go_on_anything():
    g = game_of(setup(), flip("red-candy"), play("Ben", "rainbow-reverse", color="green"))
    # reverse: play runs counterclockwise, so Ana (seat 0) follows Ben
    assert turn(g) == "Ana" and state(g)["active_color"] == "green"


def test_only_some_cards_take_more_cards_in_one_play():
    g = game_of(setup(), flip("red-candy"))
    assert "played alone" in rejected(g, play("Ben", "red-shoe", "red-girl"))


# -- draws when stuck --------------------------------------------------------------------------------
def test_draw_up_to_three_then_the_turn_is_skipped():
    g = game_of(setup(), flip("red-candy"), draw("Ben"), draw("Ben"))
    assert "draw up to three" in rejected(g, pass_("Ben"))
    g.submit(draw("Ben"))
    assert "up to three" in rejected(g, draw("Ben"))
    assert g.submit(pass_("Ben")).accepted
    assert turn(g) == "Cy" and counts(g) == [5, 8, 5, 5]


def test_a_card_drawn_may_be_played_at_once():
    g = game_of(setup(), flip("red-candy"), draw("Ben", 2), play("Ben", "red-girl"))
    assert turn(g) == "Cy" and counts(g) == [5, 6, 5, 5]


def test_option_lets_a_drawer_stop_early():
    g = game_of(setup(stop_drawing_anytime=True), flip("red-candy"), draw("Ben"), pass_("Ben"))
    assert turn(g) == "Cy"


# -- draw penalties and the starred rule ---------------------------------------------------------------
def test_draw3_victim_draws_then_plays():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-draw3"))
    s = state(g)
    assert turn(g) == "Cy" and s["pending_draw"] == 3 and s["owed"] == [0, 0, 3, 0]
    assert "owe" in rejected(g, play("Cy", "red-girl"))
    assert "owes 3" in rejected(g, draw("Cy", 4))
    g.submit(draw("Cy", 3))
    assert g.submit(play("Cy", "red-girl")).accepted       # starred rule: not skipped
    assert turn(g) == "Dee" and counts(g) == [5, 4, 7, 5]


def test_draw3_victim_with_nothing_to_play_draws_three_more_then_is_skipped():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-draw3"), draw("Cy", 3), draw("Cy", 3), pass_("Cy"))
    assert turn(g) == "Dee" and counts(g) == [5, 4, 11, 5]


def test_skip_draw2_victim_draws_two_and_is_skipped():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-skip-draw2"))
    assert turn(g) == "Dee" and state(g)["owed"] == [0, 0, 2, 0]
    g.submit(draw("Cy", 2))       # out of turn: owed cards may be drawn any time
    assert counts(g) == [5, 4, 7, 5] and state(g)["owed"] == [0, 0, 0, 0]


def test_draw7():
    g = game_of(setup(), flip("green-candy"), play("Ben", "green-draw7"))
    assert turn(g) == "Cy" and state(g)["pending_draw"] == 7


def test_double_makes_the_next_player_draw_as_many_as_they_hold():
    g = game_of(setup(), flip("orange-candy"), play("Ben", "orange-double"))
    assert state(g)["owed"] == [0, 0, 5, 0]
    g.submit(draw("Cy", 5))
    assert counts(g) == [5, 4, 10, 5] and turn(g) == "Cy"


def test_dino_next_draws_five_and_is_skipped_user_names_colour():
    g = game_of(setup(), flip("orange-candy"), play("Ben", "dino"))
    assert state(g)["phase"] == "color"
    assert "Ben names" in rejected(g, color("Cy", "blue"))
    g.submit(color("Ben", "blue"))
    s = state(g)
    assert turn(g) == "Dee" and s["active_color"] == "blue" and s["owed"] == [0, 0, 5, 0]


# -- skips and reverses ------------------------------------------------------------------------------
def test_skip_and_skip2():
    assert turn(game_of(setup(), flip("red-candy"), play("Ben", "red-skip"))) == "Dee"
    assert turn(game_of(setup(), flip("red-candy"), play("Ben", "red-skip2"))) == "Ana"


def test_reverse_turns_the_direction_and_with_two_players_does_not_skip():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-reverse"))
    assert turn(g) == "Ana" and state(g)["direction"] == "counterclockwise"
    g = game_of(setup(TWO), flip("red-candy"), play("Ben", "red-reverse"))
    assert turn(g) == "Ana"


# -- FUEGO --------------------------------------------------------------------------------------------
def test_fuego_only_on_red_or_orange():
    g = game_of(setup(), flip("blue-candy"))
    assert "red or orange" in rejected(g, play("Ben", "red-fuego", fuego="draw"))
    assert game_of(setup(), flip("orange-candy"), play("Ben", "red-fuego", fuego="draw"))


def test_fuego_everyone_else_draws_one_then_the_next_plays():
    g = game_of(setup(), flip("orange-candy"), play("Ben", "red-fuego", fuego="draw"))
    assert state(g)["owed"] == [1, 0, 1, 1] and turn(g) == "Cy"


def test_fuego_one_more_card_which_must_match_it():
    g = game_of(setup(), flip("orange-candy"))
    assert "must match" in rejected(g, play("Ben", "red-fuego", "blue-skip"))
    g.submit(play("Ben", "red-fuego", "red-skip"))
    assert turn(g) == "Dee" and state(g)["owed"] == [0, 0, 0, 0] and counts(g)[1] == 3
    g = game_of(setup(fuego_extra_any=True), flip("orange-candy"), play("Ben", "red-fuego", "blue-skip"))
    assert turn(g) == "Dee" and state(g)["active_color"] == "blue"


def test_fuego_alone_waits_for_the_choice():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-fuego"))
    assert state(g)["phase"] == "more"
    assert "choice" in rejected(g, pass_("Ben"))
    g.submit({"type": "fuego", "player": "Ben", "choice": "draw"})
    assert state(g)["owed"] == [1, 0, 1, 1] and turn(g) == "Cy"
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-fuego"), play("Ben", "red-girl"))
    assert turn(g) == "Cy" and state(g)["owed"] == [0, 0, 0, 0]


# -- ICE ---------------------------------------------------------------------------------------------
def test_ice_only_on_blue_or_green_and_skips_as_many_as_the_user_holds():
    g = game_of(setup(), flip("red-candy"))
    assert "blue or green" in rejected(g, play("Ben", "blue-ice"))
    # speed round: Ben holds 3, plays ICE, holds 2: Cy and Dee are skipped, Ana plays
    g = game_of(setup(speed_round=True), flip("green-candy"), play("Ben", "blue-ice"))
    assert turn(g) == "Ana" and state(g)["active_color"] == "blue"


def test_ice_skips_go_round_the_table_unless_the_option_stops_them():
    # Ben holds 4 after ICE: Cy, Dee, Ana, Ben skipped -> Cy
    assert turn(game_of(setup(), flip("green-candy"), play("Ben", "blue-ice"))) == "Cy"
    # at most the three others: Cy, Dee, Ana skipped -> Ben again
    assert turn(game_of(setup(ice_wraps=False), flip("green-candy"), play("Ben", "blue-ice"))) == "Ben"


# -- SWITCH HANDS ------------------------------------------------------------------------------------
def test_switch_hands_swaps_with_the_next_player():
    g = game_of(setup(), flip("orange-candy"), draw("Ben"), play("Ben", "orange-switch-hands"))
    assert counts(g) == [5, 5, 5, 5]
    g = game_of(setup(), flip("orange-candy"), draw("Ben", 2), play("Ben", "orange-switch-hands"))
    assert counts(g) == [5, 5, 6, 5] and turn(g) == "Cy"


def test_switch_hands_as_the_last_card_makes_the_next_player_win():
    g = game_of(setup(TWO, speed_round=True), flip("orange-candy"),
                play("Ben", "orange-girl"), play("Ana", "orange-shoe"),
                play("Ben", "orange-spork"), play("Ana", "orange-chill"),
                play("Ben", "orange-switch-hands"))
    s = state(g)
    assert s["phase"] == "over" and s["winner"] == 0 and counts_of(s) == [0, 1]


# -- GIVE ---------------------------------------------------------------------------------------------
def test_give_one_card_to_the_next_player():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-give"))
    assert state(g)["phase"] == "give" and state(g)["give_to"] == 2
    assert "one card" in rejected(g, give("Ben", 2))
    g.submit(give("Ben", cards=["blue-spork"]))
    s = state(g)
    assert counts_of(s) == [5, 3, 6, 5] and turn(g) == "Cy" and s["players"][2]["known_cards"] == ["blue-spork"]


def test_give_is_optional():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-give"), give("Ben", 0))
    assert counts(g) == [5, 4, 5, 5] and turn(g) == "Cy"


def test_on_christmas_give_may_pass_two():
    g = game_of(setup(date="2024-12-25"), flip("red-candy"), play("Ben", "red-give"), give("Ben", 2))
    assert counts(g) == [7, 4, 9, 7]


def test_give_as_the_last_card_wins_without_giving():
    g = game_of(setup(TWO, speed_round=True), flip("red-candy"),
                play("Ben", "red-girl"), play("Ana", "red-shoe"),
                play("Ben", "red-spork"), play("Ana", "red-chill"), play("Ben", "red-give"))
    assert state(g)["winner"] == 1


# -- STREAK --------------------------------------------------------------------------------------------
def test_streak_plays_cards_of_one_chosen_colour_and_only_the_top_acts():
    g = game_of(setup(date="2024-12-25"), flip("red-candy"),
                play("Ben", "red-streak", "blue-draw3", "blue-girl", "blue-skip"))
    s = state(g)
    # the DRAW 3 underneath does nothing; the SKIP on top skips Cy
    assert turn(g) == "Dee" and s["active_color"] == "blue" and s["owed"] == [0] * 4 and counts_of(s)[1] == 3


def test_streak_needs_one_colour_and_never_ends_on_a_rainbow_card():
    g = game_of(setup(), flip("red-candy"))
    assert "is blue" in rejected(g, play("Ben", "red-streak", "blue-girl", "red-girl"))
    assert "rainbow" in rejected(g, play("Ben", "red-streak", "blue-girl", "dino"))
    g.submit(play("Ben", "red-streak", "blue-girl", "dino", "blue-shoe"))
    assert turn(g) == "Cy" and state(g)["owed"] == [0] * 4    # the DINO under the top does nothing


def test_streak_card_by_card_ends_with_a_pass():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-streak"), play("Ben", "green-girl"),
                play("Ben", "green-shoe"))
    assert state(g)["phase"] == "more" and state(g)["streak_color"] == "green"
    assert "rainbow" in rejected(g, play("Ben", "nathan"))
    g.submit(pass_("Ben"))
    assert turn(g) == "Cy" and state(g)["active_color"] == "green"


# -- PLACE 2 ----------------------------------------------------------------------------------------------
def test_place2_effects_act_in_order():
    # SKIP then DRAW 3: Cy is skipped, Dee draws three and then plays
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-place2", "green-skip", "orange-draw3"))
    s = state(g)
    assert turn(g) == "Dee" and s["owed"] == [0, 0, 0, 3] and s["active_color"] == "orange"
    # DRAW 3 and DRAW 3: Cy draws six
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-place2", "red-draw3", "blue-draw3"))
    assert turn(g) == "Cy" and state(g)["owed"] == [0, 0, 6, 0]


def test_place2_takes_at_most_two_more():
    g = game_of(setup(), flip("red-candy"))
    assert "allows 2 more cards" in rejected(g, play("Ben", "red-place2", "red-girl", "red-shoe", "red-chill"))


def test_place2_with_a_rainbow_card_asks_for_a_colour_whatever_is_on_top():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-place2", "nathan", "green-girl"))
    s = state(g)
    assert s["phase"] == "color" and s["owed"] == [0] * 4      # NATHAN with a PLACE 2: no draw
    g.submit(color("Ben", "orange"))
    assert state(g)["active_color"] == "orange" and turn(g) == "Cy"


# -- MAKE IT RAIN -----------------------------------------------------------------------------------------
def test_make_it_rain_half_of_the_hand_after_it():
    # Ben holds 5, plays MAKE IT RAIN, holds 4: up to two more
    g = game_of(setup(), flip("orange-candy"))
    assert "allows 2 more cards" in rejected(g, play("Ben", "orange-make-it-rain", "red-girl", "blue-shoe", "green-chill"))
    g.submit(play("Ben", "orange-make-it-rain", "red-girl", "blue-skip"))
    assert turn(g) == "Dee" and counts(g)[1] == 2


def test_make_it_rain_with_two_cards_cannot_play_the_last():
    g = game_of(setup(TWO, speed_round=True), flip("orange-candy"), play("Ben", "orange-girl"),
                play("Ana", "orange-shoe"))
    assert "allows 0 more cards" in rejected(g, play("Ben", "orange-make-it-rain", "orange-chill"))
    g.submit(play("Ben", "orange-make-it-rain"))      # nothing more may follow: the turn ends
    assert turn(g) == "Ana" and counts(g) == [2, 1]


def test_make_it_rain_before_reading():
    # 5 before, MAKE IT RAIN counted in the half: (5 - 1) / 2 = 2 cards, the MAKE IT RAIN and one more
    g = game_of(setup(rain_half_of="before"), flip("orange-candy"))
    assert "allows 1 more card" in rejected(g, play("Ben", "orange-make-it-rain", "red-girl", "blue-shoe"))


def test_nathan_on_top_of_make_it_rain_costs_no_draw_and_any_colour_follows():
    g = game_of(setup(), flip("orange-candy"), play("Ben", "orange-make-it-rain", "red-girl", "nathan"))
    s = state(g)
    assert s["owed"] == [0] * 4 and s["active_color"] is None and turn(g) == "Cy"


# -- NATHAN ------------------------------------------------------------------------------------------------
def test_nathan_user_draws_five_and_any_colour_follows():
    g = game_of(setup(), flip("orange-candy"), play("Ben", "nathan"))
    s = state(g)
    assert s["owed"] == [0, 5, 0, 0] and turn(g) == "Cy" and s["active_color"] is None
    # "The next player can place any color on it": FUEGO and ICE too (tests/test_rulings_issue18.py)
    assert g.submit(play("Cy", "green-shoe")).accepted


def test_nathan_alone_as_the_last_card_does_not_win():
    g = game_of(setup(TWO, speed_round=True), flip("orange-candy"), play("Ben", "orange-girl"),
                play("Ana", "orange-shoe"), play("Ben", "orange-chill"), play("Ana", "orange-spork"),
                play("Ben", "nathan"))
    s = state(g)
    assert s["phase"] == "play" and s["winner"] is None and s["owed"] == [0, 5] and turn(g) == "Ana"
    g.submit(draw("Ben", 5))
    assert counts(g) == [1, 5]


# -- winning --------------------------------------------------------------------------------------------
def test_no_cards_left_wins():
    g = game_of(setup(TWO, speed_round=True), flip("red-candy"), play("Ben", "red-girl"),
                play("Ana", "red-shoe"), play("Ben", "red-chill"), play("Ana", "red-spork"), play("Ben", "red-dingbat"))
    s = state(g)
    assert s["winner"] == 1 and s["phase"] == "over" and s["win_by"] == "no cards"
    assert "over" in rejected(g, play("Ana", "red-fab4"))


def test_dino_draw7_nathan_shown_wins():
    g = game_of(setup(), flip("red-candy"))
    g.submit({"type": "reveal", "player": "Dee", "cards": ["dino", "green-draw7", "nathan"]})
    s = state(g)
    assert s["winner"] == 3 and s["win_by"] == "DINO, DRAW 7 and NATHAN"


def test_three_captains_shown_win_even_out_of_turn():
    g = game_of(setup(), flip("red-candy"))
    cjs = ["red-captain-jack-sparrow", "blue-captain-jack-sparrow", "green-captain-jack-sparrow"]
    assert "no winning hand" in rejected(g, {"type": "reveal", "player": "Cy", "cards": cjs[:2]})
    g.submit({"type": "reveal", "player": "Cy", "cards": cjs})
    assert state(g)["winner"] == 2


def test_a_special_hand_with_a_card_already_played_is_refused():
    g = game_of(setup(), flip("orange-candy"), play("Ben", "nathan"))
    assert "cannot hold" in rejected(g, {"type": "reveal", "player": "Dee", "cards": ["dino", "green-draw7", "nathan"]})


def test_cheating_ends_the_game_with_no_winner():
    g = game_of(setup(), flip("red-candy"), {"type": "cheating", "player": "Cy", "reason": "traded cards"})
    s = state(g)
    assert s["phase"] == "over" and s["winner"] is None and s["no_winner"] is True
    assert "over" in rejected(g, play("Ben", "red-girl"))


# -- the example game and the simulator --------------------------------------------------------------------
def test_the_example_game_replays_without_a_rejection():
    from referee.events import validate
    path = Path(__file__).resolve().parents[1] / "docs/examples/dino2-christmas.jsonl"
    events = [validate(json.loads(line)) for line in path.read_text().splitlines() if line.strip()]
    g = Game()
    for i, e in enumerate(events):
        v = g.submit(e)
        assert v.accepted, f"line {i + 1}: {v.reason}"
    # Ana 7 + 1 (FUEGO) + 8 (DRAW 3 and DINO); Ben 7 - GIVE - 2 given - FUEGO - 1; Cy 7 + 2 - 4 + 1 - 3 - 3
    assert state(g)["winner"] == 2 and counts(g) == [16, 2, 0]


@pytest.mark.parametrize("players,options", [(2, {}), (4, {}), (8, {}), (4, {"speed_round": True}),
                                             (5, {"date": "2024-12-25"}), (3, {"date": "2024-11-28"})])
def test_random_games_hold_every_invariant(players, options):
    from referee.simulate import simulate
    report = simulate("dino2", 60, players=players, seed=7, options=options)
    assert report.violations == [] and report.unfinished == 0


def test_random_players_use_every_card_and_every_decision():
    from collections import Counter
    from referee.simulate import SimReport, play_one
    deck = load_deck("dino2")
    symbols, decisions = Counter(), Counter()
    report = SimReport("dino2")
    for seed in range(300):
        game = play_one("dino2", 4, seed, {"date": "2024-12-25"} if seed % 3 == 0 else {}, report)
        for e in game.log:
            decisions[e["type"]] += 1
            if e["type"] == "play":
                symbols.update(deck.cards[c].symbol for c in e["cards"])
                decisions["play with color"] += "color" in e
                decisions["several cards"] += len(e["cards"]) > 1
            if e["type"] == "give":
                decisions[f"give {e.get('count')}"] += 1
        decisions[f"won by {game.state.vars['win_by']}"] += 1
    assert set(symbols) == set(SEED_COUNTS)
    for d in ("choose_color", "play with color", "several cards", "give 0", "give 1", "give 2", "fuego",
              "pass", "reveal", "cheating", "won by no cards", "won by three CAPTAIN JACK SPARROWs"):
        assert decisions[d], d
    assert report.violations == []


# -- decisions wait for their player ----------------------------------------------------------------------
def test_a_pending_give_or_colour_blocks_other_plays():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-give"))
    assert "give" in rejected(g, play("Cy", "red-girl"))
    assert "played the GIVE" in rejected(g, give("Cy", 1))
    g = game_of(setup(), flip("red-candy"), play("Ben", "dino"))
    assert "colour" in rejected(g, play("Cy", "red-girl"))
    assert "not a colour" in rejected(g, color("Ben", "purple"))


def test_a_fuego_choice_without_a_fuego_is_refused():
    g = game_of(setup(), flip("red-candy"))
    assert "no FUEGO" in rejected(g, {"type": "fuego", "player": "Ben", "choice": "draw"})
    assert "only a FUEGO" in rejected(g, play("Ben", "red-girl", fuego="draw"))
    assert "only a rainbow card" in rejected(g, play("Ben", "red-girl", color="blue"))


def test_place2_switch_hands_then_give_act_in_order():
    # Ben 5 -> PLACE 2, SWITCH HANDS, GIVE: after the three Ben holds 2 and switches with Cy (5):
    # Ben 5, Cy 2; then Ben gives one to Cy: Ben 4, Cy 3
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-place2", "orange-switch-hands", "blue-give"))
    assert counts(g) == [5, 5, 2, 5] and state(g)["phase"] == "give"
    g.submit(give("Ben", 1))
    assert counts(g) == [5, 4, 3, 5] and turn(g) == "Cy"


def test_an_unnamed_gift_forgets_the_faces_known_in_the_givers_hand():
    g = game_of(setup(), flip("red-candy"), play("Ben", "red-give"), give("Ben", cards=["blue-spork"]))
    assert state(g)["players"][2]["known_cards"] == ["blue-spork"]
    # Cy plays a GIVE (symbol on symbol) and hands Dee a card without naming it: it may be the spork
    g.submit(play("Cy", "blue-give"))
    g.submit(give("Cy", 1))
    s = state(g)
    assert s["players"][2]["known_cards"] == [] and s["players"][3]["known_cards"] == []
    assert counts(g) == [5, 3, 4, 6]


def test_owed_cards_lapse_when_nothing_is_left_to_draw():
    g = game_of(setup(), flip("green-candy"))
    g.state.draw_count = 3      # a nearly spent draw pile (as after a long game)
    g.submit(play("Ben", "green-draw7"))
    # Cy owes 7, but only 3 + the green-candy under the top can be drawn
    assert "owes 4 cards" in rejected(g, draw("Cy", 5))
    g.submit(draw("Cy", 4))
    s = state(g)
    assert s["owed"] == [0, 0, 0, 0] and s["pending_draw"] == 0 and counts_of(s)[2] == 9
    assert g.submit(play("Cy", "green-girl")).accepted
