"""The former home of :mod:`tajmahal.web.stores` (deprecated): the store contract is now
:mod:`tajmahal.web.stores.contract`, the SQLite store :mod:`tajmahal.web.stores.sqlite`.

The same names, the same objects; importing this module warns: import from the new home
(this module is removed in 0.4.0).
"""

from tajmahal._moved import warn_moved
from tajmahal.web.stores import (
    DuplicateMoveError,
    GameStore,
    Quota,
    QuotaError,
    SQLiteStore,
    StoredGame,
    StoredMove,
    StoreError,
    TokenEntry,
    default_db_path,
    token_digest,
)

__all__ = [
    "DuplicateMoveError",
    "GameStore",
    "Quota",
    "QuotaError",
    "SQLiteStore",
    "StoreError",
    "StoredGame",
    "StoredMove",
    "TokenEntry",
    "default_db_path",
    "token_digest",
]

warn_moved(__name__, "tajmahal.web.stores")
