"""GET /api/search: hybrid search over page chunks."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request

from webcorpus.api.content import parse_domains, parse_locales, split_list
from webcorpus.api.deps import require_read
from webcorpus.facets.vocabulary import TOPICS, TYPES
from webcorpus.store.models import SearchFilters

router = APIRouter(tags=["search"], dependencies=[Depends(require_read)])

SEARCH_PARAMS = (
    "q",
    "mode",
    "domain",
    "collection",
    "locale",
    "type",
    "topics",
    "technicality_min",
    "limit",
)


@router.get("/api/search", summary="Hybrid search over page chunks")
def search(
    request: Request,
    q: Annotated[str | None, Query(max_length=1000, description="the query text")] = None,
    mode: Literal["hybrid", "vector", "text"] = "hybrid",
    domain: str | None = None,
    collection: str | None = None,
    locale: str | None = None,
    type: str | None = None,
    topics: str | None = None,
    technicality_min: Annotated[float | None, Query(ge=0, le=1)] = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> dict[str, Any]:
    filters = SearchFilters(
        domains=parse_domains(domain),
        collection=collection.strip().lower() if collection else None,
        locales=parse_locales(locale),
        types=split_list("type", type, TYPES),
        topics=split_list("topics", topics, TOPICS),
        technicality_min=technicality_min,
    )
    result: dict[str, Any] = request.app.state.search_engine.search(q, mode, filters, limit)
    applied = {
        "domain": filters.domains or None,
        "collection": filters.collection,
        "locale": filters.locales or None,
        "type": filters.types or None,
        "topics": filters.topics or None,
        "technicality_min": technicality_min,
    }
    unknown = sorted({k for k in request.query_params if k not in SEARCH_PARAMS})
    result["filters"] = {
        "applied": {k: v for k, v in applied.items() if v is not None},
        "unrecognized": unknown,
    }
    return result
