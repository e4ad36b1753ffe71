"""Reading a card with a taught deck, and falling back to the built-in recognizer.

The taught deck reads first. When every card of the deck was taught, its reading is the answer
(the built-in readers and their OCR are not run). When some were not, the built-in recognizer
(vision/read/) reads the card too, because a taught deck cannot tell an untaught card from the
taught card it looks most like: its weights learned what tells the *taught* cards apart
(measured: an untaught red card read as the one taught red card, sure, with three cards taught).

One pair the taught deck tells apart badly: a 6 and a 9 of one colour are each other's half turn
but for the bar under the numeral, and every taught photo is kept in both turns (a card lies either
way up), so only a few pixels of bar, above or below, separate their prototypes. The built-in
reader looks for the bar (vision/read/fuse.py), so when it names the other of the two more
confidently than the taught deck names its card, its reading stands; and a taught 6 or 9 is always
read by the built-in too (measured on the uno teach bench, taught from one photo: 7 of its 10
misses were a 6 read as a 9 or a 9 as a 6, each read right by the built-in). A corner index read
clearly tells them apart too, drawn by hand or printed: the recognizer matches the taught deck again
among the cards it names (Recognizer._corner_told).
Where the taught reading is unsure and the text reader (UNO family) read the symbol clearly, the
taught deck is first matched again among the cards of that symbol (Recognizer._identify, TEXT_TELLS).
Then:
- the built-in is sure of a card that was not taught: the built-in's reading, unless the taught
  reading is sure and near its card's prototypes (deck.NEAR: as near as a taught card's other
  photos come; an untaught card that looks like a taught one comes farther), so a re-drawn print
  is still read by what was taught; and even then, where the taught card is of the colour the
  built-in read, the surer reader's card, unsure (CONFLICT: a green 5 never taught read as the taught
  green 6 at 0.83, near, with every second card of real-uno-dev2 on black not taught); where the
  taught deck composed that very card (its symbol and colour from other cards), the two agree;
- else the taught deck is sure: the taught reading, unless the built-in is sure of another taught card
  of the same colour: then the surer reader's card, unsure (CONFLICT: two sure readers disagree;
  measured on the DINO 2 teach bench with session 15's network: a green double read as a skip 2 at
  0.65, near the skip 2's photo, the built-in sure of the double at 1.0). So that the built-in reads
  such a card at all, a taught reading answers alone (the whole deck taught) only from ALONE. Where
  the built-in names the same card, the more confident of the two (since session 82: a real yellow 6
  held in a hand, taught 0.67, the built-in 0.97, went out at 0.64 behind a piece of a mirrored copy
  of it at the picture's edge read at 0.67, so that the photo's first reading was wrong and sure);
- else both name the same card (two readers agree): that card, the more confident of the two;
- else the built-in is sure of the taught deck's second choice, or of a card of the colour the
  taught deck names: the built-in's card, as unsure as the taught reading (the taught deck was
  torn between cards and the other reader is sure which; colour is what a taught deck reads
  best, the symbol is what it confuses: DINO 2's chill and girl, double and skip 2, read by the
  built-in sure and right; measured on the DINO 2 teach bench taught from one photo, 0.966 -> 0.989,
  no other row changed. A re-drawn print leaves the built-in's card among the taught deck's first
  two, or of its colour, only by chance; unsure, because taken sure it added wrong-but-sure
  readings, 1.6% on snake-cup, whose built-in recognizer is wrong and sure on 3.3% of the
  benchmark's photos);
- else the taught deck is all but guessing (confidence under GUESS: its first cards are about as
  near): the built-in's card, unsure (measured on the uno teach bench: a yellow 8 read as a skip at
  0.03, the built-in sure of the 8);
- else the built-in names an untaught card: its reading (unsure); on a deck whose teach photos it
  misread, only where it is surer than the taught reading (the inked UNO deck of the teach bench, its
  wild draw four's photo refused: the built-in's "wild draw four" at 0.0-0.35 had replaced 30 taught
  readings more confident than it, most of them right; seed 5350, from one photo: 75 -> 92 of 108),
  and sure of it by its own measure (GUESS_SURE: before a stranger's cap; its unsure "wild draw
  four" at 0.11-0.40 still replaced taught readings, five of them right: 94 -> 99 of 108);
- else the taught deck's reading stands, unsure: the taught photos show this deck's print, the
  built-in's model was trained on other art (a re-drawn deck is read by what was taught).
On a deck whose border is not white, or whose teach photos the built-in misread (right on fewer
than deck.BUILTIN_RIGHT of them or wrong and sure on more than deck.BUILTIN_WRONG: a deck drawn by
hand), the built-in is never sure (STRANGER) in any of the above; on the latter its guess does not
count against the taught deck's either (a thin-ink UNO deck drawn by hand: the built-in, right on
0.07 of its photos, took a guessing taught deck's place with "wild draw four"; 74 -> 80 of 108
read right). On the teach bench's coloured-in DINO 2 deck drawn by hand, taught from one photo a
card, its sure readings (mostly "skip draw 2" of the card's colour) had overruled unsure taught
readings: 29 of 176 photos read wrong, 8 once it was a stranger (21 read right again, none lost).
"""
from __future__ import annotations

