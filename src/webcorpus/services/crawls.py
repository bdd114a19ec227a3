"""Start and cancel crawls."""

from __future__ import annotations

import contextlib
import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterator
from typing import Any

from webcorpus.config import Settings
from webcorpus.crawl.domains import validate_root_domain
from webcorpus.services.clock import new_job_id, now_iso
from webcorpus.services.errors import ServiceError, invalid_body, not_found
from webcorpus.store import ConflictError, Store
from webcorpus.store.models import JobRecord

BODY_FIELDS = {"domain", "budget", "refresh", "force", "shots"}


def parse_crawl_body(body: Any, settings: Settings) -> dict[str, Any]:
    """Validate a crawl request body into normalized params (raises invalid_body)."""
    if not isinstance(body, dict):
        raise invalid_body("body", "must be a JSON object")
    unknown = sorted(set(body) - BODY_FIELDS)
    if unknown:
        raise ServiceError(
            "invalid_body",
            f"unknown field(s): {', '.join(unknown)}",
            [{"field": f, "message": "unknown field"} for f in unknown],
        )
    if "domain" not in body:
        raise invalid_body("domain", "is required")
    if not isinstance(body["domain"], str):
        raise invalid_body("domain", "must be a string such as example.com")
    try:
        domain = validate_root_domain(
            body["domain"], allow_private_suffixes=settings.allow_private_suffixes
        )
    except ValueError as exc:
        raise invalid_body("domain", str(exc)) from exc
    budget = body.get("budget", settings.default_budget)
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise invalid_body("budget", f"must be an integer from 1 to {settings.max_budget}")
    if not 1 <= budget <= settings.max_budget:
        raise invalid_body("budget", f"must be an integer from 1 to {settings.max_budget}")
    flags = {}
    for name in ("refresh", "force"):
        value = body.get(name, False)
        if not isinstance(value, bool):
            raise invalid_body(name, "must be true or false")
        flags[name] = value
    shots = body.get("shots", 0)
    if isinstance(shots, bool):
        shots = 10 if shots else 0
    elif not isinstance(shots, int) or shots < 0:
        raise invalid_body("shots", "must be true, false or an integer of 0 or more")
    shots = min(shots, budget)  # no more screenshots than pages
    typed = body["domain"].strip().lower().rstrip(".")
    entry_hosts = [typed] if typed.endswith("." + domain) else []
    return {"domain": domain, "budget": budget, **flags, "shots": shots, "entry_hosts": entry_hosts}


class RateLimiter:
    """Crawl starts per key in a sliding one-minute window; in-process (each API process counts
    on its own). Only accepted crawls count: see ``slot``."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._hits: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def slot(self, key_id: str) -> Iterator[None]:
        """Take one of the key's starts for the block (429 when none is left) and give it back if
        the block raises: a refused crawl (409, the domain is being crawled) costs nothing."""
        stamp = self.check(key_id)
        try:
            yield
        except BaseException:
            with self._lock, contextlib.suppress(ValueError):
                self._hits[key_id].remove(stamp)
            raise

    def check(self, key_id: str) -> float:
        """Count one start now (429 when the key has none left); returns its time stamp."""
        now = time.monotonic()
        with self._lock:
            hits = self._hits[key_id]
            while hits and hits[0] <= now - 60:
                hits.popleft()
            if len(hits) >= self.per_minute:
                retry = max(1, int(60 - (now - hits[0])) + 1)
                raise ServiceError(
                    "rate_limited",
                    f"at most {self.per_minute} crawl starts per minute per key",
                    headers={"Retry-After": str(retry)},
                )
            hits.append(now)
            return now


def start_crawl(
    store: Store,
    params: dict[str, Any],
    key_id: str | None,
    *,
    limiter: RateLimiter | None = None,
) -> JobRecord:
    """Queue a crawl job; with a ``limiter``, one of ``key_id``'s starts, if it is accepted."""
    if limiter is not None and key_id is not None:
        with limiter.slot(key_id):
            return start_crawl(store, params, key_id)
    job = JobRecord(
        id=new_job_id(),
        domain=params["domain"],
        state="queued",
        params={k: params[k] for k in ("budget", "refresh", "force", "shots")},
        created_at=now_iso(),
        info={"entry_hosts": params.get("entry_hosts", [])},
    )
    try:
        return store.create_job(job, key_id)
    except ConflictError as exc:
        raise ServiceError(
            "conflict",
            f"{job.domain} already has an active crawl {exc.existing_id}",
            extra={"job_id": exc.existing_id},
        ) from exc


def cancel_job(store: Store, job_id: str) -> JobRecord:
    job = store.get_job(job_id)
    if job is None:
        raise not_found(f"job {job_id}")
    if job.state not in ("queued", "running"):
        raise ServiceError("conflict", f"job {job_id} has ended ({job.state})")
    if not store.cancel_queued(job_id, now_iso(), "cancelled before it started"):
        store.request_cancel(job_id)
    job = store.get_job(job_id)
    assert job is not None
    return job
