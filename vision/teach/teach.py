"""Teach a deck from a folder of photos: find each photo's card, make its prototypes, build the
taught deck, and estimate its accuracy by leaving one photo out.

Pure of any output: progress goes to a callback, the outcome is a (TaughtDeck, Report); the
command line (web/commands/teach_cmds.py) prints and writes.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from ..imageio import BadImage, load_image
from ..locate import Quad, inside, quad_iou
from ..locate.quad import aspect, side_cut
from ..locate.detector import INSIDE, share_inside
from ..read.colour import blobs_from_edge, colour_votes
from ..rectify import warp_card
from ..recognizer import TEXT_DECKS
from . import local
from .build import build_deck, photo_prototypes
from .deck import BACK, BUILTIN_SURE, trusts_builtin
from .embed import embed, face
from .faces import LEARN_FROM, learn_look, scored_outlines
from .folder import TeachError, scan
from .reader import SURE
from .shape import learned_aspect, quarter_turns

__all__ = ["Report", "TeachError", "teach_folder"]


@dataclass
class Report:
    deck: str
    cards: int                                  # distinct card ids of the deck
    taught: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)    # (path, why)
    photos_used: int = 0
    loo_right: int = 0                          # leave-one-photo-out: photos read right ...
    loo_total: int = 0                          # ... of photos of cards with two or more
    loo_sure_wrong: int = 0
    seconds: float = 0.0
    border: str = "white"                       # the deck's border, as learned (faces.learn_border)
    faces: str = "coloured"                     # "white": drawn on white card stock (faces.learn_white_faces)
    builtin_total: int = 0                      # the built-in recognizer on the photos used: photos read ...
    builtin_right: int = 0                      # ... read right ...
    builtin_sure_wrong: int = 0                 # ... and wrong but sure (deck.TaughtDeck.builtin_trusted)
    aspect: float | None = None                 # the cards' long side over their short side, where learned
                                                # (shape.py; None: a standard card's, 1.55)
    backs: int = 0                              # photos of the deck's back taught (FOLDER/back/)
    back_loo_right: int = 0                     # leave-one-photo-out of the back's photos: told as the back ...
    back_loo_total: int = 0                     # ... of (with two or more)
    loo_as_back: int = 0                        # photos of cards (leave-one-out) taken for the back

    @property
    def builtin_trusted(self) -> bool:
        """Whether the built-in recognizer may overrule the taught deck (deck.trusts_builtin)."""
        return trusts_builtin(self.builtin_total, self.builtin_right, self.builtin_sure_wrong)

    @property
    def builtin_sure(self) -> bool:
        """Whether the built-in recognizer's sure readings stay sure on this deck (deck.BUILTIN_SURE)."""
        return trusts_builtin(self.builtin_total, self.builtin_right, self.builtin_sure_wrong, BUILTIN_SURE)

    @property
    def loo_accuracy(self) -> float | None:
        return self.loo_right / self.loo_total if self.loo_total else None

    def as_json(self) -> dict:
        return {"deck": self.deck, "cards": self.cards, "taught": self.taught, "missing": self.missing,
                "refused": [{"photo": p, "why": w} for p, w in self.refused], "photos_used": self.photos_used,
                "leave_one_out": {"right": self.loo_right, "total": self.loo_total,
                                  "wrong_but_sure": self.loo_sure_wrong, "accuracy": self.loo_accuracy},
                "border": self.border, "faces": self.faces, "aspect": self.aspect, "seconds": round(self.seconds, 1),
                "builtin": {"photos": self.builtin_total, "right": self.builtin_right,
                            "wrong_but_sure": self.builtin_sure_wrong},
                "back": {"photos": self.backs, "leave_one_out": {"right": self.back_loo_right,
                                                                 "total": self.back_loo_total},
                         "cards_taken_for_it": self.loo_as_back}}


def teach_folder(rec, folder: str | Path, progress=None) -> tuple["object", Report]:
    """(TaughtDeck, Report) of the photos in `folder` for the deck of `rec` (a Recognizer: its
    locator finds the cards). `progress(photos_done, photos_total, cards_done, seconds, look, start)`
    is called after each photo: `look` 1 the first look at the photos, 2 and on a look again (a look
    of the deck learned from the photos missed, a card's shape, a first look taken up where it
    stopped) from photo `start`, `seconds` since that look began (_Looks). TeachError when the folder
    is refused as a whole or no photo could be used."""
    # a photo is looked at under one look several times (the probe, a pass, its close-up check,
    # the second look): its outlines are found once a look
    with rec.locating_once():
        return _teach_folder(rec, folder, progress)


