"""Observers: what watches the matches the referee plays (hooks in :mod:`tajmahal.hookspecs`).

An observer is any object with one or more of the methods
``tajmahal_match_started(match)``, ``tajmahal_decision_made(decision)`` and
``tajmahal_match_finished(result)``.  The referee calls the observers passed
to :func:`tajmahal.play_match` (``observers=[...]``) and every installed
plugin that implements these hooks (entry-point group ``"tajmahal"``, as for
bots).  ``tajmahal_decision_made`` runs in the thread that plays the match:
the caller's, or, in a match with a time limit, the match's own thread (one
call at a time, in order; the other two hooks run in the caller's thread).

**Containment.**  An observer is not allowed to break a match: when one
raises, the referee issues an :class:`ObserverWarning` naming the observer,
the hook and the error, and calls that observer no more in this match.  The
match, its record and its result are the same as without the observer.

:class:`DecisionDataset` is an observer that writes one JSON line per
decision — the view, the legal moves, the move chosen and the final result —
the kind of file people train models on.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tajmahal.events import DecisionMade, MatchStarted
from tajmahal.rules.errors import TajMahalError
from tajmahal.serialize import to_document

if TYPE_CHECKING:  # annotation only: the referee imports this module
    from tajmahal.match_result import MatchResult

__all__ = ["HOOKS", "DecisionDataset", "ObserverWarning", "Watchers"]

#: the observer hooks, in the order a match calls them
HOOKS = ("tajmahal_match_started", "tajmahal_decision_made", "tajmahal_match_finished")


class ObserverWarning(UserWarning):
    """An observer raised: it was left out of the rest of the match, which went on.

    >>> import warnings, tajmahal as tm
    >>> class Broken:
    ...     def tajmahal_decision_made(self, decision):
    ...         raise RuntimeError('disk full')
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter('always')
    ...     result = tm.play_match(['random'] * 3, seed=1, observers=[Broken()])
    >>> print(caught[0].message)  # doctest: +ELLIPSIS
    observer Broken raised in tajmahal_decision_made (decision 1): RuntimeError: disk full; ...
    >>> result.scores == tm.play_match(['random'] * 3, seed=1).scores
    True
    """


class Watchers:
    """The observers of one match: the given ones, then the installed plugins' hooks.

    Checks that each given observer has at least one observer hook (a
    misspelt method is an error, not silence).

    >>> watchers = Watchers([], plugins=False)
    >>> bool(watchers)
    False
    >>> Watchers([object()], plugins=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.TajMahalError: observer 0 (a object) has none of the observer hooks: ...
    """

    def __init__(self, observers: Iterable[object] = (), *, plugins: bool = True) -> None:
        self._calls: list[tuple[str, str, Callable[..., Any]]] = []  # (observer, hook, function)
        for number, observer in enumerate(observers):
            found = [(hook, getattr(observer, hook, None)) for hook in HOOKS]
            if not any(callable(function) for _, function in found):
                raise TajMahalError(
                    f"observer {number} (a {type(observer).__name__}) has none of the observer "
                    f"hooks: {', '.join(HOOKS)}"
                )
            name = type(observer).__name__
            self._calls += [(name, hook, f) for hook, f in found if callable(f)]
        if plugins:
            self._calls += _plugin_calls()
        self._broken: set[str] = set()

    def __bool__(self) -> bool:
        return bool(self._calls)

    def started(self, match: MatchStarted) -> None:
        self._call("tajmahal_match_started", "", match=match)

    def decision(self, decision: DecisionMade) -> None:
        self._call("tajmahal_decision_made", f" (decision {decision.number})", decision=decision)

    def finished(self, result: MatchResult) -> None:
        self._call("tajmahal_match_finished", "", result=result)

    def _call(self, hook: str, where: str, **argument: Any) -> None:
        for name, wanted, function in self._calls:
            if wanted != hook or name in self._broken:
                continue
            try:
                function(**argument)
            except (Exception, SystemExit) as exc:  # contained: the match goes on
                self._broken.add(name)
                warnings.warn(
                    f"observer {name} raised in {hook}{where}: {type(exc).__name__}: {exc}; "
                    "it is not called again in this match",
                    ObserverWarning,
                    stacklevel=2,
                )


def _plugin_calls() -> list[tuple[str, str, Callable[..., Any]]]:
    from tajmahal.bots.registry import default_registry

    try:
        hooks = default_registry().plugin_manager.hook
    except TajMahalError as exc:  # a broken plugin: the match goes on without plugin observers
        warnings.warn(f"no observer plugins: {exc}", ObserverWarning, stacklevel=4)
        return []
    calls = []
    for hook in HOOKS:
        caller = getattr(hooks, hook, None)
        for impl in caller.get_hookimpls() if caller is not None else ():
            calls.append((f"plugin {impl.plugin_name!r}", hook, impl.function))
    return calls


class DecisionDataset:
    """An observer that appends one JSON line per decision to ``path``, once the match ends.

    Each line: ``seed``, ``decision`` (1, 2, ...), ``seat``, ``view`` (the
    seat's view document, as :func:`tajmahal.dumps` writes it), ``legal_moves``
    and ``move`` (move notation), ``seconds``, and the match's ``result``:
    ``players``, ``scores``, ``winners``, ``ranking`` and this seat's ``rank``
    (0 for the best).  Lines of a match are written together at its end, so a
    match that never ends leaves none.

    >>> import json, pathlib, tempfile, tajmahal as tm
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / 'decisions.jsonl'
    ...     result = tm.play_match(['greedy', 'random', 'random'], seed=4,
    ...                            observers=[DecisionDataset(path)])
    ...     lines = path.read_text(encoding='utf-8').splitlines()
    >>> len(lines) == len(result.record.moves)
    True
    >>> first = json.loads(lines[0])
    >>> first['move'] in first['legal_moves'], first['view']['format'], first['result']['rank']
    (True, 'tajmahal/view', 0)
    >>> tm.from_document(first['view']).seat
    0
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._rows: list[dict[str, Any]] = []
        self._seed = 0

    def tajmahal_match_started(self, match: MatchStarted) -> None:
        """Start collecting a match's decisions.

        >>> import tajmahal as tm
        >>> dataset = DecisionDataset('unused.jsonl')
        >>> dataset.tajmahal_match_started(tm.events.MatchStarted(('a', 'b', 'c'), 9, None))
        """
        self._rows, self._seed = [], match.seed

    def tajmahal_decision_made(self, decision: DecisionMade) -> None:
        """Keep one decision (its view as a JSON document, the moves in notation).

        >>> import tajmahal as tm
        >>> state = tm.new_game(3, seed=1)
        >>> dataset = DecisionDataset('unused.jsonl')
        >>> dataset.tajmahal_decision_made(tm.events.DecisionMade(
        ...     1, 0, state.view(0), state.legal_moves(), tm.Withdraw(), 0.5,
        ...     tm.events.explain(state, tm.Withdraw())))
        >>> dataset._rows[0]['move'], len(dataset._rows[0]['legal_moves'])
        ('withdraw', 6)
        """
        self._rows.append(
            {
                "seed": self._seed,
                "decision": decision.number,
                "seat": decision.seat,
                "view": to_document(decision.view),
                "legal_moves": [str(move) for move in decision.legal_moves],
                "move": str(decision.move),
                "seconds": round(decision.seconds, 6),
            }
        )

    def tajmahal_match_finished(self, result: MatchResult) -> None:
        """Write the match's lines, each with the final result.

        >>> import pathlib, tempfile, tajmahal as tm
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     dataset = DecisionDataset(pathlib.Path(folder) / 'none.jsonl')
        ...     dataset.tajmahal_match_finished(tm.play_match(['random'] * 3, seed=1))
        ...     dataset.path.exists()  # no decisions seen: nothing to write
        False
        """
        if not self._rows:
            return
        outcome = {
            "players": list(result.players),
            "scores": list(result.scores),
            "winners": list(result.winners),
            "ranking": list(result.ranking),
        }
        with self.path.open("a", encoding="utf-8") as out:
            for row in self._rows:
                rank = result.ranking.index(row["seat"])
                out.write(json.dumps({**row, "result": {**outcome, "rank": rank}}) + "\n")
        self._rows = []


def as_watchers(observers: Sequence[object] | Watchers) -> Watchers:
    """``observers`` as :class:`Watchers` (the referee's helper).

    >>> bool(as_watchers([]))  # no observers given: only installed plugins, if any
    False
    """
    return observers if isinstance(observers, Watchers) else Watchers(observers)
