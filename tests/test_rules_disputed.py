"""Rulings players would dispute (issue 18), each worked out by hand from the rule texts in
shared/seeds/ and played through `tableref replay --json`, the path users and the web's logs go
through. The PLACE 2 bug of DINO 2 has its own file, tests/test_rules_dino2_place2.py.

Each test quotes the sentence of the rule text it enforces.
"""
import json

import pytest

from helpers import call, draw, play, replay_json, replayed_state, setup


def flip(card):
    return {"type": "flip", "card": card}


def hands(state):
    return [p["hand_count"] for p in state["players"]]


def last_verdict(events):
    data = replay_json(events)
    assert all(v["accepted"] for v in data["verdicts"][:-1]), data["verdicts"]
    return data["verdicts"][-1], data["state"]


# == Regulation UNO ==================================================================================
def regulation(players=("Ana", "Ben", "Cy", "Dee"), dealer=0, **options):
    return setup("regulation", players, dealer, **options)


# "A +2 card cannot be played with another +2." / "The special "Draw Two" (+2) cards can be thrown
# if it is the color being played"
def test_regulation_a_draw2_goes_on_a_paid_draw2_of_the_colour_in_play():
    # Ben starts (the dealer's left): red +2; Cy takes the two and misses the turn; Dee's +2
    # of the colour in play is then allowed, and Ana owes two.
    start = [regulation(), flip("red-5"), play("Ben", "red-draw2")]
    verdict, _ = last_verdict(start + [play("Cy", "blue-draw2")])
    assert not verdict["accepted"]                    # stacking on an unpaid +2: Cy must take them
    s = replayed_state(*start, draw("Cy", 2), play("Dee", "red-draw2"))
    assert s["current_player"] == 0 and s["pending_draw"] == 2
    # a +2 of another colour does not match: "+2 ... if it is the color being played"
    verdict, _ = last_verdict(start + [draw("Cy", 2), play("Dee", "blue-draw2")])
    assert not verdict["accepted"] and "draw2" in verdict["reason"]
    # the stricter reading, kept as the option draw2_on_paid_draw2=false
    strict = [regulation(draw2_on_paid_draw2=False), flip("red-5"), play("Ben", "red-draw2"), draw("Cy", 2)]
    verdict, _ = last_verdict(strict + [play("Dee", "red-draw2")])
    assert not verdict["accepted"] and "cannot go on a draw2" in verdict["reason"]
    # a +2 turned up first: "The first player must take two cards from the deck and then discard one
    # of the same color"; its two cards are taken, so a +2 of that colour is such a discard
    s = replayed_state(regulation(), flip("blue-draw2"), draw("Ben", 2), play("Ben", "blue-draw2"))
    assert s["current_player"] == 2 and s["pending_draw"] == 2


def ana_goes_to_one_card_with_a_wild_draw4():
    """Two players, Ben deals, Ana starts. Ana's sixth card is a wild-draw4 (colour green) leaving
    her one card, and she does not call UNO. The colour being played before it is blue."""
    return [regulation(("Ana", "Ben"), dealer=1), flip("red-1"),
            play("Ana", "red-2"), play("Ben", "red-3"), play("Ana", "red-4"), play("Ben", "red-5"),
            play("Ana", "red-6"), play("Ben", "red-7"), play("Ana", "red-8"), play("Ben", "red-9"),
            play("Ana", "blue-9"), play("Ben", "blue-1"), play("Ana", "wild-draw4", color="green")]


def challenge(player):
    return {"type": "challenge", "player": player}


def reveal(player, *cards):
    return {"type": "reveal", "player": player, "cards": list(cards)}