def _teach_folder(rec, folder: str | Path, progress=None) -> tuple["object", Report]:
    """teach_folder, its outlines found once a look."""
    t0 = time.monotonic()
    progress = _Looks(progress)
    ids = list(rec.deck.cards)
    photos, set_aside = scan(folder, ids)
    set_aside = [(str(p), why) for p, why in set_aside]
    probe = _probe(photos)
    built_in = rec.border is None and not rec.white_faces
    as_built = rec.look
    if built_in and probe:
        border, white = learn_look(rec, probe)
        if border is not None:
            rec.set_border(border)
        elif white:
            rec.set_white_faces(True)
    as_is = built_in and rec.border is None and not rec.white_faces
    enough = max(PROBE, _look_again(photos, MISSED_AGAIN))
    first, (taught, backs, shapes), stopped = _teach_pass(
        rec, photos, set_aside, progress,
        # as built, the pass stops at the photo that makes enough missed to learn the look again from:
        # those are the photos learned from (_probe takes the first PROBE missed of up to twice as many)
        until=(lambda r: len(_missed(r)) >= enough) if as_is and EARLY_STOP else None)
    lost = [path for path, why in first.refused if why.startswith(NO_CARD)]
    # ... and, as built, photos refused as several cards: a white card whose inside verifies as a card
    # too (an inked UNO deck of another hand, `uno/7100`: 6 of 54 so, 1 with none found; 8 cards
    # untaught, 53 of 54 taught with white faces)
    # (and those refused as showing no card of their colour: as built, a note of paper beside a card
    # drawn on white stock is the one card found; an inked UNO deck of another hand, `uno/7500`, had
    # 3 photos with no card found, 1 with two and 2 with none of the colour: 6 cards untaught)
    missed = _missed(first)
    if as_is and len(missed) >= _look_again(photos, MISSED_AGAIN):
        # the photos looked at missed the deck's look: a deck drawn in ink on white card stock, its
        # probe photos found as they are, left 18 of 90 photos with "no card found" (the teach
        # bench's inked UNO deck, 30 cards from 3 photos each; from one photo each its probe learned
        # white faces). The look is learned again from those photos, and the teach taken again
        # with it where that uses more photos
        border, white = learn_look(rec, _probe([(None, p) for p in missed]))
        if border is None and not white:
            stopped = _finished(rec, as_built, photos, first, (taught, backs, shapes), stopped, progress)
            missed = _missed(first)
        if border is None and not white and WHITE_TRIED and any(_no_colour(why) for _, why in first.refused):
            # (only where something not the card was found as the one card: elsewhere the count is
            # not fooled, and a small inked DINO 2 folder, 4 of 12 photos refused as two cards or none,
            # was taught with white faces from a loose outline: half a green spork and the table)
            white = _taught_with_white_faces(rec, [(cid, path) for cid, path in photos if str(path) in missed])
        if border is not None or white:
            if border is not None:
                rec.set_border(border)
            else:
                rec.set_white_faces(True)
            second, again, _ = _teach_pass(rec, photos, set_aside, progress)
            # white faces learned again from the photos missed need teach only nearly as many: as built,
            # an inked deck's white cards are found less surely when read (the photos its second look
            # finds again count for it here)
            wins = (lambda n: len(again[0]) >= WHITE_KEEP * n) if white and border is None else (lambda n: len(again[0]) > n)
            if not wins(len(taught) + len(photos) - stopped):
                # the first pass, stopped early, might yet teach as many: it is taken to its end
                stopped = _finished(rec, as_built, photos, first, (taught, backs, shapes), stopped, progress)
            if wins(len(taught)):
                first, (taught, backs, shapes) = second, again
            else:
                rec.set_look(as_built)
    elif built_in and rec.look != as_built and len(lost) >= _look_again(photos):
        # a look learned from the probe photos that misses many of the others: a deck drawn in ink on
        # white card, its numeral alone on the face, lying on dark tables in the probe photos, was
        # learned as edged in black, and 27 of 54 photos were refused with "no card found" (an inked
        # UNO deck drawn by another hand than the teach bench's, seed 7400). The teach is taken
        # again with each other look, and the one that teaches from most photos kept (judged on the
        # photos lost alone, or learned again from them, the look as built in won where white faces
        # teach more: tests/test_teach_handdrawn.py)
        learned = rec.look
        for other in _looks_besides(rec, as_built, learned):
            rec.set_look(other)
            second, again, _ = _teach_pass(rec, photos, set_aside, progress)
            if len(again[0]) > len(taught):
                first, (taught, backs, shapes), learned = second, again, other
        rec.set_look(learned)
    learned = learned_aspect(_measured(shapes))
    if learned is not None:
        # cards of another shape than a standard card's: the locators favoured a standard card's
        # outline, so the photos are looked at again for cards of the shape found, and it is measured
        # again from those outlines (a square deck: 1.15 at first, 1.06-1.12 looked for so). Kept where
        # those outlines still say the cards are not standard ones
        standard = rec.look
        rec.set_look(replace(standard, aspect=learned))
        second, again, _ = _teach_pass(rec, photos, set_aside, progress)
        learned = learned_aspect(_measured(again[2]))
        if learned is not None:
            rec.set_look(replace(standard, aspect=learned))
            # a photo this look refuses that the first taught stays as the first taught it (a DINO 2
            # print cut at 1.25: one photo of 30 refused as "2 cards", a piece of its drawing taken
            # for a card of that shape), without quarter turns (its prototypes are not made again)
            first = _kept(second, photos, again, (taught, backs, shapes))
            taught, backs, shapes = again
            first.aspect = learned
        else:
            rec.set_look(standard)
    if SECOND_LOOK:
        _second_look(rec, photos, first, taught)
    report = first
    if rec.border is not None:
        report.border = rec.border.words()
    elif rec.white_faces:
        report.faces = "white"
    if not taught:
        raise TeachError("no photo could be used: " + "; ".join(f"{p}: {w}" for p, w in report.refused[:5]))
    meta = {"folder": str(folder)}
    if rec.border is not None:
        meta["border"] = rec.border.as_json()
    if rec.white_faces:
        meta["faces"] = "white"
    if report.aspect is not None:
        meta["aspect"] = report.aspect
    meta["builtin"] = {"photos": report.builtin_total, "right": report.builtin_right,
                       "wrong_but_sure": report.builtin_sure_wrong}
    if backs:
        meta["back"] = {"photos": len(backs)}
    td = build_deck(rec.deck, taught, meta=meta, backs=backs)
    report.taught = list(td.cards)
    report.missing = [c for c in ids if c not in td.cards]
    report.photos_used = len(taught)
    report.backs = len(backs)
    _leave_one_out(td, taught, report)
    _back_left_out(td, backs, report)
    report.seconds = time.monotonic() - t0
    td.meta["report"] = {k: v for k, v in report.as_json().items() if k not in ("refused",)}
    return td, report


