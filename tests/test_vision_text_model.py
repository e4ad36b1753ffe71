"""The text recognizer's rewrite (vision/read/text_model.py): the same outputs from fewer operations.

A small network with the export's patterns is built here (a padded 3x3 convolution, affine blocks
before and after activations, hard swish in four operations, a 1x1 convolution, and an affine
block before a padded convolution, which must be kept), rewritten, and run under onnxruntime
against the original on random input.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
import onnxruntime as ort  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from vision.errors import models_dir  # noqa: E402
from vision.read.text_model import main, slim  # noqa: E402

UPSTREAM_SHA256 = "48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b"  # rapidocr 1.4.4's file


def _export_like(path):
    """conv3x3 -> affine -> hswish -> affine -> conv1x1 -> affine -> hswish -> affine -> conv3x3(pad)."""
    rng = np.random.default_rng(3)
    inits, nodes = [], []

    def w(name, value):
        inits.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
        return name

    def affine(x, tag, s, t):
        nodes.append(helper.make_node("Mul", [w(f"{tag}_s", [s]), x], [f"{tag}_m"]))
        nodes.append(helper.make_node("Add", [f"{tag}_m", w(f"{tag}_t", [t])], [f"{tag}_a"]))
        return f"{tag}_a"

    def hswish(x, tag):
        nodes.append(helper.make_node("Add", [x, w(f"{tag}_3", [3.0])], [f"{tag}_p"]))
        nodes.append(helper.make_node("Clip", [f"{tag}_p", w(f"{tag}_lo", 0.0), w(f"{tag}_hi", 6.0)], [f"{tag}_c"]))
        nodes.append(helper.make_node("Mul", [x, f"{tag}_c"], [f"{tag}_xm"]))
        nodes.append(helper.make_node("Div", [f"{tag}_xm", w(f"{tag}_6", [6.0])], [f"{tag}_h"]))
        return f"{tag}_h"

    def conv(x, tag, cin, cout, k, pad):
        nodes.append(helper.make_node("Conv", [x, w(f"{tag}_w", rng.normal(0, 0.5, (cout, cin, k, k))),
                                               w(f"{tag}_b", rng.normal(0, 0.5, cout))], [f"{tag}_y"],
                                      kernel_shape=[k, k], pads=[pad] * 4))
        return f"{tag}_y"

    y = conv("x", "c1", 3, 8, 3, 1)
    y = hswish(affine(y, "l1", 1.3, -0.2), "h1")
    y = conv(affine(y, "l2", 0.7, 0.4), "c2", 8, 8, 1, 0)
    y = hswish(affine(y, "l3", 0.9, 0.1), "h2")
    y = conv(affine(y, "l4", 1.1, 0.3), "c3", 8, 4, 3, 1)      # padded: its affine block stays
    graph = helper.make_graph(nodes, "export_like", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 12, 20])],
                              [helper.make_tensor_value_info(y, TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
    model.ir_version = 8
    model.metadata_props.add(key="character", value="0\n1")
    onnx.save(model, str(path))


def _run(path, x):
    s = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return s.run(None, {"x": x})[0]


def _ops(path):
    return Counter(n.op_type for n in onnx.load(str(path)).graph.node)


def test_rewrite_keeps_the_outputs_and_drops_the_elementwise_passes(tmp_path):
    src, dst = tmp_path / "src.onnx", tmp_path / "dst.onnx"
    _export_like(src)
    counts = slim(src, dst)
    # by hand: three convs, each followed by an affine block; hard swish twice; of the two affine
    # blocks after an activation, the one before the 1x1 conv folds, the one before the padded 3x3 not
    assert counts == {"affine_after_conv": 2, "affine_before_conv": 1, "hardswish": 2}
    ops = _ops(dst)
    assert ops["HardSwish"] == 2 and ops["Clip"] == 0 and ops["Div"] == 0
    # c3 is followed by nothing, so its output stays a Conv's; one affine block (before c3) left
    assert ops["Mul"] == 1 and ops["Add"] == 1 and ops["Conv"] == 3
    x = np.random.default_rng(0).normal(0, 1, (1, 3, 12, 20)).astype(np.float32)
    a, b = _run(src, x), _run(dst, x)
    assert a.shape == b.shape
    np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-4)
    meta = {p.key: p.value for p in onnx.load(str(dst)).metadata_props}
    assert meta["character"] == "0\n1"      # the alphabet the reader decodes with survives
    assert meta["slimmed_by"] == "vision/read/text_model.py"


def test_a_padded_conv_keeps_its_affine_block(tmp_path):
    """Folding t into a padded conv's bias would add t * w at the padded border too: the output
    there must still match (checked apart, at the corners, where padding weighs most)."""
    src, dst = tmp_path / "src.onnx", tmp_path / "dst.onnx"
    _export_like(src)
    slim(src, dst)
    x = np.random.default_rng(1).normal(0, 1, (1, 3, 12, 20)).astype(np.float32)
    a, b = _run(src, x), _run(dst, x)
    np.testing.assert_allclose(b[..., [0, -1], :][..., [0, -1]], a[..., [0, -1], :][..., [0, -1]], rtol=1e-4, atol=1e-4)


def test_the_shipped_model_is_the_rewritten_upstream_one():
    meta = {p.key: p.value for p in onnx.load(str(models_dir() / "text-recognizer.onnx"), load_external_data=False).metadata_props}
    assert meta.get("slimmed_from_sha256") == UPSTREAM_SHA256
    assert "character" in meta and len(meta["character"].splitlines()) > 6000
    ops = _ops(models_dir() / "text-recognizer.onnx")
    assert ops["Clip"] == 0 and ops["HardSwish"] == 28


def test_cli_refuses_a_missing_model(tmp_path, capsys):
    assert main([str(tmp_path / "nope.onnx"), str(tmp_path / "out.onnx")]) == 2
    assert "no such model" in capsys.readouterr().err
    assert not (tmp_path / "out.onnx").exists()
