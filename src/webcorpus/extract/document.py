"""The extracted document: what extraction hands to facets, indexing and storage."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal

LinkPosition = Literal["body", "template"]


@dataclass(frozen=True, slots=True)
class Link:
    """A hyperlink found on the page.

    ``url`` is absolute (resolved against the page URL and <base href>), fragment removed,
    not otherwise normalized. ``position`` is ``template`` when the link sits in navigation,
    header, footer, aside, menus or other page chrome; ``body`` when it sits in the main content.
    """

    url: str
    anchor_text: str
    position: LinkPosition
    nofollow: bool = False

    def __reduce__(self) -> tuple[type[Link], tuple[str, str, LinkPosition, bool]]:
        # Pickled as a constructor call: several times cheaper than the field-by-field state of
        # frozen slotted dataclasses (pages cross the process pool with hundreds of links).
        return Link, (self.url, self.anchor_text, self.position, self.nofollow)


@dataclass(frozen=True, slots=True)
class Asset:
    url: str
    kind: Literal["image"]
    alt: str

    def __reduce__(self) -> tuple[type[Asset], tuple[str, Literal["image"], str]]:
        return Asset, (self.url, self.kind, self.alt)  # see Link.__reduce__


@dataclass(slots=True)
class ExtractedDocument:
    title: str | None
    markdown: str
    """Clean markdown of the main content: headings, lists, tables, fenced code (with language
    where known), links."""
    text: str
    """Plain text of the main content (markdown syntax stripped)."""
    canonical_url: str | None = None
    language: str | None = None
    """Declared language: <html lang> or Content-Language meta, as written (e.g. ``en-US``)."""
    hreflang: list[tuple[str, str]] = field(default_factory=list)
    """(hreflang value, absolute URL) pairs from <link rel=alternate hreflang>."""
    description: str | None = None
    published: date | None = None
    noindex: bool = False
    nofollow: bool = False
    assets: list[Asset] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    words: int = 0
    has_code: bool = False
    jsonld_types: list[str] = field(default_factory=list)
    og_type: str | None = None
