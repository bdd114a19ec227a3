"""Main-content selection.

Documentation-like pages (a clear main container holding code or tables, or a known docs
generator) are rendered by our own converter from that container: trafilatura flattens code
nested in lists/definition lists and is slow on big reference pages. Everything else goes
through trafilatura's main-content extraction (best F1 on the article benchmark).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from webcorpus.extract.links import chrome_elements
from webcorpus.extract.markdown import Rendered, code_language, render
from webcorpus.extract.tree import _XML_DECL, Element, text_of


def _first_class(el: Element) -> str:
    cls = (el.get("class") or "").split(None, 1)
    return cls[0] if cls else ""


# Docs containers in order of preference; strong ones are always rendered by us, generic ones
# only when they hold code or tables or the generator is a docs tool (``_first_containers``).
_CONTAINERS: list[tuple[str, bool]] = [
    ('div.body with an <h1> (Sphinx <div class="body" role="main">)', True),
    ("div.rst-content (Read the Docs theme)", True),
    ("article.md-content__inner (MkDocs Material)", True),
    (".theme-doc-markdown (Docusaurus)", True),
    ("div.td-content (Docsy)", True),
    ("div.vp-doc (VitePress)", True),
    ('[itemprop="articleBody"]', False),
    ("main", False),
    ('[role="main"]', False),
    ("article", False),
]


def _first_containers(body: Element) -> tuple[list[Element | None], int]:
    """The first element matching each of ``_CONTAINERS`` (None when none does), and the number
    of <article> elements. One pass; the class attribute is split once per element."""
    first: list[Element | None] = [None] * len(_CONTAINERS)
    articles = 0
    for el in body.iter("div", "main", "article", "section"):
        tag = el.tag
        get = el.get
        cls_attr = get("class")
        if cls_attr:
            cls = cls_attr.split()
            if tag == "div":
                if first[0] is None and "body" in cls and el.find(".//h1") is not None:
                    first[0] = el
                if first[1] is None and "rst-content" in cls:
                    first[1] = el
            elif tag == "article" and first[2] is None and "md-content__inner" in cls:
                first[2] = el
            if first[3] is None and "theme-doc-markdown" in cls:
                first[3] = el
            if tag == "div":
                if first[4] is None and "td-content" in cls:
                    first[4] = el
                if first[5] is None and "vp-doc" in cls:
                    first[5] = el
        if first[6] is None and get("itemprop") == "articleBody":
            first[6] = el
        if tag == "main":
            if first[7] is None:
                first[7] = el
        elif tag == "article":
            articles += 1
            if first[9] is None:
                first[9] = el
        if first[8] is None and get("role") == "main":
            first[8] = el
    return first, articles


_DOCS_GENERATOR = re.compile(
    r"sphinx|docbook|publican|mkdocs|docusaurus|antora|gitbook|"
    r"vitepress|doxygen|javadoc|rustdoc|pdoc",
    re.IGNORECASE,
)
# DocBook XSL (PostgreSQL & co.) and Publican (Red Hat / Debian Handbook) pages: the content is a
# <div class="section|chapter|…"> in <body> between navigation (div.navheader/navfooter,
# ul.docnav) that trafilatura mishandles (it drops the TIP/NOTE sidebars and their code).
_DOCBOOK_GENERATOR = re.compile(r"docbook|publican", re.IGNORECASE)
_DOCBOOK_NAV = frozenset({"navheader", "navfooter", "docnav"})
_DOCBOOK_COMPONENTS = frozenset(
    {
        "set",
        "book",
        "part",
        "partintro",
        "reference",
        "chapter",
        "appendix",
        "preface",
        "article",
        "section",
        "simplesect",
        "sect1",
        "sect2",
        "sect3",
        "sect4",
        "sect5",
        "refentry",
        "glossary",
        "bibliography",
        "index",
        "setindex",
        "colophon",
        "dedication",
        "acknowledgements",
        "legalnotice",
        "qandaset",
    }
)
_WS = re.compile(r"\s+")


@dataclass(slots=True)
class MainContent:
    rendered: Rendered
    node: Element | None  # None when trafilatura chose the content


def _text_len(el: Element) -> int:
    return _nonspace_len(text_of(el))


def _nonspace_len(text: str) -> int:
    return len("".join(text.split()))


def docs_container(root: Element, generator: str | None) -> Element | None:
    """A main container to render ourselves, or None to defer to trafilatura."""
    return find_container(root, generator)[0]


def find_container(root: Element, generator: str | None) -> tuple[Element | None, int | None]:
    """``docs_container`` and, when known, the container's ``_text_len`` (reused by
    ``render_container``: the tree does not change in between)."""
    body = root.find("body")
    if body is None:
        return None, None
    first, articles = _first_containers(body)
    docs_gen = bool(generator and _DOCS_GENERATOR.search(generator))
    body_text: str | None = None
    total = 0
    for (_, strong), node in zip(_CONTAINERS, first, strict=True):
        if node is None or (node.tag == "article" and articles > 1):
            continue
        size = _text_len(node)
        if size < 100:
            continue
        if body_text is None:
            body_text = text_of(body)
        # The body's text length bounds its _text_len: the exact count only near the threshold.
        if size < 0.2 * len(body_text):
            total = total or max(_nonspace_len(body_text), 1)
            if size < 0.2 * total:
                continue
        if (
            strong
            or docs_gen
            or node.find(".//pre") is not None
            or (node.find(".//table") is not None and node.find(".//table//table") is None)
        ):
            return node, size
    return docbook_container(body, generator), None


def docbook_container(body: Element, generator: str | None) -> Element | None:
    """DocBook/Publican: the component <div> (the largest when there are several) beside the
    DocBook navigation, else the navigation's parent, else <body> when the generator says
    DocBook. None when the page is not DocBook."""
    scope: Element | None = None
    for el in body.iter("div", "ul"):
        if _first_class(el) in _DOCBOOK_NAV:
            scope = el.getparent()
            break
    if scope is None:
        if not (generator and _DOCBOOK_GENERATOR.search(generator)):
            return None
        scope = body
    components = [
        el
        for el in scope
        if isinstance(el.tag, str) and el.tag == "div" and _first_class(el) in _DOCBOOK_COMPONENTS
    ]
    if not components:
        return scope
    return components[0] if len(components) == 1 else max(components, key=_text_len)


def _strip_chrome(
    node: Element, chrome: list[Element] | None = None, total: int | None = None
) -> None:
    """Drop navigation/sidebars/footers nested in the content node; a "chrome" element holding a
    large share of the text is a misleading class name, not chrome, and stays.

    ``chrome``: ``chrome_elements()`` of the tree (or of ``node``), computed before any change;
    ``total``: ``_text_len(node)`` when known."""
    if chrome is None:
        chrome = chrome_elements(node)
    elif chrome:
        # Keep the elements strictly inside ``node`` (an ancestor walk each: chrome is rare).
        chrome = [el for el in chrome if any(a is node for a in el.iterancestors())]
    # nav, footer and aside always; header, main and article only when not chrome by tag.
    doomed = [el for el in chrome if el is not node and el.tag not in ("header", "main", "article")]
    if not doomed:
        return
    if total is None:
        total = _text_len(node)
    for el in doomed:
        if el.getparent() is not None and _text_len(el) <= 0.25 * total:
            _drop_keep_tail(el)


def _drop_keep_tail(el: Element) -> None:
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def render_container(
    node: Element,
    base_url: str,
    chrome: list[Element] | None = None,
    text_len: int | None = None,
) -> Rendered:
    """Markdown of ``node`` without the chrome nested in it. ``chrome``: ``chrome_elements()`` of
    the unchanged tree when the caller has it; ``text_len``: ``_text_len(node)`` when known."""
    _strip_chrome(node, chrome, text_len)
    return render(node, base_url)


def _pre_languages(root: Element) -> dict[str, str]:
    langs: dict[str, str] = {}
    for pre in root.iter("pre"):
        lang = code_language(pre)
        if lang:
            first = next((ln.strip() for ln in text_of(pre).split("\n") if ln.strip()), "")
            if first:
                langs.setdefault(first, lang)
    return langs


def _annotate_fences(md: str, langs: dict[str, str]) -> str:
    if not langs:
        return md
    lines = md.split("\n")
    inside = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            if not inside and line == "```":
                nxt = next((ln.strip() for ln in lines[i + 1 :] if ln.strip()), "")
                if nxt in langs:
                    lines[i] = "```" + langs[nxt]
            inside = not inside
    return "\n".join(lines)


def trafilatura_markdown(html: str, base_url: str, root: Element) -> str:
    """Main content chosen and rendered by trafilatura (favor_precision: best F1 measured)."""
    import trafilatura

    md = trafilatura.extract(
        _XML_DECL.sub("", html, count=1),
        url=base_url,
        output_format="markdown",
        include_tables=True,
        include_links=True,
        include_formatting=True,
        include_images=False,
        include_comments=False,
        with_metadata=False,
        deduplicate=False,
        favor_precision=True,
    )
    return _annotate_fences(md or "", _pre_languages(root))
