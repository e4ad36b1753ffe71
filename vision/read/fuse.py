"""Stage 3d: one belief about the card's symbol from two independent readers.

The symbol classifier (symbols.py) sees shapes and knows the prints it was trained on; the text
reader (text.py) knows numerals in any print but no shapes. Each alone is wrong in its own way
on a print it has not met: the classifier calls a +2 of two drawn cards a "7" with probability
0.99, the text reader calls a skip's slashed ring a "0". So neither decides alone: the belief is
the classifier's probabilities, mixed with "any symbol" and tempered (they are over-sure outside
their training prints),
times how likely each symbol makes what the text reader saw (naive Bayes: the two look at the
card independently, one at its glyph's gradients, one with a network trained on real text):

    belief(s) ~ p_classifier(s) ** TEMPER * L_centre(text read at the centre | s) * L_corner(... | s)

The likelihoods are a small table of what real readers do, written as data below: a numeral read
clearly at the centre is almost never another symbol; a "0" may be a skip's ring or a wild's
oval; silence at the centre is what shapes give, and also what some numerals give where the
print's numeral is hard to read (white on colour with a drop shadow), so it only leans. Where the
centre and the corner are read clearly as two symbols no card shows together, the text reader is
wrong in one of them, and neither counts.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .text import TextEvidence

DIGITS = tuple("0123456789")
TEMPER = 0.6            # classifier probabilities to this power: softer where it is over-sure
TEMPER_ALONE = 0.8      # ... where the text cannot be read and the classifier is all there is
OFF_PRINT = 0.2         # the chance that the card is of a print the classifier cannot read
SIX_NINE_BAR = 0.97     # 6 against 9 when the underline was seen
SIX_NINE_CORNER = 0.97  # ... when a corner index was read clearly as one of them (both: as odds)
SIX_NINE_GUESS = 0.55   # ... and when neither: the classifier's pick, never sure
SIX_NINE_BY_CORNER = True   # (False: the corner index says nothing of 6 or 9)
SIX_NINE_PX = 60.0      # card width (pixels) from which the underline is looked for
BAR_OTHERS = 0.1        # L(the underline seen | any symbol but 6 and 9) against theirs: prints bar only the 6 and
                        # the 9. Measured (session 81): a bar at the centre of 0 of 346 other cards (255 real, 91
                        # synthetic close-ups), 35 of 58 6s and 9s (33 of 41 real). A League Spartan 9, its tail straight, its bar
                        # under it, read "2" in its corner at 0.99 and went out as a 2, sure (1.0: no such evidence)
STRONG = 0.85           # text read with at least this confidence is a clear reading
WEAK = 0.3              # below this, nothing was read: silence
# ... unless the corner index reads the same symbol clearly: a faint echo of it at the centre is no
# silence (which leans to the shapes) but the same text half washed out. A lamp's spot over a green
# 3's oval left its centre "3" at 0.27, its corner "3" at 0.997, and silence sent it to the reverse
# the shape readers half took the spot for (glare cell, hand-held). Not a "0": a faint "0" at the
# centre is what a skip's ring gives (14 of 24 real skips of real-uno-dev2, 0.3-0.85 there)
ECHO_FLOOR = 0.15
# card widths in the picture (pixels) from which silence at each place starts to mean something,
# and from which it means all it can: a centre numeral is about half the card's width high,
# a corner index about a sixth; OCR needs some 15 pixels of text height
CENTRE_LEGIBLE = (80.0, 160.0)
CORNER_LEGIBLE = (120.0, 220.0)
# card widths from which a clear reading starts to count, and from which it counts fully: on a card
# drawn small OCR reads an upscaled blur, and is sure of a "2" in a 7 or a "1" in a reverse's arrows
# while both symbol readers see the glyph plainly (shown hands, cards 70-80 pixels wide). From 60 to
# 120 cost the prison demo's doubles their sure readings (4 of 7 -> 2): the lower card of a double
# needs its numeral read
CLEAR_TRUSTED = (40.0, 100.0)
CUT_SILENT = True       # silence where the picture cuts the card off counts only as far as it is in view

# P(the text reader's clear reading | true symbol), by place. Keys: what was read; values:
# {symbol: likelihood}, with "*" for every other symbol. A symbol not listed under "*" default 1.
PLUS = {"2": "draw2", "4": "wild-draw4"}
PLUS_MISSED = 0.7       # a small "+" next to its digit is often not read: "+4" comes out as "4"
# "+2" or "+4" read whole (the plus and the digit) counts part way from this confidence, fully from
# STRONG: a corner index of drawn cards' print is small, and read at 0.6-0.85 where a numeral is
# read clearly (left out of training, the filled-oval print's +2 corners: 0.72-0.84, the classifier
# calling its two drawn cards a 7); a card without a plus seldom gives both characters
PLUS_FAIR = 0.6
CORNER_FAIR = True      # a corner index's digit read fairly (PLUS_FAIR..STRONG) counts part way too

CENTRE = {
    "digit": {"same": 1.0, "6/9": 1.0, "*": 0.02},
    # a ring, an oval, two drawn cards or a circle of arrows all read as "0" now and then; a
    # reverse seldom (session 43: clearly at the centre on 0 of 986 readings of real reverses as
    # the bench alters them and 0 of 166 rendered ones, 1 of 40 of the circle-2024 print's arrows
    # round a circle; a real 0 on 80 of 629, a skip on 41 of 837). Under a lamp's spot the shape
    # readers take a 0 for a reverse, and a held 0 read "0" clearly at its centre and in its corner
    # went to the reverse (glare, seed 16262)
    "0": {"0": 1.0, "skip": 0.8, "reverse": 0.2, "digit": 0.05, "*": 0.6},
    "draw2": {"draw2": 1.0, "*": 0.02},
    "wild-draw4": {"wild-draw4": 1.0, "*": 0.02},
    "none": {"digit": 0.2, "*": 1.0},
}
CORNER = {
    # a corner digit read clearly on another card: an S reverse's arrows as "5" (real photos, 2 of
    # 28); a +2 corner as "2" (its plus missed: PLUS_MISSED), but never as another digit (session 19:
    # 1 of 300 rendered +2 corners of six families, none of the real ones), so a +2 is no likelier
    # than any other symbol to give a clear "7" (it was 0.3 until then: a 7 whose centre numeral was
    # not read, its corner read "7" at 0.99, went to the +2 the symbol readers half took it for).
    # Likewise a reverse: its corner is its drawing again, small, and reads as that drawing reads
    # ("5", or "3" without the heads: DRAWN_AS), no likelier than any other symbol to read "1" or "7"
    # (it was 0.3 for every digit until session 41: a 1 under a lamp's glare, its corner read "1" at
    # 0.996, went to the reverse the shape readers took the glare for)
    "digit": {"same": 1.0, "6/9": 1.0, "reverse": {"3": 0.3, "5": 0.3}, "*": 0.08},
    # a corner "0": a 0, a skip's ring or a wild's oval; a +2 or +4 corner reads as such; a
    # reverse's never seen so (0 of 986 real readings and 240 renders of six prints, session 43).
    # A skip's about half as often as a 0's (session 80, the real photos as they are and altered,
    # clearly: 0s 26 of 65, skips 19 of 140; the hand-held print 0.49 against 0.28, the classic 0.20
    # against 0.10); it was 0.8, and a held 0 under a lamp's spot, its corner "0" at 0.99, went to the
    # skip the shape readers half took the spot for. A classic wild's corner reads "0" as often as its 0s'
    "0": {"0": 1.0, "skip": 0.5, "wild": 0.8, "draw2": 0.3, "wild-draw4": 0.3, "reverse": 0.1, "digit": 0.1,
          "*": 0.6},
    "draw2": {"draw2": 1.0, "*": 0.02},
    "wild-draw4": {"wild-draw4": 1.0, "*": 0.03},
    "none": {"digit": 0.6, "*": 1.0},
}


def silent(read: tuple[str | None, float]) -> bool:
    """Whether a place's reading (symbol, confidence) is silence: nothing read, or below WEAK."""
    return read[0] is None or read[1] < WEAK


