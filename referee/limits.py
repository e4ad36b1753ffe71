"""Bounds on the values of an event, checked before it is judged or stored (issue 17).

The envelope check (referee/events.py) says which fields an event has and of what kind; this
says how large they may be. An event that passes is one the store can keep and every later
replay and every viewer can read: finite numbers only (JSON has no NaN or Infinity, and `1e999`
parses to infinity), whole numbers within ±2**53 (what a browser's JSON keeps exactly), counts
within what a deck can hold, nesting, strings and lists bounded, names printable.

`Limits` carries the bounds a server may raise from its command line (players per table, name
length); the rest are fixed, being far beyond any real game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import MalformedEvent

MAX_DEPTH = 6            # an event is an object whose fields may hold an object or list (options)
MAX_STRING = 500         # a card id, a colour, a name, a cheating reason
MAX_LIST = 300           # a revealed hand; the biggest deck has 112 cards
MAX_KEYS = 64            # fields of one object
MAX_KEY = 64             # length of a field's name
MAX_INT = 2 ** 53        # what JavaScript's numbers hold exactly
MAX_COUNT = 500          # cards drawn or given at once, seat indices


@dataclass(frozen=True)
class Limits:
    max_players: int = 20
    max_name: int = 40


DEFAULT = Limits()


def _walk(value, where: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise MalformedEvent(f"{where} is nested more than {MAX_DEPTH} levels deep")
    t = type(value)
    if t is str:
        if len(value) > MAX_STRING:
            raise MalformedEvent(f"{where} is {len(value)} characters long (at most {MAX_STRING})")
    elif t is bool or value is None:
        pass
    elif t is int:
        if not -MAX_INT <= value <= MAX_INT:
            raise MalformedEvent(f"{where} is out of range (whole numbers are at most 2**53 in size)")
    elif t is float:
        if not math.isfinite(value):
            raise MalformedEvent(f"{where} is not a finite number (NaN, Infinity and numbers like 1e999 are refused)")
        if abs(value) > MAX_INT:
            raise MalformedEvent(f"{where} is out of range (numbers are at most 2**53 in size)")
    elif t is list:
        if len(value) > MAX_LIST:
            raise MalformedEvent(f"{where} has {len(value)} items (at most {MAX_LIST})")
        for i, item in enumerate(value):
            _walk(item, f"{where}[{i}]", depth + 1)
    elif t is dict:
        if len(value) > MAX_KEYS:
            raise MalformedEvent(f"{where} has {len(value)} fields (at most {MAX_KEYS})")
        for key, item in value.items():
            if type(key) is not str or not 1 <= len(key) <= MAX_KEY or not key.isprintable():
                raise MalformedEvent(f"{where} has a field name that is not 1 to {MAX_KEY} printable characters")
            _walk(item, f"{where}.{key}", depth + 1)
    else:
        raise MalformedEvent(f"{where} is not a JSON value")


def check_name(name, where: str, limits: Limits = DEFAULT) -> None:
    if not isinstance(name, str) or not name.strip():
        raise MalformedEvent(f"{where} must be a non-empty name")
    if len(name) > limits.max_name:
        raise MalformedEvent(f"{where} is {len(name)} characters long (names are at most {limits.max_name}; "
                             f"the server's --max-name-length raises it)")
    if not name.isprintable():
        raise MalformedEvent(f"{where} must be printable characters only (no control characters or line breaks)")


def check_values(event: dict, limits: Limits = DEFAULT) -> dict:
    """Raises MalformedEvent, with the field and the bound in words, unless every value of the
    (envelope-checked) event is within bounds; returns the event unchanged."""
    kind = event.get("type", "event")
    _walk(event, kind, 0)
    for name in ("count", "dealer"):
        value = event.get(name)
        if type(value) is int and not 0 <= value <= MAX_COUNT:
            raise MalformedEvent(f"{kind}.{name} must be between 0 and {MAX_COUNT}")
    for name in ("player", "caller", "target"):
        value = event.get(name)
        if type(value) is int and not -MAX_COUNT <= value <= MAX_COUNT:
            raise MalformedEvent(f"{kind}.{name} must be a seat index between 0 and {MAX_COUNT}")
        if isinstance(value, str) and (len(value) > limits.max_name or not value.isprintable()):
            raise MalformedEvent(f"{kind}.{name} is not a player's name (at most {limits.max_name} printable characters)")
    if kind == "setup":
        players = event.get("players")
        if isinstance(players, list):
            if len(players) > limits.max_players:
                raise MalformedEvent(f"setup.players names {len(players)} players (at most {limits.max_players} a "
                                     f"table; the server's --max-players raises it)")
            for i, name in enumerate(players):
                check_name(name, f"setup.players[{i}]", limits)
    return event
