"""Which taught deck (vision/teach/, `tableref teach`) each deck's tables read with.

From `--taught FILE` on serve and demo (the deck is in the file), else DATA/taught/DECK.npz, the
place where a deck taught for this data folder is kept. Each file is loaded once here, so that a
bad file stops the server at start with the file named, not a camera thread later.
"""
from __future__ import annotations

from pathlib import Path


def taught_decks(files: list[str], data: Path) -> dict[str, str]:
    """{deck id: taught file}; ValueError naming a file that cannot be used or two files of one deck."""
    from vision.teach.file import TaughtFileError, load
    out: dict[str, str] = {}
    kept = sorted((data / "taught").glob("*.npz")) if (data / "taught").is_dir() else []
    for path in kept:
        try:
            td = load(path)
        except TaughtFileError as e:
            raise ValueError(f"{e} (kept in the data folder; remove it or teach the deck again)") from e
        if td.deck == path.stem:          # DECK.npz: a file under another name is not picked up
            out[td.deck] = str(path)
    given: dict[str, str] = {}
    for f in files:
        try:
            td = load(f)
        except TaughtFileError as e:
            raise ValueError(str(e)) from e
        if td.deck in given:
            raise ValueError(f"two taught decks for deck {td.deck}: {given[td.deck]} and {f}")
        given[td.deck] = f
    out.update(given)                     # the command line wins over the data folder
    return out
