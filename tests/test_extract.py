"""webcorpus.extract on saved real doc pages and small hand-made pages."""

from __future__ import annotations

import re
import sys
from datetime import date
from pathlib import Path

import pytest

from webcorpus.extract import ExtractedDocument, count_words, extract
from webcorpus.extract.markdown import markdown_to_text

DATA = Path(__file__).parent / "data" / "extract"
PY_URL = "https://docs.python.org/3.11/library/tomllib.html"
PG_URL = "https://www.postgresql.org/docs/15/datatype-boolean.html"


def _doc(name: str, url: str) -> ExtractedDocument:
    return extract((DATA / name).read_bytes(), url)


def _fences(md: str) -> list[tuple[str, str]]:
    return re.findall(r"^```(\w*)\n(.*?)\n```$", md, flags=re.MULTILINE | re.DOTALL)


def test_sphinx_code_blocks_keep_language_and_content() -> None:
    doc = _doc("python-tomllib.html", PY_URL)
    fences = _fences(doc.markdown)
    assert fences, doc.markdown
    langs = {lang for lang, _ in fences}
    assert "python" in langs
    code = "\n".join(body for _, body in fences)
    assert 'with open("pyproject.toml", "rb") as f:' in code
    assert "    data = tomllib.load(f)" in code  # indentation intact
    assert doc.has_code
    assert doc.title and doc.title.startswith("tomllib")
    assert doc.language == "en"


def test_sphinx_table_rows_intact() -> None:
    doc = _doc("python-tomllib.html", PY_URL)
    rows = [ln for ln in doc.markdown.split("\n") if ln.startswith("| ")]
    assert rows[0].startswith("| TOML") and "Python" in rows[0]
    assert any("| table |" in r and "dict" in r for r in rows)
    assert any("local date-time" in r and "datetime.datetime" in r for r in rows)
    # Each row has the same number of cells as the header.
    widths = {r.count(" | ") for r in rows}
    assert len(widths) == 1


def test_postgres_table_and_programlisting() -> None:
    doc = _doc("pg-datatype-boolean.html", PG_URL)
    assert "| Name | Storage Size | Description |" in doc.markdown
    assert "| `boolean` | 1 byte | state of true or false |" in doc.markdown
    code = "\n".join(body for _, body in _fences(doc.markdown))
    assert "CREATE TABLE test1 (a boolean, b text);" in code
    assert " t | sic est" in code
    assert doc.markdown.startswith("## 8.6. Boolean Type")
    # DocBook navheader/navfooter are not content
    assert "Prev" not in doc.text.split("\n")[0]
    assert "Next" not in doc.markdown[-200:]


def test_postgres_links_positions() -> None:
    doc = _doc("pg-datatype-boolean.html", PG_URL)
    by_text = {(link.anchor_text, link.position) for link in doc.links}
    assert ("Prev", "template") in by_text and ("Home", "template") in by_text
    assert ("Table 8.19", "body") in by_text
    assert all("#" not in link.url for link in doc.links)
    assert all(link.url.startswith("https://www.postgresql.org/") for link in doc.links)


def test_sphinx_nav_links_are_template_and_content_links_body() -> None:
    doc = _doc("python-tomllib.html", PY_URL)
    positions: dict[str, set[str]] = {}
    for link in doc.links:
        positions.setdefault(link.anchor_text, set()).add(link.position)
    assert positions["modules"] == {"template"}  # .related bar
    assert positions["Tomli-W package"] == {"body"}
    assert "template" in positions["next"] or "template" in positions.get("Next topic", set())
    body = [link for link in doc.links if link.position == "body"]
    assert any(link.url == "https://pypi.org/project/tomli-w/" for link in body)