def echoes(text: TextEvidence) -> bool:
    """Whether the centre read faintly (ECHO_FLOOR..WEAK) what the corner index reads clearly: then
    the centre says nothing either way (ECHO_FLOOR)."""
    (centre, c_conf), (corner, k_conf) = text.centre, text.corner
    return centre is not None and centre != "0" and centre == corner and ECHO_FLOOR <= c_conf < WEAK \
        and k_conf >= STRONG


def likelihoods(table: dict, read: tuple[str | None, float], symbols: list[str], heard: float = 1.0,
                trusted: float = 1.0, fair_digits: bool = False) -> np.ndarray:
    """L(reading | s) for every symbol s: a clear reading by its row, silence (below WEAK) by the
    "none" row, anything between as no evidence but a whole "+2" or "+4" (PLUS_FAIR). `heard` (0..1):
    how well text of this size can be read at all; silence from a card too small to read says
    nothing. `trusted` (0..1): how far a clear reading of text this size counts (its row to this
    power: 0, no evidence)."""
    text, conf = read
    if silent(read):
        row = table["none"]
        digit = 1.0 - (1.0 - row["digit"]) * heard
        return np.array([digit if s in DIGITS else row["*"] for s in symbols])
    if conf < STRONG:           # something was read, not clearly: no evidence either way ...
        fair = text in PLUS.values() or (fair_digits and text in DIGITS and text != "0")
        if not fair or conf < PLUS_FAIR:
            return np.ones(len(symbols))
        # ... but for a whole "+2" / "+4" (or a corner's digit, `fair_digits`), part way
        trusted *= (conf - PLUS_FAIR) / (STRONG - PLUS_FAIR)
    key = "0" if text == "0" else "digit" if text in DIGITS else text
    row = table[key]
    out = []
    for s in symbols:
        if key == "digit":
            if s == text:
                v = row["same"]
            elif s in ("6", "9") and text in ("6", "9"):   # 6 and 9 read each other upside down
                v = row["6/9"]
            elif PLUS.get(text) == s:                       # "+2" / "+4" with the plus missed
                v = PLUS_MISSED
            else:
                v = row.get(s, row["*"])
                if isinstance(v, dict):                     # by the digit read (a reverse's "5")
                    v = v.get(text, row["*"])
        else:
            v = row.get(s, row["digit"] if s in DIGITS and "digit" in row else row["*"])
        out.append(v)
    return np.power(np.array(out, np.float64), trusted)


