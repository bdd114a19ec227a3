"""GET /api/facets: every facet vocabulary with the number of pages per value."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from webcorpus.api.content import parse_domains
from webcorpus.api.deps import get_settings, get_store, require_read
from webcorpus.api.envelope import envelope, unrecognized
from webcorpus.services import facets
from webcorpus.services.params import parse_collection

router = APIRouter(tags=["facets"], dependencies=[Depends(require_read)])

FACETS_PARAMS = ("domain", "collection")


@router.get("/api/facets", summary="Facet vocabularies with page counts per value")
def list_facets(
    request: Request, domain: str | None = None, collection: str | None = None
) -> dict[str, Any]:
    domains = parse_domains(
        domain, allow_private_suffixes=get_settings(request).allow_private_suffixes
    )
    slug = parse_collection(collection)
    data, pages = facets.list_facets(get_store(request), domains=domains, collection=slug)
    applied: dict[str, Any] = {}
    if domains:
        applied["domain"] = domains
    if slug:
        applied["collection"] = slug
    return envelope(
        data,
        total=len(data),
        limit=len(data),
        offset=0,
        sort="facet",
        applied=applied,
        unknown=unrecognized(request, FACETS_PARAMS),
        pages=pages,
    )
