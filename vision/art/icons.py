"""The icons of the designed decks (dino2, snake-cup): one per symbol, as data where a glyph of
DejaVu Sans Bold does the job, drawn as vectors where none fits. Within a deck every icon differs
in outline, so that a phone camera at a metre tells them apart even before reading the name.

An entry is ("glyph", text, copies) or ("vector", name). Copies repeat the glyph (snake-cup's
coin amounts: POPPIES puts two coins in, so it shows two poppies)."""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from .draw import text_image

ICON_FONT = "DejaVuSans-Bold.ttf"

ICONS = {
    "snake-cup": {
        "leaves": ("glyph", "☘", 1),
        "poppies": ("glyph", "✿", 2),
        "orchids": ("glyph", "❀", 3),
        "fountain": ("glyph", "♨", 1),
        "suns": ("glyph", "☀", 1),
        "stars": ("glyph", "★", 2),
        "hearts": ("glyph", "♥", 3),
        "rain": ("glyph", "☔", 1),
        "crosses": ("glyph", "✚", 1),
        "river": ("glyph", "♒", 1),
        "snake": ("vector", "snake"),
    },
    "dino2": {
        "dingbat": ("glyph", "❖", 1),
        "whale-rabbit": ("glyph", "⚓", 1),
        "candy": ("vector", "candy"),
        "spaghetti": ("glyph", "≈", 1),
        "cool-kids": ("glyph", "☻", 1),
        "fab4": ("glyph", "♫", 1),
        "shoe": ("vector", "shoe"),
        "chill": ("glyph", "☃", 1),
        "girl": ("glyph", "♀", 1),
        "ice-cream": ("vector", "ice-cream"),
        "spork": ("glyph", "ψ", 1),
        "skip": ("glyph", "⊘", 1),
        "skip2": ("glyph", "⊘2", 1),
        "draw3": ("glyph", "+3", 1),
        "give": ("glyph", "☞", 1),
        "reverse": ("glyph", "⇄", 1),
        "place2": ("glyph", "✌", 1),
        "captain-jack-sparrow": ("glyph", "☠", 1),
        "fuego": ("glyph", "♨", 1),
        "ice": ("glyph", "❄", 1),
        "draw7": ("glyph", "+7", 1),
        "switch-hands": ("glyph", "♻", 1),
        "streak": ("glyph", "⚡", 1),
        "make-it-rain": ("glyph", "☂", 1),
        "double": ("glyph", "×2", 1),
        "skip-draw2": ("glyph", "⊘+2", 1),
        "dino": ("glyph", "♞", 1),
        "nathan": ("glyph", "✪", 1),
    },
}


def _vector(name: str, h: float, fill, outline, ow: float) -> Image.Image:
    s = int(h * 1.2)
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = s / 2
    ow = max(1, int(ow))
    if name == "snake":
        pts = [(c - h * 0.42 + h * 0.84 * i / 60, c + h * 0.22 * math.sin(i / 60 * 2.4 * math.pi))
               for i in range(61)]
        d.line(pts, fill=outline, width=int(h * 0.16 + 2 * ow), joint="curve")
        d.line(pts, fill=fill, width=int(h * 0.16), joint="curve")
        hx, hy = pts[-1]
        for extra, col in ((ow, outline), (0, fill)):
            d.ellipse([hx - h * 0.13 - extra, hy - h * 0.1 - extra, hx + h * 0.13 + extra, hy + h * 0.1 + extra],
                      fill=col)
        d.ellipse([hx, hy - h * 0.06, hx + h * 0.05, hy - h * 0.01], fill=outline)
        d.line([(hx + h * 0.12, hy), (hx + h * 0.24, hy + h * 0.02), (hx + h * 0.28, hy - h * 0.03)],
               fill=(200, 30, 30, 255), width=max(2, int(h * 0.025)))
    elif name == "candy":
        for extra, col in ((ow, outline), (0, fill)):
            for sgn in (-1, 1):
                d.polygon([(c + sgn * h * 0.2, c), (c + sgn * (h * 0.5 + extra), c - h * 0.2 - extra),
                           (c + sgn * (h * 0.5 + extra), c + h * 0.2 + extra)], fill=col)
            d.ellipse([c - h * 0.25 - extra, c - h * 0.2 - extra, c + h * 0.25 + extra, c + h * 0.2 + extra],
                      fill=col)
        d.arc([c - h * 0.15, c - h * 0.12, c + h * 0.15, c + h * 0.12], 200, 340, fill=(255, 255, 255, 255),
              width=max(2, int(h * 0.04)))
    elif name == "ice-cream":
        for extra, col in ((ow, outline), (0, fill)):
            d.polygon([(c - h * 0.22 - extra, c - h * 0.05), (c + h * 0.22 + extra, c - h * 0.05),
                       (c, c + h * 0.5 + extra)], fill=col)
            for dx in (-0.13, 0.13, 0.0):
                r = h * 0.2 + extra
                cy = c - h * (0.18 if dx else 0.32)
                d.ellipse([c + dx * h - r, cy - r, c + dx * h + r, cy + r], fill=col)
    elif name == "shoe":
        boot = [(-0.25, -0.45), (0.05, -0.45), (0.05, 0.05), (0.42, 0.18), (0.45, 0.38), (-0.25, 0.38)]
        pts = [(c + x * h, c + y * h) for x, y in boot]
        d.line(pts + [pts[0]], fill=outline, width=2 * ow, joint="curve")
        d.polygon(pts, fill=fill)
        d.rectangle([c - h * 0.25, c + h * 0.3, c + h * 0.45, c + h * 0.38], fill=outline)
    else:
        raise ValueError(f"no vector icon {name!r}")
    return img.crop(img.getbbox())


def icon_image(deck_id: str, symbol: str, h: float, fill, outline=(20, 20, 20, 255), outline_frac=0.035):
    """The symbol's icon about h pixels tall; unknown symbols fall back to their initials."""
    entry = ICONS.get(deck_id, {}).get(symbol) or ("glyph", "".join(p[0] for p in symbol.split("-")).upper(), 1)
    ow = outline_frac * h
    if entry[0] == "vector":
        return _vector(entry[1], h, fill, outline, ow)
    _, text, copies = entry
    if copies == 1:
        return text_image(text, ICON_FONT, h, fill, stroke_frac=outline_frac, stroke_fill=outline)
    one = text_image(text, ICON_FONT, h * (0.62 if copies == 2 else 0.5), fill, stroke_frac=outline_frac * 1.5,
                     stroke_fill=outline)
    w1, h1 = one.size
    if copies == 2:      # on a diagonal
        img = Image.new("RGBA", (int(w1 * 1.7), int(h1 * 1.7)), (0, 0, 0, 0))
        img.alpha_composite(one, (0, 0))
        img.alpha_composite(one, (img.width - w1, img.height - h1))
    else:                # a triangle
        img = Image.new("RGBA", (int(w1 * 2.1), int(h1 * 2.0)), (0, 0, 0, 0))
        img.alpha_composite(one, ((img.width - w1) // 2, 0))
        img.alpha_composite(one, (0, img.height - h1))
        img.alpha_composite(one, (img.width - w1, img.height - h1))
    return img
