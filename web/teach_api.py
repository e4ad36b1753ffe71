"""Teach a deck from the table's own camera (issue 15, the host page's "Teach this deck"), as a
JSON API: the host lays down the next card, the server takes it from the camera's latest frame,
stores the photo in the data folder, and at the end teaches the deck from those photos.

    GET    /api/tables/<id>/teach            {deck, total, done, next, photos: {card: n}, taught}
    POST   /api/tables/<id>/teach/<card>     take the camera's card for <card> (host token): 200 with
                                             {card, photos, done, total, next, polygon}; 409 when the
                                             camera has no picture, no card or several in view
    DELETE /api/tables/<id>/teach/<card>     retake: drop <card>'s last photo (host token)
    POST   /api/tables/<id>/teach-finish     teach DATA/teach/DECK/ into DATA/taught/DECK.npz (host token):
                                             the report; the table's camera reads with it from its next start

Photos live in DATA/teach/DECK/CARD/N.jpg, the layout `tableref teach --from` reads, so a teach
begun here can be finished or corrected from the command line, and each is written atomically.
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, jsonify

from vision.atomic import write_atomic

from .api import error, table_or_404, token_ok, unauthorized

teach_api = Blueprint("teach_api", __name__, url_prefix="/api")


def data_dir() -> Path:
    if current_app.config.get("TEACH_DIR"):
        return Path(current_app.config["TEACH_DIR"])
    store = current_app.extensions["tableref"].store
    return Path(getattr(store, "path", "data/tableref.sqlite3")).parent


def _deck(table):
    from referee import get_rules, load_deck
    return load_deck(get_rules(table.setup["rules"]).deck_id)


def _progress(deck) -> dict:
    folder = data_dir() / "teach" / deck.id
    photos = {c: len(_photos(folder / c)) for c in deck.cards}
    done = [c for c, n in photos.items() if n]
    nxt = next((c for c in deck.cards if not photos[c]), None)
    return {"deck": deck.id, "total": len(deck.cards), "done": len(done), "next": nxt,
            "photos": {c: n for c, n in photos.items() if n},
            "taught": (data_dir() / "taught" / f"{deck.id}.npz").is_file()}


def _photos(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.jpg"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0) if folder.is_dir() else []


@teach_api.get("/tables/<table_id>/teach")
def teach_status(table_id: str):
    table, problem = table_or_404(table_id)
    if problem:
        return problem
    return jsonify(_progress(_deck(table)))


def _host_card(table_id: str, card: str):
    """(table, its deck, None) for the host's request about `card`, or (None, None, the answer):
    404 for no such table, 401 without the host token, 404 for a card not of the table's deck."""
    table, problem = table_or_404(table_id)
    if problem:
        return None, None, problem
    if not token_ok():
        return None, None, unauthorized()
    deck = _deck(table)
    if card not in deck.cards:
        return None, None, error(404, f"{card!r} is no card of deck {deck.id}")
    return table, deck, None


@teach_api.post("/tables/<table_id>/teach/<card>")
def teach_take(table_id: str, card: str):
    table, deck, problem = _host_card(table_id, card)
    if problem:
        return problem
    pipeline = getattr(table.camera, "pipeline", None)
    frame = getattr(pipeline, "latest_frame", None)
    if frame is None:
        return error(409, "the camera has no picture yet: start the table's camera, then lay the card down")
    import cv2
    from vision.teach.faces import card_outlines
    quads = card_outlines(pipeline.recognizer, frame)
    if len(quads) != 1:
        why = "no card in view" if not quads else f"{len(quads)} cards in view"
        return error(409, f"{why}: lay {card} alone in front of the camera and take it again")
    folder = data_dir() / "teach" / deck.id / card
    folder.mkdir(parents=True, exist_ok=True)
    existing = _photos(folder)
    n = (int(existing[-1].stem) + 1) if existing and existing[-1].stem.isdigit() else len(existing) + 1
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    write_atomic(folder / f"{n}.jpg", lambda f: f.write(jpeg.tobytes()))
    out = _progress(deck)
    out.update(card=card, photo=n, polygon=quads[0].polygon())
    return jsonify(out)


@teach_api.delete("/tables/<table_id>/teach/<card>")
def teach_retake(table_id: str, card: str):
    _, deck, problem = _host_card(table_id, card)
    if problem:
        return problem
    photos = _photos(data_dir() / "teach" / deck.id / card)
    if photos:
        photos[-1].unlink()
    return jsonify(_progress(deck))


@teach_api.post("/tables/<table_id>/teach-finish")
def teach_finish(table_id: str):
    table, problem = table_or_404(table_id)
    if problem:
        return problem
    if not token_ok():
        return unauthorized()
    deck = _deck(table)
    from vision.recognizer import Recognizer
    from vision.teach.file import save
    from vision.teach.teach import TeachError, teach_folder
    try:
        td, report = teach_folder(Recognizer(deck.id, text=False), data_dir() / "teach" / deck.id)
    except TeachError as e:
        return error(409, f"{e}; nothing written")
    save(td, data_dir() / "taught" / f"{deck.id}.npz")
    return jsonify(report.as_json())

