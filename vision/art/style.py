"""How a card face is drawn: one Style object per render, canonical or drawn at random.

The recognizer must learn what every UNO print shares (colour, symbol, white border, corner
indices) and not one print's details, so everything a print shop may change is a field here and
`random_style` samples it. The designed decks (dino2, snake-cup) use only the photometric fields
(shades, wear): their art is exactly what users print.
"""
from __future__ import annotations

import colorsys
import random
from dataclasses import dataclass, field, replace
from pathlib import Path

FONT_DIR = Path(__file__).with_name("fonts")

# Heavy, italic, condensed and serif faces: real prints range from thin italic numerals to
# heavy round ones. All open-licence, committed beside their licence files.
FONTS = (
    "LiberationSans-BoldItalic.ttf",   # the classic UNO look: bold italic
    "Roboto-BlackItalic.ttf",
    "Roboto-Black.ttf",                # heavy upright numerals (round-centre prints)
    "LeagueSpartan-Black.otf",
    "LiberationSans-Bold.ttf",
    "LiberationSansNarrow-Bold.ttf",
    "RobotoCondensed-Bold.ttf",
    "DejaVuSans-Bold.ttf",
    "LiberationSerif-Bold.ttf",
    "LiberationSerif-BoldItalic.ttf",
)

# The four UNO colours as printed (sRGB); random styles shift hue, saturation and value.
UNO_RGB = {
    "red": (226, 35, 38),
    "yellow": (252, 205, 20),
    "green": (30, 150, 70),
    "blue": (20, 105, 200),
}
WILD_BLACK = (22, 22, 24)


@dataclass(frozen=True)
class Style:
    shape: str = "oval"            # "oval", "circle" or "none": the white centre shape
    shape_fill: str = "white"      # "white": a white shape, symbol in the card's colour; "ring": only
                                   # a white outline, white symbol on the colour (Mattel's 2018 print)
    short_arrows: bool = False     # reverse drawn as two short, head-heavy arrows (the 2018 print)
    wild_word: bool = False        # "WILD" written across the wild's four-colour oval
    big_minis: bool = False        # wild draw four: four big cards climbing the diagonal (2018 print)
    shape_angle: float = 32.0      # degrees the oval leans to the right (0 = upright)
    shape_scale: float = 1.0       # size of the centre shape relative to the canonical one
    font: str = FONTS[0]
    glyph_scale: float = 1.0       # size of the central numeral
    stroke: float = 0.045          # outline of the central numeral, fraction of its height
    shadow: bool = True            # black drop shadow behind the central symbol
    symbol_variant: int = 0        # which drawing of skip/reverse/draw2/wild/wild-draw4 (0..2)
    corner: bool = True            # corner indices top-left and bottom-right
    corner_scale: float = 1.0
    border: float = 0.075          # white border, fraction of card width
    radius: float = 0.075          # corner radius, fraction of card width
    underline: bool = True         # 6 and 9 underlined, as UNO prints them
    colors: dict = field(default_factory=lambda: dict(UNO_RGB))
    wild_black: tuple = WILD_BLACK
    paper: tuple = (250, 250, 247)  # the "white" of the border
    wear: float = 0.0              # 0 = new; 1 = a well-used card (scuffs, fading, edge wear)
    gloss: float = 0.0             # faint sheen band across the face
    seed: int = 0                  # seeds the wear pattern so a style renders identically twice


CANONICAL = Style()


def _shade(rgb, rng: random.Random, dh=0.025, ds=0.18, dv=0.16):
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    h = (h + rng.uniform(-dh, dh)) % 1.0
    s = min(1.0, max(0.35, s * rng.uniform(1 - ds, 1 + ds * 0.5)))
    v = min(1.0, max(0.35, v * rng.uniform(1 - dv, 1 + dv * 0.4)))
    return tuple(int(round(c * 255)) for c in colorsys.hsv_to_rgb(h, s, v))


def shaded(colors: dict, rng: random.Random) -> dict:
    """The same colours as a different printer or ink batch would print them."""
    return {name: _shade(rgb, rng) for name, rgb in colors.items()}


def random_style(rng: random.Random, colors: dict | None = None) -> Style:
    """A plausible print of the UNO family: every field that prints differ in, drawn from rng."""
    shape = rng.choices(("oval", "circle", "none"), weights=(6, 3, 1))[0]
    paper_v = rng.randint(232, 255)
    return Style(
        shape=shape,
        shape_angle=rng.choice((rng.uniform(20, 40), rng.uniform(-8, 8), rng.uniform(-40, -20))),
        shape_scale=rng.uniform(0.88, 1.06),
        font=rng.choice(FONTS),
        glyph_scale=rng.uniform(0.85, 1.15),
        stroke=rng.choice((0.0, rng.uniform(0.02, 0.07))),
        shadow=rng.random() < 0.6,
        symbol_variant=rng.randrange(3),
        corner=rng.random() < 0.93,
        corner_scale=rng.uniform(0.8, 1.25),
        border=rng.uniform(0.05, 0.10),
        radius=rng.uniform(0.05, 0.10),
        underline=rng.random() < 0.8,
        colors=shaded(colors or UNO_RGB, rng),
        wild_black=tuple(rng.randint(8, 40) for _ in range(3)),
        paper=(paper_v, paper_v - rng.randint(0, 6), paper_v - rng.randint(0, 12)),
        wear=rng.choice((0.0, rng.uniform(0.0, 0.5), rng.uniform(0.3, 1.0))),
        gloss=rng.choice((0.0, rng.uniform(0.0, 0.25))),
        seed=rng.getrandbits(32),
        # drawn last, so the fields above keep the values earlier seeds gave them
        shape_fill="ring" if rng.random() < 0.35 else "white",
        short_arrows=rng.random() < 0.35,
        wild_word=rng.random() < 0.4,
        big_minis=rng.random() < 0.35,
    )


def photometric_style(rng: random.Random, colors: dict) -> Style:
    """For designed decks: the fixed design, printed on a different printer and worn differently."""
    paper_v = rng.randint(232, 255)
    return replace(CANONICAL, colors=shaded(colors, rng),
                   paper=(paper_v, paper_v - rng.randint(0, 6), paper_v - rng.randint(0, 12)),
                   wear=rng.choice((0.0, rng.uniform(0.0, 0.5), rng.uniform(0.3, 1.0))),
                   gloss=rng.choice((0.0, rng.uniform(0.0, 0.25))), seed=rng.getrandbits(32))
