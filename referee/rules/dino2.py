"""DINO 2 (shared/seeds/dino2.txt): a shedding game on its own 144-card deck, with seventeen kinds
of action card, turns of several cards, and three ways to win.

docs/rules/dino2.md states the rules in our words with every interpretation and option. The shape
of a turn: the first card must match the pile; a STREAK, PLACE 2, MAKE IT RAIN or FUEGO lets the
user put down more cards (in the same play event, or in later play events until a `pass`); then
the turn's effects run (dino2_effects), a GIVE or a colour may be asked for, and the next player
is up. Draw penalties are owed per seat (vars["owed"]) and drawn before that player's next play.
"""
from __future__ import annotations

import datetime
import random

from ..cards import Card
from ..errors import Illegal
from ..options import Option
from ..state import TableState
from . import dino2_effects as fx
from . import dino2_sim
from ..host_actions import FLIP, HostAction, Input, PLAYER, cards
from .base import Rules

TURN_USER = Input("player", "player", "player", default="turn_user")
DINO2_ACTIONS = (
    FLIP,
    HostAction("play", "Play", "play", "the player puts the picked card down; a STREAK, PLACE 2, MAKE IT RAIN or "
               "FUEGO then asks for its extra cards", phases=("play",), inputs=(PLAYER, cards(1)), style="primary"),
    HostAction("draw", "Draw", "draw", "cards owed first (whoever owes them), then up to three in a turn",
               phases=("play", "more", "give", "color"),
               inputs=(PLAYER, Input("count", "count", "cards", default="pending_draw", minimum=1))),
    HostAction("pass", "Skip the turn", "pass", "after three cards drawn (or none left) the player is skipped",
               phases=("play",), inputs=(PLAYER,)),
    HostAction("more", "Put down", "play", "one more card on the STREAK, PLACE 2, MAKE IT RAIN or FUEGO (each "
               "card of a PLACE 2 acts, in order)", phases=("more",),
               inputs=(TURN_USER, cards("more_allowed")), section="decision", style="primary"),
    HostAction("no-more", "No more cards", "pass", "the user of the STREAK, PLACE 2 or MAKE IT RAIN stops "
               "putting cards down", phases=("more",), inputs=(TURN_USER,), section="decision",
               when=(("turn_mode", ("streak", "place2", "make-it-rain")),)),
    HostAction("fuego", "FUEGO", "fuego", "the FUEGO's user either puts one more card on it or makes everyone else "
               "draw one", phases=("more",),
               inputs=(TURN_USER, Input("choice", "choice", "choice",
                                        choices=(("extra", "One more card on it"),
                                                 ("draw", "Everyone else draws one")))),
               when=(("turn_mode", ("fuego",)), ("turn_cards.length", (1,))), section="decision"),
    HostAction("give-card", "Give the picked card", "give", "the GIVE's user hands the picked card (or two on "
               "Christmas) to the next player", phases=("give",), inputs=(TURN_USER, cards("give_left")),
               section="decision", style="primary"),
    HostAction("give-unseen", "Give a card, face unseen", "give", "one card passes to the next player without "
               "its face being shown", phases=("give",), inputs=(TURN_USER,), fixed=(("count", 1),),
               section="decision"),
    HostAction("give-none", "Give nothing", "give", "the GIVE's user keeps their cards", phases=("give",),
               inputs=(TURN_USER,), fixed=(("count", 0),), section="decision"),
    HostAction("color", "Name the colour", "choose_color", "the colour named after a rainbow card",
               phases=("color",), inputs=(TURN_USER, Input("color", "color", "colour")), section="decision"),
    HostAction("show-trio", "Shows DINO, DRAW 7 and NATHAN", "reveal", "the player wins at once",
               inputs=(PLAYER,), fixed=(("cards", ["dino", "green-draw7", "nathan"]),), section="anytime"),
    HostAction("show-captains", "Shows three CAPTAIN JACK SPARROWs", "reveal", "pick the three cards; the "
               "player wins at once", inputs=(PLAYER, cards(3, minimum=3, symbols=("captain-jack-sparrow",))),
               section="anytime"),
    HostAction("cheating", "Caught cheating: end the game", "cheating", "the game ends and nobody wins",
               inputs=(Input("player", "seat", "who was caught", optional=True),), section="anytime",
               style="danger"),
)

