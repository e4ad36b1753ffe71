"""Locate, rectify and identify every card in a frame: the three stages put together.

A card's confidence is the symbol classifier's probability times the colour vote's share, and a
colour/symbol contradiction (a coloured card read as a wild, a wild without its black and colours)
lowers it, so that a doubtful card is reported as doubtful and the table confirms it.
"""
from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .read.net import agree, load_net
from .read.symbols import OTHER, SymbolModel, glyph_features, glyph_image
from .read.colour import (card_colour, clip_checked, colour_votes, four_colour_area, palette_for, scarcest_two,
                          scene_balance)
from .read.fuse import (DIGITS, DRAWN_AS, STRONG, clear_symbols, coloured_sibling, corner_dissent, dissent,
                         few_colours_evidence, four_colour_evidence, fuse, holes_evidence, plus_four_dissent,
                         read_twice, reads_clearly, second_look, second_look_dissent, shapes_dissent, silent,
                         weak_wild, wild_dissent)
from .read.calibrate import BELOW_MAX, ConfidenceMap
from .read.glare import centre_glare
from .read.holes import RING_SOLIDITY, centre_shape
from .read.text import CARD_H as TEXT_H, CARD_W as TEXT_W, TextEvidence, places_in_view
from .errors import ModelError, models_dir
from .locate import Quad, find_cards, quad_iou
from .locate.contour import cards_cut_at_edges, white_masks
from .locate import covered, inside, occluder, relook
from .locate.around import outlines_around
from .locate.ends import place_ends
from .locate.quad import CARD_ASPECT, inside_share, side_lengths, to_card_shape
from .locate.detector import INSIDE, share_inside
from .locate.edges import snap_to_edges
from .locate.verify import CardLook, verify_once
from .rectify import warp_card
from .rectify.aspect import ASPECTS, best_of, is_square, unstretched_size

MODEL_FOR_DECK = {"uno": "uno-symbols.npz", "ono": "uno-symbols.npz",
                  "dino2": "dino2-symbols.npz", "snake-cup": "snake-cup-symbols.npz"}
# the symbol network beside the HOG classifier (vision/read/net.py): for the decks of many prints
NET_FOR_DECK = {"uno": "uno-symbols-net.onnx", "ono": "uno-symbols-net.onnx"}
# and a second network for cards seen small: the first one's training renders start at 38 pixels
# wide, and a webcam over a whole table shows cards 20-60 wide (models/README.md, the far network)
FAR_NET_FOR_DECK = {"uno": "uno-symbols-net-far.onnx", "ono": "uno-symbols-net-far.onnx"}
# a card narrower than this in its picture (short side, pixels) is read by the far network: where the
# shipped network's training renders start. On a print neither network saw (both trained without
# circle-2024) the far one reads that print's cards 18-38 pixels wide better, 38-48 worse; the far
# cells at four seeds read 702 of 752 cards right from 38, 701 from 40, 702 from 48 (685 without)
FAR_CARD_PX = 38.0
COLOURED_MIN = 0.15     # the share of a card's face in ink under which it has no colour of its own
SCENE_BALANCE = True    # a photo where nothing was found is read again white-balanced as a whole
BALANCED_UNSURE = True  # ... and what it reads then goes to the table unsure
WASHED_OUT = True       # a card with no colour at the bar is looked at again with a faint print's bar
DARK_INK = True         # ... and then with dark ink told from black by its chroma (colour.DARK_CHROMA)
HUE_SURE = 4.0          # hue units inside its colour's range beyond which a card's colour is not in doubt
CONFIRM_THRESHOLD = 0.6  # below this a play is sent unconfirmed (tuned on synthetic + dev photos)
TEXT_DECKS = ("uno", "ono")   # decks whose cards print numerals, +2 and +4 for the text reader
TEXT_CACHE = 8           # cards whose text evidence is kept (the pile, a few cards around)
TEXT_SAME = 5.0          # mean level difference of two thumbnails of a card under which it is the same
TEXT_PLACE = 0.04        # ... and its corners moved less than this share of its width
THUMB_FLOOR = 32.0       # the least paper level a thumbnail is stretched from (a black frame is not
                         # stretched into noise)
WILD_COLOURED = 0.10     # the coloured share from which a four-coloured "back" is a wild (UNO family)
WILD_SHARE = 0.05        # ... and the share of the scarcest of its four colours (UNO family): a blurred
                         # wild's dark green quadrant took 0.07 under a warm lamp; the detector's backs
                         # of 60 synthetic scenes at most 0.001 (a back has two colours), real wilds 0.19+
RED_BACKS = True        # a verified "back" of one colour, not red, is a UNO family face (_face_not_back)
ONE_COLOUR = 0.6        # ... one colour: this share of its coloured pixels
UNSTRETCH = True        # a square photo is read again at the usual camera aspects (rectify/aspect.py) ...
UNSTRETCH_SURE = True   # ... also when every card of it read sure (False: only when one did not)
MIRRORED = True         # a photo's card read unsure, or read sure as a 2 or a 5, is read mirrored back too (_mirror_checked)
MIRROR_TWINS = {"2": "5", "5": "2"}   # a numeral that reads sure as the other mirrored ...
TWIN_GAP = 0.1          # ... held below sure (BELOW_MAX) where its mirror reads that other numeral sure,
                        # and not this much less or more surely (the readers' own confidence)
TAUGHT_MIRROR = True    # a taught deck's card read under TAUGHT_MIRROR_BELOW is matched mirrored back too (_taught_mirrored) ...
TAUGHT_MIRROR_BELOW = 0.8   # (teach.reader.ALONE) ...
TAUGHT_MIRROR_LEAD = 0.2    # ... and goes as that card, unsure, where it matches it sure and by this much more confidently
TWIN_TOLD = True        # ... but not read mirrored back where its centre and its corner index both read it clearly:
                        # a card mirrored shows its index at the other top corner, so the corner read (the top
                        # left) is blank (real photos: 42 of 42 sure 2s and 5s read so as they are, 0 of 2 mirrored)
MIRROR_BOTH = True      # a card read unsure taken mirrored back only where its centre and its corner
                        # read its symbol
NO_TEXT = TextEvidence((None, 0.0), (None, 0.0))
MIRROR_SHAPES = ("skip", "reverse")   # a shape read sure, no text read clearly, has its centre read mirrored back,
                        # and is asked where that reads the numeral of another card
MIRROR_NUMERAL = True   # ... and where it does, the card is read whole mirrored back, and goes, unsure, as
                        # that numeral where that reading is it and its shape readers favour it; so too a
                        # skip or reverse read unsure
MIRROR_DRAWN = True     # no numeral taken mirrored back that the shape readers' shape reads as (DRAWN_AS)
MIRROR_SHAPE_BACK = True  # a card read as a numeral by the shape readers alone (no text read clearly) goes, unsure, as the
                        # shape read MIRROR_LEAD likelier mirrored back, where the numeral is that shape's drawing (DRAWN_AS)
MIRROR_SILENT = 0.1     # a card read unsure both ways, no text read clearly either way, goes, unsure, as read mirrored
                        # back where its readers' confidence there is this much above the card's as it is (0: never)
MIRROR_LEAD = 0.25      # a card read unsure both ways goes, unsure, as read mirrored back where its readers'
                        # confidence there is this much above the card's as it is and the text reads its
                        # symbol there (a mirrored draw two read as a reverse at 0.21, its corner "+2"
                        # mirrored back at 0.96); the 294 real photos as they are read the same
WORK_SIDE = 2048        # pixels: a longer picture is read shrunk to this long side (read_all), as a longer
                        # photo file is decoded (vision/imageio.py MAX_SIDE)
WHOLE = True            # a card the picture cuts at one side is read at a card's proportions (quad.to_card_shape)
ENDS = True             # ... and one it cuts at both ends, placed from its field's end in view (locate/ends.py)
TEXT_TELLS = True       # a taught deck's unsure reading matched again among the cards of a symbol the text
                        # reader read clearly (_identify; fuse.clear_symbols)
INK_TELLS = True        # ... and, on a deck drawn on white stock, where the face's ink is clearly of another colour
INK_CLEAR = 0.8         # ... than the reading's, among that colour's cards: this share of its coloured pixels (_ink_told)
INKLESS_NONE = True     # on a deck drawn on white stock, a face showing no coloured ink is no coloured card
CORNER_TELLS = True     # a taught 6 or 9 whose twin was taught too, renamed by its corner index read clearly (_corner_told)
SMALL_CARD = 0.15        # a card whose short side is under this share of the picture's is small ...
TINY_CUT = 0.06          # a face under this share of the picture's short side that the picture cuts is
                         # no card: too few pixels of too little of it (noise at a picture's corner
                         # verified as a 21 x 28 px card, two thirds in view, at the closer look)
IN_PICTURE = 0.98        # ... the share of a quad's area in the picture from which it is not cut
RELOOK = True           # a face under relook.RELOOK_PX outlined again from its neighbourhood enlarged (photos; the UNO
                        # family's built-in readers): far tables cells 702 -> 715 of 752 right, none wrong and sure (session 77)
RELOOK_DECKS = ("uno", "ono")
FAR = (4.0, 3.0)        # the detector's looks from farther still (a card filling the picture) ...
FAR_UNVERIFIED = True   # ... also when faces were found but none of their outlines verified
FAR_WEAK = 0.9          # ... and when none verified at this score or more (0: only when none verified)
ZOOM_IN = 0.5            # ... and when all are, the detector looks again at twice its scale
CLOSER_WEAK = 0.9        # a photo with a face outlined under this verify score is looked at at twice the detector's
                         # scale too (0: only where an outline did not verify): a blurred pile's top card, outlined
                         # askew from the coarse looks at 0.89 (docs/vision.md; seeds 17511 and 17521: 9 more
                         # right, 3 fewer, none wrong and sure)
FIRST_ENOUGH = 0.95      # a card held close: no look from twice as far when every face of the first look has an
                         # outline verified this well (on 3,456 readings at seed 9999: 2 more right, 6 fewer sure,
                         # none wrong and sure; the 296 real photos read the same cards, in 0.69 of the time;
                         # bench/vision_speed.py's identify 0.91-0.95 at the median, 0.87 at p95)
FACE_LOOK = True         # a deck of another border is looked for by its faces too (_faces_of)
BORDER_SETTLED = 0.9     # ... and on a deck of another border, when one verified under this score
WHITE_CONTOURS = True    # a taught deck drawn on white stock is looked for by its white contours too ...
WHITE_CONTOUR_SCORE = 0.3  # ... down to this contour score (contour.find_cards' is 0.45)
WHITE_EDGE_CUT = True    # ... and by those contours cut along the picture's edges (contour.cut_at_edges)
TAUGHT_LOCAL = True      # a taught deck's unsure reading is checked against the taught photos' keypoints
                         # (teach/local.py): the one card of its colour whose photo they clearly match ...
TAUGHT_LOCAL_SURE = 0.9  # ... is the reading, at least this sure
TAUGHT_LOCAL_OVERRULE = 40   # ... and replaces another card read, unsure, only with this many inliers
TAUGHT_LOCAL_ACROSS = False  # ... even where that card is of another colour than read: no, keypoints are blind to
                             # colour (a hand-drawn blue give, taught from an outline a finger cut, had its other photo
                             # read as the orange give, sure; the bench's rows read the same either way, session 65)
TAUGHT_LOCAL_PARTLY = True   # ... and where some cards of the colour were not taught too (never sure then)
TAUGHT_LOCAL_UNSURE_OVERRULE = 15   # another card of the colour read, matched with this many inliers, goes first unsure ...
TAUGHT_LOCAL_UNSURE_CONF = 0.5      # ... at this confidence
TAUGHT_LOCAL_INK = True  # ... and made sure only where the face's ink shows the colour read (_ink_shows): an
                         # orange give never taught, read as the red give at 0.20, matched the red give's keypoints
                         # (one hand's lettering) and went out sure (an inked DINO 2 deck of another hand, session 66)
TAUGHT_FACE = True       # a "back" the taught deck knows closely is a face (read_all, _taught_face) ...
TAUGHT_NEAR = 3.0        # ... this near one of its cards (a card's own photos: up to deck.FAR_START, 2.5)
TAUGHT_FACE_LOCAL = True   # ... or farther, to TAUGHT_FACE_FAR, where its keypoints match a taught photo of the colour
TAUGHT_FACE_FAR = 5.0      # ... it was read as clearly (_face_by_keypoints)
TAUGHT_BACK = True       # an outline the taught deck reads as its taught back is a back, not a card (deck.Match.is_back)
PIECE = 0.8              # an outline inside a back and under this share of its area is a piece of its drawing;
                         # one holding a back and over 1 / PIECE of its area, a patch of table round it (_backs_apart)