def _taught_photos(rec, photos: list, report: Report, progress,
                   into: tuple | None = None, start: int = 0, until=None) -> tuple[tuple[list, list, list], int]:
    """((the taught photos' (card id, prototypes, keypoints), the back's photos' prototypes, the taught
    photos' (index in `photos`, outline's proportions or None: _proportions)), the index of the first
    photo not looked at): each photo's one card found as `rec` looks now, its refusals and the
    built-in's reading counted in `report`; `progress(photos_done, photos_total, cards_done)` after
    each photo (a _Looks). `into`: the lists of a pass stopped at `start`, extended; `until(report)`:
    true after a photo, the pass stops there."""
    taught, backs, shapes = into if into is not None else ([], [], [])
    last_of_card = {cid: k for k, (cid, _) in enumerate(photos)}
    cards_done = sum(last_of_card[cid] < start for cid in last_of_card if cid != BACK)
    for k, (cid, path) in enumerate(photos[start:], start):
        try:
            img, _ = load_image(path)
            # a back shows no card's colour: any one outline is it
            img, quad, why = card_of(rec, img, None if cid == BACK else cid, back=cid == BACK)
            if quad is not None and cid == BACK:
                backs.append(photo_prototypes(img, quad.pts, seed=k, white_margin=rec.border is None,
                                              quarter=quarter_turns(rec.look.aspect)))
            elif quad is not None:
                taught.append((cid, *_learned(rec, img, quad, k)))
                shapes.append((k, _proportions(quad, img.shape)))
                _builtin_reads(rec, img, quad, cid, report)
        except BadImage as e:
            why = str(e)
        if why:
            report.refused.append((str(path), why))
        cards_done += last_of_card[cid] == k and cid != BACK
        if progress:
            progress(k + 1, len(photos), cards_done)
        if until is not None and until(report):
            return (taught, backs, shapes), k + 1
    return (taught, backs, shapes), len(photos)


def _teach_pass(rec, photos: list, set_aside: list, progress, until=None) -> tuple[Report, tuple, int]:
    """(a fresh report, _taught_photos' lists, the index of the first photo not looked at) of the
    photos looked at again as `rec` looks now, to the end or `until` (_taught_photos); the report
    starts with the files the folder's scan set aside."""
    report = Report(rec.deck.id, len(rec.deck.cards), refused=list(set_aside))
    lists, stopped = _taught_photos(rec, photos, report, progress.begin(), until=until)
    return report, lists, stopped


def _finished(rec, look, photos: list, report: Report, lists: tuple, stopped: int, progress) -> int:
    """A pass stopped early (at `stopped`: _taught_photos) taken to its end under `look`, its `report`
    and `lists` extended; `rec` keeps its look. The number of photos, now looked at."""
    if stopped < len(photos):
        now = rec.look
        rec.set_look(look)
        try:
            _taught_photos(rec, photos, report, progress.begin(stopped), into=lists, start=stopped)
        finally:
            rec.set_look(now)
    return len(photos)


class _Looks:
    """A teach's progress callback, told when each look at the photos begins (begin): the first,
    then any look again (another look of the deck, a card's shape, a first look taken up where it
    stopped), each reported as a look of its own, its seconds counted from its start. A bar that
    starts again then says why, and its time left is the look's, not the whole teach's."""

    def __init__(self, progress):
        self.progress, self.look, self.start, self.t0 = progress, 0, 0, time.monotonic()

    def begin(self, start: int = 0) -> "_Looks":
        self.look, self.start, self.t0 = self.look + 1, start, time.monotonic()
        return self

    def __call__(self, done: int, total: int, cards: int) -> None:
        if self.progress is not None:
            self.progress(done, total, cards, time.monotonic() - self.t0, self.look, self.start)


def _missed(report: Report) -> list[str]:
    """The photos of `report` whose card the look missed: none found, several (LOOK_MANY) or none of
    its colour (LOOK_NO_COLOUR)."""
    return [path for path, why in report.refused
            if why.startswith(NO_CARD) or (LOOK_MANY and MANY_CARDS in why) or (LOOK_NO_COLOUR and _no_colour(why))]


def _look_again(photos: list, share: float | None = None) -> float:
    """Photos missed from which the look is learned again (`share`, else LOOK_AGAIN)."""
    return max(2, (LOOK_AGAIN if share is None else share) * len(photos))


