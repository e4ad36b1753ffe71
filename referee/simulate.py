"""Random games on a physically simulated deck, checked against the referee after every event.

The simulator holds real cards: a shuffled draw pile, real hands, a discard pile. Players send
events that the rule set proposes (`Rules.sim_candidates`); the first one the referee accepts is
played, and the physical table then carries out the transfers the verdict lists (draws, plays,
swapped hands, reshuffles ...). After every event the invariants are checked: every card is in
exactly one place, the referee's counts and known faces match the real table, the turn and
direction make sense, and a finished game has exactly one winner.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .game import Game
from .rules import get_rules

MAX_EVENTS = 5000          # a game still running after this many events is reported, not hung on


class PhysicalTable:
    """The real cards. The top of the draw pile is the end of `draw`."""

    def __init__(self, deck, players: int, rng: random.Random):
        self.deck = deck
        self.rng = rng
        self._actions: dict = {}      # effect name -> bound do_<name>, looked up once
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.draw: list[str] = []
        self.discard: list[str] = []

    def carry_out(self, effects) -> None:
        actions = self._actions
        for effect in effects:
            action = actions.get(effect[0])
            if action is None:
                action = actions[effect[0]] = getattr(self, "do_" + effect[0])
            action(*effect[1:])

    def do_deal(self, hand: int) -> None:
        self.draw = self.deck.as_list()
        self.rng.shuffle(self.draw)
        self.discard = []
        self.hands = [[self.draw.pop() for _ in range(hand)] for _ in self.hands]

    def do_deal_to(self, seat: int, count: int) -> None:
        self.hands[seat] = [self.draw.pop() for _ in range(count)]

    def do_flip(self, card: str) -> None:
        assert self.draw[-1] == card, f"flipped {card}, but the top of the draw pile is {self.draw[-1]}"
        self.discard.append(self.draw.pop())

    def do_unflip(self, card: str) -> None:
        self.draw.append(self.discard.pop())
        self.rng.shuffle(self.draw)

    def do_reshuffle(self, moved: int) -> None:
        rest, self.discard = self.discard[:-1], self.discard[-1:]
        assert len(rest) == moved, f"reshuffled {moved} cards but the discard pile had {len(rest)} under its top"
        self.rng.shuffle(rest)
        self.draw = rest + self.draw

    def do_reshuffle_all(self, moved: int) -> None:
        """The whole discard pile, top included, becomes the new draw pile (Snake Cup)."""
        assert len(self.draw) == 0 and len(self.discard) == moved, \
            f"reshuffled {moved} cards but the piles hold {len(self.draw)} to draw and {len(self.discard)} turned"
        self.draw, self.discard = self.discard, []
        self.rng.shuffle(self.draw)

    def do_draw(self, seat: int, count: int) -> None:
        assert len(self.draw) >= count, f"{count} cards drawn from a pile of {len(self.draw)}"
        for _ in range(count):
            self.hands[seat].append(self.draw.pop())

    def do_play(self, seat: int, cards) -> None:
        for card in cards:
            self.hands[seat].remove(card)       # ValueError: the player never held it
            self.discard.append(card)

    def do_swap_hands(self, a: int, b: int) -> None:
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]

    def do_give(self, giver: int, receiver: int, card: str | None) -> None:
        hand = self.hands[giver]
        card = card if card is not None else self.rng.choice(hand)
        hand.remove(card)
        self.hands[receiver].append(card)

    def do_return(self, seat: int, cards) -> None:
        """Cards from a hand go back into the draw pile, which is shuffled (DINO 2, regulation)."""
        for card in cards:
            self.hands[seat].remove(card)
            self.draw.append(card)
        self.rng.shuffle(self.draw)

    def do_coins(self, *_ignored) -> None:
        """Coins are not cards: the rule set's own invariants check them."""


def check_invariants(game: Game, table: PhysicalTable) -> list[str]:
    st = game.state
    problems = []
    everywhere = Counter(table.draw + table.discard + [c for hand in table.hands for c in hand])
    if everywhere != st.deck.counts:
        deck = Counter(st.deck.counts)
        problems.append(f"cards out of place: {dict((everywhere - deck) + (deck - everywhere))}")
    real_counts = [len(h) for h in table.hands]
    if st.hand_counts != real_counts:
        problems.append(f"hand counts {st.hand_counts} but the hands hold {real_counts}")
    if st.draw_count != len(table.draw):
        problems.append(f"draw pile counted {st.draw_count} but holds {len(table.draw)}")
    if st.discard != table.discard:
        problems.append(f"discard pile {st.discard[-3:]}... but the table shows {table.discard[-3:]}...")
    for seat, known in enumerate(st.known):
        if known and Counter(known) - Counter(table.hands[seat]):
            problems.append(f"seat {seat} is known to hold {known} but holds {table.hands[seat]}")
    if not 0 <= st.current < st.n or (st.out[st.current] and st.phase != "over"):
        problems.append(f"current player {st.current} is not an active seat")
    if st.direction not in (1, -1):
        problems.append(f"direction {st.direction}")
    if st.pending_draw < 0 or min(st.hand_counts) < 0:
        problems.append("a negative count")
    if st.phase == "over":
        if st.winner is None and not st.vars.get("no_winner"):
            problems.append("the game is over without a winner")
    elif st.winner is not None:
        problems.append(f"a winner ({st.winner}) while the game goes on")
    problems.extend(game.rules.invariants(st))
    return problems


