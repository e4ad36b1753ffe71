"""The teach folder: one subfolder per card id (`FOLDER/red-7/*.jpg`, torchvision's ImageFolder
convention), 1 to MAX_PHOTOS photos each, and optionally `FOLDER/back/` with photos of the deck's
back (deck.BACK: a card lying face down). Checked whole before any photo is read, so that a
misnamed folder or a photo filed under two cards stops the teach with nothing written."""
from __future__ import annotations

import hashlib
from pathlib import Path

from .deck import BACK

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".heic", ".heif", ".hif"}
MAX_PHOTOS = 5


class TeachError(ValueError):
    """The whole teach is refused (nothing is written), with the reason in words."""


def scan(folder: str | Path, deck_ids: list[str]) -> tuple[list[tuple[str, Path]], list[tuple[Path, str]]]:
    """([(card id, photo path)] in deck order, then deck.BACK's photos, [(path, why)] set aside).
    TeachError for a missing folder, a subfolder that is no card id of the deck (all of them
    named) nor deck.BACK, no photo of a card, or the same photo (byte for byte) filed under two
    card ids."""
    folder = Path(folder)
    if not folder.is_dir():
        raise TeachError(f"{folder} is not a folder (it should hold one subfolder per card id, e.g. {folder}/red-7/)")
    known = set(deck_ids) | {BACK}
    subs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    unknown = [p.name for p in subs if p.name not in known]
    if unknown:
        hint = ", ".join(deck_ids[:4])
        raise TeachError(f"{', '.join(repr(u) for u in unknown)} in {folder} "
                         f"{'is no card id' if len(unknown) == 1 else 'are no card ids'} of this deck "
                         f"(ids look like {hint}; `tableref cards DECK` lists them; {BACK}/ holds photos "
                         f"of the deck's back)")
    set_aside: list[tuple[Path, str]] = []
    photos: list[tuple[str, Path]] = []
    by_card = {p.name: p for p in subs}
    for cid in deck_ids + [BACK]:
        if cid not in by_card:
            continue
        files = sorted(p for p in by_card[cid].iterdir() if p.is_file() and not p.name.startswith("."))
        pics = [p for p in files if p.suffix.lower() in PHOTO_SUFFIXES]
        set_aside += [(p, "not a photo (jpg, png, heic, bmp, webp or tif)") for p in files if p not in pics]
        set_aside += [(p, f"more than {MAX_PHOTOS} photos of {cid}: only the first {MAX_PHOTOS} are used")
                      for p in pics[MAX_PHOTOS:]]
        photos += [(cid, p) for p in pics[:MAX_PHOTOS]]
    if not any(cid != BACK for cid, _ in photos):
        raise TeachError(f"no photos in {folder}: put each card's photos in a subfolder named by its id, "
                         f"e.g. {folder}/{deck_ids[0]}/1.jpg")
    _check_duplicates(photos)
    return photos, set_aside


def _check_duplicates(photos: list[tuple[str, Path]]) -> None:
    seen: dict[str, tuple[str, Path]] = {}
    for cid, p in photos:
        try:
            digest = hashlib.sha256(p.read_bytes()).hexdigest()
        except OSError:
            continue            # unreadable: refused with its reason when it is read
        if digest in seen and seen[digest][0] != cid:
            other_cid, other = seen[digest]
            raise TeachError(f"the same photo is filed under two cards: {other} ({other_cid}) and {p} ({cid}); "
                             f"keep it under the card it shows" + (f" ({BACK}/ is for the deck's back)"
                                                                  if BACK in (cid, other_cid) else ""))
        seen.setdefault(digest, (cid, p))