def _supports(read: tuple[str | None, float]) -> set[str] | None:
    """The symbols a clear reading is evidence for, or None when it is not clear or may be
    anything round (a "0": a 0, a skip's ring, a wild's oval)."""
    text, conf = read
    if text is None or conf < STRONG or text == "0":
        return None
    if text in DIGITS:
        return {text} | ({"6", "9"} if text in ("6", "9") else set()) | ({PLUS[text]} if text in PLUS else set())
    return {text}


def clear_symbols(text: TextEvidence) -> set[str] | None:
    """The symbols the text says the card may be when it is read clearly (a numeral, "+2" or "+4"
    at the centre or in the corner, the two not contradicting each other), else None."""
    if _contradicts(text.centre, text.corner):
        return None
    a, b = _supports(text.centre), _supports(text.corner)
    return a & b if a is not None and b is not None else a or b


def reads_clearly(read: tuple[str | None, float]) -> set[str]:
    """The symbols one place's reading (symbol, confidence) is clear evidence for (empty when none)."""
    return _supports(read) or set()


def read_twice(text: TextEvidence) -> set[str]:
    """The symbols the centre and the corner index both read clearly (empty when either did not)."""
    a, b = _supports(text.centre), _supports(text.corner)
    return a & b if a is not None and b is not None else set()


def _contradicts(centre: tuple[str | None, float], corner: tuple[str | None, float]) -> bool:
    """True when the centre and the corner are both read clearly, as symbols no card could show
    together."""
    a, b = _supports(centre), _supports(corner)
    return a is not None and b is not None and not a & b


def legibility(card_px: float | None, small: float, large: float) -> float:
    """0 for a card `small` pixels wide or less (its text is a few pixels high: OCR cannot read
    it, so its silence means nothing), 1 from `large` pixels, linear between."""
    if card_px is None:
        return 1.0
    return float(np.clip((card_px - small) / (large - small), 0.0, 1.0))


def _says(read: tuple[str | None, float], heard: float, trusted: float = 1.0) -> float:
    """How far a reading can overrule the classifier: a clear numeral, "+2" or "+4" as far as a
    clear reading of text this size is trusted; a "0" (which any round shape may give) or silence
    only as far as text of this size is legible."""
    text, conf = read
    return trusted if text is not None and text != "0" and conf >= STRONG else heard


def fuse(symbols: list[str], p: np.ndarray, text: TextEvidence | None, card_px: float | None = None,
         seen: tuple[float, float] = (1.0, 1.0)) -> np.ndarray:
    """The belief over `symbols` (the classifier's classes, probabilities p), given the text read
    from a card `card_px` pixels wide in the picture, whose centre and corner indices lie `seen`
    (0..1 each) inside it; the classifier's own probabilities when no text was read (no reader, or
    a designed deck)."""
    if text is None:
        return np.asarray(p, np.float64)
    p = np.asarray(p, np.float64)
    # silence from a place the picture cut off says nothing (a card held close runs off it)
    centre_heard = legibility(card_px, *CENTRE_LEGIBLE) * (seen[0] if CUT_SILENT else 1.0)
    corner_heard = legibility(card_px, *CORNER_LEGIBLE) * (seen[1] if CUT_SILENT else 1.0)
    # on a print it has not seen the classifier may be wrong altogether: part of its belief goes
    # to every symbol alike, so that a clear reading of the text can outweigh it. That doubt is
    # only raised as far as the text could answer it: on a card too small to read, the classifier
    # is all there is, and its belief stands
    trusted = legibility(card_px, *CLEAR_TRUSTED)
    if _contradicts(text.centre, text.corner):
        # the text reader sure of two symbols at once (a blurred 7 read "2" at the centre, "7" in
        # the corner): one of its readings is wrong, and the shape readers decide which
        trusted = 0.0
    says = max(_says(text.centre, centre_heard, trusted), _says(text.corner, corner_heard, trusted))
    b = np.power((1 - OFF_PRINT * says) * p + OFF_PRINT * says / len(p), TEMPER_ALONE - (TEMPER_ALONE - TEMPER) * says)
    if not echoes(text):
        b *= likelihoods(CENTRE, text.centre, symbols, centre_heard, trusted)
    b *= likelihoods(CORNER, text.corner, symbols, corner_heard, trusted, fair_digits=CORNER_FAIR)
    if "6" in symbols and "9" in symbols and {text.centre[0], text.corner[0]} & {"6", "9"}:
        # the bar is a few pixels thick: on a card drawn small it is not seen, or seen wrong
        legible = card_px is None or card_px >= SIX_NINE_PX
        corner = text.corner[0] if text.corner[0] in ("6", "9") and text.corner[1] >= STRONG else None
        if legible and text.six_nine is not None and BAR_OTHERS < 1.0:
            # a bar under the numeral: a 6 or a 9, whatever else read what
            b = b * np.array([1.0 if s in ("6", "9") else BAR_OTHERS for s in symbols])
        b = _six_or_nine(b, symbols, text.six_nine if legible else None,
                         corner if legible and SIX_NINE_BY_CORNER else None)
    return b / b.sum()


