"""Hand-drawn cards: a deck a player made with markers on blank card stock.

Issue 15 asks that a deck drawn by hand be taught like a printed one (DINO 2 and the snake-cup game
have no commercial deck; tables draw their own). No two such decks look alike, so this draws a
*hand* first (HandStyle, one per deck: the card stock and how it was cut, the markers, the
lettering's font, size and wobble, and whether a card's colour is its ink's or a field coloured in)
and then each card of the deck in that hand, every card redrawn with its own small differences:
where the lettering lands, how big, how it leans, the marker's streaks.

    hand = random_hand(random.Random(7))
    rgba = draw_card("red-candy", "dino2", hand, seed=3)      # the format of vision.art.render_card

What a card shows: its name as the deck prints it (vision/art/designed.py `label`; for the UNO
family the numeral or the action's short name), large in the middle, and a copy in the corners
(the UNO family's habit) or across the top; the designed decks' icon drawn in the middle too. A
colourless card (a wild, the rainbow cards, DINO and the SNAKE) is drawn in several markers.
Used by bench/teach.py and the teach tests, never by the shipped models' training.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image, ImageDraw

from . import UNO_FAMILY
from .draw import SUPERSAMPLE, paste_center, rounded_mask, text_image

# hand lettering: our heavy fonts, bent by the hand's wobble (no handwriting font is shipped)
HAND_FONTS = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "Roboto-Black.ttf", "LiberationSerif-Bold.ttf",
              "RobotoCondensed-Bold.ttf", "LiberationSansNarrow-Bold.ttf")
# felt-tip markers, RGB: a set of school markers is darker and more saturated than a print's inks
MARKERS = {"red": (206, 32, 38), "orange": (240, 112, 20), "yellow": (242, 206, 24), "green": (30, 150, 60),
           "blue": (30, 80, 200), "violet": (120, 50, 160), "purple": (120, 50, 160)}
BLACK_MARKER = (24, 24, 28)
STOCKS = ((250, 250, 246), (246, 242, 230), (238, 238, 236), (252, 248, 238))   # white, cream, grey, ivory
UNO_NAMES = {"skip": "SKIP", "reverse": "REV", "draw2": "+2", "wild": "WILD", "wild-draw4": "+4"}


@dataclass(frozen=True)
class HandStyle:
    stock: tuple = STOCKS[0]       # the blank card's colour
    radius: float = 0.06           # corner radius, share of the width (0: cut square with scissors)
    font: str = HAND_FONTS[0]
    wobble: float = 0.012          # the lettering's waver, share of the card's width
    size: float = 1.0              # how big this hand letters, against a middle
    coloured_in: bool = False      # the card's colour coloured in as a field (True) or its ink's (False)
    field_inset: float = 0.1       # ... the field's distance from the card's edge, share of the width
    corners: bool = True           # the name copied small into two corners
    markers: dict = field(default_factory=lambda: dict(MARKERS))


def random_hand(rng: random.Random) -> HandStyle:
    """One player's way of drawing a deck: stock, cut, font, wobble, colour as ink or field, and
    their markers' shades."""
    markers = {k: tuple(int(np.clip(c + rng.uniform(-18, 18), 0, 255)) for c in v) for k, v in MARKERS.items()}
    return HandStyle(stock=rng.choice(STOCKS), radius=rng.choice((0.0, rng.uniform(0.04, 0.1))),
                     font=rng.choice(HAND_FONTS), wobble=rng.uniform(0.006, 0.02), size=rng.uniform(0.85, 1.15),
                     coloured_in=rng.random() < 0.5, field_inset=rng.uniform(0.07, 0.14), corners=rng.random() < 0.7,
                     markers=markers)


def card_name(deck: str, card) -> str:
    """What a player writes on the card: the UNO family's numeral or action, a designed deck's name."""
    if deck in UNO_FAMILY:
        return UNO_NAMES.get(card.symbol, card.symbol)
    from .designed import label
    return label(deck, card)


def _ink(hand: HandStyle, colour: str | None, k: int = 0) -> tuple:
    """The marker for a card of `colour`; a colourless card's k-th stroke takes the k-th marker."""
    if colour is not None:
        return hand.markers.get(colour, BLACK_MARKER)
    cycle = ("red", "yellow", "green", "blue")
    return hand.markers[cycle[k % len(cycle)]]


