"""Print-and-play sheets: every card of a deck at real size (56 x 87 mm), nine to a page with crop
marks, a first page listing the deck with its counts, and the backs on a page of their own
(or, with duplex, a mirrored back page after every face page)."""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from . import CARD_MM, card_ids, render_back, render_card
from .draw import font

PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
GUTTER_MM = 2.0
MARK_MM = 4.0          # crop mark length, outside the card grid
COLS, ROWS = 3, 3


def _mm(v: float, dpi: int) -> int:
    return int(round(v / 25.4 * dpi))


def card_slots(paper: str, dpi: int):
    """Top-left pixel of each of the nine card places, row by row, and the card size in pixels."""
    pw, ph = PAPERS_MM[paper]
    cw, ch = CARD_MM
    grid_w, grid_h = COLS * cw + (COLS - 1) * GUTTER_MM, ROWS * ch + (ROWS - 1) * GUTTER_MM
    x0, y0 = (pw - grid_w) / 2, (ph - grid_h) / 2
    slots = [(_mm(x0 + c * (cw + GUTTER_MM), dpi), _mm(y0 + r * (ch + GUTTER_MM), dpi))
             for r in range(ROWS) for c in range(COLS)]
    return slots, (_mm(cw, dpi), _mm(ch, dpi))


def _blank(paper: str, dpi: int) -> Image.Image:
    pw, ph = PAPERS_MM[paper]
    return Image.new("RGB", (_mm(pw, dpi), _mm(ph, dpi)), "white")


def _crop_marks(page: Image.Image, slots, size, dpi: int):
    d = ImageDraw.Draw(page)
    cw, ch = size
    xs = sorted({x for x, _ in slots} | {x + cw for x, _ in slots})
    ys = sorted({y for _, y in slots} | {y + ch for _, y in slots})
    gx0, gx1, gy0, gy1 = xs[0], xs[-1], ys[0], ys[-1]
    gap, mark, width = _mm(1.0, dpi), _mm(MARK_MM, dpi), max(1, _mm(0.15, dpi))
    for x in xs:
        d.line([(x, gy0 - gap - mark), (x, gy0 - gap)], fill="black", width=width)
        d.line([(x, gy1 + gap), (x, gy1 + gap + mark)], fill="black", width=width)
    for y in ys:
        d.line([(gx0 - gap - mark, y), (gx0 - gap, y)], fill="black", width=width)
        d.line([(gx1 + gap, y), (gx1 + gap + mark, y)], fill="black", width=width)


def _paste(page, rgba, xy):
    img = Image.fromarray(rgba, "RGBA")
    page.paste(img.convert("RGB"), xy, img)


def _footer(page, text, dpi):
    d = ImageDraw.Draw(page)
    d.text((page.width / 2, page.height - _mm(4, dpi)), text, fill=(90, 90, 90), anchor="ms",
           font=font("LiberationSans-Bold.ttf", _mm(2.6, dpi)))


def list_page(deck, paper: str, dpi: int) -> Image.Image:
    page = _blank(paper, dpi)
    d = ImageDraw.Draw(page)
    m = _mm(15, dpi)
    d.text((m, m), deck.name, fill="black", font=font("LiberationSans-Bold.ttf", _mm(5, dpi)))
    d.text((m, m + _mm(9, dpi)), f"{deck.size} cards, {len(deck.cards)} different. Print the face pages, "
           "cut along the crop marks; print the back page as often as needed.",
           fill=(60, 60, 60), font=font("LiberationSans-Bold.ttf", _mm(2.8, dpi)))
    rows = [(cid, deck.counts[cid]) for cid in deck.cards]
    per_col = math.ceil(len(rows) / 3)
    f = font("LiberationSans-Bold.ttf", _mm(min(3.2, 200 / max(per_col, 1)), dpi))
    line = _mm(min(4.6, 230 / max(per_col, 1)), dpi)
    col_w = (page.width - 2 * m) // 3
    for i, (cid, n) in enumerate(rows):
        x = m + (i // per_col) * col_w
        y = m + _mm(20, dpi) + (i % per_col) * line
        d.text((x, y), f"{n:>2} ×", fill="black", font=f)
        d.text((x + _mm(9, dpi), y), cid, fill="black", font=f)
    _footer(page, f"tableref print-deck {deck.id}: deck list", dpi)
    return page


def build_pages(deck_id: str, paper: str = "a4", dpi: int = 300, duplex: bool = False) -> list[Image.Image]:
    from referee import load_deck
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}; one of {', '.join(PAPERS_MM)}")
    deck = load_deck(deck_id)
    slots, size = card_slots(paper, dpi)
    faces = {cid: render_card(cid, deck_id, size=size) for cid in card_ids(deck_id)}
    back = render_back(deck_id, size=size)
    physical = deck.as_list()
    sheets = [physical[i:i + len(slots)] for i in range(0, len(physical), len(slots))]
    pages = [list_page(deck, paper, dpi)]

    def back_page(n_cards, mirrored):
        page = _blank(paper, dpi)
        for k in range(n_cards):
            r, c = divmod(k, COLS)
            idx = r * COLS + (COLS - 1 - c) if mirrored else k   # long-edge flip mirrors columns
            _paste(page, back, slots[idx])
        _crop_marks(page, slots, size, dpi)
        _footer(page, f"{deck.name}: backs", dpi)
        return page

    for number, sheet in enumerate(sheets, 1):
        page = _blank(paper, dpi)
        for cid, xy in zip(sheet, slots):
            _paste(page, faces[cid], xy)
        _crop_marks(page, slots, size, dpi)
        _footer(page, f"{deck.name}: faces {number}/{len(sheets)}", dpi)
        pages.append(page)
        if duplex:
            pages.append(back_page(len(sheet), mirrored=True))
    if not duplex:
        pages.append(back_page(len(slots), mirrored=False))
    return pages


def write_pdf(deck_id: str, out: str, paper: str = "a4", dpi: int = 300, duplex: bool = False) -> int:
    """Writes the PDF; returns its page count. Page size is exact: pixels / dpi."""
    pages = build_pages(deck_id, paper, dpi, duplex)
    pages[0].save(out, "PDF", save_all=True, append_images=pages[1:], resolution=float(dpi), quality=90)
    return len(pages)
