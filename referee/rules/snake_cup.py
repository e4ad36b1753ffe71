"""Snake Cup (shared/seeds/snake-cup.txt), the coin game: on each turn a player turns the top card
of the deck and its symbol moves coins between the players and the cup; a player without coins
is out and the last one left takes the cup. docs/rules/snake-cup.md has every interpretation.

Players hold no cards here: a turned card goes straight from the draw pile onto the discard pile
(a `flip`, or a `play` naming the player, which the camera may send instead).
"""
from __future__ import annotations

import random

from ..cards import Card, Deck, load_deck
from ..errors import Illegal
from ..options import Option
from ..state import CLOCKWISE, COUNTERCLOCKWISE, TableState
from ..host_actions import HostAction, Input
from .base import Rules

SNAKE_CUP_ACTIONS = (
    HostAction("turn", "Turned card", "flip", "the card the current player turned up: pick it, then tap; the "
               "referee moves the coins", phases=("flip",), inputs=(Input("card", "card", "card"),), style="primary"),
    HostAction("crosses", "CROSSES", "crosses_short", "the player short of coins chooses how to give them",
               phases=("crosses",),
               inputs=(Input("player", "player", "player", default="crosses_by"),
                       Input("way", "choice", "way", choices=(("clockwise", "One each from the left"),
                                                              ("cup", "The rest into the cup")))),
               section="decision"),
)

CUP = "cup"

# What each symbol does, as data: (action, coins). "hearts" also skips the player it robs.
EFFECTS = {
    "leaves": ("to_cup", 1),       # put one coin in the cup
    "poppies": ("to_cup", 2),
    "orchids": ("to_cup", 3),
    "fountain": ("all_to_cup", 1),  # all players put one coin in the cup
    "suns": ("take_left", 1),      # take one coin from the player to the left
    "stars": ("take_left", 2),
    "hearts": ("take_left", 3),    # ... and skip their turn
    "rain": ("take_each", 1),      # take one coin from each player
    "crosses": ("give_each", 1),   # give one coin to each player
    "river": ("give_right", 3),    # give three coins to the player to the right
    "snake": ("take_cup", 0),      # take all the coins in the cup
}
SKIPS_VICTIM = {"hearts"}
SHORT_WAYS = ("clockwise", "cup")


def snake_deck(snakes: int) -> Deck:
    """The snake-cup deck with `snakes` SNAKE cards (2 printed; 1 "for a greater challenge";
    0 for the rainbow game without its wild option)."""
    deck = load_deck("snake-cup")
    if snakes == deck.counts["snake"]:
        return deck
    if snakes == 0:
        return deck.without(lambda c: c.symbol == "snake")
    counts = dict(deck.counts, snake=snakes)
    return Deck(deck.id, deck.name, deck.colors, deck.cards, counts)


