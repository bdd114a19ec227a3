"""Shelves (collections) of companies: list, read, create/update, place and remove members."""

from __future__ import annotations

from typing import Any

from webcorpus.config import Settings
from webcorpus.crawl.domains import validate_root_domain
from webcorpus.services.clock import now_iso
from webcorpus.services.errors import ServiceError, invalid_body, invalid_param, not_found
from webcorpus.services.params import check_slug
from webcorpus.store import Store

PLACED_BY = ("person", "agent")
SHELF_FIELDS = {"name", "description"}
MEMBER_FIELDS = {"domain", "reason", "placed_by"}
NAME_MAX = 200
DESCRIPTION_MAX = 2000
REASON_MAX = 2000


def _shelf(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "slug": row["slug"],
        "name": row["name"],
        "description": row["description"],
        "companies": int(row["companies"]),
        "crawled": int(row["crawled"]),
        "created_at": row["created_at"],
    }


def list_collections(
    store: Store, limit: int = 100, offset: int = 0
) -> tuple[list[dict[str, Any]], int]:
    rows, total = store.list_collections(limit, offset)
    return [_shelf(r) for r in rows], total


def get_collection(store: Store, slug: str) -> dict[str, Any]:
    slug = check_slug(slug)
    row = store.get_collection(slug)
    if row is None:
        raise not_found(f"collection {slug}")
    shelf = _shelf(row)
    shelf["members"] = [
        {
            "domain": m["domain"],
            "reason": m["reason"],
            "placed_by": m["placed_by"],
            "placed_at": m["placed_at"],
            "crawled": bool(m["crawled"]),
            "pages": int(m["pages"]),
        }
        for m in store.collection_members(slug)
    ]
    return shelf


def _unknown(body: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ServiceError(
            "invalid_body",
            f"unknown field(s): {', '.join(unknown)}",
            [{"field": f, "message": "unknown field"} for f in unknown],
        )


def _text(body: dict[str, Any], name: str, limit: int, *, required: bool = False) -> str:
    value = body.get(name)
    if value is None:
        if required:
            raise invalid_body(name, "is required")
        return ""
    if not isinstance(value, str):
        raise invalid_body(name, "must be a string")
    value = value.strip()
    if required and not value:
        raise invalid_body(name, "must not be empty")
    if len(value) > limit:
        raise invalid_body(name, f"must be at most {limit} characters")
    return value


def parse_shelf_body(body: Any) -> dict[str, str]:
    if not isinstance(body, dict):
        raise invalid_body("body", "must be a JSON object")
    _unknown(body, SHELF_FIELDS)
    return {
        "name": _text(body, "name", NAME_MAX, required=True),
        "description": _text(body, "description", DESCRIPTION_MAX),
    }


def parse_member_body(body: Any, settings: Settings) -> dict[str, str]:
    if not isinstance(body, dict):
        raise invalid_body("body", "must be a JSON object")
    _unknown(body, MEMBER_FIELDS)
    if not isinstance(body.get("domain"), str):
        raise invalid_body("domain", "is required: a root domain such as example.com")
    placed_by = body.get("placed_by", "person")
    if placed_by not in PLACED_BY:
        raise invalid_body("placed_by", "must be person or agent")
    try:
        domain = validate_root_domain(
            body["domain"], allow_private_suffixes=settings.allow_private_suffixes
        )
    except ValueError as exc:
        raise invalid_body("domain", str(exc)) from exc
    return {"domain": domain, "reason": _text(body, "reason", REASON_MAX), "placed_by": placed_by}


def put_collection(
    store: Store, slug: str, name: str, description: str = ""
) -> tuple[dict[str, Any], bool]:
    """Create or update a shelf; returns (the shelf with its members, created)."""
    slug = check_slug(slug)
    created = store.put_collection(slug, name, description, now_iso())
    return get_collection(store, slug), created


def add_member(
    store: Store, slug: str, domain: str, reason: str = "", placed_by: str = "person"
) -> tuple[dict[str, Any], bool]:
    """Place a (validated) root domain on a shelf; returns (the member, newly placed)."""
    slug = check_slug(slug)
    if placed_by not in PLACED_BY:
        raise invalid_param("placed_by", "must be person or agent")
    created = store.put_member(slug, domain, reason, placed_by, now_iso())
    if created is None:
        raise not_found(f"collection {slug}")
    member = next(m for m in get_collection(store, slug)["members"] if m["domain"] == domain)
    return member, created


def remove_member(store: Store, slug: str, domain: str) -> None:
    slug = check_slug(slug)
    if store.get_collection(slug) is None:
        raise not_found(f"collection {slug}")
    if not store.delete_member(slug, domain):
        raise not_found(f"{domain} on collection {slug}")
