"""The floor: the least work a validating referee and its random player can do per event in pure Python.

This is not tableref's referee but a bound for bench/referee.py. It plays regulation-deck UNO
(rlcard's game: 108 cards, no food) on a shuffled deck of real cards with a random player, with
events of tableref's shape (a dict per event; a draw and the play or pass after it are two
events), and it checks every event for what makes a move legal: the type, the seat, the turn,
one card, a card of the deck, the match with the pile, a colour named with a wild, one draw per
turn, a pass only after a draw, the piles not run dry. Then it changes its one state in place.

Everything else tableref's referee does is left out: no copy or undo, no reasons naming players
or cards, no verdict object, no one-card calls or catches, no food, no options or scoring, no
check that a hand can still hold the card (unseen copies, known faces), no first-card actions; a
draw two's victim draws inside the play, as in rlcard. So a referee that does all of that in pure
Python cannot beat what this floor reaches.
"""
from __future__ import annotations

import random

COLORS = ("red", "yellow", "green", "blue")
ACTIONS = ("skip", "reverse", "draw2")


def _deck() -> list[str]:
    cards = []
    for color in COLORS:
        cards.append(f"{color}-0")
        cards += [f"{color}-{n}" for n in range(1, 10) for _ in range(2)]
        cards += [f"{color}-{a}" for a in ACTIONS for _ in range(2)]
    return cards + ["wild"] * 4 + ["wild-draw4"] * 4


DECK = tuple(_deck())
COLOR_OF = {c: c.split("-", 1)[0] if c.split("-", 1)[0] in COLORS else None for c in DECK}
SYMBOL_OF = {c: c.split("-", 1)[1] if COLOR_OF[c] else c for c in DECK}
# top card -> coloured cards that match it by symbol whatever their colour (one set lookup per test)
SAME_SYMBOL = {t: frozenset(c for c in DECK if COLOR_OF[c] and SYMBOL_OF[c] == SYMBOL_OF[t]) for t in DECK}
HAND = 7


class FloorReferee:
    """One UNO table's state, changed in place by each accepted event."""

    def __init__(self, players: int, first: str) -> None:
        self.n = players
        self.current = 0
        self.direction = 1
        self.counts = [HAND] * players
        self.draw_count = len(DECK) - HAND * players - 1
        self.discard = [first]
        self.color = COLOR_OF[first]
        self.drawn = False
        self.over = False
        self.effects: list[tuple] = []     # draws and reshuffles for the physical table

    def submit(self, event: dict) -> tuple[bool, str]:
        kind = event.get("type")
        if kind not in ("play", "draw", "pass"):
            return False, "unknown event type"
        seat = event.get("player")
        if type(seat) is not int or not 0 <= seat < self.n:
            return False, "no such player"
        if self.over:
            return False, "the game is over"
        if seat != self.current:
            return False, "not this player's turn"
        if kind == "play":
            return self._play(seat, event)
        if kind == "draw":
            if event.get("count") != 1:
                return False, "a draw takes one card"
            if self.drawn:
                return False, "this player has drawn already"
            if not self._take(seat, 1):
                return False, "no card is left to draw"
            self.drawn = True
            return True, "draws"
        if not self.drawn and self.draw_count + len(self.discard) > 1:
            return False, "play or draw first"
        self.drawn = False
        self.current = (seat + self.direction) % self.n
        return True, "passes"

    def _play(self, seat: int, event: dict) -> tuple[bool, str]:
        cards = event.get("cards")
        if type(cards) is not list or len(cards) != 1:
            return False, "one card at a time"
        card = cards[0]
        color = COLOR_OF.get(card, "")
        if color == "":
            return False, "not a card of the deck"
        named = event.get("color")
        if color is None:
            if named not in COLORS:
                return False, "a wild needs a colour named"
        elif named is not None:
            return False, "only a wild names a colour"
        elif color != self.color and card not in SAME_SYMBOL[self.discard[-1]]:
            return False, "does not match"
        self.counts[seat] -= 1
        self.discard.append(card)
        self.color = color or named
        self.drawn = False
        if self.counts[seat] == 0:
            self.over = True
            return True, "wins"
        symbol, step = SYMBOL_OF[card], 1
        if symbol == "skip":
            step = 2
        elif symbol == "reverse":
            self.direction = -self.direction
            step = 2 if self.n == 2 else 1
        elif symbol == "draw2" or symbol == "wild-draw4":
            self._take((seat + self.direction) % self.n, 2 if symbol == "draw2" else 4)
            step = 2
        self.current = (seat + step * self.direction) % self.n
        return True, "plays"

    def _take(self, seat: int, count: int) -> int:
        count = min(count, self.draw_count + len(self.discard) - 1)
        if count > self.draw_count:
            self.draw_count += len(self.discard) - 1
            del self.discard[:-1]
            self.effects.append(("reshuffle",))
        self.draw_count -= count
        self.counts[seat] += count
        self.effects.append(("draw", seat, count))
        return count


def play_game(players: int, rng: random.Random) -> int:
    """One whole random game on real cards; returns its events (the flip counted, as in tableref)."""
    draw = list(DECK)
    rng.shuffle(draw)
    hands = [[draw.pop() for _ in range(HAND)] for _ in range(players)]
    while COLOR_OF[draw[-1]] is None:          # a wild turned up first goes back under the pile
        draw.insert(0, draw.pop())
    discard = [draw.pop()]
    referee = FloorReferee(players, discard[0])
    choice = rng.choice
    events = 1
    while not referee.over:
        seat = referee.current
        hand = hands[seat]
        same, color = SAME_SYMBOL[discard[-1]], referee.color
        plays = [c for c in hand if COLOR_OF[c] is None or COLOR_OF[c] == color or c in same]
        if referee.drawn:
            event = ({"type": "play", "player": seat, "cards": [hand[-1]]} if hand[-1] in plays
                     else {"type": "pass", "player": seat})
        elif plays:
            event = {"type": "play", "player": seat, "cards": [choice(plays)]}
        elif referee.draw_count + len(discard) > 1:
            event = {"type": "draw", "player": seat, "count": 1}
        else:
            event = {"type": "pass", "player": seat}
        if event["type"] == "play" and COLOR_OF[event["cards"][0]] is None:
            event["color"] = choice(COLORS)
        accepted, reason = referee.submit(event)
        if not accepted:
            raise AssertionError(f"the floor rejected its own legal move {event}: {reason}")
        events += 1
        if event["type"] == "play":
            hand.remove(event["cards"][0])
            discard.append(event["cards"][0])
        for effect in referee.effects:
            if effect[0] == "reshuffle":
                rest = discard[:-1]
                del discard[:-1]
                rng.shuffle(rest)
                draw[:0] = rest
            else:
                taker = hands[effect[1]]
                for _ in range(effect[2]):
                    taker.append(draw.pop())
        referee.effects.clear()
    return events