PAGE = """<!doctype html><html lang="de-DE"><head>
<meta charset="utf-8"><title>Hallo Welt</title>
<link rel="canonical" href="/de/artikel">
<link rel="alternate" hreflang="en" href="https://example.com/en/article">
<link rel="alternate" hreflang="x-default" href="/article">
<meta name="description" content="Eine Beschreibung.">
<meta name="robots" content="noindex, follow">
<meta property="og:type" content="article">
<meta property="article:published_time" content="2023-04-05T10:00:00Z">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"NewsArticle","headline":"x"},{"@type":["BreadcrumbList","Thing"]}]}</script>
</head><body>
<header><nav><a href="/">Start</a> <a href="/produkte#top">Produkte</a></nav></header>
<div class="sidebar"><a href="/seitenleiste">Seitenleiste</a></div>
<main><article><h1>Hallo Welt</h1>
<p>Ein Absatz mit einem <a href="/ziel" rel="nofollow">Inhaltslink</a> und <em>Betonung</em>.</p>
<p>Noch ein längerer Absatz, damit der Inhalt nach Inhalt aussieht und nicht nach Navigation.</p>
<img src="/bild.png" alt="Ein Bild">
<pre><code class="language-js">const x = 1;
console.log(x);</code></pre>
<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>
<ul><li>eins</li><li>zwei<ul><li>zwei.eins</li></ul></li></ul>
</article></main>
<footer><a href="mailto:x@example.com">Mail</a> <a href="https://example.com/impressum">Impressum</a></footer>
</body></html>"""


def test_metadata_and_links_on_handmade_page() -> None:
    doc = extract(PAGE.encode(), "https://example.com/de/artikel?x=1")
    assert doc.title == "Hallo Welt"
    assert doc.language == "de-DE"
    assert doc.canonical_url == "https://example.com/de/artikel"
    assert doc.hreflang == [
        ("en", "https://example.com/en/article"),
        ("x-default", "https://example.com/article"),
    ]
    assert doc.description == "Eine Beschreibung."
    assert doc.noindex and not doc.nofollow
    assert doc.og_type == "article"
    assert doc.jsonld_types == ["NewsArticle", "BreadcrumbList", "Thing"]
    assert doc.published == date(2023, 4, 5)
    links = {link.url: link for link in doc.links}
    assert "mailto:x@example.com" not in links
    assert links["https://example.com/produkte"].position == "template"
    assert links["https://example.com/seitenleiste"].position == "template"
    assert links["https://example.com/impressum"].position == "template"
    assert links["https://example.com/ziel"].position == "body"
    assert links["https://example.com/ziel"].nofollow
    assert links["https://example.com/ziel"].anchor_text == "Inhaltslink"
    assert "```javascript\nconst x = 1;\nconsole.log(x);\n```" in doc.markdown
    assert "| A | B |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |" in doc.markdown
    assert "- zwei\n  - zwei.eins" in doc.markdown
    assert "[Inhaltslink](https://example.com/ziel)" in doc.markdown
    assert "Start" not in doc.markdown and "Impressum" not in doc.markdown
    assert doc.assets and doc.assets[0].url == "https://example.com/bild.png"
    assert doc.assets[0].alt == "Ein Bild"
    assert doc.has_code
    assert doc.words == len(re.findall(r"\w+", doc.text))
    assert "](" not in doc.text and "```" not in doc.text


def test_x_robots_tag_header() -> None:
    html = b"<html><head><title>t</title></head><body><p>hello world</p></body></html>"
    doc = extract(html, "https://example.com/", headers={"X-Robots-Tag": "noindex, nofollow"})
    assert doc.noindex and doc.nofollow
    assert not extract(html, "https://example.com/").noindex


def test_charset_from_header_meta_and_detection() -> None:
    body = "<p>Grüße aus Köln, schöne Straße. " * 20 + "</p>"
    latin = f"<html><head><title>Grüße</title></head><body>{body}</body></html>".encode("latin-1")
    doc = extract(
        latin, "https://example.com/", headers={"content-type": "text/html; charset=ISO-8859-1"}
    )
    assert doc.title == "Grüße"
    head = "<title>Grüße</title></head>"
    meta = f'<html><head><meta charset="windows-1252">{head}<body>{body}</body></html>'
    assert extract(meta.encode("cp1252"), "https://example.com/").title == "Grüße"
    # header wins over a wrong meta declaration
    utf = f'<html><head><meta charset="iso-8859-1">{head}<body>{body}</body></html>'
    doc = extract(
        utf.encode(), "https://example.com/", headers={"Content-Type": "text/html;charset=utf-8"}
    )
    assert doc.title == "Grüße"
    # no declaration: detected
    assert extract(latin, "https://example.com/").title == "Grüße"
    # undeclared utf-8
    plain = f"<html><head><title>Grüße</title></head><body>{body}</body></html>".encode()
    assert extract(plain, "https://example.com/").title == "Grüße"


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x00\x01\x02\xff\xfe garbage",
        b"<<<>>>",
        b"<?xml version='1.0' encoding='utf-8'?><html><body><p>x</p></body></html>",
        b"\xff\xfe<\x00h\x00",
        b"<div>" * 5000 + b"deep" + b"</div>" * 5000,
        b"<html><body><table><tr><td colspan='999999'>x</td></tr></table></body></html>",
        b'<html><head><meta charset="bogus-charset"></head><body>\xe9\xe8</body></html>',
        bytes(range(256)) * 100,
    ],
)
def test_garbage_input_does_not_raise(data: bytes) -> None:
    doc = extract(data, "https://example.com/")
    assert isinstance(doc, ExtractedDocument)
    assert isinstance(doc.markdown, str)


