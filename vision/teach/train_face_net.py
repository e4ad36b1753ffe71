"""Train the face network of vision/teach/face_net.py: an embedding in which two photos of one card's
drawing lie near and the deck's other symbols far.

Why: a taught deck is matched by nearest prototypes (deck.py), and from one photo a card the
prototypes are that photo and its altered copies. The hand-made features (HOG, colour in Lab, the
symbol network's last block, embed.py) move with the light, the slant and a marker's thin ink as
much as they move between two symbols of a deck drawn by hand. This network is trained for exactly
the taught deck's question, on renders only: a batch holds whole groups, each group 16 cards of one
print of one deck (the cards a face must be told from), each card photographed three times
(vision/synth/photo.py: any table, size, turn, tilt, light, a hand over it, the outline a few
pixels off); two photos of one symbol in one group are positives, every other card of the batch a
negative (a supervised contrastive loss, Khosla et al. 2020). Colour is left to the colour part of
the embedding: each photo's channels are shuffled apart, so a red 7 and a blue 7 are one symbol.

Nothing real and nothing drawn by hand is trained on: vision.art's print families of the UNO family
and the designed DINO 2 and snake-cup decks, so bench/teach.py's decks drawn by hand are a deck
style the network never saw.

    python -m vision.teach.train_face_net render --groups 900 --seed 11 --out build/facenet/faces.npz
    python -m vision.teach.train_face_net fit --data build/facenet/faces.npz --minutes 20 --out models/face-embed.onnx
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

GROUP = 16          # cards of one print in a group: the deck's other cards are the hard negatives
VIEWS = 3           # photos rendered of each card; two are drawn each time it is trained on
DECKS = (("uno", 0.45), ("ono", 0.15), ("dino2", 0.25), ("snake-cup", 0.15))
PHOTO = (320, 240)  # the synthetic photo's size: a card 53-190 pixels wide, as teach photos are when warped
QUAD_JITTER = 1.2   # pixels (of the photo) each corner of the outline is off: the locator's error


def _render_groups(job: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One worker's groups: (faces N x VIEWS x H x W x 3 uint8 BGR, group N, symbol index N within
    the symbol list `symbols` of the whole set)."""
    first, n_groups, seed = job
    from referee import load_deck
    from vision.art import UNO_FAMILY, card_ids, render_card, style_for
    from vision.synth.photo import card_photo
    from .embed import face

    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    faces, groups, symbols = [], [], []
    names, weights = [d for d, _ in DECKS], np.array([w for _, w in DECKS])
    for k in range(n_groups):
        deck_id = names[int(rng.choice(len(names), p=weights / weights.sum()))]
        deck = load_deck(deck_id)
        style = style_for(deck_id, prng)
        ids = card_ids(deck_id)
        for cid in rng.choice(ids, size=min(GROUP, len(ids)), replace=False):
            w = int(rng.integers(150, 240))
            drawing = render_card(str(cid), deck_id, style=style, size=(w, int(round(w * 87 / 56))))
            views = []
            for _ in range(VIEWS):
                img, quad = card_photo(drawing, rng, PHOTO[0], PHOTO[1], held=0.3)
                quad = quad + rng.normal(0, QUAD_JITTER, quad.shape).astype(np.float32)
                views.append(face(img, quad))
            faces.append(np.stack(views))
            groups.append(first + k)
            symbols.append(f"{deck_id}:{deck.cards[str(cid)].symbol}" if deck_id not in UNO_FAMILY
                           else f"uno:{deck.cards[str(cid)].symbol}")
    return np.stack(faces), np.array(groups, np.int32), np.array(symbols)


def render(n_groups: int, seed: int, workers: int = 2, log=print) -> dict:
    from multiprocessing import Pool
    chunk = 10
    jobs = [(i, min(chunk, n_groups - i), seed * 100003 + i) for i in range(0, n_groups, chunk)]
    t0 = time.time()
    parts = []
    with Pool(workers) as pool:
        for j, part in enumerate(pool.imap(_render_groups, jobs)):
            parts.append(part)
            if (j + 1) % 10 == 0:
                log(f"  {min((j + 1) * chunk, n_groups)}/{n_groups} groups, {time.time() - t0:.0f} s", flush=True)
    faces = np.concatenate([p[0] for p in parts])
    groups = np.concatenate([p[1] for p in parts])
    names = np.concatenate([p[2] for p in parts])
    symbols = sorted(set(names.tolist()))
    labels = np.array([symbols.index(s) for s in names], np.int32)
    return {"faces": faces, "groups": groups, "labels": labels, "symbols": np.array(symbols)}