BACK_SIZE = 2.0          # a taught back more than this many times larger or smaller than a card read sure is none
SIBLINGS = True          # a UNO family card of one colour has the wild draw four's belief as a +2's (fuse.COLOURED_SIBLING)
GLARE = True             # a UNO family card whose centre lies under glare (read/glare.py) has its centre's holes not counted,
GLARE_SHARE = 0.05       # ... from this share of its centre, and goes unsure unless its text reads its symbol clearly;
GLARE_SILENT = True      # ... and its centre's silence says nothing against a numeral, as a place out of view does;
COVERED = True           # a photo's card lying partly under another card (or the draw pile) is read again with the
                         # part the cards above cover painted out (locate/covered.py), its readers not shown their symbol
OCCLUDED = True          # ... and a photo's card read unsure with something that is not a card across its margin (a
                         # hand, a sleeve: locate/occluder.py) read again with that painted out, still unsure
INSIDE_CARD = True       # a photo taken inside one card's coloured field (its margin cut off: locate/inside.py) has the
                         # readings of that colour found within it held unsure (the print's oval outlined as a card),
                         # and so has a photo where nothing was found whose card runs off its edges ...
INSIDE_LEAST = 0.3       # ... and is read as one card, padded with its paper's white, where that reads this surely
INSIDE_STRONG = 0.9      # ... in place of a reading of another ink found within it where it reads this surely
                         # (of its oval, where it reads INSIDE_LEAST; always unsure)
INSIDE_PIECES = True     # ... and so has one whose card fills it, several unsure readings of its colour found within one
INSIDE_TAUGHT = True     # ... with a deck taught too (of the UNO family, edged in white)
INSIDE_WEAK = True       # ... the picture read whole stands against readings all under INSIDE_LEAST too
INSIDE_WEAK_FOREIGN = True   # ... and a reading of another colour under INSIDE_LEAST is no other card
INSIDE_APART = True      # ... and so has one where those readings lie apart, each ONE_LARGE (a +2's two drawn cards)
INSIDE_WILD = True       # ... and one inside a wild's black field (_inside_wild), its band this share dark or more
INSIDE_DARK = 0.25       # (inside.dark_share; the real wilds' cut and 4:3 inside frames 0.31-0.71) ...
INSIDE_DARK_MAX = 0.85   # ... to this share (the bench's table scenes from above on a dark table: 0.9 and more) ...
INSIDE_FOUR = 0.015      # ... and the picture this share or more in its two scarcest colours (colour.scarcest_two: the
                         # real wilds' inside frames 0.063 and more, renders of six prints' 0-0.33; the 174 photos of
                         # cards on a dark table or on black, but their wilds, 0.004 at most)
ONE_LARGE = 0.05         # ... what was found inside it, one thing at least this share of the picture (_one_large)
INSIDE_PIECE = 0.4       # a picture a card fills to its edges: a sure reading of its ink on less of it than this is a piece (1: off)
INSIDE_DARK_NONE = 1.0   # ... where nothing at all was found, to this share
INSIDE_TEXT_FOUR = True  # ... and where nothing was found, a picture read whole as a +4, its text "+4" clearly, without colours
INSIDE_WILD_NONE = True  # ... and where nothing was found, its coloured ink one thing in its middle (inside.one_ink_blob)
ONE_LARGE_WILD = 0.03    # ... inside a wild's field, this share: one of a +4's drawn cards in a 4:3 photo, 0.047
INK_LOOK = (120, 186)    # pixels (w, h) a reading's card is compared with the band's ink at
GLARE_SHAPES = 0.5       # ... a symbol then told by its corner alone is sure only where the shape readers give it this
TAUGHT_AROUND = True     # a taught deck's unsure reading has its card looked for again round its outline (locate/around.py)
AROUND_MOST = 2          # ... for this many unsure readings of a photo at most (1 until session 73: the looks inside an
                         # outline made the second worth it, held-out inked UNO hands 809 -> 813 of 864, 3-7% more CPU) ...
AROUND_LEAD = 0.05       # ... and an outline found there that reads this much more surely takes its place (_taught_around)
AROUND_WEAK = 0.1        # ... and names another card only where the reading was this weak (its outline matched no taught
                         # photo: not the card's); a reading surer than it, its outline moved a little, may be another card
AROUND_UNREAD = 2        # ... and where nothing was read, round this many of the faces found whose outlines did not verify
AROUND_OVERLAP = 0.5     # ... one of the two outlines this much inside the other (the same card, not one beside it)
AROUND_SAME = 0.9        # ... an outline overlapping one read already this closely is not read again
PIECE_OF_CARD = 0.35     # a taught deck's reading inside another one read, under this share of its area, is a piece of
                         # that card (a letter of its name), not a card: cards of one deck are one size ...
PIECE_OUTER = 0.5        # ... where that one reads at least this share as surely (not a patch of table round a card)


def _tiny_and_cut(quad: np.ndarray, shape: tuple) -> bool:
    """A face too small to be read (TINY_CUT) that the picture cuts: the issue's smallest card is 5%
    of the picture's short side, whole."""
    return (float(side_lengths(quad).min()) < TINY_CUT * min(shape[:2])
            and inside_share(quad, shape) < IN_PICTURE)


def load_symbol_model(path: str | Path) -> SymbolModel:
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"symbol model not found: {path} (restore it from git, or train one with "
                         f"`tableref train`, see models/README.md)")
    try:
        return SymbolModel.load(path)
    except Exception as e:  # a truncated or foreign file: numpy and zipfile raise many types
        raise ModelError(f"symbol model {path} cannot be read ({e.__class__.__name__}: {e}); "
                         f"restore it from git or retrain it") from e


def confidence_map_for(model_path: Path) -> Path:
    """The confidence map fitted for a symbol model (models/uno-symbols.npz -> models/uno-confidence.json)."""
    stem = model_path.name.removesuffix(".npz").removesuffix("-symbols")
    return model_path.with_name(f"{stem}-confidence.json")


def load_confidence_map(model_path: Path) -> ConfidenceMap:
    """The symbol model's confidence map (read/calibrate.py), the identity where it has none."""
    path = confidence_map_for(model_path)
    try:
        return ConfidenceMap.load(path)
    except (ValueError, OSError) as e:   # json's errors are ValueErrors too
        raise ModelError(f"confidence map {path} cannot be read ({e}); restore it from git or fit it "
                         f"again with `tableref train --confidence`") from e


WILD_LEVEL = 0.4   # a wild's colours against its paper: at least this bright (the real wilds' 0.84-0.99)


def four_coloured(card_bgr: np.ndarray, min_share: float = 0.15, min_coloured: float = 0.25) -> bool:
    """All four colours in the card's pixels, each a fair share, over a good part of the card, and
    printed bright: a wild's face. (Measured on synthetic backs of every deck: none passes; the real
    wilds do.) Bright: a black phone on a pale desk, taken for a back, showed all four colours in its
    JPEG's chroma noise at a fifth of the desk's brightness and was read as a wild, sure."""
    v = colour_votes(card_bgr)
    return v["coloured"] >= min_coloured and min(v["votes"].values()) >= min_share and v["level"] >= WILD_LEVEL


@dataclass
class Reading:
    card: str
    confidence: float      # the chance that the reading is right (read/calibrate.py)
    quad: Quad
    score: float | None = None   # the readers' own confidence before calibration (None: the same)

    @property
    def raw(self) -> float:
        """The readers' own confidence."""
        return self.confidence if self.score is None else self.score

    def rank(self) -> tuple[float, float]:
        """Most confident first: by confidence, then by the readers' own (calibration pools ranges of it)."""
        return (self.confidence, self.raw)

    @property
    def sure(self) -> bool:
        """True when the app takes this reading without asking the table to confirm it."""
        return self.confidence >= CONFIRM_THRESHOLD

    def as_json(self) -> dict:
        return {"card": self.card, "confidence": round(self.confidence, 3), "sure": self.sure,
                "polygon": self.quad.polygon()}


LOCATORS = ("detector", "contour")


