"""PostgreSQL addresses (libpq's ``postgresql://`` URLs and ``key=value`` pairs) for
messages and logs: read, described and redacted, never a password shown.

The :class:`~tajmahal.web.stores.postgres.PostgresStore` and its
:class:`~tajmahal.web.stores.postgres.NoticeListener` say which database they use with
:func:`describe`, and take their errors through :func:`redact`.
"""

from __future__ import annotations

import contextlib
import re
from urllib.parse import quote, unquote

from tajmahal._extras import missing_extra

try:  # the extra 'postgres': without it, an ImportError that names it
    import psycopg
    from psycopg.conninfo import conninfo_to_dict
except ImportError as missing:
    raise missing_extra(__name__, ("postgres",), missing) from missing

__all__ = ["address_problem", "describe", "redact"]


def describe(dsn: str) -> str:
    """A PostgreSQL address for messages and logs: the database and host, never a password.

    >>> describe('postgresql://ann:secret@db.example:5433/games')
    "PostgreSQL database 'games' on db.example:5433"
    >>> describe('dbname=games host=/run/postgresql')
    "PostgreSQL database 'games' on /run/postgresql"
    >>> describe('postgresql://ann:se/cret@db.example/games')  # a '/' not written %2F
    'PostgreSQL database (an address that cannot be read)'
    """
    if address_problem(dsn) is not None:
        return "PostgreSQL database (an address that cannot be read)"
    info = conninfo_to_dict(dsn)
    name = info.get("dbname") or info.get("user") or "(the user's)"
    host = str(info.get("host") or "the local socket")
    if info.get("port"):
        host += f":{info['port']}"
    return f"PostgreSQL database {name!r} on {host}"


#: the characters of a URL's user and password that are written percent-encoded
_URL_RESERVED = "@/?#[]"


def address_problem(dsn: str) -> str | None:
    """Why libpq cannot read ``dsn`` (a ``postgresql://`` URL or ``key=value`` pairs), in words
    that quote nothing of it (it may hold a password); None if it can.

    >>> print(address_problem('postgresql://ann:s3cr%zzet@db.example/games'))
    a '%' that is not followed by two hex digits (a '%' in a password is written %25)
    >>> print(address_problem('postgresql://ann:s3cret@[::1/games'))
    an IPv6 host without its closing ']'
    >>> print(address_problem('postgresql://ann:s3c@ret@db.example/games'))  # doctest: +ELLIPSIS
    a user or password holding '@', '/', '?', '#', '[' or ']': write them %40, ...
    >>> address_problem('host=/run/postgresql dbname=games') is None
    True
    """
    rest = dsn.partition("://")[2]
    if rest and "@" in rest.split("?", 1)[0]:
        # libpq ends the user and password at their first '@' or '/': a later one would make
        # the rest of the password a host, a port or a database name, shown in messages
        authority = rest.split("?", 1)[0]
        credentials = authority[: authority.rindex("@")]
        if any(c in credentials for c in _URL_RESERVED):
            return (
                "a user or password holding '@', '/', '?', '#', '[' or ']': write them %40, %2F, "
                "%3F, %23, %5B, %5D"
            )
    try:
        conninfo_to_dict(dsn)
    except psycopg.Error as exc:
        return _parse_problem(str(exc))
    return None


def _parse_problem(message: str) -> str:
    """libpq's complaint about an address, without any text it quotes from the address."""
    first = (message.strip().splitlines() or [""])[0]
    for words, said in (
        ("percent-encoded", "a '%' that is not followed by two hex digits (a '%' in a password "
                            "is written %25)"),
        ("IPv6 host address may not be empty", "an empty IPv6 host ('[]')"),
        ("IPv6", "an IPv6 host without its closing ']'"),
        ("unexpected character", "a character libpq does not expect in a URL (a password's "
                                 "special characters are written percent-encoded)"),
        ("query parameter", "a parameter after '?' that libpq cannot read or does not know"),
        ('missing "="', "a word without '=' (key=value pairs; a value with a space is written "
                        "in single quotes)"),
        ("unterminated quoted", "a quoted value without its closing quote"),
        ("invalid connection option", "an option libpq does not know"),
    ):  # fmt: skip
        if words in first:
            return said
    # anything else: libpq's words, without what it quotes (any part of the address)
    return re.sub(r'\s*"[^"]*"', "", first).strip(" :") or "libpq cannot read it"


def redact(text: str, dsn: str) -> str:
    """``text`` without any password that ``dsn`` holds (raw or percent-encoded), nor ``dsn``
    itself: for messages built from a database's error.

    >>> redact('auth failed for "ann" (pw s3cret)', 'postgresql://ann:s3cret@db/games')
    'auth failed for "ann" (pw ***)'
    >>> redact("wrong p w", "host=db password='p w'")
    'wrong ***'
    """
    secrets_ = {dsn} if dsn else set()
    with contextlib.suppress(psycopg.Error):
        secrets_.add(str(conninfo_to_dict(dsn).get("password") or ""))
    authority = dsn.partition("://")[2].split("?", 1)[0]
    if "@" in authority:  # a URL's user:password, however malformed
        credentials = authority[: authority.rindex("@")]
        secrets_.add(credentials.partition(":")[2])
    for quoted, plain in re.findall(r"password\s*=\s*(?:'((?:[^'\\]|\\.)*)'?|([^\s&]*))", dsn):
        secrets_.add(re.sub(r"\\(.)", r"\1", quoted) if quoted else plain)
    for secret in list(secrets_):
        secrets_ |= {unquote(secret), quote(secret, safe="")}
    for secret in sorted((s for s in secrets_ if s), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _reason(exc: BaseException, dsn: str = "") -> str:
    """The first line of a database error; with the address it used, without its password
    (and, for an address libpq cannot read, without anything libpq quotes from it)."""
    if dsn:
        problem = address_problem(dsn)
        if problem is not None:
            return f"the address cannot be read: {problem}"
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return redact(first, dsn) if dsn else first
