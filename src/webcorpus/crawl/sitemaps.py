"""Sitemap parsing: XML urlset / sitemap index (any or no namespace), plain text, RSS and Atom,
gzip-compressed or not. No I/O: the runner fetches, this module reads bytes.

XML is parsed with lxml in recover mode with entity resolution, DTD loading and network access
off (XXE and billion-laughs safe) and ``huge_tree`` off. Entries are *not* filtered by host:
sitemaps listed in robots.txt may legally cross-submit other hosts, and scope is the runner's
decision (``in_scope``). Only non-http(s) locations are dropped. Relative locations are resolved
against the sitemap URL.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from typing import Literal
from urllib.parse import urljoin, urlsplit

from lxml import etree

SitemapKind = Literal["urlset", "index", "text", "rss", "atom", "unknown"]

MAX_SITEMAP_URLS = 50_000
MAX_DECOMPRESSED_BYTES = 50 * 1024 * 1024  # sitemaps.org: 50 MB uncompressed
GZIP_MAGIC = b"\x1f\x8b"

_DATE_PREFIX_RE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?")


@dataclass(slots=True)
class SitemapEntry:
    loc: str
    lastmod: date | None = None


@dataclass(slots=True)
class SitemapParse:
    url: str
    kind: SitemapKind = "unknown"
    urls: list[SitemapEntry] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    error: str | None = None
    truncated: bool = False  # stopped at max_urls


def default_sitemap_urls(origin: str) -> list[str]:
    """Where to look for a sitemap when robots.txt names none."""
    parts = urlsplit(origin.strip())
    base = f"{parts.scheme.lower()}://{parts.netloc.lower()}" if parts.netloc else origin
    base = base.rstrip("/")
    return [f"{base}/sitemap.xml", f"{base}/sitemap_index.xml"]


def gunzip_capped(body: bytes, limit: int = MAX_DECOMPRESSED_BYTES) -> bytes:
    """Decompress gzip ``body``; ``ValueError`` when corrupt or larger than ``limit``."""
    decomp = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        out = decomp.decompress(body, limit + 1)
    except zlib.error as exc:
        raise ValueError(f"corrupt gzip data: {exc}") from None
    if len(out) > limit:
        raise ValueError(f"decompressed sitemap larger than {limit} bytes")
    if not out and not decomp.eof:
        raise ValueError("corrupt gzip data: truncated stream")
    return out


def parse_lastmod(value: str | None) -> date | None:
    """W3C datetime (``2024``, ``2024-05``, ``2024-05-06``, ``2024-05-06T10:00:00Z``) or an
    RFC 822 date (RSS), as a date; None when absent or unreadable."""
    if not value:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).date()
    except ValueError:
        pass
    match = _DATE_PREFIX_RE.match(text)
    if match:
        try:
            return date(int(match[1]), int(match[2] or 1), int(match[3] or 1))
        except ValueError:
            return None
    try:
        return parsedate_to_datetime(text).date()
    except (TypeError, ValueError, IndexError):
        return None


def _local(tag: object) -> str:
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def _child_text(el: etree._Element, name: str) -> str | None:
    for child in el:
        if _local(child.tag) == name:
            return (child.text or "").strip()
    return None


def _absolute(loc: str | None, base: str) -> str | None:
    if not loc:
        return None
    loc = loc.strip()
    if not loc or any(c.isspace() for c in loc):
        return None
    if loc[:8].lower().startswith(("http://", "https://")):
        return loc
    try:
        absolute = urljoin(base, loc)
    except ValueError:
        return None
    return absolute if absolute.lower().startswith(("http://", "https://")) else None


class _Collector:
    def __init__(self, result: SitemapParse, max_urls: int) -> None:
        self.result = result
        self.max_urls = max_urls
        self.seen: set[str] = set()

    def full(self) -> bool:
        if len(self.seen) >= self.max_urls:
            self.result.truncated = True
            return True
        return False

    def add_url(self, loc: str | None, lastmod: str | None) -> None:
        absolute = _absolute(loc, self.result.url)
        if absolute and absolute not in self.seen:
            self.seen.add(absolute)
            self.result.urls.append(SitemapEntry(absolute, parse_lastmod(lastmod)))

    def add_child(self, loc: str | None) -> None:
        absolute = _absolute(loc, self.result.url)
        if absolute and absolute not in self.seen:
            self.seen.add(absolute)
            self.result.children.append(absolute)


def _parse_xml(body: bytes, col: _Collector) -> None:
    parser = etree.XMLParser(
        recover=True,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError as exc:
        col.result.error = f"malformed XML: {exc}"
        return
    if root is None:
        col.result.error = "malformed XML: no root element"
        return
    res = col.result
    kind = _local(root.tag)
    if kind == "urlset":
        res.kind = "urlset"
        for el in root:
            if _local(el.tag) == "url":
                if col.full():
                    break
                col.add_url(_child_text(el, "loc"), _child_text(el, "lastmod"))
    elif kind == "sitemapindex":
        res.kind = "index"
        for el in root:
            if _local(el.tag) == "sitemap":
                if col.full():
                    break
                col.add_child(_child_text(el, "loc"))
    elif kind in ("rss", "rdf"):
        res.kind = "rss"
        for item in root.iter():
            if _local(item.tag) == "item":
                if col.full():
                    break
                col.add_url(_child_text(item, "link"), _child_text(item, "pubdate"))
    elif kind == "feed":
        res.kind = "atom"
        for entry in root:
            if _local(entry.tag) != "entry":
                continue
            if col.full():
                break
            href = None
            for link in entry:
                if _local(link.tag) == "link" and link.get("rel", "alternate") == "alternate":
                    href = link.get("href")
                    break
            col.add_url(href, _child_text(entry, "updated") or _child_text(entry, "published"))
    else:
        res.error = f"not a sitemap: root element <{kind or '?'}>"
        return
    fatal = [e for e in parser.error_log if e.level_name == "FATAL"]
    if fatal:
        # recovered entries are kept; the error says the document was damaged
        res.error = f"malformed XML (line {fatal[0].line}): {fatal[0].message}"


def _parse_text(body: bytes, col: _Collector) -> None:
    col.result.kind = "text"
    for line in body.decode("utf-8-sig", "replace").splitlines():
        line = line.strip()
        if not line.lower().startswith(("http://", "https://")):
            continue
        if col.full():
            break
        col.add_url(line, None)
    if not col.result.urls:
        col.result.error = "no URLs found in text sitemap"


def parse_sitemap(
    body: bytes,
    url: str,
    *,
    max_urls: int = MAX_SITEMAP_URLS,
    max_decompressed_bytes: int = MAX_DECOMPRESSED_BYTES,
) -> SitemapParse:
    """Parse one sitemap document. Never raises: problems are reported in ``error``."""
    result = SitemapParse(url=url)
    if body.startswith(GZIP_MAGIC):
        try:
            body = gunzip_capped(body, max_decompressed_bytes)
        except ValueError as exc:
            result.error = str(exc)
            return result
    elif len(body) > max_decompressed_bytes:
        result.error = f"sitemap larger than {max_decompressed_bytes} bytes"
        return result
    col = _Collector(result, max_urls)
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head:
        result.error = "empty sitemap"
    elif head.startswith(b"<"):
        _parse_xml(body, col)
    else:
        _parse_text(body, col)
    return result
