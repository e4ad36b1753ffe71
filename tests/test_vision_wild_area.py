"""A big four-colour area is a wild's, never a wild draw four's (vision/read/colour.four_colour_area,
vision/read/fuse.four_colour_evidence): the classifier took the classic print's "WILD" lettered
over its oval for a +4, and was sure of it under a lamp, a tilt or blur."""
from __future__ import annotations

import csv
import random
from pathlib import Path

import numpy as np
import pytest

from referee import load_deck
from vision.art.style import random_style
from vision.art.uno import draw_face
from vision.read.colour import colour_votes, four_colour_area, scarcest_two
from vision.read.fuse import (FOUR_COLOURS, FOUR_COLOURS_ONE, NO_COLOURS, NO_COLOURS_WILD, WILD_AREA_DRAW4,
                              few_colours_evidence, four_colour_evidence)
from vision.recognizer import Recognizer

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real-uno-dev"
SYMBOLS = ["7", "draw2", "wild", "wild-draw4"]
FAMILIES = ["classic", "ring-2018", "filled-oval", "circle-2024", "knockoff", "jumbo-numeral"]


def rendered_votes(card: str, family: str, n: int = 12):
    """(seed, colour votes) of `n` clean renders of a UNO card in random styles of one print family."""
    deck = load_deck("uno")
    for s in range(n):
        style = random_style(random.Random(s), prints=[family])
        face = np.array(draw_face(deck.cards[card], style, 120, 180).convert("RGB"))[:, :, ::-1]
        yield s, colour_votes(np.ascontiguousarray(face))


def test_four_colour_area_counts_the_scarcest_colour():
    # by hand: 60% of the face coloured, shared evenly by four colours -> 4 x 0.6 x 0.25 = 0.6
    even = {"coloured": 0.6, "votes": {"red": 0.25, "yellow": 0.25, "green": 0.25, "blue": 0.25}}
    assert four_colour_area(even) == pytest.approx(0.6)
    # a red card with a few stray yellow pixels: the scarcest colour has none
    red = {"coloured": 0.7, "votes": {"red": 0.95, "yellow": 0.05, "green": 0.0, "blue": 0.0}}
    assert four_colour_area(red) == 0.0


def test_a_big_area_turns_a_plus4_belief_into_a_wild_and_a_small_one_changes_nothing():
    p = np.array([0.01, 0.01, 0.08, 0.90])
    big = four_colour_evidence(SYMBOLS, p, 0.55)
    # the +4 weighed down by WILD_AREA_DRAW4 against the wild: 0.9 x 0.1 = 0.09 against 0.08
    assert big[3] / big[2] == pytest.approx(0.90 * WILD_AREA_DRAW4 / 0.08)
    assert big.sum() == pytest.approx(1.0)
    minis = four_colour_evidence(SYMBOLS, p, 0.15)                            # four mini cards: the +4
    assert minis[3] / minis[2] == pytest.approx(0.90 / 0.08)                 # not weighed against the wild
    assert np.allclose(four_colour_evidence(SYMBOLS, p, 0.05), p)            # under FOUR_COLOURS: nothing
    assert np.allclose(four_colour_evidence(["1", "2"], p[:2] / p[:2].sum(), 0.9), p[:2] / p[:2].sum())


@pytest.mark.parametrize("family", FAMILIES)
def test_rendered_wild_draw_fours_of_every_print_have_a_small_area(family):
    for s, votes in rendered_votes("wild-draw4", family):
        assert four_colour_area(votes) < 0.25, (family, s)


@pytest.mark.parametrize("family", ["ring-2018", "filled-oval", "circle-2024"])
def test_rendered_wilds_with_a_four_colour_shape_have_a_big_area(family):
    for s, votes in rendered_votes("wild", family):
        assert four_colour_area(votes) >= 0.40, (family, s)