import numpy as np

from .deck import Match, TaughtDeck
from .embed import embed, face

SURE = 0.6     # vision.recognizer.CONFIRM_THRESHOLD (imported lazily there; the same number)
ALONE = 0.8    # a taught reading this sure answers alone (the whole deck taught); from SURE to here the
               # built-in reads too, and may leave it unsure (CONFLICT); with cards not taught it always reads
CONFLICT = 0.5  # the confidence of two sure readers naming two taught cards of one colour: unsure
GUESS = 0.1    # a taught confidence below this: its first two cards are about as near (a guess)
STRANGER = 0.5  # the built-in's confidence at most, on a deck whose border is not white: its readers
               # learned white-margined prints, and on the teach bench's black-edged prints they were
               # wrong and sure alone on 1% of the photos, and through a taught deck (of cards whose
               # photos were refused) on 2 of 176 DINO 2 photos (session 19): the table confirms them
AGREE_TAUGHT = 0.2  # ... unless the taught deck names the same card at this confidence or more (not a 6 or a 9):
                    # two readers, one trained on other prints and one taught this one, agreeing
GUESS_SURE = True   # a stranger's guess of a card never taught counts only where it is sure (module doc)
TWIN_SEEN = 0.4     # the built-in naming, at this or more, the never taught twin of the taught
                    # reading's 6 or 9: the twin (a taught deck cannot tell a card from its half turn)
TWINS = ("6", "9")   # symbols that are each other's half turn but for a bar under the numeral


TWIN_UNSURE = 0.5   # a 6 or a 9 of a deck the built-in misread (drawn by hand): at most this (unbarred)


def unbarred(card: str | None, conf: float, deck_cards) -> float:
    """The confidence of a reading `card` on a deck whose teach photos the built-in misread (one
    drawn by hand): a 6 or a 9 whose twin is a card of the deck (`deck_cards`) is never sure. A
    hand draws no bar under them, so a drawn 6 is a drawn 9 turned half round, the built-in cannot
    look for a bar, and what parts the two taught cards is how the hand drew each (measured: the
    thin-ink UNO deck taught from three photos, a green 6 read as the green 9 at 0.69, sure)."""
    if card is not None and twin(card) in deck_cards:
        return min(conf, TWIN_UNSURE)
    return conf


def twin(card: str) -> str | None:
    """The card that is `card` turned half round but for its bar (red-6 -> red-9), or None."""
    colour, _, symbol = card.rpartition("-")
    if colour and symbol in TWINS:
        return f"{colour}-{TWINS[1 - TWINS.index(symbol)]}"
    return None


def taught_match(td: TaughtDeck, frame: np.ndarray | None, quad: np.ndarray, card_bgr: np.ndarray,
                 symbols: set | None = None, colours: set | None = None) -> Match:
    """The taught deck's reading of the card at `quad` (warped from `frame` when there is one);
    with `symbols`, among the cards of those symbols only; with `colours`, of those colours."""
    f = face(frame, quad) if frame is not None else card_bgr
    return td.match(embed(f, white_margin=td.border is None), symbols=symbols, colours=colours)