def _no_colour(why: str) -> bool:
    """Whether a photo was refused because what was found shows none of its card's colour (one_card)."""
    return NO_COLOUR in why and not why.startswith(NO_CARD)


def _taught_with_white_faces(rec, photos: list) -> bool:
    """Whether, looked at with white faces, at least half of `photos` ((card id, path), refused as
    `rec` looks now) would be taught (card_of: one card, of its colour). learn_look counts the
    photos in which one card is found, and as built the one card found may be a note of paper beside
    the card (an inked UNO deck of another hand, `uno/7500`: 6 photos missed, 2 with a note found as
    the one card; with white faces the note and the card both, the card taken by its colour).
    `rec` is left as it was."""
    look, taught = rec.look, 0
    try:
        rec.set_white_faces(True)
        for cid, path in photos[:PROBE]:
            try:
                taught += card_of(rec, load_image(path)[0], cid)[1] is not None
            except BadImage:
                continue
    finally:
        rec.set_look(look)
    return taught >= max(2, LEARN_FROM * min(len(photos), PROBE))


def _second_look(rec, photos: list, report: Report, taught: list) -> None:
    """The card photos refused as showing several cards, looked at again once the others are taught:
    taught from the outline that is plainly the card (card_by_its_symbol; where its symbol's
    keypoints find none, card_by_its_reading). `taught` is extended and
    the refusals taken back in `report`. A photo of a card drawn by hand shows a note of lined paper, a
    finger or a patch of table that verifies as a card as well as the card does: on the teach bench
    (seed 5050, one photo a card) 5 of 88 photos of a DINO 2 deck drawn in ink and 7 of 54 of an UNO
    deck were refused so, and a colour with a card untaught has its readings never made sure by the
    keypoints (the recognizer's _locally_checked)."""
    where = {str(path): (k, cid) for k, (cid, path) in enumerate(photos)}
    several = [p for p, why in report.refused if MANY_CARDS in why and p in where and where[p][1] != BACK]
    so_far = None      # the deck as first taught, for card_by_its_reading (built when first needed)
    for path in several:
        k, cid = where[path]
        card = rec.deck.cards[cid]
        if card.color is None or card.symbol is None:
            continue       # a wild shows every colour; neither rule takes it
        try:
            img, _ = load_image(path)
        except BadImage:
            continue
        outlines = inked_outlines(rec, img)     # found once for both rules
        quad = card_by_its_symbol(rec, img, cid, taught, outlines)
        if quad is None and BY_READING and taught:
            if so_far is None:
                so_far = build_deck(rec.deck, taught)
            quad = card_by_its_reading(rec, img, cid, so_far, taught, outlines)
        if quad is None:
            continue
        taught.append((cid, *_learned(rec, img, quad, k)))
        _builtin_reads(rec, img, quad, cid, report)
        report.refused = [(p, why) for p, why in report.refused if p != path]


def inked_outlines(rec, img: np.ndarray) -> list[tuple]:
    """(outline, its keypoints, its ink votes) of the photo's outlines that show coloured ink: one
    with none is no card of the deck (one_card sets it aside too)."""
    votes = [(q, ink_votes(rec, img, q)) for _, q in scored_outlines(rec, img)]
    return [(q, local.features(img, q.pts), v) for q, v in votes if v["coloured"] >= INKLESS]


def card_by_its_symbol(rec, img: np.ndarray, card_id: str, taught: list, outlines: list | None = None) -> Quad | None:
    """Of the photo's outlines that show the colour of `card_id`, the one whose drawing matches the
    taught photos of its symbol (`taught`: _taught_photos' entries; the symbol in the deck's other
    colours, drawn alike, and the card's own other photos) by keypoints laid one on the other
    (local.inliers): MIN_INLIERS at least, SYMBOL_LEAD times any other outline's, lying where that
    match lays the face (_laid_alike). None where nothing of its symbol was taught, no outline stands
    out, or any outline's drawing clearly matches another taught card (local.verified): a second card.
    Coloured ink tells no card from a cup or a token of its colour, nor a whole card from a piece of
    it found alone; its symbol does. `outlines`: inked_outlines of the photo, where found already."""
    card = rec.deck.cards[card_id]
    if card.color is None or card.symbol is None:
        return None        # a wild shows every colour
    same = [(c, f) for c, _, f in taught if f is not None]
    symbol = [f for c, f in same if rec.deck.cards[c].symbol == card.symbol]
    if not symbol:
        return None
    outlines = inked_outlines(rec, img) if outlines is None else outlines
    scored = [max((local.inliers(f, s), k) for k, s in enumerate(symbol)) + (n,)
              for n, (q, f, v) in enumerate(outlines) if _shows(v, card.color)]
    if not scored:
        return None
    scored.sort(key=lambda t: -t[0])
    best, k, n = scored[0]
    rest = scored[1][0] if len(scored) > 1 else 0
    quad, f, _ = outlines[n]
    if best < local.MIN_INLIERS or best < SYMBOL_LEAD * max(rest, 1) or not _laid_alike(quad, f, symbol[k]):
        return None
    return None if _second_card(rec, outlines, n, card_id, same) else quad