# The shape readers sure of an action symbol (a skip, a reverse, a +2), the text reader of a numeral
# at the centre alone, its corner index not read as one: the two independent readers disagree, and
# the table is asked. Seen wrong and sure: an S reverse whose arrow heads a lamp's glare washed out,
# read "3" at the centre at 0.86 with the shape readers at 0.66 for the reverse (transplant, seed
# 2727: 0.80, sure). A numeral read again, clearly, in its corner is two readings, and stands; read
# there only fairly it does not: the same S reverse's small corner glyph read "3" at 0.55, its centre
# "3" at 0.97, the shape readers at 0.87 for the reverse (transplant on-black, seed 7373: 0.73, sure).
DISSENT = 0.5           # the shape readers' share for their action symbol from which they dissent
DISSENT_CAP = 0.55      # ... and the numeral's belief then at most this (below the app's "sure")
DISSENT_CORNER = STRONG  # a corner index read as the numeral at this confidence or more: it stands
ACTIONS = ("skip", "reverse", "draw2")
# The same where the shape readers are sure of another numeral: a print's 1 with a long flag read "7"
# at the centre at 0.95, the shape readers at 0.92 for the 1, its corner "1" at 0.79 (a synthetic
# close-up, seed 4101: 7 at 0.97, sure). Either reader may be the one a print fools (the 2024 print's
# italic 7 looks like a 1 to the classifier), so neither is taken without the table: only a corner
# index read clearly as the text's numeral settles it. 6 and 9 are left to their bar (_six_or_nine).
NUMERAL_DISSENT = 0.8   # the shape readers' share for a numeral from which they dissent (1.0: never)
# A skip or a reverse read from the shapes alone, the centre silent, the corner index read clearly
# as a numeral: a lamp's glare over the centre of a yellow 7 left the shape readers a white blob
# they took for a reverse, the corner read "7" at 0.98, and the card went out as a reverse, sure
# (real on-black photo under a glare blob). Two readers disagree: the table is asked.
# Not the numerals a glyph's own corner is read as: a skip's ring as "0", a reverse's S arrows as
# "5" (transplanted real skips and reverses, and a squashed hand-held reverse whose "5" at another
# aspect then went out sure, seed 4545)
CORNER_DISSENT = 0.95   # the corner numeral's confidence from which it dissents (0: never)
CORNER_LOOKALIKE = {"skip": ("0",), "reverse": ("5",)}
# A shape and the numerals its own drawing reads as, either way round: a skip's ring "0", a reverse's
# S arrows "5", or "3" without their heads. Where the shape readers dissent (DISSENT) for such a
# shape from the numeral read at the centre, the shape goes first, still unsure (DRAWN_FIRST): a
# classic reverse on a blue table read "3" at its centre at 0.93 with the shapes at 0.97 for the
# reverse, and the table was asked to confirm a 3
DRAWN_AS = {"skip": ("0",), "reverse": ("3", "5")}
DRAWN_FIRST = True
DRAWN_CORNER = True     # ... and below sure, still first, where the corner index reads that numeral too
# ... and where the shape readers give such a shape less than DISSENT but this much or more, and the
# corner index does not read the numeral clearly: a real reverse held with a finger over its lower
# arrow read "3" at its centre at 0.96, the shape readers 0.47 for the reverse, and went out as a 3
# at 0.97, sure (transplant on-black, seed 16262). Not a skip: under a lamp's spot a 0's ring is a
# skip's to the shape readers (0.31 for the skip, the centre "0" at 0.97: glare, seed 16262).
# From 0.25 (0.3 in session 43): a real yellow reverse held close, pushed out of the picture by a
# corner, read "3" at its centre at 0.97 with the shape readers 0.298 for the reverse, and went out
# as a 3 at 0.98, sure (dev2 on-black sweep, seed 17172). In the session's logs no 3 or 5 read at its
# centre alone had the shape readers at 0.2 or more for the reverse (a 3 at 0.2-0.25 once)
DRAWN_DISSENT = {"reverse": 0.25}


def shapes_dissent(symbols: list[str], shapes: np.ndarray) -> bool:
    """Whether the shape readers give an action symbol (ACTIONS) DISSENT or more of their belief."""
    top = int(np.argmax(shapes))
    return symbols[top] in ACTIONS and float(shapes[top]) >= DISSENT


def second_look(symbols: list[str], shapes: np.ndarray, text: TextEvidence | None) -> TextEvidence | None:
    """The text evidence with a centre read only by the second look at a silent centre (text.py
    BY_VALUE, SILENT_CLOSE) silent again where the shape readers give an action symbol DISSENT or
    more: closer in, or in V, a reverse's arrows without their heads can read "3" clearly (seen
    once in 348 transplanted real cards, seed 5757, at 0.98), while a numeral the first look missed
    (a classic 7 or 1) leaves the shape readers on numerals."""
    if text is None or not text.second_look:
        return text
    return replace(text, centre=(None, 0.0), second_look=False) if shapes_dissent(symbols, shapes) else text


