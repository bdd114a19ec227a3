"""The MCP endpoint at /api/mcp: streamable HTTP in the API process.

Security per the MCP transport spec:
- ``Origin`` is validated on every request (DNS-rebinding protection): no Origin (non-browser
  clients) or an Origin whose host is localhost, 127.0.0.1, ::1, the configured
  ``WEBCORPUS_HOST`` or this machine's hostname passes; any other Origin gets 403.
- The server binds to 127.0.0.1 unless WEBCORPUS_HOST says otherwise.
- A present but wrong ``Authorization: Bearer`` key is refused with 401 before any MCP
  processing; so is a missing key when WEBCORPUS_PUBLIC_READS=false. Write tools are always
  listed and answer a tool error (isError) naming the missing key when called without one.
- Sessions (``Mcp-Session-Id``) are handled by the SDK's session manager for the revisions that
  have them; 2026-07-28 requests are self-contained.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import anyio
from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from webcorpus.api.problems import problem
from webcorpus.config import Settings
from webcorpus.mcp.tools import build_server
from webcorpus.services import keys
from webcorpus.services.errors import ServiceError
from webcorpus.store import Store

PATH = "/api/mcp"
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})


def allowed_origin_hosts(settings: Settings) -> frozenset[str]:
    hosts = set(LOCAL_HOSTS)
    if settings.host.lower() not in WILDCARD_HOSTS:
        hosts.add(settings.host.lower().strip("[]"))
    with contextlib.suppress(OSError):
        hosts.add(socket.gethostname().lower())
    return frozenset(hosts)


def origin_allowed(origin: str | None, hosts: frozenset[str]) -> bool:
    if origin is None:
        return True
    try:
        parts = urlsplit(origin.strip())
        host = (parts.hostname or "").lower()
        _ = parts.port  # raises on a malformed port
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and host in hosts


class Guard:
    """Origin and key checks in front of the SDK's transport; answers problem documents."""

    def __init__(self, app: ASGIApp, settings: Settings, store: Store) -> None:
        self.app = app
        self.settings = settings
        self.store = store
        self.hosts = allowed_origin_hosts(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # pragma: no cover
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if not origin_allowed(headers.get("origin"), self.hosts):
            response = problem(
                "forbidden",
                "Origin not allowed: the MCP endpoint accepts requests without an Origin or "
                "from this server's own host (DNS-rebinding protection)",
            )
            await response(scope, receive, send)
            return
        try:
            key = await anyio.to_thread.run_sync(
                keys.authenticate, self.store, headers.get("authorization")
            )
            if not self.settings.public_reads:
                keys.require_scope(key, "read")
        except ServiceError as exc:
            response = problem(exc.code, exc.detail, headers=exc.headers)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def install(app: FastAPI, settings: Settings, store: Store) -> Any:
    """Add the /api/mcp route to ``app``; returns the session manager to run in the lifespan."""
    server = build_server(settings, store, app.state)
    # The SDK's own Host/Origin allow-list is off: Guard checks Origin itself (the SDK's
    # version also pins the Host header, which breaks serving under a real hostname).
    server.streamable_http_app(
        streamable_http_path=PATH,
        json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=max(settings.max_body_request_bytes, 64 * 1024),
        host=settings.host,
    )
    manager = server.session_manager
    endpoint = Guard(StreamableHTTPASGIApp(manager), settings, store)
    app.router.routes.append(Route(PATH, endpoint=endpoint, include_in_schema=False))
    app.state.mcp_server = server

    @asynccontextmanager
    async def running() -> AsyncIterator[None]:
        async with manager.run():
            yield

    return running
