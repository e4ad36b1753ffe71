"""Regulation UNO (shared/seeds/regulation.txt): match the colour or the number, no draw two on a
draw two, the first card's special rulings, and the wild draw four that may be bluffed and
challenged (the bluffer's hand is revealed).

docs/rules/regulation.md has the rules in our words and every interpretation made here.
"""
from __future__ import annotations

import random

from ..cards import Card
from ..errors import Illegal
from ..options import Option
from ..state import TableState
from ..host_actions import HostAction, Input, PLAYER, cards, replace_action, uno_family, with_phases
from .uno_family import WILD, UnoFamily, plural

_BASE = {a.id: a for a in uno_family("UNO!")}
REGULATION_ACTIONS = replace_action(
    uno_family("UNO!"),
    play=with_phases(_BASE["play"], "discard"),
    draw=with_phases(_BASE["draw"], "challenge", "discard"),
    call=with_phases(_BASE["call"], "discard", "challenge"),
) + (
    HostAction("challenge", "Challenge the +4", "challenge", "the victim of the wild-draw4 says it was played "
               "while its player held a card of the colour in play (or tap Draw to accept the four)",
               phases=("challenge",), inputs=(PLAYER,), section="decision", style="primary"),
    HostAction("answer", "Show the hand held", "reveal", "the wild-draw4's player shows the hand held when it "
               "went down: pick every card of it",
               phases=("reveal",), inputs=(Input("player", "player", "player", default="challenge.player"),
                                           cards("challenge.hand_at_play")),
               section="decision", style="primary"),
)

CHALLENGE_LOSS = 2      # "the four cards from the deck plus two more cards"


