"""The replay of a table's game, step by step (issue 19): after each event still in force, the state
the phones showed, worked out by feeding the same events to a fresh referee (referee.Game) - the
browser draws it and never applies a rule itself.

A table's log can hold several games (each "start another game" is a new setup after the last one
ended); the replay is of one game at a time, numbered from 1. Steps are numbered like the timeline
(`n`: the event's place among all the table's events in force), so a timeline entry links to its
step. Undone events are not in the log, so they are not replayed; rejected ones were never stored.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from referee import Game

from .api import error, table_or_404
from .pages import table_page
from .redact import redact

replay = Blueprint("replay", __name__)


def game_spans(events: list[dict]) -> list[tuple[int, int]]:
    """(start, end) of each game in a log of events in force: a setup starts one, the next ends it."""
    starts = [i for i, e in enumerate(events) if e.get("type") == "setup"] or [0]
    return list(zip(starts, starts[1:] + [len(events)]))


def replay_game(events: list[dict], start: int, end: int) -> tuple[list[dict], list[str]]:
    """The steps of events[start:end] replayed on a fresh referee, and a line for any event that no
    longer replays (it cannot happen to a log the same referee accepted; said rather than hidden).
    A setup starts a game from nothing, so a fresh Game from it rules exactly as the table's did."""
    game, steps, problems = Game(), [], []
    for n, event in enumerate(events[start:end], start + 1):
        try:
            verdict = game.submit(event)
        except Exception as e:          # noqa: BLE001 - one bad stored event must not hide the rest
            problems.append(f"event {n} ({event.get('type')}) does not replay: {e}")
            continue
        if not verdict.accepted:
            problems.append(f"event {n} ({event.get('type')}) is refused on replay: {verdict.reason}")
        state = game.to_dict()
        state["event_count"] = n        # the table's count, as the phones showed it
        steps.append({"n": n, "event": event, "summary": verdict.reason, "player": verdict.player,
                      "state": state})
    return redact(steps), problems      # a setup's camera address, without its password


def log_of(table) -> list[dict]:
    with table.lock:                    # a copy: replaying must not hold up the table
        return list(table.game.log)


def whole_number(name: str):
    """A query argument as an int, None when absent, or an error message."""
    raw = request.args.get(name)
    if raw is None:
        return None, None
    try:
        return int(raw), None
    except ValueError:
        return None, f"{name} must be a whole number, not {raw[:20]!r}"


@replay.get("/api/tables/<table_id>/replay")
def replay_steps(table_id: str):
    """One game's steps: ?game=K (1, 2, ...; default the latest), or ?step=N for the game holding
    timeline event N. Nothing is changed by reading it."""
    table, err = table_or_404(table_id)
    if err:
        return err
    game_no, bad = whole_number("game")
    step, bad_step = whole_number("step")
    if bad or bad_step:
        return error(400, bad or bad_step)
    events = log_of(table)
    spans = game_spans(events)
    if step is not None:
        if not 1 <= step <= len(events):
            return error(404, no_step(table_id, step, len(events)))
        game_no = next(k for k, (s, e) in enumerate(spans, 1) if s < step <= e)
    if game_no is None:
        game_no = len(spans)
    if not 1 <= game_no <= len(spans):
        return error(404, f"there is no game {game_no} at table {table_id!r}: it has "
                          f"{'only game 1' if len(spans) == 1 else f'games 1 to {len(spans)}'}")
    start, end = spans[game_no - 1]
    steps, problems = replay_game(events, start, end)
    return jsonify(table=table_id, game=game_no, games=len(spans), events=len(events), steps=steps,
                   problems=problems)


@replay.get("/api/tables/<table_id>/replay/<step>")
def replay_step(table_id: str, step: str):
    """The state after timeline event `step` (1, 2, ...) and that event with the referee's words."""
    table, err = table_or_404(table_id)
    if err:
        return err
    events = log_of(table)
    try:
        n = int(step)
    except ValueError:
        return error(400, f"a step is a whole number from 1 to {len(events)}, not {step[:20]!r}")
    if not 1 <= n <= len(events):
        return error(404, no_step(table_id, n, len(events)))
    spans = game_spans(events)
    game_no, (start, _) = next((k, s) for k, s in enumerate(spans, 1) if s[0] < n <= s[1])
    steps, problems = replay_game(events, start, n)
    return jsonify(table=table_id, game=game_no, games=len(spans), events=len(events), **steps[-1],
                   problems=problems)


def no_step(table_id: str, n: int, count: int) -> str:
    return f"there is no step {n} at table {table_id!r}: its timeline has events 1 to {count}"


@replay.get("/t/<table_id>/replay")
def replay_page(table_id: str):
    return table_page("replay.html", table_id)
