"""The worker's processing processes (extraction, facets, chunking), each on its own pipe.

Why not ``concurrent.futures.ProcessPoolExecutor``: its processes share one result pipe and the
lock around it. A process killed while sending a result (the kernel's OOM killer, a crash in a C
extension on a hostile page) leaves a half-written message in that pipe and the lock taken: the
executor's reader waits for the rest forever, the other processes wait for the lock, and the
crawl hangs with its job ``running`` (reproduced by tests/test_worker_pool.py on the first try:
results are ~100 KB). Here every process has a private pipe that only it writes to: when it
dies, its pipe ends (EOF), the one page it held is retried once on a fresh process, and the
other processes never notice. A page that kills a fresh process too is reported as the cause.
A page whose processing outlives ``timeout_s`` (e.g. a regex gone exponential on a hostile page)
has its process killed and replaced and is reported, instead of holding a slot for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

log = logging.getLogger("webcorpus.processing")
T = TypeVar("T")
_START_TIMEOUT_S = 300.0  # imports and models; generous for a loaded small machine
_SETUP_RETRY_S = 30.0  # after a failed start-up, tasks fail at once for this long


class ProcessDied(Exception):
    """The process running a task died before it answered."""


class PageCrashedProcessing(Exception):
    """A page's processing killed its process twice in a row (a fresh process each time)."""


class ProcessingTimeout(Exception):
    """A page's processing ran past the time limit; its process was replaced."""


class ProcessingUnavailable(Exception):
    """A processing process could not set itself up (its initializer raised): no page is to
    blame, and none can be processed until that is fixed."""


def _serve(conn: Connection, initializer: Callable[[], None] | None) -> None:
    """A processing process: run each task received, send back (ok, value), until told to stop."""
    if initializer is not None:
        try:
            initializer()
        except BaseException as exc:
            conn.send(("setup failed", f"{type(exc).__name__}: {exc}"))
            return
    conn.send("ready")  # the time limit of the first task starts after the start-up
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return  # the service is gone
        if task is None:
            return
        fn, args = task
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as exc:
            answer = (False, exc)
        try:
            conn.send(answer)
        except Exception as exc:  # an unpicklable result or exception
            conn.send((False, RuntimeError(f"the result could not be sent back: {exc!r}")))


class _Process:
    def __init__(self, ctx: Any, initializer: Callable[[], None] | None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(
            target=_serve, args=(child, initializer), daemon=True, name="webcorpus-processing"
        )
        self.process.start()
        child.close()  # only the child may hold its end: its death must read as EOF here
        self.ready = False

    def _await_ready(self) -> None:
        if not wait([self.conn, self.process.sentinel], _START_TIMEOUT_S):
            self.kill()
            raise ProcessDied(f"a processing process did not start in {_START_TIMEOUT_S:g} s")
        message = self.conn.recv()
        if message != "ready":
            raise ProcessingUnavailable(f"a processing process could not start: {message[1]}")
        self.ready = True

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], timeout_s: float) -> Any:
        try:
            if not self.ready:
                self._await_ready()
            self.conn.send((fn, args))
            ready = wait([self.conn, self.process.sentinel], timeout_s)
            if not ready:
                self.kill()
                raise ProcessingTimeout(f"processing took longer than {timeout_s:g} s")
            if self.conn not in ready:
                raise EOFError
            ok, value = self.conn.recv()  # a message cut short by a death raises here
        except (EOFError, OSError) as exc:
            code = self.exitcode()  # before kill(), which would make it -9
            self.kill()
            raise ProcessDied(f"the processing process died (exit code {code})") from exc
        except ProcessingUnavailable:
            self.kill()
            raise
        if not ok:
            raise value
        return value

    def exitcode(self) -> int | None:
        self.process.join(1.0)
        return self.process.exitcode

    def alive(self) -> bool:
        return self.process.is_alive()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5.0)
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.process.join(2.0)
        self.kill()


_STOP = object()


class ProcessingPool:
    """``processes`` processing processes, each fed by a thread of this process and set up by
    ``initializer`` (imports, models) before its first task.

    ``run`` is called from an event loop; tasks wait in one queue and go to whichever process
    is free. Processes start on ``prestart`` (or the first task) and are replaced when they die.
    """

    def __init__(
        self,
        processes: int,
        *,
        initializer: Callable[[], None] | None = None,
        timeout_s: float = 120.0,
    ) -> None:
        self.processes = processes
        self.timeout_s = timeout_s
        self.restarts = 0
        self._initializer = initializer
        self._ctx = multiprocessing.get_context("spawn")
        self._tasks: queue.Queue[Any] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False
        self._setup_failure: tuple[float, ProcessingUnavailable] | None = None

    def prestart(self) -> None:
        """Start every process now (imports and models: ~1.3 s of CPU each), not on the first
        page."""
        with self._lock:
            if self._threads or self._closed:
                return
            for i in range(self.processes):
                thread = threading.Thread(
                    target=self._feed, name=f"webcorpus-processing-{i}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _spawn(self) -> _Process | None:
        try:
            return _Process(self._ctx, self._initializer)
        except Exception:
            log.exception("could not start a processing process")
            return None

    def _feed(self) -> None:
        """One process's thread: hand it tasks one at a time; replace it when it dies."""
        proc = self._spawn()
        while True:
            item = self._tasks.get()
            if item is _STOP:
                break
            fn, args, future = item
            if not future.set_running_or_notify_cancel():
                continue
            failed = self._setup_failure
            if failed is not None and time.monotonic() - failed[0] < _SETUP_RETRY_S:
                future.set_exception(failed[1])  # fail fast: no start-up per waiting page
                continue
            if proc is None or not proc.alive():  # killed while idle, or never started
                if proc is not None:
                    proc.kill()
                    self.restarts += 1
                proc = self._spawn()
                if proc is None:
                    future.set_exception(
                        ProcessingUnavailable("no processing process could be started")
                    )
                    continue
            try:
                future.set_result(proc.call(fn, args, self.timeout_s))
            except ProcessingUnavailable as exc:
                log.error("%s", exc)
                self._setup_failure = (time.monotonic(), exc)
                future.set_exception(exc)
                proc = None
            except (ProcessDied, ProcessingTimeout) as exc:
                log.warning("%s; starting a fresh one", exc)
                self.restarts += 1
                future.set_exception(exc)
                proc = None if self._closed else self._spawn()
            except BaseException as exc:
                future.set_exception(exc)
        if proc is not None:
            proc.stop()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a processing process; once more on a fresh process if it died."""
        self.prestart()
        try:
            return await self._submit(fn, args)
        except ProcessDied:
            pass
        try:
            return await self._submit(fn, args)
        except ProcessDied as exc:
            raise PageCrashedProcessing(
                "processing this page killed its process twice (a fresh one each time)"
            ) from exc

    async def _submit(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        if self._closed:
            raise RuntimeError("the processing pool is shut down")
        future: Future[T] = Future()
        self._tasks.put((fn, args, future))
        return await asyncio.wrap_future(future)

    def shutdown(self) -> None:
        """Stop the processes (tasks not started yet are cancelled); does not wait for them."""
        with self._lock:
            self._closed = True
            while True:
                try:
                    item = self._tasks.get_nowait()
                except queue.Empty:
                    break
                if item is not _STOP:
                    item[2].cancel()
            for _ in self._threads:
                self._tasks.put(_STOP)
