"""The CPU stage of a page: extract, score facets, chunk. Runs in worker processes.

Everything here is pure and picklable, so the job runner ships raw bytes to a process pool and
gets back a ``ProcessedPage``; the event loop that fetches (and the one that serves HTTP) never
does this work.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from webcorpus.extract import ExtractedDocument, count_words, extract


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
    *,
    timings: dict[str, float] | None = None,
) -> ProcessedPage:
    """Extract, score facets, chunk and sign one page. ``timings``: when given, the CPU ms of
    each stage (extract, facets, chunk, simhash, hashes) are added to it."""
    from webcorpus.facets import score_page, simhash64
    from webcorpus.facets.similarity import lower_words
    from webcorpus.index.chunking import chunk_markdown

    clock = time.process_time
    start = t0 = clock()
    doc = extract(body, url, headers=headers, with_words=False)
    lower = doc.text.lower()
    words = lower_words(lower)  # one pass over the text for the word count and the simhash
    doc.words = count_words(doc.text, lower, words)
    t1 = clock()
    facets = score_page(doc, url, headers=headers, sitemap_lastmod=sitemap_lastmod)
    facet_dict = {**facets.as_dict(), "explain": facets.explain}
    t2 = clock()
    chunks = [
        (c.index, c.heading, c.text, c.tokens)
        for c in chunk_markdown(doc.markdown, title=doc.title)
    ]
    t3 = clock()
    simhash = simhash64(doc.text, words=words) if doc.text else None
    t4 = clock()
    page = ProcessedPage(
        doc=doc,
        facets=facet_dict,
        chunks=chunks,
        simhash=simhash,
        content_hash=content_hash(body),
        text_hash=text_hash(doc.text or doc.markdown),
    )
    end = clock()
    page.cpu_ms = (end - start) * 1000
    if timings is not None:
        for stage, a, b in (
            ("extract", t0, t1),
            ("facets", t1, t2),
            ("chunk", t2, t3),
            ("simhash", t3, t4),
            ("hashes", t4, end),
        ):
            timings[stage] = timings.get(stage, 0.0) + (b - a) * 1000
    return page


_WARM_PAGE = (
    b"<html lang='en'><head><title>Warm-up page</title></head><body><main><h1>Warm-up</h1>"
    b"<p>This paragraph loads the language model, the tokenizer and the caches of a worker "
    b"process before its first real page, with <a href='/doc'>a link</a>.</p>"
    b"<pre><code class='language-python'>print('warm')</code></pre></main></body></html>"
)


def warm() -> None:
    """Import the heavy modules and load the models once per worker process (a throwaway page),
    then freeze what the process keeps for its whole life (modules, models, caches so far) out
    of the cyclic garbage collector's full passes, which otherwise walk it again and again."""
    import contextlib
    import gc

    import htmldate  # noqa: F401  (non-docs pages: ~0.8 s of imports on the first one)
    import trafilatura  # noqa: F401

    from webcorpus.facets import score_page  # noqa: F401
    from webcorpus.index.chunking import chunk_markdown  # noqa: F401

    with contextlib.suppress(Exception):  # best effort: a real page reports the same problem
        process_page(_WARM_PAGE, "https://warm-up.invalid/page.html", {})
    gc.freeze()
