"""The JSON API (docs/api.md): reading is open, every change needs the host token.

Every answer of /api/ is JSON, errors included (`{"error": "..."}` with a 4xx code), and no
traceback ever reaches a client.
"""
from __future__ import annotations

import hmac
import io
import json
import logging
import re

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from referee import MalformedEvent, all_rules, load_deck
from referee.store import StoreError

from .redact import redact
from .tables import Stopping, TooMany, UnknownTable

log = logging.getLogger("tableref.web")
api = Blueprint("api", __name__, url_prefix="/api")


def registry():
    return current_app.extensions["tableref"]


def error(status: int, message: str, **headers) -> Response:
    response = jsonify(error=message)
    response.status_code = status
    response.headers.update(headers)
    return response


def table_or_404(table_id: str):
    try:
        return registry().get(table_id), None
    except UnknownTable as e:
        return None, error(404, str(e))


# -- the host token ---------------------------------------------------------------------------------
def guesses():
    return current_app.extensions["tableref.guesses"]


def token_ok() -> bool:
    """True for the right host token. A wrong one counts as a guess of this client address
    (web/guesses.py); while the address is blocked, its token is not even compared."""
    expected = current_app.config.get("HOST_TOKEN")
    header = request.headers.get("Authorization", "")
    scheme, _, given = header.partition(" ")
    if not header:
        return False                     # a viewer: no guess
    address = request.remote_addr or "?"
    limiter = guesses()
    if limiter.wait(address) > 0:
        return False
    # Constant time, so the token cannot be guessed a character at a time from response times.
    if expected and scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), expected.encode()):
        limiter.right(address)
        return True
    limiter.wrong(address)
    return False


def unauthorized() -> Response:
    wait = guesses().wait(request.remote_addr or "?") if request.headers.get("Authorization") else 0
    if wait > 0:
        seconds = max(1, int(wait + 0.999))
        return error(429, f"too many wrong host tokens from your address: wait {seconds} s before trying again "
                          f"(Retry-After); nothing changed", **{"Retry-After": str(seconds)})
    return error(401, "this needs the host token: send it as 'Authorization: Bearer <token>'",
                 **{"WWW-Authenticate": 'Bearer realm="tableref"'})


def host_change(table_id: str, body: bool = True):
    """What a host's change to a table starts from: (the table, its JSON body or None, None), or
    (None, None, the error Response), checked in this order: the host token (401, or 429 while the
    address is blocked), the body when the change has one (415, 400), the table (404)."""
    if not token_ok():
        return None, None, unauthorized()
    data = None
    if body:
        data, err = parse_json_body()
        if err:
            return None, None, err
    table, err = table_or_404(table_id)
    return table, data, err


def parse_json_body():
    """The request body as JSON, or an error Response."""
    if request.mimetype != "application/json":
        return None, error(415, f"send the event as JSON with 'Content-Type: application/json', "
                                f"not {request.mimetype or 'no content type'!r}")
    raw = request.get_data(cache=False)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, error(400, "malformed JSON: the body is not UTF-8 text")

    def no_constants(name):
        raise ValueError(f"{name} is not allowed in JSON")
    try:
        return json.loads(text, parse_constant=no_constants), None
    except (ValueError, RecursionError) as e:
        return None, error(400, f"malformed JSON: {e}")


# -- reading ----------------------------------------------------------------------------------------
@api.get("/rules")
def rules():
    return jsonify(rules=[r.describe() for r in all_rules().values()])


@api.get("/decks/<deck_id>")
def deck(deck_id: str):
    try:
        d = load_deck(deck_id)
    except KeyError as e:
        return error(404, e.args[0])
    cards = [{"id": c.id, "count": d.counts[c.id], "color": c.color, "symbol": c.symbol, "kind": c.kind,
              "points": c.points, **c.attrs} for c in d.cards.values()]
    return jsonify(deck=d.id, name=d.name, size=d.size, colors=list(d.colors), cards=cards)


