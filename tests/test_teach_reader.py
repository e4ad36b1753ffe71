"""How a taught reading and the built-in recognizer's are combined (vision/teach/reader.py), and
the taught deck's confidence: pure functions, each rule once."""
import numpy as np

from vision.teach.deck import Match, confidence
from vision.teach.reader import STRANGER, combine

TAUGHT = {"red-7", "red-9", "blue-7"}


def m(card, conf, runner_up=None, near=False):
    return Match(card, conf, 1.0, 2.0, runner_up, near)


def test_no_built_in_reading_leaves_the_taught_one():
    assert combine(m("red-7", 0.3), None, TAUGHT) == ("red-7", 0.3)
    assert combine(m("red-7", 0.3), (None, 0.0), TAUGHT) == ("red-7", 0.3)


def test_a_sure_built_in_reading_of_an_untaught_card_wins_unless_the_taught_one_is_sure_and_near():
    assert combine(m("red-7", 0.9), ("green-2", 0.8), TAUGHT) == ("green-2", 0.8)
    assert combine(m("red-7", 0.9, near=True), ("green-2", 0.8), TAUGHT) == ("red-7", 0.9)
    assert combine(m("red-7", 0.5, near=True), ("green-2", 0.8), TAUGHT) == ("green-2", 0.8)


def test_on_a_deck_of_another_border_the_built_in_is_never_sure():
    # its readers learned white-margined prints: a sure reading of an untaught card (the DINO 2 "dino"
    # for a black-edged ice cream) is taken, but unsure, and the table confirms it
    assert combine(m("red-7", 0.3), ("green-2", 0.9), TAUGHT, stranger=True) == ("green-2", STRANGER)
    assert STRANGER < 0.6
    # ... and a sure taught reading is no longer overruled by it
    assert combine(m("red-7", 0.9), ("green-2", 0.9), TAUGHT, stranger=True) == ("red-7", 0.9)
    assert combine(m("red-7", 0.9), ("green-2", 0.9), TAUGHT) == ("green-2", 0.9)   # white: as before


def test_on_a_deck_of_another_border_two_readers_agreeing_are_sure():
    # the built-in sure of the card the taught deck names too, by some margin: sure (teach bench,
    # black-edged uno: unsure 0.21 -> 0.18, none wrong and sure)
    assert combine(m("red-7", 0.45), ("red-7", 0.9), TAUGHT, stranger=True) == ("red-7", 0.9)
    # the taught deck all but guessing: the built-in stays unsure
    assert combine(m("red-7", 0.05), ("red-7", 0.9), TAUGHT, stranger=True) == ("red-7", STRANGER)
    # a 6 or a 9: the bar decides, and a half-turned card fools both readers alike
    assert combine(m("red-9", 0.45), ("red-9", 0.9), TAUGHT, stranger=True) == ("red-9", STRANGER)


def test_a_sure_near_taught_reading_against_a_sure_untaught_card_of_another_colour_is_unsure():
    # a yellow 5 never taught, read sure and near as the red 5 taught (its symbol from the red 5,
    # its colour weakly), the built-in sure of the yellow 5: the table confirms
    colours = {"red-7": "red", "red-9": "red", "blue-7": "blue", "green-2": "green", "red-2": "red"}
    card, conf = combine(m("red-7", 0.97, near=True), ("green-2", 0.97), TAUGHT, colours)
    assert card == "red-7" and conf < 0.6
    # of the same colour, both sure: the nearest taught card of that colour is no proof against a sure
    # reading of one never taught (real photos: a green 5 not taught read as the green 6 at 0.64, and
    # at 0.83 where every second card was not taught): the surer one's card, unsure
    assert combine(m("red-7", 0.64, near=True), ("red-2", 0.9), TAUGHT, colours) == ("red-2", 0.5)
    assert combine(m("red-7", 0.83, near=True), ("red-2", 0.98), TAUGHT, colours) == ("red-2", 0.5)
    assert combine(m("red-7", 0.9, near=True), ("red-2", 0.8), TAUGHT, colours) == ("red-7", 0.5)
    # the taught deck composing that very card (its symbol and colour from other cards) agrees: sure
    assert combine(m("red-2", 0.7, near=True), ("red-2", 0.9), TAUGHT, colours) == ("red-2", 0.9)
    assert combine(m("red-2", 0.95, near=True), ("red-2", 0.7), TAUGHT, colours) == ("red-2", 0.95)


