"""Where the recognizer's model files live, and the error a user reads when one is unusable."""
from __future__ import annotations

import os
from functools import lru_cache, wraps
from pathlib import Path

BUNDLED = Path(__file__).resolve().parent.parent / "models"


def models_dir() -> Path:
    """The committed models/ folder, or the folder TABLEREF_MODELS names (a retrained set)."""
    return Path(os.environ.get("TABLEREF_MODELS") or BUNDLED)


def once_per_version(load):
    """`load(path)` wrapped so that each version of a file (its resolved path and modification time)
    is loaded once: the recognizer and a taught deck share one session, and a model file replaced
    on disk is loaded again."""
    cached = lru_cache(maxsize=4)(lambda path, mtime: load(path))

    @wraps(load)
    def by_version(path):
        path = Path(path).resolve()
        try:
            mtime = path.stat().st_mtime
        except OSError:
            mtime = 0.0        # the loader names the missing file
        return cached(path, mtime)
    return by_version


class ModelError(RuntimeError):
    """A model file that is missing or cannot be loaded: reported once, when the recognizer starts."""


def onnx_session(path: Path, what: str, missing_hint: str, threads: int = 2):
    """An onnxruntime session for the model file at `path` (`what` names it in messages), on the
    CPU with `threads` threads, or a ModelError saying what is wrong and what to do."""
    if not path.is_file():
        raise ModelError(f"{what} model not found: {path} ({missing_hint}, see models/README.md)")
    try:
        import onnxruntime as ort
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        # no busy-waiting between runs: spinning threads starve numpy's, which reads the cards next
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except ImportError as e:
        raise ModelError(f"the {what} needs onnxruntime: pip install onnxruntime") from e
    except Exception as e:  # onnxruntime raises its own types for a damaged file
        raise ModelError(f"{what} model {path} cannot be loaded ({e.__class__.__name__}: "
                         f"{str(e).splitlines()[0][:200] if str(e) else ''}); {missing_hint}") from e
