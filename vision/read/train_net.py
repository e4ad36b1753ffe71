"""Train the symbol network of vision/read/net.py: a small CNN over the card's glyph.

Why a second symbol reader beside the HOG classifier (vision/read/symbols.py): HOG with a linear
layer learns the layout of the prints it saw; a convolutional network with heavy augmentation
learns shapes (an arrow, a ring, a slash, two small cards) wherever they sit, and makes different
mistakes. The recognizer combines the two, the network leading (vision/read/net.py `agree`),
before the text reader's evidence is fused in (vision/read/fuse.py).

Data: the same renders as the HOG classifier (vision.art faces of the six print families through
vision.synth.augment.camera_view), stored as glyph images (symbols.glyph_image) with the print
family of each, so a network can be trained without one family and tested on it
(leave-one-print-out). Nothing real is used. Rendering runs in worker processes; training is
PyTorch on the CPU (the `train` extra), exported to ONNX so that the app needs no torch.

    python -m vision.read.train_net render --samples 60000 --seed 3 --out build/net/glyphs.npz
    python -m vision.read.train_net fit --data build/net/glyphs.npz --epochs 12 --out models/uno-symbols-net.onnx
    python -m vision.read.train_net fit --data ... --exclude-print circle-2024 --out build/net/lopo.onnx

The far network (models/uno-symbols-net-far.onnx, for cards seen small) is this network trained on
renders made with `--min-px 16 --max-px 64` (models/README.md).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from ..synth.augment import CARD_PX, FAR_SHARE
from .net import FEATURE_CHANNELS, FEATURE_GRID
from .symbols import GLYPH_H, GLYPH_W, glyph_image


def _render_chunk(job: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One worker's share: (glyphs N x H x W uint8, symbol index N, print family index N)."""
    deck_id, n, seed, prints, views, card_px, far_share = job
    from referee import load_deck
    from vision.art import render_card, style_for
    from vision.art.style import PRINTS
    from vision.synth.augment import camera_view
    from .train import symbol_classes

    classes = symbol_classes(load_deck(deck_id))
    names = list(classes)
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    gs, ys, fs = [], [], []
    while len(gs) < n:
        k = int(rng.integers(len(names)))
        cid = classes[names[k]][int(rng.integers(len(classes[names[k]])))]
        style = style_for(deck_id, prng, prints=prints)
        w = int(rng.integers(120, 220))
        face = render_card(cid, deck_id, style=style, size=(w, int(round(w * 87 / 56))))
        fam = PRINTS.index(style.print) if style.print in PRINTS else -1
        for _ in range(views):
            gs.append(glyph_image(camera_view(face, rng, card_px=card_px, far_share=far_share)))
            ys.append(k)
            fs.append(fam)
    return np.stack(gs[:n]), np.array(ys[:n], np.int16), np.array(fs[:n], np.int8)


def render_set(deck_id: str, n: int, seed: int, workers: int = 2, views: int = 2, prints=None,
               log=print, card_px: tuple = CARD_PX, far_share: float = FAR_SHARE) -> dict:
    """n glyph samples of the deck's symbols, rendered in `workers` processes; `card_px`: the range
    of the cards' width on screen, pixels; `far_share`: the share outlined with the larger error
    (augment.camera_view)."""
    from concurrent.futures import ProcessPoolExecutor
    from referee import load_deck
    from vision.art.style import PRINTS
    from .train import symbol_classes

    names = list(symbol_classes(load_deck(deck_id)))
    chunk = 2000
    jobs = [(deck_id, min(chunk, n - i), seed * 100003 + i, prints, views, tuple(card_px), far_share)
            for i in range(0, n, chunk)]
    parts, t0 = [], time.time()
    with ProcessPoolExecutor(max_workers=workers) as ex:
        for part in ex.map(_render_chunk, jobs):
            parts.append(part)
            done = sum(len(p[1]) for p in parts)
            log(f"  {done}/{n} glyphs, {time.time() - t0:.0f} s", flush=True)
    return {"glyphs": np.concatenate([p[0] for p in parts]), "labels": np.concatenate([p[1] for p in parts]),
            "prints": np.concatenate([p[2] for p in parts]), "classes": np.array(names),
            "families": np.array(PRINTS), "deck": np.array(deck_id)}


def load_glyphs(paths: list[Path]) -> dict:
    """The glyph sets of render_set, saved to `paths`, as one set (renders of one deck and print list,
    made with other seeds or sizes)."""
    sets = [dict(np.load(p)) for p in paths]
    for p, d in zip(paths[1:], sets[1:]):
        for key in ("classes", "families", "deck"):
            if not np.array_equal(d[key], sets[0][key]):
                raise ValueError(f"{p} was rendered with other {key} than {paths[0]}")
    return {k: (np.concatenate([d[k] for d in sets]) if k in ("glyphs", "labels", "prints") else v)
            for k, v in sets[0].items()}


# --- the network -------------------------------------------------------------------------------

