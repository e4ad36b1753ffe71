"""The two ways an event can fail: it is not an event at all, or the rules forbid it."""


class MalformedEvent(ValueError):
    """Not a well-formed event (not an object, unknown type, a field missing or of the wrong type).

    The web answers 400 and `replay` exits 2: the sender has a bug, the table did nothing wrong.
    """


class Illegal(Exception):
    """A well-formed event that the rules reject; the message is read by people at the table."""
