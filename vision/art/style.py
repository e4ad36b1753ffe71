"""How a card face is drawn: one Style object per render, canonical or drawn at random.

The recognizer must learn what every UNO print shares (colour, symbol, white border, corner
indices) and not one print's details, so everything a print shop may change is a field here and
`random_style` samples it. Prints come in named families (PRINTS): each fixes what makes it that
print (centre shape, how the symbols are drawn, numeral colour) and randomizes the rest, so a model
can be trained on some families and tested on one it never saw. The designed decks (dino2,
snake-cup) use only the photometric fields (shades, wear): their art is exactly what users print.
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
    shape: str = "oval"            # "oval", "circle", "rect" or "none": the white centre shape
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
    edge: tuple | None = None      # the border's colour when it is not the paper's (a deck edged in
                                   # black or a colour: the teach benchmark's bordered prints)
    wear: float = 0.0              # 0 = new; 1 = a well-used card (scuffs, fading, edge wear)
    gloss: float = 0.0             # faint sheen band across the face
    seed: int = 0                  # seeds the wear pattern so a style renders identically twice
    print: str = "classic"         # the print family (PRINTS) this style was drawn from, for tracing
    drawings: dict = field(default_factory=dict)  # symbol -> drawing name (DRAWINGS), overriding
                                   # symbol_variant and the 2018 flags for that symbol
    mini_tilt: float = 0.0         # degrees the draw-two / draw-four mini cards lean (not fanned)
    corner_stroke: float = 0.06    # outline of the corner indices, fraction of their height
    glyph_jitter: float = 0.0      # 0..1: how far the action symbols' geometry (arrow angles and
                                   # weights, ring and bar widths, mini-card layout) strays from the
                                   # family's drawing, per card; for training only (prints unseen)


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


# --- print families ----------------------------------------------------------------------------
# A family is data: Style fields, each a constant or a sampler (U, C, P) drawn per render. What a
# family fixes as a constant is what defines it; the fields it leaves out are drawn by _common.

class U:
    """A uniform draw in [lo, hi]."""
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def draw(self, rng):
        return rng.uniform(self.lo, self.hi)


class C:
    """One of the options, itself drawn if it is a sampler."""
    def __init__(self, *options):
        self.options = options

    def draw(self, rng):
        return _draw(rng.choice(self.options), rng)


class P:
    """True with probability p."""
    def __init__(self, p):
        self.p = p

    def draw(self, rng):
        return rng.random() < self.p


def _draw(spec, rng):
    if isinstance(spec, dict):
        return {k: _draw(v, rng) for k, v in spec.items()}
    return spec.draw(rng) if hasattr(spec, "draw") else spec


ITALIC = ("LiberationSans-BoldItalic.ttf", "Roboto-BlackItalic.ttf", "LiberationSerif-BoldItalic.ttf")
UPRIGHT = tuple(f for f in FONTS if f not in ITALIC)

# How uno.py can draw each symbol; Style.drawings picks one per symbol.
DRAWINGS = {
    "skip": ("slash", "slash-bold", "slash-thin"),
    "reverse": ("diagonal", "stacked", "circle", "short", "bent", "bent-upright"),
    "draw2": ("cards", "plus", "fan", "tilted-cards"),
    "wild-draw4": ("cards", "plus", "fan", "staircase", "tilted-cards", "plus-shapes"),
    "wild": ("oval-tilted", "circle", "oval", "fill", "word"),
}

PRINT_SPECS = {
    # today's default look and its old variety: a white filled oval leaning either way or upright,
    # the symbol in the card's colour, any font, the older drawings of the action symbols
    "classic": dict(
        shape="oval", shape_fill="white",
        shape_angle=C(U(20, 40), U(-8, 8), U(-40, -20)),
        font=C(*FONTS), stroke=C(0.0, U(0.02, 0.07)), shadow=P(0.6), underline=P(0.8), corner=P(0.93),
        drawings=dict(skip=C("slash", "slash-thin"), reverse=C("diagonal", "stacked"),
                      draw2=C("cards", "fan"), **{"wild-draw4": C("cards", "fan")},
                      wild=C("oval-tilted", "oval")),
        mini_tilt=0.0),
    # Mattel 2018: a white ring on the colour, white numeral with a black shadow, reverse arrows
    # short and fat or bent in an S, the staircase +4, WILD lettered across the wild's oval
    "ring-2018": dict(
        shape="oval", shape_fill="ring", shape_angle=U(22, 38),
        font=C("LiberationSans-BoldItalic.ttf", "Roboto-BlackItalic.ttf", "LeagueSpartan-Black.otf"),
        stroke=U(0.03, 0.06), shadow=True, underline=True, corner=True, wild_word=P(0.85),
        drawings=dict(skip=C("slash", "slash-bold"), reverse="short", draw2=C("cards", "tilted-cards"),
                      **{"wild-draw4": "staircase"}, wild="fill"),
        mini_tilt=U(8, 20)),
    # the common older print: tilted white filled oval, italic numeral in the card's colour with a
    # thick black outline, small white corner indices, two tilted mini cards, fat arrows (straight or
    # bent in an S), a four-colour oval on the black wild, a fan of four mini cards on the wild draw four
    "filled-oval": dict(
        shape="oval", shape_fill="white", shape_angle=U(24, 40), shape_scale=U(0.92, 1.04),
        font=C(*ITALIC), glyph_scale=U(0.92, 1.12), stroke=U(0.05, 0.09), shadow=P(0.25),
        underline=True, corner=True, corner_scale=U(0.7, 0.92),
        drawings=dict(skip=C("slash", "slash-thin"), reverse="diagonal", draw2="tilted-cards",
                      **{"wild-draw4": "fan"}, wild="fill"),
        mini_tilt=U(10, 24)),
    # Mattel 2024: a big upright white circle nearly the card's width, heavy italic numeral in the
    # card's colour with little or no outline, bold big corner indices, its own action symbols
    "circle-2024": dict(
        shape="circle", shape_fill="white", shape_angle=0.0, shape_scale=U(1.05, 1.13),
        font=C("Roboto-BlackItalic.ttf", "LiberationSans-BoldItalic.ttf"), glyph_scale=U(1.2, 1.45),
        stroke=C(0.0, U(0.01, 0.025)), shadow=False, underline=P(0.5), corner=True,
        corner_scale=U(1.3, 1.55), corner_stroke=U(0.025, 0.045),
        drawings=dict(skip="slash-bold", reverse="circle", draw2="plus", **{"wild-draw4": "plus-shapes"},
                      wild="fill"),
        mini_tilt=0.0),
    # cheap and themed prints: no centre shape or a plain upright rectangle, upright fonts, the
    # symbol large (white on the colour, or in colour on the white rectangle), often no corner
    # indices, well worn
    "knockoff": dict(
        shape=C("none", "rect"), shape_fill="white", shape_angle=0.0, shape_scale=U(0.85, 1.05),
        font=C(*UPRIGHT), glyph_scale=U(1.1, 1.35), stroke=C(0.0, U(0.02, 0.05)), shadow=P(0.3),
        underline=P(0.5), corner=P(0.6), corner_scale=U(0.8, 1.3),
        wear=C(U(0.2, 0.6), U(0.4, 1.0)),
        drawings=dict(skip=C("slash", "slash-thin", "slash-bold"), reverse=C("stacked", "diagonal"),
                      draw2=C("plus", "cards"), **{"wild-draw4": "plus"}, wild=C("circle", "word")),
        mini_tilt=0.0),
    # party and giant prints: no centre shape, a numeral filling most of the card
    "jumbo-numeral": dict(
        shape="none", shape_fill="white", shape_angle=0.0,
        font=C(*FONTS), glyph_scale=U(1.75, 2.05), stroke=U(0.02, 0.05), shadow=P(0.5),
        underline=True, corner=P(0.8), corner_scale=U(0.8, 1.1),
        drawings=dict(skip=C("slash", "slash-bold"), reverse=C("diagonal", "stacked"),
                      draw2=C("plus", "cards"), **{"wild-draw4": C("plus", "cards")}, wild=C("circle", "word")),
        mini_tilt=0.0),
}
PRINTS: tuple[str, ...] = tuple(PRINT_SPECS)

# The reverse most prints carry (the classic ring print's, the filled-oval print's, many others'):
# two arrows, each bent once, in an S. A family draws it this often in place of its own drawing,
# as one more of its options (a third beside two, a half beside one), so that no family owns it:
# a print a user owns mixes elements of several.
BENT_REVERSE = {"classic": 1 / 3, "ring-2018": 1 / 2, "filled-oval": 1 / 2, "knockoff": 1 / 3,
                "jumbo-numeral": 1 / 3}
# ... drawn as real prints have it (tails along the card's length, heads turned out along the oval's
# lean: "bent-upright") this often, else lying across the card ("bent")
BENT_UPRIGHT = 2 / 3
# The draw two most prints carry: two small cards overlapping, leaning (the filled-oval print's, the
# 2018 ring print's, many others'). Like the bent reverse, a family draws it this often in place of
# its own drawing, leaning as those prints lean, so that no family owns it: readers that knew it only
# from the ring print (white cards) took the filled-oval print's cards (in the card's colour, outlined
# in black) for a 7 or a 4 (models/README.md, session 49).
TILTED_DRAW2 = {"classic": 1 / 3, "circle-2024": 1 / 3, "knockoff": 1 / 3, "jumbo-numeral": 1 / 3}
TILTED_LEAN = (8.0, 24.0)      # degrees, as ring-2018 and filled-oval draw them


def _common(rng: random.Random, colors: dict | None) -> dict:
    """What every print varies in: sizes, shades, paper, wear; a family may override any of it."""
    paper_v = rng.randint(232, 255)
    return dict(
        shape_scale=rng.uniform(0.88, 1.06),
        glyph_scale=rng.uniform(0.85, 1.15),
        corner_scale=rng.uniform(0.8, 1.25),
        border=rng.uniform(0.05, 0.10),
        radius=rng.uniform(0.05, 0.10),
        colors=shaded(colors or UNO_RGB, rng),
        wild_black=tuple(rng.randint(8, 40) for _ in range(3)),
        paper=(paper_v, paper_v - rng.randint(0, 6), paper_v - rng.randint(0, 12)),
        wear=rng.choice((0.0, rng.uniform(0.0, 0.5), rng.uniform(0.3, 1.0))),
        gloss=rng.choice((0.0, rng.uniform(0.0, 0.25))),
        seed=rng.getrandbits(32),
    )


def random_edge(rng: random.Random) -> tuple:
    """The colour of a border that is not the paper's, for decks edged in black or a colour (themed
    editions, home-printed decks): near black half the time, else any hue, deep or bright."""
    if rng.random() < 0.5:
        v = rng.randint(8, 50)
        return tuple(max(0, min(255, v + rng.randint(-6, 6))) for _ in range(3))
    rgb = colorsys.hsv_to_rgb(rng.random(), rng.uniform(0.45, 1.0), rng.uniform(0.25, 0.95))
    return tuple(int(round(c * 255)) for c in rgb)


def check_prints(prints) -> tuple[str, ...]:
    """The named families (all for None), or ValueError naming the known ones."""
    if prints is None:
        return PRINTS
    names = tuple(dict.fromkeys(prints))
    unknown = [n for n in names if n not in PRINT_SPECS]
    if unknown or not names:
        raise ValueError(f"unknown print family {unknown or names!r}; known: {', '.join(PRINTS)}")
    return names


def random_style(rng: random.Random, colors: dict | None = None, prints=None, borrowed: bool = True) -> Style:
    """A plausible UNO print: a family drawn uniformly from `prints` (names of PRINTS; None = all),
    then every field that family leaves free, from rng. `borrowed`: the tilted +2 cards may stand in
    for the family's own draw two (TILTED_DRAW2; print_style keeps the family's own)."""
    name = rng.choice(check_prints(prints))
    fields = _common(rng, colors)
    fields.update(_draw(PRINT_SPECS[name], rng))
    # drawn from the style's own seed, not rng, so that adding it changed no other draw
    fields["glyph_jitter"] = random.Random(fields["seed"] ^ 0x5EED).choice((0.0, 0.0, 0.5, 1.0))
    if random.Random(fields["seed"] ^ 0xBE27).random() < BENT_REVERSE.get(name, 0.0):   # likewise
        upright = random.Random(fields["seed"] ^ 0x5B3D).random() < BENT_UPRIGHT
        fields["drawings"] = dict(fields["drawings"], reverse="bent-upright" if upright else "bent")
    if borrowed and random.Random(fields["seed"] ^ 0x7C2D).random() < TILTED_DRAW2.get(name, 0.0):   # likewise
        fields["drawings"] = dict(fields["drawings"], draw2="tilted-cards")
        fields["mini_tilt"] = fields["mini_tilt"] or random.Random(fields["seed"] ^ 0x7C2E).uniform(*TILTED_LEAN)
    return Style(print=name, **fields)


def print_style(name: str) -> Style:
    """A family's own clean look: one fixed draw, in the canonical colours, paper and no wear
    (classic is CANONICAL itself)."""
    if name == "classic":
        return CANONICAL
    s = random_style(random.Random(0), prints=[name], borrowed=False)
    return replace(s, colors=dict(UNO_RGB), wild_black=WILD_BLACK, paper=CANONICAL.paper, wear=0.0,
                   gloss=0.0, seed=0, glyph_jitter=0.0)


def photometric_style(rng: random.Random, colors: dict) -> Style:
    """For designed decks: the fixed design, printed on a different printer and worn differently."""
    paper_v = rng.randint(232, 255)
    return replace(CANONICAL, colors=shaded(colors, rng),
                   paper=(paper_v, paper_v - rng.randint(0, 6), paper_v - rng.randint(0, 12)),
                   wear=rng.choice((0.0, rng.uniform(0.0, 0.5), rng.uniform(0.3, 1.0))),
                   gloss=rng.choice((0.0, rng.uniform(0.0, 0.25))), seed=rng.getrandbits(32))
