"""DINO 2: what each card does once a turn's cards are down (docs/rules/dino2.md, "Effects").

A turn's effects run as a queue of (card, cards the user held right after placing it, context)
against a *cursor*: "the next player" is always the seat after the cursor, a skip moves the
cursor past a player, and the turn passes to the seat after the cursor when the queue is empty.
So a PLACE 2 with SKIP then DRAW 3 skips one player and makes the one after draw three, exactly
as if the two cards had acted one after the other. Draw penalties do not move the cursor: by the
starred rule the victim draws and then takes the turn.

A GIVE needs a decision (which card, or how many), so the queue stops there and resumes when the
`give` event arrives; the queue and the cursor live in st.vars so that the state stays a value.
"""
from __future__ import annotations

from ..state import TableState

WARM, COOL = ("red", "orange"), ("blue", "green")
# cards whose effect is more cards from the user in the same turn: nothing left to do once down
OPENERS = ("streak", "place2", "make-it-rain", "fuego")
# contexts in which NATHAN's user does not draw five ("used with a PLACE 2 or MAKE IT RAIN")
NATHAN_FREE = ("place2", "make-it-rain")


def owe(st: TableState, seat: int, count: int) -> None:
    owed = list(st.vars["owed"])
    owed[seat] += count
    st.vars["owed"] = tuple(owed)


def apply(st: TableState, card_id: str, held_after: int, context: str | None) -> str | None:
    """Carries out one card's effect; returns "give" when a GIVE waits for its decision."""
    card = st.deck.cards[card_id]
    user, cursor = st.vars["user"], st.vars["cursor"]
    nxt = st.next_seat(cursor)
    name = st.names
    sym = card.symbol
    if sym == "skip":
        st.vars["cursor"] = nxt
        st.summary += f"; {name[nxt]} is skipped"
    elif sym == "skip2":
        st.vars["cursor"] = st.next_seat(cursor, 2)
        st.summary += f"; {name[nxt]} and {name[st.next_seat(cursor, 2)]} are skipped"
    elif sym == "reverse":
        st.direction = -st.direction
        st.summary += "; play changes direction"
    elif sym in ("draw3", "draw7"):
        count = 3 if sym == "draw3" else 7
        owe(st, nxt, count)
        st.summary += f"; {name[nxt]} draws {count}"
    elif sym == "skip-draw2":
        owe(st, nxt, 2)
        st.vars["cursor"] = nxt
        st.summary += f"; {name[nxt]} draws 2 and is skipped"
    elif sym == "double":
        count = st.hand_counts[nxt] + st.vars["owed"][nxt]   # in order: cards still owed count
        owe(st, nxt, count)
        st.summary += f"; {name[nxt]} doubles their hand: draws {count}"
    elif sym == "dino":
        owe(st, nxt, 5)
        st.vars["cursor"] = nxt
        st.summary += f"; {name[nxt]} draws 5 and is skipped"
    elif sym == "nathan":
        if context in NATHAN_FREE:
            st.summary += f"; NATHAN with a {context}: {name[user]} draws nothing"
        else:
            owe(st, user, 5)
            st.summary += f"; {name[user]} draws 5 for the NATHAN"
    elif sym == "ice":
        players = len(st.active_seats())
        skipped = held_after if st.options["ice_wraps"] else min(held_after, players - 1)
        st.vars["cursor"] = st.next_seat(cursor, skipped)
        st.summary += f"; ICE skips {skipped} player{'s' * (skipped != 1)}"
    elif sym == "switch-hands":
        st.swap_hands(user, nxt)
        st.summary += f"; {name[user]} and {name[nxt]} switch hands"
    elif sym == "fuego":
        # a FUEGO that did not open the turn (or whose user chose so): everyone else draws one
        for seat in st.active_seats():
            if seat != user:
                owe(st, seat, 1)
        st.summary += f"; everyone but {name[user]} draws 1"
    elif sym == "give":
        if st.hand_counts[user] == 0:
            st.summary += "; nothing left to give"
            return None
        st.vars["give_to"] = nxt
        st.vars["give_left"] = 2 if st.vars["feast"] == "christmas" else 1
        return "give"
    # normal cards, CAPTAIN JACK SPARROW and the openers (STREAK, PLACE 2, MAKE IT RAIN) do nothing
    return None