def test_huge_input_is_bounded() -> None:
    html = b"<html><body>" + b"<p>lorem ipsum dolor sit amet</p>" * 400_000 + b"</body></html>"
    doc = extract(html, "https://example.com/")
    assert isinstance(doc, ExtractedDocument)


def test_published_date_from_page_text() -> None:
    html = b"""<html><head><title>Release notes</title></head><body>
    <nav><a href="/">Home</a></nav>
    <article><h1>We shipped version 2</h1>
    <p class="byline">Published on <time datetime="2021-09-14">September 14, 2021</time></p>
    <p>Version two brings a faster indexer, a new query language and many fixes that our
    users asked for over the last year. Here is what changed and why it matters.</p>
    <p>The indexer is now three times faster on large sites, thanks to a rewritten parser.</p>
    </article></body></html>"""
    doc = extract(html, "https://example.com/blog/v2")
    assert doc.published == date(2021, 9, 14)
    assert "three times faster" in doc.text


def test_no_date_is_none_not_today() -> None:
    html = (
        b"<html><body><article><p>"
        + b"Timeless content without a date. " * 30
        + b"</p></article></body></html>"
    )
    assert extract(html, "https://example.com/about").published is None


def test_markdown_to_text_strips_markup() -> None:
    md = (
        "# Title\n\nSome **bold** and *em* and [a link](https://x.y/z) and `code`.\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nx = [1](2)\n```"
    )
    text = markdown_to_text(md)
    assert text.startswith("Title\n\nSome bold and em and a link and code.")
    assert "1 2" in text and "---" not in text
    assert "x = [1](2)" in text  # code kept verbatim


HB_URL = "http://debian-handbook.info/browse/{lang}/stable/sect.rights-management.html"


@pytest.mark.parametrize(
    ("lang", "box_titles", "prose"),
    [
        (
            "en-US",
            ("SECURITY", "TIP* Recursive operation", "GOING FURTHER"),
            "Linux is definitely a multi-user system",
        ),
        (
            "fr-FR",
            ("SÉCURITÉ", "ASTUCE* Application récursive", "POUR ALLER PLUS LOIN"),
            "Linux est résolument multi-utilisateur",
        ),
    ],
)
def test_publican_sidebars_and_their_code_are_content(
    lang: str, box_titles: tuple[str, ...], prose: str
) -> None:
    """Debian Handbook (Publican/DocBook): the TIP/SECURITY sidebars and the <pre class=screen>
    inside one are content (trafilatura dropped them); docnav/banner are not."""
    doc = _doc(f"handbook-{lang.split('-')[0]}-rights-management.html", HB_URL.format(lang=lang))
    assert doc.has_code
    assert doc.markdown.startswith("## 9.3. ")
    assert prose in doc.text
    for title in box_titles:
        assert title in doc.markdown, title
    fences = _fences(doc.markdown)
    assert len(fences) == 1
    code = fences[0][1]
    assert "$ chmod u+X test.txt" in code
    assert "-rwxr--r-x 1 daniel daniel 0 18. Nov 01:07 test.txt" in code
    # umask sidebar's inline code kept too
    assert "`umask`" in doc.markdown
    # page chrome (banner, docnav, prev/next) is not content
    for chrome in ("Download the ebook", "Documentation Site", "Product Site", "9.4. ", "9.2. "):
        assert chrome not in doc.markdown
    assert doc.markdown.rstrip().endswith("(5) contains more information.")  # untranslated in fr
    positions = {(link.anchor_text, link.position) for link in doc.links}
    assert ("Download the ebook", "template") in positions
    assert any(pos == "body" and "8.9.4" in text for text, pos in positions)
    assert all(pos == "template" for text, pos in positions if text.startswith(("Prev", "Next")))


