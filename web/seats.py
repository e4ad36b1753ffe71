"""A table's seats: where each player sits on the camera's picture (docs/api.md, "Seats").

The host marks, for each player, the place on the picture's edge where that player's arm comes
into view. A body is checked whole before anything is stored, so a bad one changes nothing:

    {"seats": [{"player": "Ana", "x": 0.5, "y": 1.0}, ...]}

x and y are the tapped point as a share of the picture's width and height (0..1), near its edge;
every player of the game has exactly one seat; no two seats lie so close along the edge that a
hand could not be told between them. What is stored (and sent to phones and the camera) adds the
border position `edge` (vision/track/seats.py) and snaps the point onto the edge.
"""
from __future__ import annotations

import math

from vision.track.seats import (EDGE_BAND, MIN_APART, circular_mean, distance_to_edge, edge_distance, edge_point,
                                edge_position)

LEARN_PLAYS = 2        # plays of a player seen before the camera suggests their seat
LEARN_SPREAD = 0.3     # ... most of them (LEARN_SHARE) this close along the edge to where they cluster
LEARN_SHARE = 0.6


class BadSeats(ValueError):
    """A seats body that cannot be stored; the message says why in words."""


def _player_name(value, names: list[str]) -> str:
    if type(value) is int:
        if 0 <= value < len(names):
            return names[value]
        raise BadSeats(f"seat for player {value}: there is no player {value} (players are 0..{len(names) - 1}: "
                       f"{', '.join(names)})")
    if isinstance(value, str):
        hits = [n for n in names if n.casefold() == value.strip().casefold()]
        if len(hits) == 1:
            return hits[0]
        raise BadSeats(f"{value[:40]!r} does not play at this table (players: {', '.join(names)})")
    raise BadSeats("each seat's player is a name or a seat index")


def _coordinate(seat: dict, key: str, who: str) -> float:
    v = seat.get(key)
    if type(v) not in (int, float) or not math.isfinite(v):
        raise BadSeats(f"{who}'s seat needs {key} as a number from 0 to 1 (a share of the picture)")
    if not 0 <= v <= 1:
        raise BadSeats(f"{who}'s seat: {key} = {v:g} is outside the picture (0 to 1)")
    return float(v)


def check_seats(body, names: list[str]) -> list[dict]:
    """The seats to store for a game with these players, or BadSeats saying what is wrong."""
    if not names:
        raise BadSeats("the table has no game yet: start one, then mark where its players sit")
    if not isinstance(body, dict) or not isinstance(body.get("seats"), list):
        raise BadSeats('send {"seats": [{"player": NAME, "x": 0..1, "y": 0..1}, ...]}, one seat for each player')
    seats, seen = [], set()
    for seat in body["seats"]:
        if not isinstance(seat, dict):
            raise BadSeats("each seat is an object {player, x, y}")
        who = _player_name(seat.get("player"), names)
        if who in seen:
            raise BadSeats(f"{who} has two seats; give each player one")
        seen.add(who)
        x, y = _coordinate(seat, "x", who), _coordinate(seat, "y", who)
        if distance_to_edge(x, y) > EDGE_BAND:
            raise BadSeats(f"{who}'s seat ({x:.2f}, {y:.2f}) is inside the picture: mark the place on its edge "
                           f"where {who}'s arm comes in")
        s = edge_position(x, y)
        ex, ey = edge_point(s)
        seats.append({"player": who, "x": round(ex, 4), "y": round(ey, 4), "edge": round(s, 4)})
    missing = [n for n in names if n not in seen]
    if missing:
        raise BadSeats(f"every player needs a seat: {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} none")
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            if edge_distance(a["edge"], b["edge"]) < MIN_APART:
                raise BadSeats(f"{a['player']} and {b['player']} are marked on top of each other: the camera could "
                               f"not tell their hands apart; mark each where that player's arm comes in")
    return seats


def seat_map(seats: list[dict], names: list[str]) -> dict[str, float]:
    """{player: border position} for the camera, or {} when the seats do not fit the game in force
    (a new game with other players: the old marks say nothing about who sits where now)."""
    if not seats or sorted(s["player"] for s in seats) != sorted(names):
        return {}
    return {s["player"]: s["edge"] for s in seats}


def suggest_seats(seen: dict[str, list[float]], names: list[str]) -> list[dict] | None:
    """Seats learned from the first plays (before any are marked, each camera play is charged to
    the player on turn; where its hand came in is noted under that player): for every player, where
    most of their hands came in. None until every player has LEARN_PLAYS plays that agree, or when
    the places found could not be told apart: the host then marks the seats by hand. A play charged
    to the player on turn that was someone else's (a jump-in) is outvoted by that player's own."""
    points = []
    for name in names:
        edges = seen.get(name) or []
        if len(edges) < LEARN_PLAYS:
            return None
        # the place most of them came from (the sighting with the most others near it), so one
        # stray play does not drag the mean away
        centre = max(edges, key=lambda e: sum(edge_distance(e, o) <= LEARN_SPREAD for o in edges))
        near = [e for e in edges if edge_distance(e, centre) <= LEARN_SPREAD]
        if len(near) < max(LEARN_PLAYS, LEARN_SHARE * len(edges)):
            return None
        x, y = edge_point(circular_mean(near))
        points.append({"player": name, "x": x, "y": y})
    try:
        return check_seats({"seats": points}, names)
    except BadSeats:
        return None
