"""Snake Cup rulings, each worked out by hand from shared/seeds/snake-cup.txt.

Seats, clockwise: Ana (0) deals, Ben (1) sits to her left and turns the first card, then Cy (2)
(and Dan (3) in four-player games). "To the left" of seat i is i+1, "to the right" is i-1.
"""
import pytest

from helpers import game_of, play, rejected, setup, turn
from referee import Game, load_deck
from referee.rules import get_rules
from referee.simulate import simulate


def start(players=("Ana", "Ben", "Cy"), **options):
    return setup("snake-cup", players=players, **options)


def flip(card):
    return {"type": "flip", "card": card}


def short(player, way):
    return {"type": "crosses_short", "player": player, "way": way}


def coins(game):
    return [p["coins"] for p in game.to_dict()["players"]]


def cup(game):
    return game.to_dict()["cup"]


def out(game):
    return [p["name"] for p in game.to_dict()["players"] if p["out"]]


# -- the deck -------------------------------------------------------------------------------------
def test_deck_is_ten_symbols_in_six_colours_and_two_colourless_snakes():
    deck = load_deck("snake-cup")
    assert deck.size == 62
    assert deck.colors == ("red", "orange", "yellow", "green", "blue", "violet")
    assert deck.counts["snake"] == 2 and deck.cards["snake"].color is None
    for symbol in ("leaves", "poppies", "orchids", "fountain", "suns", "stars", "hearts", "rain",
                   "crosses", "river"):
        assert [deck.counts[f"{c}-{symbol}"] for c in deck.colors] == [1] * 6


# -- setup ----------------------------------------------------------------------------------------
def test_everyone_starts_with_twenty_coins_an_empty_cup_and_no_cards():
    g = game_of(start())
    state = g.to_dict()
    assert coins(g) == [20, 20, 20] and cup(g) == 0
    assert [p["hand_count"] for p in state["players"]] == [0, 0, 0]
    assert state["draw_pile"] == 62 and state["phase"] == "flip"
    assert turn(g) == "Ben"                      # the dealer's left turns first


def test_any_starting_amount_and_one_snake_for_a_greater_challenge():
    g = game_of(start(coins=5, snakes=1))
    assert coins(g) == [5, 5, 5]
    assert g.to_dict()["draw_pile"] == 61
    assert rejected(Game.replay([start(snakes=1), flip("snake")]), flip("snake")).startswith("snake cannot be")


@pytest.mark.parametrize("options", [{"snakes": 3}, {"coins": 0}, {"crosses_short": "left"},
                                     {"comeback": "yes"}, {"jokers": True}])
def test_bad_options_are_refused(options):
    verdict = Game().submit(start(**options))
    assert not verdict.accepted


# -- each symbol, as written ----------------------------------------------------------------------
def test_leaves_poppies_orchids_put_one_two_three_coins_in_the_cup():
    g = game_of(start(), flip("red-leaves"), flip("orange-poppies"), flip("yellow-orchids"))
    # Ben 20-1, Cy 20-2, Ana 20-3; cup 1+2+3
    assert coins(g) == [17, 19, 18] and cup(g) == 6
    assert turn(g) == "Ben"


def test_fountain_all_players_put_one_coin_in_the_cup():
    g = game_of(start(), flip("green-fountain"))
    assert coins(g) == [19, 19, 19] and cup(g) == 3
    assert turn(g) == "Cy"


def test_suns_and_stars_take_from_the_player_to_the_left():
    g = game_of(start(), flip("red-suns"))          # Ben takes 1 from Cy (his left)
    assert coins(g) == [20, 21, 19]
    g.submit(flip("blue-stars"))                     # Cy takes 2 from Ana (seat 0 is left of seat 2)
    assert coins(g) == [18, 21, 21]
    assert turn(g) == "Ana"


def test_hearts_takes_three_from_the_left_and_skips_that_player():
    g = game_of(start(), flip("violet-hearts"))     # Ben takes 3 from Cy; Cy misses the turn
    assert coins(g) == [20, 23, 17]
    assert turn(g) == "Ana"


def test_rain_takes_one_from_each_player_and_crosses_gives_one_to_each():
    g = game_of(start(), flip("red-rain"))
    assert coins(g) == [19, 22, 19]
    g.submit(flip("red-crosses"))                    # Cy gives Ana and Ben one each
    assert coins(g) == [20, 23, 17]


def test_river_gives_three_to_the_player_to_the_right():
    g = game_of(start(), flip("green-river"))       # Ben's right is Ana
    assert coins(g) == [23, 17, 20]


def test_snake_takes_the_whole_cup():
    g = game_of(start(), flip("red-orchids"), flip("blue-poppies"))   # cup 3 + 2
    g.submit(flip("snake"))                          # Ana takes 5
    assert coins(g) == [25, 17, 18] and cup(g) == 0


def test_snake_on_an_empty_cup_gives_nothing_and_play_continues():
    g = game_of(start(), flip("snake"))
    assert coins(g) == [20, 20, 20] and cup(g) == 0
    assert turn(g) == "Cy"


