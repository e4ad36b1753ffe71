"""Teach a deck from the table's own camera (issue 15, the host page's "Teach this deck"), as a
JSON API: the host lays down the next card, the server takes it from the camera's latest frame,
stores the photo in the data folder, and at the end teaches the deck from those photos.

    GET    /api/tables/<id>/teach            {deck, total, done, next, photos: {card: n}, back, taught}
                                             (<card> below may be "back": the deck's back, a card face down)
    GET    /api/tables/<id>/teach-view       the camera's view for taking on settle (host token):
                                             {camera, frames, rest, still_s, settled, settle_s}
    POST   /api/tables/<id>/teach/<card>     take the camera's card for <card> (host token): 200 with
                                             {card, photos, done, total, next, polygon}; 409 with `why`
                                             when the camera has no picture, no card or several in view;
                                             with {"rest": r} (the page's auto mode) only from that rest,
                                             settled, and not the card of the last photo lying there still
    GET    /api/tables/<id>/teach/<card>/face.jpg   the rectified card of <card>'s last photo (host token)
    DELETE /api/tables/<id>/teach/<card>     retake: drop <card>'s last photo (host token)
    POST   /api/tables/<id>/teach-finish     teach DATA/teach/DECK/ into DATA/taught/DECK.npz (host token):
                                             the report, and "cameras": how many of the deck's table
                                             cameras read with it from now on (no restart)

Photos live in DATA/teach/DECK/CARD/N.jpg, the layout `tableref teach --from` reads, so a teach
begun here can be finished or corrected from the command line, and each is written atomically.

Taking on settle is driven by the page: it polls teach-view and posts a take once per rest that
has been still SETTLE_S (vision/track/still.py numbers the rests). The server keeps no loop, so a
closed page takes nothing more; it remembers the last take (in memory) to show its face and to
refuse the same card, still lying there, as the next card's photo, and each poll holds the table's
camera off the game for HOLD_S (the cards laid to teach are no plays), which a closed page lets lapse.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from flask import Blueprint, Response, current_app, jsonify, request

from vision.atomic import write_atomic
from vision.teach.deck import BACK

from .api import error, parse_json_body, table_or_404, token_ok, unauthorized

log = logging.getLogger(__name__)
teach_api = Blueprint("teach_api", __name__, url_prefix="/api")

SETTLE_S = 0.5        # the view still this long (seconds of the camera's clock): the card rests
SAME_CARD = 0.02      # under this share of the outline changed since the last take: the same card
HOLD_S = 3.0          # the camera reads no plays this long after the page's last look (page polls ~7/s)
_lock = threading.Lock()     # one take or retake at a time: photo numbers and the memory stay whole


@dataclass
class LastTake:
    """The last photo taken at a table, kept in memory for its preview and the same-card check."""
    card: str
    photo: int
    frame: np.ndarray
    quad: np.ndarray      # 4x2, the card's outline in `frame`


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
    back = len(_photos(folder / BACK))
    return {"deck": deck.id, "total": len(deck.cards), "done": len(done), "next": nxt,
            "photos": {c: n for c, n in dict(photos, **{BACK: back}).items() if n}, "back": back,
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
    if card not in deck.cards and card != BACK:
        return None, None, error(404, f"{card!r} is no card of deck {deck.id} (nor {BACK!r}, its back)")
    return table, deck, None


def _refused(why: str, message: str) -> Response:
    """A take refused for a reason the page acts on (`why`) and a person reads (`error`)."""
    response = jsonify(error=message, why=why)
    response.status_code = 409
    return response


def _pipeline(table):
    return getattr(table.camera, "pipeline", None)


def _last_takes() -> dict[str, LastTake]:
    return current_app.extensions.setdefault("tableref.teach", {})


def _take_request():
    """The rest an automatic take is for ({"rest": n}), None for a take by hand (no body), or an
    error Response."""
    if not request.get_data(cache=True):
        return None, None
    body, problem = parse_json_body()
    if problem:
        return None, problem
    rest = body.get("rest") if isinstance(body, dict) else None
    if not isinstance(body, dict) or set(body) - {"rest"} or type(rest) is not int or rest < 1:
        return None, error(400, 'send no body (take now) or {"rest": n} with n the rest number of teach-view')
    return rest, None


def _frame_for(pipeline, rest: int | None):
    """The frame to take: the latest one by hand; on auto, the frame of rest `rest` once it has
    settled (never a frame of a later rest, nor one from while the card was still moving)."""
    if rest is None:
        frame = getattr(pipeline, "latest_frame", None)
    else:
        view = getattr(getattr(pipeline, "stillness", None), "view", None)
        if view is not None and view.image is not None and (view.rest != rest or view.still_s < SETTLE_S):
            return None, _refused("moved", "the view moved since it settled: waiting for it to rest again")
        frame = None if view is None else view.image
    if frame is None:
        return None, _refused("no_picture", "the camera has no picture yet: start the table's camera, "
                                            "then lay the card down")
    return frame, None


def _same_card(last: LastTake | None, frame: np.ndarray, quad: np.ndarray) -> bool:
    """True when the card now in view is the last photo's, lying there still: its outline's
    pixels barely changed since that photo (the pipeline's own change mask)."""
    if last is None or last.frame.shape != frame.shape:
        return False
    import cv2
    from vision.track.pipeline import changed_mask
    inside = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.int32(np.round(quad)), 1)
    changed = changed_mask(last.frame, frame) > 0
    return float(changed[inside > 0].mean()) < SAME_CARD if inside.any() else False


