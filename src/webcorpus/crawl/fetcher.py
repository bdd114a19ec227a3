"""One-hop HTTP fetcher: SSRF-guarded, size- and time-bounded, with polite retries."""

from __future__ import annotations

import asyncio
import email.utils
import errno
import functools
import random
import socket
import ssl
import time
from datetime import UTC
from types import TracebackType

import aiohttp
from aiohttp import http_exceptions
from aiohttp.abc import AbstractResolver
from yarl import URL

from webcorpus.config import Settings
from webcorpus.crawl.ssrf import GuardedResolver, SSRFError, parse_connect_to, parse_networks
from webcorpus.crawl.types import FetchErrorKind, FetchResult

DEFAULT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
RETRY_STATUSES = frozenset({429, 502, 503, 504})
_READ_CHUNK = 64 * 1024


def _accept_encoding() -> str:
    encodings = ["gzip", "deflate"]
    try:
        from aiohttp import compression_utils

        if getattr(compression_utils, "HAS_BROTLI", False):
            encodings.append("br")
    except ImportError:  # pragma: no cover - very old aiohttp
        pass
    return ", ".join(encodings)


ACCEPT_ENCODING = _accept_encoding()


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now = time.time() if now is None else now
    return max(0.0, when.timestamp() - now)


def _headers(resp: aiohttp.ClientResponse) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in resp.headers.items():
        k = key.lower()
        out[k] = f"{out[k]}, {value}" if k in out else value
    return out


class _TooLarge(Exception):
    pass


