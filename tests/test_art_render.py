"""vision/art: the render contract (shape, alpha, determinism) for every deck."""
import random

import numpy as np
import pytest

from referee import load_deck
from vision.art import card_ids, render_back, render_card

DECKS = ["uno", "ono", "dino2", "snake-cup"]


@pytest.mark.parametrize("deck", DECKS)
def test_every_card_renders_with_the_contract(deck):
    ids = card_ids(deck)
    assert ids == list(load_deck(deck).cards)
    for cid in ids:
        a = render_card(cid, deck, size=(56, 87))
        assert a.dtype == np.uint8 and a.shape == (87, 56, 4)
        assert a[0, 0, 3] == 0 and a[-1, -1, 3] == 0        # outside the rounded corners
        assert a[43, 28, 3] == 255 and a[2, 28, 3] == 255     # the card itself is opaque
        # the border is near white; the centre of a coloured card is not all white
        assert a[2, 28, :3].min() > 200


def test_canonical_is_deterministic_and_rng_varies():
    a = render_card("red-7", "uno")
    assert np.array_equal(a, render_card("red-7", "uno"))
    r1 = render_card("red-7", "uno", rng=random.Random(1))
    assert np.array_equal(r1, render_card("red-7", "uno", rng=random.Random(1)))
    others = [render_card("red-7", "uno", rng=random.Random(k)) for k in range(2, 6)]
    assert all(not np.array_equal(r1, o) for o in others)


def test_colour_is_the_cards_colour():
    # a red card is mostly red where it is not white; a blue one blue (canonical print)
    for cid, channel in (("red-5", 0), ("green-5", 1), ("blue-5", 2)):
        a = render_card(cid, "uno").astype(int)
        px = a[30, 20, :3]                  # upper-left coloured field, outside the oval
        assert px.argmax() == channel, (cid, px)


def test_backs_and_bad_input():
    for deck in DECKS:
        b = render_back(deck, size=(112, 174))
        assert b.shape == (174, 112, 4) and b[0, 0, 3] == 0
    with pytest.raises(KeyError, match="not a card of deck"):
        render_card("purple-3", "uno")
    with pytest.raises(KeyError, match="unknown deck"):
        render_card("red-3", "nope")
    with pytest.raises(ValueError):
        render_card("red-3", "uno", size=(4, 4))
