"""Names a package loads on first use (PEP 562), so that importing it stays cheap.

A package lists, for each such name, the module that defines it, and keeps
the same names in an ``if TYPE_CHECKING:`` import, so that type checkers and
IDEs see them as if they were imported at once.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy_names(
    package: str, where: Mapping[str, str], public: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: ``where`` maps a name to its module.

    A name whose module is ``package.name`` is that submodule itself
    (``'render'`` for ``'tajmahal.render'``).  The value found is stored in the package, so later
    look-ups are ordinary attribute reads.

    >>> import sys, types
    >>> package = types.ModuleType('example_package')
    >>> sys.modules['example_package'] = package
    >>> package.__getattr__, package.__dir__ = lazy_names(
    ...     'example_package', {'sqrt': 'math', 'pi': 'math'}, ['pi', 'sqrt'])
    >>> package.sqrt(9.0), 'pi' in dir(package), 'pi' in vars(package)
    (3.0, True, False)
    >>> package.pi > 3, 'pi' in vars(package)
    (True, True)
    >>> package.missing
    Traceback (most recent call last):
    ...
    AttributeError: module 'example_package' has no attribute 'missing'
    >>> del sys.modules['example_package']
    """
    names = sorted(set(public))

    def __getattr__(name: str) -> Any:
        module_name = where.get(name)
        if module_name is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(module_name)
        value = module if module_name == f"{package}.{name}" else getattr(module, name)
        setattr(importlib.import_module(package), name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(importlib.import_module(package))) | set(names))

    return __getattr__, __dir__
