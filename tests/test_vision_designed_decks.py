"""The recognizer on the decks we design ourselves (dino2, snake-cup): their own symbol models,
their own colour palettes, and their colourless (rainbow) cards."""
import json

import cv2
import numpy as np
import pytest

from vision.read.colour import HUE_BUCKETS, colour_votes, palette_for
from vision.recognizer import Recognizer
from helpers import table_with


def test_uno_palette_is_the_measured_one():
    assert palette_for("uno") == HUE_BUCKETS and palette_for("ono") == HUE_BUCKETS


def test_dino2_palette_from_its_printed_colours():
    # hues (OpenCV 0..180) of the deck file's colours, by hand: red #d62828 0, orange #f77f00
    # 60*127/247 deg = 15.43, green #2a9d3f 120+60*21/115 deg = 65.48, blue #1d5fd1
    # 240-60*66/180 deg = 109; each owns the arc halfway to its neighbours
    edges = {}
    for name, (lo, hi) in palette_for("dino2"):
        edges.setdefault(name, []).append((round(lo, 1), round(hi, 1)))
    assert sorted(edges) == ["blue", "green", "orange", "red"]
    assert edges["orange"] == [(7.7, 40.5)]
    assert edges["green"] == [(40.5, 87.2)]
    assert edges["blue"] == [(87.2, 144.5)]
    assert sorted(edges["red"]) == [(0.0, 7.7), (144.5, 181.0)]


def test_snake_cup_palette_has_its_six_colours():
    assert {n for n, _ in palette_for("snake-cup")} == {"red", "orange", "yellow", "green", "blue", "violet"}


def test_a_flat_orange_card_votes_orange_in_dino2_and_would_be_yellow_in_uno():
    card = np.full((130, 84, 3), 250, np.uint8)
    card[10:120, 8:76] = (0, 127, 247)  # BGR of dino2's orange #f77f00, hue 15
    dino = colour_votes(card, palette=palette_for("dino2"))["votes"]
    uno = colour_votes(card)["votes"]
    assert max(dino, key=dino.get) == "orange" and dino["orange"] == 1.0
    assert max(uno, key=uno.get) == "yellow"  # UNO's buckets: yellow is 11..40


def test_snake_cups_neighbouring_colours_leave_a_printers_shift_room():
    """Our print colours are chosen so that a printer's hue shift (the art's photometric styles
    draw up to 4.5 OpenCV hue units either way) cannot carry one colour past the edge to its
    neighbour. By hand: red #d62828 0, orange #f26d00 60*109/242 deg = 27.0 deg -> 13.5, yellow
    #f5dc00 60*220/245 deg = 53.9 deg -> 26.9, so the edges lie at 6.8 and 20.2 and each of the
    three is 6.7 or more from an edge. (Orange #f77f00 and yellow #f2c500, printed until session
    28, were 9 apart: 4.5 from the edge, the whole shift.)"""
    edges = {}
    for name, (lo, hi) in palette_for("snake-cup"):
        edges.setdefault(name, []).append((round(lo, 1), round(hi, 1)))
    assert edges["orange"] == [(6.8, 20.2)]
    assert edges["yellow"][0][0] == 20.2


def test_a_faint_print_is_coloured_for_a_home_printed_deck_only():
    """A violet field printed faintly (RGB 190, 150, 215: saturation 77 of 255) on white paper
    (240, unclipped: the white balance's reference):
    under the UNO family's fixed bar (80) the card has no colour (it would read as a colourless
    SNAKE); a home-printed deck's bar follows the card's own inks (half its most saturated tenth)."""
    card = np.full((130, 84, 3), 240, np.uint8)
    card[10:120, 8:76] = (215, 150, 190)  # BGR
    card[50:80, 25:60] = 240              # the white disc in the middle
    fixed = colour_votes(card, palette=palette_for("snake-cup"))
    pale = colour_votes(card, palette=palette_for("snake-cup"), pale_ink=True)
    assert fixed["coloured"] < 0.15
    assert pale["coloured"] > 0.5 and max(pale["votes"], key=pale["votes"].get) == "violet"
    # white paper alone stays colourless even with the lowered bar
    assert colour_votes(np.full((130, 84, 3), 240, np.uint8), pale_ink=True)["coloured"] == 0.0


