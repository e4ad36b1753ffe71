"""Train the symbol classifier of vision/read/symbols.py on card faces rendered on the fly.

Data: vision.art.render_card faces in random styles (fonts, ovals, shades, wear), each seen through
vision.synth.augment.camera_view several times. For the UNO family the styles come from the named
print families of vision.art.style.PRINTS, all of them or a chosen subset (`prints`), so a model
can be trained without one print and tested on it. Nothing real is used. The network is trained in numpy
(Adam, cross-entropy), so training needs no torch and runs in minutes on two cores.
"""
from __future__ import annotations

import random
import time

import numpy as np

from ..synth.augment import camera_view
from .symbols import OTHER, SymbolModel, features


def symbol_classes(deck) -> dict[str, list[str]]:
    """symbol -> card ids with that symbol, in deck order."""
    out: dict[str, list[str]] = {}
    for c in deck.cards.values():
        out.setdefault(c.symbol, []).append(c.id)
    return out


def select_prints(prints=None, exclude=()) -> tuple[str, ...] | None:
    """The print families to train on: `prints` (None = all) less `exclude`; None when that is all
    of them, so that decks without print families accept it. ValueError for unknown names or none left."""
    from vision.art.style import PRINTS, check_prints
    if prints is None and not exclude:
        return None
    if exclude:
        check_prints(exclude)     # a misspelt exclusion must not silently train on everything
    chosen = tuple(p for p in check_prints(prints) if p not in set(exclude))
    if not chosen:
        raise ValueError("no print family left to train on")
    return None if chosen == PRINTS else chosen


OTHER_DECK = "uno"          # ... learned from: the UNO family's art in all its print families


def make_set(deck, n: int, seed: int, views_per_render: int = 4, log=print,
             prints=None, others: float = 0.0, outline_error: float = 1.0) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """n feature rows with labels (index into the returned symbol list). `prints`: the print
    families (vision.art.style.PRINTS) the faces are drawn from; None = all. `others`: the share
    of samples that are cards of another deck (OTHER_DECK, any print), labelled OTHER: a designed
    deck's classifier that has seen no foreign card calls a UNO blue 7 a blue spork, and is sure.
    `outline_error`: camera_view's, the locator's corner error scaled."""
    from referee import load_deck
    from vision.art import render_card, style_for

    classes = symbol_classes(deck)
    names = list(classes)
    if others > 0:
        foreign = list(load_deck(OTHER_DECK).cards)
        names.append(OTHER)
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    xs, ys = [], []
    t0 = time.time()
    while len(xs) < n:
        w = int(rng.integers(120, 220))
        if others > 0 and rng.random() < others:
            k, cid, art = len(names) - 1, foreign[int(rng.integers(len(foreign)))], OTHER_DECK
        else:
            k = int(rng.integers(len(classes)))
            cid, art = classes[names[k]][int(rng.integers(len(classes[names[k]])))], deck.id
        style = style_for(art, prng, prints=prints if art == deck.id else None)
        face = render_card(cid, art, style=style, size=(w, int(round(w * 87 / 56))))
        for _ in range(views_per_render):
            xs.append(features(camera_view(face, rng, outline_error=outline_error)))
            ys.append(k)
        if len(xs) % 2000 < views_per_render:
            log(f"  {len(xs)}/{n} samples, {time.time() - t0:.0f} s")
    return np.stack(xs[:n]), np.array(ys[:n]), names


def fit(x: np.ndarray, y: np.ndarray, names: list[str], hidden: int = 256, epochs: int = 40, lr: float = 1e-3,
        wd: float = 1e-4, seed: int = 0, log=print, meta: dict | None = None) -> SymbolModel:
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    xn = ((x - mean) / std).astype(np.float32)
    d, c = xn.shape[1], len(names)
    params = {"w1": (rng.normal(0, np.sqrt(2 / d), (d, hidden))).astype(np.float32), "b1": np.zeros(hidden, np.float32),
              "w2": (rng.normal(0, np.sqrt(1 / hidden), (hidden, c))).astype(np.float32), "b2": np.zeros(c, np.float32)}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    step, bs = 0, 256
    for ep in range(epochs):
        order = rng.permutation(len(xn))
        tot = 0.0
        for i in range(0, len(order), bs):
            idx = order[i:i + bs]
            xb, yb = xn[idx], y[idx]
            if ep < epochs - 2:  # feature dropout: no single HOG cell may decide
                xb = xb * (rng.random(xb.shape) > 0.2) / 0.8
            h = np.maximum(xb @ params["w1"] + params["b1"], 0)
            z = h @ params["w2"] + params["b2"]
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            tot += float(-np.log(p[np.arange(len(yb)), yb] + 1e-9).sum())
            g = p
            g[np.arange(len(yb)), yb] -= 1
            g /= len(yb)
            grads = {"w2": h.T @ g, "b2": g.sum(0)}
            gh = (g @ params["w2"].T) * (h > 0)
            grads["w1"] = xb.T @ gh
            grads["b1"] = gh.sum(0)
            step += 1
            rate = lr * (0.5 * (1 + np.cos(np.pi * ep / epochs)))
            for k in params:
                gk = grads[k] + (wd * params[k] if k.startswith("w") else 0)
                m[k] = 0.9 * m[k] + 0.1 * gk
                v[k] = 0.999 * v[k] + 0.001 * gk * gk
                params[k] -= rate * (m[k] / (1 - 0.9 ** step)) / (np.sqrt(v[k] / (1 - 0.999 ** step)) + 1e-8)
        if ep % 5 == 0 or ep == epochs - 1:
            log(f"  epoch {ep + 1}/{epochs}: loss {tot / len(xn):.4f}")
    return SymbolModel(names, mean.astype(np.float32), std.astype(np.float32), params["w1"], params["b1"],
                       params["w2"], params["b2"], meta or {})
