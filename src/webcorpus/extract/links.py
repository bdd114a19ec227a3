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
    get = el.get
    role = get("role")
    if role and role.lower() in CHROME_ROLES:
        return True
    v = get("class")
    if v and _chrome_name(v):
        return not _docbook_sidebar(el)
    v = get("id")
    if v and _chrome_name(v):
        return not _docbook_sidebar(el)
    return False


def chrome_elements(root: Element) -> list[Element]:
    """Every element of ``root``'s tree (``root`` included) that ``is_chrome``, in document order.

    One pass shared by the link classifier and the content cleaner: ``is_chrome`` inlined, since
    this runs for every element of the page."""
    out: list[Element] = []
    append = out.append
    for el in root.iter():
        if el.tag in CHROME_TAGS:
            append(el)
            continue
        items = el.items()  # one call for all attributes; most elements have one or none
        if not items:
            continue
        if len(items) == 1:
            name, value = items[0]
            if name == "class" or name == "id":
                if value and _chrome_name(value) and not _docbook_sidebar(el):
                    append(el)
            elif name == "role" and value and value.lower() in CHROME_ROLES:
                append(el)
            continue
        role = cls = id_ = None
        for name, value in items:
            if name == "class":
                cls = value
            elif name == "id":
                id_ = value
            elif name == "role":
                role = value
        if role and role.lower() in CHROME_ROLES:
            append(el)
            continue
        for value in (cls, id_):
            if value and _chrome_name(value):
                if not _docbook_sidebar(el):
                    append(el)
                break
    return out


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


def _chrome_links(
    main: Element | None, chrome: list[Element], inside: set[Element]
) -> set[Element]:
    """The <a> elements that ``_in_chrome`` would call chrome: those whose nearest ancestor among
    the chrome elements and ``main`` is a chrome element (``main`` itself never counts).
    ``inside``: the <a> elements of ``main`` (``main`` included when it is one)."""
    out: set[Element] = set()
    above_main = set(main.iterancestors()) if main is not None else set()
    for c in chrome:
        if c is main:
            continue
        anchors = c.iter("a")
        if c in above_main:
            # Links inside main stop at main (unless a chrome element below main is nearer).
            out.update(a for a in anchors if a is not c and (a is main or a not in inside))
        else:
            out.update(a for a in anchors if a is not c)
    return out


def extract_links(
    root: Element,
    base_url: str,
    main: Element | None,
    main_text: str | None = None,
    chrome: list[Element] | None = None,
) -> list[Link]:
    """All http(s) links. ``main``: the content node when known (links outside it that are not
    chrome count as template too); ``main_text``: the extracted text when the node is unknown
    (a non-chrome link whose anchor text is absent from it counts as template). ``chrome``:
    ``chrome_elements(root)`` when the caller has it already."""
    inside: set[Element] = set(main.iter("a")) if main is not None else set()
    in_chrome = _chrome_links(main, chrome_elements(root) if chrome is None else chrome, inside)
    norm_text = _WS.sub(" ", main_text) if main_text else None
    links: list[Link] = []
    append = links.append
    resolve = resolver(base_url).resolve
    for a in root.iter("a"):
        get = a.get
        href = get("href")
        if not href:
            continue
        url = resolve(href.strip())
        if not url.startswith(("http://", "https://")):
            continue
        # " ".join(s.split()) == _WS.sub(" ", s).strip(): \s and str.split() agree on whitespace.
        text = " ".join(text_of(a).split())
        if not text:
            img = a.find(".//img")
            text = " ".join((img.get("alt") or "").split()) if img is not None else ""
        text = text or " ".join((get("title") or get("aria-label") or "").split())
        template = a in in_chrome
        if (not template and main is not None and a not in inside) or (
            not template and norm_text is not None and text and text not in norm_text
        ):
            template = True
        rel = get("rel")
        append(
            Link(
                url=url,
                anchor_text=text[:500],
                position="template" if template else "body",
                nofollow="nofollow" in rel.lower().split() if rel else False,
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
