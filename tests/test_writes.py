"""Group commit of crawl writes (crawl/writes.py) against a real SQLite store."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from tests.server import make_settings
from webcorpus.crawl.writes import WriteBatcher
from webcorpus.store import open_store
from webcorpus.store.models import ChunkRow, LinkRow, PageWrite, UrlEntry
from webcorpus.store.sqlite.store import SQLiteStore


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = open_store(make_settings(tmp_path))
    yield s
    s.close()


def job_id(store: SQLiteStore) -> str:
    row = store.conn.execute(
        "INSERT INTO jobs(id, domain, state, params, created_at) "
        "VALUES ('job_t', 'example.com', 'running', '{}', '2026-11-26T00:00:00Z') RETURNING id"
    ).fetchone()
    return str(row[0])


def ledger(store: SQLiteStore, job: str) -> dict[str, str]:
    rows = store.conn.execute("SELECT url, bucket FROM job_urls WHERE job_id = ?", (job,))
    return {r[0]: r[1] for r in rows}


def test_writes_commit_together_and_a_failure_stays_alone(store: SQLiteStore) -> None:
    job = job_id(store)
    commits: list[int] = []

    async def scenario() -> tuple[list[UrlEntry], BaseException | None]:
        db = ThreadPoolExecutor(max_workers=1)
        batcher = WriteBatcher(store, db, max_items=100, max_delay_s=0.05)

        def traced() -> None:
            store.conn.set_trace_callback(lambda sql: commits.append(int(sql == "COMMIT")))

        await asyncio.get_running_loop().run_in_executor(db, traced)
        urls = [f"https://example.com/{i}" for i in range(20)]
        added = batcher.submit(store.add_urls, job, [UrlEntry(url=u) for u in urls])
        moved = [batcher.submit(store.set_url, job, u, "indexed") for u in urls[:5]]
        failing = batcher.submit(store.set_url, job, urls[5], "no-such-bucket")
        later = batcher.submit(store.set_url, job, urls[6], "robots", "disallowed")
        result = await added
        await asyncio.gather(*moved, later)
        error: BaseException | None = None
        try:
            await failing
        except BaseException as exc:
            error = exc
        await batcher.drain()
        db.shutdown()
        return result, error

    added, error = asyncio.run(scenario())
    assert len(added) == 20
    assert isinstance(error, AssertionError)
    states = ledger(store, job)
    assert len(states) == 20
    assert [states[f"https://example.com/{i}"] for i in range(5)] == ["indexed"] * 5
    assert states["https://example.com/5"] == "pending"
    assert states["https://example.com/6"] == "robots"
    assert sum(commits) == 1  # one transaction for all eight writes


def test_a_failing_savepoint_rolls_back_only_its_own_statements(store: SQLiteStore) -> None:
    job = job_id(store)
    store.add_urls(job, [UrlEntry(url="https://example.com/a")])

    def half_then_fail() -> None:
        with store.tx() as conn:
            conn.execute("UPDATE job_urls SET bucket = 'indexed' WHERE job_id = ?", (job,))
            raise RuntimeError("boom")

    with store.batch():
        store.set_url(job, "https://example.com/a", "robots", "disallowed")
        with pytest.raises(RuntimeError):
            half_then_fail()
    assert ledger(store, job) == {"https://example.com/a": "robots"}


def test_drain_waits_for_queued_writes(store: SQLiteStore) -> None:
    job = job_id(store)

    async def scenario() -> None:
        db = ThreadPoolExecutor(max_workers=1)
        batcher = WriteBatcher(store, db, max_items=1000, max_delay_s=60.0)
        batcher.submit(store.add_urls, job, [UrlEntry(url="https://example.com/x")])
        await batcher.drain()  # far sooner than the 60 s timer
        db.shutdown()

    asyncio.run(asyncio.wait_for(scenario(), timeout=10))
    assert ledger(store, job) == {"https://example.com/x": "pending"}


def test_detached_writes_commit_at_drain_and_a_failure_is_logged(
    store: SQLiteStore, caplog: pytest.LogCaptureFixture
) -> None:
    job = job_id(store)
    urls = [f"https://example.com/{i}" for i in range(3)]

    async def scenario() -> None:
        db = ThreadPoolExecutor(max_workers=1)
        batcher = WriteBatcher(store, db, max_items=1000, max_delay_s=60.0)
        await asyncio.gather(
            batcher.submit(store.add_urls, job, [UrlEntry(url=u) for u in urls]), batcher.drain()
        )
        batcher.submit_detached(store.set_url, job, urls[0], "robots", "disallowed")
        batcher.submit_detached(store.set_url, job, urls[1], "no-such-bucket")
        batcher.submit_detached(store.set_url, job, urls[2], "fetchError", "host unreachable")
        await batcher.drain()
        db.shutdown()

    with caplog.at_level("ERROR", logger="webcorpus.crawl"):
        asyncio.run(asyncio.wait_for(scenario(), timeout=10))
    assert ledger(store, job) == {urls[0]: "robots", urls[1]: "pending", urls[2]: "fetchError"}
    assert [r.getMessage() for r in caplog.records] == ["a detached store write failed"]


def _page(job: str, words: list[str]) -> PageWrite:
    return PageWrite(
        id="pg_1",
        url="https://example.com/a",
        canonical_url=None,
        domain="example.com",
        host="example.com",
        title="Title",
        description=None,
        markdown="\n\n".join(words),
        content_hash="h-" + words[0],
        text_hash="t-" + words[0],
        etag=None,
        last_modified=None,
        http_status=200,
        fetched_at="2026-11-26T00:00:00Z",
        job_id=job,
        declared_language=None,
        hreflang=[],
        simhash=None,
        facets={},
        assets=[],
        links=[],
        chunks=[
            ChunkRow(idx=i, heading="", text=f"{w} text", tokens=2) for i, w in enumerate(words)
        ],
    )


def test_a_saved_page_replaces_its_chunks_in_the_text_index(store: SQLiteStore) -> None:
    """Each chunk is in the full-text index under its own id; saving the page again replaces
    them and deleting the page removes them."""
    job = job_id(store)
    url = "https://example.com/a"
    store.add_urls(job, [UrlEntry(url=url)])

    def matches(term: str) -> list[int]:
        rows = store.conn.execute(
            "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid", (term,)
        )
        return [r[0] for r in rows]

    def chunk_ids() -> list[int]:
        rows = store.conn.execute("SELECT id FROM chunks WHERE page_id = 'pg_1' ORDER BY idx")
        return [r[0] for r in rows]

    store.save_page(_page(job, ["alpha", "beta", "gamma"]), ledger_url=url, changed=True)
    first = chunk_ids()
    assert len(first) == 3
    assert matches("alpha") == first[:1] and matches("gamma") == first[2:]
    assert matches("title") == first  # the page title is indexed with every chunk

    store.save_page(_page(job, ["delta", "beta"]), ledger_url=url, changed=True)
    second = chunk_ids()
    assert len(second) == 2 and not set(first) & set(second)
    assert matches("alpha") == [] and matches("gamma") == []
    assert matches("delta") == second[:1] and matches("beta") == second[1:]

    store.delete_page("pg_1")
    assert matches("beta") == [] and matches("title") == []


def test_repeated_links_are_those_on_more_than_half_of_the_pages(store: SQLiteStore) -> None:
    """What ``services.citations`` calls template links: an internal (target, anchor) pair on
    more than half of the pages that have internal links, and none on a site of under four."""
    job = job_id(store)

    def link(target: str, anchor: str, internal: bool = True) -> LinkRow:
        host = "example.com" if internal else "other.org"
        return LinkRow(f"https://{host}/{target}", f"pg_{target}", host, anchor, "body", internal)

    def save(i: int, links: list[LinkRow]) -> None:
        url = f"https://example.com/p{i}"
        store.add_urls(job, [UrlEntry(url=url)])
        page = replace(
            _page(job, [f"w{i}"]), id=f"pg_p{i}", url=url, links=links, text_hash=f"t{i}"
        )
        store.save_page(page, ledger_url=url, changed=True)

    for i in range(3):
        save(i, [link("next", "Next"), link("faq", "FAQ"), link("x", "X"), link("y", "Y", False)])
    assert store.repeated_links("example.com", 0.5, 4) == set()  # three pages: too few to tell
    for i in range(3, 6):
        save(i, [link("next", "Next"), link("faq", "FAQ") if i == 3 else link("faq", "Ask")])
    # six pages: Next on 6, FAQ on 4 (> 3), X on exactly half (not more), Y external, Ask on 2
    assert store.repeated_links("example.com", 0.5, 4) == {
        ("https://example.com/next", "Next"),
        ("https://example.com/faq", "FAQ"),
    }
