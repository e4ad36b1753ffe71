"""ONO! (shared/seeds/ono.txt): UNO with eight wilds and a food on every coloured card.

A card matches the top card by colour, number, food or action; docs/rules/ono.md has the foods
and every interpretation.
"""
from __future__ import annotations

from ..cards import Card, Deck, load_deck
from ..options import Option
from ..state import TableState
from .uno_family import WILD, UnoFamily


class Ono(UnoFamily):
    id = "ono"
    title = "ONO!"
    seed_text = "ono.txt"
    deck_id = "ono"
    hand_size = 7
    call_word = "ONO!"
    options = (
        Option("points_target", 0, "play for points over several rounds: the first to reach this "
               "many points wins (500 or 1000 are usual); 0 plays a single game", minimum=0),
        Option("longer_game", False, "a player who cannot play keeps drawing until a card can be played"),
        Option("shorter_game", False, "remove the coloured 6, 7, 8 and 9 from the deck"),
        Option("two_player_reverse_skips", True, "with two players a reverse acts as a skip"),
    )

    def deck(self, options: dict) -> Deck:
        deck = load_deck(self.deck_id)
        if options.get("shorter_game"):
            deck = deck.without(lambda c: c.kind == "number" and c.symbol in ("6", "7", "8", "9"))
        return deck

    def mismatch(self, st: TableState, card: Card) -> str | None:
        if card.kind == WILD:
            return None
        top = st.deck.cards[st.top]
        food = card.attrs.get("food")
        if top.kind != WILD and food and food == top.attrs.get("food"):
            return None
        reason = super().mismatch(st, card)
        if reason and top.kind != WILD:
            reason = (f"{card.id} ({food}) does not match {top.id} ({top.attrs.get('food')}) "
                      f"by colour, number, food or action")
        return reason


RULESETS = [Ono()]
