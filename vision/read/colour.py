"""Stage 3a: the card's colour from its own pixels.

Colour carries over from renders to real photos almost perfectly (shared/notes/vision-probe.md), so
it needs no learning: white-balance the card against its own white border, then vote the hue of
the saturated pixels. A wild is black with several colours; it is told apart by the symbol
classifier, and this module reports how "wild-like" the pixels are as a cross-check.
"""
from __future__ import annotations

import colorsys

import cv2
import numpy as np

from ..quantile import percentile

# A palette: (colour name, OpenCV hue range lo..hi) buckets over 0..180; red wraps around 0.
# The UNO family's red/yellow and green/blue edges lie halfway between the inks measured on the real
# development photos, white-balanced (card medians: red 0-6, yellow 21-27, green 74-84, blue
# 96-106), so another print's inks have room either way; the designed decks' palettes are derived
# from their printed colours (palette_for).
HUE_BUCKETS = (("red", (0, 14)), ("yellow", (14, 40)), ("green", (40, 90)), ("blue", (90, 140)), ("red", (140, 181)))
COLOURS = ("red", "yellow", "green", "blue")
MEASURED_PALETTES = {"uno": HUE_BUCKETS, "ono": HUE_BUCKETS}


def hue_of(rgb) -> float:
    """OpenCV hue (0..180) of an sRGB colour."""
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 180.0


def hue_buckets(colours: dict) -> tuple:
    """Buckets for named colours {name: (r, g, b)}: each hue owns the arc up to halfway to its
    neighbours on the hue circle, so a printer's shift either way is met with the most room."""
    hues = sorted((hue_of(rgb), name) for name, rgb in colours.items())
    if len(hues) < 2:
        raise ValueError(f"a palette needs at least two colours, got {list(colours)}")
    out = []
    for i, (h, name) in enumerate(hues):
        lo = (hues[i - 1][0] - (180.0 if i == 0 else 0.0) + h) / 2
        hi = (h + hues[(i + 1) % len(hues)][0] + (180.0 if i == len(hues) - 1 else 0.0)) / 2
        if lo < 0:  # the arc crosses 0: two buckets, as HUE_BUCKETS has for red
            out += [(name, (lo + 180.0, 181.0)), (name, (0.0, hi))]
        elif hi > 180:
            out += [(name, (lo, 181.0)), (name, (0.0, hi - 180.0))]
        else:
            out.append((name, (lo, hi)))
    return tuple(out)


def palette_for(deck: str) -> tuple:
    """The hue buckets of a deck's colours: measured for the UNO family, else from its art's colours."""
    if deck in MEASURED_PALETTES:
        return MEASURED_PALETTES[deck]
    from referee import load_deck
    from vision.art.designed import deck_colors
    art = deck_colors(deck)
    return hue_buckets({c: art[c] for c in load_deck(deck).colors})


CLIPPED = 250    # a pixel with a channel this bright is clipped: it says nothing of the light's colour
PAPERISH = 0.5   # a pixel may be paper whose smallest channel is at least this share of its largest,
                 # and its largest this share of the card's brightest (black is no paper)
MIN_PAPER = 0.02  # ... and of those unclipped, at least this share of the card to go by
GAINS = (0.6, 1.6)  # the white balance's least and greatest gain on a channel


