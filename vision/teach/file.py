"""A taught deck on disk: one .npz file, safe to load and written atomically.

Arrays only (loaded with allow_pickle=False, so a file cannot run code), a format name and
version, the deck, the embedding's version, the digest of the network(s) whose features it
holds, the teach report's summary in a JSON string, the taught photos' keypoints (local.py;
optional: a file taught before they were kept reads without them), and the back's prototypes
where the deck's back was taught (optional too). It is written atomically
(vision/atomic.py), so a reader sees the old file or the new one, never half of one, and a failed
or interrupted teach leaves the previous file as it was.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..atomic import write_atomic
from . import local
from .deck import TaughtDeck
from ..errors import ModelError
from .embed import NET_FILE, VERSION as EMBEDDING, check_networks, net_digest

FORMAT = "tableref-taught-deck"
FORMAT_VERSION = 1


class TaughtFileError(ValueError):
    """A taught-deck file that cannot be used, with the reason in words."""


class StaleTaughtFile(TaughtFileError):
    """A sound taught-deck file made by another version of tableref or with another symbol network:
    its prototypes live in another embedding. Teaching the deck again from its photos mends it."""


def save(td: TaughtDeck, path: str | os.PathLike) -> None:
    path = Path(path)
    meta = dict(td.meta, format=FORMAT, version=FORMAT_VERSION, deck=td.deck, embedding=EMBEDDING,
                scales=list(td.scales))
    # the taught photos' keypoints (local.py), where kept: a file without them reads as before
    keypoints = local.pack(td.local) if td.local is not None else {}
    # the back's prototypes, where it was taught (a file without them: no back taught)
    back = {"back": td.back.astype(np.float16)} if td.has_back else {}
    write_atomic(path, lambda f: np.savez_compressed(
        f, meta=np.array(json.dumps(meta)), cards=np.array(td.cards, dtype=str),
        colours=np.array(td.colours, dtype=str), symbols=np.array(td.symbols, dtype=str),
        protos=td.protos.astype(np.float16), labels=td.labels.astype(np.int32),
        photos=td.photos.astype(np.int32), weights=td.weights.astype(np.float32), **keypoints, **back))


def load(path: str | os.PathLike, deck: str | None = None) -> TaughtDeck:
    """The taught deck in `path`; TaughtFileError naming the file and what is wrong. With `deck`,
    a file taught for another deck is refused."""
    path = Path(path)
    if not path.is_file():
        raise TaughtFileError(f"no taught deck at {path} (make one with `tableref teach`)")
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("format") != FORMAT:
                raise TaughtFileError(f"{path} is not a taught deck of tableref")
            if meta.get("version") != FORMAT_VERSION or meta.get("embedding") != EMBEDDING:
                raise StaleTaughtFile(f"{path} was taught by another version of tableref (format "
                                      f"{meta.get('version')}, embedding {meta.get('embedding')}); teach it again")
            try:
                check_networks()
            except ModelError as e:
                raise TaughtFileError(f"{path} cannot be read without the networks it was taught with: {e}") from e
            if meta.get("network") != net_digest():
                # the embedding holds the networks' features: another network, another space
                raise StaleTaughtFile(f"{path} was taught with another symbol network than the one in "
                                      f"the models folder now ({NET_FILE} changed); teach it again")
            keypoints = None
            if "local_pts" in z.files:
                pts, desc, photo = z["local_pts"], z["local_desc"], z["local_photo"]
                if pts.ndim != 2 or pts.shape[1:] != (2,) or desc.shape != (len(pts), 128) or photo.shape != (len(pts),) \
                        or desc.dtype != np.uint8:
                    raise TaughtFileError(f"{path} is damaged (its keypoints do not fit together)")
                keypoints = local.unpack(pts, desc, photo, int(z["photos"].max()) + 1 if len(z["photos"]) else 0)
            back = z["back"].astype(np.float32) if "back" in z.files else None
            if back is not None and (back.ndim != 2 or back.shape[1] != z["protos"].shape[1]):
                raise TaughtFileError(f"{path} is damaged (its back does not fit its cards)")
            td = TaughtDeck(str(meta["deck"]), [str(c) for c in z["cards"]], [str(c) for c in z["colours"]],
                            [str(s) for s in z["symbols"]], z["protos"].astype(np.float32), z["labels"],
                            z["photos"], z["weights"], tuple(float(s) for s in meta["scales"]), meta, keypoints,
                            back)
    except TaughtFileError:
        raise
    except Exception as e:      # truncated zip, missing array, bad JSON: numpy and zipfile raise many types
        raise TaughtFileError(f"{path} cannot be read as a taught deck ({e.__class__.__name__}: {e})") from e
    try:
        td.border
    except (KeyError, TypeError, ValueError) as e:
        raise TaughtFileError(f"{path} is damaged (its border is {td.meta.get('border')!r})") from e
    try:
        td.aspect
    except ValueError as e:
        raise TaughtFileError(f"{path} is damaged (its cards' shape is {td.meta.get('aspect')!r})") from e
    n = len(td.protos)
    if len(td.colours) != len(td.cards) or len(td.symbols) != len(td.cards) or len(td.labels) != n or len(td.photos) != n or td.protos.ndim != 2 or td.weights.shape != (td.protos.shape[1],) \
            or (n and (td.labels.min() < 0 or td.labels.max() >= len(td.cards))):
        raise TaughtFileError(f"{path} is damaged (its arrays do not fit together)")
    if deck is not None and td.deck != deck:
        raise TaughtFileError(f"{path} was taught for deck {td.deck!r}, not {deck!r}")
    return td