@pytest.mark.parametrize("deck,cards", [
    ("dino2", [("red-dingbat", (60, 60), False), ("blue-skip-draw2", (300, 200), True),
               ("orange-reverse", (480, 40), False)]),
    ("snake-cup", [("violet-hearts", (60, 60), False), ("green-river", (300, 200), True),
                   ("orange-suns", (480, 40), False)]),
])
@pytest.mark.parametrize("locator", ["detector", "contour"])
def test_reads_rendered_cards_on_a_table(deck, cards, locator):
    img = table_with(deck, cards)
    reads = Recognizer(deck, locator=locator).read(img)
    assert sorted(r.card for r in reads) == sorted(c for c, _, _ in cards)
    first = next(r for r in reads if r.card == cards[0][0])
    xs, ys = zip(*first.quad.polygon())
    # the first card was pasted at x 60..143, y 60..189
    assert abs(min(xs) - 60) < 6 and abs(max(xs) - 143) < 6 and abs(min(ys) - 60) < 6 and abs(max(ys) - 189) < 6


@pytest.mark.parametrize("deck,cards", [
    ("dino2", [("dino", (60, 60), False), ("nathan", (300, 200), True), ("rainbow-reverse", (480, 40), False)]),
    ("snake-cup", [("snake", (60, 60), False), ("red-stars", (300, 200), True)]),
])
def test_colourless_rainbow_cards_are_read(deck, cards):
    reads = Recognizer(deck, locator="contour").read(table_with(deck, cards, seed=3))
    assert sorted(r.card for r in reads) == sorted(c for c, _, _ in cards)


def test_coloured_and_rainbow_reverse_are_told_apart():
    reads = Recognizer("dino2", locator="contour").read(
        table_with("dino2", [("green-reverse", (60, 60), False), ("rainbow-reverse", (300, 200), False)], seed=5))
    assert sorted(r.card for r in reads) == ["green-reverse", "rainbow-reverse"]


