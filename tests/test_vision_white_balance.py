"""vision/read/colour.py white_balance: the card's own paper is the white reference, and a lamp's
clipped glare is no part of it (it is white whatever the light's colour)."""
import numpy as np

from vision.read.colour import card_colour


def _teal_green_card(cast: tuple, glare: bool) -> np.ndarray:
    """A 64x100 warp of a card whose green is teal (OpenCV hue 82, as one real print's is: 78-83,
    the green/blue edge at 88), lit by a bluish lamp (`cast`: gains on B, G, R), maybe with a glare
    that clips a sixth of it to white."""
    img = np.full((100, 64, 3), 190, np.float32)
    img[6:94, 5:59] = (105, 140, 15)
    img *= np.float32(cast)
    if glare:
        img[30:60, 15:50] = 255
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_bluish_lamp_is_corrected_on_the_paper_not_on_the_glare():
    bluish = (1.3, 1.0, 0.8)
    assert card_colour(_teal_green_card(bluish, glare=False))[0] == "green"
    # with the clipped glare as the white reference, the lamp went uncorrected: read blue
    assert card_colour(_teal_green_card(bluish, glare=True))[0] == "green"
    # under white light, with or without glare, as before
    assert card_colour(_teal_green_card((1.0, 1.0, 1.0), glare=True))[0] == "green"