def describe_table(table) -> dict:
    state = table.game.to_dict()
    setup = table.setup
    rules_id = setup.get("rules")
    deck_id = all_rules()[rules_id].deck_id if rules_id in all_rules() else None
    return {"id": table.id, "rules": rules_id, "deck": deck_id,
            "players": [p["name"] for p in state["players"]], "phase": state["phase"],
            "event_count": state["event_count"], "camera": table.camera is not None,
            "problems": list(table.problems),
            "links": {"phone": f"/t/{table.id}", "overlay": f"/t/{table.id}/overlay",
                      "camera": f"/t/{table.id}/camera", "stream": f"/api/tables/{table.id}/stream"}}


@api.get("/tables")
def tables():
    reg = registry()
    return jsonify(tables=[describe_table(reg.get(t)) for t in reg.ids()])


@api.get("/tables/<table_id>")
def table_info(table_id: str):
    table, err = table_or_404(table_id)
    return err or jsonify(describe_table(table))


@api.get("/tables/<table_id>/state")
def state(table_id: str):
    table, err = table_or_404(table_id)
    if err:
        return err
    with table.lock:
        return jsonify(table.game.to_dict())


@api.get("/tables/<table_id>/events")
def events(table_id: str):
    table, err = table_or_404(table_id)
    if err:
        return err
    with table.lock:
        events = list(table.stored)
    # camera credentials in a setup stay with the host (who needs them to start the next game)
    return jsonify(events=events if token_ok() else redact(events))


@api.get("/tables/<table_id>/timeline")
def timeline(table_id: str):
    """Every event of the game in force, in order, with the referee's words and whose it was."""
    table, err = table_or_404(table_id)
    if err:
        return err
    with table.lock:
        game = table.game
        names = [p["name"] for p in game.to_dict()["players"]]
        entries = game.recent(len(game.log))
    for e in entries:
        who = e["event"].get("player", e["event"].get("caller"))
        e["player"] = (names[who] if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(names)
                       else who if isinstance(who, str) else None)
    return jsonify(table=table_id, timeline=redact(entries))


@api.get("/auth")
def auth():
    """Lets the host page check its token without changing anything."""
    return jsonify(host=True) if token_ok() else unauthorized()


# -- the one way to change a table -------------------------------------------------------------------
@api.post("/tables/<table_id>/events")
def post_event(table_id: str):
    if not token_ok():
        return unauthorized()
    event, err = parse_json_body()
    if err:
        return err
    if isinstance(event, dict) and event.get("type") == "setup" and event.get("camera") is not None:
        problem = web_camera_problem(event["camera"])
        if problem:
            return error(400, f"not an event: {problem}")
    try:
        result = registry().submit(table_id, event)
    except MalformedEvent as e:
        return error(400, f"not an event: {e}")
    except UnknownTable as e:
        return error(404, str(e))
    except TooMany as e:
        return error(409, str(e))
    except StoreError as e:
        log.error("table %s: %s", table_id, e)
        return error(503, f"the event was not stored, so nothing changed; try again ({e})")
    except Stopping as e:
        return error(503, f"{e}; nothing changed")
    response = jsonify(result.body())
    if result.refused:
        response.status_code = 409      # not judged: stale (the table moved on) or late (waited too long)
    return response


WEB_CAMERA = re.compile(r"^(?:\d{1,2}|(?:https?|rtsp)://[^\s/?#]+\S*)$", re.IGNORECASE)


def web_camera_problem(source) -> str | None:
    """Why a camera source named over HTTP is refused: from the web only a camera index or an
    http(s):// or rtsp:// address; a video file, a device path or another scheme (file:, ftp:, ...)
    only from the command line, where the person at the laptop names it (`serve --camera`)."""
    if isinstance(source, str) and WEB_CAMERA.match(source.strip()):
        return None
    return ("setup.camera: from the web a camera is a camera index (0, 1, ...) or an http://, https:// or "
            "rtsp:// address; video files and other sources only from the command line (tableref serve --camera)")


