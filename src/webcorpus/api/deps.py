"""Request dependencies: the store, the settings, the caller's key."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from webcorpus.config import Settings
from webcorpus.services import keys
from webcorpus.store import Store


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def caller_key(request: Request) -> dict[str, Any] | None:
    return keys.authenticate(get_store(request), request.headers.get("authorization"))


def require_read(request: Request) -> dict[str, Any] | None:
    key = caller_key(request)
    if not get_settings(request).public_reads:
        keys.require_scope(key, "read")
    return key


def require_write(request: Request) -> dict[str, Any]:
    return keys.require_scope(caller_key(request), "write")