def test_identify_command_json_dino2(tmp_path, capsys):
    from web.cli import main
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), table_with("dino2", [("green-draw7", (200, 150), True)]))
    assert main(["identify", str(path), "--deck", "dino2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert [c["card"] for c in out["cards"]] == ["green-draw7"]


def test_train_writes_the_decks_own_model_by_default(tmp_path, monkeypatch, capsys):
    from web.cli import main
    monkeypatch.setattr("vision.errors.BUNDLED", tmp_path)
    assert main(["train", "--deck", "snake-cup", "--samples", "40", "--epochs", "1"]) == 0
    assert (tmp_path / "snake-cup-symbols.npz").is_file()
    assert not (tmp_path / "uno-symbols.npz").exists()


def test_train_records_its_outline_error_and_refuses_a_senseless_one(tmp_path, capsys):
    from web.cli import main
    from vision.recognizer import load_symbol_model
    out = tmp_path / "s.npz"
    assert main(["train", "--deck", "snake-cup", "--samples", "40", "--epochs", "1",
                 "--outline-error", "1.6", "--out", str(out)]) == 0
    assert load_symbol_model(out).meta["outline_error"] == 1.6
    for bad in ("0", "-1", "9"):
        assert main(["train", "--deck", "snake-cup", "--samples", "40", "--epochs", "1",
                     "--outline-error", bad, "--out", str(tmp_path / "bad.npz")]) == 2
        assert "--outline-error" in capsys.readouterr().err
    assert not (tmp_path / "bad.npz").exists()


def test_camera_views_outline_error_scales_how_much_of_the_table_the_warp_takes_in():
    """A flat red card warped with the locator's error: none takes in no table (the card's own
    pixels fill the view, but for blur at its edge); a wider error takes in more of it."""
    from vision.synth.augment import camera_view
    card = np.zeros((249, 160, 4), np.uint8)
    card[..., 0], card[..., 3] = 255, 255          # RGBA: red, opaque

    def table_share(scale: float) -> float:
        shares = []
        for seed in range(40):
            view = camera_view(card, np.random.default_rng(seed), outline_error=scale).astype(int)
            # red under any cast or gain: the red channel well above the others
            red = (view[..., 2] > view[..., 1] + 40) & (view[..., 2] > view[..., 0] + 40)
            shares.append(1.0 - float(red.mean()))
        return float(np.mean(shares))

    none, usual, wide = table_share(0.0), table_share(1.0), table_share(2.0)
    assert none < 0.02, none
    assert none < usual < wide, (none, usual, wide)


def test_hue_margin_is_the_distance_to_the_nearest_edge_with_another_colour():
    from vision.read.colour import hue_margin
    # UNO yellow is 14..40: a median of 26 lies 12 from the edge at 14 and 14 from 40
    assert hue_margin(np.array([25, 26, 27]), "yellow", HUE_BUCKETS) == 12.0
    # UNO red wraps (140..180 and 0..14): 178 counts as -2, the median of 2, 3, -2 is 2, 12 from 14
    assert hue_margin(np.array([2, 3, 178]), "red", HUE_BUCKETS) == 12.0
    # snake-cup orange is 6.8..20.2 (by hand, test above): its middle, 13.5, is 6.7 from both edges
    pal = palette_for("snake-cup")
    lo, hi = dict((n, r) for n, r in pal)["orange"]
    assert hue_margin(np.array([(lo + hi) / 2]), "orange", pal) == pytest.approx(6.73, abs=0.01)


def test_make_set_labels_a_share_of_foreign_cards_as_another_deck():
    from referee import load_deck
    from vision.read.train import OTHER, make_set
    x, y, names = make_set(load_deck("dino2"), 400, seed=3, views_per_render=1, log=lambda *a: None, others=0.25)
    assert names[-1] == OTHER and OTHER not in names[:-1]
    share = float(np.mean(y == len(names) - 1))
    assert 0.15 < share < 0.35, share          # 0.25 of 400 draws: a binomial sd of 0.022
    _, y0, names0 = make_set(load_deck("dino2"), 40, seed=3, views_per_render=1, log=lambda *a: None)
    assert OTHER not in names0


@pytest.mark.parametrize("deck", ["dino2", "snake-cup"])
def test_a_uno_card_on_a_designed_decks_table_is_never_read_as_sure(deck):
    # before the "another deck" class, dino2 read a UNO blue 7 as a sure blue spork
    import random
    from vision.art import render_card
    from vision.synth.augment import camera_view
    rec = Recognizer(deck, text=False)
    rng, prng = np.random.default_rng(8), random.Random(8)
    ids = list(Recognizer("uno", text=False).deck.cards)
    sure = 0
    for i in range(60):
        face = render_card(ids[(i * 7) % len(ids)], "uno", rng=prng, size=(160, 249))
        card, conf = rec.identify_card(camera_view(face, rng))
        sure += card is not None and conf >= 0.6
    assert sure <= 1, sure
    # and its own cards still read: the same views of its own art
    right = 0
    own = list(rec.deck.cards)
    for i in range(60):
        cid = own[(i * 5) % len(own)]
        card, _ = rec.identify_card(camera_view(render_card(cid, deck, rng=prng, size=(160, 249)), rng))
        right += card == cid
    assert right >= 54, right


def test_identify_says_a_uno_card_is_not_of_the_dino2_deck(tmp_path, capsys):
    from web.cli import main
    path = tmp_path / "uno.png"
    cv2.imwrite(str(path), table_with("uno", [("blue-7", (260, 170), False)]))
    assert main(["identify", str(path), "--deck", "dino2"]) == 0
    out = capsys.readouterr().out
    assert "1 card of another deck (not dino2): not read" in out and "blue-" not in out
    assert main(["identify", str(path), "--deck", "dino2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.strip())["cards"] == []


def test_camera_views_card_px_sets_how_small_the_card_is_seen():
    """Sixteen black and white stripes across a card: seen 140-150 pixels wide (a stripe about 9
    pixels) they stay stripes in the rectified view, seen 18-20 pixels wide (a stripe about 1) the
    camera's pixels and blur average them into grey (the symbol readers' training renders for cards
    far off). Measured: contrast 0.92 near, 0.20 far."""
    from vision.synth.augment import camera_view
    card = np.full((249, 160, 4), 255, np.uint8)
    for k in range(0, 16, 2):
        card[:, k * 10:(k + 1) * 10, :3] = 0

    def contrast(card_px) -> float:
        spreads = []
        for seed in range(20):
            view = camera_view(card, np.random.default_rng(seed), card_px=card_px)
            grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(float)
            h, w = grey.shape
            spreads.append(grey[h // 4:3 * h // 4, w // 8:7 * w // 8].std() / max(1.0, grey.mean()))
        return float(np.mean(spreads))

    near, far = contrast((140, 150)), contrast((18, 20))
    assert far < 0.4 * near, (far, near)
