"""Card art: upright card faces and backs for every deck, as numpy RGBA arrays.

Contract (used by the recognizer's training and by `tableref synth` / `print-deck`):

    render_card(card_id, deck, rng=None, style=None, size=(224, 348)) -> np.ndarray
    render_back(deck, rng=None, style=None, size=(224, 348)) -> np.ndarray

- The result is uint8, shape (H, W, 4), RGBA, of one upright card seen straight on (portrait,
  56 x 87 mm: pass a size with that aspect; the art stretches to whatever size is given).
  The card fills the whole array: a white border, rounded corners, alpha 255 on the card and 0
  outside its rounded corners (antialiased in between). The four array corners are therefore the
  corners of the card's bounding rectangle: top-left, top-right, bottom-right, bottom-left.
- card_id is an id of `referee.load_deck(deck)` (`tableref cards DECK --json`); an unknown deck or
  id raises KeyError with a message naming the decks or the id.
- rng None and style None: the canonical print (always the same pixels for the same arguments).
  With an rng, a random print is drawn from it: for `uno`/`ono` the centre shape (oval, circle or
  none, tilted or straight), font (heavy, italic, condensed, serif), outline weight, drop shadow,
  drawing of skip/reverse/draw2/wild/wild-draw4, corner indices, colour shades, paper white, print
  wear and gloss; for the designed decks (`dino2`, `snake-cup`) only shades, paper, wear and gloss,
  since users print exactly that art. A given style (see vision.art.style.Style) wins over rng.
  The same rng state gives the same pixels. A random UNO print comes from one of the named print
  families of vision.art.style.PRINTS (Style.print says which); `style_for(deck, rng, prints=...)`
  draws from a subset of them.
"""
from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
from PIL import Image

from .draw import SUPERSAMPLE, rounded_mask
from .style import CANONICAL, Style, photometric_style, random_style
from .wear import apply_wear

CARD_MM = (56.0, 87.0)
DEFAULT_SIZE = (224, 348)          # 4 pixels per millimetre
UNO_FAMILY = ("uno", "ono")

__all__ = ["CARD_MM", "DEFAULT_SIZE", "Style", "render_card", "render_back", "card_ids", "style_for"]


def _deck(deck: str):
    from referee import load_deck
    return load_deck(deck)


def card_ids(deck: str) -> list[str]:
    """The distinct card ids of a deck, in deck-list order (the class order of synthetic sets)."""
    return list(_deck(deck).cards)


def style_for(deck: str, rng: random.Random | None = None, prints=None) -> Style:
    """The canonical style of a deck (rng None) or a random print of it; for the UNO family,
    `prints` names the print families to draw from (None = all of style.PRINTS)."""
    if deck in UNO_FAMILY:
        return random_style(rng, prints=prints) if rng is not None else CANONICAL
    if prints is not None:
        raise ValueError(f"deck {deck!r} has one design: print families are for {', '.join(UNO_FAMILY)}")
    from .designed import deck_colors
    colors = deck_colors(deck)
    if rng is None:
        return replace(CANONICAL, colors=colors)
    return photometric_style(rng, colors)


def _finish(img: Image.Image, style: Style, size) -> np.ndarray:
    w, h = size
    img = img.resize((w, h), Image.LANCZOS)
    mask = rounded_mask(w * SUPERSAMPLE, h * SUPERSAMPLE, style.radius * w * SUPERSAMPLE)
    mask = mask.resize((w, h), Image.LANCZOS)
    arr = np.asarray(img).copy()
    arr[..., 3] = np.minimum(arr[..., 3], np.asarray(mask))
    arr = apply_wear(arr, style.wear, style.gloss, style.seed)
    arr[..., 3] = np.asarray(mask)
    return arr


def _check_size(size):
    w, h = int(size[0]), int(size[1])
    if w < 8 or h < 8:
        raise ValueError(f"card size {size} is too small (at least 8 x 8 pixels)")
    return w, h


def render_card(card_id: str, deck: str, rng: random.Random | None = None, style: Style | None = None,
                size=DEFAULT_SIZE) -> np.ndarray:
    """An upright card face as uint8 RGBA (H, W, 4); see the module docstring for the contract."""
    d = _deck(deck)
    if card_id not in d.cards:
        raise KeyError(f"{card_id!r} is not a card of deck {deck!r}")
    card = d.cards[card_id]
    w, h = _check_size(size)
    if style is None:
        style = style_for(deck, rng)
    W, H = w * SUPERSAMPLE, h * SUPERSAMPLE
    if deck in UNO_FAMILY:
        from .uno import draw_face
        label = card.attrs.get("food") if deck == "ono" else None
        img = draw_face(card, style, W, H, extra_label=label)
    else:
        from .designed import draw_face
        img = draw_face(d, card, style, W, H)
    return _finish(img, style, (w, h))


def render_back(deck: str, rng: random.Random | None = None, style: Style | None = None,
                size=DEFAULT_SIZE) -> np.ndarray:
    """The back of a deck's cards, same format as render_card."""
    _deck(deck)
    w, h = _check_size(size)
    if style is None:
        style = style_for(deck, rng)
    W, H = w * SUPERSAMPLE, h * SUPERSAMPLE
    if deck in UNO_FAMILY:
        from .uno import draw_back
        img = draw_back(deck, style, W, H)
    else:
        from .designed import draw_back
        img = draw_back(_deck(deck), style, W, H)
    return _finish(img, style, (w, h))