def white_balance(card_bgr: np.ndarray) -> np.ndarray:
    """Scale the channels so the card's brightest paper (its border, a white oval) is neutral grey.
    The paper: the brightest tenth of its unclipped, not strongly coloured pixels. A lamp's glare,
    clipped white whatever the light, made the reference when it was taken from all pixels, and a
    bluish lamp went uncorrected: one print's teal green (hue 78-83, the edge then at 88) read blue
    (hue 93 on a transplanted close-up; 87 from the paper). Where nearly all the paper is clipped
    (a clean render, an overexposed photo), the brightest tenth of all pixels, as before."""
    f = card_bgr.astype(np.float32)
    px = f.reshape(-1, 3)
    hi, lo = px.max(axis=1), px.min(axis=1)
    paper = (hi < CLIPPED) & (lo >= PAPERISH * hi) & (hi >= PAPERISH * percentile(hi, 99))
    if int(paper.sum()) >= MIN_PAPER * len(px):
        px = px[paper]
    lum = px.mean(axis=1)
    ref = px[lum >= np.float32(percentile(lum, 90))]
    if len(ref) < 10:
        return card_bgr
    gains = ref.mean(axis=0).mean() / np.maximum(ref.mean(axis=0), 1.0)
    gains = np.clip(gains, *GAINS)  # a coloured cast, not a coloured card, is what we correct
    return np.clip(f * gains, 0, 255).astype(np.uint8)


CAST_MIN = 1.25      # the brightest pixels' greatest channel over their least from which a photo has a cast
SCENE_GAINS = (0.4, 2.5)   # ... and the least and greatest gain a whole photo is balanced with
SCENE_SIDE = 320     # the photo's long side its light is measured at


def scene_balance(bgr: np.ndarray) -> np.ndarray | None:
    """The photo white-balanced on its brightest unclipped pixels (the brightest 3%), or None where
    those are near grey already (under CAST_MIN). A card's white margin is the brightest thing in
    most photos of a card; under a tungsten lamp it is orange (its blue at 0.45 of its red), too
    coloured to be taken for a margin at all, and no card was found in 2 photos of 3 of one print.
    Only for a photo where nothing was found: balancing a photo whose brightest is a coloured thing
    would colour its white."""
    h, w = bgr.shape[:2]
    k = min(1.0, SCENE_SIDE / max(h, w))
    small = cv2.resize(bgr, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA) if k < 1 else bgr
    px = small.reshape(-1, 3).astype(np.float32)
    px = px[px.max(axis=1) < CLIPPED]
    if len(px) < 100:
        return None
    lum = px.mean(axis=1)
    ref = px[lum >= np.float32(percentile(lum, 97))].mean(axis=0)
    if float(ref.min()) < 1.0 or float(ref.max() / ref.min()) < CAST_MIN:
        return None
    gains = np.clip(ref.mean() / ref, *SCENE_GAINS).astype(np.float32)
    return np.clip(bgr.astype(np.float32) * gains, 0, 255).astype(np.uint8)


DARK_CHROMA = 0.12   # dark ink: its chroma (greatest channel less least) at least this share of the paper


