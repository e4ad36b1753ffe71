"""Who a camera play is charged to, and the question the phones ask when the camera is unsure.

Pure functions: what the table does with one `play` of the vision pipeline (docs/vision.md,
"Who played") given the seats marked (web/seats.py).

- No seats marked (or marked for other players): the player whose turn it is, as before seats.
- Seats marked and the camera sure of the seat (seat_confidence >= SURE): that seat's player. The
  referee then rules on it as on any play in that player's name: out of turn in California
  Prison a jump-in, out of turn elsewhere a refusal in that player's name.
- Seats marked and the camera unsure (a hand from between two seats, two hands at once, no hand
  seen): a question, "Who played the red 7?", with the likely players first; nothing is charged
  until someone answers.
"""
from __future__ import annotations

SURE = 0.8      # as vision.track.seats.SURE (not imported: the web runs without the vision package)

WORDS = {"draw2": "draw 2", "draw4": "draw 4", "wild-draw4": "wild draw 4", "skip": "skip", "reverse": "reverse"}


def card_words(card: str) -> str:
    """'red-7' -> 'red 7', 'wild-draw4' -> 'wild draw 4': how the question names a card."""
    if card in WORDS:
        return WORDS[card]
    return " ".join(WORDS.get(part, part) for part in card.split("-"))


def question_for(event: dict, names: list[str]) -> dict:
    """The question about an unsure play: {cards, text, likely (every player, likely ones first),
    why}."""
    cards = list(event.get("cards") or [])
    likely = [n for n, _ in (event.get("seat_likely") or []) if n in names]
    likely += [n for n in names if n not in likely]
    shares = dict((n, s) for n, s in (event.get("seat_likely") or []) if n in names)
    hands = event.get("hands") or 0
    if not event.get("seat") or not hands:
        why = "no hand was seen bringing it"
    elif hands >= 2:
        why = "hands came from more than one place at once"
    else:
        why = f"the hand came from between {likely[0]}'s and {likely[1]}'s seats" if len(likely) > 1 else \
            "the hand came from where nobody's seat is marked"
    text = f"Who played the {' and the '.join(card_words(c) for c in cards) or 'card'}?"
    return {"cards": cards, "text": text, "likely": likely, "shares": shares, "why": why}


def charge(event: dict, current_player: int | None, seats: dict[str, float], names: list[str]):
    """What to do with one pipeline event: ("submit", event with its player, words),
    ("ask", question, words) or ("skip", None, words)."""
    kind = event.get("type")
    if kind not in ("flip", "play"):
        return "skip", None, f"{kind} noted for the table"
    if event.get("unconfirmed"):
        return "skip", None, f"unconfirmed {event.get('cards')}: waiting for the table to confirm"
    if kind == "flip" or "player" in event:
        return "submit", event, ""
    if not seats:
        if current_player is None:
            return "skip", None, "a play seen before the game started"
        return "submit", {**event, "player": current_player}, "no seats marked: charged to the player on turn"
    seat, conf = event.get("seat"), event.get("seat_confidence") or 0.0
    if seat in names and seat in seats and conf >= SURE:
        return "submit", {**event, "player": seat}, f"{seat}'s hand brought it ({conf:.0%} sure)"
    q = question_for(event, names)
    return "ask", q, f"asked the table: {q['text']} ({q['why']})"
