"""Collections (shelves) of companies: read them; with a key, shape them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response

from webcorpus.api.crawl import read_json_body
from webcorpus.api.deps import get_settings, get_store, require_read, require_write
from webcorpus.api.envelope import envelope, unrecognized
from webcorpus.services import collections, domains
from webcorpus.services.params import check_slug

router = APIRouter(tags=["collections"], dependencies=[Depends(require_read)])


@router.get("/api/collections", summary="Every shelf with its company and crawled counts")
def list_collections(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
    offset: Annotated[int, Query(ge=0, le=10000)] = 0,
) -> dict[str, Any]:
    data, total = collections.list_collections(get_store(request), limit, offset)
    return envelope(
        data,
        total=total,
        limit=limit,
        offset=offset,
        sort="slug",
        applied={},
        unknown=unrecognized(request, ("limit", "offset")),
    )


@router.get("/api/collections/{slug}", summary="One shelf and its members")
def get_collection(request: Request, slug: str) -> dict[str, Any]:
    return collections.get_collection(get_store(request), slug)


@router.put(
    "/api/collections/{slug}",
    summary="Create or update a shelf (key required)",
    responses={201: {"description": "the shelf was created"}},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string"},
                            "description": {"type": "string"},
                        },
                    }
                }
            },
        }
    },
)
async def put_collection(request: Request, slug: str) -> JSONResponse:
    require_write(request)
    slug = check_slug(slug)
    body = collections.parse_shelf_body(await read_json_body(request))
    shelf, created = collections.put_collection(
        get_store(request), slug, body["name"], body["description"]
    )
    return JSONResponse(
        shelf,
        status_code=201 if created else 200,
        headers={"Location": f"/api/collections/{slug}"},
    )


@router.post(
    "/api/collections/{slug}/members",
    summary="Place a company on a shelf (key required)",
    responses={201: {"description": "the company was placed on the shelf"}},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["domain"],
                        "properties": {
                            "domain": {"type": "string"},
                            "reason": {"type": "string"},
                            "placed_by": {"type": "string", "enum": ["person", "agent"]},
                        },
                    }
                }
            },
        }
    },
)
async def add_member(request: Request, slug: str) -> JSONResponse:
    require_write(request)
    slug = check_slug(slug)
    body = collections.parse_member_body(await read_json_body(request), get_settings(request))
    member, created = collections.add_member(
        get_store(request), slug, body["domain"], body["reason"], body["placed_by"]
    )
    return JSONResponse(member, status_code=201 if created else 200)


@router.delete(
    "/api/collections/{slug}/members/{domain}",
    status_code=204,
    summary="Take a company off a shelf (key required)",
)
def remove_member(request: Request, slug: str, domain: str) -> Response:
    require_write(request)
    slug = check_slug(slug)
    normalized = domains.parse_domain(get_settings(request), domain)
    collections.remove_member(get_store(request), slug, normalized)
    return Response(status_code=204)
