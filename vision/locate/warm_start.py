"""Rebuilds trainable PyTorch weights of the card detector from its shipped ONNX file, so that a
new training run can continue from the committed model instead of starting from scratch.

Only models/card-detector.onnx is committed (the product runs it under onnxruntime); the .pt
weights of the run that made it stay in an ignored build folder and are gone on a fresh clone.
The ONNX export keeps every convolution's name but folds each batch norm into its convolution
(weight W*gamma/sigma, bias beta - gamma*mu/sigma). A network built from the same yaml takes the
folded weights back like this:

1. each convolution gets the folded weight; its batch norm is set to add the folded bias and do
   nothing else, so the network in eval mode computes what the ONNX file computes (checked);
2. the batch norms are then calibrated: on a batch of real inputs, each one learns the mean and
   spread of its convolution's output and is set to undo them exactly (weight = spread, bias =
   mean + folded bias). The function is unchanged in eval mode, and in training mode, where a batch
   norm uses the batch's own statistics, it stays close to it instead of being thrown off by
   features whose scale the folding changed.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np


def _initializers(onnx_path: Path) -> dict[str, np.ndarray]:
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(onnx_path))
    return {i.name: numpy_helper.to_array(i).copy() for i in model.graph.initializer}


def rebuild(onnx_path: Path, model_yaml: str, nc: int, calibration: np.ndarray | None = None):
    """The ultralytics OBB model of `model_yaml` with `nc` classes, carrying the ONNX file's
    weights. `calibration`: a float32 batch (N, 3, S, S) in 0..1 to calibrate the batch norms on."""
    import torch
    from ultralytics.nn.modules import Conv
    from ultralytics.nn.tasks import OBBModel

    weights = _initializers(onnx_path)
    model = OBBModel(model_yaml, nc=nc, verbose=False)
    model.eval()
    modules = dict(model.named_modules())
    params = dict(model.named_parameters())
    folded_bias: dict[str, np.ndarray] = {}
    used = set()
    with torch.no_grad():
        for name, module in modules.items():
            if not isinstance(module, Conv):
                continue
            w, b = weights.get(f"{name}.conv.weight"), weights.get(f"{name}.conv.bias")
            if w is None or b is None or tuple(w.shape) != tuple(module.conv.weight.shape):
                raise ValueError(f"{onnx_path.name} has no folded convolution {name} of the yaml's shape")
            module.conv.weight.copy_(torch.from_numpy(w))
            bn = module.bn
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b))
            folded_bias[name] = b
            used.update({f"{name}.conv.weight", f"{name}.conv.bias"})
        # the head's plain convolutions (no batch norm) and the DFL's fixed one
        for pname, p in params.items():
            if pname in weights and pname not in used:
                if tuple(weights[pname].shape) != tuple(p.shape):
                    raise ValueError(f"{onnx_path.name}: {pname} has shape {weights[pname].shape}, "
                                     f"the yaml's has {tuple(p.shape)}")
                p.copy_(torch.from_numpy(weights[pname]))
                used.add(pname)
    missing = [n for n in params if n not in used and not n.endswith((".bn.weight", ".bn.bias"))]
    if missing:
        raise ValueError(f"{onnx_path.name} lacks weights for {missing[:5]}")
    if calibration is not None:
        _calibrate(model, torch.from_numpy(calibration), folded_bias)
    return model


def _calibrate(model, batch, folded_bias: dict) -> None:
    import torch
    from ultralytics.nn.modules import Conv

    stats: dict[str, tuple] = {}
    hooks = []
    for name, module in model.named_modules():
        if isinstance(module, Conv):
            def hook(mod, inp, out, name=name):
                x = out.detach().double()
                stats[name] = (x.mean((0, 2, 3)), x.var((0, 2, 3), unbiased=False))
            hooks.append(module.conv.register_forward_hook(hook))
    with torch.no_grad():
        model(batch)
    for h in hooks:
        h.remove()
    modules = dict(model.named_modules())
    with torch.no_grad():
        for name, (mean, var) in stats.items():
            bn = modules[name].bn
            spread = torch.sqrt(var + bn.eps)
            bn.running_mean.copy_(mean.float())
            bn.running_var.copy_(var.float())
            bn.weight.copy_(spread.float())
            bn.bias.copy_(mean.float() + torch.from_numpy(folded_bias[name]).float())


def save_checkpoint(model, path: Path, imgsz: int) -> Path:
    """Writes `model` as an ultralytics checkpoint that `YOLO(path)` loads and `.train()` continues."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {"task": "obb", "imgsz": imgsz}, "epoch": -1,
                "optimizer": None, "ema": None, "best_fitness": None}, path)
    return path
