"""Who is asking: API tokens (``x-api-key`` or ``Authorization: Bearer``), web page
sessions (an HttpOnly, SameSite=Strict cookie plus a CSRF token), or nobody.

Auth is *configured* once a token exists (or ``server.require_auth``); until then every
request is the local user's, and the server only listens on loopback, where a request
must also name a loopback host (no DNS rebinding from a web page).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from codeproof.core.errors import AuthError
from codeproof.server.db import ServerDB
from codeproof.server.tokens import TokenStore, digest

LOCAL_USER = "local"
"""The user of every request while no auth is configured."""
SESSION_COOKIE = "codeproof_session"
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"


@dataclass(frozen=True)
class Principal:
    """An authenticated caller."""

    user: str
    via: Literal["token", "session", "local"]
    csrf: str | None = None


def is_loopback(host: str) -> bool:
    """Whether a bind address or Host name is on this machine only."""
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_name(header: str) -> str:
    """The host part of a ``Host`` header (``[::1]:8123`` -> ``::1``)."""
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class SessionStore:
    """Web page sessions: the cookie's sha256, its user, its CSRF token and its expiry."""

    def __init__(self, db: ServerDB) -> None:
        self.db = db

    def create(self, user: str, hours: float) -> tuple[str, str]:
        """A new session for ``user``: ``(cookie value, csrf token)``."""
        secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        with self.db.tx() as conn:
            conn.execute("DELETE FROM sessions WHERE expires < ?", (time.time(),))
            conn.execute(
                "INSERT INTO sessions (sha256, user, csrf, expires) VALUES (?, ?, ?, ?)",
                (digest(secret), user, csrf, time.time() + hours * 3600),
            )
        return secret, csrf

    def get(self, secret: str) -> Principal | None:
        row = self.db.row(
            "SELECT user, csrf, expires FROM sessions WHERE sha256 = ?", (digest(secret),)
        )
        if row is None or float(row[2]) < time.time():
            return None
        return Principal(user=str(row[0]), via="session", csrf=str(row[1]))

    def delete(self, secret: str) -> None:
        with self.db.tx() as conn:
            conn.execute("DELETE FROM sessions WHERE sha256 = ?", (digest(secret),))


class Auth:
    """Resolves callers; one instance per app."""

    def __init__(self, tokens: TokenStore, sessions: SessionStore, *, require: bool) -> None:
        self.tokens = tokens
        self.sessions = sessions
        self.require = require

    def configured(self) -> bool:
        """Whether requests must carry credentials."""
        return self.require or self.tokens.any_active()

    def api(self, headers: Mapping[str, str]) -> Principal:
        """The caller of an API request.

        Raises:
            AuthError: Bad credentials, or none while auth is configured.
        """
        secret = _presented_token(headers)
        if secret is not None:
            user = self.tokens.verify(secret)
            if user is None:
                raise AuthError(
                    "unknown or revoked API token", hint="create one: `codeproof tokens create`"
                )
            return Principal(user=user, via="token")
        if self.configured():
            raise AuthError(
                "this server needs an API token",
                hint="send it as x-api-key or Authorization: Bearer",
            )
        self.check_local_host(headers)
        return Principal(user=LOCAL_USER, via="local")

    def check_local_host(self, headers: Mapping[str, str]) -> None:
        """Without auth, only requests naming a loopback host are served.

        Raises:
            AuthError: Another host name (a DNS-rebinding page, a proxy).
        """
        host = host_name(headers.get("host", ""))
        if not is_loopback(host):
            raise AuthError(
                f"host {host!r} is not served without auth",
                hint="use 127.0.0.1 or localhost, or create a token",
                status_code=403,
            )

    def web(self, cookie: str | None) -> Principal | None:
        """The web page session of ``cookie``, if it is valid."""
        return self.sessions.get(cookie) if cookie else None

    def login(self, token: str, hours: float) -> tuple[str, str]:
        """A session for the user of ``token``: ``(cookie value, csrf)``.

        Raises:
            AuthError: Unknown or revoked token.
        """
        user = self.tokens.verify(token.strip())
        if user is None:
            raise AuthError("unknown or revoked API token", hint="paste a token from the CLI")
        return self.sessions.create(user, hours)


def check_csrf(principal: Principal, presented: str | None) -> None:
    """A state-changing web request must carry the session's CSRF token.

    Raises:
        AuthError: Missing or wrong token (403).
    """
    if principal.via != "session":
        return
    if not presented or not principal.csrf or not hmac.compare_digest(presented, principal.csrf):
        raise AuthError(
            "missing or wrong CSRF token", hint="reload the page and try again", status_code=403
        )


def _presented_token(headers: Mapping[str, str]) -> str | None:
    key = headers.get("x-api-key")
    if key:
        return key.strip()
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None