def _second_card(rec, outlines: list, n: int, card_id: str, same: list) -> bool:
    """Whether another card of the deck taught (`same`: (card id, keypoints) of each taught photo)
    matches by its keypoints (local.verified) any of the photo's `outlines` ((quad, keypoints, ink
    votes)): not the chosen outline `n` (but for the card's symbol in other colours, which it was
    chosen by), nor any other (a photo of two cards is refused, whichever the teach could tell
    apart); a card among those of a colour the outline shows, or of none."""
    card = rec.deck.cards[card_id]
    for m, (_, g, v) in enumerate(outlines):
        shown = {c for c, share in v["votes"].items() if share >= OWN_COLOUR}
        candidates = {}
        for c, h in same:
            other = rec.deck.cards[c]
            if c != card_id and (other.color is None or other.color in shown) \
                    and (m != n or other.symbol != card.symbol):
                candidates.setdefault(c, []).append(h)
        if local.verified(g, candidates)[0] is not None:
            return True
    return False


def card_by_its_reading(rec, img: np.ndarray, card_id: str, so_far, taught: list,
                        outlines: list | None = None) -> Quad | None:
    """Of the photo's outlines that show the colour of `card_id`, the one the deck taught so far
    (`so_far`: a TaughtDeck of the photos the first look taught, `taught` their entries) reads as
    that very card, its symbol clearly (BY_READING_SURE among the cards of its symbol); None where
    no outline or more than one reads so, or any other outline reads as a card of the deck
    (SECOND_READ) or matches one by its keypoints (_second_card): a photo of two cards stays
    refused. A card never taught is read so by its symbol taught in other colours and its colour on
    other cards (deck.py, composed cards). For a deck drawn by hand, where card_by_its_symbol finds
    nothing: a numeral drawn anew on each card shares no keypoints with the same numeral in another
    colour (the teach bench's inked UNO deck, seed 5050: 7 of 54 photos refused as several cards,
    none taken by it), while the embedding's shapes see a 4 in any hand. `outlines`: inked_outlines
    of the photo, where found already."""
    card = rec.deck.cards[card_id]
    if card.color is None or card.symbol is None:
        return None        # a wild shows every colour; its symbol is its own
    outlines = inked_outlines(rec, img) if outlines is None else outlines
    white = rec.border is None
    embedded = [embed(face(img, q.pts), white_margin=white) for q, _, _ in outlines]
    reads = [so_far.match(e) for e in embedded]
    # A piece of the card (its numeral, a corner) may read as the card too, by a hair: only an
    # outline whose symbol reads sure names it.
    named = [n for n, ((_, _, v), m, e) in enumerate(zip(outlines, reads, embedded))
             if m.card == card_id and _shows(v, card.color)
             and so_far.match(e, symbols={card.symbol}).confidence >= BY_READING_SURE]
    if len(named) != 1:
        return None
    n = named[0]
    if any(m.confidence >= SECOND_READ for j, m in enumerate(reads) if j != n):
        return None
    if _second_card(rec, outlines, n, card_id, [(c, f) for c, _, f in taught if f is not None]):
        return None
    return outlines[n][0]


def _laid_alike(quad: Quad, f, taught) -> bool:
    """Whether the outline `quad` (its keypoints `f`) lies about where the keypoints' homography onto
    the taught face `taught` lays that face (local.laid_outline; LAID_SAME). A photo's outline found
    loosely (a piece of the card, the card and the table beside it) still matches its drawing, off its
    place: taught from there, the card's photos would read against a piece of it. (The laid outline
    is no better outline: a hand-drawn deck's symbol is drawn anew on each card, and the homography
    of one drawing onto another, exact about the drawing, is rough at the corners.)"""
    laid = local.laid_outline(quad.pts, f, taught)
    return laid is not None and quad_iou(laid, quad.pts) >= LAID_SAME


def _looks_besides(rec, as_built, learned) -> list:
    """The looks a teach may take besides `learned` (verify.CardLook): white faces, and the deck as
    built in (white-edged cards of a print). `rec`'s look is left as it was."""
    now = rec.look
    try:
        rec.set_look(as_built)
        rec.set_white_faces(True)
        looks = [rec.look, as_built]
    finally:
        rec.set_look(now)
    return [look for look in looks if look != learned]


def _proportions(quad: Quad, shape: tuple) -> float | None:
    """The long side over the short side of a teach photo's outline, or None where the picture cuts
    it: such an outline shows part of the card, or a card grown whole to the shape looked for, and
    neither tells the card's shape."""
    q = quad.pts
    return None if any(side_cut(q[i], q[(i + 1) % 4], shape) for i in range(4)) else aspect(q)


def _measured(shapes: list) -> list[float]:
    """The proportions of _taught_photos' outlines that tell the card's shape."""
    return [s for _, s in shapes if s is not None]


def _kept(report: Report, photos: list, now: tuple, then: tuple) -> Report:
    """`report` of a second look at the photos (`now`: _taught_photos'), with the card photos it
    refused that the first look (`then`) taught added to `now` as that look taught them, and their
    refusals taken back. `now`'s lists are extended."""
    got = {k for k, _ in now[2]}
    for entry, (k, s) in zip(then[0], then[2]):
        if k not in got:
            now[0].append(entry)
            now[2].append((k, s))
            path = str(photos[k][1])
            report.refused = [(p, why) for p, why in report.refused if p != path]
    return report


