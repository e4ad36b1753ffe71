"""California Prison UNO (shared/seeds/california-prison.txt): ten cards each, counterclockwise
play from the dealer's right, jump-ins by number, progressive draw penalties, doubles.

docs/rules/prison.md has the rules in our words and every interpretation made here.
"""
from __future__ import annotations

import random

from ..cards import Card
from ..errors import Illegal
from ..options import Option
from ..state import COUNTERCLOCKWISE, TableState
from ..host_actions import HostAction, Input, PLAYER, cards, replace_action, uno_family
from .uno_family import WILD, UnoFamily, plural

PRISON_ACTIONS = replace_action(
    uno_family("UNO!"),
    play=HostAction("play", "Play", "play", "the player puts the picked card down, or several of one number "
                    "(a double: pick each card, the one on top last)",
                    phases=("play", "drawn"), inputs=(PLAYER, cards(None)), style="primary"),
) + (
    HostAction("jump-in", "Jump in", "play", "a player not on turn puts down the same card as the top one "
               "(or a double of it): pick who, then the card or cards; untick if they did not say \"jump in\"",
               phases=("play", "drawn", "color"),
               inputs=(Input("player", "seat", "who jumps in"), cards(None),
                       Input("announced", "flag", "said \"jump in\"", default=True)),
               section="turn"),
)

PENALTY_SYMBOLS = {"draw2": 2, "wild-draw4": 4}


def what(symbol: str) -> str:
    """'a 7' or 'a draw2': how the table says which cards may jump in."""
    return f"an {symbol}" if symbol == "8" else f"a {symbol}"


def lapse_penalty(st: TableState, seat: int) -> None:
    """Nothing is left to draw: the stack lapses, the missed turn does not."""
    st.pending_draw = 0
    st.summary = f"{st.names[seat]} has nothing left to draw; the penalty lapses"
    if st.vars.get("skip_after_draw"):
        st.vars["skip_after_draw"] = False
        st.current = st.next_seat(seat)
        st.summary += f" and {st.names[seat]} misses the turn; {st.names[st.current]} is next"
    st.phase = "play"


