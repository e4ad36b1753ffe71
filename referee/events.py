"""The event format: which types exist and which fields each carries (docs/events.md).

Only the envelope is checked here (types and fields); whether an event is allowed is the rules'
business. Rule sets add their own types with `register`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import MalformedEvent

PLAYER = "player"      # a seat index or a player's name
CARDS = "cards"        # a non-empty list of card ids
CARD = "card"          # one card id


@dataclass(frozen=True)
class Field:
    kind: Any              # str, int, bool, dict, list, PLAYER, CARDS, CARD
    required: bool = True
    help: str = ""


EVENT_TYPES: dict[str, dict[str, Field]] = {}
EVENT_HELP: dict[str, str] = {}
_PLANS: dict[str, tuple] = {}      # type -> its compiled field checks (see `_plan`)


def register(type_name: str, help: str, **fields: Field) -> None:
    """Declare an event type; a rule set that needs a decision adds its own this way."""
    EVENT_TYPES[type_name] = fields
    EVENT_HELP[type_name] = help
    _PLANS.pop(type_name, None)


def add_field(type_name: str, name: str, spec: Field) -> None:
    """One more (optional) field on a declared type, e.g. a rule set's extra choice on `play`."""
    EVENT_TYPES[type_name][name] = spec
    _PLANS.pop(type_name, None)


register("setup", "starts a game: hands are dealt (the referee tracks counts, not faces)",
         rules=Field(str, help="rule set id"),
         players=Field(list, help="names in clockwise seating order"),
         dealer=Field(int, False, "seat index of the dealer (default 0)"),
         options=Field(dict, False, "rule options (see `tableref rules`)"),
         seed=Field(int, False, "seed of the physical shuffle, recorded for reproducibility"),
         date=Field(str, False, "the day the game is played, YYYY-MM-DD (DINO 2 feast days)"))
register("flip", "the first card turned up from the draw pile", card=Field(CARD))
register("play", "cards put on the discard pile by that player",
         player=Field(PLAYER), cards=Field(CARDS),
         color=Field(str, False, "the colour named with a wild, instead of a choose_color event"),
         announced=Field(bool, False, "an out-of-turn play was announced ('jump in')"))
register("draw", "cards taken from the draw pile", player=Field(PLAYER), count=Field(int))
register("choose_color", "the colour named after a wild", player=Field(PLAYER), color=Field(str))
register("pass", "ends that player's turn without a play where the rules allow", player=Field(PLAYER))
register("call", "ONO!/UNO called; caller == target announces one's own last card",
         caller=Field(PLAYER), target=Field(PLAYER),
         switch=Field(bool, False, "ONO!: the caller takes the caught player's hand (default true)"))
register("challenge", "the +4 victim challenges", player=Field(PLAYER))
register("reveal", "a hand shown (challenge, end-of-round scoring, special-hand win)",
         player=Field(PLAYER), cards=Field(list))
register("undo", "takes back the last accepted event")

# DINO 2's decisions (docs/rules/dino2.md, "Events")
add_field("play", "fuego", Field(str, False, "DINO 2: a FUEGO's choice, 'extra' (one more card) or 'draw' (everyone else draws one)"))
register("give", "DINO 2: the user of a GIVE hands cards to the next player (count 0 gives none)",
         player=Field(PLAYER), count=Field(int, False, "how many (default: the number of cards named)"),
         cards=Field(list, False, "the cards given, when their faces are known"))
register("fuego", "DINO 2: the user of a FUEGO chooses 'extra' (one more card on it) or 'draw' (everyone else draws one)",
         player=Field(PLAYER), choice=Field(str))
register("cheating", "DINO 2 (host): someone was caught cheating; the game ends and nobody wins",
         player=Field(PLAYER, False, "who was caught"), reason=Field(str, False, "what happened"))
register("crosses_short", "Snake Cup: how a player short of coins gives for CROSSES (option crosses_short=ask)",
         player=Field(PLAYER),
         way=Field(str, help="'clockwise': one coin each from the left until they run out; 'cup': the rest into the cup"))


def _check_field(type_name: str, name: str, spec: Field, value: Any) -> None:
    where = f"{type_name}.{name}"
    kind = spec.kind
    if kind == PLAYER:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise MalformedEvent(f"{where} must be a seat index or a player's name")
    elif kind in (CARDS, list):
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise MalformedEvent(f"{where} must be a list of card ids")
        if kind == CARDS and not value:
            raise MalformedEvent(f"{where} must name at least one card")
    elif kind == CARD:
        if not isinstance(value, str):
            raise MalformedEvent(f"{where} must be a card id")
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedEvent(f"{where} must be a whole number")
    elif not isinstance(value, kind):
        raise MalformedEvent(f"{where} must be a {kind.__name__}")


# The envelope check runs on every event, so each type's fields are compiled once into a tuple of
# (name, test, required) where `test(value)` is True when the value is well formed; only a failing
# field goes through `_check_field`, which words the complaint. Same verdicts, no generic walk.
def _is_player(v) -> bool:
    return (type(v) is int or isinstance(v, str)) if type(v) is not bool else False


def _is_card_list(v) -> bool:
    return type(v) is list and all(type(c) is str or isinstance(c, str) for c in v)


def _is_cards(v) -> bool:
    return type(v) is list and bool(v) and all(type(c) is str or isinstance(c, str) for c in v)


def _is_card(v) -> bool:
    return isinstance(v, str)


def _is_whole(v) -> bool:
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))


def _test(kind):
    if kind == PLAYER:
        return _is_player
    if kind == CARDS:
        return _is_cards
    if kind is list:
        return _is_card_list
    if kind == CARD:
        return _is_card
    if kind is int:
        return _is_whole
    return lambda v: isinstance(v, kind)


def _plan(type_name: str) -> tuple:
    plan = _PLANS.get(type_name)
    if plan is None:
        plan = _PLANS[type_name] = tuple((name, _test(spec.kind), spec.required)
                                         for name, spec in EVENT_TYPES[type_name].items())
    return plan


def validate(event: Any) -> dict:
    """Checks the envelope of an event; returns it unchanged or raises MalformedEvent."""
    if not isinstance(event, dict):
        raise MalformedEvent("an event must be a JSON object")
    type_name = event.get("type")
    if not isinstance(type_name, str):
        raise MalformedEvent("an event needs a string field 'type'")
    plan = _PLANS.get(type_name)
    if plan is None:
        if type_name not in EVENT_TYPES:
            raise MalformedEvent(f"unknown event type {type_name!r}; known: {', '.join(sorted(EVENT_TYPES))}")
        plan = _plan(type_name)
    get = event.get
    for name, test, required in plan:
        value = get(name)
        if value is None:
            if required:
                raise MalformedEvent(f"{type_name} needs the field {name!r}")
        elif not test(value):
            _check_field(type_name, name, EVENT_TYPES[type_name][name], value)
    return event