def _probe(photos: list) -> list:
    """A few of the folder's photos, spread over it (PROBE), loaded (unreadable ones left out): the
    deck's border, when it is not white (faces.learn_border), and faces white inside as well as round
    (faces.learn_white_faces) are learned from them, then every photo is looked at so. Costs a
    second or three."""
    step = max(1, len(photos) // PROBE)
    images = []
    for _, path in photos[::step][:PROBE]:
        try:
            images.append(load_image(path)[0])
        except BadImage:
            continue
    return images


CLOSE_UPS = True     # a photo taken inside its card is taught padded, as it is read (close_up)
SECOND_LOOK = True   # photos refused as showing several cards looked at again once the others are taught
BY_READING = True    # ... and, where the keypoints find no outline, by the deck taught so far (card_by_its_reading)
BY_READING_SURE = 0.5  # its symbol read at least this sure among the cards of that symbol, and ...
SECOND_READ = 0.4    # ... no other outline read as a card of the deck this sure. Inked UNO deck of the teach
                     # bench (seed 5050, from one photo): the card's outline 0.77-0.98 among its symbol, the
                     # other outlines read as other cards at 0.00-0.27 (docs/teach.md)
SYMBOL_LEAD = 3.0    # the card's outline matches its symbol's photos with this many times any other's inliers
LAID_SAME = 0.7      # ... and overlaps the face its keypoints lay this much. Teach bench, DINO 2 in ink (seed
                     # 5350 + 0-9, 8 cards): two outlines right (0.90, 0.92 of the true card) at 0.80 and 0.73,
                     # two loose ones (0.65, 0.55 of it) matching their drawing with 15 and 26 inliers at 0.62, 0.22
MANY_CARDS = "cards in it"
LOOK_AGAIN = 0.1     # this share of the photos refused with no card found: the look is learned again from them
MISSED_AGAIN = 0.05  # ... for a deck looked at as built, this share missed (was LOOK_AGAIN until session 70: an
                     # inked UNO deck of another hand, `uno/7500`, missed 5 of 54)
WHITE_KEEP = 0.9     # ... and white faces so learned kept where their pass teaches this share of the photos the
                     # pass as built taught, or more. Inked decks of other hands (one photo a card, 2 others of
                     # each read): as built / white faces taught 49 / 49 of 54 photos (`uno/7500`), 54 / 53 of 61
                     # (`snake-cup/7000`), 82 / 77 of 88 (`dino2/5050`), the look as built kept, read 79 / 108,
                     # 108 / 122, 155 / 176; taught with white faces 98, 113, 164 (docs/teach.md)
WHITE_TRIED = True   # ... and, where those photos learn no look and some showed no card of their colour, white
                     # faces tried on them (_taught_with_white_faces)
LOOK_MANY = True     # ... counting, for a deck looked at as built, those refused as several cards ...
LOOK_NO_COLOUR = True  # ... and those refused as showing none of their card's colour
NO_CARD = "no card found"
NO_COLOUR = "card found in it"      # "no red card found in it": an outline found, none of the card's colour
PROBE = 8            # photos looked at to tell a white-bordered deck from one of another border
EARLY_STOP = True    # a pass as built stops once enough photos are missed to learn the look again from them


def prototypes_of(rec, img: np.ndarray, seed: int = 0) -> tuple[np.ndarray | None, str | None]:
    """(the photo's prototypes, None), or (None, why it cannot teach): no card or several."""
    taught, why = taught_photo(rec, img, seed)
    return (taught[0] if taught is not None else None), why


def taught_photo(rec, img: np.ndarray, seed: int = 0) -> tuple[tuple | None, str | None]:
    """((the photo's prototypes, its card's keypoints), None), what build.build_deck takes with the
    card id, or (None, why it cannot teach): no card or several."""
    img, quad, why = card_of(rec, img)
    return (_learned(rec, img, quad, seed), None) if quad is not None else (None, why)


def _learned(rec, img: np.ndarray, quad: Quad, seed: int) -> tuple:
    """(prototypes, keypoints) of the card at `quad`: what a taught photo leaves in the deck."""
    return (photo_prototypes(img, quad.pts, seed=seed, white_margin=rec.border is None,
                             quarter=quarter_turns(rec.look.aspect)),
            local.features(img, quad.pts))


def card_of(rec, img: np.ndarray, card_id: str | None = None,
            back: bool = False) -> tuple[np.ndarray, Quad | None, str | None]:
    """(the picture to teach from, the outline of its one card in it, None), or (img, None, why it
    cannot teach). A photo taken inside its card (close_up) is taught padded, as it is read.
    `back`: a photo of the deck's back (one_card)."""
    close = close_up(rec, img) if not back else None
    if close is not None:
        return close[0], close[1], None
    quad, why = one_card(rec, img, card_id, back)
    return img, quad, why


def close_up(rec, img: np.ndarray) -> tuple[np.ndarray, Quad] | None:
    """(the photo padded with its paper's white, the card's outline in it) where the recognizer reads
    the photo as taken inside one card, its white margin cut off (recognizer._inside_card: the card's
    outline then lies round the whole picture), else None. What the locators find in such a photo is
    the print's oval or one of its drawn shapes: taught as the card, the cards' other photos were read
    against a piece of it (real-uno-dev2 on black, taught from each card's first photo cut 6% inside
    its edge: 0.957 top-1 with one reading of 70 wrong and sure, against 1.000 as they are).
    Only where the recognizer has those rules: the UNO family edged in white."""
    if not CLOSE_UPS or rec.border is not None or rec.white_faces or rec.deck.id not in TEXT_DECKS:
        return None
    readings = rec.read(img)
    if not readings:
        return None
    h, w = img.shape[:2]
    outline = readings[0].quad.pts.reshape(-1, 1, 2).astype(np.float32)
    corners = [(0.0, 0.0), (w - 1.0, 0.0), (w - 1.0, h - 1.0), (0.0, h - 1.0)]
    # every corner of the picture inside the card's outline: the picture lies within one card (a card
    # running off one side, read whole, has some of the picture's corners outside it)
    if any(cv2.pointPolygonTest(outline, c, False) < 0 for c in corners):
        return None
    padded, quad, _ = inside.padded(img)
    return padded, Quad(quad, 1.0)


def one_card(rec, img: np.ndarray, card_id: str | None = None, back: bool = False) -> tuple[Quad | None, str | None]:
    """(the outline of the photo's one card, None), or (None, why it cannot teach): no card or several.
    `card_id`: the card the photo is filed under; an outline whose face does not show that card's
    colour is not it (shows_colour). `back`: a photo of the deck's back, where a second card is an
    outline that verifies about as well and is about as large (both; not one that holds the card)."""
    found = scored_outlines(rec, img)
    if not found:
        return None, f"{NO_CARD} in it (lay the card on a plain table, all of it in view)"
    card = rec.deck.cards.get(card_id) if card_id is not None else None
    colour = card.color if card is not None else None
    if colour is not None:
        # a sheet of lined paper beside or under a card drawn on white stock verifies as a white
        # card, and may verify better: taught in its place, the card's photos read as another card
        # (on the teach bench's inked UNO deck a note was taught as the blue 7, and a note on the
        # table read as it, sure); so may a patch of table round a cup or a finger of another colour.
        # The card is an outline that shows its colour; one with no ink at all is no card of the deck
        # (paper), while one inked in other colours may be a second card, and still counts as one.
        # (A deck whose colour lies mostly outside its hue bucket, a marker's teal for green, would have
        # its photos refused with this message: none of our prints or the real ones is so)
        votes = [ink_votes(rec, img, q) for _, q in found]
        inked = [o for o, v in zip(found, votes) if v["coloured"] >= INKLESS]
        shows = [o for o, v in zip(found, votes) if _shows(v, colour)]
        if not shows:
            return None, f"no {colour} {NO_COLOUR} (what was found shows no {colour}: paper, a patch of table?)"
        found = [shows[0]] + [o for o in inked if o is not shows[0]]
    elif card is not None and card.symbol in FOUR_COLOURED and WILD_INKS:
        # a wild is inked in the four colours: where some outlines show several colours, the card is
        # among them, and an outline of one colour is a patch of table (a blue stripe of a cloth round
        # an inked UNO wild verified 0.96 beside the card's 0.998: refused as "2 cards"). A wild
        # drawn in black ink shows no colours, and every outline stays as it was; so do outlines of
        # several colours one inside another (a wild's corner index inside the card held close, `uno/
        # 7700`: taught as the card, the corner made a blue 4 read as a yellow 1, sure)
        votes = [ink_votes(rec, img, q) for _, q in found]
        many = [o for o, v in zip(found, votes) if _inks(v) >= WILD_INKS]
        if many and not any(share_inside(a.pts, b.pts) >= INSIDE for _, a in many for _, b in many if a is not b):
            found = many
    (best, quad), others = found[0], found[1:]
    # a second card of the deck in the same photo lies at about the card's size: an outline far larger
    # or smaller, verifying clearly worse, is something else (a sheet of paper with writing beside a
    # card drawn by hand, which verifies as one; a patch of table)
    if back:
        # a printed back on a table, photographed as JPEG, gave outlines round it and a patch of table
        # (1.6-14 times its area) verifying 0.03-0.13 below it: 3 of 9 photos of the teach bench's
        # printed backs were refused as "2 cards" (session 62). Faces keep the rule below, measured on them
        others = [(s, q) for s, q in others
                  if s > best - OTHER_MARGIN and 1 / OTHER_AREA <= q.area / max(quad.area, 1e-6) <= OTHER_AREA
                  and share_inside(quad.pts, q.pts) <= INSIDE]
    others = [(s, q) for s, q in others
              if s > best - OTHER_MARGIN or 1 / OTHER_AREA <= q.area / max(quad.area, 1e-6) <= OTHER_AREA]
    if rec.border is not None:
        # a deck edged in black or a colour: dark clutter (a keyboard, a shadow, a cup) verifies
        # as a card of it, if well below the card; a second card verifies about as well
        others = [(s, q) for s, q in others if s >= OTHER_CARD * best]
    if others:
        return None, f"{len(others) + 1} {MANY_CARDS}: one card a photo"
    return quad, None


def _builtin_reads(rec, img: np.ndarray, quad, cid: str, report: Report) -> None:
    """The built-in recognizer's reading of a teach photo's card, counted in `report`: how far it
    can be trusted on this deck (a deck drawn by hand is no print it learned: on the teach bench's
    hand-drawn DINO 2 it was wrong and sure on 0.13 of the photos, and where the taught deck was
    unsure its sure readings overruled it)."""
    card, conf = rec.identify_card(warp_card(img, quad.pts))
    report.builtin_total += 1
    report.builtin_right += card == cid
    report.builtin_sure_wrong += card != cid and conf >= SURE


def shows_colour(rec, img: np.ndarray, quad: Quad, colour: str | None) -> bool:
    """Whether the face inside `quad` shows coloured ink (INKLESS), `colour` among it (OWN_COLOUR;
    None: any colour)."""
    return _shows(ink_votes(rec, img, quad), colour)


def ink_votes(rec, img: np.ndarray, quad: Quad) -> dict:
    """colour.colour_votes of the face inside `quad`, in the deck's palette; on a deck drawn on
    white stock, without the coloured blobs that reach the face's edge (colour.blobs_from_edge,
    FINGERS_AWAY): a finger across a card in thin ink outvoted its ink (a blue 1, half its coloured
    pixels a finger's red)."""
    face = warp_card(img, quad.pts)
    away = blobs_from_edge(face, _beyond(img, quad)) if FINGERS_AWAY and rec.white_faces else None
    return colour_votes(face, palette=rec.palette, pale_ink=rec.pale_ink, not_ink=away)


def _beyond(img: np.ndarray, quad: Quad) -> np.ndarray | None:
    """Bool mask of the warped face's pixels beyond the picture (None where the outline lies in it)."""
    h, w = img.shape[:2]
    if quad.pts[:, 0].min() >= 0 and quad.pts[:, 1].min() >= 0 and quad.pts[:, 0].max() <= w - 1 \
            and quad.pts[:, 1].max() <= h - 1:
        return None
    seen = np.full((h, w), 255, np.uint8)
    seen[0], seen[-1], seen[:, 0], seen[:, -1] = 0, 0, 0, 0     # warp_card replicates the picture's rim
    return warp_card(seen, quad.pts) < 128


def _shows(votes: dict, colour: str | None) -> bool:
    return votes["coloured"] >= INKLESS and (colour is None or votes["votes"].get(colour, 0.0) >= OWN_COLOUR)


def _inks(votes: dict) -> int:
    """How many colours the face's ink shows, each at least WILD_SHARE of it (none on an inkless face)."""
    return 0 if votes["coloured"] < INKLESS else sum(share >= WILD_SHARE for share in votes["votes"].values())


FINGERS_AWAY = True  # a deck drawn on white stock: blobs reaching a face's edge are no ink of it (ink_votes)
INKLESS = 0.005      # a face with less of its area in saturated ink is no coloured card, and ...
OWN_COLOUR = 0.2     # ... one with less of its ink in the card's colour is not that card. The teach bench's
                     # inked UNO deck drawn in thin marker (seed 300): its teach photos' cards show 0.034-0.19
                     # ink, 0.38-1.0 of it their colour (a lamp's cast, the table seen through a pale card); the
                     # notes of lined paper beside them 0.000 ink, a patch of table round a yellow cup 0.0 blue
FOUR_COLOURED = ("wild", "wild-draw4")    # the symbols printed (and drawn) in the four colours, ...
WILD_INKS = 2        # ... whose outline shows at least this many colours where some outline does, ...
WILD_SHARE = 0.1     # ... each this share of its ink at least (a four-coloured WILD: 0.09-0.51 each)
OTHER_AREA = 2.5     # an outline more than this many times larger or smaller than the best ...
OTHER_MARGIN = 0.04  # ... verifying this much worse, is not a second card. Hand-drawn DINO 2 on the teach bench:
                     # of 23 teach photos refused as "2 cards", 12 had one 2.9-13 times the card's area or
                     # 0.28-0.37 of it, and in 10 of them it verified 0.05-0.27 below the card, best. Where the
                     # best outline was not the card (3 photos) it won by 0.004-0.01, the card 1.7-3.4 times
                     # its size: such a photo is still refused, never taught from the wrong outline
OTHER_CARD = 0.6     # ... and on a deck of another border, one verifying under this share of the best's


def _leave_one_out(td, taught, report: Report) -> None:
    """Each photo of a card with two or more photos, read by the deck without that photo's
    prototypes. (The deck's weights were learned with it: a slightly kind estimate.)"""
    counts: dict[str, int] = {}
    for cid, *_ in taught:
        counts[cid] = counts.get(cid, 0) + 1
    for k, (cid, protos, *_) in enumerate(taught):
        if counts[cid] < 2:
            continue
        m = td.match(protos[0], exclude_photo=k)      # row 0: the face as photographed
        report.loo_total += 1
        report.loo_right += m.card == cid and not m.is_back
        report.loo_sure_wrong += m.card != cid and m.confidence >= SURE and not m.is_back
        report.loo_as_back += m.is_back


def _back_left_out(td, backs: list, report: Report) -> None:
    """Each photo of the back, where it has two or more, told from the cards by the back's other
    photos alone (deck.Match.is_back)."""
    if len(backs) < 2:
        return
    for k, protos in enumerate(backs):
        others = [b for j, b in enumerate(backs) if j != k]
        m = replace(td.match(protos[0]), back=td.back_score(protos[0], np.concatenate(others)))
        report.back_loo_total += 1
        report.back_loo_right += m.is_back
