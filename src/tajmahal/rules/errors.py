"""The library's exception hierarchy (RULES-independent, imported everywhere)."""

from __future__ import annotations

__all__ = ["ComponentsError", "FormatError", "IllegalMoveError", "TajMahalError"]


class TajMahalError(Exception):
    """Base class of every error the library raises on purpose."""


class IllegalMoveError(TajMahalError, ValueError):
    """A move that is not legal in the state it was applied to."""


class FormatError(TajMahalError, ValueError):
    """A serialised document that cannot be read back (bad JSON, wrong shape, impossible state)."""


class ComponentsError(TajMahalError, ValueError):
    """A components file (deck, tiles, board) that is malformed or inconsistent."""
