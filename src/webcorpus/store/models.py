"""Backend-neutral records that cross the store interface."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ACTIVE_STATES = ("queued", "running")
FINAL_STATES = ("completed", "partial", "failed", "cancelled")

BUCKETS = (
    "indexed",
    "unchanged",
    "redirected",
    "duplicate",
    "robots",
    "noindex",
    "notHtml",
    "clientError",
    "serverError",
    "fetchError",
    "filtered",
    "pending",
    "budget",
    "stoppedEarly",
)


def unaccounted(counts: Mapping[str, int]) -> int:
    """Ledger rows in no known bucket, from a job's per-bucket counts (must always be zero)."""
    return sum(n for name, n in counts.items() if name not in BUCKETS)


@dataclass(slots=True)
class JobRecord:
    id: str
    domain: str
    state: str
    params: dict[str, Any]
    created_at: str
    started_at: str | None = None
    finished_at: str | None = None
    error: str | None = None
    cancel_requested: bool = False
    fetched: int = 0
    resumes: int = 0
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class UrlEntry:
    """A URL entering a job's ledger."""

    url: str
    bucket: str = "pending"
    reason: str | None = None
    depth: int = 0
    source: str = "link"
    priority: float = 0.0
    lastmod: str | None = None


@dataclass(slots=True)
class LinkRow:
    target_url: str
    target_page_id: str
    target_host: str
    anchor: str
    position: str
    internal: bool


@dataclass(slots=True)
class ChunkRow:
    idx: int
    heading: str
    text: str
    tokens: int


@dataclass(slots=True)
class PageWrite:
    id: str
    url: str
    canonical_url: str | None
    domain: str
    host: str
    title: str | None
    description: str | None
    markdown: str
    content_hash: str
    text_hash: str
    etag: str | None
    last_modified: str | None
    http_status: int
    fetched_at: str
    job_id: str
    declared_language: str | None
    hreflang: list[tuple[str, str]]
    simhash: int | None
    facets: dict[str, Any]
    assets: list[tuple[str, str, str]]
    links: list[LinkRow]
    chunks: list[ChunkRow]


@dataclass(slots=True)
class PageState:
    """What a recrawl needs to know about a stored page."""

    id: str
    url: str
    content_hash: str
    text_hash: str
    etag: str | None
    last_modified: str | None


@dataclass(slots=True)
class ContentQuery:
    """Filters and paging for the page list; every field maps to a stored column."""

    q: str | None = None
    fts: str | None = None
    domains: list[str] = field(default_factory=list)
    collection: str | None = None
    types: list[str] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    audiences: list[str] = field(default_factory=list)
    locales: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    technicality_min: float | None = None
    depth_min: float | None = None
    originality_min: float | None = None
    promotional_max: float | None = None
    has_code: bool | None = None
    words_min: int | None = None
    published_after: str | None = None
    sort: str = "cited"
    limit: int = 20
    offset: int = 0


@dataclass(slots=True)
class SearchFilters:
    domains: list[str] = field(default_factory=list)
    collection: str | None = None
    locales: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    technicality_min: float | None = None

    def active(self) -> bool:
        return bool(
            self.domains
            or self.collection
            or self.locales
            or self.types
            or self.topics
            or self.technicality_min is not None
        )
