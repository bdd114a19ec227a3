"""Parsing helpers. We parse with lxml.etree's HTML parser (plain elements, no per-element
Python class lookup: several times cheaper to walk than lxml.html trees)."""

from __future__ import annotations

import re

from lxml import etree
from lxml.etree import _Element as Element

_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, default_doctype=False)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)


def text_of(el: Element) -> str:
    return etree.tostring(el, method="text", encoding="unicode", with_tail=False)


def parse_html(text: str) -> Element | None:
    text = _XML_DECL.sub("", text, count=1).replace("\x00", "")
    if not text.strip():
        return None
    try:
        root = etree.fromstring(text, _PARSER)
    except (etree.ParserError, ValueError, etree.XMLSyntaxError):
        return None
    if root is None or not isinstance(root.tag, str):
        return None
    return root