# -- running out ----------------------------------------------------------------------------------
def test_a_player_without_coins_is_out_and_misses_every_turn():
    g = game_of(start(coins=2), flip("red-orchids"))   # Ben owes 3, has 2: gives 2 and is out
    assert coins(g) == [2, 0, 2] and cup(g) == 2 and out(g) == ["Ben"]
    g.submit(flip("red-leaves"))                     # Cy; next is Ana, then Cy again: Ben is skipped
    assert turn(g) == "Ana"
    g.submit(flip("orange-leaves"))
    assert turn(g) == "Cy"


def test_giving_more_than_you_have_gives_what_you_have():
    g = game_of(start(coins=2), flip("red-river"))     # Ben owes Ana 3, has 2
    assert coins(g) == [4, 0, 2] and out(g) == ["Ben"]


def test_being_robbed_of_more_than_you_have_gives_what_you_have():
    g = game_of(start(coins=2), flip("red-stars"), flip("orange-stars"))
    # Ben takes 2 from Cy, who has 2: Cy is out, so Ana turns next and takes 2 from her left, Ben
    assert "Cy" in out(g)
    assert coins(g) == [4, 2, 0]


def test_hearts_that_puts_its_victim_out_skips_nobody_else():
    g = game_of(start(coins=3), flip("red-hearts"))    # Ben takes Cy's 3: Cy is out
    assert coins(g) == [3, 6, 0]
    assert turn(g) == "Ana"


def test_the_last_player_left_takes_the_cup_and_wins():
    g = game_of(start(coins=3), flip("red-orchids"))   # Ben: 3 into the cup, out
    g.submit(flip("red-poppies"))                      # Cy: 2 into the cup (cup 5), Cy 1
    assert coins(g) == [3, 0, 1] and cup(g) == 5
    g.submit(flip("red-stars"))                        # Ana's left still in is Cy: Cy gives 1, out
    state = g.to_dict()
    assert state["phase"] == "over" and state["winner"] == 0
    assert coins(g) == [9, 0, 0] and cup(g) == 0       # 3 + 1 + the cup's 5
    assert rejected(g, flip("red-leaves")).startswith("the game is over")


def test_fountain_stops_when_one_player_is_left():
    # Everybody has one coin: Ben pays first and is out, then Cy; Ana is the last one left and
    # takes the cup (2) without paying
    g = game_of(start(coins=1), flip("red-fountain"))
    assert g.to_dict()["winner"] == 0
    assert coins(g) == [3, 0, 0] and cup(g) == 0


def test_rain_puts_out_players_with_one_coin():
    g = game_of(start(("Ana", "Ben", "Cy", "Dan"), coins=1), flip("red-rain"))
    # Ben takes one from Cy, Dan and Ana in that order: all three are out, Ben wins
    assert g.to_dict()["winner"] == 1
    assert coins(g) == [0, 4, 0, 0]


# -- two players ----------------------------------------------------------------------------------
def test_two_players_left_and_right_are_the_same_person():
    two = ("Ana", "Ben")
    g = game_of(start(two), flip("red-suns"))        # Ben takes 1 from Ana
    assert coins(g) == [19, 21]
    g.submit(flip("red-river"))                       # Ana gives 3 to her right: Ben
    assert coins(g) == [16, 24]


def test_two_players_hearts_skips_the_other_so_the_same_player_turns_again():
    g = game_of(start(("Ana", "Ben")), flip("red-hearts"))
    assert coins(g) == [17, 23]
    assert turn(g) == "Ben"


def test_two_players_last_coin_ends_the_game():
    g = game_of(start(("Ana", "Ben"), coins=1), flip("red-leaves"))
    assert g.to_dict()["winner"] == 0
    assert coins(g) == [2, 0] and cup(g) == 0


# -- CROSSES when short ---------------------------------------------------------------------------
FOUR = ("Ana", "Ben", "Cy", "Dan")


def test_crosses_short_clockwise_gives_from_the_left_until_the_coins_run_out():
    g = game_of(start(FOUR, coins=2), flip("red-crosses"))   # Ben owes 3, has 2: Cy, Dan; not Ana
    assert coins(g) == [2, 0, 3, 3] and cup(g) == 0 and out(g) == ["Ben"]


def test_crosses_short_cup_puts_the_rest_in_the_cup():
    g = game_of(start(FOUR, coins=2, crosses_short="cup"), flip("red-crosses"))
    assert coins(g) == [2, 0, 2, 2] and cup(g) == 2 and out(g) == ["Ben"]
    assert turn(g) == "Cy"


def test_crosses_short_ask_waits_for_the_players_choice():
    g = game_of(start(FOUR, coins=2, crosses_short="ask"), flip("red-crosses"))
    state = g.to_dict()
    assert state["phase"] == "crosses" and state["crosses_by"] == 1
    assert coins(g) == [2, 2, 2, 2]
    assert "must first say" in rejected(g, flip("orange-leaves"))
    assert "Ben turned the CROSSES" in rejected(g, short("Cy", "cup"))
    assert "not 'left'" in rejected(g, short("Ben", "left"))
    g.submit(short("Ben", "clockwise"))
    assert coins(g) == [2, 0, 3, 3] and turn(g) == "Cy"
    assert "nobody is short" in rejected(g, short("Cy", "cup"))


