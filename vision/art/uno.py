"""The UNO family's faces and backs (decks `uno` and `ono`): one drawing with every print
difference a Style field, so that random styles cover oval, round, rectangular and plain centres,
italic and heavy numerals, thin and thick outlines and several drawings of each action symbol
(named in style.DRAWINGS; the print families of style.PRINT_SPECS pick among them)."""
from __future__ import annotations

import math
import random

from PIL import Image, ImageChops, ImageDraw

from .draw import (arrow_polygon, bent_arrow_polygon, ellipse_points, paste_center, rotate_points, rounded_rect,
                   text_image)
from .style import Style

BLACK = (0, 0, 0, 255)
WHITE = (255, 255, 255, 255)
WILD_ORDER = ("red", "blue", "yellow", "green")   # clockwise from the top-left quarter

# The drawing a style without Style.drawings gets, by symbol_variant (CANONICAL and older styles)
LEGACY_DRAWINGS = {
    "skip": ("slash", "slash-bold", "slash-thin"),
    "reverse": ("diagonal", "stacked", "circle"),
    "draw2": ("cards", "plus", "fan"),
    "wild-draw4": ("cards", "plus", "fan"),
    "wild": ("oval-tilted", "circle", "oval"),
}
SKIP_RING = {"slash": 0.13, "slash-bold": 0.17, "slash-thin": 0.10}   # ring width, fraction of h


def drawing(symbol: str, style: Style) -> str | None:
    """Which drawing of an action symbol this style prints (None for numerals)."""
    if symbol in style.drawings:
        return style.drawings[symbol]
    if symbol not in LEGACY_DRAWINGS:
        return None
    name = LEGACY_DRAWINGS[symbol][style.symbol_variant]
    if symbol == "reverse" and name == "diagonal" and style.short_arrows:
        return "short"
    if symbol == "wild-draw4" and name != "plus" and style.big_minis:
        return "staircase"
    return name


def _rgba(rgb):
    return tuple(rgb[:3]) + (255,)


# --- symbols ---------------------------------------------------------------------------------
# Each returns an RGBA image about `h` pixels tall, drawn in `fill` with a black outline.

def _vary(rng, j: float, spread: float) -> float:
    """A factor near 1 (exactly 1 without jitter)."""
    return 1.0 if rng is None else math.exp(rng.uniform(-spread, spread) * j)


