"""Body citations: which internal links count toward ``inlinks_body``."""

from __future__ import annotations

from webcorpus.store import Store

TEMPLATE_SHARE = 0.5
MIN_PAGES = 4


def template_keys(store: Store, domain: str) -> set[tuple[str, str]]:
    """(target URL, anchor) pairs repeated on more than half of a site's pages.

    Extraction already marks links inside nav/header/footer/aside as template; this catches
    template links that sit outside those elements (e.g. a "Next" link on every page).
    """
    return store.repeated_links(domain, TEMPLATE_SHARE, MIN_PAGES)


def recompute(store: Store, domain: str) -> None:
    store.recompute_inlinks(domain, template_keys(store, domain))
