"""The crawl worker: leases queued (or orphaned) jobs and runs them one at a time.

In the embedded default it runs in a thread of ``webcorpus serve`` with its own event loop, so
fetching never shares a loop with the API; CPU-heavy page processing goes to a process pool.
``webcorpus worker`` runs the same loop in the foreground.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
from concurrent.futures import ProcessPoolExecutor

from webcorpus.config import Settings
from webcorpus.crawl.pipeline import make_pool
from webcorpus.crawl.runner import JobRunner
from webcorpus.index.embedding_worker import EmbeddingWorker
from webcorpus.services.clock import now_iso
from webcorpus.store import Store

log = logging.getLogger("webcorpus.worker")


def owner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{os.urandom(3).hex()}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def release_dead_local_leases(store: Store) -> int:
    """Expire leases held by workers on this host whose process is gone (e.g. after kill -9)."""
    host = socket.gethostname()
    released = 0
    for owner in store.running_job_owners():
        parts = (owner or "").split(":")
        local = len(parts) >= 2 and parts[0] == host and parts[1].isdigit()
        if local and int(parts[1]) != os.getpid() and not _pid_alive(int(parts[1])):
            store.expire_leases(owner)
            released += 1
    return released


def default_processes() -> int:
    """Processing processes per worker: one per CPU, at most four."""
    return max(1, min(os.cpu_count() or 1, 4))


class Worker:
    def __init__(self, settings: Settings, store: Store, *, processes: int | None = None) -> None:
        self.settings = settings
        self.store = store
        self.owner = owner_id()
        self.processes = processes or default_processes()
        self._pool: ProcessPoolExecutor | None = None
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.embedder: EmbeddingWorker | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = make_pool(self.processes)
        return self._pool

    def prestart_pool(self) -> None:
        """Start every processing process now (imports and models: ~1.3 s of CPU each), while
        the worker waits for work: the first crawl then runs at full speed from its first page
        (a cold pool made the first 500-page crawl ~20% slower)."""
        try:
            pool = self.pool()
            for _ in range(self.processes):
                pool.submit(int)  # a process is spawned per task while none is idle
        except Exception:  # e.g. a process limit: the first job tries again and reports it
            log.warning("could not start the processing processes ahead of work", exc_info=True)

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        release_dead_local_leases(self.store)
        self.prestart_pool()
        if self.settings.embeddings and self.embedder is None:
            self.embedder = EmbeddingWorker(self.settings, self.store)
            self.embedder.start()
        while not self._stop.is_set():
            job = self.store.lease_job(self.owner, self.settings.job_lease_s, now_iso())
            if job is None:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=2.0)
                except TimeoutError:
                    release_dead_local_leases(self.store)
                continue
            log.info("job %s (%s) leased by %s", job.id, job.domain, self.owner)
            runner = JobRunner(
                self.settings,
                self.store,
                job,
                self.pool(),
                self.owner,
                embeddings_active=self._embeddings_active,
            )
            task = asyncio.create_task(runner.run())
            stop = asyncio.create_task(self._stop.wait())
            await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                # Shutting down mid-job: stop and hand the job back for the next start.
                runner.lost = True
                runner.wakeup.set()
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
                self.store.expire_leases(self.owner)
            stop.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        if self.embedder is not None:
            self.embedder.stop()

    def _embeddings_active(self) -> bool:
        return self.embedder is not None and self.embedder.is_alive()

    def wake(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._wake.set)

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)


class WorkerThread:
    """Runs a Worker on its own thread and event loop inside ``webcorpus serve``."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.worker = Worker(settings, store)
        self._thread = threading.Thread(target=self._main, name="webcorpus-worker", daemon=True)

    def _main(self) -> None:
        asyncio.run(self.worker.run())

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self.worker.wake()

    def stop(self, timeout: float = 10.0) -> None:
        self.worker.stop()
        self._thread.join(timeout)
