"""The CPU stage of a page: extract, score facets, chunk. Runs in worker processes.

Everything here is pure and picklable, so the job runner ships raw bytes to a process pool and
gets back a ``ProcessedPage``; the event loop that fetches (and the one that serves HTTP) never
does this work.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from webcorpus.extract import ExtractedDocument, extract


@dataclass(slots=True)
class ProcessedPage:
    doc: ExtractedDocument
    facets: dict[str, Any]
    chunks: list[tuple[int, str, str, int]] = field(default_factory=list)
    simhash: int | None = None
    content_hash: str = ""
    text_hash: str = ""
    cpu_ms: float = 0.0


def content_hash(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:32]


def text_hash(text: str) -> str:
    normalized = " ".join(text.split()).lower()
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()[:32]


def process_page(
    body: bytes,
    url: str,
    headers: dict[str, str],
    sitemap_lastmod: date | None = None,
) -> ProcessedPage:
    import time

    from webcorpus.facets import score_page, simhash64
    from webcorpus.index.chunking import chunk_markdown

    start = time.process_time()
    doc = extract(body, url, headers=headers)
    facets = score_page(doc, url, headers=headers, sitemap_lastmod=sitemap_lastmod)
    facet_dict = {**facets.as_dict(), "explain": facets.explain}
    chunks = [
        (c.index, c.heading, c.text, c.tokens)
        for c in chunk_markdown(doc.markdown, title=doc.title)
    ]
    page = ProcessedPage(
        doc=doc,
        facets=facet_dict,
        chunks=chunks,
        simhash=simhash64(doc.text) if doc.text else None,
        content_hash=content_hash(body),
        text_hash=text_hash(doc.text or doc.markdown),
    )
    page.cpu_ms = (time.process_time() - start) * 1000
    return page


def _warm() -> None:
    """Import the heavy modules once per worker process."""
    from webcorpus.facets import score_page  # noqa: F401
    from webcorpus.index.chunking import chunk_markdown  # noqa: F401


def make_pool(workers: int) -> ProcessPoolExecutor:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_warm)
