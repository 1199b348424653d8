"""JSON documents for states, views, moves and game records (docs/reference/api.md).

Every document is a JSON object that starts with its kind and format version::

    {"format": "tajmahal/state", "version": 1, "components": "standard", ...}

Kinds: ``state`` (:class:`~tajmahal.GameState`), ``view``
(:class:`~tajmahal.PlayerView`), ``move`` (any move) and ``record``
(:class:`~tajmahal.GameRecord`).  The values are readable: cards as their
text (``"red:elephant+vizier"``), enums as their values (``"play"``,
``"vizier"``), cities and provinces as ids, seats as ints (``null`` for
nobody), moves in the notation of :mod:`tajmahal.rules.moves`.  The standard
components are referenced by name (``"components": "standard"``); any other
components are embedded in full, in the shape of a components TOML file, so a
document is self-contained.

- A state document has one key per :class:`~tajmahal.GameState` field:
  per-city fields map city ids to values and list only cities that hold
  something (``normal_palaces``, ``crown_palaces``: owner seats; ``bonus``:
  bonus tile texts such as ``"commodity:rice"``, ``"points:2"``, ``"card"``,
  ``"taj_mahal"``); ``influence`` and ``court_influence`` list symbols;
  ``commodity_tiles`` lists commodities; ``special_holder`` maps every special
  card to a seat or ``null``; ``deck`` lists the draw deck, top card last.
- A view document has one key per :class:`~tajmahal.PlayerView` field, with
  ``palaces`` mapping the cities that hold a palace to ``[normal, crown]``
  owners and ``court_province_tile`` the tile's number or ``null``.  It holds
  only what the view's seat may see (docs/rules.md I1–I4).
- A move document is ``{"format": "tajmahal/move", "version": 1, "move": "withdraw"}``.
- A record document (version 2) holds ``num_players``, ``seed``,
  ``first_player``, ``players`` (one name per seat, or none: any text of at
  most :data:`~tajmahal.game.MAX_PLAYER_NAME` characters, which every player
  spec fits), ``moves`` (texts), ``scores`` and ``winners``
  (``null`` before the end), and what the match knew: ``tags`` (an object of
  texts), ``faults`` (objects with ``seat``, ``decision``, ``kind``,
  ``detail``, ``traceback``) and ``times`` (seconds per move, or empty).
  Version 1 records, without those three keys, are read too.  Every other
  kind is at version 1.

:func:`dumps` is deterministic (the same object gives the same text).

**Documents as data.**  :func:`to_document` gives a document as the dict that
``json.loads(tm.dumps(obj))`` gives, and :func:`from_document` reads one back
as :func:`loads` reads its text: for code that embeds a document in a larger
JSON message, or reads one out of it, without writing and parsing text again.

**JSON Schemas.**  :func:`schema` gives the JSON Schema (draft 2020-12) of each
kind of document and of each message of the bot protocol (docs/protocol.md);
the docs publish them (docs/reference/schemas.md).  A schema says what a
document's shape is; loading checks far more (that a state is possible, that a
record replays).

**What loading guarantees.**  A loaded record is replayed: its moves are
legal, its faults match the game and its result is the replayed game's.  A
loaded state is a position the engine can play on: its cards and tiles are
conserved, its pieces are where the rules allow, its phase and pending
duties fit; but nothing records how it was reached, so its scores are only
checked to lie within 0..10000, not to be the scores its palaces and tiles
could have earned.  A loaded view is one some state has (a state is sampled
from it and must show the same view).  Loading takes time and memory linear
in the text: embedded components are bounded in total (see
:func:`tajmahal.load_components`), caches are bounded, and an error message
lists at most a few problems and says how many more.
:func:`loads` trusts nothing: any problem raises :class:`~tajmahal.FormatError`
naming the JSON path (``$.hands[2][0]``) and what is wrong, and a loaded
state, view or record is checked as strictly as the engine's own (impossible
states are rejected, records are replayed).
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from typing import Any, TypeVar

from tajmahal.game import GameRecord
from tajmahal.rules.errors import FormatError
from tajmahal.rules.moves import Move
from tajmahal.rules.state import GameState
from tajmahal.rules.views import PlayerView
from tajmahal.serialize._converter import Failed, converter
from tajmahal.serialize._documents import KINDS, VERSION, document
from tajmahal.serialize._parse import message, read, read_data
from tajmahal.serialize._schemas import SCHEMA_NAMES, schema, schemas
from tajmahal.serialize._view_writer import view_json

__all__ = [
    "KINDS",
    "SCHEMA_NAMES",
    "VERSION",
    "converter",
    "dumps",
    "from_document",
    "loads",
    "schema",
    "schemas",
    "to_document",
]

T = TypeVar("T")


def dumps(obj: GameState | PlayerView | Move | GameRecord, *, indent: int | None = None) -> str:
    """The JSON document of a state, view, move or record (deterministic: same object, same text).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> text = tm.dumps(state)
    >>> text[:60]
    '{"format": "tajmahal/state", "version": 1, "components": "st'
    >>> tm.loads(text) == state
    True
    >>> tm.dumps(tm.Withdraw())
    '{"format": "tajmahal/move", "version": 1, "move": "withdraw"}'
    """
    if type(obj) is PlayerView and indent is None:  # once per decision for a bot program
        with contextlib.suppress(KeyError, AttributeError, TypeError):  # parts of foreign types
            return view_json(obj)
    data = converter.unstructure(document(obj))  # may share cached parts: not copied for text
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=indent)


def to_document(obj: GameState | PlayerView | Move | GameRecord) -> dict[str, Any]:
    """The document of a state, view, move or record as data: ``json.loads(tm.dumps(obj))``.

    Every call gives a new dict (changing it changes nothing else); :func:`from_document`
    reads it back.

    >>> import tajmahal as tm
    >>> tm.to_document(tm.Withdraw())
    {'format': 'tajmahal/move', 'version': 1, 'move': 'withdraw'}
    >>> view = tm.new_game(num_players=3, seed=1).view(0)
    >>> document = tm.to_document(view)
    >>> document["format"], document["seat"], len(document["hand"])
    ('tajmahal/view', 0, 6)
    >>> tm.from_document({"request": 1, "view": document}["view"]) == view
    True
    """
    if type(obj) is PlayerView:
        # the view's text writer with C's JSON parser takes about a third of the time of
        # unstructuring the view's document (measured: 76 us against 278 us)
        with contextlib.suppress(KeyError, AttributeError, TypeError):  # parts of foreign types
            data: dict[str, Any] = json.loads(view_json(obj))
            return data
    data = converter.unstructure(document(obj))
    if type(data.get("components")) is dict:  # a cached dict: the caller gets its own
        data["components"] = copy.deepcopy(data["components"])
    return data


def loads(text: str | bytes) -> GameState | PlayerView | Move | GameRecord:
    """The object a document holds; :class:`~tajmahal.FormatError` for anything else.

    The error names the JSON path and the problem; no other exception escapes.

    >>> import tajmahal as tm
    >>> tm.loads('{"format": "tajmahal/move", "version": 1, "move": "palace agra"}')
    PlacePalace(city='agra')
    >>> tm.loads('{"format": "tajmahal/move", "version": 1, "move": 7}')
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.FormatError: cannot read the move document: $.move: expected a string, got an integer 7
    """  # noqa: E501
    return _reading(read, text)


def from_document(document: dict[str, Any]) -> GameState | PlayerView | Move | GameRecord:
    """The object a document given as data holds: :func:`loads` without the text.

    It reads exactly the data that ``json.loads`` gives for a text :func:`loads` reads, the
    same way, with the same errors; any other data (a tuple, a set, a key that is not a
    string, a float NaN, an object of another type, a container nested more than 200 deep
    or holding more than a million values) raises :class:`~tajmahal.FormatError` naming its
    JSON path too.  No other exception escapes.

    >>> import tajmahal as tm
    >>> tm.from_document({"format": "tajmahal/move", "version": 1, "move": "palace agra"})
    PlacePalace(city='agra')
    >>> tm.from_document({"format": "tajmahal/move", "version": 1, "move": ("palace", "agra")})
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.FormatError: cannot read the document: $.move: not JSON: tuple is not a JSON type
    """  # noqa: E501
    return _reading(read_data, document)


def _reading(
    reader: Callable[[T], GameState | PlayerView | Move | GameRecord], source: T
) -> GameState | PlayerView | Move | GameRecord:
    """What ``reader`` reads from ``source``, with every failure a FormatError."""
    try:
        return reader(source)
    except FormatError:
        raise
    except Failed as failed:
        raise FormatError(message("the document", failed.problems)) from None
    except RecursionError:
        raise FormatError("cannot read the document: it is nested too deeply") from None
    except MemoryError:
        raise FormatError("cannot read the document: it is too large") from None
    except Exception as exc:  # the promise: nothing but FormatError escapes
        raise FormatError(
            f"cannot read the document: internal error ({type(exc).__name__}: {exc}); "
            "please report it"
        ) from None