def build_net(n_classes: int):
    """About 190k parameters and 20 M multiply-adds a glyph (small enough to train on two CPU
    cores): a strided first convolution, four conv blocks with pooling, and a global average, so
    that a shape is recognized wherever the print puts it. Well under a millisecond a card."""
    import torch.nn as nn

    def conv(i, o, stride=1):
        return [nn.Conv2d(i, o, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    return nn.Sequential(*conv(1, 16, 2),                      # 48 x 32
                         *conv(16, 32), nn.MaxPool2d(2),       # 24 x 16
                         *conv(32, 64), nn.MaxPool2d(2),       # 12 x 8
                         *conv(64, 96), nn.MaxPool2d(2),       # 6 x 4
                         *conv(96, FEATURE_CHANNELS),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(FEATURE_CHANNELS, n_classes))


# A mirror keeps every UNO symbol what it is (a mirrored 5 is a 5; a 6 stays a 6), and a selfie camera
# or a mirrored webcam shows cards so; a network that never saw a mirrored glyph reads one as its
# training happened to leave it (a retrain read mirrored 5s as +2s, sure). Measured in session 49
# (models/README.md): without the filled-oval print, its mirrored photos 0.908-0.981 -> 0.981-1.000.
MIRRORED = 0.25


def random_affine(x, gen, turn: float, scale: float, shift: float):
    """A batch (N,C,H,W) each moved by its own small affine: a turn within +-turn/2 radians, a scale
    within 1 +- scale/2, a shift within +-shift/2 of the size (the locator's error); edges repeated."""
    import torch
    import torch.nn.functional as F
    n = x.shape[0]
    ang = (torch.rand(n, generator=gen) - 0.5) * turn
    sc = 1 + (torch.rand(n, generator=gen) - 0.5) * scale
    tx, ty = [(torch.rand(n, generator=gen) - 0.5) * shift for _ in range(2)]
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = sc * torch.cos(ang)
    theta[:, 0, 1] = -sc * torch.sin(ang)
    theta[:, 1, 0] = sc * torch.sin(ang)
    theta[:, 1, 1] = sc * torch.cos(ang)
    theta[:, 0, 2], theta[:, 1, 2] = tx, ty
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    return F.grid_sample(x, grid, padding_mode="border", align_corners=False)


def erase_patches(x, gen, share: float, tallest: int, widest: int):
    """One rectangle, up to 1/tallest of the height and 1/widest of the width, set to one random
    level in `share` of a batch's images (in place; returned)."""
    import torch
    h, w = x.shape[2:]
    for i in torch.nonzero(torch.rand(x.shape[0], generator=gen) < share).flatten().tolist():
        eh, ew = int(torch.randint(h // 8, h // tallest, (1,), generator=gen)), int(torch.randint(w // 8, w // widest, (1,), generator=gen))
        y0, x0 = int(torch.randint(0, h - eh, (1,), generator=gen)), int(torch.randint(0, w - ew, (1,), generator=gen))
        x[i, :, y0:y0 + eh, x0:x0 + ew] = float(torch.rand(1, generator=gen))
    return x


def _augment(x, gen):
    """Training-time changes to a batch of glyphs (N,1,H,W in 0..1): a small affine move (the
    locator's error), contrast and level, a patch erased (a thumb, glare), noise; half turned, a
    quarter mirrored."""
    import torch
    n = x.shape[0]
    x = random_affine(x, gen, turn=0.12, scale=0.12, shift=0.08)
    flip = torch.rand(n, generator=gen) < 0.5
    x[flip] = torch.flip(x[flip], dims=(2, 3))
    mirror = torch.rand(n, generator=gen) < MIRRORED
    x[mirror] = torch.flip(x[mirror], dims=(3,))
    c = 0.6 + 0.6 * torch.rand(n, 1, 1, 1, generator=gen)
    b = (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.3
    x = (x - 0.5) * c + 0.5 + b
    # erase one rectangle in 40% of the glyphs: a finger over the edge, a glare spot
    x = erase_patches(x, gen, share=0.4, tallest=3, widest=2)
    x = x + torch.randn(x.shape, generator=gen) * 0.03 * torch.rand(n, 1, 1, 1, generator=gen)
    return x.clamp(0, 1)


def fit(data: dict, epochs: int, seed: int = 0, exclude=(), batch: int = 128, lr: float = 3e-3,
        log=print):
    """A trained network (torch, eval mode) and its meta, on the glyphs whose family is not excluded."""
    import torch
    import torch.nn as nn
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    fams = [str(f) for f in data["families"]]
    keep = np.ones(len(data["labels"]), bool)
    for name in exclude:
        if name not in fams:
            raise ValueError(f"unknown print family {name!r}; one of {', '.join(fams)}")
        keep &= data["prints"] != fams.index(name)
    g = torch.from_numpy(data["glyphs"][keep]).unsqueeze(1)          # uint8, N x 1 x H x W
    y = torch.from_numpy(data["labels"][keep].astype(np.int64))
    classes = [str(c) for c in data["classes"]]
    net = build_net(len(classes))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    steps = epochs * ((len(y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(seed)
    t0 = time.time()
    for ep in range(epochs):
        net.train()
        order = torch.randperm(len(y), generator=gen)
        tot, right = 0.0, 0
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            xb = _augment(g[idx].float() / 255.0, gen)
            out = net(xb - 0.5)
            loss = loss_fn(out, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(idx)
            right += int((out.argmax(1) == y[idx]).sum())
        log(f"  epoch {ep + 1}/{epochs}: loss {tot / len(y):.4f}, train acc {right / len(y):.3f}, "
            f"{time.time() - t0:.0f} s", flush=True)
    net.eval()
    meta = {"classes": classes, "input": [GLYPH_H, GLYPH_W], "epochs": epochs, "seed": seed,
            "samples": int(keep.sum()), "excluded_prints": list(exclude),
            "train_seconds": round(time.time() - t0)}
    return net, meta


def export(net, meta: dict, out: Path) -> None:
    """ONNX with the class list in its metadata; written to a temporary file, then renamed."""
    import onnx
    import torch

    class WithSoftmax(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):          # x: N x 1 x H x W in 0..255, as glyph_image gives
            return torch.softmax(self.net(x / 255.0 - 0.5), dim=1)

    import io
    buf = io.BytesIO()
    torch.onnx.export(WithSoftmax(net), torch.zeros(1, 1, GLYPH_H, GLYPH_W), buf, input_names=["glyph"],
                      output_names=["proba"], dynamic_axes={"glyph": {0: "n"}, "proba": {0: "n"}},
                      opset_version=17, dynamo=False)
    model = with_features(onnx.load_from_string(buf.getvalue()))
    model.metadata_props.add(key="tableref", value=json.dumps(meta))
    _write(model, out)


def _write(model, out: str | Path) -> None:
    """The ONNX graph written to `out` atomically (a reader never sees half a model)."""
    from vision.atomic import write_atomic
    data = model.SerializeToString()
    write_atomic(Path(out), lambda f: f.write(data))


def with_features(model):
    """The ONNX graph `model` with a second output, `features`: the last conv block's map (N x
    FEATURE_CHANNELS x 6 x 4, what the global average pools) averaged over 2 x 2 cells to FEATURE_GRID
    (3 x 2) cells. A taught
    deck (vision/teach/embed.py) describes a card's shapes with it: learned strokes, arrows and
    rings, where they lie on the card. Idempotent."""
    import onnx
    from onnx import helper
    if any(o.name == "features" for o in model.graph.output):
        return model
    pool = [n for n in model.graph.node if n.op_type == "GlobalAveragePool"]
    if len(pool) != 1:
        raise ValueError("the symbol network should have one global average pool")
    model.graph.node.append(helper.make_node("AveragePool", [pool[0].input[0]], ["features"],
                                             kernel_shape=[2, 2], strides=[2, 2], name="features_pool"))
    model.graph.output.append(helper.make_tensor_value_info("features", onnx.TensorProto.FLOAT,
                                                            ["n", FEATURE_CHANNELS, *FEATURE_GRID]))
    onnx.checker.check_model(model)
    return model


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.read.train_net", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("render", help="render glyph samples to an .npz")
    r.add_argument("--deck", default="ono")
    r.add_argument("--samples", type=int, default=60000)
    r.add_argument("--seed", type=int, default=3)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--min-px", type=int, default=None,
                   help="the smallest card width on screen, pixels (default: augment.CARD_PX's, 38)")
    r.add_argument("--max-px", type=int, default=None,
                   help="the largest card width on screen, pixels (default: augment.CARD_PX's, 150)")
    r.add_argument("--far-share", type=float, default=FAR_SHARE,
                   help="the share of glyphs outlined with the larger corner error, as on a pile or "
                        "a small card's blurred edge (default: augment.FAR_SHARE's, 0.2)")
    r.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="train on an .npz of glyphs and export ONNX")
    f.add_argument("--data", type=Path, action="append", required=True,
                   help="an .npz of glyphs (render); several are trained on together")
    f.add_argument("--epochs", type=int, default=12)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--exclude-print", action="append", default=[])
    f.add_argument("--out", type=Path, required=True)
    x = sub.add_parser("features", help="add the `features` output to an exported network, in place")
    x.add_argument("model", type=Path)
    a = ap.parse_args(argv)
    if a.cmd == "features":
        import onnx
        _write(with_features(onnx.load(str(a.model))), a.model)
        print(f"{a.model}: has a features output")
        return 0
    if a.cmd == "render":
        d = render_set(a.deck, a.samples, a.seed, workers=a.workers, card_px=(a.min_px or CARD_PX[0], a.max_px or CARD_PX[1]),
                       far_share=a.far_share)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        np.savez(a.out, **d)
        print(f"wrote {a.out}: {len(d['labels'])} glyphs")
        return 0
    try:
        data = load_glyphs(a.data)
    except (OSError, ValueError, KeyError) as e:
        print(f"train_net fit: {e}", file=sys.stderr)
        return 2
    net, meta = fit(data, a.epochs, seed=a.seed, exclude=a.exclude_print)
    meta["command"] = "python -m vision.read.train_net " + " ".join(sys.argv[1:] if argv is None else argv)
    meta["data"] = " + ".join(d.name for d in a.data)
    export(net, meta, a.out)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
