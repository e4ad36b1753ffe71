"""The rule sets. Each module in this package defines RULESETS, a list of Rules instances;
they are found here by module, so a new rule set is a new file."""
from __future__ import annotations

import importlib
import pkgutil

from ..errors import Illegal
from .base import Rules

_registry: dict[str, Rules] | None = None


def all_rules() -> dict[str, Rules]:
    global _registry
    if _registry is None:
        found: dict[str, Rules] = {}
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            module = importlib.import_module(f"{__name__}.{info.name}")
            for rules in getattr(module, "RULESETS", ()):
                found[rules.id] = rules
        _registry = found
    return _registry


def get_rules(rules_id: str) -> Rules:
    try:
        return all_rules()[rules_id]
    except KeyError:
        raise Illegal(f"unknown rule set {rules_id!r}; rule sets: {', '.join(sorted(all_rules()))}") from None
