"""The text recognizer's network made lighter for the CPU, with the same arithmetic.

PP-OCRv4's recognizer (models/text-recognizer.onnx) was exported from PaddlePaddle layer by layer:
every convolution is followed by a "learnable affine block" (a scalar scale and shift, one Mul and
one Add over the whole tensor) and a hard swish spelled out as four operations (Add 3, Clip 0..6,
Mul, Div 6), and the activation by another affine block. On a 48-pixel line those elementwise passes
over memory cost as much as the convolutions' arithmetic (a 48x58 crop on one thread: 9.5 ms, of
which 3.5 in Mul / Add / Div / Clip; onnxruntime fuses none of them). This rewrite:

1. folds the affine block after a convolution into its weights and bias (w' = s w, b' = s b + t);
2. writes the four-operation hard swish as one HardSwish (opset 14), which onnxruntime fuses into
   the convolution before it;
3. folds the affine block before a 1x1 convolution without padding into that convolution
   (w' = s w, b' = b + t sum(w)). Before a padded 3x3 one it is kept: the padding's zeros would
   turn into t.

Each step is exact in real arithmetic; in float32 the outputs (softmax probabilities) move by about
1e-5. Run once, by hand, on the model as it ships in the rapidocr_onnxruntime 1.4.4 wheel
(models/README.md): it needs the `onnx` package (the train extras), the app does not.

    .venv/bin/python -m vision.read.text_model ch_PP-OCRv4_rec_infer.onnx models/text-recognizer.onnx
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

import numpy as np

OPSET = 14        # HardSwish's first opset


def slim(src: Path, dst: Path) -> dict[str, int]:
    """Write the lighter model of `src` to `dst`; how many of each rewrite were made."""
    import onnx
    import onnxruntime as ort
    from onnx import helper, numpy_helper

    # onnxruntime's basic (portable) optimisations first: the export's Constant nodes become
    # initializers and constant subgraphs are folded, so weights can be read as arrays
    with tempfile.TemporaryDirectory() as tmp:
        basic = Path(tmp) / "basic.onnx"
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        opts.optimized_model_filepath = str(basic)
        opts.log_severity_level = 3
        ort.InferenceSession(str(src), opts, providers=["CPUExecutionProvider"])
        model = onnx.load(str(basic))
    graph = model.graph
    weights = {t.name: t for t in graph.initializer}
    added: list = []

    def array(name: str) -> np.ndarray | None:
        return numpy_helper.to_array(weights[name]) if name in weights else None

    def scalar(name: str | None) -> float | None:
        a = array(name) if name else None
        return float(a.reshape(-1)[0]) if a is not None and a.size == 1 else None

    def other(node, name: str) -> str | None:
        rest = [i for i in node.input if i != name]
        return rest[0] if len(rest) == 1 else None

    def add_weight(value: np.ndarray, name: str) -> str:
        """A new initializer (float arrays stored as float32, as the model's own)."""
        t = numpy_helper.from_array(value.astype(np.float32) if value.dtype.kind == "f" else value, name)
        weights[name] = t
        added.append(t)
        return name

    def attr(node, name: str, default):
        for a in node.attribute:
            if a.name == name:
                return {onnx.AttributeProto.INTS: list(a.ints), onnx.AttributeProto.STRING: a.s}.get(a.type, a.i)
        return default

    def readers(nodes) -> dict[str, list]:
        out: dict[str, list] = {}
        for n in nodes:
            for i in n.input:
                out.setdefault(i, []).append(n)
        return out

    def only(users: dict, name: str, op: str):
        """The one node reading `name`, when there is one and it is an `op`."""
        got = users.get(name, [])
        return got[0] if len(got) == 1 and got[0].op_type == op else None

    def affine_after(users: dict, name: str):
        """(mul, add, scale, shift) when `name` is read only by Mul(scalar) and that only by
        Add(scalar); else None."""
        mul = only(users, name, "Mul")
        add = mul and only(users, mul.output[0], "Add")
        if not add:
            return None
        s, t = scalar(other(mul, name)), scalar(other(add, mul.output[0]))
        return None if s is None or t is None else (mul, add, s, t)

    nodes, gone = list(graph.node), set()
    counts = {"affine_after_conv": 0, "affine_before_conv": 0, "hardswish": 0}

    # 1. Conv -> Mul(s) -> Add(t): the conv writes the Add's output itself
    users = readers(nodes)
    for conv in nodes:
        if conv.op_type != "Conv" or (w := array(conv.input[1])) is None:
            continue
        found = affine_after(users, conv.output[0])
        if not found:
            continue
        mul, add, s, t = found
        b = array(conv.input[2]) if len(conv.input) > 2 else np.zeros(w.shape[0], np.float32)
        if b is None:
            continue
        inputs = [conv.input[0], add_weight(w * s, conv.input[1] + "/affine"), add_weight(b * s + t, conv.input[1] + "/bias_affine")]
        conv.ClearField("input")
        conv.input.extend(inputs)
        conv.ClearField("output")
        conv.output.extend([add.output[0]])
        gone.update((id(mul), id(add)))
        counts["affine_after_conv"] += 1
    nodes = [n for n in nodes if id(n) not in gone]

    # 2. x -> Mul(s) -> Add(t) -> Conv 1x1, no padding, one group: into the conv
    users = readers(nodes)
    for mul in nodes:
        if mul.op_type != "Mul" or id(mul) in gone:
            continue
        tensors = [i for i in mul.input if scalar(i) is None]
        if len(tensors) != 1:
            continue
        found = affine_after(users, tensors[0])
        if not found or found[0] is not mul:
            continue
        _, add, s, t = found
        conv = only(users, add.output[0], "Conv")
        w = array(conv.input[1]) if conv else None
        if (w is None or w.shape[2:] != (1, 1) or attr(conv, "group", 1) != 1
                or any(attr(conv, "pads", [0])) or attr(conv, "auto_pad", b"NOTSET") not in (b"NOTSET", b"VALID")):
            continue
        b = array(conv.input[2]) if len(conv.input) > 2 else np.zeros(w.shape[0], np.float32)
        if b is None:
            continue
        inputs = [tensors[0], add_weight(w * s, conv.input[1] + "/before"),
                  add_weight(b + t * w.sum(axis=(1, 2, 3)), conv.input[1] + "/bias_before")]
        conv.ClearField("input")
        conv.input.extend(inputs)
        gone.update((id(mul), id(add)))
        counts["affine_before_conv"] += 1
    nodes = [n for n in nodes if id(n) not in gone]

    # 3. Add(x, 3) -> Clip(0, 6) -> Mul(x, .) -> Div(6): HardSwish(x)
    users = readers(nodes)
    swap = {}
    for add in nodes:
        if add.op_type != "Add":
            continue
        x = next((i for i in add.input if scalar(other(add, i)) == 3.0), None)
        clip = x and only(users, add.output[0], "Clip")
        if not clip or len(clip.input) < 3 or (scalar(clip.input[1]), scalar(clip.input[2])) != (0.0, 6.0):
            continue
        mul = only(users, clip.output[0], "Mul")
        div = mul and other(mul, clip.output[0]) == x and only(users, mul.output[0], "Div")
        if not div or scalar(div.input[1]) != 6.0:
            continue
        swap[id(div)] = helper.make_node("HardSwish", [x], [div.output[0]], name=div.output[0] + "/hardswish")
        gone.update((id(add), id(clip), id(mul)))
        counts["hardswish"] += 1
    nodes = [swap.get(id(n), n) for n in nodes if id(n) not in gone]

    # opset 13 moved Squeeze's and Unsqueeze's axes from an attribute to an input
    for n in nodes:
        axes = [a for a in n.attribute if a.name == "axes"] if n.op_type in ("Squeeze", "Unsqueeze") else []
        if axes:
            n.input.append(add_weight(np.array(list(axes[0].ints), np.int64), n.output[0] + "/axes"))
            n.attribute.remove(axes[0])
    graph.ClearField("node")
    graph.node.extend(nodes)
    graph.initializer.extend(added)
    used = {i for n in graph.node for i in n.input}
    kept = [t for t in graph.initializer if t.name in used]
    graph.ClearField("initializer")
    graph.initializer.extend(kept)
    for op in model.opset_import:
        if op.domain in ("", "ai.onnx"):
            op.version = max(op.version, OPSET)
    digest = hashlib.sha256(Path(src).read_bytes()).hexdigest()
    meta = {p.key: p for p in model.metadata_props}
    for key, value in (("slimmed_by", "vision/read/text_model.py"), ("slimmed_from_sha256", digest)):
        if key in meta:
            meta[key].value = value
        else:
            model.metadata_props.add(key=key, value=value)
    onnx.checker.check_model(model)
    Path(dst).parent.mkdir(parents=True, exist_ok=True)
    tmp_dst = Path(dst).with_suffix(".tmp")
    onnx.save(model, str(tmp_dst))
    tmp_dst.replace(dst)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.read.text_model", description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path, help="the recognizer as exported (ch_PP-OCRv4_rec_infer.onnx)")
    ap.add_argument("dst", type=Path, help="where the lighter model goes")
    args = ap.parse_args(argv)
    if not args.src.is_file():
        print(f"no such model: {args.src}", file=sys.stderr)
        return 2
    counts = slim(args.src, args.dst)
    print(", ".join(f"{k}: {v}" for k, v in counts.items()), "->", args.dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