def colour_votes(card_bgr: np.ndarray, margin: float = 0.1, palette: tuple = HUE_BUCKETS,
                 pale_ink: bool = False, dark_ink: bool = False, not_ink: np.ndarray | None = None) -> dict:
    """Fractions of the card's saturated pixels per colour of `palette` (hue buckets, see
    palette_for; the UNO colours by default), plus dark and colourful fractions. `pale_ink`: the
    card may be printed faintly (a home printer's draft mode), see saturated_enough. `dark_ink`:
    its ink may be far darker than its paper (a contrasty tone curve, a photo exposed for a lamp's
    bright white): ink is told from black by its chroma against the paper (DARK_CHROMA), not by
    its brightness. `not_ink`: a bool mask of the card's pixels that are no ink on it, whatever
    their colour (blobs_from_edge)."""
    h, w = card_bgr.shape[:2]
    my, mx = int(h * margin), int(w * margin)
    balanced = white_balance(card_bgr)
    whole = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
    hsv = whole[my:h - my, mx:w - mx].reshape(-1, 3).astype(np.int32)
    hue, sat, val = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    # "bright enough" follows the card's own white: a dim room darkens the colours with it
    # (relative to the white alone: in a dim room a dark green field is 30 grey levels bright),
    # and a shadow across the card darkens the ink under it with its paper (SHADE)
    # the card's paper: the whole warp's brightest (its margin, its oval)
    paper = percentile(whole[..., 2], 97)
    light = shade(whole, paper)[my:h - my, mx:w - mx].reshape(-1) if SHADE else np.ones(len(val), np.float32)
    if dark_ink:
        # chroma = saturation x value: a dark green field's is a sixth of the paper and more, a
        # black's JPEG noise under a tenth, however saturated its few grey levels look
        bar = DARK_CHROMA * 255.0 * percentile(val, 95) * light
        coloured = (sat > saturated_enough(sat, pale_ink)) & (val > 15.0) & (sat * val > bar)
    else:
        coloured = (sat > saturated_enough(sat, pale_ink)) & (val > np.maximum(15.0, 0.28 * percentile(val, 95) * light))
    if not_ink is not None:
        coloured &= ~not_ink[my:h - my, mx:w - mx].reshape(-1)
    votes = _shares(hue, coloured, palette)
    top = max(votes, key=votes.get)
    # a pixel with a channel clipped (in the photo, or by the white balance's gain) has lost the
    # ink's hue: the clipped channel's share is cut, and an overexposed red turns orange and
    # yellow, a green cyan and blue (see clip_checked)
    inner = card_bgr[my:h - my, mx:w - mx].reshape(-1, 3)
    clipped = (inner.max(axis=1) >= CLIPPED) | (balanced[my:h - my, mx:w - mx].reshape(-1, 3).max(axis=1) >= 255)
    unclipped = coloured & ~clipped
    uvotes = _shares(hue, unclipped, palette)
    utop = max(uvotes, key=uvotes.get)
    # the channel the clipped ink pixels lost alone: their true hue lies from the hue seen towards
    # that channel's own (a red clipped in red is redder than it looks, never yellower). Two
    # channels clipped give no way: a yellow clipped in red and green may be anything between
    # (synthetic close-ups at 2.5x: yellows taken for the red of their darker unclipped edges)
    lost = inner[coloured & clipped] >= CLIPPED
    alone = lost & (lost.sum(axis=1, keepdims=True) == 1)
    towards = sorted({_colour_at(PRIMARY_HUE[c], palette) for c in range(3)
                      if lost.size and alone[:, c].mean() >= LOST_SHARE} - {None})
    # how bright the coloured pixels are against the card's paper: a print's inks 0.6 and more of
    # it; chroma noise on something black 0.1-0.2
    level = float(np.median(val[coloured] / light[coloured])) / max(paper, 1.0) if coloured.any() else 0.0
    margin, across = _nearest_edge(hue[coloured], top, palette) or (0.0, None)
    return {"votes": votes, "coloured": float(coloured.mean()), "dark": float((val < 60).mean()),
            "hue_margin": margin, "level": level, "across": across,
            "unclipped": {"colour": utop, "share": uvotes[utop], "pixels": int(unclipped.sum()),
                          "towards": towards, "clipped": int((coloured & clipped).sum()),
                          "hue_margin": hue_margin(hue[unclipped], utop, palette)}}


def blobs_from_edge(card_bgr: np.ndarray, outside: np.ndarray | None = None) -> np.ndarray:
    """Bool mask of the card's coloured blobs, BLOB of its width across all through, that reach
    BLOB_EDGE from its edge, or the picture's edge (`outside`: a bool mask of the card's pixels
    beyond the picture, for an outline the picture cuts): on a card drawn on white stock, whose ink
    is strokes drawn inside its edge, a finger over it or the table a loose outline took in (a
    picture read whole as a close-up, padded round). Strokes are narrower, and a blob's own reach
    stops where it does (a stroke a finger touches stays ink)."""
    h, w = card_bgr.shape[:2]
    sat = cv2.cvtColor(white_balance(card_bgr), cv2.COLOR_BGR2HSV)[..., 1]
    marked = (sat > BLOB_SATURATED).astype(np.uint8)
    k = max(3, int(round(BLOB * w)) | 1)
    round_k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    wide = cv2.morphologyEx(marked, cv2.MORPH_OPEN, round_k)
    n, labels = cv2.connectedComponents(wide, connectivity=8)
    if n <= 1:
        return np.zeros((h, w), bool)
    b = max(1, int(round(BLOB_EDGE * w)))
    band = np.zeros((h, w), bool)
    band[:b], band[-b:], band[:, :b], band[:, -b:] = True, True, True, True
    if outside is not None and outside.any():
        band |= cv2.dilate(outside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    reaching = np.unique(labels[band & (wide > 0)])
    blobs = np.isin(labels, reaching[reaching > 0]).astype(np.uint8)
    # the blob's rim, which the opening shaved off, is its too
    return cv2.dilate(blobs, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))).astype(bool) & (marked > 0)


