"""What every rule set shares: the setup and deal, seat checks, and the dispatch of events.

A rule set is a class with data (deck, hand size, seating, options) and one method per event
type it accepts, `on_<type>(state, event)`, which changes the state it is given (always a copy)
or raises Illegal. Rule sets never keep state of their own: a game is its TableState.
"""
from __future__ import annotations

import random

from ..cards import Card, Deck, load_deck
from ..errors import Illegal
from ..options import Option, resolve
from ..state import CLOCKWISE, TableState


class Rules:
    id = ""
    title = ""
    seed_text = ""                   # the rule text in shared/seeds this follows
    deck_id = "uno"
    hand_size = 7
    min_players, max_players = 2, 10
    start_direction = CLOCKWISE
    options: tuple[Option, ...] = ()
    phases: dict[str, str] = {}      # phase -> what the referee waits for, for the docs and views
    host_actions: tuple = ()         # what the host page offers, as data (referee/host_actions.py)

    # -- setup ------------------------------------------------------------------------------
    def deck(self, options: dict) -> Deck:
        return load_deck(self.deck_id)

    def deal_size(self, options: dict, event: dict) -> int:
        return self.hand_size

    def start(self, event: dict) -> TableState:
        """The state right after the deal, from a setup event."""
        names = event["players"]
        if not all(isinstance(n, str) and n.strip() for n in names):
            raise Illegal("players are given as a list of names")
        names = [n.strip() for n in names]
        if len({n.lower() for n in names}) != len(names):
            raise Illegal("two players have the same name")
        if not self.min_players <= len(names) <= self.max_players:
            raise Illegal(f"{self.title} is for {self.min_players} to {self.max_players} players, "
                          f"not {len(names)}")
        dealer = event.get("dealer", 0)
        if dealer is None:
            dealer = 0
        if not 0 <= dealer < len(names):
            raise Illegal(f"the dealer must be a seat from 0 to {len(names) - 1}, not {dealer}")
        options = resolve(self.options, event.get("options"), self.id)
        deck = self.deck(options)
        hand = self.deal_size(options, event)
        if hand * len(names) >= deck.size:
            raise Illegal(f"{len(names)} hands of {hand} do not fit in a deck of {deck.size}")
        n = len(names)
        st = TableState(rules=self.id, options=options, deck=deck, names=names, dealer=dealer,
                        hand_counts=[hand] * n, draw_count=deck.size - hand * n,
                        known=[{} for _ in range(n)], out=[False] * n,
                        direction=self.start_direction, current=dealer)
        st.effects.append(("deal", hand))
        st.summary = f"{self.title}: {', '.join(names)}; {names[dealer]} deals {hand} each"
        self.on_start(st, event)
        return st

    def on_start(self, st: TableState, event: dict) -> None:
        """Rule-set specific set-up after the deal."""

    # -- events -----------------------------------------------------------------------------
    def handle(self, st: TableState, event: dict) -> None:
        handler = getattr(self, "on_" + event["type"], None)
        if handler is None:
            raise Illegal(f"{self.title} has no {event['type']!r} events")
        handler(st, event)

    # -- helpers for rule files -------------------------------------------------------------
    @staticmethod
    def card(st: TableState, card_id: str) -> Card:
        try:
            return st.deck.cards[card_id]
        except KeyError:
            raise Illegal(f"{card_id!r} is not a card of the {st.deck.id} deck") from None

    @staticmethod
    def name(st: TableState, seat: int) -> str:
        return st.names[seat]

    def require_turn(self, st: TableState, seat: int, doing: str) -> None:
        if seat != st.current:
            raise Illegal(f"it is {st.names[st.current]}'s turn, not {st.names[seat]}'s "
                          f"({st.names[seat]} cannot {doing} now)")

    def require_playing(self, st: TableState) -> None:
        """Raises with the reason when the game is not in a phase where turns are taken."""
        if st.phase == "over":
            raise Illegal("the game is over" + (f": {st.names[st.winner]} won" if st.winner is not None else ""))
        if st.phase == "flip":
            raise Illegal("the first card has not been turned up yet")

    # -- views, docs and simulation ---------------------------------------------------------
    def extra_state(self, st: TableState) -> dict:
        """Rule-set fields added to the state object every view reads."""
        return {}

    def invariants(self, st: TableState) -> list[str]:
        """Rule-set specific checks that `simulate` runs after every event."""
        return []

    def sim_candidates(self, st: TableState, hands: list[list[str]], rng: random.Random) -> list[dict]:
        """Events a random player could send now, most wanted first; the simulator sends the
        first that the referee accepts. They need not all be legal."""
        raise NotImplementedError

    def legal_moves(self, st: TableState, hands: list[list[str]]) -> list[dict]:
        """Every move the player the referee waits for can make now, each one an event the referee
        accepts (like python-chess `legal_moves`); `hands` are the real hands. Rule sets that have
        one say so (ONO!); `simulate`'s trial-and-error player does not need it."""
        raise NotImplementedError(f"{self.id} has no legal-move generator")

    def describe(self) -> dict:
        return {"id": self.id, "title": self.title, "deck": self.deck_id, "seed": self.seed_text,
                "players": [self.min_players, self.max_players], "hand_size": self.hand_size,
                "options": [o.to_dict() for o in self.options], "phases": dict(self.phases),
                "host_actions": [a.to_dict() for a in self.host_actions]}
