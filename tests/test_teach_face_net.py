"""The face network (vision/teach/face_net.py, trained by vision/teach/train_face_net.py): a learned
part a taught deck's embedding can take (embed.FACE_WEIGHT; off as shipped, measured in session 53,
docs/teach.md). Its training command end to end at a toy size, and the embedding with it: one more
shape part, a taught file that records it, a missing file named."""
import subprocess
import sys

import numpy as np
import pytest

from vision.synth.photo import print_photos
from vision.teach import embed, face_net
from vision.teach.embed import face


@pytest.fixture(scope="module")
def toy_net(tmp_path_factory):
    """A network trained for a few steps on two groups of renders, through the command line."""
    root = tmp_path_factory.mktemp("facenet")
    data, out = root / "faces.npz", root / "face.onnx"
    r = subprocess.run([sys.executable, "-m", "vision.teach.train_face_net", "render", "--groups", "2",
                        "--workers", "1", "--out", str(data)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, "-m", "vision.teach.train_face_net", "fit", "--data", str(data),
                        "--minutes", "0.01", "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return data, out


def test_the_training_command_renders_fits_and_exports_a_loadable_network(toy_net):
    data, out = toy_net
    d = np.load(data)
    # two groups of 16 cards of one print each, three photos of every card, warped as a taught face is
    assert d["faces"].shape == (32, 3, 96, 64, 3) and sorted(set(d["groups"].tolist())) == [0, 1]
    net = face_net.FaceNet(out)
    assert net.meta["groups"] == 2 and net.meta["steps"] >= 40
    e = net.embed(list(d["faces"][:3, 0]))
    assert e.shape == (3, face_net.EMBED_DIM) and np.allclose(np.linalg.norm(e, axis=1), 1.0, atol=1e-4)
    assert net.embed([]).shape == (0, face_net.EMBED_DIM)


def test_with_a_face_network_the_embedding_has_its_part_as_shape(toy_net, monkeypatch):
    shots = [face(img, q) for _, _, img, q in print_photos("uno", ["red-7"], 1, seed=3, held=0.0)]
    without = embed.embed_many(shots)
    monkeypatch.setattr(face_net, "PATH", toy_net[1])
    monkeypatch.setattr(embed, "FACE_WEIGHT", 2.0)
    with_net = embed.embed_many(shots)
    assert with_net.shape[1] == without.shape[1] + face_net.EMBED_DIM == embed.shape_mask().size
    assert np.array_equal(with_net[:, :without.shape[1]], without)
    assert embed.shape_mask()[-face_net.EMBED_DIM:].all()             # colour is not its part
    assert np.allclose(np.linalg.norm(with_net[:, without.shape[1]:], axis=1), 2.0, atol=1e-3)


def test_a_taught_file_records_the_face_network(toy_net, monkeypatch):
    plain = embed.net_digest()
    monkeypatch.setattr(face_net, "PATH", toy_net[1])
    monkeypatch.setattr(embed, "FACE_WEIGHT", 2.0)
    assert embed.net_digest().startswith(plain + "+") and not embed.net_digest().endswith("none")


def test_teach_without_its_face_network_stops_with_the_file_named(tmp_path, capsys, monkeypatch):
    from web.cli import main
    monkeypatch.setattr(face_net, "PATH", tmp_path / "face-embed.onnx")      # no such file
    monkeypatch.setattr(embed, "FACE_WEIGHT", 2.0)
    status = main(["teach", "--deck", "dino2", "--from", str(tmp_path), "--out", str(tmp_path / "t.npz")])
    assert status == 2 and "face-embed.onnx" in capsys.readouterr().err
    assert not (tmp_path / "t.npz").exists()
