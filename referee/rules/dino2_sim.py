"""DINO 2 for `tableref simulate`: random players that try every card and every decision, and the
rule set's own invariants (checked after every event)."""
from __future__ import annotations

import random

from ..state import TableState
from . import dino2_effects as fx

TRIO = ("dino", "green-draw7", "nathan")
PHASES = ("flip", "play", "more", "give", "color", "over")


def _rainbow(st: TableState, cid: str) -> bool:
    return st.deck.cards[cid].kind == "wild"


def _with_color(st: TableState, event: dict, rng: random.Random) -> dict:
    if any(_rainbow(st, c) for c in event["cards"]) and rng.random() < 0.5:
        event["color"] = rng.choice(st.deck.colors)
    return event


def _whole_turn(st: TableState, seat: int, opener: str, hand: list[str], rng: random.Random) -> dict | None:
    """A play event with an opener and the extra cards it allows, built from the real hand."""
    rest = list(hand)
    rest.remove(opener)
    symbol = st.deck.cards[opener].symbol
    if symbol == "streak":
        colours = [st.deck.cards[c].color for c in rest if not _rainbow(st, c)]
        if not colours:
            return None
        colour = rng.choice(colours)
        extras = [c for c in rest if st.deck.cards[c].color == colour]
        rainbows = [c for c in rest if _rainbow(st, c)]
        if rainbows and rng.random() < 0.5:
            extras.insert(rng.randrange(len(extras)), rainbows[0])   # never last
        extras.sort(key=lambda c: st.deck.cards[c].symbol in ("fuego", "ice"))  # below: not the streak
    elif symbol == "place2":
        extras = rng.sample(rest, min(len(rest), rng.choice((1, 2, 2))))
    elif symbol == "make-it-rain":
        held = len(rest)
        limit = held // 2 if st.options["rain_half_of"] == "after" else max(0, (held + 1) // 2 - 1)
        extras = rng.sample(rest, rng.randint(0, limit)) if limit else []
    elif symbol == "fuego":
        fits = [c for c in rest if _rainbow(st, c) or st.deck.cards[c].color == "red"]
        if not fits or rng.random() < 0.4:
            return {"type": "play", "player": seat, "cards": [opener], "fuego": "draw"}
        extras = [rng.choice(fits)]
    else:
        return None
    return _with_color(st, {"type": "play", "player": seat, "cards": [opener] + extras}, rng)


def candidates(rules, st: TableState, hands: list[list[str]], rng: random.Random) -> list[dict]:
    events: list[dict] = []
    for seat in st.active_seats():         # a special hand is shown at once
        hand = hands[seat]
        if all(c in hand for c in TRIO):
            events.append({"type": "reveal", "player": seat, "cards": list(TRIO)})
        captains = [c for c in hand if st.deck.cards[c].symbol == "captain-jack-sparrow"]
        if len(captains) >= 3:
            events.append({"type": "reveal", "player": seat, "cards": captains[:3]})
    if events:
        return events
    if rng.random() < 0.0004:
        return [{"type": "cheating", "player": rng.randrange(st.n), "reason": "peeked at the draw pile"}]
    owed = st.vars["owed"]
    for seat in st.active_seats():          # penalties are drawn as soon as they are dealt out
        if owed[seat] and seat != st.current and rng.random() < 0.7:
            events.append({"type": "draw", "player": seat,
                           "count": max(1, min(owed[seat], st.drawable(), rng.randint(1, owed[seat])))})
    user = st.vars["user"]
    if st.phase == "color":
        events.append({"type": "choose_color", "player": user, "color": rng.choice(st.deck.colors)})
        return events
    if st.phase == "give":
        hand = hands[user]
        count = rng.randint(0 if rng.random() < 0.2 else 1, min(st.vars["give_left"], len(hand)))
        give = {"type": "give", "player": user, "count": count}
        if count and rng.random() < 0.5:
            give["cards"] = rng.sample(hand, count)
        events.append(give)
        return events
    if st.phase == "more":
        return events + _more(st, user, hands[user], rng)
    seat = st.current
    hand = hands[seat]
    if owed[seat]:
        events.append({"type": "draw", "player": seat,
                       "count": max(1, min(owed[seat], st.drawable(), rng.randint(1, owed[seat])))})
        return events
    draw = {"type": "draw", "player": seat, "count": 1}
    if rng.random() < 0.05:
        events.append(draw)
    plays = []
    for cid in dict.fromkeys(hand):
        if st.deck.cards[cid].symbol in fx.OPENERS and rng.random() < 0.6:
            whole = _whole_turn(st, seat, cid, hand, rng)
            if whole:
                plays.append(whole)
        plays.append(_with_color(st, {"type": "play", "player": seat, "cards": [cid]}, rng))
    rng.shuffle(plays)
    events.extend(plays)
    events.append(draw)
    events.append({"type": "pass", "player": seat})
    return events


