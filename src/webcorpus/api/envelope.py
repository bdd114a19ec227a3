"""The list envelope: data, total, paging, sort and the filters applied / unrecognized."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fastapi import Request
from fastapi.responses import PlainTextResponse


def unrecognized(request: Request, known: Iterable[str]) -> list[str]:
    allowed = set(known)
    return sorted({k for k in request.query_params if k not in allowed})


def envelope(
    data: list[dict[str, Any]],
    *,
    total: int,
    limit: int,
    offset: int,
    applied: dict[str, Any],
    unknown: list[str],
    sort: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body: dict[str, Any] = {"data": data, "total": total, "limit": limit, "offset": offset}
    if sort is not None:
        body["sort"] = sort
    body.update(extra)
    body["filters"] = {"applied": applied, "unrecognized": unknown}
    return body


class MarkdownResponse(PlainTextResponse):
    media_type = "text/markdown"
