"""Which taught deck (vision/teach/, `tableref teach`) each deck's tables read with.

From `--taught FILE` on serve and demo (the deck is in the file), else DATA/taught/DECK.npz, the
place where a deck taught for this data folder is kept. Each file is loaded once here, so that a
bad file stops the server at start with the file named, not a camera thread later.
"""
from __future__ import annotations

from pathlib import Path


def taught_decks(files: list[str], data: Path, warn=None) -> dict[str, str]:
    """{deck id: taught file}; ValueError naming a file that cannot be used or two files of one deck.
    A file kept in the data folder that an upgrade made stale (another embedding or symbol network)
    is set aside with a message to `warn` (stderr by default), not fatal: its tables read with the
    built-in recognizer until the deck is taught again, from the photos kept beside it."""
    import sys
    from vision.teach.file import StaleTaughtFile, TaughtFileError, load
    warn = warn or (lambda m: print(m, file=sys.stderr))
    out: dict[str, str] = {}
    kept = sorted((data / "taught").glob("*.npz")) if (data / "taught").is_dir() else []
    for path in kept:
        try:
            td = load(path)
        except StaleTaughtFile as e:
            photos = data / "teach" / path.stem
            again = (f"tableref teach --deck {path.stem} --from {photos} --out {path}" if photos.is_dir()
                     else "teach it again from the host page")
            warn(f"tableref: {e}; its tables read with the built-in recognizer until then ({again})")
            continue
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
