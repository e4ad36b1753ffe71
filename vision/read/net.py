"""Stage 3b': the card's symbol by a small convolutional network over the same glyph as symbols.py.

The HOG classifier (symbols.py) and this network read the same colour-blind glyph
(symbols.glyph_image) in different ways: HOG cells at fixed places against convolutions pooled over
the whole card. On prints it was not trained on the network is far the better reader (left out of
training, a family is read 0.97-0.98 with it against 0.89-0.93 by HOG alone; models/README.md), so
the recognizer takes a weighted geometric mean in which it leads (`agree`, NET_WEIGHT 0.8): HOG
only moves a close call, and where the two disagree the belief is lower than where they agree.
Trained by vision/read/train_net.py, run by onnxruntime (no torch in the app), about a millisecond
a card.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import ModelError, once_per_version, onnx_session
from .symbols import GLYPH_H, GLYPH_W

FLOOR = 0.02      # each reader's probabilities are mixed with this much of "any symbol" before the
                  # product, so that one reader's zero cannot veto what the other is sure of
NET_WEIGHT = 0.8  # the network's exponent in the product (the HOG classifier's: 1 - NET_WEIGHT)
# the `features` output (train_net.with_features): the last conv block's channels, averaged over
# the card in rows x columns cells
FEATURE_CHANNELS = 128
FEATURE_GRID = (3, 2)


@once_per_version
def load_net(path: str | Path) -> "SymbolNet":
    """The network in `path`, loaded once per file version: the recognizer and a taught deck's
    embedding (vision/teach/embed.py) share one session."""
    return SymbolNet(path)


class SymbolNet:
    """`proba(glyphs)`: N x C probabilities for N glyphs (uint8, GLYPH_H x GLYPH_W)."""

    def __init__(self, path: str | Path):
        path = Path(path)
        self.session = onnx_session(path, "symbol network", "restore it from git or retrain it with "
                                    "`python -m vision.read.train_net`", threads=1)
        meta = self.session.get_modelmeta().custom_metadata_map.get("tableref")
        try:
            self.meta = json.loads(meta)
            self.classes = [str(c) for c in self.meta["classes"]]
        except (TypeError, ValueError, KeyError) as e:
            raise ModelError(f"symbol network {path} carries no class list in its metadata; "
                             f"retrain it with `python -m vision.read.train_net`") from e
        if tuple(self.meta.get("input", (GLYPH_H, GLYPH_W))) != (GLYPH_H, GLYPH_W):
            raise ModelError(f"symbol network {path} takes {self.meta['input']} glyphs, not {GLYPH_H}x{GLYPH_W}")
        self._input = self.session.get_inputs()[0].name
        self.path = path
        self.has_features = any(o.name == "features" for o in self.session.get_outputs())

    def proba(self, glyphs: np.ndarray) -> np.ndarray:
        x = np.asarray(glyphs, np.float32).reshape(-1, 1, GLYPH_H, GLYPH_W)
        return self.session.run(["proba"], {self._input: x})[0].astype(np.float64)

    def features(self, glyphs: np.ndarray) -> np.ndarray:
        """N x FEATURE_CHANNELS x 3 x 2: the last conv block's map over the card in FEATURE_GRID cells
        (train_net's `with_features`), what a taught deck describes shapes with."""
        if not self.has_features:
            raise ModelError(f"symbol network {self.path} has no features output; add it with "
                             f"`python -m vision.read.train_net features {self.path}` or retrain it")
        x = np.asarray(glyphs, np.float32).reshape(-1, 1, GLYPH_H, GLYPH_W)
        return self.session.run(["features"], {self._input: x})[0]


def agree(classes: list[str], p_hog: np.ndarray, net_classes: list[str], p_net: np.ndarray,
          weight: float | None = None) -> np.ndarray:
    """One distribution over `classes` from both readers: the normalized weighted geometric mean
    of each floored with FLOOR of "any symbol", the network's weight `weight` (default NET_WEIGHT).
    Classes the network lacks keep the HOG reader's share."""
    w = NET_WEIGHT if weight is None else weight
    p_hog = np.asarray(p_hog, np.float64)
    idx = {c: i for i, c in enumerate(net_classes)}
    q = np.array([p_net[idx[c]] if c in idx else p_hog[k] for k, c in enumerate(classes)])
    q /= q.sum()
    n = len(classes)
    b = ((1 - FLOOR) * p_hog + FLOOR / n) ** (1 - w) * ((1 - FLOOR) * q + FLOOR / n) ** w
    return b / b.sum()