# -- seats: where each player sits on the camera's picture (web/seats.py) ---------------------------
def seats_body(table) -> dict:
    marked = table.seat_map()
    note = None
    if table.seats and not marked:
        note = "the seats were marked for other players: mark them again for this game"
    elif not table.seats:
        note = "no seats marked: camera plays go to the player whose turn it is"
    from .seats import suggest_seats
    names = table.player_names()
    suggested = None if marked else suggest_seats(table.hands_seen, names)
    return {"seats": table.seats, "marked": bool(marked), "players": names, "note": note, "suggested": suggested}


@api.get("/tables/<table_id>/seats")
def get_seats(table_id: str):
    table, err = table_or_404(table_id)
    return err or jsonify(seats_body(table))


@api.put("/tables/<table_id>/seats")
def put_seats(table_id: str):
    from .seats import BadSeats
    table, body, err = host_change(table_id)
    if err:
        return err
    try:
        registry().set_seats(table_id, body)
    except BadSeats as e:
        return error(400, f"{e}; the seats did not change")
    except StoreError as e:
        return error(503, f"the seats were not stored, so nothing changed; try again ({e})")
    return jsonify(seats_body(table))


@api.delete("/tables/<table_id>/seats")
def delete_seats(table_id: str):
    table, _, err = host_change(table_id, body=False)
    if err:
        return err
    try:
        registry().set_seats(table_id, None)
    except StoreError as e:
        return error(503, f"the seats were not cleared; try again ({e})")
    return jsonify(seats_body(table))


@api.get("/tables/<table_id>/who-played")
def who_played(table_id: str):
    table, err = table_or_404(table_id)
    if err:
        return err
    with table.lock:
        return jsonify(questions=table.questions(), waiting=len(table.pending))


@api.post("/tables/<table_id>/who-played")
def answer_who_played(table_id: str):
    from .tables import UnknownQuestion
    table, body, err = host_change(table_id)
    if err:
        return err
    if not isinstance(body, dict) or type(body.get("question")) is not int or "player" not in body:
        return error(400, 'send {"question": ID, "player": NAME or seat index, or null for "nobody: not a play"}; '
                          'nothing changed')
    try:
        results = registry().answer(table_id, body["question"], body["player"])
    except UnknownQuestion as e:
        return error(409, f"{e}; nothing changed")
    except MalformedEvent as e:
        return error(400, f"{e}; nothing changed")
    except StoreError as e:
        return error(503, f"the answer was not stored, so nothing changed; try again ({e})")
    except Stopping as e:
        return error(503, f"{e}; nothing changed")
    with table.lock:
        return jsonify(verdicts=[r.verdict.to_dict() for r in results], state=table.game.to_dict(),
                       questions=table.questions())


# -- reading a shown hand (web/reveal.py) --------------------------------------------------------------
@api.get("/tables/<table_id>/reveal")
def get_reveal(table_id: str):
    table, err = table_or_404(table_id)
    return err or jsonify(reveal=table.reveal)


@api.post("/tables/<table_id>/reveal")
def start_reveal(table_id: str):
    from .tables import NoReveal
    table, body, err = host_change(table_id)
    if err:
        return err
    if not isinstance(body, dict) or "player" not in body:
        return error(400, 'send {"player": NAME or seat index}: whose hand is shown; nothing changed')
    try:
        return jsonify(reveal=registry().start_reveal(table_id, body["player"]))
    except NoReveal as e:
        return error(409, f"{e}; nothing changed")
    except MalformedEvent as e:
        return error(400, f"{e}; nothing changed")