# "The player who rolled the +4 must show their cards. If they had another card of the yellow color
# ... whoever rolled the +4 takes all four cards"; "The teammates will claim it a lie and must take a
# penalty card from the deck"
def test_regulation_caught_without_uno_then_challenged_the_hand_of_the_draw4_is_judged():
    events = ana_goes_to_one_card_with_a_wild_draw4()
    s = replayed_state(*events)
    assert hands(s) == [1, 2] and s["phase"] == "challenge" and s["call_open"] == 0
    caught = events + [call("Ben", "Ana"), challenge("Ben")]
    s = replayed_state(*caught)
    # the penalty card is in Ana's hand, but the challenge is about the one card she held at the +4
    assert hands(s) == [2, 2] and s["phase"] == "reveal" and s["challenge"]["hand_at_play"] == 1
    verdict, _ = last_verdict(caught + [reveal("Ana", "blue-5", "yellow-3")])
    assert not verdict["accepted"] and "1 card" in verdict["reason"]
    # she held a blue card (the colour being played): the +4 was a bluff, Ana takes the four
    s = replayed_state(*caught, reveal("Ana", "blue-5"))
    assert hands(s) == [6, 2] and s["pending_draw"] == 0 and s["current_player"] == 1
    # the same, not guilty: Ben takes four plus two and misses the turn
    s = replayed_state(*caught, reveal("Ana", "yellow-3"))
    assert hands(s) == [2, 8] and s["current_player"] == 0


def test_regulation_challenged_first_the_missed_uno_penalty_does_not_change_the_hand_judged():
    # Ben's challenge shuts Ana's UNO window: the referee gives her the penalty card first
    # (penalize_uncaught), and she still shows only the hand of the +4
    events = ana_goes_to_one_card_with_a_wild_draw4() + [challenge("Ben")]
    s = replayed_state(*events)
    assert hands(s) == [2, 2] and s["phase"] == "reveal" and s["challenge"]["hand_at_play"] == 1
    s = replayed_state(*events, reveal("Ana", "green-4"))
    assert hands(s) == [2, 8] and s["winner"] is None and s["current_player"] == 0
    assert s["players"][0]["known_cards"] == ["green-4"]


# "The one who runs out of cards wins the hand or round"
def test_regulation_the_winning_play_sets_the_colour():
    events = ana_goes_to_one_card_with_a_wild_draw4()[:-1] + [
        play("Ana", "blue-4"), call("Ana", "Ana"), play("Ben", "blue-2"), play("Ana", "yellow-2")]
    s = replayed_state(*events)
    assert s["winner"] == 0 and s["active_color"] == "yellow" and s["top_card"] == "yellow-2"


# == California Prison ==============================================================================
def prison(players=("Ana", "Ben", "Cy", "Dee"), dealer=0, **options):
    return setup("prison", players, dealer, **options)


def jump(player, *cards):
    return play(player, *cards, announced=True)


# "Progressive penalties get tricky with reverses. Its the dealers job to keep track of which way
# the order is going. What I do is once the first reverse gets thrown I point to my left or right to
# show the new direction order, then every time a new player jumps in with a reverse i just switch
# my finger direction from left or right quickly until everyone is done."
def test_prison_a_reverse_turns_a_pending_stack_round():
    # Ana deals; Dee (her right) starts and play runs counterclockwise: Dee, Cy, Ben, Ana.
    start = [prison(), flip("red-5"), play("Dee", "red-draw2")]
    s = replayed_state(*start)
    assert s["current_player"] == 2 and s["pending_draw"] == 2          # Cy owes two
    # Cy throws a red reverse: play turns clockwise and the stack falls on Dee, Cy's other side
    s = replayed_state(*start, play("Cy", "red-reverse"))
    assert s["direction"] == "clockwise" and s["current_player"] == 3 and s["pending_draw"] == 2
    assert s["stack"] == "draw2" and hands(s) == [10, 10, 9, 9]
    # Ben jumps in with a reverse on the reverse: counterclockwise again, the stack falls on Ana
    s = replayed_state(*start, play("Cy", "red-reverse"), jump("Ben", "blue-reverse"))
    assert s["direction"] == "counterclockwise" and s["current_player"] == 0 and s["pending_draw"] == 2
    # Ana adds a draw two (any colour) to the stack: Dee, after her, owes four; drawing, misses the turn
    s = replayed_state(*start, play("Cy", "red-reverse"), jump("Ben", "blue-reverse"),
                       play("Ana", "yellow-draw2"), draw("Dee", 4))
    assert hands(s) == [9, 9, 9, 13] and s["pending_draw"] == 0 and s["current_player"] == 2


