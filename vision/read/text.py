"""Stage 3c: the printed text of a card (its numeral, "+2", "+4"), read by a real OCR model.

The symbol classifier (symbols.py) learned the prints it was trained on; numerals in a print it
has never seen (another font, a coloured numeral with a black outline, an italic 7 that looks
like its 1) fool it. Text recognition trained on millions of real text lines does not care which
print a numeral comes from. So the card's text is read twice, independently of the classifier:

- the centre, where every UNO print puts its big numeral (or "+2" on some prints);
- the corner index, which every print has, and which reads "+2" / "+4" even where the centre
  shows drawn cards;

each in both orientations (a rectified card is upright or upside down; its text reads in one of
them, and both corner indices are upright in their own orientation).

The model is PaddleOCR's PP-OCRv4 recognizer (models/text-recognizer.onnx, Apache-2.0, see
models/LICENSE-text-recognizer.txt), run under onnxruntime. Its alphabet has 6,623 characters;
decoding is restricted to the eleven a UNO card prints ("0"-"9" and "+"), so a shape is read as
the likeliest of those or as nothing, never as a letter. Skip, reverse and wild are shapes, not
text: for them this reader only says "no numeral here", which is evidence too.

Reading costs a few milliseconds a crop, so the live pipeline reads text once per settled card
(the recognizer keeps the evidence of the quads it has read), never on every frame.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..errors import ModelError, models_dir, onnx_session
from ..rectify.warp import in_view

MODEL_FILE = "text-recognizer.onnx"
ALPHABET = "0123456789+"
HEIGHT = 48                    # the model's input height
CARD_W, CARD_H = 112, 174      # the card warp text is read from
# crops of the upright card (x0, y0, x1, y1 as fractions): where prints put their text
CENTRE = (0.07, 0.23, 0.93, 0.77)
# the centre numeral read again closer in, without the oval's rim round it: the whole centre
# reads a classic print's white numeral (black shadow, white ring) clearly on 20 of 40 real cards,
# this crop on 36 of 40 (models/README.md, session 18)
CENTRE_CLOSE = (0.18, 0.30, 0.82, 0.70)
CLOSE_CLEAR = 0.9              # the closer reading counts from this confidence ...
CLOSER = True                  # (False: the whole centre only)
BY_VALUE = True                # a silent centre read again in the brightest channel of each pixel (HSV's V):
VALUE_CLEAR = 0.85             # ... its reading counting from this confidence. The classic print's white numeral
                               # with a black shadow on red is often not read at all (its "7" above all); in V its
                               # field is as pale as the numeral, and the shadow reads as a dark numeral on white.
                               # Measured (models/README.md, session 23): of 188 silent centres (real photos and 7 sweep
                               # cells), 17 numerals read right at 0.85 and more, and one 6 as "9" (the same to the
                               # fuse); no action card read as a numeral at 0.85 or more
SILENT_CLOSE = 0.95            # ... and closer in (CENTRE_CLOSE, in colour), counting from this confidence: after
                               # that, of some 350 silent centres (real photos, 7 sweep cells, seeds 1313 and 8484)
                               # 27 numerals read right at 0.95 or more (a classic 1 or 7 in its white ring), none
                               # wrong; action cards read at most 0.89 there (a reverse's arrows as "2")
CORNER = (0.01, 0.01, 0.42, 0.23)
CORNER_BY_INK = True           # a corner index silent, on a card whose centre is silent too, read again in each
CORNER_INK_CLEAR = 0.85        # pixel's darkest channel, where white on any colour stands out; only a whole "+2"
                               # or "+4" read from this confidence counts. The filled-oval print's "+2" corners
                               # (white, outlined, on yellow) gave OCR nothing in colour, and readers that never saw
                               # that print took its two drawn cards for a 7. Measured (seed 17191, the bench's
                               # cells, 4,063 silent corners): read so, 104 right (52 of them a +2 whose centre was
                               # silent) and 26 wrong, most a numeral from a skip's ring or a reverse's arrows and
                               # 6 a numeral from another; no "+2" or "+4" from a card that was neither
# Two numerals OCR reads each other as upside down, beside 6 and 9: an italic 7 turned reads "2"
# (17 of 72 rendered 7s of six print families, clearly), and a 2 turned now and then "7" (a real
# blue 2, squashed: "2" at 0.996 one way, "7" at 0.991 the other). A place read as the two, one
# each way up, both from TURNED_LEAST, says "one of them", which is no clear reading of either: its
# reading is held at TURNED_SAYS (between fuse.WEAK and fuse.PLUS_FAIR: no evidence), and the shape
# readers and the other place decide. The filled-oval print's green 7 seen close, its corners out of
# view, read "2" at 0.99 upside down and "7" at 0.78 upright, and went out as a +2 whose plus was missed
TURNED_PAIRS = ({"7", "2"},)
TURNED_LEAST = 0.3
TURNED_SAYS = 0.5
SYMBOL_OF_TEXT = {**{d: d for d in "0123456789"}, "+2": "draw2", "+4": "wild-draw4"}
PLUS_TEXT = (SYMBOL_OF_TEXT["+2"], SYMBOL_OF_TEXT["+4"])   # what the ink look may tell (CORNER_BY_INK)


@dataclass(frozen=True)
class TextEvidence:
    """What the card's text says: per place (centre, corner) the symbol read and its confidence
    (the model's mean probability over the characters read), None where no text was read."""
    centre: tuple[str | None, float]
    corner: tuple[str | None, float]
    six_nine: str | None = None   # "6" or "9" where the numeral's underline told which way is up
    second_look: bool = False     # the centre read only by the second look at a silent centre (V, closer)

    def symbols(self) -> dict[str, float]:
        """symbol -> the best confidence any place read it with."""
        out: dict[str, float] = {}
        for sym, conf in (self.centre, self.corner):
            if sym is not None:
                out[sym] = max(out.get(sym, 0.0), conf)
        return out


class TextReader:
    def __init__(self, path: str | Path | None = None, threads: int = 2):
        path = Path(path) if path else models_dir() / MODEL_FILE
        # one single-threaded session per thread, each reading its share of a batch at the same
        # time: the model's layers on a 48-pixel line are too small for onnxruntime to share one
        # out between threads (a batch of 4 crops: 15.4 ms on 2 threads, 15.7 on 1; two halves
        # side by side: 8.1; build note in models/README.md, session 22)
        self.sessions = [onnx_session(path, "text recognizer", "restore it from git", 1)
                         for _ in range(max(1, threads))]
        self.session = self.sessions[0]
        self._pool = None       # the threads beside the caller's, started on the first batch
        try:
            chars = self.session.get_modelmeta().custom_metadata_map["character"].splitlines()
        except KeyError:
            raise ModelError(f"text recognizer model {path} carries no alphabet: not PP-OCR's; "
                             f"restore it from git") from None
        # output class k+1 is chars[k]; class 0 is the CTC blank
        self._classes = np.array([0] + [chars.index(c) + 1 for c in ALPHABET])
        self.input_name = self.session.get_inputs()[0].name

    def read_lines(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """(text, confidence) of each BGR crop, one line of text each, in one batch."""
        if not crops:
            return []
        widths = [max(HEIGHT // 2, int(round(HEIGHT * c.shape[1] / max(c.shape[0], 1)))) for c in crops]
        wmax = max(widths)
        batch = np.zeros((len(crops), 3, HEIGHT, wmax), np.float32)   # 0 = mid-grey after normalising
        for i, (c, w) in enumerate(zip(crops, widths)):
            x = cv2.resize(c, (w, HEIGHT), interpolation=cv2.INTER_AREA if c.shape[0] > HEIGHT else cv2.INTER_CUBIC)
            batch[i, :, :, :w] = (x.astype(np.float32).transpose(2, 0, 1) / 255.0 - 0.5) / 0.5
        probs = np.concatenate(self._run(batch))                     # N x T x classes (softmax)
        return [_decode(p[:, self._classes]) for p in probs]

    def _run(self, batch: np.ndarray) -> list[np.ndarray]:
        """The model's output on `batch`, in parts read side by side, one part per session, the
        caller's thread reading the first (each crop is read alone: the parts' outputs are the
        whole batch's)."""
        parts = [p for p in np.array_split(batch, len(self.sessions)) if len(p)]
        if len(parts) == 1:
            return [self.session.run(None, {self.input_name: batch})[0]]
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor
            self._pool = ThreadPoolExecutor(len(self.sessions) - 1, thread_name_prefix="text-reader")
        later = [self._pool.submit(s.run, None, {self.input_name: p})
                 for s, p in zip(self.sessions[1:], parts[1:])]
        first = self.session.run(None, {self.input_name: parts[0]})[0]
        return [first] + [f.result()[0] for f in later]

    def read_card(self, card_bgr: np.ndarray, again: bool = True) -> TextEvidence:
        """The text evidence of a rectified card (any size; best from a CARD_W x CARD_H warp).
        `again`: a silent centre is looked at a second time (BY_VALUE, SILENT_CLOSE); the caller
        says no where that reading would not count (fuse.second_look), and saves its time."""
        card = _text_size(card_bgr)
        turned = card[::-1, ::-1]
        crops = [_crop(card, CENTRE), _crop(turned, CENTRE), _crop(card, CORNER), _crop(turned, CORNER)]
        lines = self.read_lines(crops)
        centre_lines, corner = lines[0:2], _best(lines[2:4])   # centre: (upright, turned)
        centre = _best(centre_lines, turned=True)
        # the centre again closer in where the whole centre read text, but not clearly: the closer
        # reading stands where it is clear and is the text the whole centre read faintly (closer
        # in, a reverse's S without its arrow heads reads "3")
        faint = {SYMBOL_OF_TEXT.get(t.strip()) for t, c in centre_lines if c > 0} - {None}
        if CLOSER and faint and centre[1] < CLOSE_CLEAR:
            near = self.read_lines([_crop(card, CENTRE_CLOSE), _crop(turned, CENTRE_CLOSE)])
            close = _best(near, turned=True)
            if close[1] >= CLOSE_CLEAR and close[0] in faint:
                centre, centre_lines = close, near
        second = False
        if again and BY_VALUE and centre[0] is None:
            # silent at the centre: read it again in the brightest of each pixel's channels, where
            # a field of any colour turns as pale as the numeral and the numeral's dark outline or
            # shadow stands out on white (see BY_VALUE), and closer in (SILENT_CLOSE); only a clear
            # reading of either counts
            value = [_as_colour(_crop(c, CENTRE).max(axis=2)) for c in (card, turned)]
            near = [_crop(c, CENTRE_CLOSE) for c in (card, turned)] if SILENT_CLOSE < 1.0 else []
            lines = self.read_lines(value + near)
            for read, clear in ((lines[:2], VALUE_CLEAR), (lines[2:], SILENT_CLOSE)):
                got = _best(read, turned=True)
                if got[0] is not None and got[1] >= clear:
                    centre, centre_lines, second = got, read, True
                    break
        if CORNER_BY_INK and corner[0] is None and centre[0] is None:
            # (the darkest channel: the paper stays white, and any ink turns dark, white on yellow too)
            got = _best(self.read_lines([_as_colour(_crop(c, CORNER).min(axis=2)) for c in (card, turned)]))
            if got[0] in PLUS_TEXT and got[1] >= CORNER_INK_CLEAR:
                corner = got
        six_nine = None
        if "6" in (centre[0], corner[0]) or "9" in (centre[0], corner[0]):
            six_nine = _underlined(card, centre_lines[0][0].strip(), centre_lines[1][0].strip())
        return TextEvidence(centre, corner, six_nine, second)

    def read_centre(self, card_bgr: np.ndarray) -> tuple[str | None, float]:
        """The symbol the centre of a rectified card reads as, either way up, and its confidence:
        read_card's first look at the centre alone (two crops, one batch)."""
        card = _text_size(card_bgr)
        return _best(self.read_lines([_crop(card, CENTRE), _crop(card[::-1, ::-1], CENTRE)]), turned=True)


def _text_size(card_bgr: np.ndarray) -> np.ndarray:
    """A rectified card at the CARD_W x CARD_H its text is read at."""
    return cv2.resize(card_bgr, (CARD_W, CARD_H),
                      interpolation=cv2.INTER_AREA if card_bgr.shape[1] > CARD_W else cv2.INTER_CUBIC)


def places_in_view(quad: np.ndarray, shape: tuple) -> tuple[float, float]:
    """(centre, corner): how much of each place text is read from lies inside the picture, for a
    card at `quad` in a picture of `shape`; the corner is the mean of the two corner indices."""
    x0, y0, x1, y1 = CORNER
    corners = (in_view(quad, shape, CORNER) + in_view(quad, shape, (1 - x1, 1 - y1, 1 - x0, 1 - y0))) / 2
    return in_view(quad, shape, CENTRE), corners


def _underlined(card: np.ndarray, upright: str, turned: str) -> str | None:
    """6 or 9 by the bar under the numeral, which prints put there because a 6 and a 9 are each
    other upside down; None when no bar is found. `upright`/`turned`: the centre text read in
    the card as given and turned half round."""
    seen = upright if upright in ("6", "9") else {"6": "9", "9": "6"}.get(turned)
    side = bar_side(_crop(card, CENTRE))
    if seen is None or side == 0:
        return None
    return seen if side > 0 else {"6": "9", "9": "6"}[seen]


BAR_CLEAR = True   # a bar must lie clear of the crop's edges (bar_side); False: any flat blob counted


def bar_side(centre: np.ndarray) -> int:
    """+1 when a bar lies under the numeral of this crop, -1 over it, 0 when neither is seen.
    The numeral is the largest blob away from the crop's edges (Otsu, in both polarities: white
    numerals on colour, coloured ones on white); a bar is a flat blob at least 40% as wide, just
    below or above it."""
    g = cv2.cvtColor(centre, cv2.COLOR_BGR2GRAY)
    h, w = g.shape
    votes = 0
    for flag in (cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV):
        _, mask = cv2.threshold(g, 0, 255, flag + cv2.THRESH_OTSU)
        n, _, st, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        inside = [i for i in range(1, n) if st[i, 0] > 0 and st[i, 1] > 0 and st[i, 0] + st[i, 2] < w
                  and st[i, 1] + st[i, 3] < h and 0.3 * h < st[i, 3] < 0.95 * h]
        if not inside:
            continue
        k = max(inside, key=lambda i: st[i, 4])
        x, y, bw, bh = st[k, :4]
        for i in range(1, n):
            xi, yi, wi, hi, area = st[i]
            if i == k or wi < 0.4 * bw or hi > 0.4 * wi or hi < 2 or area < 0.5 * wi * hi:
                continue
            # a bar lies clear of the crop's edges: a blob cut by them is the oval's rim or a finger
            # over the card (an off outline moves the crop), and a 6 read for a 9 is a sure mistake
            if BAR_CLEAR and (xi <= 0 or yi <= 0 or xi + wi >= w or yi + hi >= h):
                continue
            if not x - 0.2 * bw <= xi + wi / 2 <= x + 1.2 * bw:
                continue
            if 0 <= yi - (y + bh) <= 0.35 * bh:
                votes += 1
            elif 0 <= y - (yi + hi) <= 0.35 * bh:
                votes -= 1
    return int(np.sign(votes))


def _crop(card: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    h, w = card.shape[:2]
    x0, y0, x1, y1 = box
    return np.ascontiguousarray(card[int(y0 * h):int(y1 * h), int(x0 * w):int(x1 * w)])


def _as_colour(channel: np.ndarray) -> np.ndarray:
    """One channel of a crop (a pixel's brightest or darkest) as the three the model reads."""
    return np.ascontiguousarray(np.repeat(channel[..., None], 3, axis=2))


def _decode(p: np.ndarray) -> tuple[str, float]:
    """Greedy CTC decoding over the restricted alphabet: (text, mean probability of its characters)."""
    k = p.argmax(axis=1)
    text, confs, prev = "", [], 0
    for t, c in enumerate(k):
        if c != 0 and c != prev:
            text += ALPHABET[c - 1]
            confs.append(float(p[t, c]))
        prev = c
    return text, (float(np.mean(confs)) if confs else 0.0)


def _best(lines: list[tuple[str, float]], turned: bool = False) -> tuple[str | None, float]:
    """The symbol of the orientation that reads as a card's text, with its confidence. A 6 and a
    9 read each other upside down: either reading counts as "6 or 9" (the classifier decides).
    `turned`: the two lines are the centre read upright and upside down (one numeral, printed once):
    read as two numerals that read each other upside down (TURNED_PAIRS), the clearer, held at
    TURNED_SAYS, no clear reading of either. (Not the corners: the two crops there are the two
    indices, each the right way up on a card lying upright, so no pair tells a turned numeral; a 7's
    corner read "7" fairly and a "2" in its other corner is evidence of the 7.)"""
    best: tuple[str | None, float] = (None, 0.0)
    read = []
    for text, conf in lines:
        sym = SYMBOL_OF_TEXT.get(text.strip())
        if sym is None and len(text) == 2 and text[::-1] in ("+2", "+4"):  # "2+" read across a slant
            sym = SYMBOL_OF_TEXT[text[::-1]]
        read.append((sym, conf))
        if sym is not None and conf > best[1]:
            best = (sym, conf)
    if turned and len(read) == 2 and {read[0][0], read[1][0]} in TURNED_PAIRS and min(read[0][1], read[1][1]) >= TURNED_LEAST:
        return best[0], min(best[1], TURNED_SAYS)
    return best
