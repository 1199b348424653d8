"""Former homes of moved names: a module that re-exports them warns once, on import.

The project's deprecation policy: a release in which the old form still works and warns
(:class:`DeprecationWarning`, naming the new home), then the release named in the
CHANGELOG removes it.
"""

from __future__ import annotations

import warnings

__all__ = ["REMOVED_IN", "warn_moved"]

REMOVED_IN = "0.4.0"  #: the release that removes every former home (CHANGELOG.md)


def warn_moved(old: str, new: str) -> None:
    """Warn that module ``old`` is a former home and ``new`` the one to import from.

    The warning points at the code that imported ``old`` (past the import machinery).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter('always')
    ...     warn_moved('tajmahal.old_place', 'tajmahal.new_place')
    >>> print(caught[0].message)
    tajmahal.old_place is deprecated and will be removed in tajmahal 0.4.0: import from tajmahal.new_place
    """  # noqa: E501
    warnings.warn(
        f"{old} is deprecated and will be removed in tajmahal {REMOVED_IN}: import from {new}",
        DeprecationWarning,
        stacklevel=3,  # the code importing the shim (import machinery frames are skipped)
    )