def test_prison_a_reverse_on_a_stack_must_match_unless_the_option_says_any():
    start = [prison(), flip("red-5"), play("Dee", "red-draw2")]
    verdict, _ = last_verdict(start + [play("Cy", "blue-reverse")])
    assert not verdict["accepted"] and "reverse" in verdict["reason"]
    s = replayed_state(prison(stack_reverse_any_color=True), flip("red-5"), play("Dee", "red-draw2"),
                       play("Cy", "blue-reverse"))
    assert s["current_player"] == 3 and s["pending_draw"] == 2
    # "If One player plays multiple skips or multiple reverses they only count as ONE"
    s = replayed_state(*start, play("Cy", "red-reverse", "blue-reverse"))
    assert s["direction"] == "clockwise" and s["current_player"] == 3


def test_prison_two_players_a_reverse_sends_the_stack_back():
    s = replayed_state(prison(("Ana", "Ben")), flip("red-5"), play("Ben", "red-draw2"), play("Ana", "red-reverse"))
    assert s["current_player"] == 1 and s["pending_draw"] == 2


def dee_down_to(cards_left):
    """Ana deals, Dee starts; Dee puts down threes of every colour at once (a 'California' double)."""
    threes = ["red-3", "red-3", "blue-3", "blue-3", "green-3", "green-3", "yellow-3", "yellow-3"]
    return [prison(), flip("red-5"), play("Dee", *threes[:10 - cards_left])]


# "The object of the game is to be the first player to get rid of all your cards. If you go out on a
# double card play you still have to announce UNO before playing the last card."
def test_prison_an_announcement_stands_through_another_players_jump_in():
    events = dee_down_to(2) + [call("Dee", "Dee"), play("Cy", "yellow-9"), jump("Ana", "green-9"),
                               play("Dee", "green-1")]
    s = replayed_state(*events)
    assert hands(s)[3] == 1 and s["call_open"] is None        # announced: nothing to catch
    s = replayed_state(*events, play("Cy", "green-2"))
    assert hands(s)[3] == 1                                   # no last-card penalty for Dee


def test_prison_an_announced_double_goes_out_after_a_jump_in_and_sets_the_colour():
    events = dee_down_to(3) + [call("Dee", "Dee"), play("Cy", "yellow-9"), jump("Ana", "green-9"),
                               play("Dee", "green-1", "blue-1", "red-1")]
    s = replayed_state(*events)
    assert s["winner"] == 3 and hands(s)[3] == 0
    assert s["active_color"] == "red"      # the last card laid lies on top and sets the colour


# == DINO 2 ==========================================================================================
def dino2(players=("Ana", "Ben", "Cy", "Dee"), **options):
    return {"type": "setup", "rules": "dino2", "players": list(players), "dealer": len(players) - 1,
            "options": options}


# NATHAN: "The next player can place any color on it."
def test_dino2_fuego_and_ice_go_on_a_nathan():
    start = [dino2(), flip("orange-candy"), play("Ana", "nathan")]
    s = replayed_state(*start)
    assert s["owed"] == [5, 0, 0, 0] and s["active_color"] is None and s["current_player"] == 1
    # FUEGO: "make everyone (excluding the user) in the game draw one card"
    s = replayed_state(*start, play("Ben", "red-fuego", fuego="draw"))
    assert s["owed"] == [6, 0, 1, 1] and s["active_color"] == "red" and s["current_player"] == 2
    # ICE: Ben holds four after it: Cy, Dee, Ana and Ben's own seat are passed, Cy plays
    s = replayed_state(*start, play("Ben", "blue-ice"))
    assert s["top_card"] == "blue-ice" and s["active_color"] == "blue" and s["current_player"] == 2


