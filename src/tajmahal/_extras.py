"""The error an optional module raises when its extra is not installed: it names the extra.

The adapters, the web server (:mod:`tajmahal.web`), its PostgreSQL store and the Ray
tournament backend raise it instead of a bare ``ModuleNotFoundError``.
"""

from __future__ import annotations


def missing_extra(module: str, extras: tuple[str, ...], error: ImportError) -> ImportError:
    """An ImportError for importing ``module`` without one of ``extras``, naming the command.

    >>> print(missing_extra("env", ("gymnasium",), ModuleNotFoundError(name="gymnasium")))
    env needs the extra 'gymnasium' (gymnasium is not installed): pip install 'tajmahal[gymnasium]'
    """
    names = " or ".join(f"'{extra}'" for extra in extras)
    commands = " or ".join(f"pip install 'tajmahal[{extra}]'" for extra in extras)
    return ImportError(
        f"{module} needs the extra {names} ({error.name or error} is not installed): {commands}",
        name=error.name,
    )