class Regulation(UnoFamily):
    id = "regulation"
    title = "Regulation UNO"
    seed_text = "regulation.txt"
    deck_id = "uno"
    hand_size = 7
    call_word = "UNO!"
    call_penalty_option = "call_penalty"
    host_actions = REGULATION_ACTIONS
    phases = {**UnoFamily.phases,
              "discard": "the first player to discard a card of the first draw2's colour",
              "challenge": "the wild-draw4's victim to challenge it or draw 4",
              "reveal": "the wild-draw4's player to show their whole hand"}
    options = (
        Option("two_player_reverse_skips", False, "with two players a reverse acts as a skip; the "
               "text's reverse gives the turn back to the player before, which with two players is "
               "the other one, so by default it acts as an ordinary card", label="With two players a reverse skips"),
        Option("penalty_skips_turn", True, "a player who takes the cards of a draw2 or wild-draw4 "
               "also misses the turn", label="A penalty also skips the turn"),
        Option("skip_on_skip", False, "a skip may go on a skip of another colour (the text: a skip "
               "only on its own colour)", label="A skip may go on a skip of another colour"),
        Option("draw2_on_paid_draw2", True, "a draw2 of the colour being played may go on a draw2 "
               "once that one's two cards are drawn (\"A +2 card cannot be played with another +2\" "
               "forbids stacking on an unpaid one); false: a draw2 never goes on a draw2", label="A +2 may go on a paid +2"),
        Option("first_wild_named_by", "first_player", "who names the colour when a wild is turned "
               "up first", choices=("first_player", "dealer"), label="Who names the colour of a first wild"),
        Option("call_penalty", 1, "cards taken by a player who does not call UNO on the last card",
               minimum=0, label="Penalty for not calling UNO (cards)"),
        Option("penalize_uncaught", True, "the referee gives the call penalty when the window shuts "
               "with nobody having claimed it; false: only when another player claims it", label="Penalize a missed call nobody caught"),
    )

    # -- setup ------------------------------------------------------------------------------
    def on_start(self, st: TableState, event: dict) -> None:
        super().on_start(st, event)
        # first_discard: the colour the first player must discard after a first draw2;
        # challenge: (player of the wild-draw4, victim, colour being played before it).
        st.vars.update(first_discard=None, first_wild_stays=False, challenge=None, color_before=None)

    def first_card(self, st: TableState, card: Card) -> None:
        first = st.next_seat(st.dealer)
        if card.symbol == "wild-draw4":          # back into the pile, which is shuffled
            self.flip_back(st, card)
            st.summary = f"{card.id} is turned up: it goes back, the draw pile is shuffled and another card turned up"
            return
        if card.kind == WILD:
            chooser = first if st.options["first_wild_named_by"] == "first_player" else st.dealer
            st.phase, st.vars["chooser"] = "color", chooser
            st.vars["first_wild_stays"] = chooser == first
            st.current = chooser
            st.summary += f"; {st.names[chooser]} names the colour"
            return
        if card.symbol == "draw2":
            st.active_color = card.color
            st.current = first
            st.pending_draw = 2
            st.vars["skip_after_draw"] = False
            st.vars["first_discard"] = card.color
            st.phase = "play"
            st.summary += (f"; {st.names[first]} takes two cards and then discards a {card.color} card")
            return
        super().first_card(st, card)             # a reverse: counterclockwise from the dealer's right

    # -- matching ---------------------------------------------------------------------------
    def mismatch(self, st: TableState, card: Card) -> str | None:
        if card.kind == WILD:
            return None
        top = st.deck.cards[st.top]
        if card.symbol == "draw2" and top.symbol == "draw2":
            if not (st.options["draw2_on_paid_draw2"] and card.color == st.active_color):
                return f"a draw2 cannot go on a draw2 ({card.id} on {top.id})"
        if card.color == st.active_color:
            return None
        if top.kind != WILD:
            if card.kind == "number" and top.kind == "number" and card.symbol == top.symbol:
                return None
            if card.symbol == "reverse" == top.symbol:
                return None
            if card.symbol == "skip" == top.symbol and st.options["skip_on_skip"]:
                return None
            if card.symbol == top.symbol == "skip":
                return f"a skip goes only on its own colour: {card.id} on {top.id}"
        return (f"{card.id} matches neither the colour being played ({st.active_color}) "
                f"nor the number of {top.id}")

    def require_action_phase(self, st: TableState) -> None:
        super().require_action_phase(st)
        chal = st.vars.get("challenge")
        if st.phase == "challenge":
            raise Illegal(f"{st.names[chal[1]]} must first challenge {st.names[chal[0]]}'s wild-draw4 "
                          f"or draw 4")
        if st.phase == "reveal":
            raise Illegal(f"{st.names[chal[0]]} must first show their hand to answer the challenge")

    def check_play(self, st: TableState, seat: int, cards: list[Card], event: dict) -> None:
        super().check_play(st, seat, cards, event)
        # a hand shown to answer a challenge stays known: TableState.check_in_hand refuses cards outside it
        color = st.vars.get("first_discard")
        if color and cards[0].color != color:
            raise Illegal(f"{st.names[seat]} must discard a {color} card after the first draw2, "
                          f"not {cards[0].id}")

    # -- after the card is down -------------------------------------------------------------
    def after_play(self, st: TableState, seat: int, cards: list[Card], event: dict) -> None:
        st.vars["first_discard"] = None
        st.vars["color_before"] = st.active_color
        st.vars["held_at_play"] = st.hand_counts[seat]     # the hand a wild-draw4 challenge is about
        if st.hand_counts[seat] == 0 and st.vars.get("ono_open") == seat:
            got = st.take_up_to(seat, st.options["call_penalty"])
            if got:
                st.summary += (f"; {st.names[seat]} never called {self.call_word} on the last card "
                               f"and takes {got} instead of winning")
        super().after_play(st, seat, cards, event)

    def card_effect(self, st: TableState, seat: int, card: Card) -> None:
        if card.kind == WILD and st.vars.get("first_wild_stays"):
            st.vars["first_wild_stays"] = False
            st.phase = "play"
            st.current = seat         # the first player named the colour and now plays
            return
        super().card_effect(st, seat, card)
        if card.symbol in ("draw2", "wild-draw4"):
            st.vars["skip_after_draw"] = st.options["penalty_skips_turn"]
        if card.symbol == "wild-draw4":
            st.phase = "challenge"
            st.vars["challenge"] = (seat, st.current, st.vars.get("color_before"), st.vars.get("held_at_play"))
            st.summary += " (or challenge it)"

    # -- drawing ----------------------------------------------------------------------------
    def on_draw(self, st: TableState, event: dict) -> None:
        if st.phase == "challenge":
            seat = st.seat(event["player"])
            self.require_turn(st, seat, "draw")
            st.phase, st.vars["challenge"] = "play", None     # drawing accepts the wild-draw4
        super().on_draw(st, event)

    def draw_penalty(self, st: TableState, seat: int, count: int) -> None:
        if st.drawable() == 0:   # a call penalty just took the last cards: as a pass would
            st.pending_draw = 0
            st.summary = f"{st.names[seat]} has nothing left to draw; the penalty lapses"
            if st.vars.get("skip_after_draw"):
                st.vars["skip_after_draw"] = False
                st.current = st.next_seat(seat)
            st.phase = "play"
        else:
            super().draw_penalty(st, seat, count)
        if st.vars.get("first_discard") and not st.pending_draw:
            st.phase = "discard"
            st.summary += f"; now {st.names[seat]} discards a {st.vars['first_discard']} card"

    def on_pass(self, st: TableState, event: dict) -> None:
        if st.phase == "discard" and st.drawable() > 0:
            raise Illegal(f"{st.names[st.current]} must discard a {st.vars['first_discard']} card "
                          f"or draw one")
        super().on_pass(st, event)
        st.vars["first_discard"] = None

    # -- the wild draw four challenge -------------------------------------------------------
    def on_challenge(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        self.require_playing(st)
        chal = st.vars.get("challenge")
        if st.phase != "challenge" or chal is None:
            raise Illegal("there is no wild-draw4 to challenge now")
        player, victim, color, _ = chal
        if seat != victim:
            raise Illegal(f"only {st.names[victim]}, who must draw the four, can challenge "
                          f"{st.names[player]}'s wild-draw4")
        self.close_call_window(st, seat)
        st.phase = "reveal"
        st.summary = (f"{st.names[seat]} challenges {st.names[player]}'s wild-draw4: {st.names[player]} "
                      f"shows their hand (did they hold {color}?)")

    def on_reveal(self, st: TableState, event: dict) -> None:
        if st.phase != "reveal":
            super().on_reveal(st, event)
            return
        seat = st.seat(event["player"])
        player, victim, color, held_then = st.vars["challenge"]
        if seat != player:
            raise Illegal(f"{st.names[player]} shows their hand to answer the challenge, not {st.names[seat]}")
        cards = [self.card(st, c) for c in event["cards"]]
        self.show_hand_at_play(st, seat, [c.id for c in cards], held_then)
        held = [c.id for c in cards if c.color == color]
        st.pending_draw = 0
        st.vars["skip_after_draw"] = False
        st.vars["challenge"] = None
        st.phase = "play"
        if held:
            got = st.take_up_to(player, 4)
            st.current = victim
            st.summary = (f"{st.names[player]} shows {len(cards)} cards with {held[0]}: the wild-draw4 "
                          f"was a bluff, {st.names[player]} takes {got} and {st.names[victim]} plays")
        else:
            got = st.take_up_to(victim, 4 + CHALLENGE_LOSS)
            st.current = st.next_seat(victim) if st.options["penalty_skips_turn"] else victim
            st.summary = (f"{st.names[player]} shows {len(cards)} cards and no {color}: the wild-draw4 "
                          f"was legal, {st.names[victim]} takes {got}; {st.names[st.current]} plays")

    @staticmethod
    def show_hand_at_play(st: TableState, seat: int, shown: list[str], held_then: int) -> None:
        """The challenge is about the hand held when the wild-draw4 went down: cards taken since
        (a missed-UNO penalty drawn when the window shut or the player was caught) stay aside, and
        the player shows exactly the cards held then."""
        held_now = st.hand_counts[seat]
        if held_then is None or held_then == held_now:
            st.reveal(seat, shown)
            return
        since = held_now - held_then
        if len(shown) != held_then:
            raise Illegal(f"{st.names[seat]} held {plural(held_then, 'card')} when the wild-draw4 went "
                          f"down: the challenge is about that hand, so show those {held_then} and keep "
                          f"the {plural(since, 'card')} taken since aside ({len(shown)} shown)")
        st.check_in_hand(seat, shown)
        known = st.known[seat]
        for cid, k in known.items():
            if shown.count(cid) < k:
                raise Illegal(f"{st.names[seat]}'s hand is known to hold {cid} since before the "
                              f"wild-draw4: it must be among the cards shown")
        st.known[seat] = {cid: shown.count(cid) for cid in set(shown)}

    # -- the UNO call -----------------------------------------------------------------------
    def on_call(self, st: TableState, event: dict) -> None:
        caller, target = st.seat(event["caller"]), st.seat(event["target"])
        held = st.hand_counts[target]
        if caller != target and held > 1:
            raise Illegal(f"{st.names[target]} holds {held} cards: there is no last card to call")
        super().on_call(st, event)

    def caught(self, st: TableState, caller: int, target: int, event: dict) -> None:
        got = st.take_up_to(target, st.options["call_penalty"])
        st.summary = (f"{st.names[caller]} claims {st.names[target]} did not call {self.call_word}: "
                      f"{st.names[target]} takes {plural(got, 'penalty card')}")

    # -- views and checks -------------------------------------------------------------------
    def extra_state(self, st: TableState) -> dict:
        extra = super().extra_state(st)
        chal = st.vars.get("challenge")
        extra.update(first_discard=st.vars.get("first_discard"),
                     challenge=None if chal is None else
                     {"player": chal[0], "victim": chal[1], "color_before": chal[2],
                      "hand_at_play": chal[3]})
        return extra

    def invariants(self, st: TableState) -> list[str]:
        problems = []
        top = st.deck.cards[st.top] if st.top else None
        if st.pending_draw:
            most = {"draw2": 2, "wild-draw4": 4}.get(top.symbol if top else "", 0)
            if st.pending_draw > most:
                problems.append(f"{st.pending_draw} cards pending with {st.top} on top (no stacking)")
        if len(st.discard) >= 2:
            under, over = st.deck.cards[st.discard[-2]], st.deck.cards[st.discard[-1]]
            if under.symbol == over.symbol == "draw2" and not st.options["draw2_on_paid_draw2"]:
                problems.append(f"{over.id} lies on {under.id}")
            if under.symbol == over.symbol == "skip" and under.color != over.color and not st.options["skip_on_skip"]:
                problems.append(f"{over.id} lies on {under.id}")
        chal = st.vars.get("challenge")
        if st.phase in ("challenge", "reveal"):
            if chal is None or top is None or top.symbol != "wild-draw4" or st.current != chal[1]:
                problems.append(f"phase {st.phase} without a wild-draw4 challenge on {st.top}")
            elif st.pending_draw != 4:
                problems.append(f"challenge pending with {st.pending_draw} to draw")
        elif chal is not None:
            problems.append(f"a challenge is recorded in phase {st.phase}")
        if st.phase == "discard" and (not st.vars.get("first_discard") or st.pending_draw):
            problems.append("the first discard is asked for without its colour, or with cards still owed")
        if st.phase in ("play", "drawn", "discard") and top is not None:
            if st.active_color not in st.deck.colors:
                problems.append(f"active colour {st.active_color!r} during play")
            elif top.kind != WILD and st.active_color != top.color:
                problems.append(f"active colour {st.active_color} under a {top.id}")
        return problems

    # -- random play for `simulate` ---------------------------------------------------------
    def sim_candidates(self, st: TableState, hands: list[list[str]], rng: random.Random) -> list[dict]:
        chal = st.vars.get("challenge")
        if st.phase == "challenge":
            victim = chal[1]
            draw = {"type": "draw", "player": victim, "count": max(1, min(4, st.drawable()))}
            events = [draw, {"type": "draw", "player": victim, "count": 1}]
            if rng.random() < 0.5:
                events.insert(0, {"type": "challenge", "player": victim})
            return events + [{"type": "pass", "player": victim}]
        if st.phase == "reveal":
            player, held_then = chal[0], chal[3]
            # drawn cards go to the end of a simulated hand: the hand at the wild-draw4 comes first
            shown = list(hands[player][:held_then]) if held_then is not None else list(hands[player])
            wrong = hands[player][:-1] if rng.random() < 0.05 else None
            events = [{"type": "reveal", "player": player, "cards": shown}]
            if wrong is not None:
                events.insert(0, {"type": "reveal", "player": player, "cards": wrong})
            return events
        events = super().sim_candidates(st, hands, rng)
        if st.phase in ("play", "drawn", "discard"):
            # a wild-draw4 goes down at once half the time, bluff or not, so challenges see both
            fours = [e for e in events if e["type"] == "play" and e["cards"] == ["wild-draw4"]]
            if fours and rng.random() < 0.5:
                events.remove(fours[0])
                events.insert(0, fours[0])
            if st.drawable() and any(e["type"] == "draw" for e in events):
                events.append({"type": "draw", "player": st.current, "count": 1})
        return events


RULESETS = [Regulation()]
