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
import json

from tajmahal.game import GameRecord
from tajmahal.rules.errors import FormatError
from tajmahal.rules.moves import Move
from tajmahal.rules.state import GameState
from tajmahal.rules.views import PlayerView
from tajmahal.serialize._converter import Failed, converter
from tajmahal.serialize._documents import KINDS, VERSION, document
from tajmahal.serialize._parse import message, read
from tajmahal.serialize._schemas import SCHEMA_NAMES, schema, schemas
from tajmahal.serialize._view_writer import view_json

__all__ = ["KINDS", "SCHEMA_NAMES", "VERSION", "converter", "dumps", "loads", "schema", "schemas"]


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
    data = converter.unstructure(document(obj))
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=indent)


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
    try:
        return read(text)
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
