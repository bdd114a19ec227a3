"""POST /api/crawl: start a crawl; returns a job id at once."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from webcorpus.api.deps import get_settings, get_store, require_write
from webcorpus.services import crawls
from webcorpus.services.errors import ServiceError

router = APIRouter(tags=["crawl"])


class CrawlRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    domain: str = Field(description="root domain, e.g. example.com", examples=["example.com"])
    budget: int = Field(
        500,
        ge=1,
        description="most pages fetched by this job; default WEBCORPUS_DEFAULT_BUDGET (500), "
        "at most WEBCORPUS_MAX_BUDGET (10000)",
    )
    refresh: bool = Field(False, description="re-fetch indexed pages with conditional requests")
    force: bool = Field(False, description="fetch unconditionally and re-index unchanged pages")
    shots: int | bool = Field(0, description="screenshot up to this many pages (true = 10)")


class CrawlAccepted(BaseModel):
    job_id: str
    state: str
    domain: str


async def read_json_body(request: Request) -> Any:
    ctype = request.headers.get("content-type", "")
    if ctype.split(";")[0].strip().lower() != "application/json":
        raise ServiceError("unsupported_media_type", "send the body as application/json")
    limit = get_settings(request).max_body_request_bytes
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise ServiceError("payload_too_large", f"the body is limited to {limit} bytes")
    raw = b""
    async for part in request.stream():
        raw += part
        if len(raw) > limit:
            raise ServiceError("payload_too_large", f"the body is limited to {limit} bytes")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ServiceError("invalid_body", f"the body is not valid JSON: {exc}") from exc
    except RecursionError as exc:  # e.g. 10 KB of "[[[[": valid JSON, deeper than the parser goes
        raise ServiceError("invalid_body", "the body's JSON is nested too deeply") from exc


@router.post(
    "/api/crawl",
    status_code=202,
    response_model=CrawlAccepted,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": CrawlRequest.model_json_schema()}},
        }
    },
    summary="Start a crawl of a root domain",
)
async def start_crawl(request: Request) -> JSONResponse:
    key = require_write(request)
    body = await read_json_body(request)
    settings = get_settings(request)
    params = crawls.parse_crawl_body(body, settings)
    job = crawls.start_crawl(
        get_store(request), params, key["id"], limiter=request.app.state.rate_limiter
    )
    wake = getattr(request.app.state, "wake_worker", None)
    if wake:
        wake()
    return JSONResponse(
        {"job_id": job.id, "state": job.state, "domain": job.domain},
        status_code=202,
        headers={"Location": f"/api/jobs/{job.id}"},
    )