def combine(taught: Match, builtin, taught_cards, colours: dict | None = None,
            stranger: bool = False, guesses: bool = True, guess_colour: bool = True) -> tuple[str, float]:
    """(card, confidence) from the taught reading and, when it is not sure, the built-in's
    `builtin` = (card, confidence) or None (a deck without a built-in recognizer);
    `taught_cards`: the ids the taught deck knows; `colours`: card id -> its colour (None for
    none), the deck's; `stranger`: the built-in reader is a stranger to the deck (STRANGER): its
    border is not white, or the built-in misread its teach photos (deck.trusts_builtin); `guesses`:
    the built-in's guess counts against the taught deck's (GUESS), False where it misread them;
    `guess_colour`: ... even where it names another colour than the taught reading, False where
    the built-in was right on too few of the teach photos to be sure of (deck.BUILTIN_SURE)."""
    if builtin is None or builtin[0] is None:
        return taught.card, taught.confidence
    card, conf = builtin
    seen = conf          # the built-in's own confidence, before a stranger's is capped
    if stranger:
        if card == taught.card and taught.confidence >= AGREE_TAUGHT and twin(card) is None:
            # the two readers agree, the taught deck by some margin: the built-in's confidence counts
            return card, max(conf, taught.confidence)
        conf = min(conf, STRANGER)
    if card == twin(taught.card) and (conf >= taught.confidence or (card not in taught_cards and conf >= TWIN_SEEN)):
        # the bar decides, and the built-in reader looks for it; a taught deck that never saw the
        # twin cannot tell it at all: a 9 not taught is its taught 6 turned round, sure (real-uno-dev2
        # on black, every 4th card not taught: each 9 read as the 6 at 0.96-1.0, the built-in 0.59-1.0)
        return card, conf
    same_colour = colours is not None and card in colours and colours[card] == colours.get(taught.card, "?")
    if card not in taught_cards and conf >= SURE:
        if card == taught.card:
            # the taught deck composed the very card never taught (its symbol and colour from others)
            return card, max(conf, taught.confidence)
        if not (taught.confidence >= SURE and taught.near):
            return card, conf
        if same_colour:
            # both sure, the built-in of a card never taught: the nearest taught card of that colour
            # is no proof (a green 5 not taught read as the green 6 at 0.64, and at 0.83 with every
            # second card not taught): the surer one's card, and the table confirms it
            return (card if conf > taught.confidence else taught.card), min(conf, taught.confidence, CONFLICT)
        if colours is not None and not same_colour:
            # both sure, the built-in of a card not taught, of another colour than the taught
            # reading's: a taught deck knows a card it never saw only by its symbol and colour
            # from other cards (a yellow 5 not taught read, near and sure, as the red 5 taught), a
            # re-drawn print keeps its colours; the taught reading, unsure: the table confirms it
            return taught.card, min(conf, taught.confidence, CONFLICT)
    if taught.confidence >= SURE:
        if conf >= SURE and card != taught.card and card in taught_cards and same_colour:
            # both sure, of two cards of one colour: the surer one's card, and the table confirms it
            return (card if conf > taught.confidence else taught.card), min(conf, taught.confidence, CONFLICT)
        # both name the card: the more confident of the two, as where the taught deck is unsure (below)
        return taught.card, max(conf, taught.confidence) if card == taught.card else taught.confidence
    if card == taught.card:
        return card, max(conf, taught.confidence)
    if conf >= SURE and card in taught_cards and (card == taught.runner_up or same_colour):
        return card, min(conf, taught.confidence)       # unsure: the table confirms it
    if taught.confidence < GUESS and guesses and (guess_colour or same_colour):
        # a guess against a reading: unsure. Of another colour only from a built-in sure on this
        # deck: colour is what a taught deck reads best, and the guess's colour stood for the keypoints
        # to match its symbol in (colour-blind): an inked snake-cup deck's violet fountain under a warm
        # lamp, taught "violet fountain" at 0.09, went out as the orange fountain, sure (the built-in,
        # right on half the teach photos, guessed an orange card)
        return card, min(conf, taught.confidence)
    if card not in taught_cards and (guesses or (conf > taught.confidence and (not GUESS_SURE or seen >= SURE))):
        return card, conf
    return taught.card, taught.confidence
