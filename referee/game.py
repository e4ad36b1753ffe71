"""Game: the referee of one table, fed one event at a time (the python-chess Board of tableref).

The state is a pure function of the accepted events: every event is applied to a copy of the
state, so a rejected event changes nothing. `undo` is what the event format says it is: replay
without the last accepted event. Replay starts from the nearest snapshot (the state after every
SNAPSHOT_EVERY-th accepted event is kept), so an undo re-applies at most that many events, while
the states between snapshots are freed at once instead of piling up for the garbage collector
(keeping every state cost about a fifth of the referee's time in long random games).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Illegal
from .events import validate
from .rules import get_rules
from .rules.base import Rules
from .state import TableState


@dataclass(slots=True)
class Verdict:
    index: int            # position of the event among those submitted to this Game
    type: str
    accepted: bool
    reason: str           # what happened, or why not, in words for the table
    effects: list = field(default_factory=list)   # physical transfers (draws, plays, swaps ...)
    player: str | None = None   # whose action it was (the event's player or caller), when known

    def to_dict(self) -> dict:
        return {"index": self.index, "type": self.type, "accepted": self.accepted, "reason": self.reason,
                "player": self.player}


EMPTY_STATE = {
    "rules": None, "options": {}, "players": [], "dealer": None, "current_player": None,
    "direction": "clockwise", "top_card": None, "active_color": None, "pending_draw": 0,
    "phase": "setup", "winner": None, "cup": None, "draw_pile": 0, "discard_pile": 0,
    "recent_discards": [], "round": 0,
}


SNAPSHOT_EVERY = 32


class Game:
    def __init__(self) -> None:
        self.state: TableState | None = None
        self.rules: Rules | None = None
        self.log: list[dict] = []            # accepted events still in force (undos applied)
        self._summaries: list[str] = []      # the referee's words for each of them
        # (number of log events applied, state, rules): the start, then every SNAPSHOT_EVERY events
        self._snapshots: list[tuple[int, TableState | None, Rules | None]] = [(0, None, None)]
        self.submitted = 0
        self.last_verdict: Verdict | None = None

    # -- feeding events -------------------------------------------------------------------------
    def submit(self, event: dict) -> Verdict:
        """Applies one event. Raises MalformedEvent if it is not an event; otherwise returns the
        verdict, and the state changes only when it is accepted."""
        validate(event)
        verdict = self._judge(event, commit=True)
        verdict.player = self._actor(event)
        self.submitted += 1
        self.last_verdict = verdict
        return verdict

    def check(self, event: dict) -> Verdict:
        """The verdict that `submit` would give, without changing anything."""
        validate(event)
        return self._judge(event, commit=False)

    def _actor(self, event: dict) -> str | None:
        """The name of the player whose action the event is (player, else caller), if it names one."""
        who = event.get("player")
        if who is None:
            who = event.get("caller")
        if who is None or self.state is None:
            return None
        try:
            return self.state.names[self.state.seat(who)]
        except Illegal:
            return None

    def _judge(self, event: dict, commit: bool) -> Verdict:
        kind = event["type"]
        try:
            if kind == "undo":
                return self._undo(commit)
            state, rules = self._apply(self.state, self.rules, event)
        except Illegal as why:
            return Verdict(self.submitted, kind, False, str(why))
        if commit:
            log = self.log
            log.append(event)
            self._summaries.append(state.summary)
            self.state = state
            self.rules = rules
            if len(log) % SNAPSHOT_EVERY == 0:
                self._snapshots.append((len(log), state, rules))
        return Verdict(self.submitted, kind, True, state.summary, state.effects)

    @staticmethod
    def _apply(state: TableState | None, rules: Rules | None, event: dict) -> tuple[TableState, Rules]:
        """The state after `event`, or Illegal. `state` itself is never changed: the rules change
        a copy, so a rejection (raised half-way through a ruling or not) leaves no trace."""
        if event["type"] == "setup":
            if state is not None and state.phase != "over":
                raise Illegal("a game is already under way at this table; finish it or undo its setup")
            rules = get_rules(event["rules"])
            return rules.start(event), rules
        if state is None:
            raise Illegal("no game yet: the first event is a setup")
        state = state.copy()
        rules.handle(state, event)
        return state, rules

    def _undo(self, commit: bool) -> Verdict:
        if not self.log:
            raise Illegal("nothing to undo")
        summary = self._summaries[-1]
        if commit:
            self.log.pop()
            self._summaries.pop()
            keep = len(self.log)
            while self._snapshots[-1][0] > keep:
                self._snapshots.pop()
            done, state, rules = self._snapshots[-1]
            for event in self.log[done:keep]:     # each was accepted from exactly this state before
                state, rules = self._apply(state, rules, event)
            self.state, self.rules = state, rules
        return Verdict(self.submitted, "undo", True, f"undone: {summary}")

    # -- reading ----------------------------------------------------------------------------------
    def recent(self, count: int) -> list[dict]:
        """The last `count` accepted events still in force, each with the referee's words for it."""
        start = max(0, len(self.log) - count)
        return [{"n": i + 1, "event": self.log[i], "summary": self._summaries[i]}
                for i in range(start, len(self.log))]

    @property
    def phase(self) -> str:
        return self.state.phase if self.state is not None else "setup"

    def to_dict(self) -> dict:
        """The state object of the design page (what every view reads)."""
        if self.state is None:
            d = dict(EMPTY_STATE)
        else:
            d = self.state.to_dict()
            d.update(self.rules.extra_state(self.state))
            d["waiting_for"] = self.rules.phases.get(self.state.phase, self.state.phase)
        d["event_count"] = len(self.log)
        d["last_verdict"] = self.last_verdict.to_dict() if self.last_verdict else None
        return d

    @classmethod
    def replay(cls, events) -> "Game":
        """A Game rebuilt from a log of events (undos included), as the store replays it."""
        game = cls()
        for event in events:
            game.submit(event)
        return game
