"""Domains: the domain record and the markdown bundle of a company's pages."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse

from webcorpus.api.content import split_list
from webcorpus.api.deps import get_settings, get_store, require_read
from webcorpus.facets.vocabulary import TYPES
from webcorpus.services import bundle, domains
from webcorpus.services.errors import invalid_param

router = APIRouter(tags=["domains"], dependencies=[Depends(require_read)])


@router.get(
    "/api/domains/{root_domain}/content.md",
    summary="A company's pages as one markdown file (headings demoted so the bundle is a tree)",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/markdown": {}}}},
)
def domain_markdown(
    request: Request,
    root_domain: str,
    limit: Annotated[int, Query(ge=1, description="at most WEBCORPUS_BUNDLE_LIMIT (500)")] = 100,
    type: str | None = None,
    technicality_min: Annotated[float | None, Query(ge=0, le=1)] = None,
) -> StreamingResponse:
    settings = get_settings(request)
    if limit > settings.bundle_limit:
        raise invalid_param("limit", f"must be from 1 to {settings.bundle_limit}")
    domain = domains.parse_domain(settings, root_domain)
    parts = bundle.domain_markdown(
        get_store(request),
        domain,
        limit=limit,
        types=split_list("type", type, TYPES),
        technicality_min=technicality_min,
    )
    return StreamingResponse(parts, media_type="text/markdown; charset=utf-8")


@router.get("/api/domains/{root_domain}", summary="The domain record of a company")
def get_domain(request: Request, root_domain: str) -> dict[str, Any]:
    return domains.get_domain(get_store(request), get_settings(request), root_domain)