def _numeral_dissent(symbols: list[str], shapes: np.ndarray, numeral: str, share: float | None = None) -> bool:
    """Whether the shape readers give a numeral other than `numeral` `share` (NUMERAL_DISSENT unless
    given) or more of their belief (6 against 9 excepted)."""
    top = int(np.argmax(shapes))
    other = symbols[top]
    return (other in DIGITS and other != numeral and {other, numeral} != {"6", "9"}
            and float(shapes[top]) >= (NUMERAL_DISSENT if share is None else share))


def _drawn_dissent(symbols: list[str], shapes: np.ndarray, numeral: str) -> bool:
    """Whether the shape readers' first symbol is one whose drawing reads as `numeral` (DRAWN_AS) and
    they give it its DRAWN_DISSENT or more."""
    top = int(np.argmax(shapes))
    shape = symbols[top]
    return shape in DRAWN_DISSENT and numeral in DRAWN_AS.get(shape, ()) and float(shapes[top]) >= DRAWN_DISSENT[shape]


def _corner_reads(text: TextEvidence, symbol: str) -> bool:
    """Whether the corner index reads `symbol` (a numeral, or a whole "+4") clearly (DISSENT_CORNER):
    a second reading of it."""
    return text.corner[0] == symbol and text.corner[1] >= DISSENT_CORNER


def dissent(symbols: list[str], shapes: np.ndarray, b: np.ndarray, text: TextEvidence | None) -> np.ndarray:
    """The belief `b` with its numeral held below sure where the shape readers (`shapes`) are sure
    of an action symbol (see DISSENT) or of another numeral (NUMERAL_DISSENT), or favour a shape
    whose drawing reads as that numeral (DRAWN_DISSENT), and the text reader read the numeral at the
    centre, and not clearly in its corner."""
    if text is None:
        return b
    top = int(np.argmax(b))
    numeral = symbols[top]
    corner_too = _corner_reads(text, numeral)
    action = shapes_dissent(symbols, shapes)
    lookalike = _drawn_dissent(symbols, shapes, numeral) and not corner_too
    if not ((DISSENT < 1.0 and action) or _numeral_dissent(symbols, shapes, numeral) or lookalike):
        return b
    shape = int(np.argmax(shapes))
    drawn = numeral in DRAWN_AS.get(symbols[shape], ()) and (action or lookalike)
    if numeral not in DIGITS or b[top] <= DISSENT_CAP or text.centre[0] != numeral:
        return b
    if corner_too:
        # read again in its corner the numeral stands, first; but not sure where it is the shape's
        # drawing, whose corner index carries the same drawing, small (a knock-off print's S reverse
        # read "5" at its centre at 0.96 and its corner at 0.99, the shape readers 0.81 for a
        # reverse: a 5, sure; a synthetic close-up, seed 10101)
        return _capped(b, top) if DRAWN_CORNER and drawn else b
    if DRAWN_FIRST and drawn:
        return _capped(b, shape)
    return _capped(b, top)


def corner_dissent(symbols: list[str], b: np.ndarray, text: TextEvidence | None) -> np.ndarray:
    """The belief `b` with its skip or reverse held below sure where the centre read no text and
    the corner index read clearly a numeral that glyph's corner does not look like (CORNER_DISSENT,
    CORNER_LOOKALIKE). Applied to the final belief: evidence weighed after it (the colours, the
    holes) would lift the cap again."""
    if text is None or not CORNER_DISSENT:
        return b
    top = int(np.argmax(b))
    glyph, corner = symbols[top], text.corner[0]
    if (glyph in CORNER_LOOKALIKE and text.centre[0] is None and corner in DIGITS
            and corner not in CORNER_LOOKALIKE[glyph] and text.corner[1] >= CORNER_DISSENT
            and b[top] > DISSENT_CAP):
        return _capped(b, top)
    return b


# A numeral read only by the second look at a silent centre (text.py BY_VALUE, SILENT_CLOSE) is one
# reader's word against the shape readers' where they favour another numeral, even without being
# sure of it: a yellow 0 half under a finger, its centre silent, read "5" in V at 0.88 while the shape
# readers gave the 0 0.48 and the corner read "0" at 0.48 went out as a 5 at 0.96, sure (a
# transplanted real card, seed 14141). The first look's clear numeral stands against shapes in doubt
# (NUMERAL_DISSENT); the second look's is held below sure unless its corner reads it clearly too.
# Applied to the final belief, as corner_dissent is. 6 and 9 are left to their bar.
SECOND_DISSENT = 0.3    # the shape readers' share for another numeral from which they dissent (1.0: never)


def second_look_dissent(symbols: list[str], shapes: np.ndarray, b: np.ndarray, text: TextEvidence | None) -> np.ndarray:
    """The belief `b` with its numeral held below sure where only the second look at the centre read
    it and the shape readers (`shapes`) favour another numeral by SECOND_DISSENT or more, its corner
    index not read clearly as it (see SECOND_DISSENT)."""
    if text is None or not text.second_look:
        return b
    top = int(np.argmax(b))
    numeral = symbols[top]
    if (numeral in DIGITS and text.centre[0] == numeral and b[top] > DISSENT_CAP
            and _numeral_dissent(symbols, shapes, numeral, SECOND_DISSENT) and not _corner_reads(text, numeral)):
        return _capped(b, top)
    return b