DOCBOOK_IN_SITE = """<html><head><title>8.1. Numeric Types</title>
<meta name="generator" content="DocBook XSL Stylesheets V1.79.1"></head><body>
<div class="sidebar" id="site-nav"><ul><li><a href="/about/">About</a></li>
<li><a href="/download/">Download</a></li></ul></div>
<div id="docContent">
<div class="navheader"><table><tr><td><a href="prev.html">Prev</a></td>
<td><a href="next.html">Next</a></td></tr></table></div>
<div class="sect1" id="numeric">
<div class="titlepage"><h2 class="title">8.1. Numeric Types</h2></div>
<p>Numeric types consist of two-, four-, and eight-byte integers, four- and eight-byte
floating-point numbers, and selectable-precision decimals, see <a href="t.html">Table 8.2</a>.</p>
<div class="sidebar"><div class="titlepage"><p class="title"><b>Tip</b></p></div>
<p>Use <code>numeric</code> for money.</p>
<pre class="programlisting">SELECT 1.5::numeric;</pre></div>
</div>
<div class="navfooter"><a href="index.html">Home</a></div>
</div>
<div class="footer">Copyright PostgreSQL</div></body></html>"""


def test_docbook_content_nested_in_site_chrome() -> None:
    """DocBook XSL output embedded in a site layout (as on postgresql.org): the component next
    to the navheader is the content; the site's own sidebar stays chrome, DocBook's is content."""
    doc = extract(DOCBOOK_IN_SITE.encode(), "https://www.example.org/docs/numeric.html")
    assert doc.markdown.startswith("## 8.1. Numeric Types")
    assert "```\nSELECT 1.5::numeric;\n```" in doc.markdown
    assert "**Tip**" in doc.markdown and "Use `numeric` for money." in doc.markdown
    for chrome in ("About", "Download", "Prev", "Next", "Home", "Copyright"):
        assert chrome not in doc.markdown
    positions = {link.anchor_text: link.position for link in doc.links}
    assert positions["Table 8.2"] == "body"
    assert positions["About"] == positions["Prev"] == positions["Home"] == "template"


def test_lowercasing_keeps_every_code_points_word_character_class() -> None:
    """What lets ``count_words`` count the words of ``text.lower()`` instead of ``text``'s: a
    code point whose lowercase is one code point is a ``\\w`` exactly when that lowercase is."""
    word = re.compile(r"\w")
    changed = [
        hex(cp)
        for cp in range(sys.maxunicode + 1)
        if not 0xD800 <= cp <= 0xDFFF
        and len(low := chr(cp).lower()) == 1
        and bool(word.match(chr(cp))) != bool(word.match(low))
    ]
    assert changed == []


@pytest.mark.parametrize(
    "text",
    [
        "Plain words, and_snake 42.",
        "İstanbul İZMİR",  # U+0130 lowercases to two code points: i + combining dot (not \w)
        "ΟΔΟΣ'Α ΣΟΦΟΣ",  # final sigma depends on what follows
        "日本語のテキスト and English",
        "",
    ],
)
def test_count_words_from_the_lowercased_words_matches_the_plain_count(text: str) -> None:
    lower = text.lower()
    lower_words = re.findall(r"\w+", lower)
    assert count_words(text, lower, lower_words) == len(re.findall(r"\w+", text))
    assert count_words(text) == len(re.findall(r"\w+", text))


def test_the_crawl_pipeline_counts_words_as_extract_does() -> None:
    from webcorpus.crawl.pipeline import process_page

    html = (
        "<html lang='tr'><head><title>İzmir</title></head><body><main><h1>İZMİR REHBERİ</h1>"
        "<p>İzmir, Ege Denizi kıyısında bir şehirdir. İnciraltı ve Karşıyaka İlçeleri.</p>"
        "</main></body></html>"
    ).encode()
    url = "https://example.com/izmir"
    page = process_page(html, url, {"content-type": "text/html; charset=utf-8"})
    assert page.doc.words == extract(html, url).words == len(re.findall(r"\w+", page.doc.text))
    assert page.doc.words > 10