def _lettering(text: str, hand: HandStyle, height: float, colour: str | None, rng: random.Random,
               ink=None) -> Image.Image:
    """`text` in the hand's font, each letter its own size and lean, a colourless card's letters in turn
    in four markers."""
    pieces = []
    for k, ch in enumerate(text):
        if ch == " ":
            pieces.append(Image.new("RGBA", (int(height * 0.35), int(height)), (0, 0, 0, 0)))
            continue
        fill = (ink or _ink(hand, colour, k)) + (255,)
        piece = text_image(ch, hand.font, height * rng.uniform(0.9, 1.1), fill)
        pieces.append(piece.rotate(rng.uniform(-8, 8), resample=Image.BICUBIC, expand=True))
    w = sum(p.width for p in pieces) + max(0, len(pieces) - 1) * int(height * 0.04)
    h = max(p.height for p in pieces) + int(height * 0.2)
    img = Image.new("RGBA", (max(1, w), max(1, h)), (0, 0, 0, 0))
    x = 0
    for p in pieces:
        img.alpha_composite(p, (x, int((h - p.height) / 2 + rng.uniform(-0.06, 0.06) * height)))
        x += p.width + int(height * 0.04)
    return img


def _coloured_field(img: Image.Image, hand: HandStyle, colour: str | None, rng: random.Random) -> None:
    """The field coloured in with a marker: overlapping strokes at one slant, a little uneven, its
    outline drawn by hand (corners not quite where a ruler puts them)."""
    W, H = img.size
    inset = hand.field_inset * W
    jitter = lambda: rng.uniform(-0.02, 0.02) * W        # noqa: E731
    pts = [(inset + jitter(), inset + jitter()), (W - inset + jitter(), inset + jitter()),
           (W - inset + jitter(), H - inset + jitter()), (inset + jitter(), H - inset + jitter())]
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).polygon(pts, fill=255)
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    width = max(2, int(W * rng.uniform(0.035, 0.06)))
    slant = rng.uniform(-0.6, 0.6)
    stripes = 6 if colour is None else 1
    for y in np.arange(-W, H + W, width * 0.8):
        band = int((y + W) / (H + 2 * W) * stripes) if colour is None else 0
        rgb = _ink(hand, colour, band)
        shade = rng.uniform(0.88, 1.0)
        d.line([(0, y), (W, y + slant * W)], fill=tuple(int(c * shade) for c in rgb) + (int(rng.uniform(215, 255)),),
               width=width)
    img.paste(layer, (0, 0), Image.fromarray(np.minimum(np.asarray(mask), np.asarray(layer)[..., 3])))
    ImageDraw.Draw(img).line(pts + [pts[0]], fill=BLACK_MARKER + (255,), width=max(1, int(W * 0.012)))