class Fetcher:
    """``async with Fetcher(settings) as f: result = await f.fetch(url)``.

    Never raises for network trouble: every failure is a FetchResult with ``error`` set.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        base_resolver: AbstractResolver | None = None,
    ) -> None:
        self.settings = settings
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.resolver = GuardedResolver(
            allow=parse_networks(settings.allow_networks),
            connect_to=parse_connect_to(settings.connect_to),
            resolver=base_resolver,
            connect_to_only=settings.connect_to_only,
        )
        self._session: aiohttp.ClientSession | None = None
        # A slow-drip server must not hold a slot forever: cap the whole exchange as well.
        self._timeout = aiohttp.ClientTimeout(
            total=settings.connect_timeout_s + 2 * settings.read_timeout_s,
            sock_connect=settings.connect_timeout_s,
            sock_read=settings.read_timeout_s,
        )

    async def __aenter__(self) -> Fetcher:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def open(self) -> None:
        if self._session is not None:
            return
        connector = aiohttp.TCPConnector(
            resolver=self.resolver,
            use_dns_cache=False,  # every new connection goes through the guard
            limit=self.settings.max_concurrency,
            limit_per_host=0,  # per-host pacing is HostThrottle's job
            keepalive_timeout=15.0,
            ssl=_tls_context(),
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            cookie_jar=aiohttp.DummyCookieJar(),
            trust_env=False,
            auto_decompress=True,
            max_line_size=16 * 1024,
            max_field_size=32 * 1024,
            headers={"User-Agent": self.settings.user_agent},
        )

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        accept: str = DEFAULT_ACCEPT,
    ) -> FetchResult:
        try:
            target = URL(url, encoded=False)
        except (ValueError, TypeError) as exc:
            return FetchResult(url=url, status=0, error="protocol", error_detail=f"bad URL: {exc}")
        if target.scheme not in ("http", "https"):
            return FetchResult(url=url, status=0, error="bad_scheme", error_detail=target.scheme)
        if not target.raw_host:
            return FetchResult(url=url, status=0, error="protocol", error_detail="URL has no host")
        try:
            ip = self.resolver.check_literal(target.raw_host)
        except SSRFError as exc:
            return FetchResult(url=url, status=0, error="ssrf", error_detail=str(exc))
        if ip is not None and target.host != str(ip):
            target = target.with_host(str(ip))  # 0x7f.1 -> 127.0.0.1, as a browser would

        headers = {"Accept": accept, "Accept-Encoding": ACCEPT_ENCODING}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified

        attempt = 0
        while True:
            attempt += 1
            result = await self._fetch_once(url, target, headers)
            result.attempts = attempt
            if attempt > self.settings.max_retries or not self._retryable(result):
                return result
            delay = min(
                self.backoff_max_s,
                self.backoff_base_s * 2 ** (attempt - 1) * random.uniform(0.5, 1.5),
            )
            if result.status in (429, 503):
                retry_after = parse_retry_after(result.headers.get("retry-after"))
                if retry_after is not None:
                    if retry_after > self.settings.max_retry_after_s:
                        return result  # the server asks for more patience than we have
                    delay = max(delay, retry_after)
            await asyncio.sleep(delay)

    @staticmethod
    def _retryable(result: FetchResult) -> bool:
        if result.error is None:
            return result.status in RETRY_STATUSES
        # A refused port or a TLS failure will not change in a second: only resets/drops retry.
        detail = result.error_detail or ""
        return result.error == "connect" and not detail.startswith(("tls:", "refused:"))

    async def _fetch_once(self, url: str, target: URL, headers: dict[str, str]) -> FetchResult:
        if self._session is None:
            raise RuntimeError("Fetcher is not open: use `async with Fetcher(settings)`")
        started = time.monotonic()
        status = 0
        resp_headers: dict[str, str] = {}

        def fail(kind: FetchErrorKind, detail: str) -> FetchResult:
            return FetchResult(
                url=url,
                status=status,
                headers=resp_headers,
                elapsed_s=time.monotonic() - started,
                error=kind,
                error_detail=detail,
            )

        limit = self.settings.max_body_bytes
        try:
            async with self._session.get(
                target, headers=headers, allow_redirects=False, timeout=self._timeout
            ) as resp:
                status, resp_headers = resp.status, _headers(resp)
                try:
                    if resp.content_length is not None and resp.content_length > limit:
                        raise _TooLarge(f"Content-Length {resp.content_length} > {limit}")
                    body = bytearray()
                    # Decompressed bytes arrive in bounded pieces; stop as soon as we pass
                    # the limit, so a decompression bomb never inflates in memory.
                    async for chunk in resp.content.iter_chunked(_READ_CHUNK):
                        body += chunk
                        if len(body) > limit:
                            raise _TooLarge(f"body over {limit} bytes (decompressed)")
                except _TooLarge as exc:
                    resp.close()  # drop the connection, never drain the rest
                    return fail("too_large", str(exc))
                return FetchResult(
                    url=url,
                    status=status,
                    headers=resp_headers,
                    body=bytes(body),
                    elapsed_s=time.monotonic() - started,
                )
        except SSRFError as exc:
            return fail("ssrf", str(exc))
        except TimeoutError as exc:
            return fail("timeout", f"{type(exc).__name__}: {exc}".rstrip(": "))
        except aiohttp.ClientConnectorError as exc:
            if isinstance(exc.os_error, socket.gaierror):
                return fail("dns", str(exc))
            if isinstance(exc, aiohttp.ClientSSLError):
                return fail("connect", f"tls: {exc}")
            if exc.errno == errno.ECONNREFUSED:
                return fail("connect", f"refused: {exc}")
            return fail("connect", str(exc))
        except aiohttp.ClientPayloadError as exc:
            cause = exc.__cause__
            if isinstance(cause, http_exceptions.ContentEncodingError):
                return fail("protocol", f"bad content encoding: {exc}")
            return fail("connect", f"connection dropped mid-body: {exc}")
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError) as exc:
            return fail("connect", f"{type(exc).__name__}: {exc}")
        except aiohttp.ClientResponseError as exc:
            return fail("protocol", f"{type(exc).__name__}: {exc.message}")
        except (aiohttp.ClientError, ValueError, UnicodeError) as exc:
            return fail("protocol", f"{type(exc).__name__}: {exc}")
        except ConnectionError as exc:
            return fail("connect", f"{type(exc).__name__}: {exc}")


__all__ = ["ACCEPT_ENCODING", "DEFAULT_ACCEPT", "Fetcher", "parse_retry_after"]


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """One verifying TLS context for every fetcher: loading the system's CA certificates
    takes ~0.2 s of CPU, which each crawl (and each screenshot run) used to pay again."""
    return ssl.create_default_context()
