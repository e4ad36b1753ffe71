"""The Flask app factory: `create_app(config)` wires the table registry, the camera feeds and the
two blueprints (the JSON API and the pages) together.

config keys (all optional):
  DATA_DIR      folder of the event store (tableref.sqlite3 inside); default ./data
  STORE         an EventStore to use instead of DATA_DIR (tests, other databases)
  HOST_TOKEN    the token that guards every change; without one, nothing can be changed
  PUBLIC_URL    the address phones use to reach the server (links and QR codes); default: the
                address of the request
  CAMERAS       {table id: camera source} overriding the source in a table's setup
  CAMERA_SPEED  how fast a video file source plays as a live camera (1.0: its own speed)
  HEARTBEAT_S   seconds between SSE heartbeat comments (15)
  TOKEN_GUESSES keyword arguments of web.guesses.GuessLimiter (free, longest): how wrong host
                tokens are slowed per client address; default 10 free, then 1 s doubling to 60 s
  LIMITS        a web.tables.ServerLimits (tables per server, players per table, name and id
                lengths); default: ServerLimits()
"""
from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask

from referee.rules import get_rules
from referee.store import SQLiteEventStore

from .tables import ServerLimits, TableRegistry

log = logging.getLogger("tableref.web")

MAX_BODY = 64 * 1024     # one event is a few hundred bytes; anything this large is not one


def create_app(config: dict | None = None) -> Flask:
    config = dict(config or {})
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(HEARTBEAT_S=15.0, HOST_TOKEN=None, PUBLIC_URL=None, CAMERAS={},
                      MAX_CONTENT_LENGTH=MAX_BODY, JSON_SORT_KEYS=False)
    app.config.update(config)
    store = config.get("STORE")
    if store is None:
        data = Path(config.get("DATA_DIR") or "data")
        store = SQLiteEventStore(data / "tableref.sqlite3")
    registry = TableRegistry(store, config.get("LIMITS") or ServerLimits())
    app.extensions["tableref"] = registry
    from .guesses import GuessLimiter
    app.extensions["tableref.guesses"] = GuessLimiter(**app.config.get("TOKEN_GUESSES", {}))

    registry.on_new_table = lambda table: start_camera(app, table)
    for table in registry.tables.values():
        start_camera(app, table)

    from .api import api
    from .pages import pages
    from .replay import replay
    app.register_blueprint(api)
    app.register_blueprint(pages)
    app.register_blueprint(replay)
    from .teach_api import teach_api      # issue 15: teach a deck from the table's camera
    from .teach_page import teach_page
    app.register_blueprint(teach_api)
    app.register_blueprint(teach_page)
    return app


def registry_of(app: Flask) -> TableRegistry:
    return app.extensions["tableref"]


def start_camera(app: Flask, table) -> None:
    """Starts the camera feed of a table when its setup or the server's config names a source."""
    source = app.config["CAMERAS"].get(table.id) or table.setup.get("camera")
    if not source or table.camera is not None:
        return
    from .camera import CameraFeed
    try:
        deck = get_rules(table.setup["rules"]).deck_id
    except Exception:       # a setup always names known rules once accepted; be safe anyway
        deck = "uno"
    registry = registry_of(app)
    table.camera = CameraFeed(table.id, str(source), deck, registry.submit,
                              lambda: registry.get(table.id).game.to_dict()["current_player"],
                              speed=app.config.get("CAMERA_SPEED", 1.0),
                              seats=lambda: registry.get(table.id).seat_map(),
                              names=lambda: registry.get(table.id).player_names(),
                              camera_play=registry.camera_play, on_reveal=registry.reveal_seen,
                              note_hand=registry.note_hand,
                              taught=(app.config.get("TAUGHT") or {}).get(deck)).start()
