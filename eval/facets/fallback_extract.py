"""Stand-in for ``webcorpus.extract.extract`` while it is not exported yet.

Only the evaluator uses it; it fills the ExtractedDocument fields facets read, with trafilatura
for the main content, lxml for metadata and link positions, htmldate for the date.
"""

from __future__ import annotations

import json
import re
from datetime import date
from urllib.parse import urldefrag, urljoin

import lxml.html
import trafilatura
from htmldate import find_date

from webcorpus.extract.document import ExtractedDocument, Link

_TEMPLATE_TAGS = {"nav", "header", "footer", "aside"}
_TEMPLATE_HINT = re.compile(r"\b(nav|menu|footer|header|sidebar|breadcrumb|toc)\b", re.I)


def _jsonld(tree: lxml.html.HtmlElement) -> tuple[list[str], str | None]:
    types: list[str] = []
    published: str | None = None

    def walk(node: object) -> None:
        nonlocal published
        if isinstance(node, list):
            for n in node:
                walk(n)
        elif isinstance(node, dict):
            t = node.get("@type")
            for v in t if isinstance(t, list) else [t]:
                if isinstance(v, str):
                    types.append(v)
            if published is None and isinstance(node.get("datePublished"), str):
                published = node["datePublished"]
            for k in ("@graph", "mainEntity", "itemListElement"):
                if k in node:
                    walk(node[k])

    for s in tree.xpath('//script[@type="application/ld+json"]/text()'):
        try:
            walk(json.loads(s))
        except (ValueError, TypeError):
            continue
    return types, published


def _parse_date(s: str | None) -> date | None:
    if not s:
        return None
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", s.strip())
    if not m:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def _in_template(el: lxml.html.HtmlElement) -> bool:
    for anc in el.iterancestors():
        if anc.tag in _TEMPLATE_TAGS:
            return True
        if anc.get("role") in ("navigation", "banner", "contentinfo"):
            return True
        if _TEMPLATE_HINT.search((anc.get("class") or "") + " " + (anc.get("id") or "")):
            return True
    return False


def extract(html: bytes, url: str, *, headers: object = None) -> ExtractedDocument:
    tree = lxml.html.fromstring(html)
    md = (
        trafilatura.extract(
            html,
            url=url,
            output_format="markdown",
            include_formatting=True,
            include_links=False,
            include_tables=True,
            favor_recall=True,
        )
        or ""
    )
    txt = trafilatura.extract(html, url=url, favor_recall=True) or ""
    title = (tree.findtext(".//title") or "").strip() or None
    lang = tree.get("lang") or tree.get("{http://www.w3.org/XML/1998/namespace}lang")
    if not lang:
        metas = tree.xpath(
            '//meta[translate(@http-equiv,"CONTENTLANGUAGE","contentlanguage")='
            '"content-language"]/@content'
        )
        lang = metas[0] if metas else None
    hreflang = [
        (h, urljoin(url, u))
        for h, u in zip(
            tree.xpath('//link[@rel="alternate"][@hreflang]/@hreflang'),
            tree.xpath('//link[@rel="alternate"][@hreflang]/@href'),
            strict=False,
        )
    ]
    desc = tree.xpath('//meta[@name="description"]/@content')
    og = tree.xpath('//meta[@property="og:type"]/@content')
    types, ld_pub = _jsonld(tree)
    meta_pub = tree.xpath('//meta[@property="article:published_time"]/@content')
    published = _parse_date(ld_pub) or _parse_date(meta_pub[0] if meta_pub else None)
    if published is None:
        found = find_date(
            html.decode("utf-8", "replace"), url=url, original_date=True, extensive_search=False
        )
        published = _parse_date(found)
    links: list[Link] = []
    for a in tree.xpath("//a[@href]"):
        href = a.get("href", "")
        if href.startswith(("javascript:", "mailto:", "#")):
            continue
        links.append(
            Link(
                url=urldefrag(urljoin(url, href))[0],
                anchor_text=" ".join(a.text_content().split()),
                position="template" if _in_template(a) else "body",
            )
        )
    has_code = "```" in md or (bool(re.search(r"`[^`\n]{2,}`", md)) and bool(tree.xpath("//pre")))
    return ExtractedDocument(
        title=title,
        markdown=md,
        text=txt,
        canonical_url=(tree.xpath('//link[@rel="canonical"]/@href') or [None])[0],
        language=lang,
        hreflang=hreflang,
        description=desc[0] if desc else None,
        published=published,
        links=links,
        words=len(re.findall(r"\w+", txt)),
        has_code=has_code,
        jsonld_types=types,
        og_type=og[0] if og else None,
    )