def test_a_sure_taught_reading_wins_over_the_built_in_naming_another_taught_card():
    # a re-drawn print: the built-in's sure reading of a taught card does not override
    assert combine(m("red-7", 0.7), ("blue-7", 0.95), TAUGHT) == ("red-7", 0.7)


def test_unsure_readings_that_agree_take_the_higher_confidence():
    assert combine(m("red-7", 0.4), ("red-7", 0.5), TAUGHT) == ("red-7", 0.5)


def test_a_sure_taught_reading_the_built_in_agrees_with_takes_the_higher_confidence():
    # a real yellow 6 held in a hand: taught 0.67 (its 9 near), the built-in 0.97 of the same card
    assert combine(m("red-7", 0.67, runner_up="red-9"), ("red-7", 0.97), TAUGHT) == ("red-7", 0.97)
    assert combine(m("red-7", 0.9), ("red-7", 0.7), TAUGHT) == ("red-7", 0.9)
    # a stranger's agreement is still capped where the taught deck is what is sure
    assert combine(m("red-9", 0.7), ("red-9", 0.95), TAUGHT, stranger=True) == ("red-9", 0.7)


def test_the_built_in_sure_of_the_taught_runner_up_wins_else_the_taught_reading_stands():
    assert combine(m("red-7", 0.3, runner_up="red-9"), ("red-9", 0.8), TAUGHT) == ("red-9", 0.3)   # unsure
    assert combine(m("red-7", 0.3, runner_up="blue-7"), ("red-9", 0.8), TAUGHT) == ("red-7", 0.3)
    assert combine(m("red-7", 0.3, runner_up="red-9"), ("red-9", 0.5), TAUGHT) == ("red-7", 0.3)
    # an unsure built-in reading of an untaught card: the built-in's (the taught deck cannot know it)
    assert combine(m("red-7", 0.3), ("green-2", 0.5), TAUGHT) == ("green-2", 0.5)


def test_the_built_in_sure_of_a_taught_card_of_the_colour_the_taught_deck_names_wins_unsure():
    # colour is what a taught deck reads best; the symbol is what it confuses (DINO 2's chill and
    # girl): the built-in sure of a red card when the taught deck is unsure of another red one
    colours = {"red-7": "red", "red-9": "red", "blue-7": "blue", "green-2": "green"}
    assert combine(m("red-7", 0.3, runner_up="blue-7"), ("red-9", 0.8), TAUGHT, colours) == ("red-9", 0.3)
    # ... not of another colour (a re-drawn print's built-in reading, by chance), nor unsure
    assert combine(m("red-9", 0.3, runner_up="red-7"), ("blue-7", 0.8), TAUGHT, colours) == ("red-9", 0.3)
    assert combine(m("red-7", 0.3, runner_up="blue-7"), ("red-9", 0.5), TAUGHT, colours) == ("red-7", 0.3)
    # ... and a sure taught reading stands against an unsure built-in (two sure readers: below)
    assert combine(m("red-7", 0.7), ("red-9", 0.55), TAUGHT, colours) == ("red-7", 0.7)


def test_two_sure_readers_naming_two_cards_of_one_colour_leave_it_unsure():
    # DINO 2's double read as a skip 2 at 0.65 by the taught deck, the built-in sure of the double
    colours = {"red-7": "red", "red-9": "red", "blue-7": "blue"}
    card, conf = combine(m("red-7", 0.65), ("red-9", 1.0), TAUGHT, colours)
    assert card == "red-9" and conf < 0.6
    card, conf = combine(m("red-7", 0.9), ("red-9", 0.7), TAUGHT, colours)
    assert card == "red-7" and conf < 0.6
    # ... even near its card's own photos (that double was); another colour is no conflict
    card, conf = combine(m("red-7", 0.65, near=True), ("red-9", 1.0), TAUGHT, colours)
    assert card == "red-9" and conf < 0.6
    assert combine(m("red-7", 0.65), ("blue-7", 1.0), TAUGHT, colours) == ("red-7", 0.65)


