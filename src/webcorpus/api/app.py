"""The FastAPI application: routers per resource, problem details, version header."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from anyio import to_thread
from fastapi import FastAPI, Request, Response

from webcorpus import __version__
from webcorpus.api import collections, content, crawl, domains, facets, jobs, problems, search
from webcorpus.api.head import HeadRequests
from webcorpus.api.query import RepeatedParams
from webcorpus.config import Settings
from webcorpus.mcp import http as mcp_http
from webcorpus.services.crawls import RateLimiter
from webcorpus.services.search import SearchEngine
from webcorpus.store import Store, open_store


def api_threads(settings: Settings) -> int:
    """How many requests run their blocking work at once (``WEBCORPUS_API_THREADS``)."""
    return settings.api_threads or max(4, 2 * (os.cpu_count() or 1))


def create_app(
    settings: Settings, *, store: Store | None = None, run_worker: bool | None = None
) -> FastAPI:
    own_store = store is None
    store = store or open_store(settings)
    worker_on = settings.worker if run_worker is None else run_worker

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        to_thread.current_default_thread_limiter().total_tokens = api_threads(settings)
        worker = None
        if worker_on:
            from webcorpus.crawl.worker import WorkerThread

            worker = WorkerThread(settings, store)
            worker.start()
            app.state.wake_worker = worker.wake
        try:
            async with mcp_running():
                yield
        finally:
            if worker is not None:
                worker.stop()
            app.state.search_engine.close()
            if own_store:
                store.close()

    app = FastAPI(
        title="webcorpus",
        version=__version__,
        description="Index company websites into a searchable corpus of pages.",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.rate_limiter = RateLimiter(settings.crawl_rate_per_minute)
    app.state.search_engine = SearchEngine(store, settings)
    problems.install(app)
    problems.install_openapi(app)
    app.add_middleware(RepeatedParams)  # inside the version header middleware below

    @app.middleware("http")
    async def version_header(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers["X-Webcorpus-Version"] = __version__
        return response

    app.add_middleware(HeadRequests)  # outermost: HEAD is a GET whose body is dropped

    for module in (crawl, jobs, content, search, facets, domains, collections):
        app.include_router(module.router)
    mcp_running = mcp_http.install(app, settings, store)
    return app
