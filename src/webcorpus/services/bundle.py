"""A company's pages as one markdown file that forms a tree.

Each page becomes a level-1 heading (its title) followed by its source URL and its body, with
every heading of the body demoted one level (``#`` -> ``##``; setext headings become ATX), so no
heading inside a page climbs to its page's level. Fenced and indented code is left untouched:
a ``#`` inside a code block is not a heading. The bundle opens with a YAML frontmatter block
(domain, pages_included, pages_left_out, filters) and closes with a line stating how many pages
it left out.

``domain_markdown`` validates at once and returns a lazy iterator that reads pages in batches,
so the HTTP adapter streams bundles of any size without building them in memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

import yaml

from webcorpus.facets.vocabulary import TYPES
from webcorpus.services.clock import now_iso
from webcorpus.services.errors import invalid_param, not_found
from webcorpus.store import Store

BATCH = 20
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_ATX = re.compile(r"^( {0,3})(#{1,6})(?=[ \t]|$)(.*)$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_NOT_PARAGRAPH = re.compile(r"^( {0,3}([>|*+-]|\d{1,9}[.)])(\s|$)| {4,}|\t)")


def demote_headings(markdown: str) -> str:
    """Demote every ATX and setext heading one level (level 6 stays 6), outside code."""
    out: list[str] = []
    fence: str | None = None
    prev_text = False  # the previous line could open a setext heading (paragraph text)
    for line in markdown.split("\n"):
        if fence is not None:
            out.append(line)
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
            continue
        m = _FENCE.match(line)
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = m.group(1)
            out.append(line)
            prev_text = False
            continue
        if not line.strip():
            out.append(line)
            prev_text = False
            continue
        if line.startswith(("    ", "\t")) and not prev_text:
            out.append(line)  # indented code
            continue
        atx = _ATX.match(line)
        if atx:
            level = min(6, len(atx.group(2)) + 1)
            out.append(f"{atx.group(1)}{'#' * level}{atx.group(3)}")
            prev_text = False
            continue
        setext = _SETEXT.match(line)
        if setext and prev_text and out:
            title = out.pop().strip()
            level = 2 if setext.group(1)[0] == "=" else 3
            out.append(f"{'#' * level} {title}")
            prev_text = False
            continue
        out.append(line)
        prev_text = not _NOT_PARAGRAPH.match(line)
    if fence is not None:
        out.append(fence)  # close a dangling fence so it cannot swallow the next page
    return "\n".join(out)


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def render_page(page: dict[str, Any]) -> str:
    title = _one_line(page.get("title")) or page["url"]
    body = demote_headings((page.get("markdown") or "").strip("\n"))
    meta = f"Source: <{page['url']}>"
    return f"# {title}\n\n{meta}\n\n{body}\n\n"


def _frontmatter(domain: str, included: int, left_out: int, filters: dict[str, Any]) -> str:
    data = {
        "domain": domain,
        "pages_included": included,
        "pages_left_out": left_out,
        "filters": filters,
        "generated_at": now_iso(),
    }
    return "---\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True) + "---\n\n"


def _closing(domain: str, included: int, left_out: int) -> str:
    return (
        f"---\n\n*{included} pages of {domain} included; pages_left_out: {left_out}"
        f"{' (raise limit or narrow the filters to see them)' if left_out else ''}.*\n"
    )


def _select(
    store: Store,
    domain: str,
    *,
    limit: int,
    types: Sequence[str] | None,
    technicality_min: float | None,
) -> tuple[list[str], int, dict[str, Any]]:
    types = [t.strip().lower() for t in (types or []) if t.strip()]
    bad = [t for t in types if t not in TYPES]
    if bad:
        raise invalid_param(
            "type", f"unknown value(s) {', '.join(bad)}; allowed: {', '.join(TYPES)}"
        )
    if technicality_min is not None and not 0 <= technicality_min <= 1:
        raise invalid_param("technicality_min", "must be a number from 0 to 1")
    if limit < 1:
        raise invalid_param("limit", "must be at least 1")
    if not store.domain_seen(domain):
        raise not_found(f"domain {domain}")
    ids, total = store.bundle_page_ids(
        domain, types=types, technicality_min=technicality_min, limit=limit
    )
    filters: dict[str, Any] = {"limit": limit}
    if types:
        filters["type"] = types
    if technicality_min is not None:
        filters["technicality_min"] = technicality_min
    return ids, total, filters


def _pages(store: Store, ids: list[str]) -> Iterator[dict[str, Any]]:
    for i in range(0, len(ids), BATCH):
        yield from store.bundle_pages(ids[i : i + BATCH])


def domain_markdown(
    store: Store,
    domain: str,
    *,
    limit: int = 100,
    types: Sequence[str] | None = None,
    technicality_min: float | None = None,
) -> Iterator[str]:
    """The bundle as an iterator of text parts. Raises ServiceError before the first part."""
    ids, total, filters = _select(
        store, domain, limit=limit, types=types, technicality_min=technicality_min
    )

    def parts() -> Iterator[str]:
        included = len(ids)
        yield _frontmatter(domain, included, total - included, filters)
        for page in _pages(store, ids):
            yield render_page(page)
        yield _closing(domain, included, total - included)

    return parts()


def domain_markdown_text(
    store: Store,
    domain: str,
    *,
    limit: int = 100,
    types: Sequence[str] | None = None,
    technicality_min: float | None = None,
    max_chars: int | None = None,
) -> str:
    """The whole bundle as one string. With ``max_chars``, whole pages are kept while they fit
    (at least the first page, cut at max_chars); the rest count as left out."""
    ids, total, filters = _select(
        store, domain, limit=limit, types=types, technicality_min=technicality_min
    )
    rendered: list[str] = []
    size = 0
    truncated = False
    for page in _pages(store, ids):
        text = render_page(page)
        if max_chars is not None and size + len(text) > max_chars:
            if not rendered:
                rendered.append(text[: max(0, max_chars)] + "\n\n[truncated]\n\n")
            truncated = True
            break
        rendered.append(text)
        size += len(text)
    included = len(rendered)
    left_out = total - included
    if truncated:
        filters = {**filters, "max_chars": max_chars}
    return (
        _frontmatter(domain, included, left_out, filters)
        + "".join(rendered)
        + _closing(domain, included, left_out)
    )
