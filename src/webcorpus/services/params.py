"""Parameter parsing shared by the HTTP and MCP adapters: one rule for each filter.

The adapters hand over raw values (comma lists as strings, numbers as numbers); these functions
normalize them, check bounds and vocabularies, and raise ``invalid_param`` with a message that
names the parameter and the allowed values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from webcorpus.config import Settings
from webcorpus.crawl.domains import validate_root_domain
from webcorpus.facets.locale import normalize_tag
from webcorpus.facets.vocabulary import AUDIENCES, FORMATS, TOPICS, TYPES
from webcorpus.index.ftsquery import fts5_query
from webcorpus.services.errors import invalid_param
from webcorpus.store.models import ContentQuery, SearchFilters

CONTENT_SORTS = (
    "relevance",
    "cited",
    "published",
    "words",
    "technicality",
    "depth",
    "originality",
    "promotional",
    "indexed",
)
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
SEARCH_MODES = ("hybrid", "vector", "text")
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
MAX_OFFSET = 10000
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
INT64_MAX = 2**63 - 1
"""The largest integer a database column holds: the bound of integer parameters with no other."""


def join_list(value: str | list[str] | tuple[str, ...] | None) -> str | None:
    """A list argument (MCP) as the comma list the HTTP parameter takes."""
    if value is None or isinstance(value, str):
        return value
    return ",".join(value)


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


def parse_domains(value: str | None, *, allow_private_suffixes: bool = False) -> list[str]:
    """Root domains of a comma list; names under special-use suffixes (``.test``, ``.internal``)
    only when the service crawls such names too (``WEBCORPUS_ALLOW_PRIVATE_SUFFIXES``)."""
    out = []
    for item in split_list("domain", value):
        try:
            out.append(validate_root_domain(item, allow_private_suffixes=allow_private_suffixes))
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
    # As pages' locales are written (en-US, zh-Hant-TW, he for the deprecated iw), so that
    # filters.applied echoes the tag a page would show; matching ignores case either way.
    return list(dict.fromkeys(normalize_tag(item) or item for item in items))


@dataclass(frozen=True, slots=True)
class PublishedAfter:
    applied: str
    """The value as the filter shows it: the date, or the time in UTC (RFC 3339)."""
    after: str
    """The filter on pages' published dates: strictly after this date (YYYY-MM-DD)."""


def parse_published_after(value: str | None) -> PublishedAfter | None:
    """A date keeps pages published after that day. Pages carry a date without a time, so a time
    keeps pages published on its day (in UTC) too: they may well be after it."""
    if value is None:
        return None
    try:
        if len(value) == 10:
            day = date.fromisoformat(value)
            return PublishedAfter(day.isoformat(), day.isoformat())
        when = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError as exc:
        raise invalid_param(
            "published_after", "must be a date (YYYY-MM-DD) or an RFC 3339 time"
        ) from exc
    if when.tzinfo is None:
        raise invalid_param("published_after", "a time needs its offset, e.g. 2026-03-02T09:00:00Z")
    try:
        utc = when.astimezone(UTC)
        day_before = utc.date() - timedelta(days=1)
    except OverflowError as exc:  # 0001-01-01T00:00:00Z has no day before; +01:00 no UTC time
        raise invalid_param(
            "published_after", "must be a time from 0001-01-02 to 9999-12-31 in UTC"
        ) from exc
    return PublishedAfter(utc.strftime("%Y-%m-%dT%H:%M:%SZ"), day_before.isoformat())


def check_slug(slug: str, param: str = "slug") -> str:
    """The slug, lowercased as the ``collection`` filter takes it (``Widgets`` is ``widgets``)."""
    if isinstance(slug, str):
        slug = slug.strip().lower()
    if not isinstance(slug, str) or not SLUG.match(slug):
        raise invalid_param(
            param, "must be 1-63 letters, digits or hyphens, not starting with a hyphen"
        )
    return slug


def parse_collection(value: str | None) -> str | None:
    """The ``collection`` filter: a shelf's slug (an empty or malformed one is a 400, as it is for
    ``/api/collections/<slug>``, rather than a filter dropped or matching nothing)."""
    return None if value is None else check_slug(value, "collection")