def _hold(table) -> None:
    """While the page teaches, the cards laid are no plays of the table's game (web/camera.py)."""
    hold = getattr(table.camera, "hold_for_teaching", None)
    if callable(hold):
        hold(HOLD_S)


def _store(deck_id: str, card: str, frame: np.ndarray) -> int:
    """Writes the photo as DATA/teach/DECK/CARD/N.jpg (whole or not at all); returns N."""
    import cv2
    folder = data_dir() / "teach" / deck_id / card
    existing = _photos(folder)
    n = (int(existing[-1].stem) + 1) if existing and existing[-1].stem.isdigit() else len(existing) + 1
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise ValueError("the camera's picture could not be encoded")
    write_atomic(folder / f"{n}.jpg", lambda f: f.write(jpeg.tobytes()))
    return n


@teach_api.get("/tables/<table_id>/teach-view")
def teach_view(table_id: str):
    """What the page's auto mode polls: the camera's frame count, its rest and how long it has been
    still; `settled` once that reaches SETTLE_S."""
    table, problem = table_or_404(table_id)
    if problem:
        return problem
    if not token_ok():
        return unauthorized()
    _hold(table)
    view = getattr(getattr(_pipeline(table), "stillness", None), "view", None)
    if view is None or view.image is None:
        return jsonify(camera=False, frames=0, rest=0, still_s=0.0, settled=False, settle_s=SETTLE_S)
    return jsonify(camera=True, frames=view.frames, rest=view.rest, still_s=round(view.still_s, 3),
                   settled=view.still_s >= SETTLE_S, settle_s=SETTLE_S)


@teach_api.post("/tables/<table_id>/teach/<card>")
def teach_take(table_id: str, card: str):
    table, deck, problem = _host_card(table_id, card)
    if problem:
        return problem
    rest, problem = _take_request()
    if problem:
        return problem
    _hold(table)
    pipeline = _pipeline(table)
    frame, problem = _frame_for(pipeline, rest)
    if problem:
        return problem
    from vision.teach.faces import card_outlines
    what = "a card face down" if card == BACK else card      # what the host is asked to lay down
    quads = card_outlines(pipeline.recognizer, frame)
    first = not any(_photos(d) for d in (data_dir() / "teach" / deck.id).glob("*") if d.is_dir())
    if not quads or first:
        quads = _with_learned_border(table_id, deck, pipeline.recognizer, frame, quads, first)
    if len(quads) != 1:
        why = "no card in view" if not quads else f"{len(quads)} cards in view"
        return _refused("no_card" if not quads else "several",
                        f"{why}: lay {what} alone in front of the camera" + ("" if rest else " and take it again"))
    with _lock:
        last = _last_takes().get(table_id)
        if rest is not None and _same_card(last, frame, quads[0].pts):
            return _refused("same", f"{last.card} from the last photo is still there: lift it and lay down {what}")
        n = _store(deck.id, card, frame)
        _last_takes()[table_id] = LastTake(card, n, frame, np.float32(quads[0].pts))
    out = _progress(deck)
    out.update(card=card, photo=n, polygon=quads[0].polygon(), rest=rest)
    return jsonify(out)


