"""Every <a href> on the page, absolute, with its position (page chrome vs main content)."""

from __future__ import annotations

import re
from functools import lru_cache

from webcorpus.extract.document import Asset, Link
from webcorpus.extract.tree import Element, text_of
from webcorpus.extract.urls import resolver

_WS = re.compile(r"\s+")
CHROME_TAGS = frozenset({"nav", "header", "footer", "aside", "menu"})
CHROME_ROLES = frozenset(
    {"navigation", "banner", "contentinfo", "complementary", "menu", "menubar", "search"}
)
_CHROME_CLASS = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|navigation|navheader|navfooter|menu|menubar|megamenu|sidebar|"
    r"sphinxsidebar|sphinxsidebarwrapper|side-?bar|breadcrumbs?|footer|header|masthead|"
    r"related|site-?header|site-?footer|topbar|toolbar|pagination|pager|skip-?links?|"
    r"cookie-?banner|social|share|tags?-?cloud|widget)(?:$|[\s_-])",
    re.IGNORECASE,
)


def _docbook_sidebar(el: Element) -> bool:
    """A DocBook/Publican <sidebar> (TIP/NOTE/SECURITY boxes): class "sidebar" with a titled
    body (a div.titlepage or p.title child): content, not page chrome."""
    if "sidebar" not in (el.get("class") or "").split():
        return False
    for child in el:
        if isinstance(child.tag, str) and (child.get("class") or "").split()[:1] in (
            ["titlepage"],
            ["title"],
        ):
            return True
    return False


@lru_cache(maxsize=16384)
def _chrome_name(value: str) -> bool:
    """Whether a class/id value names chrome (cached: the same values repeat on every page)."""
    return _CHROME_CLASS.search(value) is not None


def is_chrome(el: Element) -> bool:
    """True when the element itself is page template (navigation, header, footer, sidebar …)."""
    if el.tag in CHROME_TAGS:
        return True
    attrib = el.attrib
    role = attrib.get("role")
    if role and role.lower() in CHROME_ROLES:
        return True
    for attr in ("class", "id"):
        v = attrib.get(attr)
        if v and _chrome_name(v):
            return not _docbook_sidebar(el)
    return False


def _in_chrome(a: Element, main: Element | None, cache: dict[Element, bool]) -> bool:
    path: list[Element] = []
    node = a.getparent()
    result = False
    while node is not None:
        if node in cache:
            result = cache[node]
            break
        if main is not None and node is main:
            result = False
            break
        path.append(node)
        if is_chrome(node):
            result = True
            break
        node = node.getparent()
    for n in path:
        cache[n] = result
    return result


def extract_links(
    root: Element,
    base_url: str,
    main: Element | None,
    main_text: str | None = None,
) -> list[Link]:
    """All http(s) links. ``main``: the content node when known (links outside it that are not
    chrome count as template too); ``main_text``: the extracted text when the node is unknown
    (a non-chrome link whose anchor text is absent from it counts as template)."""
    inside: set[Element] = set(main.iter("a")) if main is not None else set()
    cache: dict[Element, bool] = {}
    norm_text = _WS.sub(" ", main_text) if main_text else None
    links: list[Link] = []
    resolve = resolver(base_url).resolve
    for a in root.iter("a"):
        href = a.get("href")
        if not href:
            continue
        url = resolve(href.strip())
        if not url.startswith(("http://", "https://")):
            continue
        text = _WS.sub(" ", text_of(a)).strip()
        if not text:
            img = a.find(".//img")
            text = _WS.sub(" ", img.get("alt") or "").strip() if img is not None else ""
        text = text or _WS.sub(" ", a.get("title") or a.get("aria-label") or "").strip()
        chrome = _in_chrome(a, main, cache)
        if (not chrome and main is not None and a not in inside) or (
            not chrome and norm_text is not None and text and text not in norm_text
        ):
            chrome = True
        rel = (a.get("rel") or "").lower().split()
        links.append(
            Link(
                url=url,
                anchor_text=text[:500],
                position="template" if chrome else "body",
                nofollow="nofollow" in rel,
            )
        )
    return links


def content_images(root: Element, base_url: str) -> list[Asset]:
    """Images outside page chrome, inside <article>/<main>/<figure> when the page has those."""
    scope = None
    for path in (".//article", ".//main", "body"):
        scope = root.find(path)
        if scope is not None:
            break
    if scope is None:
        return []
    cache: dict[Element, bool] = {}
    out: list[Asset] = []
    seen: set[str] = set()
    resolve = resolver(base_url).resolve
    for img in scope.iter("img"):
        src = (img.get("src") or img.get("data-src") or "").strip()
        if not src or src.startswith("data:") or img.get("width") in ("0", "1"):
            continue
        url = resolve(src)
        if not url.startswith(("http://", "https://")) or url in seen:
            continue
        if _in_chrome(img, None, cache):
            continue
        seen.add(url)
        out.append(Asset(url=url, kind="image", alt=_WS.sub(" ", img.get("alt") or "").strip()))
        if len(out) >= 100:
            break
    return out