def _wobbled(layer: np.ndarray, amp: float, rng: random.Random) -> np.ndarray:
    """`layer` (RGBA) bent by a smooth random displacement of about `amp` pixels: a hand's waver."""
    h, w = layer.shape[:2]
    g = np.random.default_rng(rng.getrandbits(32))
    coarse = g.normal(0, 1, (2, 5, 4)).astype(np.float32)
    dx = cv2.resize(coarse[0], (w, h), interpolation=cv2.INTER_CUBIC) * amp
    dy = cv2.resize(coarse[1], (w, h), interpolation=cv2.INTER_CUBIC) * amp
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(layer, xs + dx, ys + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def _finished(base: Image.Image, ink: Image.Image, hand: HandStyle, rng: random.Random, size: tuple) -> np.ndarray:
    """The drawing `ink` bent by the hand's waver onto the blank `base` (both supersampled), brought
    down to `size` (w, h) as RGBA, cut to the hand's corners."""
    W, H = base.size
    w, h = size
    out = base.copy()
    out.alpha_composite(Image.fromarray(_wobbled(np.asarray(ink), hand.wobble * W, rng)))
    arr = np.asarray(out.resize((w, h), Image.LANCZOS)).copy()
    arr[..., 3] = np.asarray(rounded_mask(W, H, hand.radius * W).resize((w, h), Image.LANCZOS)) if hand.radius else 255
    return arr


def draw_card(card_id: str, deck: str, hand: HandStyle, seed: int = 0, size=(224, 348)) -> np.ndarray:
    """One card of `deck` drawn in `hand`, as uint8 RGBA (H, W, 4) in vision.art.render_card's format
    (upright, the card filling the array, alpha 0 outside its corners). `seed`: this drawing's own
    small differences; the same arguments give the same pixels."""
    from referee import load_deck
    d = load_deck(deck)
    if card_id not in d.cards:
        raise KeyError(f"{card_id!r} is not a card of deck {deck!r}")
    card = d.cards[card_id]
    rng = random.Random(f"{card_id}/{seed}")
    w, h = int(size[0]), int(size[1])
    W, H = w * SUPERSAMPLE, h * SUPERSAMPLE
    base = Image.new("RGBA", (W, H), hand.stock + (255,))
    if hand.coloured_in:
        _coloured_field(base, hand, card.color, rng)
    ink = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    # on a coloured field the lettering is black; on the bare card it is in the card's marker
    lettering_ink = BLACK_MARKER if hand.coloured_in else None
    name = card_name(deck, card)
    designed = deck not in UNO_FAMILY
    if designed:
        from .icons import icon_image
        top = _lettering(name, hand, H * 0.08 * hand.size, card.color, rng, lettering_ink)
        paste_center(ink, top, W / 2 + rng.uniform(-0.03, 0.03) * W, H * rng.uniform(0.17, 0.21),
                     max_w=W * 0.78, angle=rng.uniform(-4, 4))
        fill = (lettering_ink or _ink(hand, card.color, 1)) + (255,)
        icon = icon_image(deck, card.symbol, H * 0.3 * hand.size, fill, outline=BLACK_MARKER + (255,), outline_frac=0.05)
        paste_center(ink, icon, W / 2 + rng.uniform(-0.04, 0.04) * W, H * rng.uniform(0.52, 0.58),
                     max_w=W * 0.7, max_h=H * 0.42, angle=rng.uniform(-10, 10))
        if hand.corners:
            bottom = _lettering(name, hand, H * 0.06 * hand.size, card.color, rng, lettering_ink)
            paste_center(ink, bottom.rotate(180), W / 2, H * rng.uniform(0.84, 0.87), max_w=W * 0.7)
    else:
        big = _lettering(name, hand, H * (0.3 if len(name) <= 2 else 0.13) * hand.size, card.color, rng, lettering_ink)
        paste_center(ink, big, W / 2 + rng.uniform(-0.04, 0.04) * W, H / 2 + rng.uniform(-0.04, 0.04) * H,
                     max_w=W * 0.76, angle=rng.uniform(-12, 12))
        if hand.corners:
            small = _lettering(name, hand, H * 0.07 * hand.size, card.color, rng, lettering_ink)
            at = (W * (0.12 + hand.field_inset * hand.coloured_in * 0.6) + small.width / 4, H * 0.09 + small.height / 3)
            paste_center(ink, small, at[0], at[1], max_w=W * 0.3)
            paste_center(ink, small.rotate(180), W - at[0], H - at[1], max_w=W * 0.3)
    return _finished(base, ink, hand, rng, (w, h))


def draw_back(deck: str, hand: HandStyle, seed: int = 0, size=(224, 348)) -> np.ndarray:
    """The back of a deck drawn in `hand`, in draw_card's format: the deck's name in black marker
    inside a frame drawn by hand, and a zigzag of each marker above and below it
    (a player marks the backs alike so that the faces stay hidden). Backs are drawn alike but not
    the same: `seed` gives one drawing's small differences."""
    from referee import load_deck
    name = load_deck(deck).name.split(" (")[0].upper()
    rng = random.Random(f"back/{deck}/{seed}")
    w, h = int(size[0]), int(size[1])
    W, H = w * SUPERSAMPLE, h * SUPERSAMPLE
    base = Image.new("RGBA", (W, H), hand.stock + (255,))
    ink = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(ink)
    inset = W * 0.09
    jitter = lambda: rng.uniform(-0.012, 0.012) * W        # noqa: E731
    frame = [(inset + jitter(), inset + jitter()), (W - inset + jitter(), inset + jitter()),
             (W - inset + jitter(), H - inset + jitter()), (inset + jitter(), H - inset + jitter())]
    d.line(frame + [frame[0]], fill=BLACK_MARKER + (255,), width=max(2, int(W * 0.018)))
    # the marker strokes: a zigzag band of each colour across the middle, as a child decorates
    for k, colour in enumerate(("red", "yellow", "green", "blue")):
        y0 = H * (0.2, 0.32, 0.68, 0.8)[k]
        pts = [(inset * 1.6 + i * (W - 3.2 * inset) / 6, y0 + (1 if i % 2 else -1) * H * 0.025 + jitter())
               for i in range(7)]
        d.line(pts, fill=hand.markers[colour] + (255,), width=max(2, int(W * 0.03)))
    word = _lettering(name, hand, H * 0.1 * hand.size, None, rng, BLACK_MARKER)
    paste_center(ink, word, W / 2 + rng.uniform(-0.02, 0.02) * W, H / 2 + rng.uniform(-0.02, 0.02) * H,
                 max_w=W * 0.72, angle=rng.uniform(-5, 5))
    return _finished(base, ink, hand, rng, (w, h))
