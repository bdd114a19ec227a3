"""Sitemap parsing: formats, gzip, limits, malformed and hostile XML."""

from __future__ import annotations

import gzip
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webcorpus.crawl.sitemaps import (
    default_sitemap_urls,
    gunzip_capped,
    parse_lastmod,
    parse_sitemap,
)

SM = "https://example.com/sitemap.xml"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*entries: str, ns: str = NS) -> bytes:
    body = "".join(entries)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {ns}>{body}</urlset>'.encode()


def test_urlset_with_namespace() -> None:
    body = urlset(
        "<url><loc>https://example.com/</loc><lastmod>2024-05-06</lastmod></url>",
        "<url><loc>\n  https://example.com/docs/intro  \n</loc>"
        "<lastmod>2023-01-02T10:20:30+02:00</lastmod><priority>0.5</priority></url>",
        "<url><loc>https://example.com/no-date</loc></url>",
    )
    res = parse_sitemap(body, SM)
    assert res.error is None
    assert res.kind == "urlset"
    assert [(e.loc, e.lastmod) for e in res.urls] == [
        ("https://example.com/", date(2024, 5, 6)),
        ("https://example.com/docs/intro", date(2023, 1, 2)),
        ("https://example.com/no-date", None),
    ]
    assert res.children == []


def test_urlset_without_namespace_and_prefixed_namespace() -> None:
    plain = urlset("<url><loc>https://example.com/a</loc></url>", ns="")
    assert [e.loc for e in parse_sitemap(plain, SM).urls] == ["https://example.com/a"]
    prefixed = (
        b'<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<sm:url><sm:loc>https://example.com/b</sm:loc></sm:url></sm:urlset>"
    )
    assert [e.loc for e in parse_sitemap(prefixed, SM).urls] == ["https://example.com/b"]


def test_extension_namespaces_are_ignored() -> None:
    body = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        b'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
        b'xmlns:xhtml="http://www.w3.org/1999/xhtml">'
        b"<url><loc>https://example.com/p</loc>"
        b'<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/p"/>'
        b"<image:image><image:loc>https://example.com/i.png</image:loc></image:image>"
        b"</url></urlset>"
    )
    assert [e.loc for e in parse_sitemap(body, SM).urls] == ["https://example.com/p"]


def test_sitemap_index() -> None:
    body = (
        f"<sitemapindex {NS}>"
        "<sitemap><loc>https://example.com/sm-1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>"
        "<sitemap><loc>/sm-2.xml</loc></sitemap>"
        "<sitemap><loc>https://example.com/sm-1.xml.gz</loc></sitemap>"
        "</sitemapindex>"
    ).encode()
    res = parse_sitemap(body, SM)
    assert res.kind == "index"
    assert res.error is None
    assert res.children == ["https://example.com/sm-1.xml.gz", "https://example.com/sm-2.xml"]
    assert res.urls == []


def test_gzip_body_detected_by_magic() -> None:
    body = gzip.compress(urlset("<url><loc>https://example.com/gz</loc></url>"))
    res = parse_sitemap(body, "https://example.com/sitemap.xml.gz")
    assert [e.loc for e in res.urls] == ["https://example.com/gz"]


def test_gzip_bomb_is_refused() -> None:
    bomb = gzip.compress(b" " * (2 * 1024 * 1024))
    res = parse_sitemap(bomb, SM, max_decompressed_bytes=1024 * 1024)
    assert res.error and "larger than" in res.error
    assert res.urls == []
    with pytest.raises(ValueError):
        gunzip_capped(bomb, 1024)


def test_oversized_plain_body_is_refused() -> None:
    res = parse_sitemap(b"https://example.com/\n" * 100, SM, max_decompressed_bytes=1000)
    assert res.error and "larger than" in res.error


def test_corrupt_gzip() -> None:
    res = parse_sitemap(b"\x1f\x8b\x08\x00garbage", SM)
    assert res.error and "gzip" in res.error


def test_plain_text_sitemap() -> None:
    body = (
        b"\xef\xbb\xbfhttps://example.com/a\r\n"
        b"  https://example.com/b  \n"
        b"\n# comment\nnot a url\nftp://example.com/c\nhttps://example.com/a\n"
    )
    res = parse_sitemap(body, "https://example.com/sitemap.txt")
    assert res.kind == "text"
    assert res.error is None
    assert [e.loc for e in res.urls] == ["https://example.com/a", "https://example.com/b"]


def test_plain_text_without_urls_is_an_error() -> None:
    res = parse_sitemap(b"hello\nworld\n", SM)
    assert res.error and "no URLs" in res.error


