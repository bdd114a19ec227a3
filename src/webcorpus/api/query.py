"""Repeated query parameters: ``?type=docs&type=blog`` means ``?type=docs,blog``.

Frameworks keep only the last of repeated keys, which would silently drop a filter value. The
comma-list filters are joined instead; any other parameter given twice is a 400, since no single
value can be chosen for it without guessing.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import parse_qsl, urlencode

from starlette.types import ASGIApp, Receive, Scope, Send

from webcorpus.api.problems import problem

LIST_PARAMS = frozenset({"domain", "type", "format", "audience", "locale", "topics"})


class RepeatedParams:
    """ASGI middleware over the JSON and markdown API (not /api/mcp, whose arguments are JSON)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if not raw or b"&" not in raw or scope["path"].startswith("/api/mcp"):
            await self.app(scope, receive, send)
            return
        pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8")
        counts = Counter(key for key, _ in pairs)
        repeated = sorted(key for key, n in counts.items() if n > 1)
        if not repeated:
            await self.app(scope, receive, send)
            return
        single = [key for key in repeated if key not in LIST_PARAMS]
        if single:
            response = problem(
                "invalid_parameter",
                f"{', '.join(single)}: given more than once; give it once",
                errors=[{"param": key, "message": "given more than once"} for key in single],
            )
            await response(scope, receive, send)
            return
        merged: dict[str, list[str]] = {}
        for key, value in pairs:
            merged.setdefault(key, []).append(value)
        query = urlencode([(key, ",".join(values)) for key, values in merged.items()])
        await self.app({**scope, "query_string": query.encode("ascii")}, receive, send)
