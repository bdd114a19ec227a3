"""Run one crawl job: discover, fetch, process, store, and account for every URL.

Scheduler (frontier + ledger), downloader (Fetcher + HostThrottle) and extraction (a process
pool running ``pipeline.process_page``) stay separate, as in Scrapy. The coverage ledger in the
store is the single source of truth: every URL gets one ledger row the moment it is known and
moves from ``pending`` to exactly one final bucket in the same transaction that stores its result.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from webcorpus.config import Settings
from webcorpus.crawl import robots as robots_mod
from webcorpus.crawl import sitemaps as sitemaps_mod
from webcorpus.crawl.fetcher import Fetcher
from webcorpus.crawl.frontier import Frontier, priority_for
from webcorpus.crawl.pipeline import ProcessedPage, process_page
from webcorpus.crawl.politeness import HostThrottle
from webcorpus.crawl.processing import (
    PageCrashedProcessing,
    ProcessingPool,
    ProcessingTimeout,
    ProcessingUnavailable,
)
from webcorpus.crawl.ssrf import parse_connect_to
from webcorpus.crawl.types import FetchResult
from webcorpus.crawl.urls import TrapGuard, in_scope, normalize_url, page_id, url_host
from webcorpus.crawl.writes import WriteBatcher
from webcorpus.facets import SimhashIndex, boilerplate_share, originality_from
from webcorpus.render.screenshots import Camera, ScreenshotsUnavailable, ShotFailed, find_chromium
from webcorpus.services import citations
from webcorpus.services.clock import http_date_iso, now_iso
from webcorpus.store import Store
from webcorpus.store.models import ChunkRow, JobRecord, LinkRow, PageWrite, UrlEntry

log = logging.getLogger("webcorpus.crawl")

HTML_TYPES = ("text/html", "application/xhtml+xml")
ROBOTS_REDIRECTS = 5


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class LeaseLost(Exception):
    pass


class JobRunner:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        job: JobRecord,
        pool: ProcessingPool,
        owner: str,
        *,
        embeddings_active: Any = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.job = job
        self.pool = pool
        self.owner = owner
        self.embeddings_active = embeddings_active
        self.domain = job.domain
        self.budget = int(job.params.get("budget", settings.default_budget))
        self.refresh = bool(job.params.get("refresh"))
        self.force = bool(job.params.get("force"))
        self.frontier = Frontier()
        self.known: set[str] = set()
        self.lastmod: dict[str, str] = {}
        self.hops: dict[str, int] = {}
        self.robots: dict[str, robots_mod.RobotsPolicy] = {}
        self.robots_locks: dict[str, asyncio.Lock] = {}
        self.answered: dict[str, bool] = {}
        self.started: set[str] = set()
        self.robots_failure: dict[str, str] = {}
        self.traps = TrapGuard.from_settings(settings)
        self.fetched = 0
        self.budget_spent = False
        self.cancelled = False
        self.lost = False
        self.failure: Exception | None = None
        self.in_flight = 0
        self.wakeup = asyncio.Event()
        self.cpu_ms = 0.0
        self.info: dict[str, Any] = dict(job.info)
        self.simhashes = SimhashIndex()
        self.db_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="webcorpus-db")
        self.writes = WriteBatcher(self.store, self.db_thread)
        self.text_hashes: dict[str, str] = {}
        self.linked: set[str] = set()

    async def _db(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call on the job's own database thread, never on the event loop."""
        return await asyncio.get_running_loop().run_in_executor(
            self.db_thread, functools.partial(fn, *args, **kwargs)
        )

    async def _write(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """A store write, committed together with the other in-flight pages' writes."""
        return await self.writes.submit(fn, *args, **kwargs)

    # ------------------------------------------------------------------ lifecycle
    async def run(self) -> None:
        try:
            await self._guarded_run()
        finally:
            with contextlib.suppress(Exception):
                await self._db(self.store.release_connection)
            self.db_thread.shutdown(wait=True)

    async def _guarded_run(self) -> None:
        try:
            await self._run()
        except LeaseLost:
            log.warning("job %s: lease lost; another worker owns it now", self.job.id)
        except Exception as exc:
            log.exception("job %s failed", self.job.id)
            await self._db(
                self.store.move_bucket, self.job.id, "pending", "stoppedEarly", f"job failed: {exc}"
            )
            await self._db(
                self.store.update_job,
                self.job.id,
                state="failed",
                finished_at=now_iso(),
                error=f"{type(exc).__name__}: {exc}",
                fetched=self.fetched,
            )

    async def _run(self) -> None:
        self.fetched = await self._db(self.store.fetched_count, self.job.id)
        self.known = await self._db(self.store.ledger_urls, self.job.id)
        self.simhashes = SimhashIndex(await self._db(self.store.domain_simhashes, self.domain))
        self.throttle = HostThrottle.from_settings(self.settings)
        # Renews the lease and notices cancels until the final state is written: the stages after
        # the crawl (screenshots, the wait for embeddings) can take minutes.
        heartbeat = asyncio.create_task(self._heartbeat())
        try:
            async with Fetcher(self.settings) as fetcher:
                self.fetcher = fetcher
                try:
                    pending = await self._db(self.store.pending_urls, self.job.id)
                    if self.known:
                        for entry in pending:
                            self.frontier.push(entry)
                    else:
                        # Sitemaps before any page: their lastmod dates the pages that state
                        # none, and a URL they list is recorded as found there, at depth 1.
                        await self._discover()
                    workers = [
                        asyncio.create_task(self._work())
                        for _ in range(max(1, self.settings.max_concurrency))
                    ]
                    await _gather_or_cancel(workers)
                finally:
                    await self.writes.drain()
            if self.lost:
                raise LeaseLost
            if self.failure:
                raise self.failure
            await self._finish()
        finally:
            heartbeat.cancel()

    async def _heartbeat(self) -> None:
        """Renew the lease every third of its length; look for a cancel request every second."""
        renew_every = max(1.0, self.settings.job_lease_s / 3)
        last_renew = time.monotonic()
        while True:
            await asyncio.sleep(1.0)
            try:
                if await self._db(self.store.is_cancel_requested, self.job.id):
                    self.cancelled = True
                    self.wakeup.set()
                if time.monotonic() - last_renew < renew_every:
                    continue
                renewed = await self._db(
                    self.store.renew_lease, self.job.id, self.owner, self.settings.job_lease_s
                )
                last_renew = time.monotonic()
                if not renewed:
                    self.lost = True
                    self.wakeup.set()
                    return
                await self._db(self.store.update_job, self.job.id, fetched=self.fetched)
            except Exception:  # e.g. the database locked past its busy timeout: try again
                log.warning("job %s: heartbeat failed; retrying", self.job.id, exc_info=True)

    async def _finish(self) -> None:
        job_id = self.job.id
        error: str | None = None
        if not self.cancelled:  # a cancel since the heartbeat's last look
            self.cancelled = await self._db(self.store.is_cancel_requested, job_id)
        if self.cancelled:
            await self._db(
                self.store.move_bucket, job_id, "pending", "stoppedEarly", "the job was cancelled"
            )
            state = "cancelled"
        else:
            if self.budget_spent:
                await self._db(
                    self.store.move_bucket,
                    job_id,
                    "pending",
                    "budget",
                    f"budget of {self.budget} pages spent",
                )
            await self._db(
                self.store.move_bucket, job_id, "pending", "stoppedEarly", "stopped before fetch"
            )
            counts = await self._db(self.store.bucket_counts, job_id)
            partial = counts.get("budget", 0) or counts.get("stoppedEarly", 0)
            state = "partial" if partial else "completed"
            if "entry_error" in self.info and not (
                counts.get("indexed") or counts.get("unchanged")
            ):
                # Nothing of the site was reached: "completed" with 0 pages would read as success.
                state = "failed"
                failures = "; ".join(f"{o}: {why}" for o, why in self.robots_failure.items())
                error = self.info["entry_error"] + (f": {failures}" if failures else "")
        await asyncio.get_running_loop().run_in_executor(
            None, citations.recompute, self.store, self.domain
        )
        shots = int(self.job.params.get("shots") or 0)
        if shots and not self.cancelled and not await self._screenshots(shots):
            state = "cancelled"  # while its screenshots were being taken
        if not self.cancelled and state != "cancelled" and not await self._wait_embeddings():
            state = "cancelled"  # while its chunks were waiting for vectors
        self.info["cpu_ms_per_page"] = round(self.cpu_ms / max(1, self.fetched), 2)
        # Still ours? A lease that expired (renewals failing) may have gone to another worker,
        # whose run this final state must not overwrite.
        if not await self._db(
            self.store.renew_lease, job_id, self.owner, self.settings.job_lease_s
        ):
            raise LeaseLost
        await self._db(
            self.store.update_job,
            job_id,
            state=state,
            finished_at=now_iso(),
            fetched=self.fetched,
            info=self.info,
            lease_owner=None,
            **({"error": error[:500]} if error and state == "failed" else {}),
        )
        log.info("job %s ended %s after %d fetches", job_id, state, self.fetched)

    async def _screenshots(self, n: int) -> bool:
        """Screenshot the homepage and the most cited pages, ``n`` at most, reporting in the job's
        ``info["screenshots"]`` what was taken, what failed and why. Screenshots never fail the
        crawl: a browser that cannot start or dies is reported as the report's ``error``. False:
        the job was cancelled meanwhile."""
        report: dict[str, Any] = {"requested": n, "taken": 0, "failed": []}
        self.info["screenshots"] = report
        home = await self._db(self.store.ledger_final_url, self.job.id, self.info.get("entry_url"))
        targets = await self._db(self.store.screenshot_targets, self.domain, home, n)
        report["requested"] = len(targets)
        try:
            chromium = find_chromium(self.settings.chromium_path)
            async with (
                Fetcher(self.settings) as fetcher,
                Camera(
                    chromium, self._browser_fetch, timeout_s=self.settings.screenshot_timeout_s
                ) as camera,
            ):
                self.fetcher = fetcher  # the crawl's own has closed; robots.txt reads need one
                for pid, url in targets:
                    if self.lost:
                        raise LeaseLost
                    if self.cancelled:
                        return False
                    try:
                        shot = await camera.shoot(url)
                    except ShotFailed as exc:
                        report["failed"].append({"url": url, "reason": str(exc)})
                    else:
                        await self._db(
                            self.store.save_screenshot,
                            pid,
                            shot.width,
                            shot.height,
                            now_iso(),
                            self.job.id,
                            shot.png,
                        )
                        report["taken"] += 1
                    await self._db(self.store.update_job, self.job.id, info=self.info)
        except ScreenshotsUnavailable as exc:
            report["error"] = str(exc)
            log.warning("job %s: screenshots: %s", self.job.id, exc)
        except (LeaseLost, asyncio.CancelledError):
            raise
        except Exception as exc:  # the browser's driver, say: never worth failing the crawl over
            report["error"] = f"screenshots stopped: {type(exc).__name__}: {exc}"[:500]
            log.exception("job %s: screenshots stopped", self.job.id)
        return not self.cancelled

    async def _browser_fetch(self, url: str) -> FetchResult:
        """A request of the screenshot browser, paced like the crawl's own: in-scope URLs only
        where robots.txt allows."""
        if in_scope(url, self.domain):
            policy = await self._robots(origin_of(url))
            if not policy.allowed(url):
                return FetchResult(url=url, status=0, error="robots", error_detail="disallowed")
        host = url_host(url) or ""
        async with self.throttle.slot(host):
            result = await self.fetcher.fetch(url, accept="*/*")
        self.throttle.record(host, result.elapsed_s, result.status)
        return result

    async def _wait_embeddings(self) -> bool:
        """A job reaches its final state only once its chunks have vectors. False: the job was
        cancelled meanwhile (its chunks still get vectors; the job does not wait for them)."""
        if self.embeddings_active is None or not self.embeddings_active():
            return True
        while (
            await self._db(self.store.embedding_backlog, self.job.id) > 0
            and self.embeddings_active()
        ):
            if await self._db(self.store.is_cancel_requested, self.job.id):
                return False
            if not await self._db(
                self.store.renew_lease, self.job.id, self.owner, self.settings.job_lease_s
            ):
                raise LeaseLost
            await asyncio.sleep(0.5)
        return True

    # ------------------------------------------------------------------ discovery
    def _entry_candidates(self) -> list[str]:
        hosts = [*self.info.get("entry_hosts", []), self.domain, f"www.{self.domain}"]
        rules = parse_connect_to(self.settings.connect_to)
        out: list[str] = []
        for host in dict.fromkeys(hosts):
            for scheme, port in (("https", 443), ("http", 80)):
                host_rules = [r for r in rules if r.host in (host, None)]
                if rules and host_rules and not any(r.matches(host, port) for r in host_rules):
                    continue  # the operator mapped this host, but not this port
                out.append(f"{scheme}://{host}")
        return out

    async def _discover(self) -> None:
        """Find the entry origin, queue its home page (and, on a refresh, the known pages) and
        read its sitemaps."""
        candidates = self._entry_candidates()
        entry = None
        for origin in candidates:
            await self._robots(origin)
            if self.answered.get(origin):
                entry = origin
                break
        # The domain record shows its entry origin's robots.txt (the job view has every origin's:
        # a subdomain that does not resolve must not make the whole site look unreachable).
        shown = entry or candidates[0]
        await self._db(
            self.store.set_domain_robots, self.domain, self.robots[shown].status, now_iso()
        )
        if entry is None:
            self.info["entry_error"] = "no entry point answered (https, http, www.)"
            await self._add([UrlEntry(url=candidates[0] + "/", source="entry", priority=-1)])
            return
        self.info["entry_url"] = entry + "/"
        await self._db(self.store.set_domain_entry, self.domain, entry + "/")
        seeds = [UrlEntry(url=entry + "/", source="entry", priority=-1)]
        if self.refresh or self.force:
            for url in await self._db(self.store.known_page_urls, self.domain):
                seeds.append(UrlEntry(url=url, source="known", priority=priority_for(1, "link")))
        await self._add(seeds)
        await self._read_sitemaps(entry)

    async def _read_sitemaps(self, origin: str) -> None:
        policy = self.robots.get(origin)
        queue = list(
            dict.fromkeys(
                [
                    *(policy.sitemaps if policy else []),
                    *sitemaps_mod.default_sitemap_urls(origin),
                ]
            )
        )
        seen: set[str] = set()
        found = 0
        while (
            queue and len(seen) < self.settings.max_sitemaps and not (self.cancelled or self.lost)
        ):
            url = queue.pop(0)
            if url in seen:
                continue
            seen.add(url)
            result = await self._fetch_following(url, accept="application/xml,text/xml,*/*")
            if not result.ok:
                status = result.error or f"HTTP {result.status}"
                if url in (policy.sitemaps if policy else []):
                    await self._db(
                        self.store.save_sitemap, self.domain, url, self.job.id, status, 0, None
                    )
                continue
            parsed = sitemaps_mod.parse_sitemap(
                result.body, url, max_urls=self.settings.max_sitemap_urls
            )
            entries = []
            for item in parsed.urls:
                norm = normalize_url(item.loc)
                if norm and in_scope(norm, self.domain):
                    lastmod = item.lastmod.isoformat() if item.lastmod else None
                    if lastmod:
                        self.lastmod[norm] = lastmod
                    entries.append(
                        UrlEntry(
                            url=norm,
                            source="sitemap",
                            depth=1,
                            priority=priority_for(1, "sitemap"),
                            lastmod=lastmod,
                        )
                    )
            for child in parsed.children:
                norm = normalize_url(child)
                if norm and in_scope(norm, self.domain) and norm not in seen:
                    queue.append(norm)
            found += len(entries)
            await self._db(
                self.store.save_sitemap,
                self.domain,
                url,
                self.job.id,
                parsed.error or "ok",
                len(parsed.urls) + len(parsed.children),
                http_date_iso(result.headers.get("last-modified")),
            )
            await self._write(
                self.store.record_discovery, self.job.id, [e.url for e in entries], "sitemap"
            )
            await self._add(entries)
        self.info["sitemap_urls"] = found

    # ------------------------------------------------------------------ robots
    async def _robots(self, origin: str) -> robots_mod.RobotsPolicy:
        policy = self.robots.get(origin)
        if policy is not None:
            return policy
        lock = self.robots_locks.setdefault(origin, asyncio.Lock())
        async with lock:
            policy = self.robots.get(origin)
            if policy is not None:
                return policy
            result = await self._fetch_following(
                origin + "/robots.txt", accept="text/plain,*/*", max_hops=ROBOTS_REDIRECTS
            )
            self.answered[origin] = result.status > 0
            if result.error or result.status >= 429:
                self.robots_failure[origin] = (
                    f"{result.error}" if result.error else f"HTTP {result.status}"
                )
            policy = robots_mod.policy_from_fetch(result, self.settings.user_agent)
            self.robots[origin] = policy
            if policy.crawl_delay:
                self.throttle.set_crawl_delay(url_host(origin) or "", policy.crawl_delay)
            self.info.setdefault("robots", {})[origin] = policy.status
            return policy

    async def _fetch_following(
        self, url: str, *, accept: str, max_hops: int = ROBOTS_REDIRECTS
    ) -> FetchResult:
        """Fetch a support file (robots.txt, sitemap), following in-scope redirects."""
        result = FetchResult(url=url, status=0, error="protocol")
        for _ in range(max_hops + 1):
            host = url_host(url) or ""
            async with self.throttle.slot(host):
                result = await self.fetcher.fetch(url, accept=accept)
            self.throttle.record(host, result.elapsed_s, result.status)
            if 300 <= result.status < 400 and result.location:
                target = normalize_url(result.location, base=url)
                if target is None or not in_scope(target, self.domain):
                    return result
                url = target
                continue
            return result
        return result

    # ------------------------------------------------------------------ frontier
    async def _add(self, entries: list[UrlEntry]) -> None:
        fresh: list[UrlEntry] = []
        for e in entries:
            if e.url in self.known:
                continue
            self.known.add(e.url)
            if e.bucket == "pending":
                reason = self.traps.check(e.url, e.depth)
                if reason:
                    e.bucket, e.reason = "filtered", reason
            fresh.append(e)
        if not fresh:
            return
        added = await self._write(self.store.add_urls, self.job.id, fresh)
        for e in added:
            if e.bucket == "pending":
                self.frontier.push(e)
        self.wakeup.set()

    async def _work(self) -> None:
        while not (self.cancelled or self.lost or self.failure):
            entry = self.frontier.pop()
            if entry is not None and entry.url in self.started:
                continue
            if entry is not None:
                self.started.add(entry.url)
            if entry is None:
                if self.in_flight == 0:
                    self.wakeup.set()
                    return
                self.wakeup.clear()
                await self.wakeup.wait()
                continue
            self.in_flight += 1
            try:
                await self._visit(entry)
            except ProcessingUnavailable as exc:
                # Not this page's fault: it stays pending, and the job ends failed with the cause.
                self.failure = self.failure or exc
            except Exception as exc:
                log.exception("job %s: %s failed", self.job.id, entry.url)
                await self._write(
                    self.store.set_url,
                    self.job.id,
                    entry.url,
                    "fetchError",
                    f"internal error: {type(exc).__name__}: {exc}",
                )
            finally:
                self.in_flight -= 1
                self.wakeup.set()

    # ------------------------------------------------------------------ one URL
    async def _visit(self, entry: UrlEntry) -> None:
        url = entry.url
        job_id = self.job.id
        origin = origin_of(url)
        policy = await self._robots(origin)
        # Not awaited (drained before the job ends): a host found unreachable or a disallowed
        # section can hold hundreds of queued URLs, and a worker waiting for each one's commit
        # would spend the crawl's tail on them.
        if policy.status == "unreachable":
            why = self.robots_failure.get(origin, "no answer")
            if not self.answered.get(origin):
                bucket, reason = "fetchError", f"host unreachable ({why} on {origin}/robots.txt)"
            else:
                bucket, reason = (
                    "robots",
                    f"{origin}/robots.txt answered {why}: all disallowed (RFC 9309); "
                    "retried on the next crawl",
                )
            self.writes.submit_detached(self.store.set_url, job_id, url, bucket, reason)
            return
        if not policy.allowed(url):
            self.writes.submit_detached(
                self.store.set_url, job_id, url, "robots", "disallowed by robots.txt"
            )
            return
        pid = page_id(url)
        state = await self._db(self.store.page_state, pid)
        if state is not None and not (self.refresh or self.force):
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "unchanged",
                "already indexed; not re-fetched (refresh=false)",
                page_id=pid,
            )
            await self._follow_stored_links(pid, entry.depth)
            return
        if self.fetched >= self.budget:
            self.budget_spent = True
            return  # stays pending; moved to the budget bucket when the job ends
        self.fetched += 1
        host = url_host(url) or ""
        conditional = state is not None and self.refresh and not self.force
        async with self.throttle.slot(host):
            result = await self.fetcher.fetch(
                url,
                etag=state.etag if conditional and state else None,
                last_modified=state.last_modified if conditional and state else None,
            )
        self.throttle.record(host, result.elapsed_s, result.status)
        try:
            await self._classify(entry, pid, result)
        finally:  # after the page's history row exists, so that row gets the time too
            self.writes.submit_detached(
                self.store.record_fetch_time, self.job.id, url, result.elapsed_s
            )

    async def _classify(self, entry: UrlEntry, pid: str, result: FetchResult) -> None:
        url, job_id = entry.url, self.job.id
        if result.error:
            detail = f": {result.error_detail}" if result.error_detail else ""
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "fetchError",
                f"{result.error}{detail}",
                http_status=0,
            )
            return
        status = result.status
        if 300 <= status < 400 and status != 304:
            await self._redirect(entry, result)
            return
        if status == 304:
            await self._write(
                self.store.record_unchanged,
                pid,
                job_id,
                url,
                status=304,
                fetched_at=now_iso(),
                reason="304 not modified",
                etag=result.headers.get("etag"),
                last_modified=result.headers.get("last-modified"),
            )
            await self._follow_stored_links(pid, entry.depth)
            return
        if status >= 500:
            await self._write(
                self.store.set_url, job_id, url, "serverError", f"HTTP {status}", http_status=status
            )
            return
        if status >= 400:
            await self._write(
                self.store.set_url, job_id, url, "clientError", f"HTTP {status}", http_status=status
            )
            return
        if status < 200 or status >= 300:
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "fetchError",
                f"unexpected HTTP {status}",
                http_status=status,
            )
            return
        ctype = result.content_type
        if (ctype and ctype not in HTML_TYPES) or (not ctype and not _sniff_html(result.body)):
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "notHtml",
                f"content type {ctype or 'unknown'}",
                http_status=status,
            )
            return
        xrt = result.headers.get("x-robots-tag", "").lower()
        if "noindex" in xrt or "none" in xrt.split(","):
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "noindex",
                "X-Robots-Tag: noindex",
                http_status=status,
            )
            return
        lastmod = self.lastmod.get(url) or entry.lastmod
        try:
            processed: ProcessedPage = await self.pool.run(
                process_page,
                result.body,
                url,
                result.headers,
                date.fromisoformat(lastmod[:10]) if lastmod else None,
            )
        except (PageCrashedProcessing, ProcessingTimeout) as exc:
            await self._write(
                self.store.set_url, job_id, url, "fetchError", str(exc), http_status=status
            )
            return
        self.cpu_ms += processed.cpu_ms
        await self._store_page(entry, pid, result, processed)

    async def _redirect(self, entry: UrlEntry, result: FetchResult) -> None:
        url, job_id = entry.url, self.job.id
        target = normalize_url(result.location or "", base=url)
        if target is None:
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "fetchError",
                f"HTTP {result.status} with an unusable Location",
                http_status=result.status,
            )
            return
        hops = self.hops.get(url, 0) + 1
        scope = in_scope(target, self.domain)
        reason = f"HTTP {result.status} to {target}" + ("" if scope else " (out of scope)")
        await self._write(
            self.store.set_url,
            job_id,
            url,
            "redirected",
            reason,
            http_status=result.status,
            target=target,
        )
        if not scope:
            return
        self.hops.setdefault(target, hops)
        if hops > self.settings.max_redirects:
            await self._add(
                [
                    UrlEntry(
                        url=target,
                        bucket="filtered",
                        depth=entry.depth,
                        source="redirect",
                        reason=f"redirect chain longer than {self.settings.max_redirects}",
                    )
                ]
            )
            return
        await self._add(
            [UrlEntry(url=target, depth=entry.depth, source="redirect", priority=entry.priority)]
        )

    async def _store_page(
        self, entry: UrlEntry, pid: str, result: FetchResult, page: ProcessedPage
    ) -> None:
        url, job_id, doc = entry.url, self.job.id, page.doc
        links = [] if doc.nofollow else [ln.url for ln in doc.links if not ln.nofollow]
        targets = [n for n in map(normalize_url, links) if n and in_scope(n, self.domain)]
        link_depth = entry.depth + 1
        if doc.noindex:
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "noindex",
                "meta robots noindex",
                http_status=result.status,
            )
            await self._add_links(targets, link_depth)
            return
        canonical = normalize_url(doc.canonical_url, base=url) if doc.canonical_url else None
        if canonical and canonical != url and in_scope(canonical, self.domain):
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "duplicate",
                f"canonical is {canonical}",
                http_status=result.status,
                target=canonical,
            )
            claimable = canonical not in self.known or canonical not in self.started
            if not claimable or not (await self._robots(origin_of(canonical))).allowed(canonical):
                await self._add(
                    [
                        UrlEntry(
                            url=canonical,
                            depth=entry.depth,
                            source="canonical",
                            priority=entry.priority,
                        )
                    ]
                )
                await self._add_links(targets, link_depth)
                return
            # The page names its canonical address: index the content there, without a
            # second fetch of the same content.
            self.started.add(canonical)  # taken out of the frontier: no second fetch
            if canonical not in self.known:
                self.known.add(canonical)
                await self._write(
                    self.store.add_urls,
                    job_id,
                    [UrlEntry(url=canonical, depth=entry.depth, source="canonical")],
                )
            url, pid = canonical, page_id(canonical)
            validators = ("etag", "last-modified")
            result = FetchResult(
                url=result.url,
                status=result.status,
                body=b"",
                headers={k: v for k, v in result.headers.items() if k not in validators},
            )
        # Pages of this job whose writes may not have committed yet are known only here.
        same = self.text_hashes.get(page.text_hash)
        if same is None or same == url:
            same = await self._db(self.store.find_same_text, self.domain, page.text_hash, pid)
        if same and same != url:
            await self._write(
                self.store.set_url,
                job_id,
                url,
                "duplicate",
                f"same content as {same}",
                http_status=result.status,
                target=same,
            )
            await self._add_links(targets, link_depth)
            return
        state = await self._db(self.store.page_state, pid)
        if state is not None and state.text_hash == page.text_hash and not self.force:
            await self._write(
                self.store.record_unchanged,
                pid,
                job_id,
                url,
                status=result.status,
                fetched_at=now_iso(),
                reason="content unchanged",
                etag=result.headers.get("etag"),
                last_modified=result.headers.get("last-modified"),
            )
            await self._add_links(targets, link_depth)
            return
        write = self._page_write(url, pid, result, page)
        self.text_hashes.setdefault(page.text_hash, url)
        try:
            await self._write(
                self.store.save_page,
                write,
                ledger_url=url,
                changed=state is None or state.text_hash != page.text_hash,
                fetched=url == entry.url,
            )
        except BaseException:
            if self.text_hashes.get(page.text_hash) == url:
                del self.text_hashes[page.text_hash]
            raise
        await self._add_links(targets, link_depth)

    def _page_write(
        self, url: str, pid: str, result: FetchResult, page: ProcessedPage
    ) -> PageWrite:
        doc = page.doc
        host = url_host(url) or ""
        rows: dict[str, LinkRow] = {}
        for ln in doc.links:
            target = normalize_url(ln.url)
            if not target or target == url:
                continue
            seen = rows.get(target)
            # One row per target: its first body link if it has any (a page that also links the
            # target from its navigation first still cites it), else its first link.
            if seen is not None and (seen.position == "body" or ln.position != "body"):
                continue
            rows[target] = LinkRow(
                target_url=target,
                target_page_id=page_id(target),
                target_host=url_host(target) or "",
                anchor=ln.anchor_text[:300],
                position=ln.position,
                internal=in_scope(target, self.domain),
            )
        canonical = normalize_url(doc.canonical_url, base=url) if doc.canonical_url else None
        facets = dict(page.facets)
        nearest = self.simhashes.max_similarity(page.simhash, exclude=pid)
        facets["originality"] = originality_from(
            boilerplate_share(doc), nearest, words=facets["words"]
        )
        self.simhashes.set(pid, page.simhash)
        return PageWrite(
            id=pid,
            url=url,
            canonical_url=canonical or url,
            domain=self.domain,
            host=host,
            title=doc.title,
            description=doc.description,
            markdown=doc.markdown,
            content_hash=page.content_hash,
            text_hash=page.text_hash,
            etag=result.headers.get("etag"),
            last_modified=result.headers.get("last-modified"),
            http_status=result.status,
            fetched_at=now_iso(),
            job_id=self.job.id,
            declared_language=doc.language,
            hreflang=list(doc.hreflang),
            simhash=page.simhash,
            facets=facets,
            assets=[(a.url, a.kind, a.alt) for a in doc.assets],
            links=list(rows.values()),
            chunks=[ChunkRow(idx=i, heading=h, text=t, tokens=n) for i, h, t, n in page.chunks],
        )

    async def _add_links(self, targets: list[str], depth: int) -> None:
        """Record link evidence for ``targets`` (in-scope, normalized) and add the new ones.

        A link to the site's index sits on every page: each URL is handled once per job (a URL
        in ``linked`` has been through ``_add`` too, so nothing is lost by skipping it here)."""
        urls = [u for u in dict.fromkeys(targets) if u not in self.linked]
        if not urls:
            return
        self.linked.update(urls)
        discovery = self.writes.submit(self.store.record_discovery, self.job.id, urls, "link")
        priority = priority_for(depth, "link")
        # Queued behind the evidence: both commit together.
        await self._add([UrlEntry(url=u, depth=depth, priority=priority) for u in urls])
        await discovery

    async def _follow_stored_links(self, pid: str, depth: int) -> None:
        targets = await self._db(self.store.page_internal_links, pid)
        await self._add_links([t for t in targets if in_scope(t, self.domain)], depth + 1)


async def _gather_or_cancel(tasks: list[asyncio.Task[None]]) -> None:
    """Wait for ``tasks``; when one raises, cancel the others and wait for them to end before
    raising (the job's fetcher and database thread close right after: nothing may still run)."""
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


def _sniff_html(body: bytes) -> bool:
    head = body[:512].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html")) or b"<body" in head
