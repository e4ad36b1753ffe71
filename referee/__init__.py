"""The referee: a pure-Python rules engine for UNO-like games (no OpenCV, Flask or torch)."""
from .cards import Card, Deck, load_deck
from .errors import Illegal, MalformedEvent
from .game import Game, Verdict
from .rules import all_rules, get_rules

__all__ = ["Card", "Deck", "Game", "Illegal", "MalformedEvent", "Verdict", "all_rules", "get_rules", "load_deck"]