class Prison(UnoFamily):
    id = "prison"
    title = "California Prison UNO"
    seed_text = "california-prison.txt"
    deck_id = "uno"
    hand_size = 10
    min_players, max_players = 2, 10
    start_direction = COUNTERCLOCKWISE      # the dealer's right starts, and play runs that way
    call_word = "UNO!"
    host_actions = PRISON_ACTIONS
    call_penalty_option = "last_card_penalty"
    missed_call_words = "never announced the last card"
    options = (
        Option("jump_in_penalty", 2, "cards taken by a player who jumps in without saying \"jump in\"",
               minimum=0, label="Penalty for a silent jump-in (cards)"),
        Option("jump_in_announced_by_default", False, "a jump-in whose event carries no `announced` "
               "field counts as announced (for a table whose camera cannot hear); false: it costs "
               "the penalty", label="Jump-ins count as announced"),
        Option("jump_in_wilds", True, "a plain wild may jump in on a plain wild (wild draw fours "
               "always jump in on wild draw fours)", label="Wilds may jump in on wilds"),
        Option("max_cards_per_play", 0, "most cards of one number that go down together; 0: no "
               "limit (the text plays five skips at once), 2: doubles only, 1: no doubles", minimum=0, label="Most cards of one number at once (0: no limit)"),
        Option("last_card_penalty", 2, "cards taken by a player who does not announce UNO for the "
               "last card (one card left, or going out on a double)", minimum=0, label="Penalty for not announcing the last card (cards)"),
        Option("penalize_uncaught", True, "the referee gives the last-card penalty when the window "
               "shuts with nobody having caught the silent player; false: only when caught", label="Penalize a missed call nobody caught"),
        Option("penalty_skips_turn", True, "a player who draws a penalty stack also misses the turn", label="A penalty also skips the turn"),
        Option("two_player_reverse_skips", True, "with two players a reverse acts as a skip", label="With two players a reverse skips"),
        Option("stack_reverse_any_color", False, "a reverse of any colour may turn a pending penalty "
               "stack back on one's turn; by default it must match like any play (the colour being "
               "played, or a reverse on top); jump-ins with a reverse on a reverse take any colour", label="A reverse of any colour turns a stack"),
    )

    # -- setup ------------------------------------------------------------------------------
    def on_start(self, st: TableState, event: dict) -> None:
        super().on_start(st, event)
        # last_player: who laid the top card (nobody may jump in on their own card); the first
        # card is everybody's to jump on. play_size: cards in the last play (doubles).
        st.vars.update(last_player=None, play_size=1, stack_symbol=None)

    def draws_until_playable(self, st: TableState) -> bool:
        return True     # "you draw from draw deck until you find one"

    # -- what may go down -------------------------------------------------------------------
    def check_play(self, st: TableState, seat: int, cards: list[Card], event: dict) -> None:
        limit = st.options["max_cards_per_play"]
        if limit and len(cards) > limit:
            raise Illegal(f"at most {plural(limit, 'card')} go down together at this table, not {len(cards)}")
        first = cards[0]
        odd = [c.id for c in cards if c.symbol != first.symbol]
        if odd:
            raise Illegal(f"cards that go down together show the same number or symbol: "
                          f"{first.id} and {odd[0]} differ")
        top = st.deck.cards[st.top]
        name, current = st.names[seat], st.names[st.current]
        if seat != st.current:
            if seat == st.vars.get("last_player"):
                raise Illegal(f"{name} laid the {top.id} and cannot jump in on it; it is {current}'s turn")
            if first.symbol != top.symbol:
                raise Illegal(f"it is {current}'s turn; {name} can only jump in with {what(top.symbol)} "
                              f"(any colour), not {first.id}")
            if first.symbol == WILD and not st.options["jump_in_wilds"]:
                raise Illegal("at this table a plain wild does not jump in on a plain wild")
            return
        if st.pending_draw:
            stack = st.vars.get("stack_symbol") or top.symbol
            if first.symbol == stack:
                return
            if first.symbol == "reverse":
                # "Progressive penalties get tricky with reverses": a reverse turns the stack round
                if st.options["stack_reverse_any_color"] or first.symbol == top.symbol \
                        or not all(self.mismatch(st, c) for c in cards):
                    return
                raise Illegal(f"a reverse turns the stack back only when it matches {self.top_words(st)} "
                              f"(a reverse of the colour being played, or on a reverse)")
            raise Illegal(f"{name} must draw {st.pending_draw}, add {what(stack)} to the stack "
                          f"(a draw2 only on a draw2, a wild-draw4 only on a wild-draw4), or turn it "
                          f"back with a reverse")
        reasons = [self.mismatch(st, c) for c in cards]
        if all(reasons):
            raise Illegal(reasons[0] if len(cards) == 1 else
                          f"none of {', '.join(c.id for c in cards)} matches {self.top_words(st)}")

    # -- after the cards are down -----------------------------------------------------------
    def after_play(self, st: TableState, seat: int, cards: list[Card], event: dict) -> None:
        jumped = seat != st.current
        st.vars["play_size"] = len(cards)
        st.vars["last_player"] = seat
        if jumped:
            st.summary = st.summary.replace(" plays ", " jumps in with ", 1)
            announced = event.get("announced")
            if announced is None:
                announced = st.options["jump_in_announced_by_default"]
            if not announced:
                got = st.take_up_to(seat, st.options["jump_in_penalty"])
                st.summary += f" without saying \"jump in\": takes {got}"
        if st.hand_counts[seat] == 0 and not self.called_before_going_out(st, seat, cards):
            got = st.take_up_to(seat, st.options["last_card_penalty"])
            if got:
                st.summary += (f"; {st.names[seat]} went out without announcing {self.call_word} "
                               f"and takes {got} instead of winning")
        super().after_play(st, seat, cards, event)

    @staticmethod
    def called_before_going_out(st: TableState, seat: int, cards: list[Card]) -> bool:
        """A double that empties the hand needs a call before it (a call stands until that
        player's own next play, whatever others play or jump in with meanwhile); a single last
        card needs the call made when it became the last one (the one-card window is shut or
        answered)."""
        if seat in (st.vars.get("announced") or ()):
            return True
        return len(cards) == 1 and st.vars.get("ono_open") != seat

    def card_effect(self, st: TableState, seat: int, card: Card) -> None:
        """Several skips or reverses count as one; several penalty cards add up; a reverse on a
        pending stack turns the stack round with the play."""
        if card.symbol == "reverse" and st.pending_draw:
            st.phase = "play"
            st.direction = -st.direction
            victim = st.next_seat(seat)
            st.current = victim
            st.summary += (f"; play now runs {'clockwise' if st.direction > 0 else 'counterclockwise'} "
                           f"and the stack turns with it: {st.names[victim]} must draw {st.pending_draw} "
                           f"(or add to it, or turn it back)")
            return
        penalty = PENALTY_SYMBOLS.get(card.symbol)
        if penalty is None:
            super().card_effect(st, seat, card)
            return
        st.phase = "play"
        if not st.pending_draw:
            st.vars["stack_symbol"] = card.symbol
        self.penalize_next(st, seat, penalty * st.vars.get("play_size", 1))
        st.vars["skip_after_draw"] = st.options["penalty_skips_turn"]

    def draw_penalty(self, st: TableState, seat: int, count: int) -> None:
        if st.drawable() == 0:   # a last-card penalty just took the last cards: as a pass would
            lapse_penalty(st, seat)
        else:
            super().draw_penalty(st, seat, count)
        if not st.pending_draw:
            st.vars["stack_symbol"] = None

    def on_pass(self, st: TableState, event: dict) -> None:
        super().on_pass(st, event)
        st.vars["stack_symbol"] = None if not st.pending_draw else st.vars["stack_symbol"]

    # -- the last-card call -----------------------------------------------------------------
    def on_call(self, st: TableState, event: dict) -> None:
        caller, target = st.seat(event["caller"]), st.seat(event["target"])
        held = st.hand_counts[target]
        if caller != target and held > 1:
            raise Illegal(f"{st.names[target]} holds {held} cards: there is no last card to call")
        if caller == target and held > 2 and st.vars.get("ono_open") != caller:
            self.require_playing(st)
            self.announce(st, caller)     # before going out on a double or more
            st.summary = f"{st.names[caller]} announces {self.call_word} before going out with several cards"
            return
        super().on_call(st, event)

    def caught(self, st: TableState, caller: int, target: int, event: dict) -> None:
        got = st.take_up_to(target, st.options["last_card_penalty"])
        st.summary = (f"{st.names[caller]} catches {st.names[target]} with one card and no "
                      f"{self.call_word}: {st.names[target]} takes {got}")

    # -- views and checks -------------------------------------------------------------------
    def extra_state(self, st: TableState) -> dict:
        extra = super().extra_state(st)
        extra.update(last_player=st.vars.get("last_player"), stack=st.vars.get("stack_symbol"))
        return extra

    def invariants(self, st: TableState) -> list[str]:
        problems = []
        top = st.deck.cards[st.top] if st.top else None
        if st.pending_draw:
            if top is None or (top.symbol not in PENALTY_SYMBOLS and top.symbol != "reverse"):
                problems.append(f"{st.pending_draw} cards pending with {st.top} on top")
            elif st.vars.get("stack_symbol") not in PENALTY_SYMBOLS:
                problems.append(f"{st.pending_draw} cards pending without a stack symbol")
            elif top.symbol != "reverse" and st.vars.get("stack_symbol") != top.symbol:
                problems.append(f"a {st.vars.get('stack_symbol')} stack topped by {top.id}: penalties mixed")
        if st.phase in ("play", "drawn"):
            if st.active_color not in st.deck.colors:
                problems.append(f"active colour {st.active_color!r} during play")
            if top is not None and top.kind != WILD and st.active_color != top.color:
                problems.append(f"active colour {st.active_color} under a {top.id}")
        if st.phase == "color" and (top is None or top.kind != WILD):
            problems.append(f"a colour is asked for with {st.top} on top")
        if st.phase != "over" and st.vars.get("last_player") is not None and st.out[st.vars["last_player"]]:
            problems.append("the last player is out")
        return problems

    # -- random play for `simulate` ---------------------------------------------------------
    def sim_candidates(self, st: TableState, hands: list[list[str]], rng: random.Random) -> list[dict]:
        if st.phase != "play" and st.phase != "drawn":
            return super().sim_candidates(st, hands, rng)
        deck = st.deck.cards
        top = deck[st.top]
        seat = st.current
        events: list[dict] = []
        # jump-ins: anyone else holding the top card's number or symbol
        for other in rng.sample(range(st.n), st.n):
            if other == seat or other == st.vars.get("last_player") or st.out[other]:
                continue
            same = [c for c in hands[other] if deck[c].symbol == top.symbol]
            if same and rng.random() < 0.35:
                cards = same[:rng.choice((1, 1, 2, len(same)))]
                jump = {"type": "play", "player": other, "cards": cards}
                roll = rng.random()
                if roll < 0.7:
                    jump["announced"] = True
                elif roll < 0.85:
                    jump["announced"] = False
                if deck[cards[-1]].kind == WILD and rng.random() < 0.7:
                    jump["color"] = rng.choice(st.deck.colors)
                if len(cards) == len(hands[other]) and len(cards) > 1 and rng.random() < 0.7:
                    events.append({"type": "call", "caller": other, "target": other})
                events.append(jump)
                break
        # the player on turn: singles and groups of one symbol
        groups: dict[str, list[str]] = {}
        for c in hands[seat]:
            groups.setdefault(deck[c].symbol, []).append(c)
        plays = []
        for symbol, cards in groups.items():
            rng.shuffle(cards)
            plays.append([cards[0]])
            if len(cards) > 1:
                plays.append(cards[:rng.randint(2, len(cards))])
        rng.shuffle(plays)
        if rng.random() < 0.7:
            plays.sort(key=len, reverse=True)      # doubles first, most of the time
        for cards in plays:
            if len(cards) == len(hands[seat]) and len(cards) > 1 and rng.random() < 0.7:
                events.append({"type": "call", "caller": seat, "target": seat})
            play = {"type": "play", "player": seat, "cards": cards}
            if deck[cards[-1]].kind == WILD and rng.random() < 0.5:
                play["color"] = rng.choice(st.deck.colors)
            events.append(play)
        open_seat = st.vars.get("ono_open")
        if open_seat is not None and rng.random() < 0.5:
            caller = open_seat if rng.random() < 0.6 else rng.randrange(st.n)
            events.insert(0, {"type": "call", "caller": caller, "target": open_seat})
        if len(hands[seat]) == 2 and rng.random() < 0.3:
            events.insert(0, {"type": "call", "caller": seat, "target": seat})
        if rng.random() < 0.01:
            events.insert(0, {"type": "call", "caller": rng.randrange(st.n), "target": rng.randrange(st.n)})
        count = max(1, min(st.pending_draw, st.drawable()))
        if st.pending_draw > 1 and rng.random() < 0.3:
            count = 1
        draw = {"type": "draw", "player": seat, "count": count}
        if st.pending_draw and rng.random() < 0.3:
            events.insert(0, draw)
        events.append(draw)
        if count > 1:   # a last-card penalty taken first may leave fewer cards than counted
            events.append({"type": "draw", "player": seat, "count": 1})
        events.append({"type": "pass", "player": seat})
        return events


RULESETS = [Prison()]
