"""tableref print-deck: real card size, nine to a page, list page + face pages + backs page."""
import math
import re

from vision.art.printdeck import PAPERS_MM, card_slots
from web.cli import main


def pdf_pages(path):
    data = open(path, "rb").read()
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


def test_snake_cup_pdf_has_the_right_pages(tmp_path):
    out = tmp_path / "sc.pdf"
    assert main(["print-deck", "snake-cup", "--out", str(out), "--dpi", "100"]) == 0
    # 62 cards: 7 face pages (ceil 62/9), one deck list page, one backs page
    assert pdf_pages(out) == 1 + math.ceil(62 / 9) + 1 == 9


def test_duplex_adds_a_back_page_per_face_page(tmp_path):
    out = tmp_path / "uno.pdf"
    assert main(["print-deck", "uno", "--out", str(out), "--dpi", "72", "--duplex", "--paper", "letter"]) == 0
    assert pdf_pages(out) == 1 + 2 * 12          # 108 cards = 12 full sheets


def test_cards_are_real_size_and_fit_the_paper():
    for paper, (pw, ph) in PAPERS_MM.items():
        slots, (cw, ch) = card_slots(paper, 300)
        assert abs(cw / 300 * 25.4 - 56) < 0.1 and abs(ch / 300 * 25.4 - 87) < 0.1
        assert len(slots) == 9
        assert min(x for x, _ in slots) > 0 and max(x for x, _ in slots) + cw < pw / 25.4 * 300
        assert max(y for _, y in slots) + ch < ph / 25.4 * 300


def test_unknown_deck_is_refused(tmp_path, capsys):
    assert main(["print-deck", "nope", "--out", str(tmp_path / "x.pdf")]) == 2
    assert "unknown deck" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()
