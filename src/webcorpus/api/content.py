"""Pages: the faceted list, one page as JSON, one page as markdown."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import PlainTextResponse

from webcorpus.api.deps import get_settings, get_store, require_read
from webcorpus.api.envelope import envelope, unrecognized
from webcorpus.crawl.domains import validate_root_domain
from webcorpus.facets.vocabulary import AUDIENCES, FORMATS, TOPICS, TYPES
from webcorpus.index.ftsquery import fts5_query
from webcorpus.services import content
from webcorpus.services.errors import invalid_param
from webcorpus.store.models import ContentQuery

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

CONTENT_PARAMS = (
    "q",
    "domain",
    "collection",
    "type",
    "format",
    "audience",
    "locale",
    "topics",
    "technicality_min",
    "depth_min",
    "originality_min",
    "promotional_max",
    "has_code",
    "words_min",
    "published_after",
    "sort",
    "limit",
    "offset",
)


def split_list(
    param: str, value: str | None, vocabulary: dict[str, str] | None = None
) -> list[str]:
    if value is None:
        return []
    items = [v.strip().lower() for v in value.split(",") if v.strip()]
    if not items:
        raise invalid_param(param, "must not be empty")
    if vocabulary is not None:
        bad = [v for v in items if v not in vocabulary]
        if bad:
            raise invalid_param(
                param, f"unknown value(s) {', '.join(bad)}; allowed: {', '.join(vocabulary)}"
            )
    return items


def parse_domains(value: str | None) -> list[str]:
    out = []
    for item in split_list("domain", value):
        try:
            out.append(validate_root_domain(item))
        except ValueError as exc:
            raise invalid_param("domain", str(exc)) from exc
    return out


def parse_locales(value: str | None) -> list[str]:
    items = split_list("locale", value)
    for item in items:
        parts = item.split("-")
        if not (2 <= len(parts[0]) <= 3 and parts[0].isalpha()) or not all(
            p.isalnum() and 1 <= len(p) <= 8 for p in parts
        ):
            raise invalid_param("locale", f"{item!r} is not a BCP 47 tag such as de or en-US")
    return items


def parse_published_after(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        if len(value) == 10:
            return date.fromisoformat(value).isoformat()
        return datetime.fromisoformat(value.replace("Z", "+00:00")).date().isoformat()
    except ValueError as exc:
        raise invalid_param(
            "published_after", "must be a date (YYYY-MM-DD) or an RFC 3339 time"
        ) from exc


@router.get("/api/content", summary="Faceted list of pages")
def list_content(
    request: Request,
    q: Annotated[str | None, Query(max_length=1000)] = None,
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
    words_min: Annotated[int | None, Query(ge=0)] = None,
    published_after: str | None = None,
    sort: Sort | None = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=10000)] = 0,
) -> dict[str, Any]:
    settings = get_settings(request)
    if limit > settings.content_limit:
        raise invalid_param("limit", f"must be from 1 to {settings.content_limit}")
    if q is not None and not q.strip():
        raise invalid_param("q", "must not be empty")
    fts = fts5_query(q) if q else None
    if q and fts is None:
        raise invalid_param("q", "has no searchable words")
    effective_sort = sort or ("relevance" if q else "cited")
    if effective_sort == "relevance" and not q:
        raise invalid_param("sort", "relevance needs q")
    query = ContentQuery(
        q=q,
        fts=fts,
        domains=parse_domains(domain),
        collection=collection.strip().lower() if collection else None,
        types=split_list("type", type, TYPES),
        formats=split_list("format", format, FORMATS),
        audiences=split_list("audience", audience, AUDIENCES),
        locales=parse_locales(locale),
        topics=split_list("topics", topics, TOPICS),
        technicality_min=technicality_min,
        depth_min=depth_min,
        originality_min=originality_min,
        promotional_max=promotional_max,
        has_code=has_code,
        words_min=words_min,
        published_after=parse_published_after(published_after),
        sort=effective_sort,
        limit=limit,
        offset=offset,
    )
    applied = {
        "q": q,
        "domain": query.domains or None,
        "collection": query.collection,
        "type": query.types or None,
        "format": query.formats or None,
        "audience": query.audiences or None,
        "locale": query.locales or None,
        "topics": query.topics or None,
        "technicality_min": technicality_min,
        "depth_min": depth_min,
        "originality_min": originality_min,
        "promotional_max": promotional_max,
        "has_code": has_code,
        "words_min": words_min,
        "published_after": query.published_after,
    }
    data, total = content.list_content(get_store(request), query)
    return envelope(
        data,
        total=total,
        limit=limit,
        offset=offset,
        sort=effective_sort,
        applied={k: v for k, v in applied.items() if v is not None},
        unknown=unrecognized(request, CONTENT_PARAMS),
    )


@router.get(
    "/api/content/{page_id}.md",
    response_class=PlainTextResponse,
    summary="One page as markdown with a YAML frontmatter block",
    responses={200: {"content": {"text/markdown": {}}}},
)
def page_markdown(request: Request, page_id: str) -> PlainTextResponse:
    body = content.page_markdown(get_store(request), page_id)
    return PlainTextResponse(body, media_type="text/markdown; charset=utf-8")


@router.get("/api/content/{page_id}", summary="One page as JSON")
def get_page(
    request: Request, page_id: str, markdown: bool = True, explain: bool = False
) -> dict[str, Any]:
    return content.get_page(get_store(request), page_id, markdown=markdown, explain=explain)
