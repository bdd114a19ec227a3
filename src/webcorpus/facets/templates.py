"""Links repeated across a site's pages are template links, wherever extraction placed them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from webcorpus.extract.document import Link


def _norm_anchor(text: str) -> str:
    return " ".join(text.split()).casefold()


def template_link_keys(
    pages_links: Iterable[list[Link]], *, threshold: float = 0.5
) -> set[tuple[str, str]]:
    """(target_url, anchor_text) pairs found on more than ``threshold`` of the pages.

    Each page counts once per pair. Anchor text is compared whitespace-collapsed and
    case-folded, and returned in that normalized form; callers should normalize the same way
    (``" ".join(a.split()).casefold()``) before looking a link up. With fewer than 3 pages nothing
    is called a template link: two pages sharing a link say nothing about the template.
    """
    counts: Counter[tuple[str, str]] = Counter()
    pages = 0
    for links in pages_links:
        pages += 1
        counts.update({(link.url, _norm_anchor(link.anchor_text)) for link in links})
    if pages < 3:
        return set()
    return {key for key, n in counts.items() if n / pages > threshold}
