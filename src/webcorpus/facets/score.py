"""Facets of one page, from its extracted document. Pure CPU, no I/O.

Score definitions (floats in [0, 1], rounded to 3 decimals):

- technicality: how much specialist knowledge the text assumes. Mix of code share (code lines /
  lines), technical vocabulary rate (developer + IT terms per word) and identifier rate (tokens
  like ``snake_case``, ``dotted.names``, ``--flags``, ``/paths``, ``f(x)``). 0 lay reader,
  1 specialist.
- depth: how substantive and specific the page is. Length on a log scale (50 words → 0,
  ~3000 → 1), structure (headings, lists, tables, code) and specificity (share of numbers and
  capitalised names). 0 thin, 1 substantive.
- originality: 1 - duplication. Duplication is the larger of the near-duplicate evidence
  (``max_similarity`` from SimHash, 0 at ≤ 0.75 up to 1 at ≥ 0.95) and the boilerplate share
  (template-link anchor words vs main-content words); very short pages are capped since their
  text is mostly template. 0 duplicated / boilerplate / syndicated, 1 unique in the corpus.
- promotional: density of sales language: calls to action, superlatives and hype words,
  prices and discounts, exclamation marks, second-person address, plus a prior for marketing
  page types. 0 neutral, 1 pure sales copy.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from webcorpus.extract.document import ExtractedDocument
from webcorpus.facets import learned, rules
from webcorpus.facets.code import has_code as page_has_code
from webcorpus.facets.locale import page_locale
from webcorpus.facets.similarity import SimhashIndex
from webcorpus.facets.textstats import Bag, vocab
from webcorpus.facets.vocabulary import TOPIC_KEYWORDS

MAX_TEXT = 8_000
MAX_TOPICS = 5


@dataclass(slots=True)
class Facets:
    type: str
    format: str
    audience: str
    locale: str
    topics: list[str]
    technicality: float
    depth: float
    originality: float
    promotional: float
    has_code: bool
    words: int
    published: date | None
    explain: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        """The facets as the API shows them (``published`` as ISO date), without ``explain``."""
        return {
            "type": self.type,
            "format": self.format,
            "audience": self.audience,
            "locale": self.locale,
            "topics": list(self.topics),
            "technicality": self.technicality,
            "depth": self.depth,
            "originality": self.originality,
            "promotional": self.promotional,
            "has_code": self.has_code,
            "words": self.words,
            "published": self.published.isoformat() if self.published else None,
        }


def _clamp(x: float) -> float:
    return round(min(1.0, max(0.0, x)), 3)


_CAMEL = re.compile(r"[a-z][A-Z]")


def _token_stats(text: str) -> tuple[int, int, int]:
    """(identifier-like tokens, numbers, capitalised names) among whitespace tokens."""
    ident = num = cap = 0
    prev_end = True
    for tok in text.split():
        if tok.isalpha() and tok.islower():  # a plain word: none of the three, not a sentence end
            prev_end = False
            continue
        t = tok.strip(",;:()[]{}\"'")
        if not t:
            continue
        c0 = t[0]
        if c0.isdigit():
            num += 1
        elif (
            "_" in t
            or "()" in tok
            or t.startswith("--")
            or (c0 == "/" and t.count("/") >= 2)
            or (
                "." in t[1:-1]
                and t.replace(".", "").isalnum()
                and not t[-1].isdigit()
                and t.islower()
            )
            or (c0.islower() and not t.islower() and _CAMEL.search(t))
        ):
            ident += 1
        elif c0.isupper() and not prev_end:
            cap += 1
        prev_end = tok[-1] in ".!?"
    return ident, num, cap


_HYPE = vocab(
    "best",
    "leading",
    "world-class",
    "powerful",
    "seamless*",
    "effortless*",
    "revolutionary",
    "cutting-edge",
    "innovative",
    "unlock*",
    "boost*",
    "supercharge*",
    "transform*",
    "ultimate",
    "exclusive",
    "amazing",
    "incredible",
    "game-changing",
    "trusted by",
    "award-winning",
    "industry-leading",
    "off",
    "limited time",
    "discount*",
    "free",
    "guaranteed",
    "easy",
    "simple",
    "instantly",
    "all-in-one",
    "next-gen",
    "love",
    "loved",
    "deal",
    "deals",
    "save",
    "fastest",
    "smarter",
    "effortless",
)
_YOU = vocab("you", "your", "you'll", "you're", "yours")
_WORD = re.compile(r"\w+")


def _technicality(sig: rules.Signals, ident_n: int, why: list[str]) -> float:
    words = max(sig.words, 1)
    code_share = sig.code_lines / max(sig.lines, 1)
    vocab = (sig.dev_hits + sig.tech_hits) / words
    ident = ident_n / words
    score = (
        0.4 * min(1.0, code_share / 0.3)
        + 0.35 * min(1.0, vocab / 0.04)
        + 0.25 * min(1.0, ident / 0.05)
    )
    why.append(f"code share {code_share:.2f}, tech vocab {vocab:.3f}, identifiers {ident:.3f}")
    return _clamp(score)


def _depth(sig: rules.Signals, num: int, cap: int, why: list[str]) -> float:
    length = 0.0 if sig.words <= 50 else min(1.0, math.log(sig.words / 50) / math.log(60))
    structure = min(
        1.0,
        len(sig.headings) / 8
        + sig.ordered_items / 20
        + sig.table_rows / 20
        + (0.2 if sig.code_lines else 0.0),
    )
    words = max(sig.words, 1)
    specific = min(1.0, (num + cap) / words / 0.12)
    why.append(f"length {length:.2f}, structure {structure:.2f}, specificity {specific:.2f}")
    return _clamp(0.6 * length + 0.2 * structure + 0.2 * specific)


_PROMO_PRIOR = {
    "landing": 0.35,
    "pricing": 0.3,
    "product": 0.3,
    "homepage": 0.25,
    "integration": 0.15,
    "event": 0.15,
    "case_study": 0.15,
    "careers": 0.1,
}


def _promotional(type_: str, sig: rules.Signals, text: str, why: list[str]) -> float:
    words = max(sig.words, 1)
    bag = sig.bag or Bag(text)
    hype = bag.count(_HYPE) / max(bag.n, 1)
    you = bag.count(_YOU) / max(bag.n, 1)
    cta = sig.ctas / max(1.0, words / 100)
    excl = text.count("!") / max(1.0, words / 100)
    price = min(1.0, sig.prices / max(1.0, words / 100) / 2)
    prior = _PROMO_PRIOR.get(type_, 0.0)
    score = (
        prior
        + 0.3 * min(1.0, hype / 0.03)
        + 0.15 * min(1.0, you / 0.04)
        + 0.15 * min(1.0, cta / 1.0)
        + 0.05 * min(1.0, excl / 1.0)
        + 0.1 * price
    )
    why.append(
        f"prior {prior:g}, hype {hype:.3f}, you {you:.3f}, cta/100w {cta:.2f}, "
        f"!/100w {excl:.2f}, prices {sig.prices}"
    )
    return _clamp(score)


def boilerplate_share(doc: ExtractedDocument, words: int | None = None) -> float:
    """Template-link anchor words / (those + main-content words): how much of the page is chrome."""
    template_words = sum(
        len(link.anchor_text.split()) for link in doc.links if link.position == "template"
    )
    main = doc.words if words is None else words
    return template_words / max(1, template_words + main)


def originality_from(
    boilerplate_share: float, max_similarity: float, words: int | None = None
) -> float:
    """Originality in [0, 1] from the page's boilerplate share and its highest SimHash
    ``similarity()`` to another page of the corpus (0.0 when there is none).

    Near-duplicate evidence counts from 0 at similarity ≤ 0.75 up to 1 at ≥ 0.95; boilerplate
    weighs 0.8; the larger of the two is taken. Pages under 100 words are capped (their text is
    mostly template). Pass ``words`` to apply that cap.
    """
    dup = min(1.0, max(0.0, (max_similarity - 0.75) / 0.2))
    score = 1.0 - max(dup, 0.8 * boilerplate_share)
    if words is not None and words < 100:
        score = min(score, 0.3 + 0.7 * words / 100)
    return _clamp(score)


def max_similarity(simhash: int | None, others: Iterable[int | None]) -> float:
    """Highest ``similarity(simhash, other)`` over ``others`` (0.0 when there are none).
    A crawl asks this once per page: it uses a ``SimhashIndex`` instead."""
    index = SimhashIndex((str(i), o) for i, o in enumerate(others))
    return index.max_similarity(simhash)


def _originality(
    doc: ExtractedDocument, sig: rules.Signals, max_sim: float, why: list[str]
) -> float:
    boiler = boilerplate_share(doc, sig.words)
    dup = min(1.0, max(0.0, (max_sim - 0.75) / 0.2))
    why.append(f"max similarity {max_sim:.3f} -> dup {dup:.2f}, boilerplate {boiler:.2f}")
    return originality_from(boiler, max_sim, sig.words)


def _topic_index() -> tuple[
    dict[str, list[str]], dict[str, list[str]], list[tuple[str, str]], set[int]
]:
    exact: dict[str, list[str]] = {}
    stems: dict[str, list[str]] = {}
    phrases: list[tuple[str, str]] = []
    for topic, kws in TOPIC_KEYWORDS.items():
        for kw in kws:
            if " " in kw or "-" in kw or "/" in kw:
                phrases.append((" ".join(_WORD.findall(kw.lower())), topic))
            elif kw.endswith("*"):
                stems.setdefault(kw[:-1], []).append(topic)
            else:
                exact.setdefault(kw, []).append(topic)
    return exact, stems, phrases, {len(k) for k in stems}


_EXACT, _STEMS, _PHRASES, _STEM_LENS = _topic_index()


def _topics(doc: ExtractedDocument, bag: Bag, why: list[str]) -> list[str]:
    if not bag.n:
        return []
    counts = bag.counts
    head = set(_WORD.findall(" ".join([doc.title or "", doc.description or ""]).lower()))
    scores: dict[str, float] = {}

    def hit(topics: list[str], n: float) -> None:
        for topic in topics:
            scores[topic] = scores.get(topic, 0.0) + n

    for tok, n in counts.items():
        bonus = 3 if tok in head else 0
        if tok in _EXACT:
            hit(_EXACT[tok], n + bonus)
        for k in _STEM_LENS:
            if len(tok) >= k and tok[:k] in _STEMS:
                hit(_STEMS[tok[:k]], n + bonus)
    for phrase, topic in _PHRASES:
        n = bag.joined.count(" " + phrase + " ")
        if n:
            hit([topic], n)
    per_k = 1000 / max(bag.n, 200)
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    chosen = []
    for topic, sc in ranked[:MAX_TOPICS]:
        if sc >= 4 and sc * per_k >= 6:
            chosen.append(topic)
            why.append(f"{topic}: {sc:g} keyword hits ({sc * per_k:.1f}/1000 words)")
    return chosen


def _type_format_audience(
    doc: ExtractedDocument, url: str, sig: rules.Signals, explain: dict[str, list[str]]
) -> tuple[str, str, str]:
    """Rules first; the learned model (:mod:`webcorpus.facets.learned`) votes on the type like
    one more signal and replaces a weak format / audience rule when it is confident. What it
    said is recorded in ``explain`` either way."""
    has_date = doc.published is not None
    model = learned.get_model()
    z = model.logits(learned.page_features(doc, sig, has_date)) if model is not None else None
    vote = model.predict("type", z) if model is not None and z is not None else None
    scores = rules.type_scores(doc, url, sig, has_date, explain["type"])
    type_ = rules.decide_type(scores, explain["type"], (vote.label, vote.prob) if vote else None)
    fmt, fmt_strong = rules.classify_format(doc, url, type_, sig, explain["format"])
    audience, aud_strong = rules.classify_audience(doc, url, type_, sig, explain["audience"])
    if model is None or z is None:
        return type_, fmt, audience
    decided = []
    for head, label, strong in (("format", fmt, fmt_strong), ("audience", audience, aud_strong)):
        pred = model.predict(head, z, type_)
        why = explain[head]
        if pred.label == label:
            why.append(f"{pred.reason()} (agrees)")
        elif strong or pred.prob < rules.MODEL_OVERRIDE_P[head]:
            why.append(f"{pred.reason()} (not used: {'strong rule' if strong else 'unsure'})")
        else:
            why.append(f"{pred.label}: model p={pred.prob:.2f} overrides weak rule {label}")
            label = pred.label
        decided.append(label)
    return type_, decided[0], decided[1]


def score_page(
    doc: ExtractedDocument,
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    sitemap_lastmod: date | None = None,
    max_similarity: float = 0.0,
) -> Facets:
    """All facets of one page. ``max_similarity``: highest ``similarity()`` to another page."""
    text = doc.text[:MAX_TEXT]
    md = doc.markdown[:MAX_TEXT]
    explain: dict[str, list[str]] = {
        k: []
        for k in (
            "type",
            "format",
            "audience",
            "locale",
            "topics",
            "technicality",
            "depth",
            "originality",
            "promotional",
            "has_code",
            "published",
        )
    }
    sig = rules.compute_signals(doc, text, md)

    published = doc.published
    if published is not None:
        explain["published"].append("extracted (JSON-LD / meta / htmldate)")
    elif sitemap_lastmod is not None:
        published = sitemap_lastmod
        explain["published"].append("sitemap lastmod")
    else:
        explain["published"].append("no date stated")

    ident_n, num, cap = _token_stats(text)
    type_, fmt, audience = _type_format_audience(doc, url, sig, explain)
    locale = page_locale(
        doc.language, text, url, headers=headers, hreflang=doc.hreflang, explain=explain["locale"]
    )
    has_code, code_why = page_has_code(doc.markdown)
    explain["has_code"].append(code_why)
    return Facets(
        type=type_,
        format=fmt,
        audience=audience,
        locale=locale,
        topics=_topics(doc, sig.bag or Bag(text), explain["topics"]),
        technicality=_technicality(sig, ident_n, explain["technicality"]),
        depth=_depth(sig, num, cap, explain["depth"]),
        originality=_originality(doc, sig, max_similarity, explain["originality"]),
        promotional=_promotional(type_, sig, text, explain["promotional"]),
        has_code=has_code,
        words=sig.words,
        published=published,
        explain=explain,
    )