class Recognizer:
    """`locator`: "detector" finds cards with the trained card detector (models/card-detector.onnx),
    "contour" with the white-border contours of vision/locate/contour.py (no model). The detector is the
    default: it holds on light and patterned tables where a white border does not stand out."""

    def __init__(self, deck: str, model_path: str | Path | None = None, locator: str = "detector",
                 detector_path: str | Path | None = None, text: bool | None = None, taught=None,
                 net_path: str | Path | None | bool = None, far_net_path: str | Path | None | bool = None):
        from referee import load_deck
        self.deck = load_deck(deck)  # KeyError with the deck list for an unknown deck
        if model_path is None:
            if deck not in MODEL_FOR_DECK:
                raise KeyError(f"no recognizer model for deck {deck!r} yet; decks with one: "
                               f"{', '.join(sorted(MODEL_FOR_DECK))}")
            model_path = models_dir() / MODEL_FOR_DECK[deck]
        self.model = load_symbol_model(model_path)
        # a second symbol reader for the decks of many prints (models/ or `net_path`; False: none)
        self.net = None
        # the far network goes with the shipped one: a network given in its place (a candidate, one
        # trained without a print) reads every size unless a far network is given too
        self.far_net = None
        if far_net_path is None and net_path is None and deck in FAR_NET_FOR_DECK:
            far_net_path = models_dir() / FAR_NET_FOR_DECK[deck]
        if net_path is None and deck in NET_FOR_DECK:
            net_path = models_dir() / NET_FOR_DECK[deck]
        if net_path:
            self.net = load_net(net_path)
            if far_net_path:
                self.far_net = load_net(far_net_path)
        if locator not in LOCATORS:
            raise ValueError(f"unknown locator {locator!r}; one of {', '.join(LOCATORS)}")
        self.locator = locator
        # what the deck's cards look like to verify_quad: every UNO print's border is as wide all
        # along; our designed decks are printed at home and cut by hand (a taught deck adds its own
        # border and faces below)
        self.look = CardLook(even_border=deck in TEXT_DECKS)
        # with white faces, look for them by their white contours too (WHITE_CONTOURS); off while
        # teach asks whether a deck's faces are white (faces.learn_white_faces: a sheet of paper the
        # contours find beside a card is no evidence either way)
        self.white_contours = True
        self.located: dict | None = None   # (picture, look) -> its outlines, within locating_once
        self.detector = None
        if locator == "detector":
            from .locate.detector import CardDetector
            self.detector = CardDetector(detector_path)
            self.detector.look = self.look
        self._wild_symbols = {c.symbol for c in self.deck.cards.values() if c.color is None}
        # a UNO family wild draw four is black with four small coloured cards, and the detector may
        # take it for a back: its four colours cover 0.1-0.2 of it, as some wilds' small ovals do.
        # No back of the UNO family has all four colours (measured on renders of each deck's backs);
        # printed decks' backs may cover 0.1 with them, so they keep the stricter share
        self._wild_coloured = WILD_COLOURED if deck in TEXT_DECKS else 0.25
        self._wild_share = WILD_SHARE if deck in TEXT_DECKS else 0.15
        self._red_backs = deck in TEXT_DECKS and RED_BACKS
        self._ids = {(c.color, c.symbol): c.id for c in self.deck.cards.values()}
        self.palette = palette_for(deck)  # the deck's colours as hue buckets
        self.pale_ink = not self.even_border  # a deck printed at home may be printed faintly
        # the printed text (numerals, +2, +4) read by OCR, for the decks that print it: every
        # UNO print does; our designed decks are printed from our own art, which the classifier knows
        self.text_reader = None
        if text if text is not None else deck in TEXT_DECKS:
            from .read.text import TextReader
            self.text_reader = TextReader()
        # (quad, thumbnail, what was read) of the last cards read, most recent first
        self._text_cache: list[tuple[np.ndarray | None, np.ndarray, TextEvidence]] = []
        self._read_cache: list[tuple[np.ndarray, np.ndarray, Reading | None]] = []
        self.foreign = 0         # cards of another deck located in the last read_all (read as none)
        self._matched: dict = {}  # the taught deck's readings of the "backs" of the read_all under way, by quad
        self._keypointed: dict = {}   # ... and their keypoint checks (_face_by_keypoints), by quad, colour and symbol
        self._taught_backs: list = []   # outlines the taught deck read as its back, in the read_all under way ...
        self._known_backs: list = []    # ... and the detector's backs it knew as its back
        self._last_back = False   # the last _identify read the taught deck's back
        self._saw_back = False    # the read_all under way found the taught deck's back
        self._last_text: TextEvidence | None = None   # the text evidence of the last card identify_card read
        self._last_shape: str | None = None   # ... and the symbol its shape readers (glyph model, network) favoured
        self._last_shape_share = 0.0          # ... and their share for it
        self._last_glare = False   # ... and whether its centre lay under glare (GLARE)
        self._inks: dict = {}      # ... and the ink votes its rules looked at, by quad (_ink_votes)
        # a deck taught from photos (vision/teach/, `tableref teach`): read first, built-in as fallback
        self.taught = taught
        if taught is not None and taught.deck != self.deck.id:
            raise ValueError(f"the taught deck is of deck {taught.deck!r}, not {self.deck.id!r}")
        self._taught_ids = frozenset(taught.cards) if taught is not None else frozenset()
        self._taught_all = self._taught_ids >= set(self.deck.cards)
        # a taught deck whose border is not white is looked for by its own border's colour
        self.set_border(getattr(taught, "border", None))
        # a taught deck drawn on white card stock: white inside as well as round its faces
        self.set_white_faces(bool(getattr(taught, "white_faces", False)))
        # ... and one of square or long cards, for cards of its shape (vision/teach/shape.py)
        self.set_look(replace(self.look, aspect=getattr(taught, "aspect", CARD_ASPECT)))
        self._colours = {cid: card.color for cid, card in self.deck.cards.items()}
        # the readers' confidence as the chance of being right (read/calibrate.py), fitted for the
        # symbol model as shipped, its text reader on or off as by default; not for a taught deck,
        # whose readings are the taught reader's (teach/reader.py), nor for another configuration
        self.calibration = ConfidenceMap()
        # ... and the built-in readers' own, for a taught deck's picture read whole (_read_whole)
        self._builtin_chance = ConfidenceMap()
        if text is None or text == (deck in TEXT_DECKS):
            self._builtin_chance = load_confidence_map(Path(model_path))
            if taught is None:
                self.calibration = self._builtin_chance
        self._last_builtin = None  # the built-in readers' (card, confidence) of the card read last (_identify)

    @property
    def border(self):
        """The taught border colour cards are looked for by (vision/locate/border.py), None: white."""
        return self.look.border

    @property
    def white_faces(self) -> bool:
        """Whether cards are looked for as white inside as well as round (a deck drawn on white stock)."""
        return self.look.white_faces

    @property
    def even_border(self) -> bool:
        """Whether cards are looked for as a commercial print, their border as wide all along."""
        return self.look.even_border

    def set_border(self, border) -> None:
        """Look for cards with a margin of `border`'s colour (vision/locate/border.py) instead of
        white; None: white, as every built-in deck. Readings cached for the old border are dropped."""
        self.set_look(replace(self.look, border=border))

    def set_white_faces(self, white: bool) -> None:
        """Verify outlines as of cards white inside as well as round (a deck drawn on white card
        stock, verify_quad's white_faces), cut by hand (not an even border); False: as built in."""
        self.set_look(replace(self.look, white_faces=white, even_border=self.deck.id in TEXT_DECKS and not white))

    def set_look(self, look: CardLook) -> None:
        """Look for cards as `look` says (verify.CardLook); readings cached under the old look are dropped."""
        self.look = look
        if self.detector is not None:
            self.detector.look = look
        self._read_cache.clear()

    def identify_card(self, card_bgr: np.ndarray, text_card: np.ndarray | None = None,
                      quad: np.ndarray | None = None, shape: tuple | None = None) -> tuple[str, float]:
        """(card id, confidence) for one rectified card image. `text_card`: the same card warped
        larger from the frame, for the text reader (else it reads `card_bgr` itself); `quad`: where
        it lies in the frame (a card at the same place that looks the same is not read again);
        `shape`: the frame's (what of the card the frame cuts off cannot be read)."""
        # the card and its half-turn: the classifier knows both orientations, two views agree better
        self._last_text, self._last_shape = None, None
        source = card_bgr if text_card is None else text_card    # the larger warp, for text, glare and holes
        # (the UNO family's readers, where a spot was measured to pass for a reverse; a deck edged in
        # black or a colour has its paper inside: its margin is no white to measure from)
        self._last_glare = GLARE and self.text_reader is not None and self.border is None and \
            centre_glare(source) >= GLARE_SHARE
        # the card's width in the picture it was read from: small text says little, and a small
        # card's glyph is read by the network trained on small ones
        width = float(side_lengths(quad).min()) if quad is not None else float(source.shape[1])
        g = glyph_image(card_bgr)
        both = np.stack([g, g[::-1, ::-1]])
        p = self.model.proba(np.stack([glyph_features(x) for x in both])).mean(axis=0)
        net = self.far_net if self.far_net is not None and width < FAR_CARD_PX else self.net
        if net is not None:   # the network's view of the same glyph: sure only where both agree
            p = agree(self.model.classes, p, net.classes, net.proba(both).mean(axis=0))
        v = colour_votes(card_bgr, palette=self.palette, pale_ink=self.pale_ink)
        if WASHED_OUT and not self.pale_ink and v["coloured"] < COLOURED_MIN:
            # hardly any ink at the printed deck's bar: a washed-out photo (haze, a lamp's glare,
            # a cheap webcam) may have left its colours at half their saturation, a teal green
            # under the bar (read as a wild draw four); the bar a home-printed deck's faint ink
            # gets is taken where it finds a coloured card
            pale = colour_votes(card_bgr, palette=self.palette, pale_ink=True)
            if pale["coloured"] >= COLOURED_MIN:
                v = pale
        if DARK_INK and not self.pale_ink and v["coloured"] < COLOURED_MIN:
            # or its ink far darker than its paper: a contrasty tone curve (a phone's, or a photo
            # exposed for a lamp's bright white) left a dark green field at a sixth of the paper's
            # brightness, under the bar, and greens were read as wilds (real photos at gamma 2)
            dark = colour_votes(card_bgr, palette=self.palette, dark_ink=True)
            if dark["coloured"] >= COLOURED_MIN:
                v = dark
        colour, colour_share, margin = clip_checked(v)
        colour_share = colour_share if v["coloured"] >= COLOURED_MIN else 0.0
        # a hue close to the edge of its colour's range is a doubtful colour (orange against
        # yellow in the snake-cup deck): full trust from HUE_SURE units inside the range
        colour_share *= min(1.0, 0.25 + 0.75 * margin / HUE_SURE)
        one_colour = max(0.0, colour_share - 0.6) / 0.4      # how far the wilds are scored down below
        if self.text_reader is not None:
            if SIBLINGS:   # the UNO family: what the shape readers see of a +4 on a card of one colour is a +2's
                p = coloured_sibling(self.model.classes, p, one_colour)
            seen = places_in_view(quad, shape) if quad is not None and shape is not None else (1.0, 1.0)
            shapes = p
            self._last_shape = self.model.classes[int(np.argmax(shapes))]
            self._last_shape_share = float(np.max(shapes))
            # the text reader's second look at a silent centre only where it could count
            again = not shapes_dissent(self.model.classes, shapes)
            text = second_look(self.model.classes, shapes, self._text(source, quad, again))
            self._last_text = text
            if GLARE_SILENT and self._last_glare and silent(text.centre):
                # a spot washes the numeral out: a yellow 0 under a lamp, its centre silent, its corner
                # "0" at 0.95 and the shape readers 0.49 for the 0, went to a skip (glare cell, seed 16161)
                seen = (0.0, seen[1])
            p = dissent(self.model.classes, shapes, fuse(self.model.classes, p, text, width, seen), text)
        if OTHER in self.model.classes and int(np.argmax(p)) == self.model.classes.index(OTHER):
            self.foreign += 1     # a card of another deck (a UNO card on a DINO 2 table): no card of ours
            return None, 0.0
        if self.text_reader is not None:   # the UNO family: wild and wild draw four in every print
            area = four_colour_area(v)
            p = four_colour_evidence(self.model.classes, p, area)
            p = few_colours_evidence(self.model.classes, p, scarcest_two(v))
            if not self._last_glare:   # a spot over the centre merges or cuts the symbol's shapes
                holes, solidity, cut = centre_shape(source) or (None, 1.0, False)
                if not cut:   # a piece of the symbol counted says nothing of its holes (holes.CUT_SHARE)
                    p = holes_evidence(self.model.classes, p, holes, ring=solidity >= RING_SOLIDITY)
            p = corner_dissent(self.model.classes, p, text)
            p = second_look_dissent(self.model.classes, shapes, p, text)
            p = wild_dissent(self.model.classes, shapes, p, text)
            p = plus_four_dissent(self.model.classes, p, text)
            p = weak_wild(self.model.classes, shapes, p, text, area)
        # the best reading among the deck's cards: wilds scored without colour, others with it
        best, best_p = None, -1.0
        # (a symbol may be both: dino2 has coloured reverses and a rainbow one, so both are scored)
        for k, sym in enumerate(self.model.classes):
            # a wild is black or white with several colours: no single colour dominates
            for cid, score in ((self._ids.get((None, sym)), p[k] * (1.0 - 0.8 * one_colour)),
                               (self._ids.get((colour, sym)), p[k] * colour_share)):
                if cid is not None and score > best_p:
                    best, best_p = cid, score
        return best, float(best_p)

    def _text(self, card_bgr: np.ndarray, quad: np.ndarray | None = None, again: bool = True) -> "TextEvidence":
        """The text reader's evidence for a card, from the cache when the same card lay at the same
        place in a recent frame: a card resting on the pile is read by OCR once, not in every frame."""
        thumb = _thumb(card_bgr, (32, 48))
        if quad is not None:
            i = _same_card(self._text_cache, quad, thumb, TEXT_PLACE * float(np.linalg.norm(quad[0] - quad[1])))
            if i is not None:
                self._text_cache.insert(0, self._text_cache.pop(i))
                return self._text_cache[0][2]
        ev = self.text_reader.read_card(card_bgr, again)
        self._text_cache = [(quad, thumb, ev)] + self._text_cache[:TEXT_CACHE - 1]
        return ev

    def read_quads(self, bgr: np.ndarray, quads: list[Quad]) -> list[Reading]:
        """Readings of outlines found elsewhere (the pipeline's changed pile region). A card that
        lies where it lay in the last frame and looks the same is not read again: the pile rests
        for many frames, and its card is verified, snapped and read once. (A taught back read
        there is no reading: a card face down is no play.)"""
        out, fresh = [], []
        self._taught_backs = []
        for q in quads:
            card_bgr = warp_card(bgr, q.pts)
            thumb = _thumb(card_bgr, (16, 24))
            i = _same_card(self._read_cache, q.pts, thumb, 2.0)
            if i is not None:
                if self._read_cache[i][2] is not None:
                    out.append(self._read_cache[i][2])
                continue
            got = self._read_warped([(q, card_bgr)], bgr)
            fresh.append((q.pts.copy(), thumb, got[0] if got else None))
            out += got
        self._read_cache = (fresh + self._read_cache)[:TEXT_CACHE]
        out.sort(key=Reading.rank, reverse=True)
        return out

    def _read_warped(self, cards: list[tuple[Quad, np.ndarray]], frame: np.ndarray | None = None,
                     memo: dict | None = None, mirrored: bool = False) -> list[Reading]:
        """Readings of (quad, rectified card image) pairs, most confident first. With the frame,
        each quad is verified first (vision/locate/verify.py): one that is not a whole card's
        outer edge reads nothing. `mirrored`: a card read unsure is read mirrored too (MIRRORED)."""
        out = []
        for q, card_bgr in cards:
            trust = min(1.0, q.score / 0.7)
            if frame is not None:
                q, card_bgr, verdict = self._verified(frame, q, card_bgr, memo)
                if not verdict.ok:
                    continue
                trust = verdict.score
                # a card the picture cuts is read whole: its cut part beyond the picture's edge
                whole = to_card_shape(q.pts, frame.shape, self.look.aspect) if WHOLE else q.pts
                if whole is q.pts and ENDS and self.border is None:
                    whole = place_ends(frame, q.pts, self.look.aspect)
                if whole is not q.pts:
                    q, card_bgr = Quad(whole, q.score), warp_card(frame, whole)
            card, conf = self._identify(frame, q, card_bgr)
            if self._last_back:
                # the deck's back, as taught: a card face down (the draw pile, a hand), no card read
                self._taught_backs.append(q)
                continue
            doubt = False
            if mirrored and MIRRORED and frame is not None and self.text_reader is not None and self.taught is None:
                card, conf, doubt = self._mirror_checked(frame, q, card_bgr, card, conf, trust)
            elif mirrored and TAUGHT_MIRROR and frame is not None and self.taught is not None:
                card, conf, doubt = self._taught_mirrored(frame, q, card, conf)
            # (a taught deck's reading matches the whole face as photographed, spots and all)
            doubt = doubt or (self.taught is None and self._glared(card))
            if card is not None:
                score = conf * trust
                chance = self.calibration(score)
                out.append(Reading(card, min(chance, BELOW_MAX) if doubt else chance, q, score))
        out.sort(key=Reading.rank, reverse=True)
        return out

    def _taught_mirrored(self, frame: np.ndarray, q: Quad, card: str | None,
                         conf: float) -> tuple[str | None, float, bool]:
        """(card, confidence, in doubt) of a taught deck's card read under TAUGHT_MIRROR_BELOW, with the
        card mirrored back (its outline's corners swapped side for side) matched too: a selfie camera
        saves the picture mirrored, and a taught deck knows its faces only the right way round (the
        second UNO print on black, taught from each card's first photo, its other photos mirrored:
        0.743 top-1, a green 5 read as the green 2, sure). Where the card mirrored back matches
        another card, sure and TAUGHT_MIRROR_LEAD more confidently than as it is, that card goes, unsure."""
        if card is not None and conf >= TAUGHT_MIRROR_BELOW:
            return card, conf, False
        from .teach.reader import taught_match
        flipped = q.pts[[1, 0, 3, 2]]
        back = taught_match(self.taught, frame, flipped, warp_card(frame, flipped))
        if back.card != card and back.confidence >= CONFIRM_THRESHOLD and back.confidence >= conf + TAUGHT_MIRROR_LEAD:
            return back.card, back.confidence, True
        return card, conf, False

    def _mirror_checked(self, frame: np.ndarray, q: Quad, card_bgr: np.ndarray, card: str | None,
                        conf: float, trust: float) -> tuple[str | None, float, bool]:
        """(card, confidence, in doubt) of a photo's card, given its reading as it is, with the card
        mirrored back read too where that may tell (MIRRORED); in doubt: to be sent unsure.

        A selfie camera, or a webcam script's cv2.flip, saves the picture mirrored: every numeral
        reads backwards, mostly unsure, but a 5 reads as a 2, sure (MIRROR_TWINS, TWIN_GAP). The card
        mirrored back is its warp with the outline's corners swapped side for side. Its reading
        counts as sure only where it is sure and the text reader clearly reads its symbol (a numeral,
        +2 or +4, which read only the right way round: a 9 read unsure as it is was read as a skip,
        sure, by the shapes mirrored); a card unsure both ways goes as the far likelier of the two,
        unsure (MIRROR_LEAD)."""
        sure = card is not None and self.calibration(conf * trust) >= CONFIRM_THRESHOLD
        symbol = self.deck.cards[card].symbol if card is not None else None
        twin = MIRROR_TWINS.get(symbol) if sure else None
        if twin is not None and TWIN_TOLD and symbol in read_twice(self._last_text or NO_TEXT):
            return card, conf, False
        flipped = Quad(q.pts[[1, 0, 3, 2]], q.score)
        if sure and twin is None:
            # a shape read sure where no text was read clearly may be a numeral mirrored: a 9
            # mirrored read as a skip, sure; mirrored back, its centre read "9" (real on-black
            # photos mirrored). The shape is asked where the centre's big print, mirrored back,
            # reads a numeral clearly (MIRROR_SHAPES); only the centre is read, not the whole card
            shape = symbol in MIRROR_SHAPES and not clear_symbols(self._last_text or NO_TEXT)
            told = self._mirrored_centre_numerals(frame, flipped, symbol) if shape else set()
            if told and MIRROR_NUMERAL:
                # the whole card mirrored back: a 9 mirrored, its OCR silent, read as a skip (silence
                # and the loop's hole are a shape's evidence), while its glyph and network read 9 as
                # it is; mirrored back its centre reads "9" (the on-black yellow 9s mirrored). Taken,
                # unsure, only where the whole card mirrored back reads the numeral its centre told
                # and the shape readers there favour it too: a reverse of two straight arrows, mirrored
                # back, read "1" at its centre at 0.95, the shape readers a reverse (a synthetic close-up)
                as_is = self._last_text
                m_card, m_conf = self._identify(frame, flipped, np.ascontiguousarray(card_bgr[:, ::-1]))
                if self._numeral_back(m_card, told):
                    return m_card, m_conf, True
                self._last_text = as_is
            return card, conf, bool(told)
        as_is, as_is_shape = self._last_text, self._last_shape
        m_card, m_conf = self._identify(frame, flipped, np.ascontiguousarray(card_bgr[:, ::-1]))
        text = self._last_text
        m_symbol = self.deck.cards[m_card].symbol if m_card is not None else None
        # a numeral read mirrored back that is the drawing of the shape the shape readers saw, as it
        # is or mirrored back, is no text of the card's: a classic reverse on a blue table, the right
        # way round, read "3" as it is and "5" mirrored back at its centre and its corner (0.96 and
        # 0.99), while the shapes read a reverse both ways (0.97 and 0.74)
        drawn = MIRROR_DRAWN and (_lookalikes(as_is_shape, m_symbol) or _lookalikes(self._last_shape, m_symbol))
        m_sure = m_card is not None and self.calibration(m_conf * trust) >= CONFIRM_THRESHOLD \
            and text is not None and m_symbol in (clear_symbols(text) or ())
        # a card read unsure as it is: the mirrored reading taken where the centre and the corner
        # index both read its symbol (a classic print's reverse under a blue cast, mirrored, read
        # "5" at its centre alone). (Not `drawn` for a 2 read sure whose 5 mirrored back reads
        # surer, below: a mirrored 5 looks like a reverse's S to the shape readers, and was kept as
        # the 2, sure, when this held there too: a synthetic close-up, seed 8383, #545)
        if m_sure and not sure and not drawn and (not MIRROR_BOTH or m_symbol in read_twice(text)):
            return m_card, m_conf, False
        if m_sure and sure and m_symbol == twin and m_conf >= conf + TWIN_GAP:
            return m_card, m_conf, False
        told = (clear_symbols(text) or set()) if text is not None else set()
        told_as_is = clear_symbols(as_is or NO_TEXT) or set()     # what the text read the card as it is
        if (not sure and m_card is not None and m_card != card and m_conf >= conf + MIRROR_LEAD
                and m_symbol in told and symbol not in told and not _lookalikes(symbol, m_symbol) and not drawn):
            # a card read unsure both ways, far better mirrored back, where the text reads its
            # symbol there (only the centre or only the corner: a draw two's centre shows mini
            # cards): the likelier reading goes to the table, unsure. Text is what tells which way
            # round a card is: a shape looks alike both ways (a red 9 at half saturation, read
            # unsure as it is, read as a skip mirrored back). Not a shape and a numeral its
            # drawing reads as (DRAWN_AS): a classic reverse's S arrows mirrored read "5"
            # at 0.97 (real-uno-dev at 2.5x), a filled-oval print's "3" (a table scene)
            return m_card, m_conf, True
        if (MIRROR_SILENT and not sure and m_card is not None and m_card != card and m_conf >= conf + MIRROR_SILENT
                and not told and not told_as_is and not drawn
                and not (symbol in DIGITS and m_symbol in DIGITS)):
            # a card read unsure both ways where no text tells which way round it is: the shape readers,
            # which learned cards the right way round, are the only witness, and they read the card far
            # better mirrored back (a mirrored +2's mini cards read as a reverse at 0.16, mirrored back
            # a +2 at 0.51; a classic wild draw four mirrored, its "+4" unread, a wild at 0.40, mirrored
            # back a wild draw four at 0.62). Measured before it was taken: of 294 real photos and 155
            # synthetic close-ups as they are, none meets this; of the 294 mirrored and 133 mirrored
            # close-ups, 6, each right mirrored back and wrong as it is. Not one numeral for another:
            # a numeral mirrored is no numeral the shape readers know, and its text tells (a blue 9
            # transplanted under a lamp, read right and unsure, went as a 3 mirrored back)
            return m_card, m_conf, True
        if (MIRROR_SHAPE_BACK and not sure and m_card is not None and m_conf >= conf + MIRROR_LEAD
                and symbol in DRAWN_AS.get(m_symbol, ()) and not told_as_is):
            # a numeral no text read, only the shape readers, that is the drawing of the shape read
            # far better mirrored back: a filled-oval reverse mirrored, its S arrows taken for a "3"
            # by the network at 0.98, the text silent; mirrored back a reverse at 0.68. A true 3
            # gives its text (a numeral reads the right way round): the table confirms the shape
            return m_card, m_conf, True
        if (MIRROR_NUMERAL and not sure and symbol in MIRROR_SHAPES and text is not None
                and not told_as_is and not drawn
                and self._numeral_back(m_card, self._told_numerals(text.centre, symbol))):
            # a skip or a reverse read unsure with no text read clearly, the whole card mirrored back
            # the numeral its centre reads clearly there and its shape readers favour, as for a shape
            # read sure (above): the on-black yellow 9 mirrored, read as a skip at 0.55 (its shape
            # readers a 9), mirrored back a 9 at 0.54, its centre "9" at 0.97
            return m_card, m_conf, True
        self._last_text = as_is       # the evidence of the reading kept
        # a 2 or a 5 that reads as the other mirrored back: the right way round reads better (a 5
        # mirrored read as a 2 at 0.64-0.84 and its 5 mirrored back at 0.87-1.00, 0.11 or more
        # apart; a 2 mirrored as a 5 at 0.6 at most); too close to tell, the table is asked
        return card, conf, m_sure and sure and m_symbol == twin and conf < m_conf + TWIN_GAP

    def _mirrored_centre_numerals(self, frame: np.ndarray, flipped: Quad, symbol: str) -> set[str]:
        """The symbols of the deck's, other than the shape `symbol` read as it is, that the centre of
        the card mirrored back (its outline's corners swapped side for side) reads clearly as.
        The centre's big print, not a corner's: a classic reverse's corner arrows mirrored read "1"
        at 0.90; nor a numeral the shape's own drawing reads as (a reverse's S arrows, "3" or "5")."""
        return self._told_numerals(self.text_reader.read_centre(warp_card(frame, flipped.pts, (TEXT_W, TEXT_H))),
                                   symbol)

    def _told_numerals(self, centre: tuple[str | None, float], symbol: str) -> set[str]:
        """The deck's symbols a centre's reading (symbol, confidence) tells clearly, but for the shape
        `symbol` and the numerals its own drawing reads as (DRAWN_AS)."""
        told = reads_clearly(centre) - {symbol} - set(DRAWN_AS.get(symbol, ()))
        return told & {c.symbol for c in self.deck.cards.values()}

    def _glared(self, card: str | None) -> bool:
        """Whether the card last identified lies with its centre under glare (GLARE) and its text
        does not read its symbol clearly: the readers of its centre saw a spot, not the symbol."""
        if not self._last_glare or card is None:
            return False
        told = clear_symbols(self._last_text) if self._last_text is not None else None
        symbol = self.deck.cards[card].symbol
        if symbol not in (told or ()):
            return True
        # a numeral its corner tells, the centre silent (GLARE_SILENT): one reader's word, sure only
        # where the shape readers agree; their doubt had been the centre's silence against it
        return GLARE_SILENT and symbol in DIGITS and silent(self._last_text.centre) and not (
            self._last_shape == symbol and self._last_shape_share >= GLARE_SHAPES)

    def _numeral_back(self, m_card: str | None, told: set[str]) -> bool:
        """Whether the card read mirrored back (`m_card`, the shape readers' favourite there in
        `_last_shape`) is a numeral of `told` its shape readers favour too (MIRROR_NUMERAL)."""
        return m_card is not None and self.deck.cards[m_card].symbol in told \
            and self._last_shape == self.deck.cards[m_card].symbol

    def _identify(self, frame: np.ndarray | None, q: Quad, card_bgr: np.ndarray) -> tuple[str, float]:
        """(card, confidence) of a verified card: the taught deck first when there is one (a sure
        taught reading skips the built-in readers and their OCR), else the built-in readers."""
        taught = None
        self._last_glare = False
        self._last_builtin = None
        self._last_back = False
        self._inks = {}
        if self.taught is not None:
            from .teach.reader import ALONE, combine, taught_match, twin, unbarred
            # (a "back" taken for a taught face was matched already, at this very quad unless it was snapped)
            taught = self._matched.pop(q.pts.tobytes(), None) or taught_match(self.taught, frame, q.pts, card_bgr)
            if TAUGHT_BACK and taught.is_back:
                self._last_back = True
                return None, 0.0
            # the whole deck taught and surely read: no other reader, but for a 6 or a 9 (reader.py)
            if taught.confidence >= ALONE and self._taught_all and twin(taught.card) not in self._taught_ids:
                return taught.card, taught.confidence
        big = warp_card(frame, q.pts, (TEXT_W, TEXT_H)) if frame is not None and self.text_reader else None
        builtin = self._last_builtin = self.identify_card(card_bgr, big, q.pts, frame.shape if frame is not None else None)
        if taught is None:
            return builtin
        if TEXT_TELLS and taught.confidence < CONFIRM_THRESHOLD and self._last_text is not None:
            # the taught deck unsure, the text reader clear about the symbol (a numeral drawn by hand
            # in ink, which every taught photo shows at another slant and light): the taught deck
            # tells the colour among the cards of that symbol
            told = clear_symbols(self._last_text)
            if told and told & set(self.taught.symbols):
                taught = taught_match(self.taught, frame, q.pts, card_bgr, told)
        if CORNER_TELLS and self._last_text is not None and twin(taught.card) in self._taught_ids:
            taught = self._corner_told(frame, q, card_bgr, taught)
        if INK_TELLS and self.white_faces and taught.confidence < CONFIRM_THRESHOLD and frame is not None:
            taught = self._ink_told(frame, q, card_bgr, taught)
        # the built-in is a stranger to a deck of another border or shape (it learned cards cut at
        # 1.55 to 1: a square DINO 2 print's untaught orange chill went out as its orange girl at
        # 0.79, sure), and to one it misread on the teach photos, or read right on too few of them
        # to be sure of (deck.BUILTIN_SURE)
        trusted, sure = self.taught.builtin_trusted, self.taught.builtin_sure
        card, conf = combine(taught, builtin, self._taught_ids, self._colours,
                             stranger=self.border is not None or not sure or self.look.aspect != CARD_ASPECT,
                             guesses=trusted, guess_colour=sure)
        conf = unbarred(card, conf, self.deck.cards) if not trusted else conf
        if TAUGHT_LOCAL and conf < CONFIRM_THRESHOLD and frame is not None:
            card, conf = self._locally_checked(frame, q, card, conf)
        if INKLESS_NONE and self.white_faces and frame is not None and self._colours.get(card) is not None:
            from .teach.teach import INKLESS
            if self._ink_votes(frame, q)["coloured"] < INKLESS:
                # no ink on it: on a deck drawn on white stock, a note of lined paper, not a card (one
                # beside an inked yellow 0 went out as the green 3 at 0.87, sure; teach refuses such
                # outlines the same way: teach.one_card)
                return None, 0.0
        return card, conf

    def _corner_told(self, frame: np.ndarray | None, q: Quad, card_bgr: np.ndarray, taught):
        """A taught 6 or 9 (deck.Match) whose corner index the text reader read clearly as the other:
        matched again among the cards of that symbol. A taught deck keeps every photo in both half
        turns, and a 6 turned round is a 9 but for the bar under it, which a hand does not draw;
        each corner index is printed upright in its own half turn, so a 6 reads "6" there whichever
        way the card lies (fuse._six_or_nine). Renamed, never made surer."""
        from .teach.reader import TWINS, taught_match
        said, clear = self._last_text.corner
        symbol = self.deck.cards[taught.card].symbol
        if symbol not in TWINS or said not in TWINS or clear < STRONG or said == symbol:
            return taught
        told = taught_match(self.taught, frame, q.pts, card_bgr, {said})
        return replace(told, confidence=min(told.confidence, taught.confidence)) if np.isfinite(told.best) else taught

    def _ink_told(self, frame: np.ndarray, q: Quad, card_bgr: np.ndarray, taught):
        """An unsure taught reading (deck.Match) of a colour the face's ink does not show, where the ink
        is clearly of one other colour (INK_CLEAR of its coloured pixels): matched again among the
        cards of that colour. The embedding's colour is each region's mean, and a finger across a
        card drawn in thin ink on white outweighs the ink there (an inked blue 7 held by a finger read
        as the red 7, a yellow +2 as a red skip, their ink 0.97 blue and 1.0 yellow); the ink votes
        count only saturated pixels of the deck's palette, and on white stock not the blobs that reach
        the face's edge (teach's ink_votes): only such a deck's reading is looked at so (elsewhere a
        finger's votes stay in). A card of no colour (a wild) is left: its ink is every colour.
        Renamed, never made surer."""
        from .teach.reader import taught_match
        from .teach.teach import INKLESS
        colour = self._colours.get(taught.card)
        if colour is None:
            return taught
        votes = self._ink_votes(frame, q)
        clear = [c for c, v in votes["votes"].items() if v >= INK_CLEAR]
        if votes["coloured"] < INKLESS or not clear or clear[0] == colour:
            return taught
        told = taught_match(self.taught, frame, q.pts, card_bgr, colours={clear[0]})
        # no surer than it was: among fewer cards the margin grows by itself (a blue cup's ring, read
        # as a red skip at 0.08, read as the blue skip at 0.29 above the card beside it)
        return replace(told, confidence=min(told.confidence, taught.confidence)) if np.isfinite(told.best) else taught

    def _locally_checked(self, frame: np.ndarray, q: Quad, card: str | None, conf: float) -> tuple[str | None, float]:
        """An unsure taught reading checked against the taught photos' own keypoints (TAUGHT_LOCAL):
        where one card of the reading's colour matches clearly (teach/local.py `verified`), that
        card, sure where every card of that colour was taught (else a card never taught may be the
        one shown: local.py cannot vouch against it), unsure where it was not or where the match
        replaces another card read on little evidence. Not for a 6 or a 9 whose twin is in the deck
        (a half turn apart but for a bar, which keypoints matched under any homography do not tell)."""
        from .teach.reader import twin
        if card is None or card not in self._colours:
            return card, conf
        colour = self._colours[card]
        whole = self.taught.taught_whole(colour)
        if not whole and not TAUGHT_LOCAL_PARTLY:
            return card, conf
        named = self._named_by_keypoints(frame, q, colour, self.deck.cards[card].symbol)
        if named is None:
            return card, conf
        found, inliers = named
        if found is None or twin(found) in self.deck.cards:
            return card, conf
        if found == card:
            return (card, max(conf, TAUGHT_LOCAL_SURE)) if whole and self._colour_seen(frame, q, colour) else (card, conf)
        if whole and inliers >= TAUGHT_LOCAL_OVERRULE and (TAUGHT_LOCAL_ACROSS or self._colours.get(found) == colour) \
                and self._colour_seen(frame, q, colour):
            # another card of the colour than the reading, sure only on much evidence (a skip's photo
            # matched the skip 2's lettering, 15 inliers against none, where the skip's own teach photo
            # showed little of it)
            return found, max(conf, TAUGHT_LOCAL_SURE)
        if self._colours.get(found) == colour and inliers >= TAUGHT_LOCAL_UNSURE_OVERRULE:
            # else it goes first, unsure, and only of the colour read: keypoints are blind to it (one
            # hand's spork in orange matched its spork in blue)
            return found, min(max(conf, TAUGHT_LOCAL_UNSURE_CONF), CONFIRM_THRESHOLD - 0.01)
        return card, conf

    def _colour_seen(self, frame: np.ndarray, q: Quad, colour: str | None) -> bool:
        """Whether keypoints may make a reading of `colour` sure at `q`: they vouch for the drawing,
        not its colour, so the face's ink must show it (TAUGHT_LOCAL_INK; a card of no colour: any)."""
        return not TAUGHT_LOCAL_INK or colour is None or self._ink_shows(frame, q, colour)

    def _ink_shows(self, frame: np.ndarray, q: Quad, colour: str | None) -> bool:
        """Whether the face at `q` shows ink of `colour` (None: a card of no colour, which any face
        may be): teach's OWN_COLOUR of its coloured pixels at least, as a teach photo's card must."""
        if colour is None:
            return True
        from .teach.teach import OWN_COLOUR
        return self._ink_votes(frame, q)["votes"].get(colour, 0.0) >= OWN_COLOUR

    def _ink_votes(self, frame: np.ndarray, q: Quad) -> dict:
        """teach's ink_votes of the face at `q`, once a reading (a warp and the edge's blobs each time)."""
        key = q.pts.tobytes()
        if key not in self._inks:
            from .teach.teach import ink_votes
            self._inks[key] = ink_votes(self, frame, q)
        return self._inks[key]

    def _verified(self, frame: np.ndarray, q: Quad, card_bgr: np.ndarray, memo: dict | None = None):
        """(quad, its warp, verdict): the quad as given when it verifies well as a whole card, else
        snapped onto the card's edges when that verifies better (a rough outline from the pile's
        changed pixels, a contour that cut a corner). A snap must overlap the quad closely: on a
        pile, the card beneath offers edges it could take. `memo`: the frame's verdicts (verify_once)."""
        verdict = verify_once(memo, frame, q.pts, self.look)
        if verdict.ok and verdict.score >= 0.9:
            return q, card_bgr, verdict
        snapped = snap_to_edges(frame, q.pts, self.border)
        # the same card's edges, not a neighbour's: a pile's lower card shares some of them
        if snapped is not None and quad_iou(snapped, q.pts) >= 0.8:
            v2 = verify_once(memo, frame, snapped, self.look)
            if v2.ok and (not verdict.ok or v2.score > verdict.score):
                return Quad(snapped, q.score), warp_card(frame, snapped), v2
        return q, card_bgr, verdict

    def locate_all(self, bgr: np.ndarray, close_ups: bool = True,
                   memo: dict | None = None) -> tuple[list[Quad], list[Quad]]:
        """(face-up cards, card backs) in the frame. The contour locator cannot tell a back from a
        face, so it returns every card as a face and no back. `close_ups`: look for cards held
        close to the camera too (a photo); False for a table seen from above (the live pipeline,
        where one look costs a third as much). `memo`: a dict kept for this frame, where the
        boxes' outlines and their verdicts are worked out once (verify_once). Where `located` is
        a dict (a teach: located), a picture met again under the same look is not looked at again."""
        if self.located is None:
            return self._locate_all(bgr, close_ups, memo)
        # the outlines are a pure function of the picture and the look: a teach meets each photo
        # several times under one look (its close-up check, its one card, its second look), and
        # finding a card is most of a teach's time (0.1-0.3 s a photo of a card drawn by hand)
        key = (hashlib.blake2b(np.ascontiguousarray(bgr).data, digest_size=16).digest(), bgr.shape,
               str(bgr.dtype), self.look, close_ups, self.white_contours)
        if key not in self.located:
            self.located[key] = self._locate_all(bgr, close_ups, memo)
        faces, backs = self.located[key]
        return list(faces), list(backs)

    @contextmanager
    def locating_once(self):
        """A block in which each picture is located once a look (locate_all; a teach)."""
        before, self.located = self.located, {}
        try:
            yield
        finally:
            self.located = before

    def _locate_all(self, bgr: np.ndarray, close_ups: bool, memo: dict | None) -> tuple[list[Quad], list[Quad]]:
        """locate_all's finding itself, without the teach's kept outlines (locating_once)."""
        if self.detector is None:
            return find_cards(bgr, card_aspect=self.look.aspect), []
        first = self.detector.boxes(bgr)
        # the picture again at twice the detector's scale, when it has the pixels and the model
        # takes any input shape: cards too small for the first look are found there
        closer = (ZOOM_IN,) if self.detector.dynamic and max(bgr.shape[:2]) >= self.detector.size * 1.5 else ()
        if _small_cards(first, bgr.shape):
            more = closer                  # a table seen from above
        else:
            # a card held close: as from twice as far too, unless the first look outlined every face
            # well (FIRST_ENOUGH). (Stopping after the first look whenever its outlines verify at all was
            # measured on 2026-11-23, another detector: it missed cards held close, 0.983 -> 0.958 on-black.)
            # Nothing found at all: a card filling the picture, or one too small to be seen.
            more = ((2.0,) if close_ups else ()) + (closer if not first else ())
        outlines = {} if memo is None else memo   # a box's outline, worked out once for every detect() on this frame
        dets = None
        if FIRST_ENOUGH and more == (2.0,) and self.border is None and self.even_border and first:
            # a card held close whose every face the first look outlined well: no look from farther.
            # Not on a deck cut by hand, whose outlines verify less strictly: a dino2 card on gingham,
            # outlined across its face onto the white squares, verified 0.958 (its margin's depth
            # uncounted; 0.910 as a print's), and the look from farther found its edges (0.959)
            got = self.detector.detect(bgr, zoom_outs=(), looks=[first], outlines=outlines)
            faces = [d for d in got if d.kind == "card"]
            if faces and all(d.verified >= FIRST_ENOUGH for d in faces):
                more, dets = (), got
        looks = [first] + [self.detector.boxes(bgr, zoom_out=z) for z in more]
        if self.border is not None:
            # the detector's boxes are coarser on a deck edged in black or a colour (stage 4 learned
            # white edges only, stage 5 a third of its scenes edged): such a deck is found by its
            # border's contours too, as the contour locator finds white ones
            mask = (self.border.likeness(bgr) >= 128).astype(np.uint8) * 255
            looks.append([(q.pts, "card", q.score) for q in find_cards(bgr, max_area_frac=0.9, mask=mask,
                                                                        card_aspect=self.look.aspect)])
            if FACE_LOOK:
                # and by their faces: what is not of the border's colour, inside its ring, pushed out by
                # its depth. On a table of the border's colour (a black-edged card on a dark table, or
                # in its own shadow) the ring has no outer edge, while the face inside it stands alone
                looks.append([(q, "card", s) for q, s in _faces_of(bgr, 255 - mask, self.border, self.look.aspect)])
        elif WHITE_CONTOURS and self.look.white_faces and self.white_contours:
            # a deck drawn on plain white stock has no printed field or oval the detector learned: on a
            # dark or coloured table its sheet stands out whole, as the contour locator finds it
            # (a finger over its edge costs its contour's fill: the outline's verification decides)
            for mask in white_masks(bgr):
                looks.append([(q.pts, "card", q.score) for q in find_cards(
                    bgr, max_area_frac=0.9, min_score=WHITE_CONTOUR_SCORE, mask=mask, card_aspect=self.look.aspect)])
                if WHITE_EDGE_CUT:
                    # and cut along the picture's edges: a card touching a sheet of paper (or another
                    # white thing) merges with it into one white shape, and neither is found
                    looks.append([(q.pts, "card", q.score) for q in cards_cut_at_edges(
                        bgr, mask, max_area_frac=0.9, min_score=WHITE_CONTOUR_SCORE, card_aspect=self.look.aspect)])
        if dets is None:
            dets = self.detector.detect(bgr, zoom_outs=(), looks=looks, outlines=outlines)
        cards = [d for d in dets if d.kind == "card"]
        # (on a deck of another border, any face whose outline verified less than well: the
        # detector's coarse boxes round a black-edged card take in its shadow or the dark table
        # beside it, whose outlines verify too, if less well)
        weak = CLOSER_WEAK if self.border is None else BORDER_SETTLED
        if close_ups and closer and closer[0] not in more and (
                not cards or any(not d.verified or d.verified < weak for d in cards)):
            # a face found whose outline did not verify, or only weakly: the coarse looks' boxes
            # missed its edge by a few pixels (cards a tenth to a fifth of the picture, on a pile, in
            # shadow, blurred), and the closer look's boxes are sharper; or no face found at all,
            # where the coarse looks took a small card for a back or missed it
            looks.append(self.detector.boxes(bgr, zoom_out=closer[0]))
            dets = self.detector.detect(bgr, zoom_outs=(), looks=looks, outlines=outlines)
        if close_ups:
            dets = self._from_farther(bgr, dets)
        # the detector learned the black backs of the UNO family, and takes some faces for backs
        # (stage 4, which learned white-edged faces only, many edged in black or a colour): one edged
        # in black or a colour is a face when its outline verified
        # with the taught border (a white-bordered back does not); a UNO family "back" whose outline
        # verified and that is one colour, not red, is a face (every such back is black round a red
        # oval; the detector takes a dark green +2 for one)
        def a_face(d) -> bool:
            if d.kind == "card":
                return True
            if not d.verified > 0:
                return False
            return self.border is not None or (self._red_backs and _face_not_back(warp_card(bgr, d.quad.pts)))
        is_face = [a_face(d) for d in dets]
        faces = [d for d, f in zip(dets, is_face) if f and not _tiny_and_cut(d.quad.pts, bgr.shape)]
        backs = [d.quad for d, f in zip(dets, is_face) if not f]
        if self.border is not None:
            # a dark frame inside a card (a corner index's black outline) verifies as a small card, and
            # a patch of dark table round a card as a big one: of two faces one inside the other (no two
            # cards lie so), the one that verified better
            faces = [d for d in faces if not any(o is not d and _nested(d, o) and _better(o, d) for o in faces)]
        if close_ups and self._relooks():
            # a card too small for the detector's looks outlined again from its neighbourhood enlarged
            # (locate/relook.py): a table seen from farther up
            return [self._relooked(bgr, d.quad, memo) for d in faces], backs
        return [d.quad for d in faces], backs

    def _from_farther(self, bgr: np.ndarray, dets: list) -> list:
        """`dets` with the detector's looks from farther still (FAR, in turn) when no look found a
        face (a card filling the picture), or none whose outline verified (a card held close at a
        slant, fingers over its edges: each look's box lies a little differently, and one lets the
        edges be found). A verified outline from there replaces the faces it overlaps. Where the
        faces' outlines verified, but none of them well (FAR_WEAK), a face's outline from farther
        that verifies better takes its place: a card filling the picture, cut at an end, whose
        box from near lay round its tilted oval."""
        for zoom in FAR:
            faces = [d for d in dets if d.kind == "card"]
            verified = [d.verified for d in faces if d.verified > 0]
            if (verified and max(verified) >= FAR_WEAK) or (faces and not verified and not FAR_UNVERIFIED):
                break
            far = self.detector.detect(bgr, zoom_outs=(zoom,))
            if verified:
                dets = [_better_from(far, d) if d.kind == "card" and d.verified > 0 else d for d in dets]
                continue
            dets = [d for d in dets if d.kind != "card" or not any(
                f.verified > 0 and quad_iou(d.quad.pts, f.quad.pts) > 0.5 for f in far)] + far
            if not any(d.kind == "card" for d in dets):
                break   # no face from four times as far either: a picture without a card costs one look, as before
        return dets

    def _relooks(self) -> bool:
        """Whether small faces are outlined again (RELOOK): for the built-in readers of the decks it
        was measured on (RELOOK_DECKS), not a taught deck's or another border's, nor within a teach
        (locating_once), whose photos and outlines its own checks were tuned on."""
        return (RELOOK and self.deck.id in RELOOK_DECKS and self.taught is None and self.border is None
                and self.located is None and self.detector is not None and self.detector.dynamic)

    def _relooked(self, bgr: np.ndarray, q: Quad, memo: dict | None) -> Quad:
        """A face's outline, from the detector's look at its neighbourhood enlarged where it is small
        (locate/relook.py); as it is where it is not, or where that look outlines no card there that
        verifies as one in the picture itself (a blurred card's outline from the enlarged look, laid
        back onto its few pixels, can fail the margin's test: the card would be lost)."""
        if not relook.small(q.pts):
            return q
        got = relook.relook(self.detector, bgr, q.pts)
        if got is None or not verify_once(memo, bgr, got[0], self.look).ok:
            return q
        return Quad(*got)

    def locate(self, bgr: np.ndarray) -> list[Quad]:
        """The quadrilaterals of the face-up cards in the frame."""
        return self.locate_all(bgr)[0]

    def read_all(self, bgr: np.ndarray, close_ups: bool = True) -> tuple[list[Reading], list[Quad]]:
        """(readings of the face-up cards, most confident first; quads of the card backs), in the
        picture's pixels; a picture longer than WORK_SIDE is read shrunk to it. `close_ups`: see
        locate_all."""
        # nothing to read in no picture; a grey or BGRA picture is read as colour
        if bgr is None or getattr(bgr, "size", 0) == 0 or bgr.ndim not in (2, 3):
            return [], []
        if bgr.ndim == 2 or bgr.shape[2] == 1:
            bgr = cv2.cvtColor(bgr, cv2.COLOR_GRAY2BGR)
        elif bgr.shape[2] == 4:
            bgr = cv2.cvtColor(bgr, cv2.COLOR_BGRA2BGR)
        elif bgr.shape[2] != 3:
            return [], []
        self._saw_back = False
        if close_ups:
            # a photo stands on its own: the text read from an earlier one is no evidence for it
            # (the cache is for a live table's resting pile). A series of photos taken from one
            # place put a blue 8 where a blue 5 had lain; in a dim room their thumbnails differed
            # by under TEXT_SAME and the 8 was read as a 5, sure (real-uno-dev at half exposure)
            self._text_cache = []
        readings, backs = self._read_resized(bgr, bgr.shape[1], bgr.shape[0], close_ups)
        if close_ups and SCENE_BALANCE and not readings:
            # nothing found: a strong colour cast (a tungsten lamp) may have left no margin white;
            # the photo is read again balanced on its brightest pixels (colour.scene_balance)
            balanced = scene_balance(bgr)
            if balanced is not None:
                again = self._read_resized(balanced, bgr.shape[1], bgr.shape[0], close_ups)
                if again[0]:
                    bgr, (readings, backs) = balanced, again
                    if BALANCED_UNSURE:
                        # the light's colour was guessed from the photo's brightest pixels, which may
                        # be a coloured thing: a close-up of a yellow card edged in purple, balanced on
                        # its yellow field, read as the blue +2, sure (the teach bench's edged prints)
                        readings = [replace(r, confidence=min(r.confidence, BELOW_MAX)) for r in readings]
        if close_ups and UNSTRETCH and is_square(bgr.shape) and (UNSTRETCH_SURE or not (readings and all(r.sure for r in readings))):
            # a photo squashed into a square by a dataset's export: read again at the usual camera
            # aspects (rectify/aspect.py); not on a live table, whose frames come from the camera.
            # Even when read sure: a card squashed into another symbol can read sure (a 7 as a +2 at
            # 0.95), and only a sure reading of the card unsquashed tells (synthetic close-ups, 16:9)
            foreign = self.foreign
            candidates = [(readings, backs)] + [self._read_resized(bgr, *unstretched_size(bgr.shape, a), close_ups)
                                                for a in ASPECTS]
            readings, backs = best_of(candidates, share_inside)
            self.foreign = foreign
        if close_ups and INSIDE_CARD and (self.taught is None or INSIDE_TAUGHT) and self.border is None and \
                self.deck.id in TEXT_DECKS and not self._saw_back:
            # (not where the taught deck knew its back: a photo of a card face down, nothing else in
            # it, read whole as a card taken from inside, unsure: 8 of 24 printed UNO backs, session 62)
            readings = self._inside_card(bgr, readings)
        return readings, backs

    def _inside_card(self, bgr: np.ndarray, readings: list[Reading]) -> list[Reading]:
        """`readings` of a photo, or the photo read as one card when it was taken inside one card's
        coloured field (locate/inside.py): a phone held so close that no edge of the card is in view.
        What was found within such a photo is its print's oval or circle, held unsure (INSIDE_CARD);
        the photo read whole, padded with its paper's white, goes unsure too: its outline is a guess.
        So too a photo whose card fills it, its margin running off its edges, where nothing was found
        or only unsure readings of its colour (the oval inside the cropped card)."""
        band = inside.band_of(inside.work_size(bgr, inside.LOOK_SIDE)[0], self.palette)

        def colour(r: Reading) -> str | None:
            return self.deck.cards[r.card].color

        def foreign(r: Reading) -> bool:
            # a card read sure, or a card of another colour than the band's (a wild may be the oval),
            # not a weak guess (a taught deck's match of the oval inside its yellow 7: a green 1 at 0.26)
            return r.sure or (colour(r) not in (band.colour, None) and not (
                INSIDE_WEAK_FOREIGN and r.confidence < INSIDE_LEAST))
        def band_ink(r: Reading) -> bool:
            # the reading's card printed in the band's very ink
            return inside.same_ink(band.ink, inside.card_ink(warp_card(bgr, r.quad.pts, INK_LOOK), band.colour,
                                                             self.palette))

        def of_band(r: Reading) -> bool:
            # a reading of the band's colour in the band's very ink
            return colour(r) == band.colour and band_ink(r)
        if band.inside_field:
            # what was found of the band's very ink is the print's oval inside the card (not a card
            # lying on felt or wood of its colour, whose ink differs), read as a card of that colour
            # or, unsure, as a wild (the filled-oval print's oval, its numeral cut, as the wild draw
            # four; a wild read sure on felt of one of its colours is a wild)
            oval = [r for r in readings if (colour(r) == band.colour or (colour(r) is None and not r.sure)) and band_ink(r)]
            held = {id(r) for r in oval}
            # a card read sure, or a card of another colour: not a photo of one card. (A reading of
            # the band's colour in another ink, unsure, is weighed against the photo read whole: the
            # filled-oval print's green numeral, outlined in black, is paler than its field)
            other = any(id(r) not in held and foreign(r) for r in readings)
            readings = [replace(r, confidence=min(r.confidence, BELOW_MAX)) if id(r) in held else r for r in readings]
            if other:
                return readings
            # (a held reading that was sure may be a card lying on felt of its very ink: a red 4 on
            # a pale red cloth, whose picture read whole is a red skip)
            # (and what was found is one thing, large: cards lying about a cloth of their ink, a blue
            # gingham, are held too, and the cloth read whole is no card)
            only_oval = len(oval) == len(readings) and not any(r.sure for r in oval) and _one_large(oval, bgr)
        elif not band.card_to_edges:
            return self._inside_wild(bgr, readings) if INSIDE_WILD else readings
        else:
            if INSIDE_PIECE < 1.0:
                # a thing of the card's very ink, read sure, that fills little of a picture the card
                # fills is a piece of that card, not a card lying on it: a party print's giant 9
                # seen close, the white loop of the 9 round a field of its green read as a green 0
                # at 0.95, sure (the bench's inside renders, 4:3 frame). Held unsure, as the oval is
                # inside the field (the card found whole fills most of the picture); and where all
                # that was found is such pieces, they are weighed as the oval is (its blue 9's loop
                # read as a blue 0, unsure, and the picture read whole a blue 9 at 0.54)
                limit = INSIDE_PIECE * bgr.shape[0] * bgr.shape[1]
                piece = [r.quad.area < limit and of_band(r) for r in readings]
                readings = [replace(r, confidence=min(r.confidence, BELOW_MAX)) if p else r
                            for r, p in zip(readings, piece)]
            if (len(readings) > 1 and not INSIDE_PIECES) or not _one_large(readings, bgr, INSIDE_APART) or \
                    any(foreign(r) for r in readings):
                return readings       # (two cards found apart, or one small: a table, not one card)
            # a card filling the picture, its margin running off the edges (a photo cropped to the
            # card): nothing held, for what was found may be the card itself; the picture read whole
            # stands where nothing was found, or against one unsure reading of its colour, strongly
            # (the filled-oval print cropped 2-3% inside its edge: its oval's 9 read as a 6)
            only_oval = not readings or (INSIDE_PIECE < 1.0 and all(piece))
        work, k = inside.work_size(bgr)
        if inside.centre_ink(work, band.colour, self.palette) < inside.CENTRE_INK:
            return readings           # a plain cloth of a card's colour
        card, conf, chance, outline = self._read_whole(bgr)
        if card is None or self.deck.cards[card].color != band.colour:
            return readings
        # where all that was found within it is its oval, or reads the same card, the photo read whole
        # stands (the oval's reading is of a card cut at its ends: a 0 as a 7, a skip as a +2);
        # against a reading of another ink, only where it reads strongly
        agreed = any(r.card == card for r in readings)
        # (and against readings all weaker than INSIDE_LEAST: a deck taught from whole faces matches
        # the pieces found within one at 0.02-0.05 and the picture read whole at 0.75-0.8)
        weak = INSIDE_WEAK and all(r.confidence < INSIDE_LEAST for r in readings)
        if chance < INSIDE_LEAST or (chance < INSIDE_STRONG and not (only_oval or agreed or weak)):
            return readings
        if agreed and not band.inside_field:
            # the card found, whole: its own outline, first among readings as sure as it (a held
            # reverse cut at the picture's edge, its outline the picture's, and its lower arrow, read
            # as a +2: both unsure at the same confidence, the +2 first). Read whole strongly, the
            # card's readings are as likely as that unsure chance (a deck taught from whole faces
            # matches pieces of one at 0.02-0.05: a taught +2's lower card as a reverse came first)
            if chance >= INSIDE_STRONG:
                readings = [replace(r, confidence=max(r.confidence, min(chance, BELOW_MAX))) if r.card == card else r
                            for r in readings]
            return sorted(readings, key=lambda r: (r.confidence, r.card == card, r.raw), reverse=True)
        return [Reading(card, min(chance, BELOW_MAX), Quad(outline, 1.0), conf)]

    def _inside_wild(self, bgr: np.ndarray, readings: list[Reading]) -> list[Reading]:
        """`readings` of a photo, or the photo read whole as a wild or a wild draw four where it was
        taken inside one (locate/inside.py): its black field runs along the picture's edges
        (dark_share), and what was found within it, unsure, is one of the small cards drawn on a +4
        or a quarter of a wild's oval, read as a card of that colour. A dark table's photo has its
        dark band too, all along it, where a wild's has its oval and corner indices; and the picture
        read whole must be a wild, strongly, and what was found one thing, large, unsure: four cards
        lying apart on a dark table, none found, read whole as a wild; a table scene, a green reverse
        found unsure under a hand and the blue, red and green cards below it, read whole as a wild
        draw four at 0.9 and more (bench tables cell, seed 17571). Where nothing at all was found
        (INSIDE_WILD_NONE), the picture's coloured ink must be one thing in its middle, as a wild's
        oval is and those four cards are not (inside.one_ink_blob)."""
        look = inside.work_size(bgr, inside.LOOK_SIDE)[0]
        blob = False
        if not readings:
            # nothing found at all (the renders of four prints' wilds cut 7% inside: the locators find
            # nothing there), where its ink is one thing in the middle, as a wild's oval is, or where
            # the picture read whole is a wild draw four by its text (INSIDE_TEXT_FOUR, below)
            blob = INSIDE_WILD_NONE and inside.one_ink_blob(look)
            if not (blob or INSIDE_TEXT_FOUR):
                return readings
        elif any(r.sure for r in readings) or not _one_large(readings, bgr, least=ONE_LARGE_WILD):
            return readings
        # (a wild's oval and corner indices reach into the band: a dark table lies all along it. Where
        # nothing was found the band may be dark all round: a wild whose black field reaches further
        # round its oval, cut deep, the 2018 and 2024 prints' cut 10% inside, 0.88-1.0 dark)
        if not INSIDE_DARK <= inside.dark_share(look) <= (INSIDE_DARK_NONE if not readings else INSIDE_DARK_MAX):
            return readings
        # ... and all four colours: a card of one colour on a dark table, read whole, is a wild draw
        # four's drawn card to the readers (real-uno-dev r0.jpg, and g0.jpg and g7.jpg overexposed,
        # their table no longer dark all round: read right unsure, read whole as a +4 at 0.9 and more)
        whole = self._whole(bgr)
        four = scarcest_two(colour_votes(whole[2], palette=self.palette)) >= INSIDE_FOUR
        if not four and readings:
            return readings
        card, conf, chance, outline = self._read_whole(bgr, whole)
        if card is None or self.deck.cards[card].color is not None or chance < INSIDE_STRONG or \
                any(r.card == card for r in readings):
            return readings
        if not readings and not (blob and four):
            # a wild draw four whose +4 is white on its black field, no colour on it (party and
            # cheap prints): nothing found within it, it is one only where its text says "+4" clearly
            told = self._last_text
            if not (INSIDE_TEXT_FOUR and card == "wild-draw4" and told is not None
                    and "wild-draw4" in (clear_symbols(told) or ())):
                return readings
        return [Reading(card, min(chance, BELOW_MAX), Quad(outline, 1.0), conf)]

    def _read_whole(self, bgr: np.ndarray, whole: tuple | None = None) -> tuple[str | None, float, float, np.ndarray]:
        """The picture read as one card whose field fills it (`whole`: its _whole, when already
        made): (card, the readers' confidence, its chance, the card's outer edge beyond the picture,
        in the picture's pixels)."""
        card_img, quad, warped, outline = whole or self._whole(bgr)
        card, conf = self._identify(card_img, Quad(quad, 1.0), warped)
        chance = self.calibration(conf)
        if self.taught is not None and self._last_builtin is not None and card == self._last_builtin[0]:
            # a taught deck matches whole faces, and the picture padded is part of one: where it
            # reads the built-in readers' card, their own chance counts (the thresholds of the
            # inside rules are chances of the built-in's; the taught deck's scale is its own)
            chance = max(chance, self._builtin_chance(self._last_builtin[1]))
        return card, conf, chance, outline

    @staticmethod
    def _whole(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The picture as one card whose field fills it, padded with its paper's white
        (inside.padded): (the padded picture, the card's quad in it, the card warped, the card's
        outer edge in the picture's own pixels)."""
        work, k = inside.work_size(bgr)
        card_img, quad, p = inside.padded(work)
        return card_img, quad, warp_card(card_img, quad), ((quad - p) / k).astype(np.float32)

    def _read_resized(self, bgr: np.ndarray, width: int, height: int,
                      close_ups: bool) -> tuple[list[Reading], list[Quad]]:
        """read_all of the picture resized to width x height (its own size: as it is), and at most
        WORK_SIDE long; outlines in the picture's own pixels."""
        # a phone's photo is read at a working size: the outline searches grow with the card's pixels
        # (a card held close in a 4032-pixel photo: 1.9-2.8 s, the same photo at 2016 0.5-0.7 s, read alike)
        k = min(1.0, WORK_SIDE / max(width, height))
        size = (max(1, round(width * k)), max(1, round(height * k)))
        if size == (bgr.shape[1], bgr.shape[0]):
            return self._read_all(bgr, close_ups)
        small = cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)
        readings, backs = self._read_all(small, close_ups)
        sx, sy = bgr.shape[1] / small.shape[1], bgr.shape[0] / small.shape[0]

        def back(q: Quad) -> Quad:
            return Quad((q.pts * np.float32([sx, sy])).astype(np.float32), q.score)
        return [replace(r, quad=back(r.quad)) for r in readings], [back(q) for q in backs]

    def _read_all(self, bgr: np.ndarray, close_ups: bool) -> tuple[list[Reading], list[Quad]]:
        """read_all of a 3-channel picture at most WORK_SIDE pixels long."""
        self.foreign = 0
        self._matched = {}
        self._keypointed = {}
        self._taught_backs = []
        self._known_backs = []
        memo: dict = {}          # this frame's outlines and their verdicts (verify_once)
        faces, backs = self.locate_all(bgr, close_ups, memo)
        # a wild is black with a coloured oval, as the backs of the UNO family are, and the detector
        # may take one for a back; a back has one main colour (red), a wild all four
        rectified = [(q, warp_card(bgr, q.pts)) for q in backs]
        wilds = [(q, card_bgr) for q, card_bgr in rectified if four_coloured(card_bgr, min_share=self._wild_share,
                                                                           min_coloured=self._wild_coloured)]
        # a face the detector took for a back that the taught deck knows closely: a deck drawn or
        # printed at home may colour its whole face in one colour inside a white margin, as a back
        # looks to the detector; a back itself lies far from every taught face
        taught = [(q, card_bgr) for q, card_bgr in rectified
                  if all(q is not w for w, _ in wilds) and self._taught_face(bgr, q, card_bgr)]
        readings = self._read_warped([(q, warp_card(bgr, q.pts)) for q in faces] + wilds + taught, bgr, memo,
                                     mirrored=close_ups)
        self._matched = {}       # of this frame only
        self._keypointed = {}
        backs = [q for q in backs if all(q is not w for w, _ in wilds + taught)]
        # one card face down found twice (the detector's two looks): once
        backs = [q for k, q in enumerate(backs) if all(quad_iou(q.pts, o.pts) < 0.5 for o in backs[:k])]
        if self._taught_backs or self._known_backs:
            readings, taught_backs = _backs_apart(readings, self._taught_backs, self._known_backs)
            self._saw_back = self._saw_back or bool(taught_backs) or bool(self._known_backs)
            # the detector's own back at the same place is the same card face down
            backs += [b for b in taught_backs if all(quad_iou(b.pts, q.pts) < 0.5 for q in backs)]
        if close_ups and COVERED and self.taught is None and self.border is None and self.deck.id in TEXT_DECKS:
            readings = self._uncovered(bgr, readings, backs, memo)
        if close_ups and TAUGHT_AROUND and self.taught is not None:
            readings = self._taught_around(bgr, readings, memo)
            if not readings and not backs and AROUND_UNREAD:
                # (not beside a back: what did not verify there is the back's own oval or a piece of it;
                # looked round, a printed UNO back's oval read as a taught DINO 2 card at 0.47)
                readings = self._around_unread(bgr, faces[:AROUND_UNREAD], memo)
        return readings, backs

    def _uncovered(self, bgr: np.ndarray, readings: list[Reading], backs: list[Quad], memo: dict) -> list[Reading]:
        """A photo's readings, each card lying partly under another card read sure or a card face down
        (overlap.py tells which lies on top) read again with the part they cover painted out
        (locate/covered.py): the piece of the card above had been read as the lower card's symbol (a
        green 0 under a +2 as a +2). A reading unsure under no card is read again with what lies across
        its margin that is no card painted out (OCCLUDED, locate/occluder.py: a hand reaching over it,
        whose skin had been read as the card's red), and stays unsure. Its verdict stands (the frame's
        memo: the outline was verified in the photo as it is); where the painted card no longer reads,
        the first reading stays."""
        if len(readings) + len(backs) < 2 and not (OCCLUDED and any(not r.sure for r in readings)):
            return readings
        # (a card read sure: an unsure outline may span two cards, and its edges then run over both)
        each = covered.cards_above_each(bgr, [(r.quad.pts, [o.quad.pts for o in readings if o is not r and o.sure]
                                               + [b.pts for b in backs]) for r in readings])
        out = []
        for r, above in zip(readings, each):
            # (a sure reading is left as it is: a hand over it did not hide its symbol; and a card under
            # cards is painted where they lie only: what crosses its margin there is the card above)
            hidden = occluder.occluder_mask(bgr, r.quad.pts) if OCCLUDED and not r.sure and not above else None
            painted, share = covered.painted_out(bgr, r.quad.pts, above, hidden) \
                if above or hidden is not None else (bgr, 0.0)
            if not covered.LEAST <= share <= covered.MOST:
                out.append(r)
                continue
            again = self._read_warped([(r.quad, warp_card(painted, r.quad.pts))], painted, dict(memo), mirrored=True)
            if again and hidden is not None:
                # (painted over, a hand's part reads as the card's own field, as if nothing were there: a
                # 2 whose foot lies under a hand is read as a 7, surely. So that reading takes the first's
                # place only where it reads more surely, and is sent unsure as the first was)
                if again[0].confidence <= r.confidence:
                    again = []
                else:
                    again = [replace(again[0], confidence=min(again[0].confidence, BELOW_MAX))]
            out.append(replace(again[0], quad=r.quad) if again else r)
        out.sort(key=Reading.rank, reverse=True)
        return out

    def _taught_around(self, bgr: np.ndarray, readings: list[Reading], memo: dict) -> list[Reading]:
        """A photo's readings with a taught deck, its cards' outlines looked at again. The detector
        learned printed cards: round a card drawn by hand on white stock its box may lie square to the
        picture round the card at a slant, or round the card and a sheet of paper beneath, and verify
        (white about it wherever it lies); the card read there matches no taught photo well. Round an
        unsure reading's outline the card is looked for again (locate/around.py: GrabCut seeded with
        it, the local pale pixels; inside it, the brightest pale pixels and the regions its edges
        enclose), and an outline found there that reads AROUND_LEAD more surely takes its place
        (_looked_around). First, a reading lying inside another, a fraction of its size (a letter of
        a card's name verifies as a small white card), is a piece of that card. Teach bench, the DINO 2 deck drawn
        in coloured ink taught from one photo a card: 176 readings, 155 -> 161 right, none wrong and
        sure (docs/teach.md, "Outlines looked for again")."""
        readings = [r for r in readings if not any(
            o is not r and share_inside(r.quad.pts, o.quad.pts) > INSIDE and r.quad.area < PIECE_OF_CARD * o.quad.area
            and o.confidence >= PIECE_OUTER * r.confidence for o in readings)]
        out, looked, backs = [], 0, self._taught_backs
        for r in readings:
            if r.sure or looked >= AROUND_MOST:
                out.append(r)
                continue
            looked += 1
            out.append(self._looked_around(bgr, r.quad, r, memo) or r)
        out.sort(key=Reading.rank, reverse=True)
        return out

    def _looked_around(self, bgr: np.ndarray, q0: Quad, r: Reading | None, memo: dict) -> Reading | None:
        """The reading of an outline found round `q0` (outlines_around) that reads AROUND_LEAD more
        surely than `r` (None: than nothing), and names `r`'s card unless `r` was under AROUND_WEAK;
        None where none does."""
        seen, best, backs = [q0.pts], None, self._taught_backs
        bar = r.confidence if r is not None else 0.0      # the confidence to beat by AROUND_LEAD
        for q in outlines_around(bgr, q0.pts, self.look.aspect):
            if max(share_inside(q.pts, q0.pts), share_inside(q0.pts, q.pts)) < AROUND_OVERLAP or \
                    any(quad_iou(q.pts, s) >= AROUND_SAME for s in seen):
                continue
            seen.append(q.pts)
            self._taught_backs = []      # (an outline read as the taught back here is no back found)
            for c in self._read_warped([(q, warp_card(bgr, q.pts))], bgr, memo):
                if c.confidence > bar + AROUND_LEAD and (r is None or c.card == r.card or r.confidence < AROUND_WEAK):
                    best, bar = c, c.confidence
        self._taught_backs = backs
        return best

    def _around_unread(self, bgr: np.ndarray, faces: list[Quad], memo: dict) -> list[Reading]:
        """With a taught deck and nothing read: the card looked for round the outlines the detector
        found as faces that did not verify (its box round a card drawn on white stock may lie at
        another slant, or take in the table about it, and run off the picture). The best reading found
        round them, if any."""
        found = [c for c in (self._looked_around(bgr, q, None, memo) for q in faces) if c is not None]
        return sorted(found, key=Reading.rank, reverse=True)[:1]

    def _taught_face(self, bgr: np.ndarray, q: Quad, card_bgr: np.ndarray) -> bool:
        """Whether a "back" is a face of the taught deck: as near one of its cards as TAUGHT_NEAR
        (in the taught deck's units, deck.py), or read sure. Measured on photos of renders of the
        three decks' backs, against hand-drawn decks taught from one photo a card: of 473
        outlines the detector found as backs none nearer than 3.2; at their true outlines 360
        backs against decks printed or drawn by hand none read at more than 0.08 (one UNO back
        2.94 from a printed DINO 2 deck: read, unsure). Hand-drawn faces the detector took for
        backs lay at a median 2.3, 0.73 of them within 3.0."""
        if self.taught is None or not TAUGHT_FACE:
            return False
        from .teach.reader import taught_match
        m = taught_match(self.taught, bgr, q.pts, card_bgr)
        if TAUGHT_BACK and m.is_back:
            self._known_backs.append(q)
            return False          # the very back the deck was taught
        self._matched[q.pts.tobytes()] = m       # read once: _identify takes it from here
        if m.best <= TAUGHT_NEAR or m.confidence >= CONFIRM_THRESHOLD:
            return True
        return TAUGHT_FACE_LOCAL and m.best <= TAUGHT_FACE_FAR and self._face_by_keypoints(bgr, q, m.card)

    def _face_by_keypoints(self, bgr: np.ndarray, q: Quad, card: str) -> bool:
        """Whether a "back" the taught deck's embedding places beyond TAUGHT_NEAR is one of its faces
        all the same: its keypoints match a taught photo of a card of the colour the embedding saw, clearly
        (teach/local.py `verified`: aligned by a homography as two photos of one card, 15 inliers at least
        and three times the next card's). A finger over a coloured-in card, or a blur, takes its embedding
        beyond TAUGHT_NEAR while its drawing's own strokes still match (the teach bench's snake-cup deck
        drawn by hand: 5 such faces of 10, all right); a back matches no face so. Not where the match
        is of another colour: keypoints are colour-blind (a violet card whose own photo was refused
        matched the red card of its symbol)."""
        colour, symbol = self._colours.get(card), self.deck.cards[card].symbol
        named = self._named_by_keypoints(bgr, q, colour, symbol)
        # kept for this quad: the face is read next (_identify), and an unsure reading of the same
        # colour and symbol is checked against the same photos (_locally_checked)
        self._keypointed[(q.pts.tobytes(), colour, symbol)] = named
        return named is not None and named[0] is not None and self._colours.get(named[0]) == colour

    def _named_by_keypoints(self, frame: np.ndarray, q: Quad, colour: str | None,
                            symbol: str | None) -> tuple[str | None, int] | None:
        """(the card whose taught photos the face at `q` clearly matches, else None; its inliers) among
        the taught cards of `colour` and those of `symbol` (deck.local_candidates, every taught card of
        the colour: _locally_checked asks only where the colour was taught whole or TAUGHT_LOCAL_PARTLY
        lets a colour taught in part be asked, and the candidates are the same either way); None where no
        keypoints were kept for them. A check made for this quad in this read_all is taken, once."""
        from .teach import local
        key = (q.pts.tobytes(), colour, symbol)
        if key in self._keypointed:
            return self._keypointed.pop(key)
        candidates = self.taught.local_candidates(colour, symbol, partly=True)
        if not candidates:
            return None
        found, inliers, _ = local.verified(local.features(frame, q.pts), candidates)
        return found, inliers

    def read(self, bgr: np.ndarray) -> list[Reading]:
        """Every card found in the frame, most confident first."""
        return self.read_all(bgr)[0]


def _backs_apart(readings: list[Reading], taught_backs: list[Quad],
                 known_backs: list[Quad]) -> tuple[list[Reading], list[Quad]]:
    """(the readings that are cards, the taught backs that are backs), where `taught_backs` are
    outlines the taught deck read as its back and `known_backs` the detector's backs it knew as it.
    A back lying inside a card read sure is a piece of that card (a patch of bare stock inside a
    card drawn in ink), and one of another size than the cards read sure is no card of the deck (a
    sheet of lined paper beside a card drawn on white stock, 2.5 times its size, read as its back):
    the cards of one deck in one picture are about one size (BACK_SIZE). A reading inside a back and
    smaller is a piece of the back's drawing (a hand-drawn back's zigzags, read as cards, unsure),
    and one that holds a whole back is a patch of table round it (a printed back on wood: outlines
    2.5-24 times its area, read as cards at up to 0.59). Session 62, bench/teach.py --only back."""
    sure = [r.quad for r in readings if r.sure]

    def a_back(b: Quad) -> bool:
        return not any(share_inside(b.pts, q.pts) > INSIDE
                       or not 1 / BACK_SIZE <= b.area / max(q.area, 1e-6) <= BACK_SIZE for q in sure)
    taught_backs = [b for b in taught_backs if a_back(b)]
    known = taught_backs + [b for b in known_backs if a_back(b)]

    def of_a_back(r: Reading) -> bool:
        return any((share_inside(r.quad.pts, b.pts) > INSIDE and r.quad.area < PIECE * b.area)
                   or (share_inside(b.pts, r.quad.pts) > INSIDE and b.area < PIECE * r.quad.area) for b in known)
    return [r for r in readings if not of_a_back(r)], taught_backs


def _faces_of(bgr: np.ndarray, not_border: np.ndarray, border,
              card_aspect: float = CARD_ASPECT) -> list[tuple[np.ndarray, float]]:
    """(quad, score) of the card-shaped regions of `not_border` (a frame's pixels not of a taught
    border's colour), each pushed out by the border's depth: cards whose face the ring isolates."""
    from .locate.field import card_round
    if border.depth <= 0:
        return []
    return [(card_round(q.pts, border.depth), q.score)
            for q in find_cards(bgr, max_area_frac=0.5, mask=not_border, card_aspect=card_aspect)]


def _one_large(readings: list[Reading], bgr: np.ndarray, apart_large: bool = False,
               least: float = ONE_LARGE) -> bool:
    """Whether the readings are of one thing, large (ONE_LARGE of the picture or more, the others
    overlapping it): the oval found inside a card (the bench's inside frames, 245 of them: 0.08 of
    the picture at least), not cards lying about a table (from above 1-5% each, apart).
    `apart_large`: pieces apart count too where each is that large (a +2's two drawn cards);
    `least`: that share (ONE_LARGE_WILD inside a wild's field)."""
    if not readings:
        return True
    area = least * bgr.shape[0] * bgr.shape[1]
    big = max(readings, key=lambda r: r.quad.area).quad
    return big.area >= area and all(
        quad_iou(big.pts, r.quad.pts) > 0 or (apart_large and r.quad.area >= area) for r in readings)


def _lookalikes(a: str | None, b: str | None) -> bool:
    """Whether two symbols are a shape and a numeral its drawing reads as (DRAWN_AS)."""
    return b in DRAWN_AS.get(a, ()) or a in DRAWN_AS.get(b, ())


def _nested(a, b) -> bool:
    """Whether one of two detections' outlines lies inside the other's (both verified)."""
    if not (a.verified > 0 and b.verified > 0):
        return False
    small, big = (a, b) if a.quad.area <= b.quad.area else (b, a)
    return share_inside(small.quad.pts, big.quad.pts) > INSIDE


def _better(a, b) -> bool:
    """Whether detection a's outline verified better than b's (the larger one on a tie)."""
    return (a.verified, a.quad.area) > (b.verified, b.quad.area)


def _better_from(far: list, d):
    """The face of `far` (detections from farther) that overlaps detection `d` and whose outline
    verified better, or `d`."""
    return next((f for f in far if f.kind == "card" and f.verified > d.verified
                 and quad_iou(d.quad.pts, f.quad.pts) > 0.5), d)


def _face_not_back(card_bgr: np.ndarray) -> bool:
    """True when a card the detector took for a back is one colour and not red: a UNO family back
    is black round a red oval (red led on 42 of 42 backs the detector verified in 180 synthetic
    scenes), and a dark green or blue face is what it takes for one. A warp of colours mixed (a
    box over several cards of a pile, a wild) or hardly coloured (card_colour: None) is left as
    it was."""
    colour, share = card_colour(card_bgr)
    return colour not in (None, "red") and share >= ONE_COLOUR


def _small_cards(boxes: list, shape: tuple) -> bool:
    """True when the detector's first look found cards and every one is small in the picture (its
    short side under SMALL_CARD of the picture's): a table seen from above, not a card held close."""
    if not boxes:
        return False
    short = min(shape[:2])
    return all(float(side_lengths(pts).min()) < SMALL_CARD * short for pts, _, _ in boxes)


def _thumb(card_bgr: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A small copy of the card for telling whether it is the same card as before, its levels
    stretched so its brightest (the paper) is 255: in a dim room every difference between two
    cards shrinks with the light, and two cards of one colour fell under TEXT_SAME."""
    t = cv2.resize(card_bgr, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    top = max(float(np.percentile(t, 99)), THUMB_FLOOR)
    return np.clip(t * (255.0 / top), 0, 255).astype(np.int16)


def _same_card(cache: list, quad: np.ndarray, thumb: np.ndarray, place_px: float) -> int | None:
    """The index of the cache entry (quad, thumbnail, ...) of a card at the same place (every
    corner within `place_px`) that looks the same, or None."""
    for i, (q, t, _) in enumerate(cache):
        if q is not None and float(np.abs(q - quad).max()) <= place_px and float(np.abs(t - thumb).mean()) < TEXT_SAME:
            return i
    return None