@dataclass
class SimReport:
    rules: str
    games: int = 0
    events: int = 0
    rejected_tries: int = 0
    unfinished: int = 0
    seconds: float = 0.0
    violations: list = field(default_factory=list)
    wins: Counter = field(default_factory=Counter)

    def to_dict(self) -> dict:
        s = max(self.seconds, 1e-9)
        return {"rules": self.rules, "games": self.games, "events": self.events,
                "seconds": round(self.seconds, 3), "games_per_second": round(self.games / s, 1),
                "events_per_second": round(self.events / s, 1), "rejected_tries": self.rejected_tries,
                "unfinished": self.unfinished, "violations": self.violations}


def play_one(rules_id: str, players: int, seed: int, options: dict | None, report: SimReport,
             check_rejections: bool = True, check: bool = True) -> Game:
    """One random game. `check=False` skips the invariants (the referee still validates every
    event): the benchmark measures the referee that way."""
    rng = random.Random(seed)
    game = Game()
    names = [f"P{i}" for i in range(players)]
    setup = {"type": "setup", "rules": rules_id, "players": names, "dealer": rng.randrange(players),
             "options": options or {}, "seed": seed}
    verdict = game.submit(setup)
    if not verdict.accepted:
        report.violations.append({"game": seed, "event": 0, "problem": f"setup rejected: {verdict.reason}"})
        return game
    rules = get_rules(rules_id)
    table = PhysicalTable(game.state.deck, players, rng)

    def fail(problem: str, event: dict) -> None:
        report.violations.append({"game": seed, "event": len(game.log), "problem": problem, "last": event})

    table.carry_out(verdict.effects)
    events = 1
    while game.state.phase != "over":
        if events >= MAX_EVENTS:
            report.unfinished += 1
            break
        st = game.state
        if st.phase == "flip":
            candidates = [{"type": "flip", "card": table.draw[-1]}]
        else:
            candidates = rules.sim_candidates(st, table.hands, rng)
        for event in candidates:
            verdict = game.submit(event)
            if verdict.accepted:
                break
            report.rejected_tries += 1
            if check_rejections and game.state is not st:
                fail(f"a rejected {event['type']} changed the state", event)
        else:
            fail("no move was accepted: " + "; ".join(game.check(e).reason for e in candidates[:3]), candidates[0])
            break
        events += 1
        try:
            table.carry_out(verdict.effects)
        except (AssertionError, ValueError, IndexError) as e:
            fail(f"the real table could not carry out {verdict.effects}: {e}", event)
            break
        problems = check_invariants(game, table) if check else None
        if problems:
            fail("; ".join(problems), event)
            break
    return _count_game(report, game, events)


def _count_game(report: SimReport, game, events: int):
    report.events += events
    report.games += 1
    if game.state.winner is not None:
        report.wins[game.state.winner] += 1
    return game


def play_legal(rules_id: str, players: int, seed: int, options: dict | None, report: SimReport,
               check: bool = True, draw_only_when_stuck: bool = False) -> Game:
    """One random game where every move is drawn uniformly from `Rules.legal_moves` (the random
    player of rlcard and python-chess) and submitted to the referee, which validates it in full
    like any event; a rejection is a violation. `draw_only_when_stuck` restricts the choice to the
    plays when there are any, as rlcard's UNO does (it only lets a player draw who cannot play)."""
    rng = random.Random(seed)
    game = Game()
    setup = {"type": "setup", "rules": rules_id, "players": [f"P{i}" for i in range(players)],
             "dealer": rng.randrange(players), "options": options or {}, "seed": seed}
    verdict = game.submit(setup)
    if not verdict.accepted:
        report.violations.append({"game": seed, "event": 0, "problem": f"setup rejected: {verdict.reason}"})
        return game
    rules = game.rules
    table = PhysicalTable(game.state.deck, players, rng)
    table.carry_out(verdict.effects)
    choice = rng.choice
    submit = game.submit
    events = 1
    while True:
        st = game.state
        phase = st.phase
        if phase == "over":
            break
        if events >= MAX_EVENTS:
            report.unfinished += 1
            break
        if phase == "flip":
            event = {"type": "flip", "card": table.draw[-1]}
        else:
            moves = rules.legal_moves(st, table.hands)
            if draw_only_when_stuck:
                moves = [m for m in moves if m["type"] == "play"] or moves
            if not moves:
                report.violations.append({"game": seed, "event": len(game.log), "problem": f"no legal move in phase {phase}"})
                break
            event = choice(moves)
        verdict = submit(event)
        events += 1
        if not verdict.accepted:
            report.violations.append({"game": seed, "event": len(game.log), "last": event,
                                      "problem": f"a generated legal move was rejected: {verdict.reason}"})
            break
        try:
            table.carry_out(verdict.effects)
        except (AssertionError, ValueError, IndexError) as e:
            report.violations.append({"game": seed, "event": len(game.log), "last": event,
                                      "problem": f"the real table could not carry out {verdict.effects}: {e}"})
            break
        if check:
            problems = check_invariants(game, table)
            if problems:
                report.violations.append({"game": seed, "event": len(game.log), "last": event,
                                          "problem": "; ".join(problems)})
                break
    return _count_game(report, game, events)


def simulate(rules_id: str, games: int, players: int = 4, seed: int = 0, options: dict | None = None) -> SimReport:
    report = SimReport(rules_id)
    start = time.perf_counter()
    for i in range(games):
        play_one(rules_id, players, seed * 1_000_003 + i, options, report)
    report.seconds = time.perf_counter() - start
    return report
