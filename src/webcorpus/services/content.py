"""Read pages: the faceted list, one page as JSON, one page as markdown with frontmatter."""

from __future__ import annotations

import json
from typing import Any

import yaml

from webcorpus.services.errors import not_found
from webcorpus.store import Store
from webcorpus.store.models import ContentQuery

FACET_KEYS = (
    "type",
    "format",
    "audience",
    "locale",
    "topics",
    "technicality",
    "depth",
    "originality",
    "promotional",
    "has_code",
    "words",
    "published",
)


def normalize_page_id(value: str) -> str:
    value = value.strip().lower()
    return value if value.startswith("pg_") else f"pg_{value}"


def screenshot_path(page_id: str) -> str:
    return f"/api/content/{page_id}/screenshot.png"


def screenshot_png(store: Store, page_id: str) -> bytes:
    """The PNG of the page's latest screenshot (404 when it has none)."""
    pid = normalize_page_id(page_id)
    png = store.screenshot_png(pid)
    if png is None:
        if store.page_state(pid) is None:  # not the whole page: its existence is all we need
            raise not_found(f"page {pid}")
        raise not_found(f"a screenshot of page {pid} (crawl with shots to take one)")
    return png


def facets_of(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": row["type"],
        "format": row["format"],
        "audience": row["audience"],
        "locale": row["locale"],
        "topics": json.loads(row["topics"]) if isinstance(row["topics"], str) else row["topics"],
        "technicality": round(row["technicality"], 3),
        "depth": round(row["depth"], 3),
        "originality": round(row["originality"], 3),
        "promotional": round(row["promotional"], 3),
        "has_code": bool(row["has_code"]),
        "words": row["words"],
        "published": row["published"],
    }


def list_content(store: Store, query: ContentQuery) -> tuple[list[dict[str, Any]], int]:
    rows, total = store.list_pages(query)
    data = [
        {
            "id": r["id"],
            "url": r["url"],
            "title": r["title"],
            "domain": r["domain"],
            "description": r["description"],
            "facets": facets_of(r),
            "metrics": {"inlinks_body": r["inlinks_body"]},
            "indexed_at": r["indexed_at"],
        }
        for r in rows
    ]
    return data, total


def get_page(
    store: Store, page_id: str, *, markdown: bool = True, explain: bool = False
) -> dict[str, Any]:
    pid = normalize_page_id(page_id)
    row = store.get_page(pid)
    if row is None:
        raise not_found(f"page {pid}")
    page: dict[str, Any] = {
        "id": row["id"],
        "url": row["url"],
        "canonical_url": row["canonical_url"],
        "title": row["title"],
        "description": row["description"],
        "domain": row["domain"],
        "collections": store.page_collections(row["domain"]),
        "facets": facets_of(row),
        "metrics": {"inlinks_body": row["inlinks_body"]},
    }
    if markdown:
        page["markdown"] = row["markdown"]
    page["hreflang"] = [{"hreflang": h, "url": u} for h, u in json.loads(row["hreflang"] or "[]")]
    page["assets"] = store.page_assets(pid)
    page["screenshots"] = [
        {"url": screenshot_path(pid), **shot} for shot in store.page_screenshots(pid)
    ]
    page["history"] = [{**h, "changed": bool(h["changed"])} for h in store.page_history(pid)]
    page["cited_by"] = store.cited_by(pid)
    page["fetched_at"] = row["fetched_at"]
    page["indexed_at"] = row["indexed_at"]
    if explain:
        page["explain"] = json.loads(row["explain"] or "{}")
    return page


def page_markdown(store: Store, page_id: str) -> str:
    pid = normalize_page_id(page_id)
    row = store.get_page(pid)
    if row is None:
        raise not_found(f"page {pid}")
    front = {
        "id": row["id"],
        "url": row["url"],
        "canonical_url": row["canonical_url"],
        "title": row["title"],
        "domain": row["domain"],
        "locale": row["locale"],
        "type": row["type"],
        "published": row["published"],
        "fetched_at": row["fetched_at"],
        "words": row["words"],
    }
    header = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=10_000)
    return f"---\n{header}---\n\n{row['markdown'].rstrip()}\n"
