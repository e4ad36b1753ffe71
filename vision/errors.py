"""Errors of the vision package that a user should read as a sentence, not as a traceback."""


class ModelError(RuntimeError):
    """A model file that is missing or cannot be loaded: reported once, when the recognizer starts."""