def test_crosses_with_enough_coins_asks_nothing():
    g = game_of(start(FOUR, coins=3, crosses_short="ask"), flip("red-crosses"))
    assert coins(g) == [4, 0, 4, 4] and g.to_dict()["phase"] == "flip"


# -- coming back ----------------------------------------------------------------------------------
def test_without_comeback_river_skips_the_out_player_to_the_right():
    g = game_of(start(coins=2), flip("red-orchids"))  # Ben out, cup 2
    g.submit(flip("red-river"))                       # Cy's right still in is Ana: Cy gives 2, out
    assert g.to_dict()["winner"] == 0
    assert coins(g) == [6, 0, 0]


def test_comeback_river_brings_back_the_player_to_the_right():
    g = game_of(start(coins=2, comeback=True), flip("red-orchids"))
    g.submit(flip("red-river"))                       # Cy's right is Ben: Ben is back with 2
    assert coins(g) == [2, 2, 0] and out(g) == ["Cy"] and cup(g) == 2
    assert turn(g) == "Ana"


def test_comeback_crosses_gives_to_out_players_too():
    g = game_of(start(coins=3, comeback=True), flip("red-orchids"))  # Ben out
    g.submit(flip("red-crosses"))                     # Cy gives Ana and Ben one each
    assert coins(g) == [4, 1, 1] and out(g) == []
    g = game_of(start(coins=3), flip("red-orchids"), flip("red-crosses"))
    assert coins(g) == [4, 0, 2] and out(g) == ["Ben"]


# -- cards and turns ------------------------------------------------------------------------------
def test_a_turned_card_can_be_sent_as_a_play_by_the_current_player():
    g = game_of(start(), play("Ben", "red-leaves"))
    assert coins(g) == [20, 19, 20]
    assert "Cy's turn" in rejected(g, play("Ana", "red-suns"))
    assert "one card at a time" in rejected(g, play("Cy", "red-suns", "red-stars"))


def test_a_card_on_the_discard_pile_cannot_be_turned_again():
    g = game_of(start(), flip("red-leaves"))
    assert "face up on the discard pile" in rejected(g, flip("red-leaves"))
    assert "not a card" in rejected(g, flip("red-7"))


def test_when_all_cards_are_drawn_the_whole_discard_pile_is_the_new_deck():
    deck = load_deck("snake-cup")
    g = game_of(start(("Ana", "Ben"), coins=1000))
    for card in deck.as_list():
        verdict = g.submit(flip(card))
        assert verdict.accepted, verdict.reason
    state = g.to_dict()
    assert state["draw_pile"] == 62 and state["discard_pile"] == 0
    assert ("reshuffle_all", 62) in g.last_verdict.effects
    g.submit(flip("red-leaves"))                      # any card again
    assert sum(coins(g)) + cup(g) == 2000


def test_undo_gives_the_coins_back():
    g = game_of(start(), flip("red-orchids"), {"type": "undo"})
    assert coins(g) == [20, 20, 20] and cup(g) == 0 and turn(g) == "Ben"


def test_the_state_shows_the_last_card_and_the_totals():
    state = game_of(start(coins=7), flip("red-orchids")).to_dict()
    assert state["last_card"] == "red-orchids" and state["top_card"] == "red-orchids"
    assert state["total_coins"] == 21 and state["start_coins"] == 7


# -- invariants and simulation --------------------------------------------------------------------
def test_invariants_catch_lost_coins_and_out_players_with_coins():
    g = game_of(start())
    rules = get_rules("snake-cup")
    st = g.state.copy()
    assert rules.invariants(st) == []
    st.coins[0] -= 1
    assert any("not conserved" in p for p in rules.invariants(st))
    st = g.state.copy()
    st.out[2] = True
    assert any("out is True" in p for p in rules.invariants(st))


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("options", [{}, {"crosses_short": "cup", "snakes": 1},
                                     {"crosses_short": "ask", "comeback": True},
                                     {"coins": 3, "comeback": True, "crosses_short": "clockwise"}])
def test_random_games_keep_every_invariant(players, options):
    report = simulate("snake-cup", 40, players, seed=7, options=options)
    assert report.violations == [] and report.unfinished == 0 and report.games == 40


def test_the_example_game_replays_to_the_hand_worked_end():
    import json
    from pathlib import Path
    lines = Path(__file__).parent.parent.joinpath("docs/examples/snake-cup-game.jsonl").read_text().splitlines()
    g = Game()
    verdicts = [g.submit(json.loads(line)) for line in lines]
    # rejected: Ana turning out of turn (line 8) and a flip while Ben owes his CROSSES choice (line 14)
    assert [i + 1 for i, v in enumerate(verdicts) if not v.accepted] == [8, 14]
    state = g.to_dict()
    assert state["winner"] == 0 and coins(g) == [12, 0, 0] and cup(g) == 0
