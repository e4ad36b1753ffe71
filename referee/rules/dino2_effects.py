"""DINO 2: what each card does once a turn's cards are down (docs/rules/dino2.md, "Effects").

A turn's effects run as a queue of (card, cards the user held right after placing it, context),
in the order the cards were placed. What they have done so far is kept as *skips*: how many
times each seat has been skipped by this turn's cards. "The next player" of a card is found by a
walk round the table from the user in the direction of play as it now is: a seat skipped by an
earlier card is passed (once per skip), and the user is always stepped over, since the user of a
PLACE 2 is never its own next player. So:

- SKIP, SKIP 2, SKIP DRAW 2 and DINO add a skip to their next player(s);
- DRAW 3, DRAW 7, DOUBLE, GIVE and SWITCH HANDS reach the next player and skip nobody;
- REVERSE turns the direction: later cards, and the turn, go the other way round from the user;
- ICE adds as many skips as its user holds; with the option `ice_wraps` its count goes on round
  the table and passes the user's own seat too (the user then does not play again).

When the queue is empty the turn goes to the first seat of the same walk that is not skipped:
the user only when every skip has been used up on the way round (two players after a SKIP).
With two players the "next player" of every card is therefore the other player; with three,
a PLACE 2 with SKIP 2 and DRAW 3 skips both others and the DRAW 3 comes round to the player
after the user, while the user plays again.

A GIVE needs a decision (which card, or how many), so the queue stops there and resumes when the
`give` event arrives; the queue and the skips live in st.vars so that the state stays a value.
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


def skip(st: TableState, seat: int) -> None:
    skips = list(st.vars["skips"])
    skips[seat] += 1
    st.vars["skips"] = tuple(skips)


def next_player(st: TableState, user_counts: bool = False) -> int:
    """The next player for the card acting now: round the table from the user in the direction of
    play, passing each seat once for every skip it has had this turn and stepping over the user
    (who is never their own next player). `user_counts`: ICE with `ice_wraps`, whose count passes
    the user's seat like any other."""
    user = st.vars["user"]
    left = list(st.vars["skips"])
    seat = user
    while True:
        seat = st.next_seat(seat)
        if left[seat]:
            left[seat] -= 1
        elif seat != user or user_counts:
            return seat


def next_turn(st: TableState) -> int:
    """Whose turn it is once the turn's cards have acted: the same walk; the user, when reached,
    plays again only if no skip is left to use on the way round."""
    user = st.vars["user"]
    left = list(st.vars["skips"])
    seat = user
    while True:
        seat = st.next_seat(seat)
        if left[seat]:
            left[seat] -= 1
        elif seat != user or not any(left):
            return seat


def apply(st: TableState, card_id: str, held_after: int, context: str | None) -> str | None:
    """Carries out one card's effect; returns "give" when a GIVE waits for its decision."""
    card = st.deck.cards[card_id]
    user = st.vars["user"]
    nxt = next_player(st)
    name = st.names
    sym = card.symbol
    if sym == "skip":
        skip(st, nxt)
        st.summary += f"; {name[nxt]} is skipped"
    elif sym == "skip2":
        skip(st, nxt)
        second = next_player(st)
        skip(st, second)
        st.summary += f"; {name[nxt]} and {name[second]} are skipped"
    elif sym == "reverse":
        st.direction = -st.direction
        st.summary += "; play changes direction"
    elif sym in ("draw3", "draw7"):
        count = 3 if sym == "draw3" else 7
        owe(st, nxt, count)
        st.summary += f"; {name[nxt]} draws {count}"
    elif sym == "skip-draw2":
        owe(st, nxt, 2)
        skip(st, nxt)
        st.summary += f"; {name[nxt]} draws 2 and is skipped"
    elif sym == "double":
        count = st.hand_counts[nxt] + st.vars["owed"][nxt]   # in order: cards still owed count
        owe(st, nxt, count)
        st.summary += f"; {name[nxt]} doubles their hand: draws {count}"
    elif sym == "dino":
        owe(st, nxt, 5)
        skip(st, nxt)
        st.summary += f"; {name[nxt]} draws 5 and is skipped"
    elif sym == "nathan":
        if context in NATHAN_FREE:
            st.summary += f"; NATHAN with a {context}: {name[user]} draws nothing"
        elif context == "fuego" and st.hand_counts[user] == 0 and st.options["nathan_not_alone_wins"]:
            st.summary += f"; NATHAN on a FUEGO as the last cards is not played alone: {name[user]} draws nothing"
        else:
            owe(st, user, 5)
            st.summary += f"; {name[user]} draws 5 for the NATHAN"
    elif sym == "ice":
        wraps = st.options["ice_wraps"]
        players = len(st.active_seats())
        count = held_after if wraps else min(held_after, players - 1)
        for _ in range(count):
            skip(st, next_player(st, user_counts=wraps))
        st.summary += f"; ICE skips {count} player{'s' * (count != 1)}"
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
