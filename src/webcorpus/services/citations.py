"""Body citations: which internal links count toward ``inlinks_body``."""

from __future__ import annotations

from collections import defaultdict

from webcorpus.store import Store

TEMPLATE_SHARE = 0.5
MIN_PAGES = 4


def template_keys(store: Store, domain: str) -> set[tuple[str, str]]:
    """(target URL, anchor) pairs repeated on more than half of a site's pages.

    Extraction already marks links inside nav/header/footer/aside as template; this catches
    template links that sit outside those elements (e.g. a "Next" link on every page).
    """
    links = store.domain_links(domain)
    pages = {src for src, *_ in links}
    if len(pages) < MIN_PAGES:
        return set()
    per_key: dict[tuple[str, str], set[str]] = defaultdict(set)
    for src, target, anchor, _position in links:
        per_key[(target, anchor)].add(src)
    limit = TEMPLATE_SHARE * len(pages)
    return {key for key, srcs in per_key.items() if len(srcs) > limit}


def recompute(store: Store, domain: str) -> None:
    store.recompute_inlinks(domain, template_keys(store, domain))