def nathan_on_fuego_as_the_last_cards(**options):
    """Two players, three cards each (speed round), Ben deals, Ana starts: Ana's last two cards are
    a FUEGO with a NATHAN as its 'one additional card'."""
    return [dino2(("Ana", "Ben"), speed_round=True, **options), flip("red-candy"), play("Ana", "red-girl"),
            play("Ben", "red-shoe"), play("Ana", "red-fuego", "nathan")]


# NATHAN: "If the NATHAN is played alone as a player's last card, then they do not win and still are
# required to draw five cards."
def test_dino2_nathan_on_a_fuego_as_the_last_cards_is_not_alone_and_wins():
    s = replayed_state(*nathan_on_fuego_as_the_last_cards())
    assert s["winner"] == 0 and s["phase"] == "over" and s["owed"] == [0, 0] and s["win_by"] == "no cards"
    # the other reading: only PLACE 2 and MAKE IT RAIN spare the five, which are owed: no win
    s = replayed_state(*nathan_on_fuego_as_the_last_cards(nathan_not_alone_wins=False))
    assert s["winner"] is None and s["owed"] == [5, 0] and hands(s) == [0, 2] and s["current_player"] == 1


def test_dino2_nathan_on_a_fuego_that_is_not_the_last_card_costs_five():
    s = replayed_state(dino2(), flip("red-candy"), play("Ana", "red-fuego", "nathan"))
    assert s["owed"] == [5, 0, 0, 0] and s["winner"] is None


# "The most common way to win is to have zero cards."
def test_dino2_the_winning_play_sets_the_colour():
    start = [dino2(("Ana", "Ben"), speed_round=True), flip("red-candy"), play("Ana", "red-girl"),
             play("Ben", "red-shoe"), play("Ana", "red-chill"), play("Ben", "red-spork")]
    s = replayed_state(*start, play("Ana", "green-spork"))
    assert s["winner"] == 0 and s["active_color"] == "green"
    # DINO: "the user can choose the color that must be played next"
    s = replayed_state(*start, play("Ana", "dino", color="blue"))
    assert s["winner"] == 0 and s["active_color"] == "blue" and s["owed"] == [0, 0]


# == Snake Cup =======================================================================================
# "FOUNTAIN - All players put one coin in the cup"; "When a player has run out of coins, they are
# out of the game."; "The last remaining players takes the contents of the cup"
def test_snake_cup_fountain_is_paid_from_the_turner_in_the_direction_of_play():
    # Ana deals, Ben turns first; everyone holds one coin. Ben pays and is out, then Cy (to his left)
    # pays and is out: Ana is the last one in and takes the cup without paying.
    s = replayed_state(setup("snake-cup", ("Ana", "Ben", "Cy"), coins=1), flip("red-fountain"))
    assert s["winner"] == 0 and [p["coins"] for p in s["players"]] == [3, 0, 0] and s["cup"] == 0
    # four players, Dee short: Ben, Cy, Dee pay in that order; Dee is out; Ana pays too
    s = replayed_state(setup("snake-cup", ("Ana", "Ben", "Cy", "Dee"), coins=2), flip("red-suns"),
                       flip("red-stars"), flip("red-fountain"))
    # Ben takes 1 from Cy (Ben 3, Cy 1); Cy takes 2 from Dee (Cy 3, Dee 0: out); Dee is passed
    # and Ana turns the FOUNTAIN: Ana, Ben, Cy pay one each
    assert [p["coins"] for p in s["players"]] == [1, 2, 2, 0] and s["cup"] == 3


# == ONO! ============================================================================================
def ono(players=("Ana", "Ben", "Cy"), **options):
    return setup("ono", players, 0, **options)