def _skip(h, fill, kind: str, outline_w, rng=None, j=0.0):
    img = Image.new("RGBA", (int(h * 1.1), int(h * 1.1)), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c, r = img.width / 2, h * 0.46 * min(1.0, _vary(rng, j, 0.15))
    ring = h * SKIP_RING[kind] * _vary(rng, j, 0.4)
    for extra, colour in ((outline_w, BLACK), (0, fill)):
        d.ellipse([c - r - extra, c - r - extra, c + r + extra, c + r + extra], fill=colour)
        inner = r - ring + extra
        if inner > 0:
            d.ellipse([c - inner, c - inner, c + inner, c + inner], fill=(0, 0, 0, 0))
    # the bar: "\" in the plain and thin drawings, "/" in the bold one
    sign = -1 if kind == "slash-bold" else 1
    dx = r * 0.72
    for extra, colour in ((outline_w, BLACK), (0, fill)):
        d.line([(c - dx, c - sign * dx), (c + dx, c + sign * dx)], fill=colour, width=int(ring + 2 * extra))
    return img


def _reverse(h, fill, kind: str, outline_w, rng=None, j=0.0):
    w = int(h * (1.3 if kind == "bent-upright" else 1.1))
    img = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = w / 2
    shaft, head_w, head_len = h * 0.16 * _vary(rng, j, 0.4), h * 0.38 * _vary(rng, j, 0.3), h * 0.26 * _vary(rng, j, 0.3)
    if kind == "stacked":               # two horizontal arrows, one above the other (⇄)
        arrows = [arrow_polygon(c - h * 0.45, c - h * 0.2, c + h * 0.45, c - h * 0.2, shaft, head_w, head_len),
                  arrow_polygon(c + h * 0.45, c + h * 0.2, c - h * 0.45, c + h * 0.2, shaft, head_w, head_len)]
    elif kind == "circle":              # two curved arrows chasing round a circle
        arrows = []
        r = h * 0.34
        for start in (200, 20):
            pts = []
            for i in range(25):
                a = math.radians(start + i * 5.5)
                pts.append((c + r * math.cos(a), c + r * math.sin(a)))
            arrows.append(("arc", pts))
    elif kind == "short":               # 2018 print: two fat arrows on one diagonal, tails overlapping
        shaft, head_w, head_len = h * 0.17 * _vary(rng, j, 0.3), h * 0.42 * _vary(rng, j, 0.25), h * 0.26 * _vary(rng, j, 0.3)
        u, n = (0.7071, -0.7071), (0.7071, 0.7071)   # along the up-right diagonal, and across it
        arrows = []
        for sgn in (1, -1):     # the up-right arrow a little up-left of the diagonal, the other mirrored
            ox, oy = c - sgn * 0.09 * h * n[0], c - sgn * 0.09 * h * n[1]
            arrows.append(arrow_polygon(ox - sgn * 0.10 * h * u[0], oy - sgn * 0.10 * h * u[1],
                                        ox + sgn * 0.46 * h * u[0], oy + sgn * 0.46 * h * u[1],
                                        shaft, head_w, head_len))
    elif kind == "bent":                # the common print's: two arrows, each bent once, in an S
        arrows = []
        bend = math.radians(45.0 + (0.0 if rng is None else rng.uniform(-15, 15) * j))
        gap = max(h * 0.11 * _vary(rng, j, 0.3), shaft * 0.5 + outline_w)   # tails apart, an outline between
        tail, head = h * 0.30 * _vary(rng, j, 0.25), h * 0.38 * _vary(rng, j, 0.2)
        for sgn in (1, -1):     # the upper arrow runs right then up-right; the other is its half turn
            ty, kx = c - sgn * gap, c + sgn * h * 0.04
            arrows.append(bent_arrow_polygon((kx - sgn * tail, ty), (kx, ty),
                                             (kx + sgn * head * math.cos(bend), ty - sgn * head * math.sin(bend)),
                                             shaft, head_w, head_len))
    elif kind == "bent-upright":        # the same S stood up, as real prints have it: each arrow's tail runs
        arrows = []                     # along the card's length beside the other's, then turns out to its head
        bend = math.radians(45.0 + (0.0 if rng is None else rng.uniform(-12, 12) * j))
        lean = 20.0 + (0.0 if rng is None else rng.uniform(-10, 10) * j)   # degrees, the top to the right
        shaft = h * 0.18 * _vary(rng, j, 0.3)
        gap = max(h * 0.08 * _vary(rng, j, 0.3), shaft * 0.5 + outline_w)
        tail, head = h * 0.20 * _vary(rng, j, 0.3), h * 0.55 * _vary(rng, j, 0.2)
        for sgn in (1, -1):     # the left tail runs up and turns up-right; the other is its half turn
            kx, ky = c - sgn * gap, c - sgn * tail * 0.5
            arrow = bent_arrow_polygon((kx, ky + sgn * tail), (kx, ky),
                                       (kx + sgn * head * math.sin(bend), ky - sgn * head * math.cos(bend)),
                                       shaft, head_w, head_len)
            arrows.append(rotate_points(arrow, c, c, lean))
    else:                               # the classic: two diagonal arrows, offset, pointing apart
        off = h * 0.13 * _vary(rng, j, 0.5)
        arrows = [arrow_polygon(c - h * 0.32 - off, c + h * 0.32 - off, c + h * 0.36 - off, c - h * 0.36 - off,
                                shaft, head_w, head_len),
                  arrow_polygon(c + h * 0.32 + off, c - h * 0.32 + off, c - h * 0.36 + off, c + h * 0.36 + off,
                                shaft, head_w, head_len)]
    for extra, colour in ((outline_w, BLACK), (0, fill)):
        for arrow in arrows:
            if arrow[0] == "arc":
                pts = arrow[1]
                d.line(pts[:-3], fill=colour, width=int(shaft + 2 * extra), joint="curve")
                (x0, y0), (x1, y1) = pts[-5], pts[-1]
                tip = arrow_polygon(x0, y0, x1 + (x1 - x0) * 0.6, y1 + (y1 - y0) * 0.6, 1, head_w + 2 * extra,
                                    head_len + 2 * extra)
                d.polygon(tip, fill=colour)
            else:
                if extra:
                    d.line(arrow + [arrow[0]], fill=colour, width=int(2 * extra), joint="curve")
                d.polygon(arrow, fill=colour)
    if kind == "bent-upright":          # tall and narrow: cropped to its ink (a half turn keeps it
        return img.crop(img.getbbox())  # centred), so that the card's width does not shrink it
    return img


def _mini_cards(h, fills, outline_w, fan=False, tilt=0.0):
    """Small overlapping cards (draw two, wild draw four), fanned or stacked on a diagonal and
    leaning by `tilt` degrees."""
    n = len(fills)
    w = int(h * (1.3 if not tilt else 1.8))
    img = Image.new("RGBA", (w, int(h * (1.1 if not tilt else 1.8))), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cw, ch = (h * 0.42, h * 0.62) if not tilt else (h * 0.42, h * 0.84)   # the older print's: big, tall
    for i, fill in enumerate(fills):
        if fan:
            cx = w / 2 + (i - (n - 1) / 2) * cw * 0.55
            cy = img.height / 2 + abs(i - (n - 1) / 2) * h * 0.06
            ang = (i - (n - 1) / 2) * 14
        else:
            cx = w / 2 + (i - (n - 1) / 2) * cw * 0.5
            cy = img.height / 2 + (i - (n - 1) / 2) * -ch * 0.3
            ang = tilt
        box = [(cx - cw / 2, cy - ch / 2), (cx + cw / 2, cy - ch / 2), (cx + cw / 2, cy + ch / 2),
               (cx - cw / 2, cy + ch / 2)]
        box = rotate_points(box, cx, cy, ang)
        d.line(box + [box[0]], fill=BLACK, width=int(2 * outline_w + 2), joint="curve")
        d.polygon(box, fill=fill)
    return img.crop(img.getbbox()) if tilt else img


def _mini_staircase(h, fills):
    """Four big upright cards climbing from the lower left to the upper right in two overlapping
    pairs, each with a dark edge below it (the wild draw four of the 2018 print)."""
    w = int(h * 1.6)
    img = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cw, ch = h * 0.40, h * 0.54
    steps = [(-0.42, 0.36), (-0.24, 0.18), (0.04, 0.04), (0.26, -0.22)]
    for (dx, dy), fill in zip(steps, fills):
        x, y = w / 2 + dx * h, w / 2 + dy * h
        d.rectangle([x - cw / 2 + h * 0.03, y - ch / 2 + h * 0.04, x + cw / 2 + h * 0.03, y + ch / 2 + h * 0.04],
                    fill=(30, 30, 30, 255))
        d.rectangle([x - cw / 2, y - ch / 2, x + cw / 2, y + ch / 2], fill=fill)
    return img.crop(img.getbbox())


def _four_colour(h, style: Style, shape="oval", angle=0.0):
    """The wild's four-colour centre: an oval or circle cut in quarters."""
    w = int(h * (0.75 if shape == "oval" else 1.0))
    img = Image.new("RGBA", (int(h * 1.2), int(h * 1.2)), (0, 0, 0, 0))
    c = img.width / 2
    mask = Image.new("L", img.size, 0)
    a, b = (w / 2, h / 2)
    ImageDraw.Draw(mask).polygon(ellipse_points(c, c, a, b, angle), fill=255)
    quarters = Image.new("RGBA", img.size)
    dq = ImageDraw.Draw(quarters)
    cols = [_rgba(style.colors[k]) for k in WILD_ORDER]
    m = img.width
    boxes = [(0, 0, c, c), (c, 0, m, c), (c, c, m, m), (0, c, c, m)]
    for box, col in zip(boxes, (cols[0], cols[2], cols[3], cols[1])):
        dq.rectangle(box, fill=col)
    quarters = quarters.rotate(-angle, resample=Image.BICUBIC, center=(c, c))
    img.paste(quarters, (0, 0), mask)
    return img


def _four_colour_field(w, h, cx, cy, style: Style):
    """A card-sized image cut in four coloured quarters about (cx, cy), turned with the oval."""
    side = int(2 * max(w, h))
    img = Image.new("RGBA", (side, side))
    d = ImageDraw.Draw(img)
    m = side / 2
    cols = [_rgba(style.colors[k]) for k in WILD_ORDER]
    for box, col in zip([(0, 0, m, m), (m, 0, side, m), (m, m, side, side), (0, m, m, side)],
                        (cols[0], cols[2], cols[3], cols[1])):
        d.rectangle(box, fill=col)
    img = img.rotate(-style.shape_angle if style.shape == "oval" else 0, resample=Image.BICUBIC)
    return img.crop((int(m - cx), int(m - cy), int(m - cx) + w, int(m - cy) + h))


def _plus_shapes(h, style: Style, fill, outline_w):
    """"+4" in front of four small cards in the four colours, two by two (the 2024 print)."""
    img = Image.new("RGBA", (int(h * 1.5), int(h * 1.4)), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cw, ch = h * 0.42, h * 0.52
    cx, cy = img.width / 2, img.height / 2
    for (dx, dy), k in zip(((-0.3, -0.3), (0.3, -0.3), (0.3, 0.3), (-0.3, 0.3)), WILD_ORDER):
        x, y = cx + dx * h, cy + dy * h
        d.rounded_rectangle([x - cw / 2, y - ch / 2, x + cw / 2, y + ch / 2], radius=int(h * 0.05),
                            fill=_rgba(style.colors[k]), outline=BLACK, width=max(1, int(outline_w)))
    paste_center(img, _plus_text("+4", h * 0.55, fill, style, max(outline_w, h * 0.05)), cx, cy)
    return img


def _wild_word(h, style: Style, outline_w):
    """"WILD", one letter in each colour (cheap prints)."""
    letters = [text_image(ch, style.font, h, _rgba(style.colors[k]), stroke_frac=max(0.06, outline_w / max(h, 1)))
               for ch, k in zip("WILD", WILD_ORDER)]
    img = Image.new("RGBA", (sum(x.width for x in letters), max(x.height for x in letters)), (0, 0, 0, 0))
    x = 0
    for letter in letters:
        img.alpha_composite(letter, (x, img.height - letter.height))
        x += letter.width
    return img


def _plus_text(text, h, fill, style: Style, outline_w):
    return text_image(text, style.font, h, fill, stroke_frac=outline_w / max(h, 1))


def _draw_n(symbol, kind, h, fill, style: Style, outline_w, corner):
    """Draw two and wild draw four: the "+2" / "+4" text in corners, mini cards or text inside."""
    text = "+2" if symbol == "draw2" else "+4"
    if corner or kind == "plus":
        return _plus_text(text, h * (0.8 if corner else 0.75), fill, style, outline_w)
    if kind == "plus-shapes":
        return _plus_shapes(h, style, fill, outline_w)
    if symbol == "draw2":
        fills = [fill, fill]
    elif kind == "staircase":
        return _mini_staircase(h, [_rgba(style.colors[k]) for k in ("green", "blue", "red", "yellow")])
    else:
        fills = [_rgba(style.colors[k]) for k in ("blue", "green", "red", "yellow")]
    return _mini_cards(h, fills, outline_w, fan=kind == "fan",
                       tilt=style.mini_tilt if kind == "tilted-cards" else 0.0)


def _wild(kind, h, style: Style, outline_w, corner):
    if corner or kind in ("circle", "fill"):   # "fill" reaches here only without a centre shape
        return _four_colour(h, style, shape="circle")
    if kind == "word":
        return _wild_word(h * 0.3, style, outline_w)
    return _four_colour(h, style, shape="oval", angle=style.shape_angle if kind == "oval-tilted" else 0.0)


def _jittered(symbol: str, style: Style):
    """(rng, amount) for the geometric variation of an action symbol, or (None, 0)."""
    if not style.glyph_jitter:
        return None, 0.0
    return random.Random(style.seed * 131 + sum(map(ord, symbol))), style.glyph_jitter


def symbol_image(symbol: str, h: float, fill, style: Style, outline_w: float, corner=False):
    img = _symbol_image(symbol, h, fill, style, outline_w, corner)
    rng, j = _jittered(symbol, style)
    if rng is not None and symbol in ("skip", "reverse", "draw2") and not corner:
        # the whole drawing turned a little: prints differ in which way arrows and bars lean
        img = img.rotate(rng.uniform(-35, 35) * j, expand=True, resample=Image.BICUBIC)
    return img


def _symbol_image(symbol: str, h: float, fill, style: Style, outline_w: float, corner=False):
    if symbol.isdigit():
        return text_image(symbol, style.font, h, fill, stroke_frac=outline_w / max(h, 1),
                          shadow=(0.05 if style.shadow and not corner else None),
                          underline=style.underline and symbol in "69")
    kind = drawing(symbol, style)
    rng, j = _jittered(symbol, style)
    if symbol == "skip":
        return _skip(h, fill, kind, outline_w, rng, j)
    if symbol == "reverse":
        return _reverse(h, fill, kind, outline_w, rng, j)
    if symbol in ("draw2", "wild-draw4"):
        return _draw_n(symbol, kind, h, fill, style, outline_w, corner)
    if symbol == "wild":
        return _wild(kind, h, style, outline_w, corner)
    raise ValueError(f"no drawing for symbol {symbol!r}")


# --- faces -------------------------------------------------------------------------------------

def draw_face(card, style: Style, w: int, h: int, extra_label: str | None = None) -> Image.Image:
    """A supersampled RGBA face of size (w, h); the caller downsamples and applies wear."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rounded_rect(d, (0, 0, w - 1, h - 1), style.radius * w, _rgba(style.edge or style.paper))
    b = style.border * w
    field_rgb = style.wild_black if card.color is None else style.colors[card.color]
    field = _rgba(field_rgb)
    inner_r = max(2.0, style.radius * w - b * 0.5)
    fbox = (b, b, w - 1 - b, h - 1 - b)
    rounded_rect(d, fbox, inner_r, field)
    cx, cy = w / 2, h / 2
    fw, fh = fbox[2] - fbox[0], fbox[3] - fbox[1]

    # the white centre shape, clipped to the coloured field
    wild = card.color is None
    shape = style.shape
    wild_in_shape = (card.symbol == "wild" and shape != "none"
                     and (style.shape_fill == "ring" or drawing("wild", style) == "fill"))
    if shape != "none":
        layer = Image.new("L", (w, h), 0)
        ld = ImageDraw.Draw(layer)
        if shape == "oval":
            a, bb = fw * 0.47 * style.shape_scale, fh * 0.43 * style.shape_scale
            ld.polygon(ellipse_points(cx, cy, a, bb, style.shape_angle), fill=255)
        elif shape == "rect":       # cheap prints: a plain upright panel
            a, bb = fw * 0.40 * style.shape_scale, fh * 0.36 * style.shape_scale
            ld.rounded_rectangle([cx - a, cy - bb, cx + a, cy + bb], radius=int(fw * 0.06), fill=255)
        else:
            r = fw * 0.42 * style.shape_scale
            ld.ellipse([cx - r, cy - r, cx + r, cy + r], fill=255)
        ring = style.shape_fill == "ring" and card.symbol != "wild-draw4"
        if wild_in_shape:   # the four colours fill the shape (inside its white ring in the 2018 print)
            quarters = _four_colour_field(w, h, cx, cy, style)
            img.paste(quarters, (0, 0), layer)
        if ring or wild_in_shape:  # keep only a band along the shape's edge: erode the filled shape,
            # subtract (a white rim keeps a filled wild's quarters off the black)
            from PIL import ImageFilter
            band = max(3, int(fw * 0.035)) | 1
            layer = ImageChops.subtract(layer, layer.filter(ImageFilter.MinFilter(band)))
        clip = Image.new("L", (w, h), 0)
        ImageDraw.Draw(clip).rounded_rectangle([int(v) for v in fbox], radius=int(inner_r), fill=255)
        layer = ImageChops.multiply(layer, clip)
        img.paste(Image.new("RGBA", (w, h), _rgba(style.paper)), (0, 0), layer)

    # the central symbol
    outline = style.stroke
    if shape == "none" or wild or style.shape_fill == "ring":
        sym_fill = WHITE
        outline = max(outline, 0.03)
    else:
        sym_fill = field
    glyph_h = fh * (0.40 if shape != "circle" else 0.34) * style.glyph_scale
    max_w = fw * {"oval": 0.62, "circle": 0.56, "rect": 0.66, "none": 0.8}[shape]
    sym = card.symbol
    if sym in ("skip", "reverse", "draw2", "wild-draw4"):
        glyph_h *= 1.15 if sym != "wild-draw4" else 1.25
    if sym == "wild":
        glyph_h = fh * 0.62
        max_w = fw * 0.9
    if wild_in_shape:
        if style.wild_word:              # the four colours are already in the shape; the word crosses it
            word = text_image("WILD", style.font, fh * 0.12, WHITE, stroke_frac=0.12)
            word = word.rotate(style.shape_angle if shape == "oval" else 0, expand=True, resample=Image.BICUBIC)
            paste_center(img, word, cx, cy, max_w=fw * 0.85, max_h=fh * 0.5)
    else:
        piece = symbol_image(sym, glyph_h, sym_fill, style, outline * glyph_h)
        paste_center(img, piece, cx, cy, max_w=max_w, max_h=glyph_h * 1.35)

    # corner indices: white with a black outline, top-left and (upside down) bottom-right
    if style.corner:
        ch = fh * 0.10 * style.corner_scale
        corner = symbol_image(sym, ch, WHITE, style, max(1.5, ch * style.corner_stroke), corner=True)
        ox, oy = b + fw * 0.13, b + fh * 0.09
        max_w = fw * 0.22 * max(1.0, style.corner_scale)    # big corner indices (2024) may be wider
        paste_center(img, corner, ox, oy, max_w=max_w, max_h=ch * 1.3)
        paste_center(img, corner.rotate(180), w - ox, h - oy, max_w=max_w, max_h=ch * 1.3)

    if extra_label:     # ONO!'s food, printed small along the bottom of the field
        label = text_image(extra_label, "LiberationSans-Bold.ttf", fh * 0.028, WHITE, stroke_frac=0.08)
        paste_center(img, label, cx, h - b - fh * 0.035, max_w=fw * 0.5)
    return img


def draw_back(deck_id: str, style: Style, w: int, h: int) -> Image.Image:
    """The family's back: black field, a tilted red oval, the game's name in yellow."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rounded_rect(d, (0, 0, w - 1, h - 1), style.radius * w, _rgba(style.edge or style.paper))
    b = style.border * w
    rounded_rect(d, (b, b, w - 1 - b, h - 1 - b), max(2, style.radius * w - b * 0.5), _rgba(style.wild_black))
    fw, fh = w - 2 * b, h - 2 * b
    d.polygon(ellipse_points(w / 2, h / 2, fw * 0.45, fh * 0.42, style.shape_angle or 32),
              fill=_rgba(style.colors["red"]))
    name = "ONO!" if deck_id == "ono" else "UNO"
    text = text_image(name, style.font, fh * 0.2, _rgba(style.colors["yellow"]), stroke_frac=0.06,
                      shadow=0.06)
    paste_center(img, text, w / 2, h / 2, max_w=fw * 0.8, angle=-20)
    return img