def test_rss_and_atom_feeds() -> None:
    rss = (
        b'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>'
        b"<item><link>https://example.com/post-1</link>"
        b"<pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>"
        b"<item><link>https://example.com/post-2</link></item></channel></rss>"
    )
    res = parse_sitemap(rss, "https://example.com/feed.xml")
    assert res.kind == "rss"
    assert [(e.loc, e.lastmod) for e in res.urls] == [
        ("https://example.com/post-1", date(2003, 6, 10)),
        ("https://example.com/post-2", None),
    ]
    atom = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>'
        b'<entry><link rel="self" href="https://example.com/self"/>'
        b'<link href="https://example.com/e1"/><updated>2005-07-31T12:29:29Z</updated></entry>'
        b'<entry><link rel="alternate" href="/e2"/></entry></feed>'
    )
    res = parse_sitemap(atom, "https://example.com/atom.xml")
    assert res.kind == "atom"
    assert [(e.loc, e.lastmod) for e in res.urls] == [
        ("https://example.com/e1", date(2005, 7, 31)),
        ("https://example.com/e2", None),
    ]


def test_truncated_xml_is_recovered() -> None:
    body = urlset(
        "<url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url>"
    )[:-30]
    res = parse_sitemap(body, SM)
    assert [e.loc for e in res.urls][:1] == ["https://example.com/1"]
    assert res.error and "malformed XML" in res.error


def test_garbage_xml_reports_error() -> None:
    res = parse_sitemap(b"<<<>>>\x00\x01", SM)
    assert res.error is not None
    assert res.urls == []


def test_html_is_not_a_sitemap() -> None:
    res = parse_sitemap(b"<html><body><a href='/x'>x</a></body></html>", SM)
    assert res.error and "not a sitemap" in res.error


def test_empty_body() -> None:
    assert parse_sitemap(b"", SM).error == "empty sitemap"
    assert parse_sitemap(b"  \n ", SM).error == "empty sitemap"


def test_xxe_external_entity_not_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    body = (
        f'<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file://{secret}">]>'
        f"<urlset {NS}><url><loc>https://example.com/&xxe;</loc></url></urlset>"
    ).encode()
    res = parse_sitemap(body, SM)
    assert all("TOPSECRET" not in e.loc for e in res.urls)


def test_billion_laughs_not_expanded() -> None:
    entities = '<!ENTITY lol0 "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">' for i in range(1, 10)
    )
    body = (
        f'<?xml version="1.0"?><!DOCTYPE urlset [{entities}]>'
        f"<urlset {NS}><url><loc>https://example.com/&lol9;</loc></url>"
        f"<url><loc>https://example.com/ok</loc></url></urlset>"
    ).encode()
    res = parse_sitemap(body, SM)
    # libxml2 stops at the amplification limit: nothing expanded, the damage is reported
    assert all(len(e.loc) < 100 for e in res.urls)
    assert res.error and "malformed XML" in res.error


def test_max_urls_truncates() -> None:
    body = urlset(*(f"<url><loc>https://example.com/{i}</loc></url>" for i in range(100)))
    res = parse_sitemap(body, SM, max_urls=10)
    assert len(res.urls) == 10
    assert res.truncated
    full = parse_sitemap(body, SM)
    assert len(full.urls) == 100
    assert not full.truncated


def test_non_http_and_foreign_hosts() -> None:
    body = urlset(
        "<url><loc>javascript:alert(1)</loc></url>",
        "<url><loc>mailto:a@example.com</loc></url>",
        "<url><loc>https://other.example.org/x</loc></url>",
        "<url><loc></loc></url>",
        "<url><lastmod>2024-01-01</lastmod></url>",
    )
    # cross-host entries are kept: scope is the runner's decision
    assert [e.loc for e in parse_sitemap(body, SM).urls] == ["https://other.example.org/x"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024", date(2024, 1, 1)),
        ("2024-05", date(2024, 5, 1)),
        ("2024-05-06", date(2024, 5, 6)),
        ("2024-05-06T10:00Z", date(2024, 5, 6)),
        ("2024-05-06T23:59:59.123-08:00", date(2024, 5, 6)),
        ("Tue, 10 Jun 2003 04:00:00 GMT", date(2003, 6, 10)),
        ("2024-13-45", None),
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_lastmod(value: str | None, expected: date | None) -> None:
    assert parse_lastmod(value) == expected


def test_default_sitemap_urls() -> None:
    expected = ["https://example.com/sitemap.xml", "https://example.com/sitemap_index.xml"]
    assert default_sitemap_urls("https://example.com") == expected
    assert default_sitemap_urls("https://Example.com/") == expected
    assert default_sitemap_urls("https://example.com/some/page?x=1") == expected
    assert default_sitemap_urls("http://127.0.0.1:8080")[0] == "http://127.0.0.1:8080/sitemap.xml"


@settings(max_examples=200, deadline=None)
@given(body=st.binary(max_size=300))
def test_parse_sitemap_never_raises(body: bytes) -> None:
    res = parse_sitemap(body, SM)
    assert all(e.loc.startswith(("http://", "https://")) for e in res.urls)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_parse_sitemap_never_raises_on_xmlish_text(text: str) -> None:
    parse_sitemap(f"<urlset><url><loc>{text}</loc></url></urlset>".encode(), SM)
