"""The UNO family's shared mechanics: matching, the action cards, draws, wild colours, the
one-card call, and playing for points over several rounds.

ONO! is this class with food matching; California Prison and regulation UNO override the hooks
(`mismatch`, `check_play`, `card_effect`, `first_card`, `on_draw` ...) in their own small files.
"""
from __future__ import annotations

import random

from ..cards import Card
from ..errors import Illegal
from ..state import CLOCKWISE, TableState
from .base import Rules

WILD = "wild"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class UnoFamily(Rules):
    call_word = "UNO!"
    phases = {"flip": "the first card to be turned up", "play": "the current player to play or draw",
              "drawn": "the current player to play the card just drawn, or pass",
              "color": "the player of a wild to name a colour",
              "scoring": "the other players to reveal their hands for scoring", "over": "nothing: the game is over"}

    # Some rulings happen inside another player's event whose summary is written afterwards
    # (a missed call penalized when the next player plays): they are noted in vars and added to
    # the summary once the event is done.
    def handle(self, st: TableState, event: dict) -> None:
        Rules.handle(self, st, event)
        notes = st.vars.pop("notes", ())
        if notes:
            st.summary += "".join(f"; {n}" for n in notes)

    @staticmethod
    def add_note(st: TableState, note: str) -> None:
        st.vars["notes"] = st.vars.get("notes", ()) + (note,)

    # -- setup ------------------------------------------------------------------------------
    def on_start(self, st: TableState, event: dict) -> None:
        st.phase = "flip"
        st.vars.update(ono_open=None, announced=(), chooser=None, skip_after_draw=False)
        if st.options.get("points_target") and st.scores is None:
            st.scores = [0] * st.n

    def on_flip(self, st: TableState, event: dict) -> None:
        if st.phase != "flip":
            raise Illegal("the first card is already turned up")
        card = self.card(st, event["card"])
        st.turn_up(card.id)
        st.summary = f"{card.id} is turned up"
        self.first_card(st, card)

    def first_card(self, st: TableState, card: Card) -> None:
        """An action turned up first acts as if the dealer played it; a wild goes back."""
        if card.kind == WILD:
            self.flip_back(st, card)
            return
        st.active_color = card.color
        st.phase = "play"
        self.card_effect(st, st.dealer, card)

    @staticmethod
    def flip_back(st: TableState, card: Card) -> None:
        st.discard.pop()
        st.draw_count += 1
        st.effects.append(("unflip", card.id))
        st.summary = f"{card.id} is turned up, goes back into the draw pile, and another card is turned up"

    # -- matching ---------------------------------------------------------------------------
    def top_words(self, st: TableState) -> str:
        top = st.deck.cards[st.top]
        return f"{top.id} (colour {st.active_color})" if top.kind == WILD else top.id

    def mismatch(self, st: TableState, card: Card) -> str | None:
        """Why `card` cannot go on the pile now, or None when it can."""
        if card.kind == WILD:
            return None
        top = st.deck.cards[st.top]
        if card.color == st.active_color or (top.kind != WILD and card.symbol == top.symbol):
            return None
        return f"{card.id} does not match {self.top_words(st)}"

    # -- playing ----------------------------------------------------------------------------
    def require_action_phase(self, st: TableState) -> None:
        self.require_playing(st)
        if st.phase == "color":
            raise Illegal(f"{st.names[st.vars['chooser']]} must name a colour for the {st.top} first")
        if st.phase == "scoring":
            raise Illegal("the round is over: the other players reveal their hands for scoring")

    def check_play(self, st: TableState, seat: int, cards: list[Card], event: dict) -> None:
        """Turn order, card count and pending draws; rule sets with jump-ins or doubles override."""
        self.require_turn(st, seat, "play")
        if len(cards) != 1:
            raise Illegal(f"{self.title} plays one card at a time")
        if st.pending_draw:
            raise Illegal(f"{st.names[seat]} must draw {st.pending_draw} first")
        reason = self.mismatch(st, cards[0])
        if reason:
            raise Illegal(reason)

    def on_play(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        deck_cards = st.deck.cards
        ids = event["cards"]
        try:
            cards = [deck_cards[c] for c in ids]
        except KeyError:
            cards = [self.card(st, c) for c in ids]     # raises with the unknown card's name
        self.require_action_phase(st)
        self.check_play(st, seat, cards, event)
        color = event.get("color")
        if color is not None and cards[-1].kind != WILD:
            raise Illegal(f"only a wild names a colour; {cards[-1].id} is {cards[-1].color}")
        if color is not None:
            self.check_color(st, color)
        self.close_call_window(st, seat)
        ids = [c.id for c in cards]
        st.play_from_hand(seat, ids)
        st.summary = f"{st.names[seat]} plays {', '.join(ids)}"
        self.after_play(st, seat, cards, event)

    def after_play(self, st: TableState, seat: int, cards: list[Card], event: dict) -> None:
        self.note_last_card(st, seat)
        top = cards[-1]
        if st.hand_counts[seat] == 0:
            # the winning play sets the colour like any other: the card's, or the one named for a
            # wild (none when a wild wins without a colour named: nobody plays on it)
            st.active_color = event.get("color") if top.kind == WILD else top.color
            self.round_won(st, seat)
            return
        st.current = seat
        if top.kind == WILD:
            if event.get("color"):
                self.name_color(st, seat, event["color"])
            else:
                st.phase = "color"
                st.vars["chooser"] = seat
            return
        st.active_color = top.color
        self.card_effect(st, seat, top)

    def card_effect(self, st: TableState, seat: int, card: Card) -> None:
        """What a card does to the turn once it lies on the pile with its colour settled."""
        st.phase = "play"
        symbol = card.symbol
        if symbol == "skip":
            st.current = st.next_seat(seat, 2)
            st.summary += f"; {st.names[st.next_seat(seat)]} is skipped"
        elif symbol == "reverse":
            st.direction = -st.direction
            if len(st.active_seats()) == 2 and st.options.get("two_player_reverse_skips", True):
                st.current = seat
                st.summary += "; with two players a reverse acts as a skip"
            else:
                st.current = st.next_seat(seat)
                st.summary += f"; play now runs {'clockwise' if st.direction == CLOCKWISE else 'counterclockwise'}"
        elif symbol == "draw2":
            self.penalize_next(st, seat, 2)
        elif symbol == "wild-draw4":
            self.penalize_next(st, seat, 4)
        else:
            st.current = st.next_seat(seat)

    def penalize_next(self, st: TableState, seat: int, count: int) -> None:
        victim = st.next_seat(seat)
        st.current = victim
        st.pending_draw += count
        st.vars["skip_after_draw"] = True
        st.summary += f"; {st.names[victim]} must draw {st.pending_draw} and miss the turn"

    # -- wild colours -----------------------------------------------------------------------
    @staticmethod
    def check_color(st: TableState, color: str) -> None:
        if color not in st.deck.colors:
            raise Illegal(f"{color!r} is not a colour of this deck ({', '.join(st.deck.colors)})")

    def name_color(self, st: TableState, seat: int, color: str) -> None:
        self.check_color(st, color)
        st.active_color = color
        st.summary += f"; {st.names[seat]} names {color}"
        self.card_effect(st, seat, st.deck.cards[st.top])

    def on_choose_color(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        if st.phase != "color":
            raise Illegal("no colour is asked for now")
        chooser = st.vars["chooser"]
        if seat != chooser:
            raise Illegal(f"{st.names[chooser]} names the colour, not {st.names[seat]}")
        st.vars["chooser"] = None
        st.summary = f"{st.names[seat]} names {event['color']}"
        self.check_color(st, event["color"])
        st.active_color = event["color"]
        self.card_effect(st, seat, st.deck.cards[st.top])

    # -- drawing and passing ----------------------------------------------------------------
    def draws_until_playable(self, st: TableState) -> bool:
        return bool(st.options.get("longer_game"))

    def on_draw(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        count = event["count"]
        self.require_action_phase(st)
        if count < 1:
            raise Illegal("a draw takes at least one card")
        self.require_turn(st, seat, "draw")
        self.close_call_window(st, seat)
        if st.pending_draw:
            self.draw_penalty(st, seat, count)
            return
        if st.phase == "drawn" and not self.draws_until_playable(st):
            raise Illegal(f"{st.names[seat]} has drawn already: play the drawn card or pass")
        if count != 1 and not self.draws_until_playable(st):
            raise Illegal(f"a player who does not play draws one card, not {count}")
        if st.drawable() == 0:
            raise Illegal("no card is left to draw: pass instead")
        st.take(seat, count)
        st.phase = "drawn"
        st.summary = f"{st.names[seat]} draws {plural(count, 'card')}"

    def draw_penalty(self, st: TableState, seat: int, count: int) -> None:
        owed = min(st.pending_draw, st.drawable())
        if count > owed:
            raise Illegal(f"{st.names[seat]} owes {plural(owed, 'card')}, not {count}")
        st.take(seat, count)
        st.pending_draw = 0 if count == owed else st.pending_draw - count
        st.summary = f"{st.names[seat]} draws {plural(count, 'card')}"
        if st.pending_draw:
            st.summary += f" ({st.pending_draw} still to draw)"
            return
        if st.vars.get("skip_after_draw"):
            st.vars["skip_after_draw"] = False
            st.current = st.next_seat(seat)
            st.summary += f" and misses the turn; {st.names[st.current]} is next"
        st.phase = "play"

    def on_pass(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        self.require_action_phase(st)
        self.require_turn(st, seat, "pass")
        if st.pending_draw and st.drawable() > 0:
            raise Illegal(f"{st.names[seat]} must draw {st.pending_draw} first")
        if st.pending_draw:   # nothing left to draw: the penalty lapses, the missed turn does not
            st.pending_draw = 0
            st.vars["skip_after_draw"] = False
        elif st.drawable() > 0:
            if st.phase != "drawn":
                raise Illegal(f"{st.names[seat]} must play or draw a card")
            if self.draws_until_playable(st):
                raise Illegal(f"{st.names[seat]} keeps drawing until a card can be played")
        st.current = st.next_seat(seat)
        st.phase = "play"
        st.summary = f"{st.names[seat]} passes; {st.names[st.current]} is next"

    # -- the one-card call (UNO!/ONO!) --------------------------------------------------------
    def note_last_card(self, st: TableState, seat: int) -> None:
        """A player left with one card must call it; one who called in advance is safe. An
        announcement stands until that player's own next play: other players' plays in between
        (a jump-in, or the turns before theirs) do not cancel it."""
        announced = st.vars.get("announced") or ()
        called = seat in announced
        if called:
            st.vars["announced"] = tuple(s for s in announced if s != seat)
        if st.hand_counts[seat] == 1 and not called:
            st.vars["ono_open"] = seat
        elif st.vars.get("ono_open") == seat:
            st.vars["ono_open"] = None

    @staticmethod
    def announce(st: TableState, seat: int) -> None:
        """`seat` has called for their last card ahead of the play that leaves it."""
        announced = st.vars.get("announced") or ()
        if seat not in announced:
            st.vars["announced"] = announced + (seat,)

    def close_call_window(self, st: TableState, seat: int) -> None:
        """The window to catch a silent player shuts once the next player plays or draws."""
        if st.vars.get("ono_open") is not None and st.vars["ono_open"] != seat:
            self.missed_call(st, st.vars["ono_open"])
            st.vars["ono_open"] = None

    # Rule sets that punish a silent last card (prison, regulation) name the option that gives the
    # cards it costs; with their option `penalize_uncaught` the referee gives it when nobody caught it.
    call_penalty_option: str | None = None
    missed_call_words = "never called {word}"

    def missed_call(self, st: TableState, seat: int) -> None:
        """What happens to a player nobody caught: nothing in ONO!, the call penalty where it is given."""
        key = self.call_penalty_option
        if key and st.options.get("penalize_uncaught") and st.hand_counts[seat] == 1:
            got = st.take_up_to(seat, st.options[key])
            words = self.missed_call_words.format(word=self.call_word)
            self.add_note(st, f"{st.names[seat]} {words} and takes {plural(got, 'penalty card')}")

    def on_call(self, st: TableState, event: dict) -> None:
        caller, target = st.seat(event["caller"]), st.seat(event["target"])
        self.require_playing(st)
        word = self.call_word
        held = st.hand_counts[target]
        if caller == target:
            if st.vars.get("ono_open") == caller:
                st.vars["ono_open"] = None
                st.summary = f"{st.names[caller]} calls {word}"
            elif held <= 2:
                self.announce(st, caller)
                st.summary = f"{st.names[caller]} calls {word}"
            else:
                st.summary = f"{st.names[caller]} calls {word} holding {held} cards: a bluff, no penalty"
            return
        if held > 1:
            drawn = st.take_up_to(caller, 4)
            st.summary = (f"{st.names[caller]} calls {word} on {st.names[target]}, who holds {held} cards: "
                          f"{st.names[caller]} draws {drawn}")
            return
        if held == 0:
            raise Illegal(f"{st.names[target]} has no cards")
        if st.vars.get("ono_open") != target:
            raise Illegal(f"{st.names[target]} is safe: they called {word} already, or the next "
                          f"player has played or drawn since")
        st.vars["ono_open"] = None
        self.caught(st, caller, target, event)

    def caught(self, st: TableState, caller: int, target: int, event: dict) -> None:
        """ONO!: the caller may switch hands with the player caught holding one silent card."""
        if event.get("switch", True):
            st.swap_hands(caller, target)
            st.summary = (f"{st.names[caller]} catches {st.names[target]} with one card and switches "
                          f"hands: {st.names[caller]} now holds 1, {st.names[target]} {st.hand_counts[target]}")
        else:
            st.summary = f"{st.names[caller]} catches {st.names[target]} with one card (no switch)"

    # -- winning, points and rounds -----------------------------------------------------------
    def round_won(self, st: TableState, seat: int) -> None:
        target = st.options.get("points_target", 0)
        st.vars["ono_open"] = None
        st.pending_draw = 0
        if not target:
            st.winner = seat
            st.phase = "over"
            st.summary += f"; {st.names[seat]} has no cards left and wins"
            return
        st.vars["round_winner"] = seat
        st.vars["round_points"] = 0
        st.vars["unrevealed"] = tuple(i for i in st.active_seats() if i != seat and st.hand_counts[i])
        st.phase = "scoring"
        st.summary += f"; {st.names[seat]} wins round {st.round}: the others show their hands for scoring"
        if not st.vars["unrevealed"]:
            self.finish_round(st)

    def on_reveal(self, st: TableState, event: dict) -> None:
        seat = st.seat(event["player"])
        if st.phase != "scoring":
            raise Illegal("no hand needs to be shown now")
        if seat not in st.vars["unrevealed"]:
            raise Illegal(f"{st.names[seat]} has nothing to show for scoring")
        cards = [self.card(st, c) for c in event["cards"]]
        st.reveal(seat, [c.id for c in cards])
        points = sum(c.points for c in cards)
        st.vars["round_points"] += points
        st.vars["unrevealed"] = tuple(i for i in st.vars["unrevealed"] if i != seat)
        st.summary = f"{st.names[seat]} shows {len(cards)} cards worth {points} points"
        if not st.vars["unrevealed"]:
            self.finish_round(st)

    def finish_round(self, st: TableState) -> None:
        winner = st.vars["round_winner"]
        st.scores[winner] += st.vars["round_points"]
        st.summary += f"; {st.names[winner]} scores {st.vars['round_points']}, {st.scores[winner]} in all"
        if st.scores[winner] >= st.options["points_target"]:
            st.winner = winner
            st.phase = "over"
            st.summary += " and wins the game"
            return
        self.redeal(st)

    def redeal(self, st: TableState) -> None:
        """The next round: the deal passes to the left, everything is shuffled and dealt again."""
        hand = self.deal_size(st.options, {})
        st.round += 1
        st.dealer = st.next_seat(st.dealer, direction=CLOCKWISE)
        st.hand_counts = [0 if out else hand for out in st.out]
        st.draw_count = st.deck.size - sum(st.hand_counts)
        st.discard = []
        st.known = [{} for _ in range(st.n)]
        st.direction = self.start_direction
        st.current = st.dealer
        st.active_color = None
        st.pending_draw = 0
        st.vars = {k: v for k, v in st.vars.items() if k not in ("round_winner", "round_points", "unrevealed")}
        self.on_start(st, {})
        st.effects.append(("deal", hand))
        st.summary += f"; round {st.round}: {st.names[st.dealer]} deals"

    def extra_state(self, st: TableState) -> dict:
        extra = {"call_open": st.vars.get("ono_open")}
        if st.scores is not None:
            extra.update(scores=list(st.scores), points_target=st.options.get("points_target"),
                         round_winner=st.vars.get("round_winner"),
                         awaiting_reveal=list(st.vars.get("unrevealed", ())))
        return extra

    # -- random play for `simulate` -------------------------------------------------------------
    def sim_candidates(self, st: TableState, hands: list[list[str]], rng: random.Random) -> list[dict]:
        seat = st.current
        if st.phase == "color":
            return [{"type": "choose_color", "player": st.vars["chooser"], "color": rng.choice(st.deck.colors)}]
        if st.phase == "scoring":
            return [{"type": "reveal", "player": s, "cards": list(hands[s])} for s in st.vars["unrevealed"]]
        events: list[dict] = []
        open_seat = st.vars.get("ono_open")
        if open_seat is not None and rng.random() < 0.5:
            caller = open_seat if rng.random() < 0.6 else rng.randrange(st.n)
            events.append({"type": "call", "caller": caller, "target": open_seat})
        if rng.random() < 0.01:   # a false alarm now and then: the caller pays
            events.append({"type": "call", "caller": rng.randrange(st.n), "target": rng.randrange(st.n)})
        if len(hands[seat]) == 2 and rng.random() < 0.3:
            events.append({"type": "call", "caller": seat, "target": seat})
        # legal plays first (as a player who knows the rules would), now and then a wrong one
        legal, wrong = [], []
        for c in dict.fromkeys(hands[seat]):
            (wrong if st.pending_draw or self.mismatch(st, st.deck.cards[c]) else legal).append(
                {"type": "play", "player": seat, "cards": [c]})
        rng.shuffle(legal)
        plays = legal + wrong[:1] if rng.random() < 0.05 else legal
        if wrong and rng.random() < 0.05:
            plays.insert(0, rng.choice(wrong))
        for p in plays:
            if st.deck.cards[p["cards"][0]].kind == WILD and rng.random() < 0.5:
                p["color"] = rng.choice(st.deck.colors)
        draw = {"type": "draw", "player": seat, "count": max(1, min(st.pending_draw, st.drawable()))}
        if st.pending_draw > 1 and rng.random() < 0.3:
            draw["count"] = 1
        if rng.random() < 0.08:
            events.append(draw)
        events.extend(plays)
        events.append(draw)
        events.append({"type": "pass", "player": seat})
        return events
