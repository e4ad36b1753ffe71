"""The symbol network (vision/read/net.py) beside the HOG classifier: the committed model reads the
symbols of every print family, the two readers' product is sure only where they agree, and a
missing or damaged network file is a clear error when the recognizer starts."""
import numpy as np
import pytest

from referee import load_deck
from vision.art import render_card
from vision.art.style import PRINTS, print_style
from vision.errors import ModelError, models_dir
from vision.read.net import FLOOR, SymbolNet, agree
from vision.read.symbols import glyph_image
from vision.recognizer import NET_FOR_DECK, Recognizer

DECK = load_deck("ono")
SYMBOLS = [str(d) for d in range(10)] + ["skip", "reverse", "draw2", "wild", "wild-draw4"]


def sure_of(symbol, p=0.99, classes=SYMBOLS):
    out = np.full(len(classes), (1 - p) / (len(classes) - 1))
    out[classes.index(symbol)] = p
    return out


def test_the_network_leads_and_a_disagreement_costs_belief():
    # by hand at weight 0.8: floored 0.99 -> 0.9715, floored 0.01/14 -> 0.00203; the +2 gets
    # 0.00203^0.2 x 0.9715^0.8 = 0.283 against 0.0070 for the 7 and 13 x 0.00203 for the rest: 0.894
    b = agree(SYMBOLS, sure_of("7"), SYMBOLS, sure_of("draw2"), weight=0.8)
    assert SYMBOLS[int(b.argmax())] == "draw2"
    assert b.max() == pytest.approx(0.894, abs=0.002)
    both = agree(SYMBOLS, sure_of("draw2"), SYMBOLS, sure_of("draw2"), weight=0.8)
    assert both.max() > b.max() + 0.05


def test_equal_weights_and_a_disagreement_give_an_unsure_belief():
    # HOG sure of a 7, the network sure of a +2, equal weights: by hand, the product of the two
    # floored distributions is symmetric between 7 and draw2, so each has under half of the belief
    b = agree(SYMBOLS, sure_of("7"), SYMBOLS, sure_of("draw2"), weight=0.5)
    assert b.sum() == pytest.approx(1.0)
    assert b[SYMBOLS.index("7")] == pytest.approx(b[SYMBOLS.index("draw2")])
    assert b.max() < 0.5


def test_two_readers_that_agree_stay_sure():
    b = agree(SYMBOLS, sure_of("reverse", 0.9), SYMBOLS, sure_of("reverse", 0.95))
    assert SYMBOLS[int(b.argmax())] == "reverse" and b.max() > 0.9


def test_a_network_with_its_classes_in_another_order_is_matched_by_name():
    net_classes = list(reversed(SYMBOLS))
    b = agree(SYMBOLS, sure_of("skip", 0.9), net_classes, sure_of("skip", 0.9, net_classes))
    assert SYMBOLS[int(b.argmax())] == "skip"


def test_one_readers_zero_does_not_veto_the_other():
    # the network gives the true symbol exactly 0: the floor keeps the product from being 0
    p_net = np.zeros(len(SYMBOLS))
    p_net[SYMBOLS.index("1")] = 1.0
    b = agree(SYMBOLS, sure_of("7"), SYMBOLS, p_net)
    assert b[SYMBOLS.index("7")] > FLOOR / len(SYMBOLS)


@pytest.fixture(scope="module")
def net():
    return SymbolNet(models_dir() / NET_FOR_DECK["uno"])


def test_the_committed_network_knows_the_uno_symbols(net):
    assert sorted(net.classes) == sorted(SYMBOLS)
    assert net.meta["input"] == [96, 64] and net.meta["samples"] > 0


@pytest.mark.parametrize("family", PRINTS)
def test_the_committed_network_reads_each_familys_own_look(net, family):
    """Each family's clean look (print_style), every symbol, red and blue (wilds once): the
    rectified card as the warp gives it, in both orientations. The truth is the card we drew."""
    style = print_style(family)
    cards = [f"{c}-{s}" for s in SYMBOLS[:13] for c in ("red", "blue")] + ["wild", "wild-draw4"]
    wrong = []
    for cid in cards:
        face = render_card(cid, "ono", style=style, size=(112, 174))[..., 2::-1]   # RGBA -> BGR
        g = glyph_image(np.ascontiguousarray(face))
        p = net.proba(np.stack([g, g[::-1, ::-1]]))
        for k, row in enumerate(p):
            got = net.classes[int(row.argmax())]
            if got != DECK.cards[cid].symbol:
                wrong.append((cid, "upside down" if k else "upright", got))
    assert len(wrong) <= 1, wrong


