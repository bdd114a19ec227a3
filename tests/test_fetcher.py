from __future__ import annotations

import asyncio
import gzip
import json
import struct
import time
import tracemalloc
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from aiohttp import web

from webcorpus.config import Settings
from webcorpus.crawl.fetcher import ACCEPT_ENCODING, Fetcher, parse_retry_after

MB = 1 << 20


def gzip_bomb(inflated_mib: int) -> bytes:
    """A gzip stream of ~inflated_mib MiB of zeros, ~1 KiB per MiB on the wire. The trailer's
    CRC is not computed (a guarded client stops long before reaching it)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(bytes(MB)) + c.flush(zlib.Z_FULL_FLUSH)  # history reset: repeatable
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    return header + block * inflated_mib + b"\x03\x00" + struct.pack("<II", 0, 0)


BOMB = gzip_bomb(2048)  # 2 MiB on the wire, 2 GiB inflated


def build_app(counters: dict[str, int]) -> web.Application:
    def count(name: str) -> int:
        counters[name] = counters.get(name, 0) + 1
        return counters[name]

    async def ok(request: web.Request) -> web.Response:
        return web.Response(text="hello", content_type="text/html")

    async def echo(request: web.Request) -> web.Response:
        return web.json_response(dict(request.headers))

    async def gz(request: web.Request) -> web.Response:
        body = gzip.compress(b"<p>compressed page</p>" * 100)
        return web.Response(body=body, headers={"Content-Encoding": "gzip"})

    async def bomb(request: web.Request) -> web.Response:
        return web.Response(
            body=BOMB, headers={"Content-Encoding": "gzip", "Content-Type": "text/html"}
        )

    async def big_plain(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse()
        await resp.prepare(request)  # chunked, no Content-Length
        for _ in range(64):
            await resp.write(b"x" * 64 * 1024)
        await resp.write_eof()
        return resp

    async def huge_cl(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse()
        resp.content_length = 500 * MB
        await resp.prepare(request)
        await resp.write(b"x" * 1024)
        await asyncio.sleep(5)  # the client must give up on the header alone
        return resp

    async def drop(request: web.Request) -> web.StreamResponse:
        count("drop")
        resp = web.StreamResponse()
        resp.content_length = 10_000
        await resp.prepare(request)
        await resp.write(b"x" * 100)
        assert request.transport is not None
        request.transport.close()
        return resp

    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(3)
        return web.Response(text="late")

    async def flaky(request: web.Request) -> web.Response:
        if count("flaky") == 1:
            return web.Response(status=503, headers={"Retry-After": "1"})
        return web.Response(text="recovered")

    async def limited(request: web.Request) -> web.Response:
        count("limited")
        return web.Response(status=429, headers={"Retry-After": "3600"})

    async def gateway(request: web.Request) -> web.Response:
        count("gateway")
        return web.Response(status=502)

    async def cond(request: web.Request) -> web.Response:
        if request.headers.get("If-None-Match") == '"v1"':
            return web.Response(status=304, headers={"ETag": '"v1"'})
        if request.headers.get("If-Modified-Since"):
            return web.Response(status=304)
        return web.Response(text="fresh", headers={"ETag": '"v1"'})

    async def redirect(request: web.Request) -> web.Response:
        raise web.HTTPFound("/ok")

    async def bad_gzip(request: web.Request) -> web.Response:
        return web.Response(body=b"this is not gzip at all", headers={"Content-Encoding": "gzip"})

    app = web.Application()
    for path, handler in {
        "/ok": ok,
        "/echo": echo,
        "/gz": gz,
        "/bomb": bomb,
        "/big": big_plain,
        "/huge-cl": huge_cl,
        "/drop": drop,
        "/slow": slow,
        "/flaky": flaky,
        "/limited": limited,
        "/gateway": gateway,
        "/cond": cond,
        "/redirect": redirect,
        "/bad-gzip": bad_gzip,
    }.items():
        app.router.add_get(path, handler)
    return app


@asynccontextmanager
async def serve(counters: dict[str, int] | None = None) -> AsyncIterator[str]:
    runner = web.AppRunner(build_app({} if counters is None else counters), shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


def settings(**kw: object) -> Settings:
    base: dict[str, object] = {
        "allow_networks": ["127.0.0.0/8"],
        "connect_timeout_s": 2.0,
        "read_timeout_s": 2.0,
        "max_retries": 2,
        "max_retry_after_s": 5.0,
    }
    base.update(kw)
    return Settings(_env_file=None, **base)  # type: ignore[call-arg, arg-type]


@asynccontextmanager
async def fetcher(**kw: object) -> AsyncIterator[Fetcher]:
    async with Fetcher(settings(**kw), backoff_base_s=0.05) as f:
        yield f


async def test_plain_fetch_and_headers_sent() -> None:
    async with serve() as base, fetcher() as f:
        res = await f.fetch(base + "/ok")
        assert res.ok and res.body == b"hello" and res.content_type == "text/html"
        assert res.attempts == 1 and res.elapsed_s > 0
        echo = json.loads((await f.fetch(base + "/echo", accept="application/xml")).body)
        assert echo["User-Agent"].startswith("webcorpus/")
        assert echo["Accept"] == "application/xml"
        assert echo["Accept-Encoding"] == ACCEPT_ENCODING
        assert "gzip" in ACCEPT_ENCODING and "deflate" in ACCEPT_ENCODING
        assert "If-None-Match" not in echo


async def test_gzip_body_is_decompressed() -> None:
    async with serve() as base, fetcher() as f:
        res = await f.fetch(base + "/gz")
        assert res.ok and res.body == b"<p>compressed page</p>" * 100


async def test_gzip_bomb_stops_early_with_low_memory() -> None:
    # The limit is above the 2 MiB on the wire, so Content-Length cannot catch it: the
    # streaming decompressed-size check must.
    async with serve() as base, fetcher(max_body_bytes=4 * MB) as f:
        tracemalloc.start()
        t0 = time.monotonic()
        res = await f.fetch(base + "/bomb")
        elapsed = time.monotonic() - t0
        peak_mb = tracemalloc.get_traced_memory()[1] / MB
        tracemalloc.stop()
        assert res.error == "too_large", res
        assert "decompressed" in (res.error_detail or "")
        assert res.status == 200 and res.body == b""
        assert elapsed < 3.0
        assert peak_mb < 32, peak_mb  # 2 GiB if it had been inflated
        # The dropped connection is not reused: the next request works.
        assert (await f.fetch(base + "/ok")).ok


@pytest.mark.skipif("br" not in ACCEPT_ENCODING, reason="no brotli decoder installed")
async def test_brotli_bomb_stops_early() -> None:
    import brotli  # type: ignore[import-not-found, unused-ignore]

    c = brotli.Compressor(quality=5)
    zeros = bytes(MB)
    payload = b"".join([c.process(zeros) for _ in range(256)] + [c.finish()])  # 256 MiB

    async def br_bomb(request: web.Request) -> web.Response:
        return web.Response(body=payload, headers={"Content-Encoding": "br"})

    app = web.Application()
    app.router.add_get("/br", br_bomb)
    runner = web.AppRunner(app, shutdown_timeout=0.1)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        async with fetcher(max_body_bytes=MB) as f:
            tracemalloc.start()
            res = await f.fetch(f"http://127.0.0.1:{runner.addresses[0][1]}/br")
            peak_mb = tracemalloc.get_traced_memory()[1] / MB
            tracemalloc.stop()
            assert res.error == "too_large" and "decompressed" in (res.error_detail or "")
            assert peak_mb < 32, peak_mb
    finally:
        await runner.cleanup()


async def test_uncompressed_body_over_limit() -> None:
    async with serve() as base, fetcher(max_body_bytes=MB) as f:
        res = await f.fetch(base + "/big")  # 4 MiB chunked, no Content-Length
        assert res.error == "too_large"
        res = await f.fetch(base + "/ok")
        assert res.ok


async def test_content_length_too_large_refused_early() -> None:
    async with serve() as base, fetcher(max_body_bytes=MB) as f:
        t0 = time.monotonic()
        res = await f.fetch(base + "/huge-cl")
        assert res.error == "too_large" and "Content-Length" in (res.error_detail or "")
        assert time.monotonic() - t0 < 1.5


async def test_dropped_connection_is_an_error_and_retried() -> None:
    counters: dict[str, int] = {}
    async with serve(counters) as base, fetcher(max_retries=1) as f:
        res = await f.fetch(base + "/drop")
        assert res.error == "connect" and res.body == b""
        assert res.attempts == 2 and counters["drop"] == 2


async def test_read_timeout() -> None:
    async with serve() as base, fetcher(read_timeout_s=0.3, max_retries=0) as f:
        t0 = time.monotonic()
        res = await f.fetch(base + "/slow")
        assert res.error == "timeout" and res.status == 0
        assert time.monotonic() - t0 < 2.0


async def test_connection_refused() -> None:
    async with serve() as base:
        pass  # server gone: the port is closed now
    async with fetcher(max_retries=2) as f:
        res = await f.fetch(base + "/ok")
        assert res.error == "connect" and (res.error_detail or "").startswith("refused:")
        assert res.attempts == 1  # a closed port is not retried (resets and drops are)


async def test_unresolvable_name_is_dns_error() -> None:
    async with fetcher() as f:
        res = await f.fetch("http://no-such-host.invalid/")
        assert res.error == "dns" and res.attempts == 1


async def test_503_with_retry_after_is_retried() -> None:
    counters: dict[str, int] = {}
    async with serve(counters) as base, fetcher() as f:
        t0 = time.monotonic()
        res = await f.fetch(base + "/flaky")
        assert res.ok and res.body == b"recovered"
        assert res.attempts == 2 and counters["flaky"] == 2
        assert time.monotonic() - t0 >= 0.9  # honoured Retry-After: 1


async def test_429_with_huge_retry_after_is_not_waited_on() -> None:
    counters: dict[str, int] = {}
    async with serve(counters) as base, fetcher() as f:
        t0 = time.monotonic()
        res = await f.fetch(base + "/limited")
        assert res.status == 429 and res.error is None and not res.ok
        assert res.attempts == 1 and counters["limited"] == 1
        assert res.headers["retry-after"] == "3600"
        assert time.monotonic() - t0 < 1.0


async def test_502_retried_up_to_max_retries() -> None:
    counters: dict[str, int] = {}
    async with serve(counters) as base, fetcher(max_retries=2) as f:
        res = await f.fetch(base + "/gateway")
        assert res.status == 502 and res.attempts == 3 and counters["gateway"] == 3


async def test_conditional_get_304() -> None:
    async with serve() as base, fetcher() as f:
        first = await f.fetch(base + "/cond")
        assert first.status == 200 and first.headers["etag"] == '"v1"'
        again = await f.fetch(base + "/cond", etag=first.headers["etag"])
        assert again.status == 304 and again.body == b"" and again.error is None
        since = await f.fetch(base + "/cond", last_modified="Wed, 21 Oct 2015 07:28:00 GMT")
        assert since.status == 304


async def test_redirects_are_not_followed() -> None:
    async with serve() as base, fetcher() as f:
        res = await f.fetch(base + "/redirect")
        assert res.status == 302 and res.location == "/ok" and res.attempts == 1


async def test_bad_scheme_and_bad_encoding() -> None:
    async with serve() as base, fetcher() as f:
        for url in ("ftp://example.com/x", "file:///etc/passwd", "javascript:alert(1)"):
            assert (await f.fetch(url)).error == "bad_scheme"
        res = await f.fetch(base + "/bad-gzip")
        assert res.error == "protocol", res


def test_parse_retry_after() -> None:
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    now = datetime(2024, 1, 1, tzinfo=UTC)
    later = format_datetime(now + timedelta(seconds=90), usegmt=True)
    assert parse_retry_after(later, now=now.timestamp()) == pytest.approx(90.0)
    assert parse_retry_after(format_datetime(now, usegmt=True), now=now.timestamp() + 5) == 0.0
