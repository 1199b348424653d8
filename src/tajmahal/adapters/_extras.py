"""The error an adapter raises when its extra is not installed (:mod:`tajmahal._extras`)."""

from tajmahal._extras import missing_extra

__all__ = ["missing_extra"]
