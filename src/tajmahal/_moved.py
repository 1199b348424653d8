"""Former homes of moved names: a module that re-exports them warns once, on import.

The project's deprecation policy: a release in which the old form still works and warns
(:class:`DeprecationWarning`, naming the new home), then the release named in the
CHANGELOG removes it.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["REMOVED_IN", "renamed_names", "warn_moved"]

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



def renamed_names(module: str, renamed: Mapping[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` (PEP 562) of a module whose names ``renamed`` maps (old -> new):
    an old name gives the new name's object and warns (:class:`DeprecationWarning`) once
    per place that uses it.

    >>> import sys, types, warnings
    >>> module = types.ModuleType('example_module')
    >>> module.Outbox = object
    >>> sys.modules['example_module'] = module
    >>> module.__getattr__ = renamed_names('example_module', {'Listener': 'Outbox'})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter('always')
    ...     module.Listener is module.Outbox
    True
    >>> print(caught[0].message)
    example_module.Listener is deprecated and will be removed in tajmahal 0.4.0: use example_module.Outbox
    >>> module.Missing
    Traceback (most recent call last):
    ...
    AttributeError: module 'example_module' has no attribute 'Missing'
    >>> del sys.modules['example_module']
    """  # noqa: E501

    def __getattr__(name: str) -> Any:
        new = renamed.get(name)
        if new is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} is deprecated and will be removed in tajmahal {REMOVED_IN}: "
            f"use {module}.{new}",
            DeprecationWarning,
            stacklevel=2,  # the code that reads the old name
        )
        return getattr(sys.modules[module], new)

    return __getattr__
