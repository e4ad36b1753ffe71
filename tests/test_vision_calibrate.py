"""The confidence map (vision/read/calibrate.py): the readers' confidence as the chance of being
right, fitted by isotonic regression, never moving a reading across the sure threshold."""
import json

import numpy as np
import pytest

from vision.read.calibrate import (ABOVE_MAX, BELOW_MAX, THRESHOLD, ConfidenceMap, expected_calibration_error,
                                   fit, isotonic)


def _readings(groups):
    """(confidences, right) from [(confidence, n, n right)]."""
    conf, right = [], []
    for c, n, k in groups:
        conf += [c] * n
        right += [True] * k + [False] * (n - k)
    return np.array(conf), np.array(right)


def test_isotonic_pools_a_block_that_is_right_less_often_than_the_one_below_it():
    # 40 readings at 0.2 right 30 times, 40 at 0.3 right 20 times (a violation), 40 at 0.5 all right
    c, r = _readings([(0.2, 40, 30), (0.3, 40, 20), (0.5, 40, 40)])
    knots = isotonic(c, r, min_block=20, prior=0.0)
    # worked by hand: 0.2 and 0.3 pool into one block, 50 right of 80 at mean 0.25; then 0.5 alone
    assert knots == [(0.25, 0.625), (0.5, 1.0)]


def test_isotonic_smooths_by_its_prior_and_merges_ties():
    c, r = _readings([(0.7, 30, 30), (0.7, 30, 29)])
    # one confidence: one knot, (59 + 1) / (60 + 2)
    assert isotonic(c, r, min_block=20, prior=1.0) == [(0.7, round(60 / 62, 4))]


def test_the_map_follows_the_rate_right_on_each_side_and_keeps_every_decision():
    c, r = _readings([(0.0, 40, 0), (0.2, 40, 12), (0.45, 40, 22), (0.65, 100, 95), (0.9, 300, 299)])
    m = fit(c, r)
    # below the threshold: 0 -> (0 + 1) / 42, 0.2 -> 13 / 42, 0.45 -> 23 / 42
    assert m(0.0) == pytest.approx(1 / 42, abs=1e-4)
    assert m(0.2) == pytest.approx(13 / 42, abs=1e-4)
    assert m(0.45) == pytest.approx(23 / 42, abs=1e-4)
    # from it up: 0.65 -> 96 / 102, 0.9 -> 300 / 302 (under the cap of 0.995)
    assert m(0.65) == pytest.approx(96 / 102, abs=1e-4)
    assert m(0.9) == pytest.approx(300 / 302, abs=1e-4)
    grid = np.linspace(0, 1, 1001)
    mapped = np.array([m(x) for x in grid])
    assert (np.diff(mapped) >= 0).all()                       # monotone
    assert ((mapped >= THRESHOLD) == (grid >= THRESHOLD)).all()   # sure stays sure, unsure stays unsure
    assert mapped.max() <= ABOVE_MAX and mapped[grid < THRESHOLD].max() <= BELOW_MAX
    # and the fitted readings' calibration error falls
    assert expected_calibration_error([m(x) for x in c], r) < expected_calibration_error(c, r) / 3


def test_an_unsure_reading_right_more_often_than_the_threshold_stays_unsure():
    c, r = _readings([(0.3, 50, 49), (0.8, 50, 50)])
    m = fit(c, r)
    # 49 of 50 right: (49 + 1) / 52 = 0.96 below the threshold is held under it; 0.8 -> 51 / 52
    assert m(0.3) == BELOW_MAX and m(0.8) == pytest.approx(51 / 52, abs=1e-4)


def test_expected_calibration_error_by_hand():
    # bin 0.8-0.9: confidences 0.85 x 10, 7 right -> |0.7 - 0.85| = 0.15; bin 0.2-0.4: 0.3 x 10, 3 right -> 0
    c, r = _readings([(0.85, 10, 7), (0.3, 10, 3)])
    assert expected_calibration_error(c, r) == pytest.approx(0.075)


def test_the_map_is_saved_and_loaded_and_a_missing_file_is_the_identity(tmp_path):
    m = fit(*_readings([(0.1, 40, 10), (0.5, 40, 35), (0.8, 200, 199)]))
    path = tmp_path / "x-confidence.json"
    m.save(path)
    again = ConfidenceMap.load(path)
    assert again.below == m.below and again.above == m.above
    assert json.loads(path.read_text())["threshold"] == THRESHOLD
    ident = ConfidenceMap.load(tmp_path / "none.json")
    assert ident.identity and ident(0.37) == 0.37


def test_a_damaged_map_says_so_and_the_recognizer_does_not_start_with_it(tmp_path, monkeypatch):
    import shutil
    from vision.errors import ModelError, models_dir
    from vision.recognizer import Recognizer
    bad = tmp_path / "bad.json"
    bad.write_text('{"below": [[0.5, 0.9], [0.4, 0.95]], "above": []}')
    with pytest.raises(ValueError, match="rise"):
        ConfidenceMap.load(bad)
    for f in models_dir().iterdir():
        shutil.copy(f, tmp_path / f.name) if f.is_file() else None
    (tmp_path / "uno-confidence.json").write_text("{not json")
    monkeypatch.setenv("TABLEREF_MODELS", str(tmp_path))
    with pytest.raises(ModelError, match="uno-confidence.json.*train --confidence"):
        Recognizer("uno")


def test_the_shipped_recognizer_reports_calibrated_confidence_and_others_their_own():
    from vision.recognizer import Recognizer, confidence_map_for
    from vision.errors import models_dir
    assert confidence_map_for(models_dir() / "uno-symbols.npz").name == "uno-confidence.json"
    shipped = Recognizer("uno")
    assert not shipped.calibration.identity          # models/uno-confidence.json
    assert shipped.calibration.meta["deck"] == "uno"
    # another configuration than the one fitted: the readers' own numbers
    assert Recognizer("uno", text=False).calibration.identity


def test_train_confidence_fits_a_map_on_synthetic_photos_from_the_command_line(tmp_path, capsys):
    from web.cli import main
    out = tmp_path / "uno-confidence.json"
    assert main(["train", "--confidence", "--deck", "uno", "--closeups", "6", "--scenes", "1",
                 "--seed", "5", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "reading 6 close-ups and 1 table scenes of deck uno (seed 5)" in printed
    m = ConfidenceMap.load(out)
    assert m.meta["deck"] == "uno" and m.meta["seed"] == 5 and m.meta["readings"] > 0
    assert f"{m.meta['readings']} cards read, {m.meta['right']} right" in printed
    # the readings it was fitted on are kept beside it, one card a line
    kept = [json.loads(x) for x in (tmp_path / "uno-confidence-readings.jsonl").read_text().splitlines()]
    assert len(kept) == m.meta["readings"] and {"photo", "confidence", "right"} <= set(kept[0])
    grid = np.linspace(0, 1, 101)
    assert all((m(x) >= THRESHOLD) == (x >= THRESHOLD) for x in grid)


def test_train_confidence_refuses_bad_counts_and_an_unknown_deck(tmp_path, capsys):
    from web.cli import main
    out = tmp_path / "c.json"
    assert main(["train", "--confidence", "--closeups", "-1", "--out", str(out)]) == 2
    assert "must not be negative" in capsys.readouterr().err
    assert main(["train", "--confidence", "--deck", "poker", "--out", str(out)]) == 2
    assert "unknown deck" in capsys.readouterr().err
    assert not out.exists()
