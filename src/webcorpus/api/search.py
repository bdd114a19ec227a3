"""GET /api/search: hybrid search over page chunks."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request

from webcorpus.api.deps import get_settings, require_read
from webcorpus.services import params

router = APIRouter(tags=["search"], dependencies=[Depends(require_read)])


@router.get("/api/search", summary="Hybrid search over page chunks")
def search(
    request: Request,
    q: Annotated[
        str | None, Query(description="the query text, at most WEBCORPUS_MAX_Q_CHARS (1000)")
    ] = None,
    mode: Literal["hybrid", "vector", "text"] = "hybrid",
    domain: str | None = None,
    collection: str | None = None,
    locale: str | None = None,
    type: str | None = None,
    topics: str | None = None,
    technicality_min: Annotated[float | None, Query(ge=0, le=1)] = None,
    limit: Annotated[int, Query(ge=1, description="at most WEBCORPUS_SEARCH_LIMIT (50)")] = 10,
) -> dict[str, Any]:
    req = params.search_filters(
        get_settings(request),
        domain=domain,
        collection=collection,
        locale=locale,
        type=type,
        topics=topics,
        technicality_min=technicality_min,
    )
    result: dict[str, Any] = request.app.state.search_engine.search(q, mode, req.filters, limit)
    result["filters"] = {
        "applied": req.applied,
        "unrecognized": sorted(k for k in request.query_params if k not in params.SEARCH_PARAMS),
    }
    return result
