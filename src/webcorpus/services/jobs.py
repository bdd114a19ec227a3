"""Job status: progress with an ETA range, and coverage buckets derived from the ledger."""

from __future__ import annotations

import time
from typing import Any

from webcorpus.services.clock import parse_iso
from webcorpus.services.errors import invalid_param, not_found
from webcorpus.store import Store, models
from webcorpus.store.models import BUCKETS, JobRecord

BUCKET_REASONS = {
    "indexed": "fetched, extracted and stored; searchable by text",
    "unchanged": "already indexed and not modified since (304, same content, or not re-fetched)",
    "redirected": "answered with a redirect; the target is tracked as its own URL",
    "duplicate": "same content as another page, or its canonical URL is another page",
    "robots": "disallowed by robots.txt (or robots.txt unreachable)",
    "noindex": "meta robots or X-Robots-Tag noindex",
    "notHtml": "not an HTML page",
    "clientError": "answered 4xx",
    "serverError": "answered 5xx after retries",
    "fetchError": "no usable answer: timeout, connection error, too large, refused address",
    "filtered": "out of scope by rule: crawler traps, depth, URL length, excluded patterns",
    "pending": "queued or being fetched",
    "budget": "not fetched: the job's page budget was spent",
    "stoppedEarly": "not fetched: the job was cancelled or stopped before reaching it",
}


def get_job(store: Store, job_id: str) -> JobRecord:
    job = store.get_job(job_id)
    if job is None:
        raise not_found(f"job {job_id}")
    return job


def _elapsed(job: JobRecord) -> float:
    if not job.started_at:
        return 0.0
    end = parse_iso(job.finished_at) if job.finished_at else time.time()
    return max(0.0, end - parse_iso(job.started_at))


def coverage(store: Store, job: JobRecord) -> dict[str, Any]:
    counts = store.bucket_counts(job.id)
    buckets: dict[str, Any] = {}
    for name in BUCKETS:
        count = counts.get(name, 0)
        entry: dict[str, Any] = {"count": count, "reason": BUCKET_REASONS[name], "sample": []}
        if count:
            sample = store.bucket_samples(job.id, name, 10)
            entry["sample"] = [s["url"] for s in sample]
            reasons = store.bucket_reasons(job.id, name)
            if any(r for r, _ in reasons):
                entry["reasons"] = [{"reason": r, "count": c} for r, c in reasons if r]
        buckets[name] = entry
    unaccounted = models.unaccounted(counts)  # from the same ledger scan as the counts
    buckets["unaccounted"] = {
        "count": unaccounted,
        "reason": "URLs known to the job but in no other bucket (always 0)",
        "sample": [],
    }
    return {"total": sum(counts.values()), "buckets": buckets}


def progress(
    store: Store, job: JobRecord, cov: dict[str, Any], *, embeddings: bool = True
) -> dict[str, Any]:
    """The job's progress; ``embeddings``: whether this service computes vectors (without, the
    backlog is null: no chunk is waiting for one, and none will get one)."""
    b = cov["buckets"]
    pending = b["pending"]["count"]
    total = cov["total"]
    resolved = total - pending - b["budget"]["count"] - b["stoppedEarly"]["count"]
    fetched = store.fetched_count(job.id)
    elapsed = _elapsed(job)
    rate = fetched / (elapsed / 60) if elapsed > 1 else 0.0
    backlog = store.embedding_backlog(job.id) if embeddings else None
    eta: dict[str, Any] | None
    if job.state in ("completed", "partial", "failed", "cancelled"):
        eta = {"low_s": 0, "high_s": 0, "confidence": 1.0}
    elif rate <= 0 or job.state == "queued":
        eta = None
    else:
        budget_left = max(0, job.params.get("budget", 0) - fetched)
        low_pages = min(pending, budget_left)
        high_pages = budget_left if pending < budget_left else low_pages
        per_s = rate / 60
        confidence = round(min(0.9, 0.3 + resolved / 500), 2)
        eta = {
            "low_s": round(low_pages / per_s * 0.85),
            "high_s": round(max(low_pages, high_pages) / per_s * 1.3 + 5),
            "confidence": confidence,
        }
    return {
        "indexed": b["indexed"]["count"],
        "pending": pending,
        "discovered": total,
        "fetched": fetched,
        "elapsed_s": round(elapsed, 1),
        "pages_per_min": round(rate, 1),
        "eta": eta,
        "embedding_backlog": backlog,
    }


def job_view(store: Store, job: JobRecord, *, embeddings: bool = True) -> dict[str, Any]:
    cov = coverage(store, job)
    return {
        "id": job.id,
        "domain": job.domain,
        "state": job.state,
        "params": job.params,
        "created_at": job.created_at,
        "started_at": job.started_at,
        "finished_at": job.finished_at,
        "progress": progress(store, job, cov, embeddings=embeddings),
        "coverage": cov,
        "cancel_requested": job.cancel_requested,
        "resumes": job.resumes,
        "error": job.error,
        **({"screenshots": screenshots(job)} if job.params.get("shots") else {}),
    }


def screenshots(job: JobRecord) -> dict[str, Any]:
    """What became of the screenshots the crawl asked for: requested (the pages chosen, at most
    ``shots``), taken, failed (URL and reason) and, when none could be taken, the error."""
    report = (job.info or {}).get("screenshots")
    if report is not None:
        return dict(report)
    waiting = {"requested": job.params["shots"], "taken": 0, "failed": []}
    if job.state in ("queued", "running"):  # the crawl comes first
        return waiting
    return {**waiting, "error": f"not taken: the job ended {job.state} before its screenshots"}


def job_urls(
    store: Store, job_id: str, bucket: str | None, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int]:
    get_job(store, job_id)
    if bucket == "unaccounted":
        return store.list_unaccounted(job_id, limit, offset)
    if bucket is not None and bucket not in BUCKETS:
        raise invalid_param("bucket", f"must be one of {', '.join(BUCKETS)}, unaccounted")
    return store.list_job_urls(job_id, bucket, limit, offset)
