"""Snake Cup Rainbow (shared/seeds/snake-cup.txt, "this version"): a shedding game with the Snake
Cup cards. Seven each; the first player lays any card; then each card is a different card of the
same colour or any card of the next colour in the rainbow. docs/rules/snake-cup-rainbow.md.
"""
from __future__ import annotations

import random

from ..cards import Card, Deck
from ..errors import Illegal
from ..options import Option
from ..state import CLOCKWISE, TableState
from ..host_actions import HostAction, PLAYER, cards
from .base import Rules
from .snake_cup import snake_deck

SNAKE = "snake"
AFTER_SNAKE = ("leaves", "blue")            # after a wild SNAKE: a LEAVES card or a BLUE card
COMPATIBLE = {"poppies": "orchids", "orchids": "poppies"}


def next_color(deck: Deck, color: str) -> str:
    """RED > ORANGE > YELLOW > GREEN > BLUE > VIOLET > RED: the deck lists its colours in that order."""
    colors = deck.colors
    return colors[(colors.index(color) + 1) % len(colors)]


def why_not(deck: Deck, options: dict, under: Card | None, card: Card) -> str | None:
    """Why `card` may not be laid on `under` (None: it may). No card under: anything goes."""
    if under is None or card.symbol == SNAKE:      # the SNAKE only exists here when it is wild
        return None
    if under.symbol == SNAKE:
        if card.symbol == AFTER_SNAKE[0] or card.color == AFTER_SNAKE[1]:
            return None
        return f"after the SNAKE comes a LEAVES card or a blue card, not {card.id}"
    if card.color == under.color and card.symbol != under.symbol:
        return None
    following = next_color(deck, under.color)
    if card.color == following:
        return None
    if options.get("poppies_orchids") and COMPATIBLE.get(under.symbol) == card.symbol:
        return None
    return (f"{card.id} does not follow {under.id}: play a different {under.color} card or "
            f"{article(following)} {following} card")


def article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


