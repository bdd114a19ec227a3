"""Page metadata from the parsed tree: title, canonical, language, hreflang, robots, JSON-LD."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from webcorpus.extract.tree import Element, text_of

_WS = re.compile(r"\s+")


@dataclass(slots=True)
class PageMeta:
    base_url: str
    title: str | None = None
    canonical_url: str | None = None
    language: str | None = None
    hreflang: list[tuple[str, str]] = field(default_factory=list)
    description: str | None = None
    noindex: bool = False
    nofollow: bool = False
    jsonld_types: list[str] = field(default_factory=list)
    og_type: str | None = None
    generator: str | None = None
    published_raw: str | None = None


def _abs(base: str, href: str | None) -> str | None:
    if not href or not href.strip():
        return None
    try:
        url = urljoin(base, href.strip())
    except ValueError:
        return None
    return url if url.startswith(("http://", "https://")) else None


def _text(s: str | None) -> str | None:
    s = _WS.sub(" ", s or "").strip()
    return s or None


def apply_robots(meta: PageMeta, value: str) -> None:
    """Apply a robots directive list (meta robots or X-Robots-Tag value)."""
    for token in re.split(r"[,\s]+", value.lower()):
        token = token.split(":")[-1]  # "googlebot: noindex" style
        if token in ("noindex", "none"):
            meta.noindex = True
        if token in ("nofollow", "none"):
            meta.nofollow = True


_DATE_META = frozenset(
    {
        "article:published_time",
        "og:published_time",
        "datepublished",
        "dc.date",
        "dc.date.issued",
        "dcterms.created",
        "dcterms.issued",
        "date",
        "pubdate",
        "publishdate",
        "publication_date",
        "sailthru.date",
        "parsely-pub-date",
        "citation_publication_date",
    }
)


def _jsonld_date(obj: Any, depth: int = 0) -> str | None:
    if depth > 6:
        return None
    if isinstance(obj, list):
        for item in obj:
            if found := _jsonld_date(item, depth + 1):
                return found
    elif isinstance(obj, dict):
        v = obj.get("datePublished") or obj.get("dateCreated")
        if isinstance(v, str) and v.strip():
            return v.strip()
        if "@graph" in obj:
            return _jsonld_date(obj["@graph"], depth + 1)
    return None


def _jsonld_types(obj: Any, out: list[str], depth: int = 0) -> None:
    if depth > 6:
        return
    if isinstance(obj, list):
        for item in obj:
            _jsonld_types(item, out, depth + 1)
    elif isinstance(obj, dict):
        t = obj.get("@type")
        for v in t if isinstance(t, list) else [t]:
            if isinstance(v, str) and v:
                v = v.rsplit("/", 1)[-1]
                if v not in out:
                    out.append(v)
        if "@graph" in obj:
            _jsonld_types(obj["@graph"], out, depth + 1)


def read_meta(root: Element, url: str, headers: dict[str, str] | None) -> PageMeta:
    base = url
    for b in root.iter("base"):
        base = _abs(url, b.get("href")) or url
        break
    meta = PageMeta(base_url=base)
    meta.language = _text(root.get("lang") or root.get("xml:lang"))
    og_title = None
    for el in root.iter("meta", "link", "title", "script"):
        tag = el.tag
        if tag == "title":
            if meta.title is None:
                meta.title = _text(text_of(el))
        elif tag == "meta":
            name = (el.get("name") or el.get("property") or "").strip().lower()
            content = el.get("content")
            equiv = (el.get("http-equiv") or "").strip().lower()
            if content is None:
                continue
            if name in ("robots",) or (name.endswith("bot") and name != "bot"):
                if name in ("robots", "googlebot", "bingbot"):
                    apply_robots(meta, content)
            elif (name == "description" and meta.description is None) or (
                name == "og:description" and meta.description is None
            ):
                meta.description = _text(content)
            elif name == "og:type" and meta.og_type is None:
                meta.og_type = _text(content)
            elif name == "og:title":
                og_title = _text(content)
            elif name in _DATE_META and meta.published_raw is None:
                meta.published_raw = content.strip() or None
            elif name == "generator" and meta.generator is None:
                meta.generator = _text(content)
            elif (equiv == "content-language" or name == "content-language") and not meta.language:
                meta.language = _text(content.split(",")[0])
        elif tag == "link":
            rel = (el.get("rel") or "").lower().split()
            if "canonical" in rel and meta.canonical_url is None:
                meta.canonical_url = _abs(base, el.get("href"))
            elif "alternate" in rel and el.get("hreflang"):
                href = _abs(base, el.get("href"))
                if href:
                    meta.hreflang.append((el.get("hreflang", "").strip(), href))
        elif tag == "script" and (el.get("type") or "").strip().lower() == "application/ld+json":
            raw = (el.text or "").strip()
            if raw:
                try:
                    data = json.loads(raw)
                    _jsonld_types(data, meta.jsonld_types)
                    meta.published_raw = meta.published_raw or _jsonld_date(data)
                except (ValueError, RecursionError):
                    pass
    if meta.title is None:
        meta.title = og_title
    if headers:
        for key, value in headers.items():
            k = key.lower()
            if k == "x-robots-tag":
                apply_robots(meta, value)
            elif k == "content-language" and not meta.language:
                meta.language = _text(value.split(",")[0])
    return meta