def test_a_six_and_a_nine_are_told_apart_by_the_more_confident_reader():
    # the taught deck keeps both turns of every photo: a 6 and a 9 differ only by the bar's place
    taught = TAUGHT | {"red-6"}
    assert combine(m("red-6", 0.35, runner_up="red-9"), ("red-9", 0.55), taught) == ("red-9", 0.55)
    assert combine(m("red-9", 0.7, runner_up="red-6"), ("red-6", 0.97), taught) == ("red-6", 0.97)
    # the built-in guessing (no bar seen) does not overturn a surer taught reading
    assert combine(m("red-9", 0.7, runner_up="red-6"), ("red-6", 0.55), taught) == ("red-9", 0.7)
    # a twin never taught: the taught deck cannot tell it from its half-turned taught twin (real
    # photos: each 9 not taught read as the taught 6 at 0.96-1.0), and the built-in's word stands
    sixes = {"red-6", "red-7"}
    assert combine(m("red-6", 0.99), ("red-9", 0.59), sixes) == ("red-9", 0.59)
    assert combine(m("red-6", 0.99), ("red-9", 0.3), sixes) == ("red-6", 0.99)     # a guess does not
    assert combine(m("red-6", 0.99), ("red-9", 0.59), taught) == ("red-6", 0.99)   # the 9 was taught
    # a 6 of another colour is no twin
    assert combine(m("red-9", 0.3, runner_up="red-7"), ("blue-6", 0.55), taught | {"blue-6"}) == ("red-9", 0.3)


def test_twin_is_the_same_colour_with_six_and_nine_swapped():
    from vision.teach.reader import twin
    assert twin("red-6") == "red-9" and twin("blue-9") == "blue-6"
    assert twin("red-7") is None and twin("wild") is None and twin("red-dingbat") is None


def test_a_taught_guess_gives_way_to_the_built_in_reading_unsure():
    assert combine(m("red-7", 0.05, runner_up="blue-7"), ("red-9", 0.95), TAUGHT) == ("red-9", 0.05)
    assert combine(m("red-7", 0.15, runner_up="blue-7"), ("red-9", 0.95), TAUGHT) == ("red-7", 0.15)
    # ... but not to a built-in that misread the deck's own teach photos (a deck drawn by hand): a
    # guess against a guess, and the taught deck knows this deck's art
    assert combine(m("red-7", 0.05, runner_up="blue-7"), ("red-9", 0.95), TAUGHT,
                   stranger=True, guesses=False) == ("red-7", 0.05)


def test_a_stranger_built_in_names_an_untaught_card_only_when_surer_than_the_taught_reading():
    # a deck drawn by hand whose wild draw four's teach photo was refused: the built-in, right on 2
    # of its 47 teach photos, read "wild draw four" at 0.0-0.35 on 30 of the other cards, and each
    # of those took the place of a taught reading more confident than it (the teach bench's inked
    # UNO deck, seed 5350: 75 -> 92 of 108 right)
    assert combine(m("red-7", 0.53, runner_up="red-9"), ("wild-draw4", 0.14), TAUGHT,
                   stranger=True, guesses=False) == ("red-7", 0.53)
    # ... while the card that was not taught is still read where the built-in is the surer of the two
    assert combine(m("red-9", 0.02, runner_up="blue-7"), ("wild-draw4", 0.87), TAUGHT,
                   stranger=True, guesses=False) == ("wild-draw4", STRANGER)
    # a built-in trusted on the deck's teach photos keeps naming the card it alone knows
    assert combine(m("red-7", 0.53, runner_up="red-9"), ("wild-draw4", 0.14), TAUGHT) == ("wild-draw4", 0.14)


