"""The face network: a learned embedding of a rectified card face in which two photos of one card
lie near and the other symbols of its deck far (trained by train_face_net.py on renders of printed
decks). It is one more shape part of a taught deck's embedding when embed.FACE_WEIGHT is above 0,
colour left to the colour part. Not shipped: measured in session 53 (docs/teach.md), off, no model
in models/; `bench/teach.py --face-net FILE --face-weight W` measures one."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import models_dir, once_per_version, onnx_session

EMBED_DIM = 64
FILE = "face-embed.onnx"


def net_input(face_bgr: np.ndarray) -> np.ndarray:
    """uint8 3 x FACE_H x FACE_W: the face's glyph (embed.glyph: stretched so the light's level does
    not count), channels first."""
    from .embed import _sized, glyph
    return np.clip(glyph(_sized(face_bgr)), 0, 255).astype(np.uint8).transpose(2, 0, 1)


class FaceNet:
    """`embed(faces)`: N x EMBED_DIM unit vectors for N rectified faces (BGR, any size)."""

    def __init__(self, path: Path):
        self.path = path
        self.session = onnx_session(path, "face embedding", "restore it from git or retrain it with "
                                    "`python -m vision.teach.train_face_net`", threads=1)
        meta = self.session.get_modelmeta().custom_metadata_map.get("tableref")
        self.meta = json.loads(meta) if meta else {}

    def embed(self, faces: list[np.ndarray]) -> np.ndarray:
        if not faces:
            return np.zeros((0, EMBED_DIM), np.float32)
        x = np.stack([net_input(f) for f in faces]).astype(np.float32) / 255.0 - 0.5
        return self.session.run(None, {"face": x})[0].astype(np.float32)


PATH: Path | None = None    # a face network to use instead of the models folder's (bench/teach.py --face-net)


def load() -> FaceNet:
    """The face network (PATH, else the models folder's), loaded once per file version."""
    return _load(PATH or models_dir() / FILE)


_load = once_per_version(FaceNet)
