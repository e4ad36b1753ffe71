"""What the host can do at a table, per rule set, as data.

Each rule set lists its host actions (`Rules.host_actions`): one descriptor per button the host
page shows, with the event it sends, the phases it belongs to and the inputs it needs. The host
page (web/static/phone.js) draws its buttons, player pickers, card choosers and colour buttons
from these descriptors alone; `GET /api/rules` and `tableref rules --json` list them. Nothing
here rules on anything: an action only builds an event, and the referee judges it as always.

An action's `inputs` fill the event's fields:

| kind | page control | event field gets |
|---|---|---|
| `player` | the shared player picker (follows `default`, a state path such as `current_player`) | a seat index |
| `seat` | a picker of its own next to the button (`default`: a state path, or none chosen) | a seat index |
| `cards` | the shared card chooser (`minimum` to `maximum` cards, `maximum` a number or a state path; `symbols` limits the choice) | a list of card ids |
| `card` | the shared card chooser, one card | one card id |
| `color` | one button per colour of the deck: tapping one sends | a colour |
| `choice` | one button per choice (`choices`: value, words): tapping one sends | that value |
| `count` | a number field (`default`: a number or a state path; `minimum`) | a whole number |
| `flag` | a checkbox (`default` true or false) | true or false |

`fixed` fields are sent as they are. An action is shown in the `phases` listed (none: in every
phase but `setup` and `over`) and only while every `when` condition holds (a state path and the
values it may have). `section` says where the page puts it: `turn` (what the moment needs),
`decision` (a card's question to its user), `anytime` (folded under "at any time").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

KINDS = ("player", "seat", "cards", "card", "color", "choice", "count", "flag")
SECTIONS = ("turn", "decision", "anytime")


@dataclass(frozen=True)
class Input:
    field: str
    kind: str
    label: str = ""
    default: Any = None            # a state path ("current_player", "challenge.player") or a value
    minimum: int | None = None
    maximum: int | str | None = None
    symbols: tuple[str, ...] = ()  # cards: only cards with these symbols
    choices: tuple[tuple[Any, str], ...] = ()   # choice: (value, words on the button)
    optional: bool = False         # seat: may be left unchosen (the field is then left out)

    def to_dict(self) -> dict:
        d: dict = {"field": self.field, "kind": self.kind}
        if self.label:
            d["label"] = self.label
        for name in ("default", "minimum", "maximum"):
            value = getattr(self, name)
            if value is not None:
                d[name] = value
        if self.symbols:
            d["symbols"] = list(self.symbols)
        if self.choices:
            d["choices"] = [{"value": v, "label": words} for v, words in self.choices]
        if self.optional:
            d["optional"] = True
        return d


@dataclass(frozen=True)
class HostAction:
    id: str
    label: str
    event: str
    help: str
    phases: tuple[str, ...] = ()
    inputs: tuple[Input, ...] = ()
    fixed: tuple[tuple[str, Any], ...] = ()
    when: tuple[tuple[str, tuple], ...] = ()
    section: str = "turn"
    style: str = ""                # "primary" (the usual next tap) or "danger"

    def to_dict(self) -> dict:
        d = {"id": self.id, "label": self.label, "event": self.event, "help": self.help,
             "phases": list(self.phases), "section": self.section,
             "inputs": [i.to_dict() for i in self.inputs], "fixed": dict(self.fixed)}
        if self.when:
            d["when"] = [{"path": path, "values": list(values)} for path, values in self.when]
        if self.style:
            d["style"] = self.style
        return d


# -- shared pieces ------------------------------------------------------------------------------
PLAYER = Input("player", "player", "player", default="current_player")


def cards(maximum: int | str | None = 1, minimum: int = 1, **kw) -> Input:
    return Input("cards", "cards", "cards", minimum=minimum, maximum=maximum, **kw)


FLIP = HostAction("flip", "Turn up first card", "flip", "the first card turned up from the draw pile: pick it, then tap",
                  phases=("flip",), inputs=(Input("card", "card", "card"),), style="primary")


def uno_family(call_word: str) -> tuple[HostAction, ...]:
    """The actions every UNO-family game shares (ONO!, California Prison, regulation)."""
    return (
        FLIP,
        HostAction("play", "Play", "play", "the player puts the picked card on the pile",
                   phases=("play", "drawn"), inputs=(PLAYER, cards(1)), style="primary"),
        HostAction("draw", "Draw", "draw", "the player takes cards from the draw pile (a penalty owed, or one when stuck)",
                   phases=("play", "drawn"), inputs=(PLAYER, Input("count", "count", "cards", default="pending_draw", minimum=1))),
        HostAction("pass", "Pass", "pass", "ends the player's turn after drawing", phases=("play", "drawn"),
                   inputs=(PLAYER,)),
        HostAction("color", "Name the colour", "choose_color", "the colour named after a wild",
                   phases=("color",), inputs=(PLAYER, Input("color", "color", "colour")), section="decision"),
        HostAction("reveal", "Show hand", "reveal", "a hand shown for the scoring: pick every card in it",
                   phases=("scoring",), inputs=(Input("player", "player", "player", default="awaiting_reveal.0"),
                                                cards(None)), section="decision", style="primary"),
        HostAction("call", f"Call {call_word}", "call",
                   f"{call_word} called: the caller on the player with one card (the same player: announcing their own last card)",
                   phases=("play", "drawn", "color"),
                   inputs=(Input("caller", "seat", "who calls", default="current_player"),
                           Input("target", "seat", "on whom", default="call_open")),
                   section="anytime"),
    )


def with_phases(action: HostAction, *extra: str) -> HostAction:
    from dataclasses import replace
    return replace(action, phases=action.phases + extra)


def replace_action(actions: tuple[HostAction, ...], **by_id: HostAction) -> tuple[HostAction, ...]:
    return tuple(by_id.get(a.id, a) for a in actions)


def check(actions: tuple[HostAction, ...]) -> list[str]:
    """What is wrong with a list of actions: unknown kinds, event types or fields (tests use it)."""
    from .events import EVENT_TYPES
    problems = []
    ids = [a.id for a in actions]
    if len(set(ids)) != len(ids):
        problems.append(f"duplicate action ids in {ids}")
    for a in actions:
        fields = EVENT_TYPES.get(a.event)
        if fields is None:
            problems.append(f"{a.id}: unknown event type {a.event!r}")
            continue
        given = [i.field for i in a.inputs] + [name for name, _ in a.fixed]
        for name in given:
            if name not in fields:
                problems.append(f"{a.id}: {a.event} has no field {name!r}")
        for name, spec in fields.items():
            if spec.required and name not in given:
                problems.append(f"{a.id}: {a.event} needs {name!r} and the action does not fill it")
        for i in a.inputs:
            if i.kind not in KINDS:
                problems.append(f"{a.id}: unknown input kind {i.kind!r}")
            if i.kind == "choice" and not i.choices:
                problems.append(f"{a.id}: choice input {i.field!r} without choices")
        if a.section not in SECTIONS:
            problems.append(f"{a.id}: unknown section {a.section!r}")
    return problems
