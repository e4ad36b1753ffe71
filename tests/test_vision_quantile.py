"""vision/quantile.py: the outline check's quantiles are np.percentile's, to the last bit."""
import numpy as np
import pytest

from vision.quantile import percentile


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.float64])
def test_the_same_value_as_numpy_for_every_size_quantile_and_ties(dtype):
    rng = np.random.default_rng(7)
    for i in range(600):
        n = int(rng.integers(1, 700))
        x = rng.integers(0, 256, n) if i % 3 else rng.integers(0, 4, n) * 60   # many ties
        x = (x + (rng.random(n) if i % 2 and dtype != np.uint8 else 0)).astype(dtype)
        for q in (0, 3, 30, 50, 97, 99.5, 100, float(rng.random() * 100)):
            assert percentile(x, q) == float(np.percentile(x, q)), (n, q, dtype)


def test_a_two_dimensional_warp_is_taken_whole():
    x = np.arange(64 * 100, dtype=np.float32).reshape(100, 64)
    assert percentile(x, 97) == float(np.percentile(x, 97))


def test_an_empty_array_is_refused():
    with pytest.raises(ValueError):
        percentile(np.zeros(0, np.float32), 50)