# "At each turn, a player may play a single card from their hand that matches the color, number,
# food, or action of the top card"; "On each colored card is a vegetable or fruit that matches the
# color of the card."
def test_ono_foods_are_the_decks_assumption_and_a_table_sets_its_own(tmp_path):
    # the deck's assumed foods: red-1 and green-2 are both apples
    s = replayed_state(ono(), flip("green-2"), play("Ben", "red-1"))
    assert s["top_card"] == "red-1"
    # a table whose red 1 shows a cherry: the food no longer matches
    verdict, _ = last_verdict([ono(foods={"red-1": "cherry"}), flip("green-2"), play("Ben", "red-1")])
    assert not verdict["accepted"] and "cherry" in verdict["reason"]
    # ... and whose blue 7 shows a cherry too: blue-7 goes on red-1
    foods = {"red-1": "cherry", "blue-7": "Cherry"}
    s = replayed_state(ono(foods=foods), flip("red-1"), play("Ben", "blue-7"))
    assert s["top_card"] == "blue-7" and s["options"]["foods"] == foods
    # the same from a file, and as JSON text (what the lobby's text field sends)
    path = tmp_path / "foods.json"
    path.write_text(json.dumps(foods))
    assert replayed_state(ono(foods=str(path)), flip("red-1"), play("Ben", "blue-7"))["top_card"] == "blue-7"
    assert replayed_state(ono(foods=json.dumps(foods)), flip("red-1"), play("Ben", "blue-7"))["top_card"] == "blue-7"


@pytest.mark.parametrize("foods,words", [
    ({"wild": "plum"}, "wilds carry no food"),
    ({"purple-1": "plum"}, "not a card"),
    ({"red-1": 7}, "a word"),
    ("/nonexistent/foods.json", "cannot be read"),
    ("[1, 2]", "must be an object"),
    (["red-1"], "takes a str or an object"),
])
def test_ono_bad_foods_refuse_the_setup_with_a_reason(foods, words):
    data = replay_json([ono(foods=foods)])
    assert not data["verdicts"][0]["accepted"] and words in data["verdicts"][0]["reason"]


def test_ono_foods_option_is_declared_as_data_for_the_table_creation_form():
    from web.cli import main
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["rules", "--json"])
    rules = {r["id"]: r for r in json.loads(out.getvalue())["rules"]}
    foods = next(o for o in rules["ono"]["options"] if o["name"] == "foods")
    assert foods["default"] == "" and foods["mapping"] is True
    prison_options = {o["name"]: o["default"] for o in rules["prison"]["options"]}
    assert prison_options["stack_reverse_any_color"] is False
    assert {o["name"]: o["default"] for o in rules["regulation"]["options"]}["draw2_on_paid_draw2"] is True
    assert {o["name"]: o["default"] for o in rules["dino2"]["options"]}["nathan_not_alone_wins"] is True


# "The first person to lose all of his/her cards, wins the game!!!"
def test_ono_the_winning_play_sets_the_colour():
    start = [ono(("Ana", "Ben"), ), flip("red-1")]
    # Ana deals, Ben starts
    start = [setup("ono", ("Ana", "Ben"), 0), flip("red-1"),
             play("Ben", "red-2"), play("Ana", "red-3"), play("Ben", "red-4"), play("Ana", "red-5"),
             play("Ben", "red-6"), play("Ana", "red-7"), play("Ben", "red-8"), play("Ana", "red-9"),
             play("Ben", "red-0"), play("Ana", "red-3"), play("Ben", "red-5"), call("Ben", "Ben"),
             play("Ana", "red-7")]
    s = replayed_state(*start, play("Ben", "green-7"))
    assert s["winner"] == 1 and s["active_color"] == "green"
    s = replayed_state(*start, play("Ben", "wild", color="blue"))
    assert s["winner"] == 1 and s["active_color"] == "blue"


def test_the_rulings_hold_in_a_separate_tableref_process():
    s = replayed_state(*ana_goes_to_one_card_with_a_wild_draw4(), call("Ben", "Ana"), challenge("Ben"),
                       reveal("Ana", "blue-5"), subprocess_run=True)
    assert hands(s) == [6, 2]