RAINBOW = "wild"
TRIO = ("dino", "green-draw7", "nathan")
CAPTAIN = "captain-jack-sparrow"


def feast_of(day: datetime.date) -> str | None:
    """Christmas (25 December) or Thanksgiving (the fourth Thursday of November: the 22nd-28th)."""
    if day.month == 12 and day.day == 25:
        return "christmas"
    if day.month == 11 and day.weekday() == 3 and 22 <= day.day <= 28:
        return "thanksgiving"
    return None


def game_date(options: dict, event: dict) -> datetime.date | None:
    text = event.get("date") or options.get("date") or ""
    if not text:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise Illegal(f"the date {text!r} is not a day written YYYY-MM-DD") from None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class Dino2(Rules):
    id = "dino2"
    title = "DINO 2"
    seed_text = "dino2.txt"
    deck_id = "dino2"
    hand_size = 5
    min_players, max_players = 2, 10
    options = (
        Option("speed_round", False, "deal three cards each instead of five (or seven on a feast day)", label="Speed round (three cards each)"),
        Option("date", "", "the day of the game, YYYY-MM-DD, when the setup event carries no `date`; "
               "empty: an ordinary day (no feast)", label="Day of the game (feast days)"),
        Option("rain_half_of", "after", "MAKE IT RAIN lets the user put down half of the hand held "
               "after placing it (after), or half of the hand before, the MAKE IT RAIN counting as "
               "one of that half (before)", choices=("after", "before"), label="MAKE IT RAIN counts half of the hand"),
        Option("fuego_extra_any", False, "the card played on top of a FUEGO may be any card (by "
               "default it must match the FUEGO: red, a FUEGO, or a rainbow card)", label="Any card may go on a FUEGO"),
        Option("ice_wraps", True, "ICE's skips go on round the table when the user holds more cards "
               "than there are other players; off: at most everyone else is skipped", label="ICE's skips go round the table"),
        Option("stop_drawing_anytime", False, "a player who draws may end the turn after any draw; "
               "by default the turn ends only after three cards drawn (or none left)", label="Stop drawing after any draw"),
        Option("nathan_not_alone_wins", True, "a NATHAN put on a FUEGO as the user's last cards was "
               "not played alone, so the user wins; off: its five cards are owed (only a PLACE 2 or "
               "MAKE IT RAIN spares them), so the user does not win", label="NATHAN on a FUEGO as the last cards wins"),
    )
    host_actions = DINO2_ACTIONS
    phases = {"flip": "the first card to be turned up",
              "play": "the current player to play, or to draw (cards owed first, then up to three)",
              "more": "the user of a STREAK, PLACE 2, MAKE IT RAIN or FUEGO to put down more cards or pass",
              "give": "the user of a GIVE to hand a card to the next player (a give event)",
              "color": "the user of a rainbow card to name the colour",
              "over": "nothing: the game is over"}

    # -- setup --------------------------------------------------------------------------------
    def deal_size(self, options: dict, event: dict) -> int:
        if options.get("speed_round"):
            return 3
        day = game_date(options, event)
        return 7 if day and feast_of(day) else 5

    def on_start(self, st: TableState, event: dict) -> None:
        day = game_date(st.options, event)
        st.vars.update(date=day.isoformat() if day else None, feast=feast_of(day) if day else None,
                       owed=(0,) * st.n, drawn=0, no_winner=False, win_by=None)
        self.clear_turn(st)
        st.current = st.dealer
        if st.vars["feast"]:
            st.summary += f" (a {st.vars['feast']} game)"

    @staticmethod
    def clear_turn(st: TableState) -> None:
        st.vars.update(user=None, mode=None, limit=None, placed=(), streak_color=None, fuego=None,
                       turn_color=None, queue=(), skips=(), needs_color=False, give_to=None, give_left=0)

    def on_flip(self, st: TableState, event: dict) -> None:
        if st.phase != "flip":
            raise Illegal("the first card is already turned up")
        card = self.card(st, event["card"])
        st.turn_up(card.id)
        # "If it is an action card, its effects do not take place"; a rainbow card names no colour
        st.active_color = card.color
        st.current = st.next_seat(st.dealer)
        st.phase = "play"
        st.summary = (f"{card.id} is turned up (no effect); {st.names[st.current]} starts"
                      + ("; any colour may follow" if card.color is None else ""))

    # -- matching -----------------------------------------------------------------------------
    @staticmethod
    def rainbow(card: Card) -> bool:
        return card.kind == RAINBOW

    def mismatch(self, st: TableState, card: Card) -> str | None:
        """Why `card` cannot open a turn on the pile now, or None."""
        color = st.active_color
        shown = f"{st.top} (colour {color or 'any'})" if st.deck.cards[st.top].color != color else st.top
        # no colour in force (a NATHAN, "the next player can place any color on it", or a rainbow
        # first card): FUEGO and ICE go on it like any other card
        if card.symbol == "fuego":
            return None if color in fx.WARM or color is None else f"FUEGO can only go on a red or orange card, not on {shown}"
        if card.symbol == "ice":
            return None if color in fx.COOL or color is None else f"ICE can only go on a blue or green card, not on {shown}"
        if self.rainbow(card) or color is None or card.color == color:
            return None
        if card.symbol == st.deck.cards[st.top].symbol:
            return None
        return f"{card.id} does not match {shown} by colour or symbol"

    def extra_mismatch(self, st: TableState, card: Card, last_in_event: bool) -> str | None:
        """Why `card` cannot be one of the extra cards of this turn, or None."""
        mode, placed = st.vars["mode"], st.vars["placed"]
        extras = len(placed) - 1
        opener = placed[0][0]
        if st.vars["limit"] is not None and extras >= st.vars["limit"]:
            return f"the {opener} allows {plural(st.vars['limit'], 'more card')}, and they are down"
        below = st.deck.cards[placed[-1][0]]
        any_color = below.symbol == "nathan"       # "the next player can place any color on it"
        if card.symbol == "fuego" and below.color not in fx.WARM and not any_color:
            return f"FUEGO can only go on a red or orange card, not on {below.id}"
        if card.symbol == "ice" and below.color not in fx.COOL and not any_color:
            return f"ICE can only go on a blue or green card, not on {below.id}"
        if mode == "streak":
            if self.rainbow(card):
                if last_in_event:
                    return (f"a rainbow card cannot be the last card of a STREAK: put {card.id} down "
                            f"together with the card of the streak's colour that goes on it")
            elif st.vars["streak_color"] not in (None, card.color):
                return f"this STREAK is {st.vars['streak_color']}: {card.id} is {card.color}"
        if mode == "fuego":
            if st.vars["fuego"] == "draw":
                return "the FUEGO made everyone draw: no card goes on it"
            fuego = st.deck.cards[opener]
            if not (st.options["fuego_extra_any"] or self.rainbow(card) or card.color == fuego.color
                    or card.symbol == "fuego"):
                return f"the card on a FUEGO must match it: {card.id} is not {fuego.color} or rainbow"
        return None

    # -- a turn -------------------------------------------------------------------------------
    def owes(self, st: TableState, seat: int) -> int:
        return st.vars["owed"][seat]

    def on_play(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        cards = [self.card(st, c) for c in event["cards"]]
        self.require_playing(st)
        choice = event.get("fuego")
        if choice not in (None, "draw", "extra"):
            raise Illegal(f"a FUEGO's choice is 'draw' or 'extra', not {choice!r}")
        color = event.get("color")
        if color is not None:
            if not any(self.rainbow(c) for c in cards):
                raise Illegal(f"only a rainbow card names a colour; none of {', '.join(c.id for c in cards)} is one")
            self.check_color(st, color)
        if st.phase == "play":
            self.require_turn(st, seat, "play")
            if self.owes(st, seat):
                raise Illegal(f"{st.names[seat]} must first draw the {self.owes(st, seat)} cards they owe")
            self.open_turn(st, seat, cards, choice)
            extras = cards[1:]
        elif st.phase == "more":
            if seat != st.vars["user"]:
                raise Illegal(f"{st.names[st.vars['user']]} is still putting down cards on the "
                              f"{st.vars['placed'][0][0]}")
            if choice is not None:
                raise Illegal("a FUEGO's choice goes with the FUEGO (or in a fuego event)")
            extras = cards
        else:
            raise Illegal(self.waiting(st))
        st.summary = f"{st.names[seat]} plays {', '.join(c.id for c in cards)}"
        if color is not None:
            st.vars["turn_color"] = color
        for i, card in enumerate(extras):
            reason = self.extra_mismatch(st, card, i == len(extras) - 1)
            if reason:
                raise Illegal(reason)
            if st.vars["mode"] == "streak" and not self.rainbow(card):
                st.vars["streak_color"] = card.color
            if st.vars["mode"] == "fuego":
                st.vars["fuego"] = "extra"
            self.place(st, seat, card)
        done = (st.vars["mode"] is None or st.hand_counts[seat] == 0
                or (st.vars["limit"] is not None and len(st.vars["placed"]) - 1 >= st.vars["limit"])
                or (st.phase == "play" and len(cards) > 1))     # a several-card play is the whole turn
        if st.vars["mode"] == "fuego" and st.vars["fuego"] == "draw":
            done = True
        if done:
            self.finish_turn(st)
        else:
            st.phase = "more"
            st.summary += f"; {st.names[seat]} may put down more cards on the {st.vars['placed'][0][0]}"

    def open_turn(self, st: TableState, seat: int, cards: list[Card], choice: str | None) -> None:
        first = cards[0]
        reason = self.mismatch(st, first)
        if reason:
            raise Illegal(reason)
        mode = first.symbol if first.symbol in fx.OPENERS else None
        if mode is None and len(cards) > 1:
            raise Illegal(f"{first.id} is played alone: only a STREAK, PLACE 2, MAKE IT RAIN or "
                          f"FUEGO lets more cards follow in the same turn")
        if choice is not None and mode != "fuego":
            raise Illegal("only a FUEGO asks for a choice")
        if choice == "draw" and len(cards) > 1:
            raise Illegal("a FUEGO either takes one more card or makes everyone draw, not both")
        self.clear_turn(st)
        st.vars.update(user=seat, mode=mode, fuego=choice)
        held = st.hand_counts[seat]
        if mode == "place2":
            st.vars["limit"] = 2
        elif mode == "fuego":
            st.vars["limit"] = 1
        elif mode == "make-it-rain":
            st.vars["limit"] = ((held - 1) // 2 if st.options["rain_half_of"] == "after"
                                else max(0, held // 2 - 1))
        self.place(st, seat, first)

    @staticmethod
    def place(st: TableState, seat: int, card: Card) -> None:
        st.play_from_hand(seat, [card.id])
        st.vars["placed"] = st.vars["placed"] + ((card.id, st.hand_counts[seat]),)

    def finish_turn(self, st: TableState) -> None:
        """The turn's cards are down: queue their effects and run them."""
        mode, placed = st.vars["mode"], st.vars["placed"]
        top = st.deck.cards[placed[-1][0]]
        if mode == "place2":      # every extra card acts, in order
            queue = tuple((cid, held, mode) for cid, held in placed[1:])
            needs = any(self.rainbow(st.deck.cards[cid]) for cid, _ in placed[1:])
        elif mode == "fuego" and st.vars["fuego"] != "draw":
            queue = tuple((cid, held, mode) for cid, held in placed[1:])   # the extra card acts
            needs = self.rainbow(top) and top.symbol != "nathan"
        else:                     # one card, or a STREAK / MAKE IT RAIN: only the top card acts
            context = mode if len(placed) > 1 else None
            queue = ((placed[-1][0], placed[-1][1], context),)
            needs = self.rainbow(top) and top.symbol != "nathan"
        st.vars.update(queue=queue, skips=(0,) * st.n, needs_color=needs)
        self.run_queue(st)

    def run_queue(self, st: TableState) -> None:
        while st.vars["queue"]:
            (cid, held, context), st.vars["queue"] = st.vars["queue"][0], st.vars["queue"][1:]
            if fx.apply(st, cid, held, context) == "give":
                st.phase = "give"
                st.summary += (f"; {st.names[st.vars['user']]} may give "
                               f"{'up to two cards' if st.vars['give_left'] == 2 else 'a card'} "
                               f"to {st.names[st.vars['give_to']]}")
                return
        self.end_turn(st)

    def end_turn(self, st: TableState) -> None:
        if any(st.hand_counts[s] == 0 and not self.owes(st, s) for s in range(st.n)):
            # a winning play sets the colour like any other: the colour named, if one was, else
            # the top card's (none for a rainbow card on top)
            named = st.vars["turn_color"] if st.vars["needs_color"] else None
            st.active_color = named or st.deck.cards[st.top].color
        if self.check_empty_hands(st):
            return
        if st.vars["needs_color"] and st.vars["turn_color"] is None:
            st.phase = "color"
            st.summary += f"; {st.names[st.vars['user']]} names the next colour"
            return
        self.pass_turn(st)

    def pass_turn(self, st: TableState) -> None:
        top = st.deck.cards[st.top]
        if st.vars["needs_color"]:
            st.active_color = st.vars["turn_color"]
            st.summary += f"; the colour is {st.active_color}"
        else:
            st.active_color = top.color        # NATHAN on top: any colour may follow (None)
            if top.color is None:
                st.summary += "; any colour may follow"
        st.current = fx.next_turn(st)
        st.vars["drawn"] = 0
        self.clear_turn(st)
        st.phase = "play"
        st.summary += f"; {st.names[st.current]} is next"

    def check_empty_hands(self, st: TableState) -> bool:
        """A player with no cards who owes none has won (after a SWITCH HANDS, the next player)."""
        user = st.vars.get("user")
        order = ([user] if user is not None else []) + list(range(st.n))
        for seat in order:
            if not st.out[seat] and st.hand_counts[seat] == 0 and self.owes(st, seat) == 0:
                self.win(st, seat, "no cards")
                return True
        return False

    def win(self, st: TableState, seat: int, how: str) -> None:
        st.winner = seat
        st.phase = "over"
        st.vars["win_by"] = how
        st.vars["owed"] = (0,) * st.n
        st.summary += f"; {st.names[seat]} wins ({how})"

    # -- decisions ----------------------------------------------------------------------------
    def check_color(self, st: TableState, color: str) -> None:
        if color not in st.deck.colors:
            raise Illegal(f"{color!r} is not a colour of this deck ({', '.join(st.deck.colors)})")

    def on_choose_color(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        if st.phase != "color":
            raise Illegal("no colour is asked for now")
        if seat != st.vars["user"]:
            raise Illegal(f"{st.names[st.vars['user']]} names the colour, not {st.names[seat]}")
        self.check_color(st, event["color"])
        st.vars["turn_color"] = event["color"]
        st.summary = f"{st.names[seat]} names {event['color']}"
        st.vars["needs_color"] = True
        self.pass_turn(st)

    def on_give(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        if st.phase != "give":
            raise Illegal("no GIVE is waiting for a card now")
        user, to, most = st.vars["user"], st.vars["give_to"], st.vars["give_left"]
        if seat != user:
            raise Illegal(f"{st.names[user]} played the GIVE, not {st.names[seat]}")
        cards = event.get("cards") or []
        count = event.get("count", len(cards) if cards else None)
        if count is None:
            raise Illegal("say how many cards are given (count) or which (cards)")
        if cards and len(cards) != count:
            raise Illegal(f"count {count} but {len(cards)} cards named")
        if not 0 <= count <= most:
            raise Illegal(f"a GIVE passes {'one or two cards on Christmas' if most == 2 else 'one card'}, not {count}")
        if count > st.hand_counts[user]:
            raise Illegal(f"{st.names[user]} holds only {plural(st.hand_counts[user], 'card')}")
        for cid in cards:
            self.card(st, cid)
        if count and not cards:
            st.known[user] = {}    # an unnamed card may be one of those known to be in the hand
        for i in range(count):
            st.give(user, to, cards[i] if cards else None)
        shown = f" ({', '.join(cards)})" if cards else ""
        st.summary = (f"{st.names[user]} gives {plural(count, 'card')}{shown} to {st.names[to]}" if count
                      else f"{st.names[user]} gives nothing")
        st.vars.update(give_to=None, give_left=0)
        self.run_queue(st)

    def on_fuego(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        if st.phase != "more" or st.vars["mode"] != "fuego" or len(st.vars["placed"]) > 1:
            raise Illegal("no FUEGO is waiting for its user's choice")
        if seat != st.vars["user"]:
            raise Illegal(f"{st.names[st.vars['user']]} played the FUEGO, not {st.names[seat]}")
        choice = event["choice"]
        if choice not in ("draw", "extra"):
            raise Illegal(f"a FUEGO's choice is 'draw' or 'extra', not {choice!r}")
        st.vars["fuego"] = choice
        if choice == "draw":
            st.summary = f"{st.names[seat]} makes everyone else draw one with the FUEGO"
            self.finish_turn(st)
        else:
            st.summary = f"{st.names[seat]} will put one more card on the FUEGO"

    # -- drawing and passing -----------------------------------------------------------------
    def on_draw(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        count = event["count"]
        self.require_playing(st)
        if count < 1:
            raise Illegal("a draw takes at least one card")
        owed = self.owes(st, seat)
        if owed:
            if count > min(owed, st.drawable()):
                raise Illegal(f"{st.names[seat]} owes {plural(min(owed, st.drawable()), 'card')}, "
                              f"not {count}; draw what is owed first")
            st.take(seat, count)
            fx.owe(st, seat, -count)
            st.summary = f"{st.names[seat]} draws {plural(count, 'owed card')}"
            if self.owes(st, seat):
                st.summary += f" ({self.owes(st, seat)} still owed)"
            return
        if st.phase != "play":
            raise Illegal(self.waiting(st))
        self.require_turn(st, seat, "draw")
        drawn = st.vars["drawn"]
        if drawn + count > 3:
            raise Illegal(f"a player who cannot play draws up to three cards; {st.names[seat]} "
                          f"has drawn {drawn} this turn")
        if count > st.drawable():
            raise Illegal(f"only {st.drawable()} cards are left to draw")
        st.take(seat, count)
        st.vars["drawn"] = drawn + count
        st.summary = f"{st.names[seat]} draws {plural(count, 'card')} ({drawn + count} of up to three)"

    def on_pass(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        self.require_playing(st)
        if st.phase == "more":
            if seat != st.vars["user"]:
                raise Illegal(f"{st.names[st.vars['user']]} is putting down cards, not {st.names[seat]}")
            if st.vars["mode"] == "fuego":
                raise Illegal("the FUEGO asks for a choice: one more card on it, or everyone else "
                              "draws one (a fuego event with choice 'draw')")
            st.summary = f"{st.names[seat]} puts down no more cards"
            self.finish_turn(st)
            return
        if st.phase != "play":
            raise Illegal(self.waiting(st))
        self.require_turn(st, seat, "pass")
        if self.owes(st, seat):
            raise Illegal(f"{st.names[seat]} must first draw the {self.owes(st, seat)} cards they owe")
        drawn = st.vars["drawn"]
        if drawn < 3 and st.drawable() > 0 and not (st.options["stop_drawing_anytime"] and drawn):
            raise Illegal(f"{st.names[seat]} must play, or draw up to three cards before the turn "
                          f"is skipped ({drawn} drawn so far)")
        st.current = st.next_seat(seat)
        st.vars["drawn"] = 0
        st.summary = f"{st.names[seat]} cannot play and is skipped; {st.names[st.current]} is next"

    # -- special hands and the cheating rule --------------------------------------------------
    def on_reveal(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        if st.phase == "over":
            self.require_playing(st)      # raises: the game is over
        shown = event["cards"]
        for cid in shown:
            self.card(st, cid)
        captains = [c for c in shown if st.deck.cards[c].symbol == CAPTAIN]
        if all(c in shown for c in TRIO):
            how, proof = "DINO, DRAW 7 and NATHAN", list(TRIO)
        elif len(captains) >= 3:
            how, proof = "three CAPTAIN JACK SPARROWs", captains[:3]
        else:
            raise Illegal(f"{', '.join(shown) or 'nothing'} is no winning hand: it takes DINO, "
                          f"DRAW 7 and NATHAN, or three CAPTAIN JACK SPARROWs")
        st.check_in_hand(seat, proof)
        known = dict(st.known[seat])
        for cid in set(proof):
            known[cid] = max(known.get(cid, 0), proof.count(cid))
        st.known[seat] = known
        st.summary = f"{st.names[seat]} shows {', '.join(proof)}"
        self.win(st, seat, how)

    def on_cheating(self, st: TableState, event: dict) -> None:
        if st.phase == "over":
            self.require_playing(st)      # raises: the game is over
        who = event.get("player")
        caught = f"{st.names[st.seat(who)]} is caught" if who is not None else "someone is caught"
        st.winner = None
        st.phase = "over"
        st.vars.update(no_winner=True, owed=(0,) * st.n)
        st.summary = (f"{caught} cheating{': ' + event['reason'] if event.get('reason') else ''}; "
                      f"nobody can win this game")

    # -- bookkeeping after every event ---------------------------------------------------------
    def handle(self, st: TableState, event: dict) -> None:
        super().handle(st, event)
        if st.phase != "over" and st.drawable() == 0 and any(st.vars["owed"]):
            st.vars["owed"] = (0,) * st.n      # nothing left to draw: what is owed lapses
            st.summary += "; no card is left to draw, so nothing more is owed"
            if st.phase == "play":
                self.check_empty_hands(st)
        st.pending_draw = self.owes(st, st.current) if st.phase != "over" else 0

    def waiting(self, st: TableState) -> str:
        user = st.vars.get("user")
        return {"more": f"{st.names[user] if user is not None else ''} is still putting down cards",
                "give": f"{st.names[user] if user is not None else ''} must first give a card (or none) "
                        f"for the GIVE",
                "color": f"{st.names[user] if user is not None else ''} must first name a colour",
                "flip": "the first card has not been turned up yet"}.get(st.phase, f"not now ({st.phase})")

    # -- views, invariants and simulation ------------------------------------------------------
    def extra_state(self, st: TableState) -> dict:
        v = st.vars
        return {"owed": list(v["owed"]), "date": v["date"], "feast": v["feast"],
                "drawn_this_turn": v["drawn"], "turn_mode": v["mode"], "turn_user": v["user"],
                "turn_cards": [c for c, _ in v["placed"]], "more_allowed": self.more_allowed(st),
                "streak_color": v["streak_color"], "give_to": v["give_to"], "give_left": v["give_left"],
                "win_by": v["win_by"], "no_winner": v["no_winner"]}

    @staticmethod
    def more_allowed(st: TableState) -> int | None:
        if st.phase != "more" or st.vars["limit"] is None:
            return None
        return st.vars["limit"] - (len(st.vars["placed"]) - 1)

    def invariants(self, st: TableState) -> list[str]:
        return dino2_sim.invariants(self, st)

    def sim_candidates(self, st: TableState, hands: list[list[str]], rng: random.Random) -> list[dict]:
        return dino2_sim.candidates(self, st, hands, rng)


RULESETS = [Dino2()]
