"""Group commit for a crawl's store writes.

A crawl makes several small writes per page (ledger state, page, chunks, links, evidence). One
SQLite transaction each means one WAL commit and one new FTS5 segment per write, which cost as
much CPU as the writes themselves. The batcher queues the writes of all in-flight pages and
applies them on the job's database thread in one transaction, each write inside its own
savepoint (so one failing write is rolled back alone and reported to its caller only). A caller
awaits its write: it resumes once the transaction holding it has committed, so nothing a caller
has seen acknowledged can be lost in a crash.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, Protocol

log = logging.getLogger("webcorpus.crawl")


def _log_failure(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("a detached store write failed", exc_info=future.exception())


class BatchStore(Protocol):
    def batch(self) -> Any: ...


class WriteBatcher:
    def __init__(
        self,
        store: BatchStore,
        executor: Executor,
        *,
        max_items: int = 64,
        max_delay_s: float = 0.03,
    ) -> None:
        self.store = store
        self.executor = executor
        self.max_items = max_items
        self.max_delay_s = max_delay_s
        self._queue: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._running: set[asyncio.Task[None]] = set()

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> asyncio.Future[Any]:
        """Queue ``fn(*args, **kwargs)``; the future resolves with its result after the commit."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.append((functools.partial(fn, *args, **kwargs), future))
        if len(self._queue) >= self.max_items:
            self.flush()
        elif self._timer is None:
            self._timer = loop.call_later(self.max_delay_s, self.flush)
        return future

    def submit_detached(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Queue a write whose caller does not wait for its commit (``drain`` does). For writes
        nothing else waits on, such as a URL's final ledger state: a crash before the commit
        leaves the URL pending, so a resumed job visits it again. A failure is logged."""
        self.submit(fn, *args, **kwargs).add_done_callback(_log_failure)

    def flush(self) -> None:
        """Send what is queued to the database thread now (batches commit in queue order)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        items, self._queue = self._queue, []
        if items:
            task = asyncio.ensure_future(self._commit(items))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def drain(self) -> None:
        """Flush and wait until every write submitted so far has committed or failed."""
        self.flush()
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def _commit(self, items: list[tuple[Callable[[], Any], asyncio.Future[Any]]]) -> None:
        loop = asyncio.get_running_loop()
        calls = [call for call, _ in items]
        try:
            outcomes = await loop.run_in_executor(self.executor, self._apply, calls)
        except BaseException as exc:  # the commit itself failed: every write in it is lost
            for _, future in items:
                if not future.done():
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, future), (ok, value) in zip(items, outcomes, strict=True):
            if future.done():  # the caller was cancelled
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _apply(self, calls: list[Callable[[], Any]]) -> list[tuple[bool, Any]]:
        outcomes: list[tuple[bool, Any]] = []
        with self.store.batch():
            for call in calls:
                try:
                    outcomes.append((True, call()))
                except Exception as exc:
                    outcomes.append((False, exc))
        return outcomes