def _more(st: TableState, user: int, hand: list[str], rng: random.Random) -> list[dict]:
    mode = st.vars["mode"]
    events: list[dict] = []
    if mode == "fuego":
        if rng.random() < 0.1:
            events.append({"type": "fuego", "player": user, "choice": "extra"})
        fits = [c for c in hand if _rainbow(st, c) or st.deck.cards[c].color == "red"]
        events += [_with_color(st, {"type": "play", "player": user, "cards": [c]}, rng) for c in fits]
        events.append({"type": "fuego", "player": user, "choice": "draw"})
        return events
    if rng.random() < 0.25:
        events.append({"type": "pass", "player": user})
    cards = list(dict.fromkeys(hand))
    rng.shuffle(cards)
    for cid in cards:
        if mode == "streak" and _rainbow(st, cid):
            colour = st.vars["streak_color"]
            after = [c for c in hand if not _rainbow(st, c) and colour in (None, st.deck.cards[c].color)]
            if after:
                events.append({"type": "play", "player": user, "cards": [cid, rng.choice(after)]})
            continue
        events.append(_with_color(st, {"type": "play", "player": user, "cards": [cid]}, rng))
    events.append({"type": "pass", "player": user})
    return events


def invariants(rules, st: TableState) -> list[str]:
    v = st.vars
    problems = []
    if st.phase not in PHASES:
        problems.append(f"unknown phase {st.phase}")
    if len(v["owed"]) != st.n or min(v["owed"]) < 0:
        problems.append(f"owed {v['owed']}")
    if st.phase != "over" and st.pending_draw != v["owed"][st.current]:
        problems.append(f"pending_draw {st.pending_draw} but the current player owes {v['owed'][st.current]}")
    if not 0 <= v["drawn"] <= 3:
        problems.append(f"{v['drawn']} cards drawn in one turn")
    if st.active_color not in (None, *st.deck.colors):
        problems.append(f"active colour {st.active_color}")
    if st.phase in ("more", "give", "color") and v["user"] is None:
        problems.append(f"phase {st.phase} without a user")
    if st.phase == "play" and (v["user"] is not None or v["queue"]):
        problems.append("a finished turn left its cards behind")
    if st.phase == "give" and not 1 <= v["give_left"] <= 2:
        problems.append(f"a GIVE of {v['give_left']}")
    if st.phase == "more":
        extras = len(v["placed"]) - 1
        if v["limit"] is not None and extras >= v["limit"]:
            problems.append(f"{extras} extra cards on a {v['placed'][0][0]} allowing {v['limit']}")
        top = v["placed"][-1][0]
        if v["mode"] == "streak" and extras and _rainbow(st, top):
            problems.append("a STREAK waits with a rainbow card on top")
    if st.phase == "over":
        if v["no_winner"] and st.winner is not None:
            problems.append("a winner in a game nobody may win")
        if st.winner is not None:
            held = st.hand_counts[st.winner]
            if v["win_by"] == "no cards" and held != 0:
                problems.append(f"won with no cards but holds {held}")
            if v["win_by"] not in ("no cards", None) and held < 3:
                problems.append(f"won by a special hand with {held} cards")
    return problems
