"""Faces and backs of the decks we design ourselves (dino2, snake-cup), from their deck files:
the colour from "color_hex" (rainbow stripes from "rainbow_hex" for cards of no colour), the
printed name from "labels", the icon from vision/art/icons.py.

Layout, chosen to be read by a phone camera at a metre: a white border; the card's colour
filling the face; the name in large black capitals on a white band at the top and, upside down,
at the bottom; a big white disc in the middle with the icon in the card's colour, outlined in
black; small white icons in two corners for a fanned hand."""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw

from .draw import paste_center, rounded_rect, text_image
from .icons import icon_image

NAME_FONT = "Roboto-Black.ttf"
RAINBOW = ("#d62828", "#f77f00", "#fcbf49", "#2a9d3f", "#1d5fd1", "#7b2cbf")
FALLBACK_HEX = {"red": "#d62828", "orange": "#f77f00", "yellow": "#f2c500", "green": "#2a9d3f",
                "blue": "#1f5fbf", "violet": "#7b3fa0", "purple": "#7b3fa0"}


def _hex(h: str):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


@lru_cache(maxsize=None)
def deck_spec(deck_id: str) -> dict:
    return json.loads(resources.files("referee.decks").joinpath(f"{deck_id}.json").read_text())


def deck_colors(deck_id: str) -> dict:
    """Colour name -> RGB, including "rainbow0".."rainbowN" for the stripes of colourless cards."""
    spec = deck_spec(deck_id)
    table = {c: _hex(spec.get("color_hex", {}).get(c) or FALLBACK_HEX.get(c, "#777777"))
             for c in spec.get("colors", [])}
    for i, h in enumerate(spec.get("rainbow_hex") or RAINBOW):
        table[f"rainbow{i}"] = _hex(h)
    return table


def label(deck_id: str, card) -> str:
    labels = deck_spec(deck_id).get("labels", {})
    return labels.get(card.symbol) or labels.get(card.id) or card.symbol.replace("-", " ").upper()


def _rgba(rgb):
    return tuple(rgb[:3]) + (255,)


def _field(img, style, box, radius, card_color):
    """Fills the face: the card's colour, or rainbow stripes for a card of no colour."""
    d = ImageDraw.Draw(img)
    if card_color is not None:
        rounded_rect(d, box, radius, _rgba(style.colors[card_color]))
        return
    stripes = [v for k, v in sorted(style.colors.items()) if k.startswith("rainbow")]
    x0, y0, x1, y1 = box
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    n = len(stripes)
    for i, rgb in enumerate(stripes):
        ld.rectangle([x0, y0 + (y1 - y0) * i / n, x1, y0 + (y1 - y0) * (i + 1) / n + 1], fill=_rgba(rgb))
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle([int(v) for v in box], radius=int(radius), fill=255)
    img.paste(layer, (0, 0), mask)


def draw_face(deck, card, style, w: int, h: int) -> Image.Image:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rounded_rect(d, (0, 0, w - 1, h - 1), style.radius * w, _rgba(style.edge or style.paper))
    b = style.border * w
    fbox = (b, b, w - 1 - b, h - 1 - b)
    inner_r = max(2.0, style.radius * w - b * 0.5)
    _field(img, style, fbox, inner_r, card.color)
    fw, fh = fbox[2] - fbox[0], fbox[3] - fbox[1]
    cx, cy = w / 2, h / 2
    ink = (18, 18, 18, 255)
    colour = _rgba(style.colors[card.color]) if card.color else ink

    # name bands, top and (upside down) bottom
    band_h = fh * 0.15
    name = label(deck.id, card)
    words = name.split()
    lines = [name] if len(name) <= 9 or len(words) == 1 else [" ".join(words[:len(words) // 2]),
                                                                " ".join(words[len(words) // 2:])]
    band = Image.new("RGBA", (int(fw * 0.92), int(band_h)), (0, 0, 0, 0))
    ImageDraw.Draw(band).rounded_rectangle([0, 0, band.width - 1, band.height - 1], radius=int(band_h * 0.25),
                                           fill=_rgba(style.paper))
    line_h = band_h * (0.56 if len(lines) == 1 else 0.36)
    for i, text in enumerate(lines):
        piece = text_image(text, NAME_FONT, line_h, ink)
        y = band.height / 2 if len(lines) == 1 else band.height * (0.28 + 0.46 * i)
        paste_center(band, piece, band.width / 2, y, max_w=band.width * 0.92)
    top_y = b + fh * 0.035 + band_h / 2
    paste_center(img, band, cx, top_y)
    paste_center(img, band.rotate(180), cx, h - top_y)

    # the disc and the icon
    r = fw * 0.40
    d.ellipse([cx - r - fw * 0.015, cy - r - fw * 0.015, cx + r + fw * 0.015, cy + r + fw * 0.015], fill=ink)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=_rgba(style.paper))
    icon = icon_image(deck.id, card.symbol, r * 1.15, colour)
    paste_center(img, icon, cx, cy, max_w=r * 1.5, max_h=r * 1.4)

    # corner icons for a fanned hand, in the field between band and disc
    small = icon_image(deck.id, card.symbol, fh * 0.075, (255, 255, 255, 255), outline=ink, outline_frac=0.07)
    oy = top_y + band_h / 2 + fh * 0.07
    ox = b + fw * 0.12
    paste_center(img, small, ox, oy, max_w=fw * 0.2)
    paste_center(img, small.rotate(180), w - ox, h - oy, max_w=fw * 0.2)
    return img


def draw_back(deck, style, w: int, h: int) -> Image.Image:
    """The back: dark field, the deck's colours as a ring of discs, the game's name."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rounded_rect(d, (0, 0, w - 1, h - 1), style.radius * w, _rgba(style.edge or style.paper))
    b = style.border * w
    rounded_rect(d, (b, b, w - 1 - b, h - 1 - b), max(2, style.radius * w - b * 0.5), (28, 30, 40, 255))
    import math
    cx, cy = w / 2, h / 2
    colours = [v for k, v in style.colors.items() if not k.startswith("rainbow")]
    n = len(colours)
    R, r = w * 0.33, w * 0.08
    for i, rgb in enumerate(colours):
        a = -math.pi / 2 + 2 * math.pi * i / n
        x, y = cx + R * math.cos(a), cy + R * math.sin(a)
        d.ellipse([x - r, y - r, x + r, y + r], fill=_rgba(rgb))
    title = {"dino2": "DINO 2", "snake-cup": "SNAKE CUP"}.get(deck.id, deck.id.upper())
    paste_center(img, text_image(title, NAME_FONT, h * 0.06, (255, 255, 255, 255)), cx, cy, max_w=w * 0.42)
    for sign in (-1, 1):
        piece = text_image(title, NAME_FONT, h * 0.045, (255, 255, 255, 255))
        paste_center(img, piece.rotate(180) if sign > 0 else piece, cx, cy + sign * h * 0.36, max_w=w * 0.7)
    return img
