"""Still images from files for the recognizer: read as 8-bit BGR, refused with a clear reason.

`load_image(path)` returns (bgr, scale): the picture, and how many of the file's own pixels one
pixel of it spans (1.0 unless it was decoded reduced), so that a polygon found in it is mapped
back to the photo's coordinates by multiplying by `scale`.

- a missing path, a directory, an empty file, a file that is not an image, a truncated or corrupt
  image: BadImage with the reason (a truncated image is refused, not half-read);
- a photo whose long side exceeds MAX_SIDE is decoded reduced: a JPEG at 1/2, 1/4 or 1/8 by the
  decoder itself (libjpeg's DCT scaling, the smallest factor that brings it under the limit, so a
  phone's 4032 x 3024 photo is decoded at 2016 x 1512 in a third of the time, and a 20,000 x 15,000
  one takes 15 MB instead of 900 MB), other formats decoded whole and resized;
- over MAX_PIXELS (JPEG) or MAX_PIXELS_FULL (formats decoded whole) the image is refused as a
  decompression bomb, from its header alone;
- alpha is dropped (as OpenCV's IMREAD_COLOR does), grey is read as colour, 16-bit as 8-bit,
  and the EXIF orientation is applied (as OpenCV does);
- an iPhone's HEIC photos (HEIF) are read through pillow-heif, a dependency; without it they are
  refused with a message that says what to install.
"""
from __future__ import annotations

import math
import os
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_SIDE = 2048                  # long side (pixels) the recognizer is given at most: it reads a longer
                                 # picture at this size anyway (recognizer.WORK_SIDE; a card in a 12 MP
                                 # photo is still hundreds of pixels wide, and its outline search had
                                 # grown with them: one card held close in a 4032-pixel photo, 1.9-2.8 s
                                 # to read, 0.5-0.7 s at 2016)
MAX_PIXELS = 400_000_000         # a JPEG is decoded reduced; beyond this it is a decompression bomb
MAX_PIXELS_FULL = 100_000_000    # other formats are decoded whole (300 MB at 100 MP) before resizing

# Pillow's own bomb check would refuse a 300 MP photo in Image.open, before we can decide to decode
# it reduced; our limits are applied instead (and Pillow's stays in force above twice ours)
if Image.MAX_IMAGE_PIXELS is not None and Image.MAX_IMAGE_PIXELS < MAX_PIXELS:
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS

# A phone's camera saves HEIC by default (iPhones since 2017): Pillow reads it with pillow-heif's
# opener registered. OpenCV cannot read it at all.
try:
    from pillow_heif import register_heif_opener
    register_heif_opener()
    HEIF = True
except ImportError:  # an install without it still reads JPEG, PNG, WebP, BMP and TIFF
    HEIF = False
HEIF_SUFFIXES = (".heic", ".heif", ".hif")


class BadImage(ValueError):
    """An image file that cannot be read; the message names the file and why."""


def _bad(path, why: str) -> BadImage:
    return BadImage(f"cannot read image {path}: {why}")


def load_image(path: str | os.PathLike, max_side: int = MAX_SIDE) -> tuple[np.ndarray, float]:
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise _bad(path, "no such file") from None
    except OSError as e:
        raise _bad(path, e.strerror or str(e)) from None
    if p.is_dir():
        raise _bad(path, "is a directory")
    if st.st_size == 0:
        raise _bad(path, "empty file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(p) as im:
                return _decode(path, im, max_side)
    except BadImage:
        raise
    except Image.DecompressionBombError:
        raise _bad(path, f"too large (over {MAX_PIXELS // 1_000_000} megapixels)") from None
    except (UnidentifiedImageError, ImportError):
        # (ImportError: once ultralytics is imported, its patch of Image.open tries to load a HEIF
        # plugin for any file Pillow cannot identify)
        if not HEIF and p.suffix.lower() in HEIF_SUFFIXES:
            raise _bad(path, "a HEIC photo: pip install pillow-heif to read it, or save it as JPEG") from None
        raise _bad(path, "not an image") from None
    except PermissionError:
        raise _bad(path, "permission denied") from None
    except MemoryError:
        raise _bad(path, "too large to decode in memory") from None
    except (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError) as e:
        # Pillow: "image file is truncated", "broken data stream", bad PNG chunks and the like
        why = "truncated" if "truncated" in str(e) or isinstance(e, EOFError) else "corrupt"
        raise _bad(path, f"{why} ({e})") from None


def _decode(path, im: Image.Image, max_side: int) -> tuple[np.ndarray, float]:
    w, h = im.size
    if w <= 0 or h <= 0:
        raise _bad(path, "no pixels")
    jpeg = im.format in ("JPEG", "MPO")
    limit = MAX_PIXELS if jpeg else MAX_PIXELS_FULL
    if w * h > limit:
        raise _bad(path, f"too large ({w} x {h} pixels, over {limit // 1_000_000} megapixels)")
    long_side = max(w, h)
    if jpeg and long_side > max_side:
        # the smallest factor among 2, 4, 8 that brings it under the limit (8 where none does)
        f = next((f for f in (2, 4, 8) if math.ceil(long_side / f) <= max_side), 8)
        im.draft("RGB", (math.ceil(w / f), math.ceil(h / f)))
    im.load()                       # decodes; raises on a truncated file
    im = ImageOps.exif_transpose(im)
    rgb = _to_rgb8(im)
    # the file's pixels per pixel of the picture (same on both axes but for the rounding up)
    scale = max(w, h) / max(rgb.shape[1], rgb.shape[0])
    if max(rgb.shape[:2]) > max_side:
        s = max_side / max(rgb.shape[:2])
        size = (max(1, round(rgb.shape[1] * s)), max(1, round(rgb.shape[0] * s)))
        rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
        scale = max(w, h) / max(rgb.shape[1], rgb.shape[0])
    return np.ascontiguousarray(rgb[:, :, ::-1]), float(scale)


def _to_rgb8(im: Image.Image) -> np.ndarray:
    """H x W x 3 uint8 RGB from any Pillow mode (alpha dropped, grey spread, 16/32-bit reduced)."""
    if im.mode in ("I;16", "I;16L", "I;16B", "I;16N", "I"):
        a = np.asarray(im)
        a = (a.astype(np.float32) / 257.0) if im.mode.startswith("I;16") or a.max(initial=0) > 255 else a
        g = np.clip(a, 0, 255).astype(np.uint8)
        return np.repeat(g[:, :, None], 3, axis=2)
    if im.mode == "F":
        g = np.clip(np.asarray(im), 0, 255).astype(np.uint8)
        return np.repeat(g[:, :, None], 3, axis=2)
    if im.mode != "RGB":
        im = im.convert("RGBA" if "A" in im.mode or "transparency" in im.info else "RGB").convert("RGB")
    return np.asarray(im)