def check_score(param: str, value: float | None) -> float | None:
    if value is not None and not 0 <= value <= 1:
        raise invalid_param(param, "must be a number from 0 to 1")
    return value


def check_int(param: str, value: int | None, low: int, high: int | None = None) -> int | None:
    """``value`` within ``low``..``high``; without ``high``, within what a database integer holds
    (a larger number would fail in the query, not here)."""
    if value is None:
        return None
    top = INT64_MAX if high is None else high
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
        above = isinstance(value, int) and value > top
        bound = f"from {low} to {top}" if high is not None or above else f"of at least {low}"
        raise invalid_param(param, f"must be an integer {bound}")
    return value


def check_q(q: str | None, settings: Settings) -> str | None:
    if q is None:
        return None
    if not q.strip():
        raise invalid_param("q", "must not be empty")
    if len(q) > settings.max_q_chars:
        raise invalid_param("q", f"is limited to {settings.max_q_chars} characters")
    return q


@dataclass(slots=True)
class ContentRequest:
    query: ContentQuery
    applied: dict[str, Any]


def content_query(
    settings: Settings,
    *,
    q: str | None = None,
    domain: str | None = None,
    collection: str | None = None,
    type: str | None = None,
    format: str | None = None,
    audience: str | None = None,
    locale: str | None = None,
    topics: str | None = None,
    technicality_min: float | None = None,
    depth_min: float | None = None,
    originality_min: float | None = None,
    promotional_max: float | None = None,
    has_code: bool | None = None,
    words_min: int | None = None,
    published_after: str | None = None,
    sort: str | None = None,
    limit: int = 20,
    offset: int = 0,
) -> ContentRequest:
    """The page-list query for GET /api/content and the MCP ``list_content`` tool."""
    check_int("limit", limit, 1, settings.content_limit)
    check_int("offset", offset, 0, MAX_OFFSET)
    check_int("words_min", words_min, 0)
    for name, value in (
        ("technicality_min", technicality_min),
        ("depth_min", depth_min),
        ("originality_min", originality_min),
        ("promotional_max", promotional_max),
    ):
        check_score(name, value)
    q = check_q(q, settings)
    fts = fts5_query(q) if q else None
    if q and fts is None:
        raise invalid_param("q", "has no searchable words")
    if sort is not None and sort not in CONTENT_SORTS:
        raise invalid_param("sort", f"must be one of {', '.join(CONTENT_SORTS)}")
    effective_sort = sort or ("relevance" if q else "cited")
    if effective_sort == "relevance" and not q:
        raise invalid_param("sort", "relevance needs q")
    published = parse_published_after(published_after)
    query = ContentQuery(
        q=q,
        fts=fts,
        domains=parse_domains(domain, allow_private_suffixes=settings.allow_private_suffixes),
        collection=parse_collection(collection),
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
        published_after=published.after if published else None,
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
        "published_after": published.applied if published else None,
    }
    return ContentRequest(query, {k: v for k, v in applied.items() if v is not None})


@dataclass(slots=True)
class SearchRequest:
    filters: SearchFilters
    applied: dict[str, Any]


def search_filters(
    settings: Settings,
    *,
    domain: str | None = None,
    collection: str | None = None,
    locale: str | None = None,
    type: str | None = None,
    topics: str | None = None,
    technicality_min: float | None = None,
) -> SearchRequest:
    """The filters of GET /api/search and the MCP ``search`` tool (q, mode, limit: the engine)."""
    check_score("technicality_min", technicality_min)
    filters = SearchFilters(
        domains=parse_domains(domain, allow_private_suffixes=settings.allow_private_suffixes),
        collection=parse_collection(collection),
        locales=parse_locales(locale),
        types=split_list("type", type, TYPES),
        topics=split_list("topics", topics, TOPICS),
        technicality_min=technicality_min,
    )
    applied = {
        "domain": filters.domains or None,
        "collection": filters.collection,
        "locale": filters.locales or None,
        "type": filters.types or None,
        "topics": filters.topics or None,
        "technicality_min": technicality_min,
    }
    return SearchRequest(filters, {k: v for k, v in applied.items() if v is not None})
