"""Seat and admin tokens: secret, stored hashed, compared in constant time, never logged.

A token is ``secrets.token_urlsafe(32)`` (256 bits). The database keeps only its SHA-256
hash, so a stolen database copy lets nobody play a seat. A token travels in an
``Authorization: Bearer`` header or a WebSocket's first message, never in a URL (URLs end up
in logs and browser histories); a join link carries it after ``#``, which browsers never
send to a server.

A rematch's tokens are *derived* (:func:`derived_token`): an HMAC of the seat's token in the
finished game, so only whoever holds that token can make its successor, and the server
stores, as for every token, only the hash. The server therefore never keeps a rematch token
it could hand to the wrong seat: it can tell a seat its new token only while that seat
shows its old one (a request, a WebSocket authenticated with it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable

TOKEN_BYTES = 32
MAX_TOKEN_LENGTH = 128
"""Longer text is no token of ours (and is not hashed)."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def derived_token(token: str, purpose: str) -> str:
    """The token that ``token``'s holder gets for ``purpose`` (``rematch <game id> seat 2``):
    HMAC-SHA-256 keyed by the token, as long and as random as :func:`new_token` for anyone
    without it, and the same every time it is asked for (a retry, a reconnection)."""
    mac = hmac.new(token.encode("utf-8", "surrogatepass"), purpose.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str | None, stored_hash: str | None) -> bool:
    """Does ``token`` hash to ``stored_hash``? Constant time in the hash."""
    if token is None or stored_hash is None or len(token) > MAX_TOKEN_LENGTH:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def find_seat(token: str | None, hashes: Iterable[tuple[int, str | None]]) -> int | None:
    """The seat whose token this is, if any. Every seat's hash is compared, so the time taken
    does not say which seat (or whether any) came close."""
    found: int | None = None
    for seat, stored in hashes:
        if matches(token, stored) and found is None:
            found = seat
    return found


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