def test_a_face_without_its_scarcest_two_colours_is_no_wild():
    # by hand: 2.4% of the face coloured, nearly all one colour (a teal disc): 0.024 x (0 + 0.026)
    disc = {"coloured": 0.024, "votes": {"red": 0.0, "yellow": 0.026, "green": 0.038, "blue": 0.936}}
    assert scarcest_two(disc) == pytest.approx(0.024 * 0.026)
    p = np.array([0.02, 0.02, 0.90, 0.06])
    low = few_colours_evidence(SYMBOLS, p, scarcest_two(disc))
    assert low[2] / low[3] == pytest.approx(0.90 * NO_COLOURS_WILD / 0.06)   # the wild weighed down
    assert SYMBOLS[int(low.argmax())] != "wild" or low.max() < 0.6
    # a thumb outlined as a card (skin reads yellow and a little red; session 20): no wild either
    thumb = {"coloured": 0.88, "votes": {"red": 0.153, "yellow": 0.840, "green": 0.0038, "blue": 0.0038}}
    assert scarcest_two(thumb) == pytest.approx(0.88 * 0.0076)
    low = few_colours_evidence(SYMBOLS, p, scarcest_two(thumb))
    assert low[2] / low[3] == pytest.approx(0.90 * NO_COLOURS_WILD / 0.06)
    # a lettered wild ("WILD" in four colours, little of the face): as read before
    lettered = {"coloured": 0.08, "votes": {"red": 0.17, "yellow": 0.19, "green": 0.28, "blue": 0.36}}
    assert scarcest_two(lettered) >= NO_COLOURS
    assert np.allclose(few_colours_evidence(SYMBOLS, p, scarcest_two(lettered)), p)


def test_a_face_showing_all_four_colours_is_no_card_of_one_colour():
    # by hand: a black face, 16% coloured, four mini cards of about a quarter each: 4 x 0.16 x 0.22
    four = {"coloured": 0.16, "votes": {"red": 0.24, "yellow": 0.30, "green": 0.22, "blue": 0.24}}
    assert four_colour_area(four) == pytest.approx(0.1408)
    p = np.array([0.66, 0.04, 0.10, 0.20])                 # the text reader's "1" for the stack of minis
    got = four_colour_evidence(SYMBOLS, p, four_colour_area(four))
    # the one-colour symbols weighed down by FOUR_COLOURS_ONE, the two wilds kept: 0.66 x 0.2 against 0.20
    assert got[0] / got[3] == pytest.approx(0.66 * FOUR_COLOURS_ONE / 0.20)
    assert got[2] / got[3] == pytest.approx(0.10 / 0.20)
    assert SYMBOLS[int(got.argmax())] == "wild-draw4"
    # a red card with stray yellow and green, a trace of blue: far under the bar, as read before
    red = {"coloured": 0.7, "votes": {"red": 0.93, "yellow": 0.04, "green": 0.025, "blue": 0.005}}
    assert four_colour_area(red) < FOUR_COLOURS / 4
    assert np.allclose(four_colour_evidence(SYMBOLS, p, four_colour_area(red)), p)


@pytest.mark.parametrize("family", FAMILIES)
def test_rendered_coloured_cards_of_every_print_show_no_four_colour_area(family):
    for card in ("red-7", "yellow-skip", "green-draw2", "blue-reverse"):
        for s, votes in rendered_votes(card, family, n=6):
            assert four_colour_area(votes) < FOUR_COLOURS / 4, (card, family, s)


@pytest.mark.parametrize("family", ["classic", "filled-oval", "ring-2018"])
def test_rendered_wild_draw_fours_of_mini_cards_show_all_four_colours(family):
    # the prints that draw a +4 as four mini cards (a fan, a staircase)
    areas = [four_colour_area(votes) for _, votes in rendered_votes("wild-draw4", family)]
    assert np.median(areas) >= FOUR_COLOURS, (family, np.round(areas, 3))


@pytest.mark.parametrize("family", FAMILIES)
def test_rendered_wilds_of_every_print_show_all_four_colours(family):
    for s, votes in rendered_votes("wild", family):
        assert scarcest_two(votes) >= 2 * NO_COLOURS, (family, s)


@pytest.mark.skipif(not (REAL / "labels.csv").exists(), reason="development photos not present")
def test_the_classic_wild_photo_reads_as_a_wild_and_the_plus4_as_a_plus4():
    import cv2
    rec = Recognizer("uno")
    rows = {r["code"]: r["path"] for r in csv.DictReader(open(REAL / "labels.csv"))}
    assert rec.read(cv2.imread(str(REAL / rows["kW"])))[0].card == "wild"
    assert rec.read(cv2.imread(str(REAL / rows["kF"])))[0].card == "wild-draw4"