# A wild draw four that only the text reader gives, against shape readers that see a wild: a wild's
# oval half under a finger, its four quarters' edges read "4" at the centre at 0.98 (the plus taken
# as missed, PLUS_MISSED), the shape readers 0.56 for the wild, its four-colour area cut to 0.15 by
# the finger: a wild draw four at 0.96, sure (a transplanted real wild, seed 16161). Either reader
# may be the one fooled, and a wild against a wild draw four is the costliest misreading there is
# (four cards): the table is asked, unless the corner index reads "+4" clearly.
WILD_DISSENT = DISSENT  # the shape readers' share for the wild from which they dissent (1.0: never)


def wild_dissent(symbols: list[str], shapes: np.ndarray, b: np.ndarray, text: TextEvidence | None) -> np.ndarray:
    """The belief `b` with its wild draw four held below sure where the shape readers (`shapes`) give
    the wild WILD_DISSENT or more and the corner index does not read "+4" clearly (see WILD_DISSENT).
    Applied to the final belief, as corner_dissent is."""
    if text is None or "wild" not in symbols or "wild-draw4" not in symbols:
        return b
    top, shape = int(np.argmax(b)), int(np.argmax(shapes))
    if (symbols[top] == "wild-draw4" and b[top] > DISSENT_CAP and symbols[shape] == "wild"
            and float(shapes[shape]) >= WILD_DISSENT and not _corner_reads(text, "wild-draw4")):
        return _capped(b, top)
    return b


# And the other way round: a wild that only the shape readers give, and they unsure of it (under
# WILD_ALONE), on a face without a wild's big four-colour shape (four_colour_area under WILD_AREA's
# start: the four small cards of a wild draw four, or a wild of lettering only) and nothing read on
# it. Readers that never saw the filled-oval print read its mirrored wild draw four (four mini cards
# on black, the "+4" unread) as a wild at 0.96, sure, their share for the wild 0.31-0.44 (bench
# mirrored on-black, --without-print filled-oval, seed 17491): the colours had ruled out every card
# of one colour, and the wild took what the wild draw four's unfamiliar drawing did not.
WILD_ALONE = DISSENT


def weak_wild(symbols: list[str], shapes: np.ndarray, b: np.ndarray, text: TextEvidence | None,
              area: float) -> np.ndarray:
    """The belief `b` with its wild held below sure where the shape readers give it under WILD_ALONE,
    the four-colour `area` is under WILD_AREA's start and the text reader read nothing clearly (see
    WILD_ALONE). Applied to the final belief, as wild_dissent is."""
    if text is None or "wild" not in symbols or "wild-draw4" not in symbols:
        return b
    top = int(np.argmax(b))
    if (symbols[top] == "wild" and b[top] > DISSENT_CAP and float(shapes[top]) < WILD_ALONE
            and area < WILD_AREA[0] and not (reads_clearly(text.centre) or reads_clearly(text.corner))):
        return _capped(b, top)
    return b


# A coloured +2 whose centre the text reader reads "+4" clearly: a print's wild draw four lettered
# "+4" on a black field (no drawn cards), under a blue or green cast, its field read as one colour,
# its "+4" read at 0.998 while the shape readers saw a +2's plus (0.96-0.98): a blue +2 at 0.76, sure
# (synthetic cut-outs, seed 777). No +2 read right among the cut-outs at four seeds and the real photos
# of both prints had "+4" read at its centre: their centres hold drawn cards or "+2". The colours
# and the text disagree on a costly card (four cards against two): the table is asked, unless the
# corner index reads "+2" clearly.
PLUS_FOUR_DISSENT = True


def plus_four_dissent(symbols: list[str], b: np.ndarray, text: TextEvidence | None) -> np.ndarray:
    """The belief `b` with its +2 held below sure where the text reader read "+4" clearly at the
    centre and the corner index does not read "+2" clearly (see PLUS_FOUR_DISSENT). Applied to the
    final belief, as wild_dissent is."""
    if text is None or not PLUS_FOUR_DISSENT or "draw2" not in symbols:
        return b
    top = int(np.argmax(b))
    if (symbols[top] == "draw2" and b[top] > DISSENT_CAP and text.centre[0] == "wild-draw4"
            and text.centre[1] >= STRONG and not _corner_reads(text, "draw2")):
        return _capped(b, top)
    return b


def _capped(b: np.ndarray, top: int) -> np.ndarray:
    """The belief with symbol `top` at DISSENT_CAP, the rest scaled in proportion: that symbol goes
    first (the first reading stays first, where it is `top`), below sure."""
    rest = 1.0 - float(b[top])
    if rest <= 0.0:
        out = np.full(len(b), (1.0 - DISSENT_CAP) / max(1, len(b) - 1))
    else:
        out = np.asarray(b, np.float64) * ((1.0 - DISSENT_CAP) / rest)
    out[top] = DISSENT_CAP
    return out


