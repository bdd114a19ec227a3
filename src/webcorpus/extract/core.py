"""extract(): HTML bytes + URL → ExtractedDocument. Pure, never raises on bad input."""

from __future__ import annotations

import logging
import re
from datetime import date, datetime

from webcorpus.extract.charset import decode_html
from webcorpus.extract.content import find_container, render_container, trafilatura_markdown
from webcorpus.extract.document import Asset, ExtractedDocument
from webcorpus.extract.links import chrome_elements, content_images, extract_links
from webcorpus.extract.markdown import markdown_to_text
from webcorpus.extract.metadata import PageMeta, apply_robots, read_meta
from webcorpus.extract.tree import Element, parse_html

log = logging.getLogger(__name__)

MAX_BYTES = 4 * 1024 * 1024  # larger bodies are truncated before parsing
# trafilatura is superlinear on huge trees: past this many elements we render <body> ourselves.
MAX_TRAFILATURA_ELEMENTS = 25_000
_WORD = re.compile(r"\w+")
_TRAF_CODE = re.compile(r"^```", re.MULTILINE)
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def _empty(url: str, headers: dict[str, str] | None) -> ExtractedDocument:
    doc = ExtractedDocument(title=None, markdown="", text="")
    meta = PageMeta(base_url=url)
    for k, v in (headers or {}).items():
        if k.lower() == "x-robots-tag":
            apply_robots(meta, v)
    doc.noindex, doc.nofollow = meta.noindex, meta.nofollow
    return doc


def _valid(d: date) -> date | None:
    return d if date(1995, 1, 1) <= d <= date.today() else None


def _parse_date(raw: str) -> date | None:
    m = _ISO_DATE.search(raw)
    if m:
        try:
            return _valid(date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            return None
    return None


def _htmldate(html: str, url: str) -> date | None:
    """htmldate, original dates only, fast mode: never falls back to today's date."""
    from htmldate import find_date

    try:
        found = find_date(
            html, url=url, original_date=True, extensive_search=False, outputformat="%Y-%m-%d"
        )
    except Exception:  # htmldate is defensive but not exhaustive on odd trees
        return None
    if not found:
        return None
    try:
        return _valid(datetime.strptime(found, "%Y-%m-%d").date())
    except ValueError:
        return None


def extract(
    html: bytes, url: str, *, headers: dict[str, str] | None = None, with_words: bool = True
) -> ExtractedDocument:
    """Extract main content as markdown plus page metadata and every link. ``with_words``
    False leaves ``words`` at 0, for a caller that splits the text into words anyway and sets
    it with :func:`count_words` (the crawl's pipeline: one pass over the text, not two)."""
    try:
        return _extract(html, url, headers, with_words)
    except Exception:  # last line of defence: one bad page must not stop a crawl
        log.warning("extraction failed for %s", url, exc_info=True)
        return _empty(url, headers)


def count_words(text: str, lower: str | None = None, lower_words: list[str] | None = None) -> int:
    """The ``\\w+`` runs of ``text``. ``lower`` and ``lower_words``: ``text.lower()`` and its
    ``\\w+`` runs, when the caller has them: the same count whenever lowercasing kept the length
    (no code point became two, as U+0130 does), since every code point whose lowercase is one
    code point has the same ``\\w``-ness as it (tests/test_extract.py checks all of Unicode)."""
    if lower is not None and lower_words is not None and len(lower) == len(text):
        return len(lower_words)
    return len(_WORD.findall(text))


def _extract(
    html: bytes, url: str, headers: dict[str, str] | None, with_words: bool = True
) -> ExtractedDocument:
    if not html:
        return _empty(url, headers)
    text = decode_html(html[:MAX_BYTES], headers)
    root = parse_html(text)
    if root is None:
        return _empty(url, headers)
    meta = read_meta(root, url, headers)
    base = meta.base_url
    published = _parse_date(meta.published_raw) if meta.published_raw else None

    node, node_len = find_container(root, meta.generator)
    if node is None and sum(1 for _ in root.iter()) > MAX_TRAFILATURA_ELEMENTS:
        node = root.find("body")
    assets: list[Asset]
    if node is not None:
        chrome = chrome_elements(root)  # before chrome inside the node is stripped
        links = extract_links(root, base, node, chrome=chrome)
        rendered = render_container(node, base, chrome, node_len)
        markdown = rendered.markdown
        assets = rendered.assets
        has_code = rendered.code_blocks > 0 or rendered.inline_code_chars >= 200
        plain = markdown_to_text(markdown)
    else:
        if published is None:
            published = _htmldate(text, url)
        markdown = trafilatura_markdown(text, base, root)
        plain = markdown_to_text(markdown)
        links = extract_links(root, base, None, plain)
        assets = content_images(root, base)
        inline_code = sum(len(m) for m in _INLINE_CODE.findall(markdown))
        has_code = bool(_TRAF_CODE.search(markdown)) or inline_code >= 200

    if published is None and node is not None:
        published = _docs_date(root, url)
    return ExtractedDocument(
        title=meta.title,
        markdown=markdown,
        text=plain,
        canonical_url=meta.canonical_url,
        language=meta.language,
        hreflang=meta.hreflang,
        description=meta.description,
        published=published,
        noindex=meta.noindex,
        nofollow=meta.nofollow,
        assets=assets,
        links=links,
        words=count_words(plain) if with_words else 0,
        has_code=has_code,
        jsonld_types=meta.jsonld_types,
        og_type=meta.og_type,
    )


def _docs_date(root: Element, url: str) -> date | None:
    """Docs pages: a <time datetime> or a date in the URL; full htmldate is too costly here."""
    for t in root.iter("time"):
        raw = t.get("datetime") or ""
        if d := _parse_date(raw):
            return d
    m = re.search(r"/((?:19|20)\d{2})/(\d{1,2})/(\d{1,2})/", url)
    if m:
        try:
            return _valid(date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            return None
    return None