def test_a_stranger_built_in_unsure_of_an_untaught_card_leaves_even_a_weak_taught_reading(monkeypatch):
    # the same deck with every other photo taught (session 66): the built-in's "wild draw four" at
    # 0.11-0.40, unsure by its own measure, still took the place of taught readings weaker still, five
    # of them right (yellow and green reverses at 0.12-0.35): 94 -> 99 of 108 once it must be sure
    from vision.teach import reader
    assert combine(m("green-reverse", 0.35, runner_up="green-skip"), ("wild-draw4", 0.40), TAUGHT,
                   stranger=True, guesses=False) == ("green-reverse", 0.35)
    assert combine(m("green-reverse", 0.35, runner_up="green-skip"), ("wild-draw4", 0.62), TAUGHT,
                   stranger=True, guesses=False) == ("wild-draw4", STRANGER)
    monkeypatch.setattr(reader, "GUESS_SURE", False)
    assert combine(m("green-reverse", 0.35, runner_up="green-skip"), ("wild-draw4", 0.40), TAUGHT,
                   stranger=True, guesses=False) == ("wild-draw4", 0.40)


def test_confidence_grows_with_the_margin_and_falls_with_the_distance():
    assert confidence(1.0, float("inf")) == 1.0                 # one card taught, near
    assert confidence(1.0, 1.0) == 0.0                          # a tie
    assert confidence(1.0, 2.0) == 1.0                          # margin 0.5 >= full
    assert np.isclose(confidence(1.0, 1.0 / 0.9), 0.4)          # margin 0.1 of 0.25
    assert confidence(6.0, 100.0) == 0.0                        # far from every prototype
    assert 0 < confidence(3.5, 100.0) < 1
    assert confidence(float("inf"), float("inf")) == 0.0


def test_a_card_never_photographed_is_read_from_its_symbol_and_colour_taught_on_others():
    """Two dino2 cards taught, a red dingbat and a blue chill: a blue dingbat (the dingbat's drawing
    in the blue chill's colour) is read as the blue dingbat, a card of the deck never taught;
    left-one-photo-out readings stay among the cards taught."""
    from vision.teach.deck import TaughtDeck
    from vision.teach.embed import shape_mask
    mask = shape_mask()
    rng = np.random.default_rng(0)
    shapes = {"dingbat": rng.normal(size=mask.sum()), "chill": rng.normal(size=mask.sum())}
    hues = {"red": rng.normal(size=(~mask).sum()), "blue": rng.normal(size=(~mask).sum())}

    def e(symbol, colour):
        v = np.zeros(mask.size, np.float32)
        v[mask], v[~mask] = shapes[symbol], hues[colour]
        return v

    protos = np.stack([e("dingbat", "red"), e("chill", "blue")])
    td = TaughtDeck("dino2", ["red-dingbat", "blue-chill"], ["red", "blue"], ["dingbat", "chill"], protos,
                    np.array([0, 1]), np.array([0, 1]), np.ones(mask.size, np.float32), (1.0, 1.0))
    assert sorted(td.composed) == ["blue-dingbat", "red-chill"]
    m = td.match(e("dingbat", "blue"))
    assert m.card == "blue-dingbat" and m.best < 0.1 and m.confidence == 1.0
    assert td.match(e("dingbat", "red")).card == "red-dingbat"
    assert td.match(e("dingbat", "blue"), exclude_photo=1).card == "red-dingbat"
    # a deck the referee does not know: nothing composed
    assert TaughtDeck("no-such-deck", ["red-dingbat"], ["red"], ["dingbat"], protos[:1], np.array([0]),
                      np.array([0]), np.ones(mask.size, np.float32)).composed == []