def _with_learned_border(table_id: str, deck, rec, frame: np.ndarray, quads: list, first: bool) -> list:
    """The cards in `frame` (`quads`: those found with the border looked for so far) once the deck's
    border is learned: a deck edged in black or a colour (vision/locate/border.py) is learned from
    this frame and the last photos taken, and the table's recognizer looks for that border from
    then on (teach-finish learns it again from every photo); so are faces white inside as well as
    round (a deck drawn on white card stock, faces.learn_white_faces). Tried at the deck's first photo (a
    white-margin look may find a shape on such a card, the white oval, and call it one) and when
    no card is found, then at most once every LEARN_EVERY_S seconds at a table (an empty table at
    rest is no card either, and learning takes a second or two)."""
    import time
    import cv2
    from vision.teach.faces import card_outlines, learn_look
    now = time.monotonic()
    tried = current_app.extensions.setdefault("tableref_border_tried", {})
    if not first and now - tried.get(table_id, -LEARN_EVERY_S) < LEARN_EVERY_S:
        return quads
    tried[table_id] = now
    photos = sorted((p for d in (data_dir() / "teach" / deck.id).glob("*") if d.is_dir() for p in _photos(d)),
                    key=lambda p: p.stat().st_mtime)[-(LEARN_FROM_PHOTOS - 1):]
    images = [frame] + [img for img in (cv2.imread(str(p)) for p in photos) if img is not None]
    # from the look as built in, a border and white faces are both tried, and where both are learned
    # the look that finds the cards better wins, as teach-finish chooses (a deck drawn in thin ink on
    # white card finds the dark table round some cards as a "border" too). So also where a look
    # learned earlier finds no card here: learned from one photo, it may be wrong (that inked deck's
    # first photo alone passes for a deck edged in the table's colour, which then found none of its
    # other cards), and the photos taken since tell better
    old = rec.look
    if rec.border is not None or rec.white_faces:
        _built_in(rec)
    try:
        border, white = learn_look(rec, images, least=1)
    finally:
        rec.set_look(old)
    if border is not None:
        _built_in(rec)
        rec.set_border(border)
        return card_outlines(rec, frame)
    if white and not quads:
        # a deck drawn on white card stock: white inside as well as round (teach-finish learns it
        # again from every photo)
        _built_in(rec)
        rec.set_white_faces(True)
        return card_outlines(rec, frame)
    if rec.border is not None and not quads:
        # a border learned earlier (say from a dark object on an empty table) may be wrong: white
        # again, when white finds this frame's card
        old = rec.border
        rec.set_border(None)
        found = card_outlines(rec, frame)
        if len(found) == 1:
            return found
        rec.set_border(old)
    return quads


def _built_in(rec) -> None:
    """The recognizer looking for cards as built in: a white margin, faces not white inside."""
    rec.set_white_faces(False)
    rec.set_border(None)


LEARN_EVERY_S = 10.0     # a border is learned at a take at most this often at a table
LEARN_FROM_PHOTOS = 8    # ... from the frame and the photos taken last


@teach_api.get("/tables/<table_id>/teach/<card>/face.jpg")
def teach_face(table_id: str, card: str):
    """The card of <card>'s last photo, rectified as the recognizer sees it: the page shows it
    after a take, so the host can judge it and retake."""
    table, deck, problem = _host_card(table_id, card)
    if problem:
        return problem
    photos = _photos(data_dir() / "teach" / deck.id / card)
    if not photos:
        return error(404, f"{card} has no photo yet")
    face = _face_jpeg(_last_takes().get(table_id), _pipeline(table), card, photos[-1])
    return Response(face, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _face_jpeg(last: LastTake | None, pipeline, card: str, photo: Path) -> bytes:
    """The rectified card of a stored photo: from the last take's outline when it is this photo,
    else found again; the whole photo when no single card is found in it any more."""
    import cv2
    from vision.rectify import warp_card
    if last is not None and last.card == card and photo.stem == str(last.photo):
        image = warp_card(last.frame, last.quad)
    else:
        image = cv2.imread(str(photo))
        if image is None:
            return photo.read_bytes()
        from vision.teach.faces import card_outlines
        quads = card_outlines(pipeline.recognizer, image) if pipeline is not None else []
        if len(quads) != 1:
            return photo.read_bytes()
        image = warp_card(image, quads[0].pts)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return jpeg.tobytes() if ok else photo.read_bytes()


@teach_api.delete("/tables/<table_id>/teach/<card>")
def teach_retake(table_id: str, card: str):
    _, deck, problem = _host_card(table_id, card)
    if problem:
        return problem
    with _lock:
        photos = _photos(data_dir() / "teach" / deck.id / card)
        if photos:
            photos[-1].unlink()
            last = _last_takes().get(table_id)
            if last is not None and last.card == card and photos[-1].stem == str(last.photo):
                del _last_takes()[table_id]     # the card may lie there again for its retake
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
    path = data_dir() / "taught" / f"{deck.id}.npz"
    save(td, path)
    return jsonify({**report.as_json(), "cameras": _read_with(deck.id, str(path))})


def _read_with(deck_id: str, path: str) -> int:
    """The deck just taught, read at once by every table camera of that deck, and by the cameras
    started from now on (it takes the place of a --taught file named at start, until a restart):
    the number of cameras that switched."""
    from vision.teach.file import TaughtFileError
    taught = dict(current_app.config.get("TAUGHT") or {})
    taught[deck_id] = path
    current_app.config["TAUGHT"] = taught
    registry = current_app.extensions["tableref"]
    switched = 0
    for table_id in registry.ids():
        camera = getattr(registry.get(table_id), "camera", None)
        if camera is None or getattr(camera, "deck", None) != deck_id or not hasattr(camera, "use_taught"):
            continue
        try:
            camera.use_taught(path)
            switched += 1
        except TaughtFileError as e:     # written a moment ago; say so rather than fail the finish
            log.warning("camera of table %s cannot read with %s: %s", table_id, path, e)
    return switched

