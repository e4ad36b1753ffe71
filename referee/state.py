"""The table as the referee knows it: counts for hidden cards, faces for the cards it has seen.

A TableState is only ever changed on a copy (`copy()`), so a rejected event cannot leave a trace
and undo is a matter of keeping the previous object. The helpers here are the physical moves
(deal, draw, play, pass hands around); each one also records a *transfer* in `effects`, which
the simulator replays on its real cards and the web shows as "Ben draws four".
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Deck
from .errors import Illegal

CLOCKWISE, COUNTERCLOCKWISE = 1, -1


@dataclass
class TableState:
    rules: str
    options: dict
    deck: Deck
    names: list[str]
    dealer: int
    hand_counts: list[int]
    draw_count: int
    discard: list[str] = field(default_factory=list)     # bottom .. top, faces known
    known: list[dict] = field(default_factory=list)      # per seat: card id -> copies known in hand
    out: list[bool] = field(default_factory=list)
    coins: list[int] | None = None
    cup: int | None = None
    current: int = 0
    direction: int = CLOCKWISE
    active_color: str | None = None
    pending_draw: int = 0
    phase: str = "flip"
    winner: int | None = None
    scores: list[int] | None = None
    round: int = 1
    vars: dict = field(default_factory=dict)   # rule-set scalars and tuples (copied shallowly)
    effects: list = field(default_factory=list)
    summary: str = ""

    # -- copying ------------------------------------------------------------------------------
    def copy(self) -> "TableState":
        # runs once per event: the new object gets its attribute dict in one go, containers copied
        new = object.__new__(TableState)
        d = self.__dict__.copy()
        d["hand_counts"] = self.hand_counts[:]
        d["discard"] = self.discard[:]
        d["known"] = [dict(k) if k else {} for k in self.known]
        d["out"] = self.out[:]
        if self.coins is not None:
            d["coins"] = self.coins[:]
        if self.scores is not None:
            d["scores"] = self.scores[:]
        d["vars"] = self.vars.copy()
        d["effects"] = []
        d["summary"] = ""
        new.__dict__ = d
        return new

    # -- seats --------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def top(self) -> str | None:
        return self.discard[-1] if self.discard else None

    def seat(self, who) -> int:
        """A seat index from an index or a name, or a reason why not."""
        if isinstance(who, int):
            if 0 <= who < self.n:
                return who
            raise Illegal(f"there is no player {who} (seats are 0 to {self.n - 1})")
        for i, name in enumerate(self.names):
            if name == who:
                return i
        lowered = [i for i, name in enumerate(self.names) if name.lower() == str(who).lower()]
        if len(lowered) == 1:
            return lowered[0]
        raise Illegal(f"there is no player called {who!r} (players: {', '.join(self.names)})")

    def next_seat(self, seat: int, steps: int = 1, direction: int | None = None) -> int:
        """The seat `steps` active players further in `direction` (default: the play's)."""
        d = self.direction if direction is None else direction
        n, out = len(self.names), self.out
        for _ in range(steps):
            for _ in range(n):
                seat = (seat + d) % n
                if not out[seat]:
                    break
        return seat

    def active_seats(self) -> list[int]:
        return [i for i in range(self.n) if not self.out[i]]

    # -- cards --------------------------------------------------------------------------------
    def unseen(self, card_id: str) -> int:
        """Copies of a card that may be in the draw pile or a hand without a known face."""
        left = self.deck.counts.get(card_id, 0) - self.discard.count(card_id)
        for k in self.known:
            if k:
                left -= k.get(card_id, 0)
        return left

    def drawable(self) -> int:
        """Cards that can still be drawn: the draw pile and, reshuffled, the discard pile less its top."""
        return self.draw_count + max(0, len(self.discard) - 1)

    def reshuffle(self) -> None:
        """The discard pile but its top card becomes the new draw pile."""
        moved = len(self.discard) - 1
        if moved > 0:
            self.draw_count += moved
            self.discard = self.discard[-1:]
            self.effects.append(("reshuffle", moved))

    def turn_up(self, card_id: str) -> None:
        """The top card of the draw pile is turned face up onto the discard pile."""
        if self.unseen(card_id) < 1:
            on_pile = self.discard.count(card_id)
            if on_pile == self.deck.counts.get(card_id, 0):
                raise Illegal(f"{card_id} cannot be in the draw pile: "
                              f"{'it lies' if on_pile == 1 else 'every copy lies'} face up on the discard pile")
            raise Illegal(f"no {card_id} can be left in the draw pile")
        if self.draw_count < 1:
            raise Illegal("the draw pile is empty")
        self.draw_count -= 1
        self.discard.append(card_id)
        self.effects.append(("flip", card_id))

    def take(self, seat: int, count: int) -> None:
        """`seat` takes `count` cards from the draw pile, reshuffling the discards when it runs out."""
        if count <= 0:
            return
        if count > self.drawable():
            left = self.drawable()
            raise Illegal(f"only {left} card{'' if left == 1 else 's'} {'is' if left == 1 else 'are'} "
                          f"left to draw, not {count}")
        if count > self.draw_count:
            self.reshuffle()
        self.draw_count -= count
        self.hand_counts[seat] += count
        self.effects.append(("draw", seat, count))

    def take_up_to(self, seat: int, count: int) -> int:
        """A penalty that the piles may not cover in full: takes what there is."""
        count = min(count, self.drawable())
        self.take(seat, count)
        return count

    def check_in_hand(self, seat: int, cards: list[str]) -> None:
        """Raises unless `seat` can hold all of `cards`: enough cards, and copies left to hold."""
        if len(cards) > self.hand_counts[seat]:
            held = self.hand_counts[seat]
            raise Illegal(f"{self.names[seat]} holds {held} card{'s' * (held != 1)}, "
                          f"not {len(cards)}")
        known = self.known[seat]
        if len(cards) == 1 and not known and cards[0] in self.deck.counts:
            # the usual case, one card from a hand with no known face: the loop below reduces to
            # "a copy of it can still be unseen" (its last check cannot fail, see there)
            if self.unseen(cards[0]) >= 1:
                return
        wanted: dict[str, int] = {}
        for cid in cards:
            if cid not in self.deck.counts:
                raise Illegal(f"{cid!r} is not a card of the {self.deck.id} deck")
            wanted[cid] = wanted.get(cid, 0) + 1
        from_unknown = 0     # cards that must come from the part of the hand whose faces are unknown
        for cid, n in wanted.items():
            possible = known.get(cid, 0) + self.unseen(cid)
            from_unknown += max(0, n - known.get(cid, 0))
            if n > possible:
                copies = self.deck.counts[cid]
                raise Illegal(f"{self.names[seat]} cannot hold {n} × {cid}: the deck has {copies} "
                              f"and {copies - possible} {'is' if copies - possible == 1 else 'are'} "
                              f"already on the table or in another hand")
        # with no known face in the hand this cannot fail (from_unknown <= len(cards) <= the count)
        if known and from_unknown > self.hand_counts[seat] - sum(known.values()):
            shown = ", ".join(sorted(c for c, k in known.items() for _ in range(k)))
            raise Illegal(f"{self.names[seat]}'s hand is known to be {shown}: it cannot hold "
                          f"{', '.join(cards)}")

    def play_from_hand(self, seat: int, cards: list[str]) -> None:
        self.check_in_hand(seat, cards)
        known = self.known[seat]
        for cid in cards:
            if known.get(cid):
                known[cid] -= 1
                if not known[cid]:
                    del known[cid]
        self.hand_counts[seat] -= len(cards)
        self.discard.extend(cards)
        self.effects.append(("play", seat, tuple(cards)))

    def swap_hands(self, a: int, b: int) -> None:
        hc = self.hand_counts
        hc[a], hc[b] = hc[b], hc[a]
        self.known[a], self.known[b] = self.known[b], self.known[a]
        self.effects.append(("swap_hands", a, b))

    def give(self, giver: int, receiver: int, card: str | None = None) -> None:
        """One card passes between hands; its face is known when `card` is given."""
        if card is not None:
            self.check_in_hand(giver, [card])
            k = self.known[giver]
            if k.get(card):
                k[card] -= 1
                if not k[card]:
                    del k[card]
            self.known[receiver][card] = self.known[receiver].get(card, 0) + 1
        elif self.hand_counts[giver] < 1:
            raise Illegal(f"{self.names[giver]} has no card to give")
        self.hand_counts[giver] -= 1
        self.hand_counts[receiver] += 1
        self.effects.append(("give", giver, receiver, card))

    def reveal(self, seat: int, cards: list[str]) -> None:
        """A whole hand shown: its faces become known (and must be possible)."""
        if len(cards) != self.hand_counts[seat]:
            raise Illegal(f"{self.names[seat]} holds {self.hand_counts[seat]} cards but "
                          f"{len(cards)} were shown")
        self.known[seat] = {}
        self.check_in_hand(seat, cards)
        for cid in cards:
            self.known[seat][cid] = self.known[seat].get(cid, 0) + 1

    # -- the object every view reads ----------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "rules": self.rules,
            "options": dict(self.options),
            "players": [{"name": name, "hand_count": self.hand_counts[i],
                         "coins": self.coins[i] if self.coins is not None else None,
                         "out": self.out[i],
                         "score": self.scores[i] if self.scores is not None else None,
                         "known_cards": sorted(c for c, k in self.known[i].items() for _ in range(k))}
                        for i, name in enumerate(self.names)],
            "dealer": self.dealer,
            "current_player": self.current,
            "direction": "clockwise" if self.direction == CLOCKWISE else "counterclockwise",
            "top_card": self.top,
            "active_color": self.active_color,
            "pending_draw": self.pending_draw,
            "phase": self.phase,
            "winner": self.winner,
            "cup": self.cup,
            "draw_pile": self.draw_count,
            "discard_pile": len(self.discard),
            "recent_discards": self.discard[-8:],
            "round": self.round,
        }
