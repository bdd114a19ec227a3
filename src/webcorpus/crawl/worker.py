"""The crawl worker: leases queued (or orphaned) jobs and runs up to ``worker_jobs`` at once.

In the embedded default it runs in a thread of ``webcorpus serve`` with its own event loop, so
fetching never shares a loop with the API; CPU-heavy page processing goes to a process pool that
the worker's jobs share. Several jobs at once matter because a polite crawl of one site mostly
waits (per-host delays, slow servers) and a finished crawl still waits for its embeddings: one
job at a time would leave the next company's crawl queued behind both.
``webcorpus worker`` runs the same loop in the foreground.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading

from webcorpus.config import Settings
from webcorpus.crawl.pipeline import warm
from webcorpus.crawl.processing import ProcessingPool
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
    """``only_job``: run that one job and no other (``webcorpus crawl``: a foreground crawl must
    not take other queued jobs and abandon them half done when it exits)."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        processes: int | None = None,
        only_job: str | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.owner = owner_id()
        self.processes = processes or settings.worker_processes or default_processes()
        self.only_job = only_job
        self.slots = 1 if only_job else settings.worker_jobs
        self.pool = ProcessingPool(
            self.processes, initializer=warm, timeout_s=settings.processing_timeout_s
        )
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.embedder: EmbeddingWorker | None = None

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self._release_dead_leases()
        self.pool.prestart()  # the first crawl then runs at full speed from its first page
        if self.settings.embeddings and self.embedder is None:
            self.embedder = EmbeddingWorker(self.settings, self.store)
            self.embedder.start()
        running: dict[asyncio.Task[None], JobRunner] = {}
        stop = asyncio.create_task(self._stop.wait())
        try:
            while not self._stop.is_set():
                self._wake.clear()
                while (
                    len(running) < self.slots
                    and not self._stop.is_set()
                    and await self._start_next(running)
                ):
                    pass
                wake = asyncio.create_task(self._wake.wait())
                done, _ = await asyncio.wait(
                    {*running, wake, stop}, timeout=2.0, return_when=asyncio.FIRST_COMPLETED
                )
                wake.cancel()
                for task in [t for t in running if t.done()]:
                    runner = running.pop(task)
                    error = None if task.cancelled() else task.exception()
                    if error is not None:
                        log.error("job %s: runner crashed", runner.job.id, exc_info=error)
                if not done:
                    await self._release_dead_leases()
        finally:
            stop.cancel()
            await self._hand_back(running)
            self.pool.shutdown()
            if self.embedder is not None:
                self.embedder.stop()

    async def _release_dead_leases(self) -> None:
        # Off the loop: the jobs' fetchers share it, and a write may wait for a lock.
        try:
            await asyncio.to_thread(release_dead_local_leases, self.store)
        except Exception:  # e.g. the database locked past its busy timeout: next round
            log.warning("could not release dead workers' leases; retrying", exc_info=True)

    async def _start_next(self, running: dict[asyncio.Task[None], JobRunner]) -> bool:
        """Lease one more job and start it; False when there is none to take (or the database
        could not be asked: the worker asks again on its next round, in 2 s at most)."""
        mine = [runner.job.id for runner in running.values()]
        try:
            job = await asyncio.to_thread(
                self.store.lease_job,
                self.owner,
                self.settings.job_lease_s,
                now_iso(),
                exclude=mine,
                only=self.only_job,
            )
            if job is None:
                return False
            runner = JobRunner(
                self.settings,
                self.store,
                job,
                self.pool,
                self.owner,
                embeddings_active=self._embeddings_active,
            )
        except Exception:
            log.warning("could not lease or start a job; retrying", exc_info=True)
            return False
        log.info("job %s (%s) leased by %s", job.id, job.domain, self.owner)
        running[asyncio.create_task(runner.run(), name=f"job {job.id}")] = runner
        return True

    async def _hand_back(self, running: dict[asyncio.Task[None], JobRunner]) -> None:
        """Shutting down mid-job: stop every job and hand it back for the next start."""
        if not running:
            return
        for task, runner in running.items():
            if not task.done():
                runner.lost = True
                runner.wakeup.set()
                task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        self.store.expire_leases(self.owner)

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
