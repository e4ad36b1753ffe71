"""Where the recognizer's model files live, and the error a user reads when one is unusable."""
from __future__ import annotations

import os
from pathlib import Path

BUNDLED = Path(__file__).resolve().parent.parent / "models"


def models_dir() -> Path:
    """The committed models/ folder, or the folder TABLEREF_MODELS names (a retrained set)."""
    return Path(os.environ.get("TABLEREF_MODELS") or BUNDLED)


class ModelError(RuntimeError):
    """A model file that is missing or cannot be loaded: reported once, when the recognizer starts."""
