"""Rule options as data: a name, a default, the values allowed, and a line of help."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import Illegal


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: str
    choices: tuple | None = None      # allowed values, when they are a short list
    minimum: int | None = None        # for whole numbers
    mapping: bool = False             # a text option that also takes a JSON object (ONO!'s foods)
    label: str = ""                   # a few words for people (forms); the name stays the key

    @property
    def title(self) -> str:
        """The label, or the name made readable ("speed_round" -> "Speed round")."""
        return self.label or self.name.replace("_", " ").capitalize()

    def check(self, value: Any) -> Any:
        kind = type(self.default)
        if self.mapping and isinstance(value, dict):
            return value
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise Illegal(f"option {self.name} takes a whole number, not {value!r}")
        if kind is not int and not isinstance(value, kind):
            also = " or an object" if self.mapping else ""
            raise Illegal(f"option {self.name} takes a {kind.__name__}{also}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise Illegal(f"option {self.name} is one of {', '.join(map(str, self.choices))}, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise Illegal(f"option {self.name} is at least {self.minimum}, not {value}")
        return value

    def to_dict(self) -> dict:
        d = {"name": self.name, "label": self.title, "default": self.default, "help": self.help}
        if self.choices is not None:
            d["choices"] = list(self.choices)
        if self.minimum is not None:
            d["minimum"] = self.minimum
        if self.mapping:
            d["mapping"] = True
        return d


def resolve(options: tuple[Option, ...], given: dict | None, rules_id: str) -> dict:
    """The full option set of a game: defaults, overridden by what the setup named."""
    known = {o.name: o for o in options}
    given = given or {}
    unknown = sorted(set(given) - set(known))
    if unknown:
        names = ", ".join(sorted(known)) or "none"
        raise Illegal(f"{rules_id} has no option {', '.join(unknown)} (its options: {names})")
    return {name: opt.check(given[name]) if name in given else opt.default
            for name, opt in known.items()}
