"""Phase and evolve: what every module that makes game states needs, below them all.

:class:`~tajmahal.rules.state.GameState` imports the modules that compute legal
moves, apply moves and build views; they in turn make new states without
importing it, by copying an existing state with :func:`evolve`.  So the
imports inside ``rules/`` run one way (see the internals page).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["Phase", "copier", "evolve", "fast_constructor"]

S = TypeVar("S")


class Phase(enum.Enum):
    """What the seat that owes the next move must decide.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> state.phase
    <Phase.PLAY: 'play'>
    >>> state.apply(tm.Withdraw()).phase  # F2: whoever withdraws takes supply cards
    <Phase.TAKE: 'take'>
    """

    PLAY = "play"  #: play cards or withdraw (V3)
    PALACE = "palace"  #: place a normal palace (W5)
    CROWN = "crown"  #: place the crown palace (W7)
    TAKE = "take"  #: take a supply card (F2)
    OVER = "over"  #: the game has ended


def _make_copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """Generate the copy function of ``cls``: a straight-line copy of every slot, then the changes.

    ``attrs.evolve`` reads the fields' metadata and runs the frozen ``__init__``
    (one ``object.__setattr__`` call per field); the engine makes a state per
    move, so this is its hottest path.  The copy is written into a mutable
    twin class with the very same slots (plain attribute stores, which CPython
    specialises), and the finished object then becomes a ``cls``: it is
    frozen from the moment anyone else can see it.  Caches (fields with
    ``init=False``, and attrs' cached hash) start empty, as in ``__init__``,
    except those whose metadata says ``{"evolve": "share"}``.
    """
    fields = attrs.fields(cls)
    slots = vars(cls)["__slots__"]
    draft = type("_Draft", (), {"__slots__": slots})  # the same layout, not frozen
    copied = {f.name for f in fields if f.init or f.metadata.get("evolve") == "share"}
    lines = [
        "def copy(state, changes, _new=object.__new__, _draft=_Draft, _cls=cls, _set=setattr):",
        "    new = _new(_draft)",
    ]
    for name in slots:
        lines.append(f"    new.{name} = {'state.' + name if name in copied else 'None'}")
    lines += [
        "    for name, value in changes.items():",
        "        _set(new, name, value)",
        "    new.__class__ = _cls",
        "    return new",
    ]
    namespace: dict[str, Any] = {"cls": cls, "_Draft": draft}
    exec("\n".join(lines), namespace)  # generated from the attrs fields above
    copy: Callable[[Any, dict[str, Any]], Any] = namespace["copy"]
    return copy


def fast_constructor(cls: type[S]) -> Callable[..., S]:
    """A function that builds a frozen attrs ``cls`` from keyword arguments, without validation.

    The same twin-class trick as :func:`evolve`: every ``init`` field must be
    given; the other slots (caches) start as ``None``.  ``cls`` must have no
    ``__weakref__`` slot (CPython refuses the class swap then).  For the views,
    built once per decision.

    >>> @attrs.frozen(weakref_slot=False)
    ... class Point:
    ...     x: int
    ...     y: int
    >>> fast_constructor(Point)(x=1, y=2) == Point(1, 2)
    True
    """
    fields = attrs.fields(cls)  # type: ignore[arg-type]  # cls is an attrs class
    slots = vars(cls)["__slots__"]
    draft = type("_Draft", (), {"__slots__": slots})
    given = [f.name for f in fields if f.init]
    lines = [
        f"def make(*, {', '.join(given)}):",
        "    new = _new(_draft)",
    ]
    for name in slots:
        if name != "__weakref__":
            value = name if name in given else "None"
            lines.append(f"    new.{name} = {value}")
    lines += ["    new.__class__ = _cls", "    return new"]
    namespace: dict[str, Any] = {"_new": object.__new__, "_draft": draft, "_cls": cls}
    exec("\n".join(lines), namespace)  # generated from the attrs fields above
    make: Callable[..., S] = namespace["make"]
    return make


_copiers: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def evolve(state: S, changes: dict[str, Any]) -> S:
    """``attrs.evolve(state, **changes)``, several times faster (the engine's state copy).

    No validation runs (GameState has none) and unchanged fields are shared,
    not copied; the new state's caches (legal moves, hash) start empty.  An
    unknown field name raises ``AttributeError``.

    >>> import attrs, tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> evolve(state, {"scores": (1, 2, 3)}) == attrs.evolve(state, scores=(1, 2, 3))
    True
    """
    return copier(state.__class__)(state, changes)  # type: ignore[no-any-return]


def copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """The copy function :func:`evolve` runs for states of ``cls`` (made once per class).

    For compiled callers, which keep it and call it directly (one interpreted frame less).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> copier(type(state))(state, {"scores": (1, 2, 3)}).scores
    (1, 2, 3)
    """
    copy = _copiers.get(cls)
    if copy is None:
        copy = _copiers[cls] = _make_copier(cls)
    return copy