def test_the_built_in_is_trusted_unless_it_misread_the_teach_photos_surely():
    from vision.teach.deck import trusts_builtin
    assert trusts_builtin(0, 0, 0) and trusts_builtin(1, 0, 1)     # too few photos to say
    assert trusts_builtin(54, 50, 2) and not trusts_builtin(54, 50, 3)   # 5% of 54 is 2.7
    assert trusts_builtin(54, 27, 0) and not trusts_builtin(54, 26, 0)   # right on half of them at least
    # ... and sure only where right on 0.8 of them: a deck in ink, its names written out, read right on
    # half its teach photos (its sure readings agreeing with the taught deck's guesses were wrong and
    # sure on 6 of 122 other photos)
    from vision.teach.deck import BUILTIN_SURE
    assert trusts_builtin(54, 44, 0, BUILTIN_SURE) and not trusts_builtin(54, 43, 0, BUILTIN_SURE)
    assert trusts_builtin(58, 29, 0) and not trusts_builtin(58, 29, 0, BUILTIN_SURE)
    assert not trusts_builtin(6, 5, 1)                              # one in six wrong and sure: a stranger


def test_the_teach_report_says_how_far_the_built_in_is_trusted():
    from vision.teach.teach import Report
    from web.commands.teach_cmds import format_report

    def line(right, wrong=0, photos=58):
        r = Report("snake-cup", 61, taught=["red-cup"], builtin_total=photos, builtin_right=right,
                   builtin_sure_wrong=wrong)
        return next(x for x in format_report(r, "t.npz").splitlines() if x.startswith("built-in recognizer"))
    assert line(55).endswith("55/58 right, 0 wrong but sure")                  # trusted and sure
    assert "right on too few to be sure of" in line(29) and "stranger" not in line(29)   # half: trusted, not sure
    assert "stranger" in line(28) and "too few" not in line(28)                # under half: a stranger
    assert "stranger" in line(55, wrong=3)                                     # wrong and sure on 5% and more


def test_a_match_among_the_symbols_another_reader_read_tells_the_colour_of_that_symbol():
    """The text reader read a "1" clearly where the taught deck, unsure, named a 7: matched again
    among the taught 1s, the colour the embedding is nearest decides (Recognizer._identify)."""
    from vision.teach.deck import TaughtDeck
    from vision.teach.embed import shape_mask
    mask = shape_mask()
    rng = np.random.default_rng(1)
    shapes = {s: rng.normal(size=mask.sum()) for s in ("1", "7")}
    hues = {c: rng.normal(size=(~mask).sum()) for c in ("red", "blue")}

    def e(symbol, colour, shape_like=None):
        v = np.zeros(mask.size, np.float32)
        v[mask] = shapes[symbol] if shape_like is None else shape_like
        v[~mask] = hues[colour]
        return v

    cards = ["red-1", "blue-1", "red-7", "blue-7"]
    protos = np.stack([e(c.split("-")[1], c.split("-")[0]) for c in cards])
    td = TaughtDeck("uno", cards, ["red", "blue", "red", "blue"], ["1", "1", "7", "7"], protos,
                    np.arange(4), np.arange(4), np.ones(mask.size, np.float32), (1.0, 1.0))
    # a blue 1 drawn so that its shape lies nearer the taught 7s than the 1s
    x = e("1", "blue", shape_like=0.4 * shapes["1"] + 0.6 * shapes["7"])
    assert td.match(x).card == "blue-7"
    told = td.match(x, symbols={"1"})
    assert told.card == "blue-1" and told.runner_up == "red-1"
    # symbols no card of the deck was taught with leave nothing to name
    assert td.match(x, symbols={"skip"}).confidence == 0.0


def test_a_six_or_a_nine_of_a_deck_drawn_by_hand_is_never_sure():
    from vision.teach.reader import TWIN_UNSURE, unbarred
    deck = {"red-6": "red", "red-9": "red", "red-7": "red"}
    assert unbarred("red-6", 0.9, deck) == TWIN_UNSURE < 0.6      # a drawn 6 is a drawn 9 turned
    assert unbarred("red-9", 0.3, deck) == 0.3
    assert unbarred("red-7", 0.9, deck) == 0.9                    # other numerals keep theirs
    assert unbarred("red-6", 0.9, {"red-6": "red"}) == 0.9        # no twin in the deck
    assert unbarred(None, 0.0, deck) == 0.0
