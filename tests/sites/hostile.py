"""A hostile fixture site: every way a website can make a crawler misbehave, on loopback.

A plain ASGI app served by uvicorn in a background thread on a free 127.0.0.1 port. It answers any
Host header; crawl it as ``hostile.example`` through ``RunningHostile.connect_to()``.

``EXPECTED_BUCKETS`` names the coverage bucket (CONTRACT.md) each URL should end in after a full
crawl of ``hostile.example`` with a read timeout below ``slow_s`` (default 5 s), the default
``max_body_bytes`` (10 MiB) and ``WEBCORPUS_ALLOW_NETWORKS=127.0.0.1/32``. Keys starting with ``/``
are paths on hostile.example; the others are absolute URLs. ``ALSO_ACCEPTABLE`` lists the other
readings of the contract a crawler may defensibly take for a few of them; ``TRAPS`` describes the
unbounded URL spaces (only their first URL is in EXPECTED_BUCKETS).

SSRF: ``internal.hostile.example`` is in scope, and ``connect_to()`` maps it to 127.0.0.2, a
loopback address the guard must refuse (only 127.0.0.1/32 is allowed). The server also listens
there, so a guard that lets it through shows up in ``ssrf_hits()`` instead of leaving the machine.
Private ranges like 10.0.0.0/8 are deliberately not used as targets: this workplace forbids any
traffic to them, and a guard bug would send some.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import logging
import re
import socket
import struct
import threading
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import uvicorn

HOSTILE_HOST = "hostile.example"
INTERNAL_HOST = "internal.hostile.example"
INTERNAL_ADDR = "127.0.0.2"
LAST_MODIFIED = "Mon, 02 Mar 2026 10:00:00 GMT"

EXPECTED_BUCKETS: dict[str, str] = {
    "/": "indexed",
    "/about": "indexed",
    "/article-1": "indexed",
    "/article-2": "indexed",
    # byte-identical to /article-1, linked only from /about (found after /article-1)
    "/article-1-copy": "duplicate",
    # <link rel=canonical href=/article-2>, same text as /article-2 plus a tracking note
    "/canonical-page": "duplicate",
    "/redirect/chain-1": "redirected",  # 301 -> /redirect/chain-2
    "/redirect/chain-2": "redirected",  # 302 -> /redirect/final
    "/redirect/final": "indexed",
    "/redirect/loop-a": "redirected",  # 301 -> /redirect/loop-b
    "/redirect/loop-b": "redirected",  # 301 -> /redirect/loop-a
    "/redirect/to-about": "redirected",  # 301 -> /about
    "/redirect/to-loopback": "redirected",  # 302 -> http://127.0.0.1:<port>/ssrf-target
    "/redirect/to-internal": "redirected",  # 302 -> http://internal.hostile.example/ssrf-target
    f"http://{INTERNAL_HOST}/ssrf-target": "fetchError",  # SSRF guard refuses 127.0.0.2
    "/status/403": "clientError",
    "/status/404": "clientError",
    "/status/410": "clientError",
    "/status/500": "serverError",  # always 500
    "/status/503-once": "indexed",  # 503 + Retry-After: 1 on the first request, then 200
    "/slow": "fetchError",  # answers after slow_s seconds (timeout)
    "/drop": "fetchError",  # promises 100000 bytes, sends 1000, closes the connection
    "/noindex-meta": "noindex",  # <meta name="robots" content="noindex">
    "/noindex-header": "noindex",  # X-Robots-Tag: noindex
    "/private/secret": "robots",  # robots.txt: Disallow: /private/
    "/calendar?month=1": "indexed",  # trap, see TRAPS
    "/a/": "indexed",  # trap, see TRAPS
    "/files/report.pdf": "notHtml",
    "/images/diagram.png": "notHtml",
    "/huge": "fetchError",  # 12 MiB of HTML, over max_body_bytes (too_large)
    "/bomb": "fetchError",  # ~1 MB gzip inflating to 1 GiB (too_large)
}

ALSO_ACCEPTABLE: dict[str, frozenset[str]] = {
    # a crawler following a chain within one fetch may report the loop as an error
    "/redirect/loop-a": frozenset({"fetchError"}),
    "/redirect/loop-b": frozenset({"fetchError"}),
    # the redirect target is out of scope: dropping the hop as filtered is defensible
    "/redirect/to-loopback": frozenset({"filtered", "fetchError"}),
    # which of two identical pages is kept depends on fetch order
    "/article-1": frozenset({"duplicate"}),
    "/article-1-copy": frozenset({"indexed"}),
}

TRAPS: dict[str, str] = {
    "/calendar?month=": "each month links to the next, forever; all but a bounded number of "
    "months must end in filtered (or budget), none may hang the crawl",
    "/a/": "each /a/.../ page links to a/ one level deeper, forever; /a/a/a/a/... beyond "
    "max_repeated_segments must end in filtered",
}

SITEMAP_PATHS = ("/", "/about", "/article-1", "/article-2", "/noindex-header", "/status/410")

ARTICLES = {
    "/article-1": (
        "Connection pooling in practice",
        "A connection pool keeps a small number of database connections open and lends them to "
        "requests. Sizing it is a trade-off: too few connections queue requests, too many exhaust "
        "the server's memory and context-switch budget. Start with twice the number of cores and "
        "measure the wait time for a free connection under load.",
    ),
    "/article-2": (
        "Reading query plans",
        "EXPLAIN ANALYZE runs the statement and prints the plan with real row counts and timings. "
        "Compare estimated and actual rows on every node: a large gap points at stale statistics "
        "or correlated columns, and usually explains a nested loop where a hash join was expected.",
    ),
    "/about": (
        "About this site",
        "Hostile Example publishes short engineering notes about databases and networking. Our "
        "archive also keeps a mirror of older notes for readers with broken bookmarks.",
    ),
    "/redirect/final": (
        "Where redirects end",
        "You followed a chain of redirects, a permanent one and then a temporary one, to reach "
        "this page about tuning write-ahead log checkpoints for bursty workloads.",
    ),
    "/status/503-once": (
        "Maintenance windows",
        "This page was briefly unavailable while we rotated its storage; a well-behaved client "
        "waits for the time named in Retry-After and tries again.",
    ),
    "/noindex-meta": (
        "Internal draft",
        "This draft about replication lag carries a robots meta tag asking search engines and "
        "crawlers not to index it.",
    ),
    "/noindex-header": (
        "Staging notes",
        "These staging notes about TLS certificate rotation are excluded from indexes by an "
        "X-Robots-Tag response header rather than a meta tag.",
    ),
    "/private/secret": (
        "Private area",
        "Nothing here should ever be fetched by a crawler that honours robots.txt.",
    ),
    "/ssrf-target": ("SSRF TARGET REACHED", "If a crawler indexed this, its SSRF guard failed."),
}

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class _DropConnection(Exception):
    """Raised mid-response: uvicorn then closes the socket (the point of /drop)."""


class _QuietDrop(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, _DropConnection)


@dataclass
class Hit:
    host: str
    method: str
    target: str  # path?query
    headers: dict[str, str]


@dataclass
class HostileApp:
    slow_s: float = 5.0
    huge_bytes: int = 12 * 1024 * 1024
    bomb_bytes: int = 1024 * 1024 * 1024
    port: int = 0
    hits: list[Hit] = field(default_factory=list)
    attempts: Counter[str] = field(default_factory=Counter)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        path: str = scope["path"]
        query = scope["query_string"].decode("latin-1")
        target = path + (f"?{query}" if query else "")
        host = headers.get("host", "")
        self.hits.append(Hit(host, scope["method"], target, headers))
        self.attempts[target] += 1
        await self._route(path, query, host, headers, send)

    async def _route(
        self, path: str, query: str, host: str, headers: dict[str, str], send: Send
    ) -> None:
        redirects = {
            "/redirect/chain-1": (301, "/redirect/chain-2"),
            "/redirect/chain-2": (302, "/redirect/final"),
            "/redirect/loop-a": (301, "/redirect/loop-b"),
            "/redirect/loop-b": (301, "/redirect/loop-a"),
            "/redirect/to-about": (301, "/about"),
            "/redirect/to-loopback": (302, f"http://127.0.0.1:{self.port}/ssrf-target"),
            "/redirect/to-internal": (302, f"http://{INTERNAL_HOST}/ssrf-target"),
        }
        if path in redirects:
            status, location = redirects[path]
            await _respond(send, status, b"", [("location", location)])
        elif path == "/":
            await self._html(send, headers, _home())
        elif path == "/robots.txt":
            robots = f"User-agent: *\nDisallow: /private/\n\nSitemap: http://{host}/sitemap.xml\n"
            await _respond(send, 200, robots.encode(), [("content-type", "text/plain")])
        elif path == "/sitemap.xml":
            await _respond(send, 200, _sitemap(host), [("content-type", "application/xml")])
        elif path == "/article-1-copy":
            await self._html(send, headers, _article("/article-1"))
        elif path == "/canonical-page":
            await self._html(send, headers, _canonical_page())
        elif path == "/noindex-meta":
            meta = '<meta name="robots" content="noindex">'
            await self._html(send, headers, _article(path, head=meta))
        elif path == "/noindex-header":
            await self._html(send, headers, _article(path), [("x-robots-tag", "noindex")])
        elif path == "/status/503-once" and self.attempts[path] == 1:
            body = b"<html><body><h1>503 Service Unavailable</h1></body></html>"
            await _respond(send, 503, body, [("content-type", "text/html"), ("retry-after", "1")])
        elif path.startswith("/status/") and path[8:].isdigit():
            code = int(path[8:])
            body = f"<html><body><h1>Error {code}</h1></body></html>".encode()
            await _respond(send, code, body, [("content-type", "text/html; charset=utf-8")])
        elif path in ARTICLES:
            await self._html(send, headers, _article(path))
        elif path == "/calendar":
            await self._html(send, headers, _calendar(query))
        elif re.fullmatch(r"(/a)+/", path):
            await self._html(send, headers, _repeat(path))
        elif path == "/slow":
            await asyncio.sleep(self.slow_s)
            await self._html(send, headers, _page("Slow page", "<p>Finally.</p>"))
        elif path == "/drop":
            await _drop(send)
        elif path == "/files/report.pdf":
            await _respond(send, 200, PDF, [("content-type", "application/pdf")])
        elif path == "/images/diagram.png":
            await _respond(send, 200, PNG, [("content-type", "image/png")])
        elif path == "/huge":
            await _huge(send, self.huge_bytes)
        elif path == "/bomb":
            await _bomb(send, self.bomb_bytes)
        else:
            body = b"<html><body><h1>Not found</h1></body></html>"
            await _respond(send, 404, body, [("content-type", "text/html")])

    async def _html(
        self,
        send: Send,
        req_headers: dict[str, str],
        body: bytes,
        extra: Iterable[tuple[str, str]] = (),
    ) -> None:
        """A static page with validators; answers conditional requests with 304."""
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        headers = [("etag", etag), ("last-modified", LAST_MODIFIED), *extra]
        inm = req_headers.get("if-none-match")
        ims = req_headers.get("if-modified-since")
        if (inm and etag in {t.strip().removeprefix("W/") for t in inm.split(",")}) or (
            not inm and ims == LAST_MODIFIED
        ):
            await _respond(send, 304, b"", headers)
            return
        await _respond(send, 200, body, [("content-type", "text/html; charset=utf-8"), *headers])


async def _respond(
    send: Send, status: int, body: bytes, headers: Iterable[tuple[str, str]] = ()
) -> None:
    raw = [(k.encode(), v.encode()) for k, v in headers]
    if status != 304:
        raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body if status != 304 else b""})


async def _drop(send: Send) -> None:
    headers = [(b"content-type", b"text/html"), (b"content-length", b"100000")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    chunk = b"<html><body><p>" + b"x" * 985
    await send({"type": "http.response.body", "body": chunk, "more_body": True})
    await asyncio.sleep(0.05)
    raise _DropConnection


async def _huge(send: Send, size: int) -> None:
    head = b"<!DOCTYPE html><html><head><title>Huge page</title></head><body>\n"
    para = b"<p>" + b"This page never ends. " * 40 + b"</p>\n"
    chunk = para * (65536 // len(para))
    headers = [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"content-length", str(size).encode()),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    sent = len(head)
    await send({"type": "http.response.body", "body": head, "more_body": True})
    while sent < size:
        part = chunk[: size - sent]
        sent += len(part)
        await send({"type": "http.response.body", "body": part, "more_body": sent < size})


# --- gzip bomb: the same full-flushed deflate block repeated, then a valid trailer -------------

BOMB_PREFIX = b"<!DOCTYPE html><html><head><title>Bomb</title></head><body>"
BOMB_BLOCK = b" " * (1024 * 1024)
_bomb_cache: dict[int, tuple[bytes, bytes, bytes, int]] = {}
_bomb_lock = threading.Lock()


def bomb_parts(inflated: int) -> tuple[bytes, bytes, bytes, int]:
    """(head, block, trailer, n_blocks): head + block * n_blocks + trailer is a valid gzip file."""
    with _bomb_lock:
        if inflated not in _bomb_cache:
            n = max(1, (inflated - len(BOMB_PREFIX)) // len(BOMB_BLOCK))
            comp = zlib.compressobj(9, zlib.DEFLATED, 31)
            head = comp.compress(BOMB_PREFIX) + comp.flush(zlib.Z_FULL_FLUSH)
            block = comp.compress(BOMB_BLOCK) + comp.flush(zlib.Z_FULL_FLUSH)
            crc = zlib.crc32(BOMB_PREFIX)
            for _ in range(n):
                crc = zlib.crc32(BOMB_BLOCK, crc)
            total = len(BOMB_PREFIX) + n * len(BOMB_BLOCK)
            # b"\x03\x00": an empty final fixed-Huffman block; then CRC32 and ISIZE.
            trailer = b"\x03\x00" + struct.pack("<II", crc, total & 0xFFFFFFFF)
            _bomb_cache[inflated] = (head, block, trailer, n)
        return _bomb_cache[inflated]


async def _bomb(send: Send, inflated: int) -> None:
    head, block, trailer, n = await asyncio.to_thread(bomb_parts, inflated)
    length = len(head) + n * len(block) + len(trailer)
    headers = [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"content-encoding", b"gzip"),
        (b"content-length", str(length).encode()),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": head, "more_body": True})
    for _ in range(n):
        await send({"type": "http.response.body", "body": block, "more_body": True})
    await send({"type": "http.response.body", "body": trailer})


# --- pages ------------------------------------------------------------------------------------


def _page(title: str, body: str, head: str = "") -> bytes:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n{head}\n</head>\n<body>\n"
        '<nav><a href="/">Home</a> <a href="/about">About</a></nav>\n'
        f"<main>\n<h1>{html.escape(title)}</h1>\n{body}\n</main>\n</body>\n</html>\n"
    ).encode()


def _article(path: str, head: str = "") -> bytes:
    title, text = ARTICLES[path]
    body = f"<p>{html.escape(text)}</p>"
    if path == "/about":
        body += '\n<p>Older notes: <a href="/article-1-copy">connection pooling (mirror)</a>.</p>'
    return _page(title, body, head)


def _canonical_page() -> bytes:
    title, text = ARTICLES["/article-2"]
    body = f"<p>{html.escape(text)}</p>\n<p>Shared from our newsletter.</p>"
    return _page(title, body, '<link rel="canonical" href="/article-2">')


def _calendar(query: str) -> bytes:
    try:
        month = int(parse_qs(query).get("month", ["1"])[0])
    except ValueError:
        month = 1
    year, mon = 2026 + (month - 1) // 12, (month - 1) % 12 + 1
    body = (
        f"<p>Events planned for {year}-{mon:02d} (calendar page {month}): none yet.</p>\n"
        f'<p><a href="/calendar?month={month - 1}">Previous month</a> '
        f'<a href="/calendar?month={month + 1}">Next month</a></p>'
    )
    return _page(f"Calendar {year}-{mon:02d}", body)


def _repeat(path: str) -> bytes:
    depth = path.count("/a")
    body = (
        f'<p>Directory level {depth} of a misconfigured relative link.</p>\n<a href="a/">Deeper</a>'
    )
    return _page(f"Level {depth}", body)


def _home() -> bytes:
    links = [p for p in EXPECTED_BUCKETS if p.startswith("/") and p not in {"/", "/article-1-copy"}]
    items = "\n".join(f'<li><a href="{html.escape(p)}">{html.escape(p)}</a></li>' for p in links)
    body = (
        "<p>Engineering notes, and a few pages that misbehave on purpose.</p>\n"
        f"<ul>\n{items}\n</ul>\n"
        '<p>Elsewhere: <a href="http://example.org/">example.org</a>.</p>'
    )
    return _page("Hostile Example", body)


def _sitemap(host: str) -> bytes:
    urls = "\n".join(
        f"<url><loc>http://{host}{p}</loc><lastmod>2026-03-02</lastmod></url>"
        for p in SITEMAP_PATHS
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{urls}\n</urlset>\n"
    ).encode()


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def _pdf() -> bytes:
    stream = b"BT /F1 18 Tf 72 720 Td (Quarterly report) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, obj)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return out


PNG = _png()
PDF = _pdf()


# --- running it -------------------------------------------------------------------------------


@dataclass
class RunningHostile:
    port: int
    host: str
    app: HostileApp
    server: uvicorn.Server = field(repr=False)
    thread: threading.Thread = field(repr=False)
    internal_listening: bool
    _refuser: socket.socket = field(repr=False)

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}{path}"

    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def refused_port(self) -> int:
        return int(self._refuser.getsockname()[1])

    def connect_to(self, *, refuse_https: bool = False) -> list[str]:
        """``--connect-to`` entries: the site on 127.0.0.1, the internal host on 127.0.0.2."""
        out = [
            f"{self.host}:80:127.0.0.1:{self.port}",
            f"{INTERNAL_HOST}:80:{INTERNAL_ADDR}:{self.port}",
        ]
        if refuse_https:
            out += [f"{h}:443:127.0.0.1:{self.refused_port}" for h in (self.host, INTERNAL_HOST)]
        return out

    def connect_to_env(self, *, refuse_https: bool = False) -> str:
        return ",".join(self.connect_to(refuse_https=refuse_https))

    def expected_buckets(self) -> dict[str, str]:
        """EXPECTED_BUCKETS keyed by absolute URL."""
        return {(self.url(k) if k.startswith("/") else k): v for k, v in EXPECTED_BUCKETS.items()}

    def requests_to(self, target: str) -> list[Hit]:
        return [h for h in self.app.hits if h.target == target]

    def ssrf_hits(self) -> list[Hit]:
        """Requests that reached the SSRF target: must stay empty."""
        return self.requests_to("/ssrf-target")

    def reset(self) -> None:
        """Forget requests and attempts (/status/503-once fails once more)."""
        self.app.hits.clear()
        self.app.attempts.clear()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self._refuser.close()

    def __enter__(self) -> RunningHostile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_hostile(host: str = HOSTILE_HOST, *, slow_s: float = 5.0) -> RunningHostile:
    """Serve the hostile app on 127.0.0.1 (and 127.0.0.2, same port) from a background thread."""
    logging.getLogger("uvicorn.error").addFilter(_QuietDrop())
    main = socket.socket()
    main.bind(("127.0.0.1", 0))
    port = int(main.getsockname()[1])
    sockets = [main]
    internal = socket.socket()
    try:
        internal.bind((INTERNAL_ADDR, port))
        sockets.append(internal)
    except OSError:
        internal.close()
    for s in sockets:
        s.listen(128)
        s.setblocking(False)
    app = HostileApp(slow_s=slow_s, port=port)
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": sockets}, name="hostile-site", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("hostile site did not start")
        time.sleep(0.02)
    refuser = socket.socket()
    refuser.bind(("127.0.0.1", 0))
    return RunningHostile(port, host, app, server, thread, len(sockets) == 2, refuser)


@contextlib.contextmanager
def running_hostile(host: str = HOSTILE_HOST, *, slow_s: float = 5.0) -> Iterator[RunningHostile]:
    server = start_hostile(host, slow_s=slow_s)
    try:
        yield server
    finally:
        server.stop()