@api.post("/tables/<table_id>/reveal/confirm")
def confirm_reveal(table_id: str):
    from .tables import NoReveal
    table, body, err = host_change(table_id)
    if err:
        return err
    cards = body.get("cards") if isinstance(body, dict) else None
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return error(400, 'send {"cards": [card ids]}: the hand as confirmed; nothing changed')
    try:
        result = registry().end_reveal(table_id, cards)
    except NoReveal as e:
        return error(409, f"{e}; nothing changed")
    except MalformedEvent as e:
        return error(400, f"not an event: {e}; nothing changed")
    except StoreError as e:
        return error(503, f"the reveal was not stored, so nothing changed; try again ({e})")
    except Stopping as e:
        return error(503, f"{e}; nothing changed")
    return jsonify(result.body() | {"reveal": table.reveal})


@api.delete("/tables/<table_id>/reveal")
def stop_reveal(table_id: str):
    from .tables import NoReveal
    _, _, err = host_change(table_id, body=False)
    if err:
        return err
    try:
        registry().end_reveal(table_id)
    except NoReveal as e:
        return error(409, f"{e}; nothing changed")
    return jsonify(reveal=None)


# -- live push ----------------------------------------------------------------------------------------
@api.get("/tables/<table_id>/stream")
def stream(table_id: str):
    table, err = table_or_404(table_id)
    if err:
        return err
    reg = registry()
    heartbeat = float(current_app.config["HEARTBEAT_S"])

    def events():
        reg.stream_opened(+1)
        try:
            # The whole state on connect, so a client that reconnects (its browser sends
            # Last-Event-ID, our `id:` being the event count) is whole again at once.
            version, message, event_id = reg.latest(table)
            yield f"retry: 1000\nid: {event_id}\ndata: {message}\n\n"
            while not reg.stopping.is_set():
                pushed = reg.wait(table, version, heartbeat)
                if reg.stopping.is_set():
                    return          # the server stops: the stream ends cleanly
                if pushed is None:
                    yield ": heartbeat\n\n"
                    continue
                version, message, event_id = pushed
                yield f"id: {event_id}\ndata: {message}\n\n"
        finally:
            reg.stream_opened(-1)

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# -- camera --------------------------------------------------------------------------------------------
@api.get("/tables/<table_id>/camera")
def camera_status(table_id: str):
    table, err = table_or_404(table_id)
    if err:
        return err
    if table.camera is None:
        return jsonify(state="none", message="this table has no camera source", source=None)
    return jsonify(redact(table.camera.status()))


@api.get("/tables/<table_id>/camera.mjpg")
def camera_mjpeg(table_id: str):
    table, err = table_or_404(table_id)
    if err:
        return err
    if table.camera is None:
        return error(404, "this table has no camera source")
    return Response(table.camera.frames(registry().stopping), mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# -- joining -------------------------------------------------------------------------------------------
def join_url(table_id: str) -> str:
    base = (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")
    return f"{base}/t/{table_id}"


@api.get("/tables/<table_id>/qr.svg")
def qr(table_id: str):
    """A QR code of the viewer's link (never the host's: it carries no token)."""
    import segno
    table, err = table_or_404(table_id)
    if err:
        return err
    out = io.BytesIO()
    segno.make(join_url(table_id), error="m").save(out, kind="svg", scale=8, border=2, xmldecl=False)
    return Response(out.getvalue(), mimetype="image/svg+xml")


# -- errors as JSON -------------------------------------------------------------------------------------
@api.app_errorhandler(HTTPException)
def http_error(e: HTTPException):
    if not request.path.startswith("/api/"):
        return e
    messages = {404: f"no such endpoint: {request.method} {request.path} (see docs/api.md)",
                405: f"{request.method} is not allowed on {request.path}",
                413: f"the body is too large (at most {current_app.config['MAX_CONTENT_LENGTH']} bytes)"}
    return error(e.code or 500, messages.get(e.code, e.description or e.name))


@api.app_errorhandler(Exception)
def server_error(e: Exception):
    if isinstance(e, HTTPException):
        return http_error(e)
    log.exception("unexpected error on %s %s", request.method, request.path)
    if request.path.startswith("/api/"):
        return error(500, "the server failed on this request; nothing was changed")
    return Response("The server failed on this request.", status=500, mimetype="text/plain")
