"""A taught deck for the tables (issue 15): `serve --taught`, and DATA/taught/DECK.npz."""
import shutil

import pytest

from vision.synth.photo import write_teach_folder


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    root = tmp_path_factory.mktemp("taught")
    write_teach_folder(root / "photos", "dino2", ["red-dingbat", "blue-chill"], 1, seed=11, held=0.0, strength=0.5)
    from web.cli import main
    assert main(["teach", "--deck", "dino2", "--from", str(root / "photos"), "--out", str(root / "dino2.npz")]) == 0
    return root / "dino2.npz"


def test_the_data_folder_and_the_command_line_name_each_decks_taught_file(taught, tmp_path):
    from web.taught import taught_decks
    assert taught_decks([], tmp_path) == {}
    (tmp_path / "taught").mkdir()
    shutil.copy(taught, tmp_path / "taught" / "dino2.npz")
    shutil.copy(taught, tmp_path / "taught" / "uno.npz")        # a dino2 deck under another name: not taken
    assert taught_decks([], tmp_path) == {"dino2": str(tmp_path / "taught" / "dino2.npz")}
    assert taught_decks([str(taught)], tmp_path) == {"dino2": str(taught)}      # the command line wins
    with pytest.raises(ValueError, match="two taught decks for deck dino2"):
        taught_decks([str(taught), str(tmp_path / "taught" / "dino2.npz")], tmp_path)


def test_a_taught_file_an_upgrade_made_stale_is_set_aside_from_the_data_folder_but_refused_when_named(taught, tmp_path):
    """After an upgrade that changes the embedding (or the symbol network), a deck kept in the data
    folder must not stop the server: its tables read with the built-in recognizer and the message
    says how to teach it again. Named with --taught, the same file is refused."""
    import json
    import numpy as np
    from web.taught import taught_decks
    (tmp_path / "taught").mkdir()
    (tmp_path / "teach" / "dino2").mkdir(parents=True)
    stale = tmp_path / "taught" / "dino2.npz"
    with np.load(taught, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    meta["embedding"] = -1
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(stale, **arrays)
    said = []
    assert taught_decks([], tmp_path, warn=said.append) == {}
    assert len(said) == 1 and str(stale) in said[0] and "built-in recognizer" in said[0]
    assert f"tableref teach --deck dino2 --from {tmp_path / 'teach' / 'dino2'} --out {stale}" in said[0]
    with pytest.raises(ValueError, match="another version"):
        taught_decks([str(stale)], tmp_path / "elsewhere")


def test_serve_with_a_bad_taught_file_stops_at_start_naming_it(tmp_path, capsys):
    from web.cli import main
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    status = main(["serve", "--rules", "dino2", "--taught", str(bad), "--port", "0", "--data", str(tmp_path / "d"),
                   "--host", "127.0.0.1", "--host-token", "a-long-enough-token-123"])
    err = capsys.readouterr().err
    assert status == 2 and str(bad) in err


def test_a_camera_feed_reads_with_the_taught_deck(taught, monkeypatch):
    """The feed of a dino2 table builds its pipeline with a recognizer holding the taught deck."""
    import vision.track.pipeline as pipeline
    from web.camera import CameraFeed
    seen = {}

    class FakePipeline:
        def __init__(self, source, deck, realtime=None, recognizer=None, **kw):
            seen["recognizer"] = recognizer
            self.source = type("S", (), {"on_status": None})()
            self.status = {"state": "running", "message": ""}

        def run(self, on_event, stop_event):
            return None
    monkeypatch.setattr(pipeline, "TablePipeline", FakePipeline)
    feed = CameraFeed("main", "rtsp://example.invalid/x", "dino2", lambda *a: None, taught=str(taught))
    feed._run()
    rec = seen["recognizer"]
    assert rec is not None and rec.taught is not None and rec.taught.deck == "dino2"
    assert sorted(rec.taught.cards) == ["blue-chill", "red-dingbat"]


def test_a_running_camera_reads_with_a_deck_taught_meanwhile_without_a_restart(taught, tmp_path):
    """The host page's finish (web/teach_api.py) hands the new deck to the table's running camera:
    the same pipeline, still reading frames, reads with it from then on, and the camera's status
    names it. A file that cannot be used is refused and the camera reads on as before."""
    from helpers import wait_for
    from vision.synth.teach_camera import MjpegCamera, TableScene
    from vision.teach.file import TaughtFileError
    from web.camera import CameraFeed
    scene = TableScene("dino2", seed=4)
    with MjpegCamera(scene.frame([])) as cam:
        feed = CameraFeed("main", cam.url, "dino2", lambda *a: None).start()
        try:
            assert wait_for(lambda: feed.pipeline is not None and len(feed.pipeline.frame_ms) > 2, timeout=60)
            pipeline, before = feed.pipeline, feed.pipeline.recognizer
            assert before.taught is None and feed.status()["taught"] is None
            bad = tmp_path / "bad.npz"
            bad.write_bytes(b"not a zip")
            with pytest.raises(TaughtFileError):
                feed.use_taught(str(bad))
            assert feed.pipeline.recognizer is before and feed.status()["taught"] is None
            feed.use_taught(str(taught))
            rec = feed.pipeline.recognizer
            assert feed.pipeline is pipeline and rec is not before      # no restart, a new reader
            assert rec.taught is not None and sorted(rec.taught.cards) == ["blue-chill", "red-dingbat"]
            assert pipeline.tracker.calibration == rec.calibration
            assert feed.status()["taught"] == str(taught)
            seen = len(pipeline.frame_ms)
            assert wait_for(lambda: len(pipeline.frame_ms) > seen + 2, timeout=30)   # it reads on
            assert feed.thread.is_alive() and feed.status()["state"] == "running"
            # what it reads with now: the taught deck's card, from a frame of the camera
            reads = rec.read(scene.frame([("red-dingbat", scene.spot(0), 10.0)]))
            assert reads and reads[0].card == "red-dingbat"
        finally:
            feed.stop()
            feed.thread.join(10)