def build_net():
    """About the symbol network's size (vision/read/train_net.py), three channels in, the last block
    pooled to 3 x 2 cells (where on the card a stroke lies matters: a corner index, the centre) and
    projected to EMBED_DIM at unit length."""
    import torch.nn as nn
    from .face_net import EMBED_DIM

    def conv(i, o, stride=1):
        return [nn.Conv2d(i, o, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    class FaceNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(*conv(3, 24, 2),                     # 48 x 32
                                      *conv(24, 32), nn.MaxPool2d(2),      # 24 x 16
                                      *conv(32, 64), nn.MaxPool2d(2),      # 12 x 8
                                      *conv(64, 96), nn.MaxPool2d(2),      # 6 x 4
                                      *conv(96, 128),
                                      nn.AdaptiveAvgPool2d((3, 2)), nn.Flatten())
            self.head = nn.Linear(128 * 6, EMBED_DIM)

        def forward(self, x):
            import torch.nn.functional as F
            return F.normalize(self.head(self.body(x)), dim=1)

    return FaceNet()


def _augment(x, gen):
    """x: N x 3 x H x W in 0..1 (face_net.net_input). Channels shuffled (colour is not this network's
    business), a small affine move, contrast, a patch erased, noise; half the faces turned."""
    import torch
    from vision.read.train_net import erase_patches, random_affine
    n = x.shape[0]
    perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
    x = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    x = random_affine(x, gen, turn=0.08, scale=0.08, shift=0.05)
    c = 0.7 + 0.5 * torch.rand(n, 1, 1, 1, generator=gen)
    x = (x - 0.5) * c + 0.5 + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.2
    x = erase_patches(x, gen, share=0.25, tallest=4, widest=3)
    x = x + torch.randn(x.shape, generator=gen) * 0.02 * torch.rand(n, 1, 1, 1, generator=gen)
    return x.clamp(0, 1)


def supcon(z, labels, temperature: float = 0.1):
    """Supervised contrastive loss: for each view, its positives (same label, not itself) against
    every other view of the batch."""
    import torch
    sim = z @ z.t() / temperature
    n = z.shape[0]
    eye = torch.eye(n, dtype=torch.bool)
    sim = sim.masked_fill(eye, -1e9)
    logp = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    pos = (labels[:, None] == labels[None, :]) & ~eye
    return -((logp * pos).sum(1) / pos.sum(1).clamp(min=1)).mean()


def fit(data: dict, minutes: float, seed: int = 0, groups_per_batch: int = 8, lr: float = 2e-3, log=print):
    """A trained network (torch, eval mode) and its meta, trained for about `minutes` of wall time."""
    import torch
    from .face_net import net_input
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    faces, groups, labels = data["faces"], data["groups"], data["labels"]
    # the net's input once for all views (the glyph stretch), uint8
    x_all = torch.from_numpy(np.stack([[net_input(v) for v in views] for views in faces]))   # N x V x 3 x H x W
    by_group = {}
    for i, gid in enumerate(groups.tolist()):
        by_group.setdefault(gid, []).append(i)
    gids = sorted(by_group)
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    gen = torch.Generator().manual_seed(seed)
    # time one step to size the schedule to the minutes given
    steps = None
    t0 = time.time()
    step = 0
    sched = None
    losses = []
    while True:
        pick = torch.randperm(len(gids), generator=gen)[:groups_per_batch].tolist()
        idx = [i for p in pick for i in by_group[gids[p]]]
        views = torch.stack([torch.randperm(VIEWS, generator=gen)[:2] for _ in idx])    # two of the three
        xb = torch.cat([x_all[idx, views[:, 0]], x_all[idx, views[:, 1]]]).float() / 255.0
        # a label is a symbol within its group: another group's 7 is another drawing, a negative
        yb = torch.tensor([gids[p] * 10000 + int(labels[i]) for p in pick for i in by_group[gids[p]]] * 2)
        # a face is warped upright or upside down, and a taught deck keeps both turns of a prototype:
        # both photos of a pair turned alike, so the network need not make a 6 and a turned 6 one
        turned = (torch.rand(len(idx), generator=gen) < 0.5).repeat(2)
        xb[turned] = torch.flip(xb[turned], dims=(2, 3))
        z = net(_augment(xb, gen) - 0.5)
        loss = supcon(z, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        losses.append(float(loss.detach()))
        if step == 20 and steps is None:
            per = (time.time() - t0) / 20
            steps = max(40, int(minutes * 60 / per))
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps - 20, pct_start=0.1)
            log(f"  {per:.2f} s a step: {steps} steps", flush=True)
        elif sched is not None:
            if step >= steps:
                break
            sched.step()
        if step % 100 == 0:
            log(f"  step {step}/{steps}: loss {np.mean(losses[-100:]):.4f}, {time.time() - t0:.0f} s", flush=True)
    net.eval()
    meta = {"steps": step, "seed": seed, "groups": len(gids), "cards": int(len(labels)),
            "final_loss": float(np.mean(losses[-100:]))}
    return net, meta


def export(net, meta: dict, out: Path) -> None:
    import io

    import torch
    import onnx
    from vision.atomic import write_atomic
    from .embed import FACE_H, FACE_W
    buf = io.BytesIO()
    torch.onnx.export(net, torch.zeros(1, 3, FACE_H, FACE_W), buf, input_names=["face"], output_names=["embedding"],
                      dynamic_axes={"face": {0: "n"}, "embedding": {0: "n"}}, opset_version=17, dynamo=False)
    model = onnx.load_from_string(buf.getvalue())
    entry = model.metadata_props.add()
    entry.key, entry.value = "tableref", json.dumps(meta)
    write_atomic(out, lambda f: f.write(model.SerializeToString()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.teach.train_face_net", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("render")
    r.add_argument("--groups", type=int, default=900)
    r.add_argument("--seed", type=int, default=11)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("--data", type=Path, required=True)
    f.add_argument("--minutes", type=float, default=20)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    if a.cmd == "render":
        d = render(a.groups, a.seed, a.workers)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        np.savez(a.out, **d)
        print(f"{len(d['labels'])} cards, {len(d['symbols'])} symbols -> {a.out}")
        return 0
    d = dict(np.load(a.data))
    net, meta = fit(d, a.minutes, a.seed)
    meta.update(data=str(a.data))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    export(net, meta, a.out)
    print(f"-> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