BLOB = 0.15          # a coloured region this share of the card's width across all through is a blob, not a stroke ...
BLOB_EDGE = 0.1      # ... and, reaching this near its edge, no ink on a card drawn on white stock (blobs_from_edge;
                     # a picture read whole as a close-up has a paper margin of up to 7% round it: locate/inside.py)
BLOB_SATURATED = 50  # ... counting pixels this saturated (a finger's shaded side is paler than ink)


SHADE = True         # the ink's brightness bar follows the light of the paper nearest it (shade)
SHADED = 0.8         # paper darker than this share of the card's brightest lies in a shadow...
SHADE_FLOOR = 0.3    # ... paper no darker than this (black ink is darker still: no paper)
SHADE_REACH = 0.12   # how far (a share of the card's width) a pixel looks for the paper it lies beside
PAPER_SAT = 60       # paper: no more saturated than this, white-balanced (a shadow's bluish white too)


def shade(hsv: np.ndarray, paper: float | None = None) -> np.ndarray:
    """Each pixel's light, a share of the card's brightest paper (`paper`, V; by default the
    warp's 97th percentile, as colour_votes takes it): the brightest paper (white, not
    saturated) within SHADE_REACH of it, where that is under SHADED of the card's brightest; 1 where
    it is lit, or where no paper lies near. A hand or a phone held over the card casts a shadow across
    it, margin and field together: a dark green field in it fell under the brightness bar the lit
    paper set, and the card kept too little ink to have a colour (hand-held photos under a shadow at
    half the light, read as wilds)."""
    val = hsv[..., 2].astype(np.float32)
    ref = max(percentile(val, 97) if paper is None else paper, 1.0)
    paper = (hsv[..., 1] < PAPER_SAT) & (val >= SHADE_FLOOR * ref)
    r = max(1, int(round(SHADE_REACH * hsv.shape[1])))
    near = cv2.dilate(np.where(paper, val, 0.0).astype(np.float32),
                      cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    light = near / ref
    light[(near <= 0) | (light >= SHADED)] = 1.0
    return np.clip(light, SHADE_FLOOR, 1.0)


PRIMARY_HUE = (120, 60, 0)   # OpenCV hue of pure blue, green and red (BGR channel order)
LOST_SHARE = 0.3             # a channel clipped alone in this share of the clipped ink pixels moved their hue


def _colour_at(hue: int, palette: tuple) -> str | None:
    """The palette's colour whose range holds `hue`."""
    return next((name for name, (lo, hi) in palette if lo <= hue < hi), None)


def _shares(hue: np.ndarray, mask: np.ndarray, palette: tuple) -> dict:
    """The share of the pixels in `mask` whose hue lies in each colour's ranges."""
    n = max(int(mask.sum()), 1)
    shares = {name: 0.0 for name, _ in palette}
    for name, (lo, hi) in palette:
        shares[name] += float(((hue >= lo) & (hue < hi) & mask).sum()) / n
    return shares


UNCLIPPED_MIN = 25   # unclipped ink pixels a colour is read from where the clipped ones disagree
# Skin is red-orange: a finger over a bright yellow card clipped in red (which leaves it redder than it
# looks) is most of that card's unclipped "ink" and named red, so red from the unclipped pixels against
# clipped yellow is taken only where this share of them name it; under it the colour is in doubt.
# Measured (session 80): real reds brightened 2.5 and 3.2 times, 0.80-1.00 of their unclipped pixels
# red (40 readings); held yellows in synthetic close-ups, fingers over them, 0.52-0.65 (3 of 305
# close-ups, one read as the red 7 at 0.96, sure)
SKIN_RED = 0.75
EDGE_MARGIN = 5.0    # all the ink's hue this close to the edge of its colour's range sits on the border...
EDGE_PIXELS = 2      # ... where this many unclipped ink pixels pick the side
EDGE_SHARE = 0.6     # ... when this share of them name the colour across it


def clip_checked(v: dict) -> tuple[str, float, float]:
    """(colour, share of the coloured pixels, hue margin) of colour_votes' `v`, read from the
    pixels whose channels are not clipped where they name another colour than all the pixels do,
    and that colour is the one clipping moved the hue away from (the colour of the channel the
    clipped pixels lost alone, LOST_SHARE): a red's field clipped in red is red whatever a thumb's
    unclipped orange over it says (a synthetic close-up at 2.5 times its exposure, read yellow,
    sure, without this).
    Measured on the 294 real photos: as they are the two agree on every card; brightened 2.5
    times, all pixels named the wrong colour on 71 of 279 cards (red read yellow, green blue, sure)
    and the unclipped ones on 2. Where fewer than UNCLIPPED_MIN pixels are unclipped and most are
    clipped, the colour is in doubt: its margin is none."""
    colour = max(v["votes"], key=v["votes"].get)
    share, margin = v["votes"][colour], v["hue_margin"]
    u = v["unclipped"]
    if u["pixels"] >= UNCLIPPED_MIN:
        if u["colour"] != colour and u["colour"] in u["towards"]:
            if u["colour"] == "red" and u["share"] < SKIN_RED:
                return colour, share, 0.0
            return u["colour"], u["share"], u["hue_margin"]
        if u["colour"] == colour and u["clipped"] > u["pixels"]:
            # most of the ink clipped, the rest agreeing: the clipped pixels' hue is where clipping
            # left it (a blue clipped in blue and green is cyan, hue 90, on the edge with green),
            # so the unclipped ones say how far inside its range the colour lies; and how much of
            # the card is that colour where clipping moved the rest away from it (`towards`), not
            # where a few dark pixels of one colour lie among clipped others (a wild's blue quarter)
            return colour, u["share"] if colour in u["towards"] else share, u["hue_margin"]
    elif u["clipped"] > u["pixels"]:
        margin = 0.0
    if on_the_border(v):
        return u["colour"], u["share"], u["hue_margin"] if u["pixels"] >= UNCLIPPED_MIN else 0.0
    return colour, share, margin


def on_the_border(v: dict) -> bool:
    """Whether mostly clipped ink reads on the border of its colour's range, and its unclipped
    pixels name the colour across that border. A green clipped in green and blue is cyan (hue 90,
    the edge with blue) and a blue clipped in both the same: the clipped pixels cannot tell
    the two apart, the darker unclipped ones at the field's edges and shadows can, however few (the
    on-black print's teal greens at 2.5 times their exposure: 2-18 unclipped pixels, every one
    green, read blue before; its blues' 22-244 every one blue). Not for a hue well inside its range,
    nor where the channel the clipped ink lost alone says it lies further inside (`towards`): a red
    clipped in red, orange at the edge with yellow, is redder than it looks, whatever 2 unclipped
    yellow pixels say (a synthetic close-up at 3.2 times its exposure)."""
    u = v["unclipped"]
    colour = max(v["votes"], key=v["votes"].get)
    return (u["clipped"] > u["pixels"] >= EDGE_PIXELS and v["hue_margin"] <= EDGE_MARGIN
            and u["colour"] == v.get("across") and u["share"] >= EDGE_SHARE and colour not in u["towards"])


SATURATED = 80     # a pixel this saturated (of 255) is ink, not paper: the UNO family's, measured
PALE_FLOOR = 40    # ... and the least for a faint print, where the card's own inks set the bar
PALE_SHARE = 0.5   # a faint print's ink: at least this share of its most saturated tenth


def saturated_enough(sat: np.ndarray, pale_ink: bool) -> float:
    """The saturation above which a pixel counts as ink. A home-printed deck (dino2, snake-cup)
    may come out of a printer in draft mode or low on ink: a violet field at saturation 70, read
    as no colour at all with the fixed bar (then a colourless SNAKE). For those the bar is half the
    card's most saturated tenth, between PALE_FLOOR and SATURATED (the floor above white-balanced
    paper: the brightest pixels of 300 rendered cut-outs, median saturation 14, 32 at the 90th
    percentile). The UNO family keeps the fixed bar its ranges were measured with."""
    if not pale_ink or sat.size == 0:
        return float(SATURATED)
    return float(np.clip(PALE_SHARE * percentile(sat, 90), PALE_FLOOR, SATURATED))


def _nearest_edge(hues: np.ndarray, colour: str, palette: tuple) -> tuple[float, str | None] | None:
    """(distance, colour beyond it) of the edge of `colour`'s range nearest the median hue of its
    pixels among `hues` (OpenCV units): (90, None) where the range has no edge with another colour,
    None where no pixel lies in the range."""
    ranges = [r for name, r in palette if name == colour]
    if hues.size == 0 or not ranges:
        return None
    inside = np.zeros(hues.shape, bool)
    for lo, hi in ranges:
        inside |= (hues >= lo) & (hues < hi)
    h = hues[inside].astype(np.float64)
    if h.size == 0:
        return None
    wraps = any(lo == 0 for lo, _ in ranges) and any(hi >= 180 for _, hi in ranges)
    if wraps:  # a colour across 0 (red): measure on -90..90 so its two buckets are one
        h = np.where(h >= 90, h - 180, h)
    m = float(np.median(h))
    best = (90.0, None)
    for lo, hi in ranges:
        for edge, beyond in ((lo, lo - 0.5), (hi, hi + 0.5)):
            if wraps and edge in (0, 180, 181):
                continue            # the wrap is no edge
            d = abs(m - (edge - 180 if wraps and edge >= 90 else edge))
            if best[1] is None or d < best[0]:
                best = (float(d), _colour_at(beyond % 180, palette))
    return best


def hue_margin(hues: np.ndarray, colour: str, palette: tuple) -> float:
    """How far (in OpenCV hue units) the median hue of `colour`'s pixels lies inside its bucket:
    the distance to the nearest edge shared with another colour. Near an edge, a colour cast or
    another printer's ink could have put the card in the neighbouring colour, so a reading there
    is less sure (vision/recognizer.py lowers its confidence)."""
    edge = _nearest_edge(hues, colour, palette)
    return edge[0] if edge else 0.0


def card_colour(card_bgr: np.ndarray, palette: tuple = HUE_BUCKETS) -> tuple[str | None, float]:
    """(colour, confidence). None when too few pixels are coloured (a wild or no card at all)."""
    v = colour_votes(card_bgr, palette=palette)
    best = max(v["votes"], key=v["votes"].get)
    if v["coloured"] < 0.15:
        return None, 0.0
    return best, v["votes"][best]


def four_colour_area(votes: dict) -> float:
    """How much of the card's face (inside its margin) the four colours cover together, counted by
    the scarcest: 4 x coloured share x the smallest colour's vote. A wild's big four-colour oval,
    circle or field covers 0.44-0.80 of it (every print we render, and the real wilds of two prints);
    the four mini cards of a wild draw four 0.04-0.19 (the real ones: 0.13-0.19); a coloured card ~0."""
    return 4.0 * votes["coloured"] * min(votes["votes"].values())


def scarcest_two(votes: dict) -> float:
    """The share of the card's face in its two scarcest colours: coloured share x their two votes.
    Every wild shows all four colours (0.017 and more of its face in the scarcest two, fuse.py
    `few_colours_evidence`); a coloured card or a dark disc ~0."""
    two = sorted(votes["votes"].values())[:2]
    return float(votes["coloured"]) * float(sum(two))
