"""Files written whole or not at all.

The content goes to a temporary file beside the target, synced, then moved over it with os.replace:
a reader sees the old file or the new one, never half of one, and a failed or interrupted write
(Ctrl-C included) leaves the previous file as it was and no temporary behind."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable


def write_atomic(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> Path:
    """Writes `path` with `write(file)`; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)        # mkstemp makes it private; these files are not secret
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path