class SnakeCupRainbow(Rules):
    id = "snake-cup-rainbow"
    title = "Snake Cup Rainbow"
    seed_text = "snake-cup.txt"
    deck_id = "snake-cup"
    hand_size = 7
    min_players, max_players = 2, 8
    options = (
        Option("snake_wild", False, "the two SNAKEs are wild: one may be laid on anything, and then a "
               "LEAVES card or a blue card must follow (without this option the SNAKEs are set aside)", label="SNAKEs are wild"),
        Option("poppies_orchids", False, "POPPIES and ORCHIDS are compatible: either may be laid on the other", label="POPPIES and ORCHIDS go on each other"),
    )
    host_actions = (
        HostAction("play", "Lay card", "play", "the player lays the picked card", phases=("play", "drawn"),
                   inputs=(PLAYER, cards(1)), style="primary"),
        HostAction("draw", "Draw one", "draw", "the player cannot lay a card and draws one", phases=("play",),
                   inputs=(PLAYER,), fixed=(("count", 1),)),
        HostAction("pass", "Keep it and pass", "pass", "after a draw, the player keeps the card", phases=("drawn",),
                   inputs=(PLAYER,)),
    )
    phases = {"play": "the current player to lay a card (any card on an empty pile) or draw one",
              "drawn": "the current player to lay the card just drawn, or pass",
              "over": "nothing: the game is over"}

    def deck(self, options: dict) -> Deck:
        return snake_deck(2 if options["snake_wild"] else 0)

    def on_start(self, st: TableState, event: dict) -> None:
        # No card is turned up: "the first player may play any card they want to".
        st.phase = "play"
        st.current = st.next_seat(st.dealer, direction=CLOCKWISE)
        st.vars["under"] = None
        st.summary += f"; {st.names[st.current]} lays any card to begin"

    def require_turn_phase(self, st: TableState, seat: int, doing: str) -> None:
        if st.phase == "over":
            raise Illegal(f"the game is over: {st.names[st.winner]} won")
        self.require_turn(st, seat, doing)

    def on_play(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        if len(event["cards"]) != 1:
            raise Illegal(f"{self.title} lays one card at a time")
        if event["cards"][0] == SNAKE and SNAKE not in st.deck.counts:
            raise Illegal("the SNAKEs are set aside in this game (they play only with the snake_wild option)")
        card = self.card(st, event["cards"][0])
        self.require_turn_phase(st, seat, "play")
        st.check_in_hand(seat, [card.id])     # a card already on the pile says so first
        under = st.deck.cards[st.top] if st.top else None
        reason = why_not(st.deck, st.options, under, card)
        if reason:
            raise Illegal(reason)
        st.play_from_hand(seat, [card.id])
        st.vars["under"] = under.id if under else None
        st.active_color = card.color
        st.summary = f"{st.names[seat]} lays {card.id}"
        if card.symbol == SNAKE:
            st.summary += ": a LEAVES card or a blue card must follow"
        if st.hand_counts[seat] == 0:
            st.winner = seat
            st.phase = "over"
            st.summary += f" and has no cards left: {st.names[seat]} wins"
            return
        st.current = st.next_seat(seat, direction=CLOCKWISE)
        st.phase = "play"
        st.summary += f"; {st.names[st.current]} is next"

    def on_draw(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        self.require_turn_phase(st, seat, "draw")
        if event["count"] != 1:
            raise Illegal(f"a player who cannot lay a card draws one, not {event['count']}")
        if st.phase == "drawn":
            raise Illegal(f"{st.names[seat]} has drawn already: lay the drawn card or pass")
        if st.drawable() == 0:
            raise Illegal("no card is left to draw: pass instead")
        st.take(seat, 1)
        st.phase = "drawn"
        st.summary = f"{st.names[seat]} draws a card"

    def on_pass(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        self.require_turn_phase(st, seat, "pass")
        if st.phase != "drawn" and st.drawable() > 0:
            raise Illegal(f"{st.names[seat]} must lay a card or draw one")
        kept = "keeps the drawn card and passes" if st.phase == "drawn" else "passes: nothing is left to draw"
        st.current = st.next_seat(seat, direction=CLOCKWISE)
        st.phase = "play"
        st.summary = f"{st.names[seat]} {kept}; {st.names[st.current]} is next"

    # -- views, checks, simulation ------------------------------------------------------------
    def extra_state(self, st: TableState) -> dict:
        if st.top is None:
            follow = "any card"
        else:
            top = st.deck.cards[st.top]
            if top.symbol == SNAKE:
                follow = "a LEAVES card or a blue card" + (" (or a SNAKE)" if st.options["snake_wild"] else "")
            else:
                following = next_color(st.deck, top.color)
                follow = f"another {top.color} card or {article(following)} {following} card"
                if st.options["poppies_orchids"] and top.symbol in COMPATIBLE:
                    follow += f", or {COMPATIBLE[top.symbol].upper()}"
        return {"must_follow": follow}

    def invariants(self, st: TableState) -> list[str]:
        problems = []
        if st.phase not in self.phases:
            problems.append(f"unknown phase {st.phase}")
        if st.phase == "over":
            if st.winner is None or st.hand_counts[st.winner] != 0:
                problems.append(f"game over, but the winner {st.winner} still holds cards")
        elif 0 in st.hand_counts:
            problems.append(f"a player has no cards but the game goes on: {st.hand_counts}")
        if SNAKE in st.deck.counts and not st.options["snake_wild"]:
            problems.append("the SNAKEs are in the deck without the snake_wild option")
        under, top = st.vars.get("under"), st.top
        if top is not None and under is not None:
            why = why_not(st.deck, st.options, st.deck.cards[under], st.deck.cards[top])
            if why:
                problems.append(f"an illegal card lies on the pile: {why}")
        return problems

    def sim_candidates(self, st: TableState, hands: list[list[str]], rng: random.Random) -> list[dict]:
        seat = st.current
        hand = hands[seat]
        if st.phase == "drawn":
            # play the drawn card if it fits (as the text says), else keep it and pass
            return [{"type": "play", "player": seat, "cards": [hand[-1]]}, {"type": "pass", "player": seat}]
        plays = [{"type": "play", "player": seat, "cards": [c]} for c in dict.fromkeys(hand)]
        rng.shuffle(plays)
        events = []
        if rng.random() < 0.02:   # a player out of turn now and then: rejected, nothing changes
            events.append({"type": "play", "player": (seat + 1) % st.n, "cards": [hands[(seat + 1) % st.n][0]]})
        return events + plays + [{"type": "draw", "player": seat, "count": 1}, {"type": "pass", "player": seat}]


RULESETS = [SnakeCupRainbow()]