def test_the_recognizer_uses_the_network_for_the_uno_family_only():
    assert Recognizer("ono", locator="contour").net is not None
    assert Recognizer("ono", locator="contour", net_path=False).net is None
    assert Recognizer("dino2", locator="contour").net is None


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_a_missing_or_damaged_network_is_a_clear_error(tmp_path, damage):
    path = tmp_path / "uno-symbols-net.onnx"
    if damage == "corrupt":
        path.write_bytes((models_dir() / NET_FOR_DECK["uno"]).read_bytes()[:3000])
    with pytest.raises(ModelError, match="symbol network"):
        Recognizer("ono", locator="contour", net_path=path)


def test_train_net_renders_trains_and_exports_a_network_the_recognizer_loads(tmp_path):
    """The command line end to end on a tiny set: what it writes is a network of the 15 symbols
    that the recognizer takes as its second reader."""
    import subprocess
    import sys
    out = tmp_path / "net.onnx"
    r = subprocess.run([sys.executable, "-m", "web", "train", "--net", "--deck", "ono", "--samples", "200",
                        "--epochs", "1", "--exclude-print", "knockoff", "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    net = SymbolNet(out)
    assert sorted(net.classes) == sorted(SYMBOLS)
    assert net.meta["excluded_prints"] == ["knockoff"] and net.meta["samples"] < 200
    assert Recognizer("ono", locator="contour", net_path=out).net.classes == net.classes


@pytest.mark.parametrize("argv, says", [
    (["--deck", "dino2"], "uno/ono"),
    (["--exclude-print", "no-such-print"], "no-such-print"),
    (["--samples", "5"], "--samples"),
])
def test_train_net_refuses_bad_arguments_before_rendering(tmp_path, argv, says):
    import subprocess
    import sys
    out = tmp_path / "net.onnx"
    r = subprocess.run([sys.executable, "-m", "web", "train", "--net", *argv, "--out", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()


def test_the_recognizer_and_a_taught_decks_embedding_share_one_network():
    # one onnxruntime session of the 0.8 MB network, not one per user of it
    from vision.recognizer import Recognizer
    from vision.teach.embed import shape_net
    assert Recognizer("uno", text=False).net is shape_net()


def test_training_mirrors_a_quarter_of_the_glyphs(monkeypatch):
    """A mirrored card is the same card: the network is shown glyphs mirrored side for side too."""
    import torch
    from vision.read import train_net
    # a glyph with ink only in its left half: the half turn moves the ink right and down, a mirror
    # right only, so ink in the top right is a mirror (alone) and the bottom left the two together
    x = torch.zeros(400, 1, 96, 64)
    x[:, :, 8:40, 4:24] = 1.0

    def shares(mirrored: float) -> tuple[float, float]:
        monkeypatch.setattr(train_net, "MIRRORED", mirrored)
        y = train_net._augment(x.clone(), torch.Generator().manual_seed(0))
        top_right = (y[:, 0, :48, 32:].mean(dim=(1, 2)) > y[:, 0, :48, :32].mean(dim=(1, 2)) + 0.2).float().mean()
        bottom_left = (y[:, 0, 48:, :32].mean(dim=(1, 2)) > y[:, 0, 48:, 32:].mean(dim=(1, 2)) + 0.2).float().mean()
        return float(top_right), float(bottom_left)

    assert max(shares(0.0)) < 0.02          # (an erased patch may whiten a quarter now and then)
    top_right, bottom_left = shares(0.25)
    assert 0.06 < top_right < 0.2 and 0.06 < bottom_left < 0.2   # a quarter of each half: 1/8 each


def _glyph_set(path, n: int, label: int, classes=SYMBOLS):
    np.savez(path, glyphs=np.full((n, 96, 64), label, np.uint8), labels=np.full(n, label, np.int16),
             prints=np.zeros(n, np.int8), classes=np.array(classes), families=np.array(["classic"]),
             deck=np.array("ono"))
    return path


def test_fit_trains_on_several_renders_together_and_refuses_renders_that_do_not_match(tmp_path):
    from vision.read.train_net import load_glyphs
    a, b = _glyph_set(tmp_path / "a.npz", 3, 1), _glyph_set(tmp_path / "b.npz", 2, 7)
    d = load_glyphs([a, b])
    assert d["glyphs"].shape == (5, 96, 64) and list(d["labels"]) == [1, 1, 1, 7, 7]
    assert list(d["classes"]) == SYMBOLS
    other = _glyph_set(tmp_path / "c.npz", 2, 0, classes=SYMBOLS[::-1])
    with pytest.raises(ValueError, match="c.npz was rendered with other classes"):
        load_glyphs([a, other])
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "vision.read.train_net", "fit", "--data", str(a), "--data", str(other),
                        "--out", str(tmp_path / "net.onnx")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "other classes" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "net.onnx").exists()


# --- the far network: cards seen small ---------------------------------------------------------

@pytest.fixture(scope="module")
def far_net():
    from vision.recognizer import FAR_NET_FOR_DECK
    return SymbolNet(models_dir() / FAR_NET_FOR_DECK["uno"])


def small_glyphs(n: int, seed: int, card_px=(18, 36)):
    """(glyphs, symbols) of n cards of every print family as the pipeline rectifies them from a
    picture where they are `card_px` pixels wide (augment.camera_view): what a webcam over a whole
    table shows. The truth is the card we drew."""
    import random

    from vision.art import style_for
    from vision.synth.augment import camera_view
    rng, prng = np.random.default_rng(seed), random.Random(seed)
    ids = [c for c in DECK.cards if not c.startswith("back")]
    glyphs, truth = [], []
    for _ in range(n):
        cid = ids[int(rng.integers(len(ids)))]
        face = render_card(cid, "ono", style=style_for("ono", prng), size=(160, 249))
        glyphs.append(glyph_image(camera_view(face, rng, card_px=card_px)))
        truth.append(DECK.cards[cid].symbol)
    return np.stack(glyphs), truth


def read_glyphs(net, glyphs):
    """Each glyph's symbol as the recognizer asks a network: the card and its half-turn together."""
    return [net.classes[int(np.argmax(net.proba(np.stack([g, g[::-1, ::-1]])).mean(axis=0)))] for g in glyphs]


def test_the_far_network_knows_the_uno_symbols(far_net, net):
    assert far_net.classes == net.classes
    assert far_net.meta["input"] == [96, 64] and far_net.meta["samples"] >= 60000


def test_the_far_network_reads_cards_seen_small_better_than_the_symbol_network(far_net, net):
    """Cards 18-36 pixels wide, every print family: the shipped network, trained from 38 pixels up,
    read 179-183 of 200 at four seeds when the far network came; the far network 195-197."""
    glyphs, truth = small_glyphs(200, 20261207)
    right = {name: sum(a == b for a, b in zip(read_glyphs(n, glyphs), truth))
             for name, n in (("far", far_net), ("shipped", net))}
    assert right["far"] >= 190, right
    assert right["far"] >= right["shipped"] + 8, right


def test_the_far_network_reads_only_cards_seen_small():
    """A card wider than FAR_CARD_PX in its picture reads exactly as without the far network; the
    far network goes with the shipped one (a network given in its place reads every size)."""
    from helpers import one_card_closeup
    from vision.locate.quad import side_lengths
    from vision.recognizer import FAR_CARD_PX
    with_far, without = Recognizer("uno"), Recognizer("uno", far_net_path=False)
    assert with_far.far_net is not None and without.far_net is None
    assert Recognizer("uno", net_path=models_dir() / NET_FOR_DECK["uno"]).far_net is None
    assert Recognizer("dino2").far_net is None and Recognizer("ono", net_path=False).far_net is None
    for seed, index in ((9696, 63), (8383, 545), (10101, 213)):
        img, card = one_card_closeup(seed, index, 480, 640)
        a, b = with_far.read(img), without.read(img)
        assert a and min(float(side_lengths(r.quad.pts).min()) for r in a) >= FAR_CARD_PX
        assert [(r.card, r.confidence) for r in a] == [(r.card, r.confidence) for r in b]


def test_a_card_seen_small_on_a_table_is_read_by_the_far_network(monkeypatch):
    """A synthetic table seen from far up (bench/vision_accuracy.py's far cells, rendered faces, seed
    5, scene 6): a green 4 about 30 pixels wide, which the shipped network alone read as a green
    reverse (0.54), is read as the green 4 with the far network. The truth is the scene's label.
    Both outlined by the detector's looks at the whole picture (RELOOK off): outlined again from
    its neighbourhood enlarged (test_vision_relook.py), it reads right with either network."""
    import random

    import vision.recognizer
    from helpers import load_bench
    from vision.synth.generate import compose
    monkeypatch.setattr(vision.recognizer, "RELOOK", False)
    bench = load_bench("vision_accuracy")
    img, labels = compose("uno", np.random.default_rng([5, 11, 6]), random.Random(5 * 7_919 + 6), 640, 480,
                          card_width=bench.FAR_WIDTH)
    read = {k: {it["truth"]: it["read"] for it in bench.scene_items(rec, img, labels, "far", "table 6")}
            for k, rec in (("far", Recognizer("uno")), ("shipped", Recognizer("uno", far_net_path=False)))}
    assert read["shipped"]["green-4"] == "green-reverse"
    assert read["far"]["green-4"] == "green-4"
