"""Pages: the faceted list, one page as JSON, one page as markdown."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response

from webcorpus.api.deps import get_settings, get_store, require_read
from webcorpus.api.envelope import MarkdownResponse, envelope, unrecognized
from webcorpus.services import content, params
from webcorpus.services.params import (  # re-exported: other adapters import them from here
    CONTENT_PARAMS,
    INT64_MAX,
    parse_domains,
    parse_locales,
    parse_published_after,
    split_list,
)

router = APIRouter(tags=["content"], dependencies=[Depends(require_read)])

Sort = Literal[
    "relevance",
    "cited",
    "published",
    "words",
    "technicality",
    "depth",
    "originality",
    "promotional",
    "indexed",
]
Score = Annotated[float | None, Query(ge=0, le=1)]

__all__ = ["parse_domains", "parse_locales", "parse_published_after", "router", "split_list"]


@router.get("/api/content", summary="Faceted list of pages")
def list_content(
    request: Request,
    q: Annotated[str | None, Query(description="at most WEBCORPUS_MAX_Q_CHARS (1000)")] = None,
    domain: str | None = None,
    collection: str | None = None,
    type: str | None = None,
    format: str | None = None,
    audience: str | None = None,
    locale: str | None = None,
    topics: str | None = None,
    technicality_min: Score = None,
    depth_min: Score = None,
    originality_min: Score = None,
    promotional_max: Score = None,
    has_code: bool | None = None,
    words_min: Annotated[int | None, Query(ge=0, le=INT64_MAX)] = None,
    published_after: Annotated[
        str | None,
        Query(
            description="published strictly after this date (YYYY-MM-DD); or after an RFC 3339 "
            "time, which keeps pages dated its day (UTC) too, as pages carry only a date"
        ),
    ] = None,
    sort: Sort | None = None,
    limit: Annotated[int, Query(ge=1, description="at most WEBCORPUS_CONTENT_LIMIT (100)")] = 20,
    offset: Annotated[int, Query(ge=0, le=10000)] = 0,
) -> dict[str, Any]:
    req = params.content_query(
        get_settings(request),
        q=q,
        domain=domain,
        collection=collection,
        type=type,
        format=format,
        audience=audience,
        locale=locale,
        topics=topics,
        technicality_min=technicality_min,
        depth_min=depth_min,
        originality_min=originality_min,
        promotional_max=promotional_max,
        has_code=has_code,
        words_min=words_min,
        published_after=published_after,
        sort=sort,
        limit=limit,
        offset=offset,
    )
    data, total = content.list_content(get_store(request), req.query)
    return envelope(
        data,
        total=total,
        limit=limit,
        offset=offset,
        sort=req.query.sort,
        applied=req.applied,
        unknown=unrecognized(request, CONTENT_PARAMS),
    )


@router.get(
    "/api/content/{page_id}.md",
    response_class=MarkdownResponse,
    summary="One page as markdown with a YAML frontmatter block",
)
def page_markdown(request: Request, page_id: str) -> MarkdownResponse:
    body = content.page_markdown(get_store(request), page_id)
    return MarkdownResponse(body, media_type="text/markdown; charset=utf-8")


@router.get(
    "/api/content/{page_id}/screenshot.png",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}}},
    summary="The page's latest screenshot (1280x800 PNG)",
)
def page_screenshot(request: Request, page_id: str) -> Response:
    png = content.screenshot_png(get_store(request), page_id)
    return Response(png, media_type="image/png", headers={"Cache-Control": "no-cache"})


@router.get("/api/content/{page_id}", summary="One page as JSON")
def get_page(
    request: Request, page_id: str, markdown: bool = True, explain: bool = False
) -> dict[str, Any]:
    return content.get_page(get_store(request), page_id, markdown=markdown, explain=explain)
