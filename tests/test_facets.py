from __future__ import annotations

import random
from datetime import date
from typing import Any

from webcorpus.extract.document import ExtractedDocument, Link
from webcorpus.facets import (
    AUDIENCES,
    FORMATS,
    TOPICS,
    TYPES,
    score_page,
    simhash64,
    similarity,
    template_link_keys,
)

GERMAN = (
    "Mit einem SSH-Schlüssel melden Sie sich ohne Passwort an Ihrem Server an. So erstellen Sie "
    "einen Schlüssel und hinterlegen ihn in der Konsole. Öffnen Sie ein Terminal auf Ihrem Rechner "
    "und führen Sie den folgenden Befehl aus. Bestätigen Sie den vorgeschlagenen Speicherort. Der "
    "öffentliche Schlüssel liegt danach in Ihrem Benutzerverzeichnis. Klicken Sie in der Konsole "
    "auf Sicherheit und fügen Sie den Inhalt der Datei ein."
)
ENGLISH = (
    "When we started the company, creating a copy of a large database took forty minutes. Today "
    "it takes milliseconds regardless of size. This post explains the copy-on-write storage layer "
    "that made it possible, what it cost us in write amplification, and how garbage collection "
    "works when many branches share the same pages of data over a long period of time."
)


def doc(text: str, **kw: Any) -> ExtractedDocument:
    md = kw.pop("markdown", text)
    title = kw.pop("title", None)
    return ExtractedDocument(title=title, markdown=md, text=text, words=len(text.split()), **kw)


def test_pricing_page_is_pricing() -> None:
    text = (
        "Simple pricing. Free $0 / month, 1 project. Launch $19 / month, 10 projects. "
        "Scale $69 / month, 50 projects, billed annually. Enterprise: contact sales."
    )
    f = score_page(doc(text, title="Pricing | Stackmint"), "https://stackmint.io/pricing")
    assert f.type == "pricing"
    assert f.format == "landing"
    assert any("pricing" in s for s in f.explain["type"])


def test_jobposting_jsonld_is_job_for_job_seekers() -> None:
    text = "We are looking for a storage engineer to work on our page server. " * 5
    f = score_page(
        doc(text, title="Senior Storage Engineer", jsonld_types=["JobPosting"]),
        "https://example.com/some/page",
    )
    assert f.type == "job"
    assert f.audience == "job_seekers"


def test_wrong_declared_language_is_corrected() -> None:
    f = score_page(doc(GERMAN, language="en"), "https://docs.example.de/server/ssh")
    assert f.locale == "de"
    assert any("ignored en" in s for s in f.explain["locale"])


def test_declared_region_kept_when_language_agrees() -> None:
    assert score_page(doc(ENGLISH, language="en-us"), "https://x.example/blog/a").locale == "en-US"
    # A region from the URL path completes a region-less declaration of the same language.
    f = score_page(doc(ENGLISH, language="en"), "https://x.example/en-gb/blog/a")
    assert f.locale == "en-GB"
    # Content-Language header used when the page declares nothing.
    f = score_page(doc(GERMAN), "https://x.example/a", headers={"Content-Language": "de-AT"})
    assert f.locale == "de-AT"


def test_simhash_near_duplicates_high_unrelated_low() -> None:
    rng = random.Random(0)
    vocab = ENGLISH.split() + GERMAN.split()
    a = " ".join(rng.choice(vocab) for _ in range(400))
    b = a.replace(" ", " an hour ", 1) + " Thanks for reading."
    assert similarity(simhash64(a), simhash64(b)) >= 0.85
    assert similarity(simhash64(a), simhash64(ENGLISH + GERMAN)) <= 0.75
    assert similarity(simhash64(a), simhash64(a)) == 1.0
    assert -(2**63) <= simhash64(a) < 2**63


def test_originality_drops_for_near_duplicate() -> None:
    d = doc(ENGLISH * 4)
    unique = score_page(d, "https://x.example/blog/a", max_similarity=0.5).originality
    dup = score_page(d, "https://x.example/blog/a", max_similarity=0.98).originality
    assert unique > 0.9 and dup < 0.2


def test_template_link_keys_finds_repeated_links() -> None:
    nav = [
        Link("https://x.example/pricing", "Pricing", "body"),
        Link("https://x.example/docs", " Docs ", "template"),
    ]
    pages = [[*nav, Link(f"https://x.example/post/{i}", f"Post {i}", "body")] for i in range(10)]
    pages.append([Link("https://x.example/pricing", "pricing", "body")])
    keys = template_link_keys(pages)
    assert keys == {("https://x.example/pricing", "pricing"), ("https://x.example/docs", "docs")}
    assert template_link_keys(pages[:2]) == set()


def test_scores_in_range_and_vocabularies() -> None:
    for text, url in [
        (ENGLISH, "https://x.example/"),
        ("", "https://x.example/a"),
        ("Buy now! Best deal! Free trial! " * 20, "https://x.example/lp/promo"),
    ]:
        f = score_page(doc(text), url)
        for v in (f.technicality, f.depth, f.originality, f.promotional):
            assert 0.0 <= v <= 1.0 and round(v, 3) == v
        assert f.type in TYPES and f.format in FORMATS and f.audience in AUDIENCES
        assert set(f.topics) <= set(TOPICS) and len(f.topics) <= 5
    assert 30 <= len(TOPICS) <= 40


def test_promotional_and_technicality_order() -> None:
    promo = score_page(
        doc(
            "Get started free! The best, most powerful, seamless platform. "
            "Book a demo today and save 50%! " * 5
        ),
        "https://x.example/lp/a",
    )
    tech = "Call `client.list_users(limit=50)`; it returns User objects. " * 10
    ref = score_page(
        doc(tech, markdown="```python\nclient.list_users()\n```\n" + tech),
        "https://x.example/docs/api/users",
    )
    assert promo.promotional > 0.6 > ref.promotional
    assert ref.technicality > promo.technicality
    assert ref.has_code


def test_published_order_never_crawl_date() -> None:
    d = doc(ENGLISH, published=date(2024, 5, 1))
    assert score_page(
        d, "https://x.example/blog/a", sitemap_lastmod=date(2025, 1, 1)
    ).published == date(2024, 5, 1)
    assert score_page(
        doc(ENGLISH), "https://x.example/a", sitemap_lastmod=date(2025, 1, 1)
    ).published == date(2025, 1, 1)
    assert score_page(doc(ENGLISH), "https://x.example/a").published is None