# A wild draw four's four colours are small (mini cards, a "+4"); a big four-colour area is a wild's
# oval, circle or field. Measured (vision/read/colour.four_colour_area): wilds 0.44-0.80 where the
# print has such a shape, wild draw fours at most 0.19, on renders of six print families and real
# photos of two prints. A wild of lettering only ("WILD") covers little, so a small area says nothing.
WILD_AREA = (0.25, 0.40)    # from no evidence to full evidence against the wild draw four
WILD_AREA_DRAW4 = 0.1       # L(a big four-colour area | wild draw four): a print we have not seen may have one
# Any four-colour area worth the name shows all four colours, as no card of one colour does (session
# 38). Measured (four_colour_area, the most any look at a photo gave): the 283 coloured cards of the
# real photos at most 0.0012 (at 2.5x exposure and at half saturation too), 382 synthetic close-ups of
# the six prints at most 0.029 (one green 1; the next 0.0012); the real wilds 0.136 and more, the
# synthetic wild draw fours 0.017 and more where not 0. A knock-off wild draw four (four mini cards on
# black, no "+4" printed; 0.16) had read as a yellow 1, the text reader taking the stack of minis
# for a "1" at 0.99.
FOUR_COLOURS = 0.06         # from this four-colour area, the face is a wild's or a wild draw four's ...
FOUR_COLOURS_ONE = 0.2      # ... L(such an area | a card of one colour): an outline that took in
                            # neighbours of other colours may show some of all four


def four_colour_evidence(symbols: list[str], b: np.ndarray, area: float) -> np.ndarray:
    """The belief with the four-colour area taken into account: any area of FOUR_COLOURS or more is
    a wild's or a wild draw four's, not a card of one colour's; a big one is a wild's, not a wild
    draw four's (the classifier took the classic print's "WILD" over its oval for a +4, sure of it)."""
    if "wild-draw4" not in symbols:
        return b
    b = np.asarray(b, np.float64).copy()
    if area >= FOUR_COLOURS:
        wilds = [symbols.index(s) for s in ("wild", "wild-draw4") if s in symbols]
        keep = b[wilds].copy()
        b *= FOUR_COLOURS_ONE
        b[wilds] = keep
    t = float(np.clip((area - WILD_AREA[0]) / (WILD_AREA[1] - WILD_AREA[0]), 0.0, 1.0))
    b[symbols.index("wild-draw4")] *= 1.0 - (1.0 - WILD_AREA_DRAW4) * t
    return b / b.sum()


# The +2 is the wild draw four's sibling in every print: cards drawn (two or four), or a "+" and a
# digit. On a card of one colour, what the shape readers believe of a wild draw four is a +2's: of
# 276 readings of cards read as of one colour whose shape readers put the wild draw four first (the
# real photos of both prints as the bench alters them, logs of sessions 42-44, many of them the
# same photos under other seeds), 264 were +2s, 7 5s, 2 reverses. The filled-oval print's +2 under
# a thumb or cut by the picture's edge, read as a wild draw four, a 4 or a 7 by the shape readers
# and silent to the text reader, went to the reverse (hand-held sweep, cut cards, seeds 17172-17174):
# the wild draw four's share had gone nowhere
# A share under SIBLING_FROM says nothing of a +2: where the shape readers gave the wild draw four
# less than 0.15 (not first), the card was a 4 (500 readings), a 5 (269), a +2 (212), ...; from 0.15,
# a +2 (414 of 435). Moving a few hundredths from below it made a mirrored 5 read as a "2" unsure
# rather than sure, and the mirror check no longer took it back to its 5 (tests/test_vision_mirrored.py)
COLOURED_SIBLING = {"wild-draw4": "draw2"}
SIBLING_FROM = 0.15


def coloured_sibling(symbols: list[str], b: np.ndarray, one_colour: float) -> np.ndarray:
    """The shape readers' belief `b` with each wild symbol's share (COLOURED_SIBLING), from
    SIBLING_FROM, moved to its coloured sibling as far as the card is of one colour (`one_colour`,
    0..1: the share by which the recognizer scores the wilds down)."""
    one_colour = float(np.clip(one_colour, 0.0, 1.0))
    pairs = [(symbols.index(w), symbols.index(c)) for w, c in COLOURED_SIBLING.items()
             if w in symbols and c in symbols and b[symbols.index(w)] >= SIBLING_FROM]
    if not pairs or one_colour <= 0.0:
        return b
    b = np.asarray(b, np.float64).copy()
    for w, c in pairs:
        moved = one_colour * b[w]
        b[c] += moved
        b[w] -= moved
    return b


