"""API keys: created once, shown once, stored as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from webcorpus.services.clock import now_iso
from webcorpus.services.errors import ServiceError
from webcorpus.store import Store

KEY_PREFIX = "wck_"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def create_key(store: Store, name: str, *, scopes: str = "read,write") -> str:
    name = name.strip()
    if not name or len(name) > 64:
        raise ServiceError("invalid_parameter", "a key name is 1 to 64 characters")
    if not name.isprintable():  # a tab or newline would break `keys list`, one key per line
        raise ServiceError(
            "invalid_parameter", "a key name has no tabs, newlines or control characters"
        )
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    store.create_key(
        "key_" + secrets.token_hex(6), name, key[:10], hash_key(key), scopes, now_iso()
    )
    return key


def list_keys(store: Store) -> list[dict[str, Any]]:
    return store.list_keys()


def revoke_key(store: Store, name: str) -> bool:
    return store.revoke_key(name.strip(), now_iso())  # stripped as create_key strips it


def authenticate(store: Store, authorization: str | None) -> dict[str, Any] | None:
    """The key record for an ``Authorization: Bearer`` header, None when absent.

    A header that is present but wrong raises 401 (never silently treated as anonymous).
    """
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError(
            "unauthorized",
            "use Authorization: Bearer <key>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    record = store.find_key(hash_key(token.strip()))
    if record is None:
        raise ServiceError(
            "unauthorized", "unknown or revoked key", headers={"WWW-Authenticate": "Bearer"}
        )
    return record


def require_scope(key: dict[str, Any] | None, scope: str) -> dict[str, Any]:
    if key is None:
        raise ServiceError(
            "unauthorized",
            "this operation needs an API key (Authorization: Bearer <key>)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if scope not in key["scopes"].split(","):
        raise ServiceError("forbidden", f"this key lacks the {scope!r} right")
    return key
