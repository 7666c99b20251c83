"""API tokens: ``codeproof tokens create NAME`` prints one once; only its sha256 is kept.

A token belongs to a user (by default its own name); every thread belongs to the user
whose token created it. Tokens are compared by hash, so the database never holds one.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import time
import uuid

from pydantic import BaseModel

from codeproof.core.errors import ConflictError, InputError, NotFoundError
from codeproof.server.db import ServerDB

TOKEN_PREFIX = "cp_"
NAME_RULE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
"""Token and user names: a letter or digit, then letters, digits, ``.``, ``_``, ``-``."""


def digest(secret: str) -> str:
    """The sha256 (hex) under which a token or session is stored."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def check_name(value: str, what: str) -> str:
    """``value`` if it is a valid token or user name.

    Raises:
        InputError: It is not.
    """
    if not NAME_RULE.fullmatch(value):
        raise InputError(
            f"invalid {what} {value!r}",
            hint="use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
        )
    return value


class TokenInfo(BaseModel):
    """One token as listed (never the token itself)."""

    id: str
    name: str
    user: str
    created: float
    last_used: float | None = None
    revoked: float | None = None

    @property
    def active(self) -> bool:
        return self.revoked is None


class TokenStore:
    """Create, list, revoke and verify API tokens."""

    def __init__(self, db: ServerDB) -> None:
        self.db = db

    def create(self, name: str, user: str | None = None) -> tuple[TokenInfo, str]:
        """A new token named ``name`` for ``user``; returns it with its secret (shown once).

        Raises:
            InputError: Bad name or user.
            ConflictError: A token of that name exists (revoked ones too).
        """
        check_name(name, "token name")
        owner = check_name(user or name, "user name")
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        info = TokenInfo(id=uuid.uuid4().hex[:12], name=name, user=owner, created=time.time())
        try:
            with self.db.tx() as conn:
                conn.execute(
                    "INSERT INTO tokens (id, name, user, sha256, created) VALUES (?, ?, ?, ?, ?)",
                    (info.id, name, owner, digest(secret), info.created),
                )
        except sqlite3.IntegrityError as exc:
            raise ConflictError(
                f"a token named {name!r} exists", hint="choose another name"
            ) from exc
        return info, secret

    def list(self) -> list[TokenInfo]:
        rows = self.db.rows(
            "SELECT id, name, user, created, last_used, revoked FROM tokens ORDER BY created"
        )
        return [_info(r) for r in rows]

    def revoke(self, name: str) -> TokenInfo:
        """Revoke the token ``name`` (it stops working at once).

        Raises:
            NotFoundError: No active token of that name.
        """
        with self.db.tx() as conn:
            done = conn.execute(
                "UPDATE tokens SET revoked = ? WHERE name = ? AND revoked IS NULL",
                (time.time(), name),
            ).rowcount
        if not done:
            raise NotFoundError(f"no active token {name!r}", hint="see `codeproof tokens list`")
        return next(t for t in self.list() if t.name == name)

    def any_active(self) -> bool:
        """Whether auth is configured (at least one token not revoked)."""
        return self.db.row("SELECT 1 FROM tokens WHERE revoked IS NULL LIMIT 1") is not None

    def verify(self, secret: str) -> str | None:
        """The user of an active token, or ``None``."""
        row = self.db.row(
            "SELECT id, user FROM tokens WHERE sha256 = ? AND revoked IS NULL", (digest(secret),)
        )
        if row is None:
            return None
        with self.db.tx() as conn:
            conn.execute("UPDATE tokens SET last_used = ? WHERE id = ?", (time.time(), row[0]))
        return str(row[1])


def _info(row: tuple[object, ...]) -> TokenInfo:
    keys = ("id", "name", "user", "created", "last_used", "revoked")
    return TokenInfo.model_validate(dict(zip(keys, row, strict=True)))
