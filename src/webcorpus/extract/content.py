"""Main-content selection.

Documentation-like pages (a clear main container holding code or tables, or a known docs
generator) are rendered by our own converter from that container: trafilatura flattens code
nested in lists/definition lists and is slow on big reference pages. Everything else goes
through trafilatura's main-content extraction (best F1 on the article benchmark).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from webcorpus.extract.links import is_chrome
from webcorpus.extract.markdown import Rendered, code_language, render
from webcorpus.extract.tree import _XML_DECL, Element, text_of

# (matcher, always_ours): strong docs containers are always rendered by us; generic ones only
# when they hold code or tables or the generator is a docs tool.
_Match = Callable[[Element], bool]


def _cls(el: Element) -> list[str]:
    return (el.get("class") or "").split()


def _first_class(el: Element) -> str:
    cls = (el.get("class") or "").split(None, 1)
    return cls[0] if cls else ""


_CONTAINERS: list[tuple[_Match, bool]] = [
    # Sphinx (<div class="body" role="main">), RTD theme
    (lambda e: e.tag == "div" and "body" in _cls(e) and e.find(".//h1") is not None, True),
    (lambda e: e.tag == "div" and "rst-content" in _cls(e), True),
    (lambda e: e.tag == "article" and "md-content__inner" in _cls(e), True),  # MkDocs Material
    (lambda e: "theme-doc-markdown" in _cls(e), True),  # Docusaurus
    (lambda e: e.tag == "div" and "td-content" in _cls(e), True),  # Docsy
    (lambda e: e.tag == "div" and "vp-doc" in _cls(e), True),  # VitePress
    (lambda e: e.get("itemprop") == "articleBody", False),
    (lambda e: e.tag == "main", False),
    (lambda e: e.get("role") == "main", False),
    (lambda e: e.tag == "article", False),
]
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
    return len("".join(text_of(el).split()))


def docs_container(root: Element, generator: str | None) -> Element | None:
    """A main container to render ourselves, or None to defer to trafilatura."""
    body = root.find("body")
    if body is None:
        return None
    first: list[Element | None] = [None] * len(_CONTAINERS)
    articles = 0
    for el in body.iter("div", "main", "article", "section"):
        if el.tag == "article":
            articles += 1
        for i, (match, _) in enumerate(_CONTAINERS):
            if first[i] is None and match(el):
                first[i] = el
    docs_gen = bool(generator and _DOCS_GENERATOR.search(generator))
    total = 0
    for (_, strong), node in zip(_CONTAINERS, first, strict=True):
        if node is None or (node.tag == "article" and articles > 1):
            continue
        total = total or max(_text_len(body), 1)
        size = _text_len(node)
        if size < 100 or size < 0.2 * total:
            continue
        if (
            strong
            or docs_gen
            or node.find(".//pre") is not None
            or (node.find(".//table") is not None and node.find(".//table//table") is None)
        ):
            return node
    return docbook_container(body, generator)


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


def _strip_chrome(node: Element) -> None:
    """Drop navigation/sidebars/footers nested in the content node; a "chrome" element holding a
    large share of the text is a misleading class name, not chrome, and stays."""
    total = _text_len(node)
    doomed = []
    for el in node.iter():
        if el is node or not isinstance(el.tag, str):
            continue
        if el.tag in ("nav", "footer", "aside") or (
            el.tag not in ("header", "main", "article") and is_chrome(el)
        ):
            doomed.append(el)
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


def render_container(node: Element, base_url: str) -> Rendered:
    _strip_chrome(node)
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
