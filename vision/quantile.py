"""np.percentile's linear quantile of a small array, the same value to the last bit, without its
dispatch: the outline check (locate/verify.py) takes some forty quantiles of warps 64x100 pixels
per photo, where np.percentile's own machinery cost more than the partition (about 3 ms a photo)."""
from __future__ import annotations

import numpy as np


def percentile(values: np.ndarray, q: float) -> float:
    """np.percentile(values, q) (method "linear") of a non-empty array, as a float."""
    x = np.asarray(values).ravel()
    n = x.size
    if n == 0:
        raise ValueError("percentile of an empty array")
    # numpy's order-statistic position and weight, computed as it does (float64)
    at = (n - 1) * (np.float64(q) / 100.0)
    lo = int(np.floor(at))
    hi = min(lo + 1, n - 1)
    t = float(at - lo)
    part = np.partition(x, (lo, hi)) if hi != lo else np.partition(x, lo)
    a, b = part[lo], part[hi]
    if not np.issubdtype(x.dtype, np.floating):    # integers interpolate in float64, as numpy does
        a, b = np.float64(a), np.float64(b)
    # numpy's lerp: from the nearer end, so that t = 0 or 1 gives that value exactly
    diff = b - a
    return float(a + diff * t if t < 0.5 else b - diff * (1.0 - t))
