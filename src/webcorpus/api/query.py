"""Repeated query parameters: ``?type=docs&type=blog`` means ``?type=docs,blog``.

Frameworks keep only the last of repeated keys, which would silently drop a filter value. The
comma-list filters are joined instead; a known single-value parameter given twice is a 400, since
no single value can be chosen for it without guessing. Parameters the API does not know pass
untouched (they are listed in ``filters.unrecognized``, never an error).
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import parse_qsl, urlencode

from starlette.types import ASGIApp, Receive, Scope, Send

from webcorpus.api.problems import problem
from webcorpus.services.params import CONTENT_PARAMS, SEARCH_PARAMS

LIST_PARAMS = frozenset({"domain", "type", "format", "audience", "locale", "topics"})
# Every other parameter the API knows takes one value: the list and search parameters, the job
# URL and page-read flags.
SINGLE_PARAMS = (
    frozenset({*CONTENT_PARAMS, *SEARCH_PARAMS, "state", "bucket", "markdown", "explain"})
    - LIST_PARAMS
)


class RepeatedParams:
    """ASGI middleware over the JSON and markdown API (not /api/mcp, whose arguments are JSON)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = scope.get("query_string", b"") if scope["type"] == "http" else b""
        path = scope.get("path", "")
        if not raw or b"&" not in raw or path.startswith("/api/mcp"):
            await self.app(scope, receive, send)
            return
        pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8")
        counts = Counter(key for key, _ in pairs)
        repeated = {key for key, n in counts.items() if n > 1}
        single = sorted(repeated & SINGLE_PARAMS)
        if single:
            response = problem(
                "invalid_parameter",
                f"{', '.join(single)}: given more than once; give it once",
                errors=[{"param": key, "message": "given more than once"} for key in single],
            )
            await response(scope, receive, send)
            return
        lists = repeated & LIST_PARAMS
        if not lists:
            await self.app(scope, receive, send)
            return
        out: list[tuple[str, str]] = []
        for key, value in pairs:
            if key not in lists:
                out.append((key, value))
            elif key not in (k for k, _ in out):  # the joined values, where the key came first
                out.append((key, ",".join(v for k, v in pairs if k == key)))
        await self.app({**scope, "query_string": urlencode(out).encode("ascii")}, receive, send)