# Every wild is printed in the four colours: a big oval, circle or field of them, or at least the
# four letters of "WILD". Measured (session 19, the share of the face in the scarcest two colours,
# colour.scarcest_two): 360 rendered wilds of six print families seen by a camera
# (augment.camera_view) 0.027 and more; the lettered ones of two families drawn
# clean (80) 0.017 and more; the 7 real wilds of two prints 0.24 and more. A dark disc with a
# pale rim on a table (a coaster, cut by the picture's edge) passed verify as a black face in a white
# margin and read "wild" sure at 0.0006. A wild draw four may be printed with no colour at all.
# Session 20: a thumb over a pale desk, outlined as a card running off the picture, read "wild" at
# 0.47-0.58 ahead of the card it held (two of 522 transplanted pictures, seed 3131): 0.0052 and
# 0.0067 (skin reads yellow and red). The lowest wild measured again: 0.0171 (30 clean renders
# of each family), more than twice 0.008.
NO_COLOURS = 0.008          # below this share in the scarcest two colours, the face is no wild's ...
NO_COLOURS_WILD = 0.1       # ... L(so few colours | wild): a print we have not seen may be paler still


def few_colours_evidence(symbols: list[str], b: np.ndarray, scarcest_two: float) -> np.ndarray:
    """The belief with the face's two scarcest colours taken into account: a face nearly without
    them is no wild's (see NO_COLOURS)."""
    if "wild" not in symbols or scarcest_two >= NO_COLOURS:
        return b
    b = np.asarray(b, np.float64).copy()
    b[symbols.index("wild")] *= NO_COLOURS_WILD
    return b / b.sum()


# A skip is a ring cut by a bar (two holes in one shape), a reverse two arrows (none): holes.py.
# Measured (session 20), the largest shape in the centre with two holes: skips 35 of 48 renders of
# six print families and 24 of 28 real ones; reverses 0 of 48 and 0 of 28. The likelihoods are
# rounded towards saying less: a print we have not seen may draw a reverse with a hole or two.
# Session 31, every symbol (the largest centre shape with two holes): on the 296 real photos skips 25
# of 28, 8s 18 of 20, 5s 2 of 21, 9s 2 of 20, none of the other 200 cards; on renders of the six
# families through the camera model (6 a symbol and family) skips 24 of 36, 8s 8, wild draw fours 5
# (a print's plus shapes), none of the other 432. Rounded towards saying less, as above: a print we
# have not seen may draw a numeral or an action with two holes now and then.
HOLES = True
TWO_HOLES = {"skip": 0.75, "8": 0.75, "5": 0.25, "6": 0.25, "9": 0.25, "wild-draw4": 0.25,
             "reverse": 0.03, "*": 0.08}        # L(two holes | symbol)
NOT_TWO_HOLES = {"skip": 0.3, "reverse": 1.0}   # L(another count, or no shape | symbol)
# L(two holes in a shape less solid than a ring | symbol) (holes.RING_SOLIDITY): a 9, a 5, an 8 now
# and then; a skip or a reverse as seldom as any other symbol (session 43: a washed-out classic
# reverse, its two arrows' black outline one shape with two holes, had gone to a skip)
TWO_HOLES_OPEN = {"8": 0.25, "5": 0.25, "6": 0.25, "9": 0.25, "wild-draw4": 0.25, "*": 0.08}


def holes_evidence(symbols: list[str], b: np.ndarray, holes: int | None, ring: bool = True) -> np.ndarray:
    """The belief with the centre shape's holes (holes.centre_shape) taken into account: two holes
    in a round shape (`ring`) speak for a skip (or an 8) against every other symbol, by TWO_HOLES;
    in a shape that is no ring, for a 5, 6, 8 or 9 (TWO_HOLES_OPEN); any other count only against
    the skip, as likely as the reverse and every other symbol to show it (a 0 has one hole, a
    reverse none)."""
    if not HOLES or "skip" not in symbols or "reverse" not in symbols:
        return b
    b = np.asarray(b, np.float64).copy()
    if holes == 2:
        row = TWO_HOLES if ring else TWO_HOLES_OPEN
        b *= np.array([row.get(s, row["*"]) for s in symbols])
    else:
        b[symbols.index("skip")] *= NOT_TWO_HOLES["skip"] / NOT_TWO_HOLES["reverse"]
    return b / b.sum()


def _six_or_nine(b: np.ndarray, symbols: list[str], underlined: str | None,
                 corner: str | None = None) -> np.ndarray:
    """The text says 6 or 9, which read each other upside down at the centre. The bar under the
    numeral decides where it was seen, and so does a corner index read clearly (`corner`): each
    corner prints its index upright in its own half-turn, so a 6 reads "6" there either way up
    (244 clear corner readings of 6s and 9s, real and rendered, none wrong). Without either the
    classifier's split between the two is no evidence (on prints it has not met it was wrong at
    0.96), so neither is sure."""
    i6, i9 = symbols.index("6"), symbols.index("9")
    pair = b[i6] + b[i9]
    odds6, told = 1.0, False
    for said, share in ((underlined, SIX_NINE_BAR), (corner, SIX_NINE_CORNER)):
        if said is not None:
            odds6 *= share / (1.0 - share) if said == "6" else (1.0 - share) / share
            told = True
    if told:
        share6 = odds6 / (1.0 + odds6)
    else:
        share6 = SIX_NINE_GUESS if b[i6] >= b[i9] else 1.0 - SIX_NINE_GUESS
    b = b.copy()
    b[i6], b[i9] = pair * share6, pair * (1.0 - share6)
    return b