def coins(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


class SnakeCup(Rules):
    id = "snake-cup"
    title = "Snake Cup"
    seed_text = "snake-cup.txt"
    deck_id = "snake-cup"
    hand_size = 0
    min_players, max_players = 2, 10
    options = (
        Option("coins", 20, "coins each player starts with (any number, the same for everyone)", minimum=1, label="Coins each player starts with"),
        Option("snakes", 2, "SNAKE cards in the deck: 2, or 1 for a greater challenge", choices=(1, 2), label="SNAKE cards in the deck"),
        Option("crosses_short", "clockwise",
               "CROSSES turned by a player with fewer coins than players to give to: 'clockwise' gives "
               "one each from the left until the coins run out, 'cup' puts the rest in the cup, 'ask' "
               "lets the player choose with a crosses_short event", choices=("clockwise", "cup", "ask"), label="CROSSES when short of coins"),
        Option("comeback", False, "players who are out come back when a RIVER or CROSSES gives them coins", label="Players who are out may come back"),
    )
    host_actions = SNAKE_CUP_ACTIONS
    phases = {"flip": "the current player to turn the top card of the deck",
              "crosses": "the player of CROSSES to choose how to give coins they are short of "
                         "(crosses_short: clockwise or cup)",
              "over": "nothing: the game is over"}

    def deck(self, options: dict) -> Deck:
        return snake_deck(options["snakes"])

    def on_start(self, st: TableState, event: dict) -> None:
        start = st.options["coins"]
        st.coins = [start] * st.n
        st.cup = 0
        st.phase = "flip"
        st.current = st.next_seat(st.dealer, direction=CLOCKWISE)   # the dealer's left begins
        st.vars.update(total=start * st.n, last_card=None, skip=None, crosses_by=None)
        st.summary = (f"{self.title}: {', '.join(st.names)} start with {coins(start)} each and an empty "
                      f"cup; {st.names[st.current]} turns the first card")

    # -- turning a card -----------------------------------------------------------------------
    def on_flip(self, st: TableState, event: dict) -> None:
        self.turn(st, st.current, event["card"])

    def on_play(self, st: TableState, event: dict) -> None:
        """The camera may see who turned the card: the same as a flip by that player."""
        seat = st.seat(event["player"])
        if len(event["cards"]) != 1:
            raise Illegal("in Snake Cup a player turns one card at a time")
        self.require_open(st)
        self.require_turn(st, seat, "turn a card")
        self.turn(st, seat, event["cards"][0])

    def require_open(self, st: TableState) -> None:
        if st.phase == "over":
            raise Illegal(f"the game is over: {st.names[st.winner]} won")
        if st.phase == "crosses":
            by = st.names[st.vars["crosses_by"]]
            raise Illegal(f"{by} must first say how to give the CROSSES coins they are short of "
                          f"(crosses_short: clockwise or cup)")

    def turn(self, st: TableState, seat: int, card_id: str) -> None:
        self.require_open(st)
        card = self.card(st, card_id)
        st.turn_up(card.id)
        st.vars["last_card"] = card.id
        st.summary = f"{st.names[seat]} turns {card.id}"
        self.act(st, seat, card)
        if st.phase == "flip":
            self.finish_turn(st, seat)

    def act(self, st: TableState, seat: int, card: Card) -> None:
        action, amount = EFFECTS[card.symbol]
        if action == "to_cup":
            self.move(st, seat, CUP, amount)
        elif action == "all_to_cup":
            for s in self.around(st, seat, include_self=True, include_out=False):
                if st.phase == "over":
                    break
                self.move(st, s, CUP, amount)
        elif action == "take_left":
            left = st.next_seat(seat, direction=CLOCKWISE)
            self.move(st, left, seat, amount)
            if card.symbol in SKIPS_VICTIM:
                st.vars["skip"] = left
        elif action == "take_each":
            for s in self.around(st, seat, include_self=False, include_out=False):
                if st.phase == "over":
                    break
                self.move(st, s, seat, amount)
        elif action == "give_each":
            self.crosses(st, seat)
        elif action == "give_right":
            if st.options["comeback"]:
                right = (seat - 1) % st.n          # the very next seat, out or not
            else:
                right = st.next_seat(seat, direction=COUNTERCLOCKWISE)
            self.move(st, seat, right, amount)
        elif action == "take_cup":
            if st.cup:
                self.move(st, CUP, seat, st.cup)
            else:
                st.summary += ": the cup is empty, nothing to take"

    @staticmethod
    def around(st: TableState, seat: int, include_self: bool, include_out: bool) -> list[int]:
        """Seats clockwise from `seat` (itself first when included), as they are now."""
        seats = [(seat + k) % st.n for k in range(0 if include_self else 1, st.n)]
        return [s for s in seats if include_out or not st.out[s]]

    # -- CROSSES ------------------------------------------------------------------------------
    def crosses(self, st: TableState, seat: int) -> None:
        receivers = self.around(st, seat, include_self=False, include_out=st.options["comeback"])
        if st.coins[seat] >= len(receivers):
            for r in receivers:
                if st.phase == "over":
                    break
                self.move(st, seat, r, 1)
            return
        way = st.options["crosses_short"]
        if way == "ask":
            st.phase = "crosses"
            st.vars["crosses_by"] = seat
            st.summary += (f": {st.names[seat]} has {coins(st.coins[seat])} for {len(receivers)} players "
                           f"and chooses: one each clockwise from the left, or the rest into the cup")
            return
        self.short_crosses(st, seat, way)

    def short_crosses(self, st: TableState, seat: int, way: str) -> None:
        if way == "cup":
            st.summary += " (short of coins: the rest goes into the cup)"
            self.move(st, seat, CUP, st.coins[seat])
            return
        st.summary += " (short of coins: one each clockwise from the left while they last)"
        for r in self.around(st, seat, include_self=False, include_out=st.options["comeback"]):
            if st.phase == "over" or st.coins[seat] == 0:
                break
            self.move(st, seat, r, 1)

    def on_crosses_short(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        if st.phase != "crosses":
            raise Illegal("nobody is short of coins for a CROSSES now")
        by = st.vars["crosses_by"]
        if seat != by:
            raise Illegal(f"{st.names[by]} turned the CROSSES and chooses, not {st.names[seat]}")
        way = event["way"]
        if way not in SHORT_WAYS:
            raise Illegal(f"way is 'clockwise' (one each from the left until the coins run out) or "
                          f"'cup' (the rest into the cup), not {way!r}")
        st.vars["crosses_by"] = None
        st.phase = "flip"
        st.summary = f"{st.names[seat]} gives the CROSSES coins"
        self.short_crosses(st, seat, way)
        if st.phase == "flip":
            self.finish_turn(st, seat)

    # -- coins --------------------------------------------------------------------------------
    def move(self, st: TableState, giver, receiver, amount: int) -> int:
        """Up to `amount` coins pass from a seat or the cup to a seat or the cup: a giver short of
        coins gives what they have. A player left with none is out, an out player who receives
        coins is back in, and when one player is left the game ends."""
        have = st.cup if giver == CUP else st.coins[giver]
        moved = min(amount, have)
        if giver == CUP:
            st.cup -= moved
        else:
            st.coins[giver] -= moved
        if receiver == CUP:
            st.cup += moved
        else:
            st.coins[receiver] += moved
        if moved:
            st.effects.append(("coins", giver, receiver, moved))
        who = lambda x: "the cup" if x == CUP else st.names[x]
        st.summary += f"; {who(giver)} gives {who(receiver)} {coins(moved)}"
        if giver != CUP and st.coins[giver] == 0 and not st.out[giver]:
            st.out[giver] = True
            st.summary += f", {st.names[giver]} is out"
        if receiver != CUP and st.out[receiver] and st.coins[receiver] > 0:
            st.out[receiver] = False
            st.summary += f", {st.names[receiver]} is back in the game"
        if st.phase != "over" and len(st.active_seats()) == 1:
            self.last_one_left(st)
        return moved

    def last_one_left(self, st: TableState) -> None:
        winner = st.active_seats()[0]
        st.phase = "over"
        st.winner = winner
        st.current = winner
        st.vars["crosses_by"] = None
        st.summary += f"; {st.names[winner]} is the last player left and takes the cup"
        if st.cup:
            self.move(st, CUP, winner, st.cup)
        st.summary += f"; {st.names[winner]} wins with {coins(st.coins[winner])}"

    def finish_turn(self, st: TableState, seat: int) -> None:
        """The turn passes clockwise to the next player in the game; a robbed HEARTS player who
        is still in misses it. An empty draw pile is made again from the whole discard pile."""
        skipped, st.vars["skip"] = st.vars.get("skip"), None
        nxt = st.next_seat(seat, direction=CLOCKWISE)
        if skipped is not None and nxt == skipped and not st.out[skipped]:
            nxt = st.next_seat(skipped, direction=CLOCKWISE)
            st.summary += f"; {st.names[skipped]} misses the turn"
        st.current = nxt
        st.phase = "flip"
        if st.draw_count == 0:
            moved = len(st.discard)
            st.draw_count, st.discard = moved, []
            st.effects.append(("reshuffle_all", moved))
            st.summary += f"; the deck is used up: the {moved} turned cards are shuffled into a new deck"
        st.summary += f"; {st.names[nxt]} is next"

    # -- views, checks, simulation ------------------------------------------------------------
    def extra_state(self, st: TableState) -> dict:
        return {"start_coins": st.options["coins"], "total_coins": st.vars["total"],
                "last_card": st.vars.get("last_card"), "crosses_by": st.vars.get("crosses_by")}

    def invariants(self, st: TableState) -> list[str]:
        problems = []
        if any(st.hand_counts):
            problems.append(f"players hold cards in Snake Cup: {st.hand_counts}")
        if st.cup < 0 or min(st.coins) < 0:
            problems.append(f"negative coins: {st.coins}, cup {st.cup}")
        if sum(st.coins) + st.cup != st.vars["total"]:
            problems.append(f"coins not conserved: players {st.coins} + cup {st.cup} != {st.vars['total']}")
        for s in range(st.n):
            if st.out[s] != (st.coins[s] == 0):
                problems.append(f"seat {s} has {st.coins[s]} coins but out is {st.out[s]}")
        if st.phase == "over":
            if st.winner is None or st.coins[st.winner] != st.vars["total"] or st.cup != 0:
                problems.append(f"game over but winner {st.winner} does not hold all {st.vars['total']} coins")
        elif len(st.active_seats()) < 2:
            problems.append(f"the game goes on with {len(st.active_seats())} player(s) in it")
        if st.phase not in self.phases:
            problems.append(f"unknown phase {st.phase}")
        return problems

    def sim_candidates(self, st: TableState, hands: list[list[str]], rng: random.Random) -> list[dict]:
        # "flip" is proposed by the simulator itself (it knows the top card); here only CROSSES.
        by = st.vars.get("crosses_by")
        events = []
        if rng.random() < 0.05:   # a wrong player or a wrong word now and then: rejected, nothing changes
            events.append({"type": "crosses_short", "player": (by + 1) % st.n, "way": "cup"})
            events.append({"type": "crosses_short", "player": by, "way": "left"})
        events.append({"type": "crosses_short", "player": by, "way": rng.choice(SHORT_WAYS)})
        return events


RULESETS = [SnakeCup()]
