"""Jobs: live status, the URLs of a bucket, cancel."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request

from webcorpus.api.deps import get_settings, get_store, require_read, require_write
from webcorpus.api.envelope import envelope, unrecognized
from webcorpus.services import crawls, jobs
from webcorpus.services.errors import invalid_param
from webcorpus.services.params import INT64_MAX, parse_domains
from webcorpus.store.models import BUCKETS

router = APIRouter(tags=["jobs"], dependencies=[Depends(require_read)])

Bucket = Literal[(*BUCKETS, "unaccounted")]  # type: ignore[valid-type]
JobState = Literal["queued", "running", "completed", "partial", "failed", "cancelled"]


def _job_id(value: str) -> str:
    value = value.strip()
    return value if value.startswith("job_") else f"job_{value}"


@router.get("/api/jobs", summary="List crawl jobs, newest first (sort: created)")
def list_jobs(
    request: Request,
    domain: str | None = None,
    state: JobState | None = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=10000)] = 0,
) -> dict[str, Any]:
    store = get_store(request)
    settings = get_settings(request)
    domains = parse_domains(domain, allow_private_suffixes=settings.allow_private_suffixes)
    if len(domains) > 1:
        raise invalid_param("domain", "takes one root domain")
    root = domains[0] if domains else None
    records, total = store.list_jobs(domain=root, state=state, limit=limit, offset=offset)
    data = [
        {
            k: v
            for k, v in jobs.job_view(store, r, embeddings=settings.embeddings).items()
            if k != "coverage"
        }
        for r in records
    ]
    applied = {k: v for k, v in {"domain": root, "state": state}.items() if v is not None}
    return envelope(
        data,
        total=total,
        limit=limit,
        offset=offset,
        sort="created",
        applied=applied,
        unknown=unrecognized(request, ["domain", "state", "limit", "offset"]),
    )


@router.get("/api/jobs/{job_id}", summary="Live status of a crawl job")
def get_job(request: Request, job_id: str) -> dict[str, Any]:
    store = get_store(request)
    return jobs.job_view(
        store,
        jobs.get_job(store, _job_id(job_id)),
        embeddings=get_settings(request).embeddings,
    )


@router.get("/api/jobs/{job_id}/urls", summary="URLs of a job, by coverage bucket")
def job_urls(
    request: Request,
    job_id: str,
    bucket: Bucket | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=INT64_MAX)] = 0,
) -> dict[str, Any]:
    rows, total = jobs.job_urls(get_store(request), _job_id(job_id), bucket, limit, offset)
    applied = {"bucket": bucket} if bucket else {}
    return envelope(
        rows,
        total=total,
        limit=limit,
        offset=offset,
        sort="url",
        applied=applied,
        unknown=unrecognized(request, ["bucket", "limit", "offset"]),
    )


@router.post(
    "/api/jobs/{job_id}/cancel",
    status_code=202,
    summary="Cancel a job",
    dependencies=[Depends(require_write)],
)
def cancel_job(request: Request, job_id: str) -> dict[str, Any]:
    store = get_store(request)
    job = crawls.cancel_job(store, _job_id(job_id))
    return jobs.job_view(store, job, embeddings=get_settings(request).embeddings)
