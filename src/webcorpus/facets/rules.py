"""Transparent rule scorer for type, format and audience.

Every signal adds a weight to one or more labels and names itself in ``explain``; the label with
the highest total wins when it reaches ``MIN_SCORE``, else ``other`` / ``general``.

The learned model (:mod:`webcorpus.facets.learned`) joins in here: its type vote is one more
weighted signal unless the rules are decisive (``decide_type``), and format / audience report
whether a specific signal decided (``strong``) so that only their fallbacks can be overridden.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from webcorpus.extract.document import ExtractedDocument
from webcorpus.facets.textstats import Bag, vocab

MIN_SCORE = 1.5
# The learned model's vote for a type (see ``decide_type``).
MODEL_MIN_P = 0.5
MODEL_WEIGHT = 2.5
STRONG_SCORE = 3.0
STRONG_MARGIN = 1.0
# Below these probabilities the model never overrides a weak format / audience rule.
MODEL_OVERRIDE_P = {"format": 0.7, "audience": 0.6}

# (regex on the lowercased URL path, label, weight)
_PATH_RULES: list[tuple[re.Pattern[str], str, float]] = [
    (re.compile(p), label, w)
    for p, label, w in [
        (
            r"/(pricing|plans|price|tarifs?|preise|prix|precios|precos|prezzi)(/|\.|$)",
            "pricing",
            3.0,
        ),
        (
            r"/(careers?|jobs|join-us|work-with-us|karriere|emplois?)/?(index\.html?)?$",
            "careers",
            3.0,
        ),
        (r"/(jobs|careers|positions|openings|vacancies)/[^/]+", "job", 2.5),
        (
            r"/(docs?|documentation|manual|handbook|guides?|tutorials?|learn|howto|kb-docs|dokumentation)(/|$)",
            "docs",
            2.0,
        ),
        (
            r"/(api|reference|sdk|cli|library|c-api)(/|$)|/sql-[a-z]+\.html?$|/api-"
            r"|/(functions?|runtime-config|config-reference)[-/.]",
            "api_reference",
            2.0,
        ),
        (r"/(blog|blogs|posts?|articles?|journal|stories)(/|$)", "blog", 2.5),
        (r"/(news|press|newsroom|press-releases?|media-center)(/|$)", "news", 2.5),
        (
            r"/(case-stud(y|ies)|customers?|customer-stories|success-stories)(/|$)",
            "case_study",
            3.0,
        ),
        (
            r"/(about(-us)?|company|team|leadership|mission|our-story|ueber-uns)(/|\.|$)",
            "about",
            3.0,
        ),
        (r"/(contact(-us)?|kontakt|talk-to-sales|contact-sales)(/|\.|$)", "contact", 3.0),
        (
            r"/(legal|privacy|terms|tos|cookies?|imprint|impressum|gdpr|dpa|licen[cs]e|copyright|trust|"
            r"datenschutz|agb|mentions-legales|conditions-generales[\w-]*|aviso-legal|privacidad|"
            r"security-policy|acceptable-use|privacy-policy|terms-of-service)(/|\.|-|$)",
            "legal",
            3.0,
        ),
        (
            r"/(support|help|faq|kb|knowledge-?base|troubleshooting|status|hilfe|ayuda|aide|ajuda)(/|\.|$)",
            "support",
            2.5,
        ),
        (
            r"/(changelog|release-?notes|releases|whatsnew|whats-new|updates|changes)(/|\.|$)|/release-\d",
            "changelog",
            3.0,
        ),
        (r"/(events?|webinars?|conference|summit|meetups?|workshops?)(/|$)", "event", 3.0),
        (
            r"/(integrations?|apps|marketplace|connectors?|plugins?|extensions)(/|$)",
            "integration",
            3.0,
        ),
        (r"/(products?|features?|platform|solutions?|services)(/|$)", "product", 2.5),
        (r"/(lp|landing|campaigns?|get-started|try|demo|offers?|promo)(/|$)", "landing", 3.0),
        (
            r"/(tags?|category|categories|archives?|page/\d+|search|sitemap|genindex|topics)(/|$)",
            "listing",
            3.0,
        ),
        (r"/(investors?|ir)(/|$)", "about", 2.0),
        (r"/(genindex|(py-)?modindex)", "listing", 5.0),
        (r"/(partners?|partner-program(me)?|affiliates?|resellers?)(/|$)", "landing", 2.0),
    ]
]
_HOST_RULES: list[tuple[re.Pattern[str], str, float]] = [
    (re.compile(r"^(docs|developers?|dev|manual|handbook|learn)\.|handbook|-docs\."), "docs", 2.0),
    (re.compile(r"^blog\."), "blog", 2.5),
    (re.compile(r"^(news|press|newsroom)\."), "news", 2.5),
    (re.compile(r"^(help|support|status|community)\."), "support", 2.5),
    (re.compile(r"^(jobs|careers)\."), "careers", 2.0),
]
_JSONLD: dict[str, list[tuple[str, float]]] = {
    "jobposting": [("job", 5.0)],
    "product": [("product", 3.0)],
    "offer": [("pricing", 1.0), ("product", 0.5)],
    "aggregateoffer": [("pricing", 1.5)],
    "blogposting": [("blog", 3.0)],
    "newsarticle": [("news", 3.0)],
    "reportagenewsarticle": [("news", 3.0)],
    "analysisnewsarticle": [("news", 3.0)],
    "opinionnewsarticle": [("news", 3.0)],
    "faqpage": [("support", 2.0)],
    "qapage": [("support", 2.0)],
    "howto": [("docs", 2.0)],
    "techarticle": [("docs", 2.5)],
    "apireference": [("api_reference", 4.0)],
    "event": [("event", 4.0)],
    "educationevent": [("event", 4.0)],
    "businessevent": [("event", 4.0)],
    "aboutpage": [("about", 3.0)],
    "contactpage": [("contact", 3.0)],
    "collectionpage": [("listing", 2.0)],
    "searchresultspage": [("listing", 3.0)],
    "softwareapplication": [("product", 2.0)],
}
_TITLE_RULES: list[tuple[re.Pattern[str], str, float]] = [
    (re.compile(p, re.I), label, w)
    for p, label, w in [
        (r"\b(pricing|plans? (and|&) pricing|compare plans)\b", "pricing", 2.5),
        (r"\b(careers?|join our team|open positions|we'?re hiring|jobs at)\b", "careers", 2.0),
        (
            r"\b(privacy|terms (of|and) (service|use)|cookie policy|legal notice|imprint|"
            r"data processing|acceptable use|licen[cs]e agreement)\b",
            "legal",
            2.5,
        ),
        (r"\b(contact( us)?|get in touch|talk to sales)\b", "contact", 2.0),
        (r"\b(about us|our story|our mission|leadership team|who we are)\b", "about", 2.0),
        (
            r"\b(changelog|release notes|what['’]?s new|version history|release \d+(\.\d+)+)\b",
            "changelog",
            2.5,
        ),
        (r"\b(case study|customer story|success story)\b", "case_study", 2.5),
        (r"\b(webinar|conference|summit|meetup|workshop)\b", "event", 1.5),
        (r"\b(integrations?|connect(or)?|plugin|add-on)\b", "integration", 1.5),
        (
            r"\b(documentation|docs|manual|handbook|user guide|reference guide|tutorial)\b",
            "docs",
            1.5,
        ),
        (r"\b(api reference|reference|sql command|function reference)\b", "api_reference", 1.0),
        (
            r"\b(help cent(er|re)|support|faq|frequently asked questions|troubleshoot)",
            "support",
            1.5,
        ),
        (r"\b(press release|announces?|announced|launches)\b", "news", 1.0),
        (r"\b(blog)\b", "blog", 1.0),
        (r"\b(index|archive|all posts|tag:|category:)\b", "listing", 1.0),
    ]
]
_PRICE = re.compile(
    r"(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:€|eur|usd|gbp)\b)(?:\s*(?:/|per)\s*"
    r"(?:mo(?:nth)?|yr|year|user|seat|month))?",
    re.I,
)
_CURRENCY = re.compile(r"[$€£¥]|\b(eur|usd|gbp)\b", re.I)
_PER_PERIOD = re.compile(
    r"(/|per )\s?(mo|month|year|yr|user|seat)\b|billed (annually|monthly)", re.I
)
_JOB_WORDS = vocab(
    "responsibilities",
    "requirements",
    "qualifications",
    "what you'll do",
    "what you will do",
    "what we're looking for",
    "apply now",
    "about the role",
    "nice to have",
    "benefits",
    "full-time",
    "full time",
    "part-time",
    "years of experience",
    "apply for this job",
)
_CASE_WORDS = vocab("the challenge", "the solution", "the results", "customer story", "case study")
_CTA = vocab(
    "get started",
    "free trial",
    "sign up",
    "request a demo",
    "book a demo",
    "contact sales",
    "try for free",
    "try it free",
    "buy now",
    "get a quote",
    "talk to sales",
    "register now",
    "schedule a demo",
    "start now",
    "subscribe now",
    "shop now",
)
_FORM_FIELDS = vocab(
    "first name",
    "last name",
    "full name",
    "work email",
    "email address",
    "phone number",
    "company name",
    "your message",
    "job title",
    "submit",
    "send message",
)
_EVENT_WORDS = vocab("agenda", "speakers", "register", "venue", "save your seat", "doors open")
# A version in a heading; a leading section number ("6.2.1. ", "E.1. ") is skipped first (the
# possessive ``?+`` keeps the version search from backtracking into it).
_VERSION_HEAD = re.compile(
    r"^#{1,4} (?:(?:[a-z]\.)?(?:\d+\.)+\s+)?+.*\b(v?\d+\.\d+(\.\d+)?|version \d)", re.I | re.M
)
_HEADING = re.compile(r"^(#{1,6}) +(.+)$", re.M)
_FENCE = re.compile(r"^```", re.M)
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# Each formula starts with a literal, its leading \b moved into a look-behind after it
# (a(?<!\wa) == \ba): the regex engine then skips to the possible first characters instead of
# trying every position (1.8x faster on docs pages).
_PRESS = re.compile(
    r"(\((ap|reuters|afp)\)\s?[—–-]|a(?<!\wa)nnounced today\b|t(?<!\wt)oday announced\b|"
    r"p(?<!\wp)ress release\b|f(?<!\wf)or immediate release\b|m(?<!\wm)edia contact\b)",
    re.I,
)
# Press-release formulas without the news-wire dateline: a wire story is news for everyone,
# a release is written for the press.
_PRESS_RELEASE = re.compile(
    r"(\bannounced today\b|\btoday announced\b|\bpress release\b|\bfor immediate release\b|"
    r"\bmedia contact\b)",
    re.I,
)
_API_SIGS = re.compile(
    r"(^|\n)\s*(def |class |[A-Za-z_][\w.]*\([^)]*\)\s*(->|$)|Parameters\b|Returns\b|Synopsis\b|"
    r"Arguments\b|Raises\b|Return type\b)",
)
_DEV_WORDS = vocab(
    "api*",
    "sdk*",
    "function*",
    "method*",
    "class",
    "classes",
    "module*",
    "parameter*",
    "argument*",
    "endpoint*",
    "json",
    "import",
    "library",
    "libraries",
    "compile*",
    "runtime",
    "syntax",
    "variable*",
    "return value",
    "exception*",
    "python",
    "javascript",
    "sql",
    "query",
    "queries",
    "npm",
    "pip",
    "git",
    "repository",
    "webhook*",
    "callback*",
    "string*",
    "integer*",
    "boolean",
    "null",
    "attribute*",
    "object*",
    "instance*",
)
_TECH_WORDS = vocab(
    "server*",
    "configur*",
    "install*",
    "package*",
    "kernel",
    "network*",
    "protocol*",
    "database*",
    "cluster*",
    "deploy*",
    "command*",
    "daemon*",
    "firewall*",
    "ssh",
    "dns",
    "backup*",
    "filesystem*",
    "administrator*",
    "root",
    "sudo",
    "apt",
    "systemd",
    "linux",
    "debian",
    "proxy",
    "certificate*",
    "directory",
    "directories",
    "index",
    "indexes",
    "table*",
    "schema*",
    "transaction*",
    "encryption",
    "tcp",
    "http",
    "ip",
)
_BIZ_WORDS = vocab(
    "enterprise*",
    "team",
    "teams",
    "roi",
    "revenue",
    "customers",
    "businesses",
    "organization*",
    "companies",
    "productivity",
    "workflow*",
    "sales",
    "b2b",
    "stakeholder*",
    "compliance",
    "procurement",
    "per seat",
    "per user",
    "pipeline",
    "invoic*",
    "finance",
    "operations",
)
_INVESTOR_WORDS = vocab(
    "shareholder*",
    "investor*",
    "earnings",
    "quarterly results",
    "annual report",
    "dividend*",
    "fiscal year",
    "fiscal quarter",
    "sec filing*",
    "stock price",
)
_PARTNER_WORDS = vocab(
    "partner program",
    "reseller*",
    "affiliate*",
    "become a partner",
    "referral program",
    "solution partner*",
    "channel partner*",
)
_QUESTION_HEAD = re.compile(r"^#{1,6} .+\?\s*$", re.M)
_TUTORIAL = re.compile(
    r"\b(how to|tutorial|getting started|quick ?start|step \d|step-by-step|walkthrough|"
    r"installing|installation guide|first steps)\b",
    re.I,
)
_MEDIA = re.compile(r"\b(video|podcast|episode|watch|listen|gallery|slides|webcast)\b", re.I)
_ORDERED = re.compile(r"^\s*\d+[.)] ", re.M)
_TABLE_ROW = re.compile(r"^\|.*\|\s*$", re.M)


@dataclass(slots=True)
class Signals:
    """Cheap text statistics computed once and shared by every scorer."""

    words: int
    headings: list[str]
    code_lines: int
    lines: int
    link_words: int
    prices: int
    per_period: int
    ctas: int
    form_fields: int
    dev_hits: int
    tech_hits: int
    biz_hits: int
    question_heads: int
    ordered_items: int
    table_rows: int
    api_sigs: int
    jsonld: set[str] = field(default_factory=set)
    bag: Bag | None = None
    head_bag: Bag | None = None


def compute_signals(doc: ExtractedDocument, text: str, md: str) -> Signals:
    bag, head_bag = Bag.with_head(text, 6000)
    lines = md.count("\n") + 1
    code_lines = 0
    in_code = False
    for line in md.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code or line.startswith("    "):
            code_lines += 1
    link_words = sum(len(m.group(1).split()) for m in _MD_LINK.finditer(md))
    currency = _CURRENCY.search(text) is not None
    return Signals(
        words=doc.words or len(text.split()),
        headings=[m.group(2).strip() for m in _HEADING.finditer(md)],
        code_lines=code_lines,
        lines=lines,
        link_words=link_words,
        prices=len(_PRICE.findall(text)) if currency else 0,
        per_period=len(_PER_PERIOD.findall(text)) if currency else 0,
        ctas=bag.count(_CTA),
        form_fields=bag.count(_FORM_FIELDS),
        dev_hits=bag.count(_DEV_WORDS),
        tech_hits=bag.count(_TECH_WORDS),
        biz_hits=bag.count(_BIZ_WORDS),
        question_heads=len(_QUESTION_HEAD.findall(md)),
        ordered_items=len(_ORDERED.findall(md)),
        table_rows=len(_TABLE_ROW.findall(md)),
        api_sigs=len(_API_SIGS.findall(md)),
        jsonld={t.lower().rsplit("/", 1)[-1] for t in doc.jsonld_types},
        bag=bag,
        head_bag=head_bag,
    )


def _path_is_root(path: str) -> bool:
    segs = [s for s in path.split("/") if s and s not in ("index.html", "index.htm", "index.php")]
    return not segs or (
        len(segs) == 1 and re.fullmatch(r"[a-z]{2}([-_][a-z]{2})?", segs[0], re.I) is not None
    )


def type_scores(
    doc: ExtractedDocument, url: str, sig: Signals, has_date: bool, why: list[str]
) -> dict[str, float]:
    """Rule evidence per type label; each signal names itself in ``why``."""
    scores: dict[str, float] = defaultdict(float)

    def add(label: str, w: float, reason: str) -> None:
        scores[label] += w
        why.append(f"{label} +{w:g}: {reason}")

    parts = urlsplit(url)
    path = parts.path.lower()
    host = (parts.hostname or "").lower()
    if _path_is_root(path) and not parts.query:
        add("homepage", 4.0, "root path")
    for rx, label, w in _PATH_RULES:
        if rx.search(path):
            add(label, w, f"path matches {rx.pattern[:40]}")
    for rx, label, w in _HOST_RULES:
        if rx.search(host):
            add(label, w, f"host {host}")
    for t in sig.jsonld:
        for label, w in _JSONLD.get(t, []):
            add(label, w, f"JSON-LD {t}")
    og = (doc.og_type or "").lower()
    if og == "product" or og.startswith("product."):
        add("product", 2.0, f"og:type {og}")
    title = " ".join([doc.title or "", *sig.headings[:1]])
    for rx, label, w in _TITLE_RULES:
        if rx.search(title):
            add(label, w, f"title matches {rx.pattern[:40]}")
    if sig.prices >= 3 and sig.per_period >= 2:
        add("pricing", 2.0, f"{sig.prices} prices, {sig.per_period} billing periods")
    text_head = doc.text[:6000]
    hb = sig.head_bag or Bag(text_head)
    if hb.count(_JOB_WORDS) >= 3:
        add("job", 2.0, "job-posting sections")
    if hb.count(_CASE_WORDS) >= 2:
        add("case_study", 1.5, "challenge/solution/results sections")
    if len(_VERSION_HEAD.findall(doc.markdown[:20000])) >= 3:
        add("changelog", 1.5, "version headings")
    if sig.form_fields >= 3:
        add("contact", 1.0, "form field labels")
    if hb.count(_EVENT_WORDS) >= 2:
        add("event", 1.0, "agenda/speakers/register")
    if _PRESS.search(text_head):
        add("news", 1.5, "press/wire formula")
    if sig.api_sigs >= 4:
        add("api_reference", 1.0 + min(sig.api_sigs, 20) / 10, f"{sig.api_sigs} API signatures")
    words = max(sig.words, 1)
    if sig.link_words / words > 0.5 and sig.words >= 30:
        add("listing", 2.0, "mostly link text")
    # Dated prose article with no other strong hint: editorial content.
    article_like = og == "article" or sig.jsonld & {"article", "newsarticle", "blogposting"}
    if has_date and sig.words >= 150 and (article_like or not scores):
        add("news", 1.6, "dated article")
        add("blog", 1.4, "dated article")
    if sig.words >= 300 and sig.code_lines + sig.tech_hits + sig.dev_hits >= 15 and not has_date:
        add("docs", 1.0, "long undated technical text")
    return scores


def decide_type(
    scores: dict[str, float], why: list[str], vote: tuple[str, float] | None = None
) -> str:
    """The label with the highest evidence when it reaches ``MIN_SCORE``, else ``other``.

    ``vote``: the learned model's (label, probability). Unless the rules are decisive (best
    score at least ``STRONG_SCORE`` and ahead by ``STRONG_MARGIN``: a path, JSON-LD or
    job-posting markup weighs 2.5 to 5 on its own), a vote at or above ``MODEL_MIN_P`` adds
    ``MODEL_WEIGHT * p`` to its label like any other signal: enough to decide a page the rules
    have little to say about, or to break a near tie.
    """
    scores = defaultdict(float, scores)
    ranked = [*sorted(scores.values(), reverse=True), 0.0, 0.0]
    decisive = ranked[0] >= STRONG_SCORE and ranked[0] - ranked[1] >= STRONG_MARGIN
    if vote is not None:
        label, p = vote
        if decisive:
            why.append(f"model: {label} p={p:.2f} (not used: rules decisive)")
        elif p >= MODEL_MIN_P and label != "other":
            w = round(MODEL_WEIGHT * p, 2)
            scores[label] += w
            why.append(f"{label} +{w:g}: model p={p:.2f}")
        else:
            why.append(f"model: {label} p={p:.2f} (not used, < {MODEL_MIN_P:g} or other)")
    if not scores:
        why.append("no signal")
        return "other"
    best = max(scores.items(), key=lambda kv: kv[1])
    if best[1] < MIN_SCORE:
        why.append(f"best {best[0]} {best[1]:g} < {MIN_SCORE}")
        return "other"
    # API reference is a kind of docs: needs docs context or strong signature evidence.
    if best[0] == "docs" and any(r.startswith("api_reference") and "path" in r for r in why):
        why.append("api_reference: reference path inside documentation")
        return "api_reference"
    return best[0]


def classify_type(
    doc: ExtractedDocument, url: str, sig: Signals, has_date: bool, why: list[str]
) -> str:
    """Rules only (see :func:`decide_type` for the learned model's vote)."""
    return decide_type(type_scores(doc, url, sig, has_date, why), why)


_TYPE_FORMAT = {
    "homepage": "landing",
    "product": "landing",
    "pricing": "landing",
    "landing": "landing",
    "integration": "landing",
    "event": "landing",
    "careers": "landing",
    "listing": "listing",
    "contact": "form",
    "api_reference": "reference",
}


_TUTORIAL_PATH = re.compile(
    r"/(tutorials?|howto|how-to|getting-started|get-started|quick-?start|walkthroughs?)(/|\.|$)"
    r"|/(tutorial|how-to)-"
)
_FAQ = re.compile(r"\b(faqs?|frequently asked)\b", re.I)
_FAQ_PATH = re.compile(r"/faqs?(/|\.|$)")
_GLOSSARY = re.compile(r"\b(glossary|glossar|glosario|glossaire)\b", re.I)


def classify_format(
    doc: ExtractedDocument, url: str, type_: str, sig: Signals, why: list[str]
) -> tuple[str, bool]:
    """(format, strong): ``strong`` when a specific signal decided, False for the fallbacks
    (prose -> article, short -> other, numbered steps, signature counts) that the learned
    model may override."""
    title = doc.title or ""
    path = urlsplit(url).path.lower()
    words = max(sig.words, 1)
    if (
        "faqpage" in sig.jsonld
        or sig.question_heads >= 3
        or _FAQ.search(title)
        or (type_ == "support" and _FAQ_PATH.search(path))
    ):
        why.append(f"faq: FAQ markup/title or {sig.question_heads} question headings")
        return "faq", True
    if type_ == "contact" or (sig.form_fields >= 3 and sig.words < 250):
        why.append("form: contact page / form fields")
        return "form", True
    if type_ == "listing" or (sig.link_words / words > 0.5 and sig.words >= 30):
        why.append("listing: link-dominated")
        return "listing", True
    if sig.words < 250 and _MEDIA.search(title):
        why.append("media: short page about video/audio")
        return "media", True
    docs_like = type_ in ("docs", "api_reference", "support", "blog")
    if docs_like and ("howto" in sig.jsonld or _TUTORIAL.search(title)):
        why.append("tutorial: how-to markup or title")
        return "tutorial", True
    if docs_like and _TUTORIAL_PATH.search(path):
        why.append("tutorial: tutorial/how-to path")
        return "tutorial", True
    if _GLOSSARY.search(title):
        why.append("reference: glossary")
        return "reference", True
    if docs_like and sig.ordered_items >= 4 and sig.code_lines >= 3:
        why.append("tutorial: numbered steps with code")
        return "tutorial", False
    if type_ == "docs" and (sig.api_sigs >= 6 or sig.table_rows >= 8):
        why.append("reference: signatures/tables in docs")
        return "reference", False
    if type_ in _TYPE_FORMAT:
        why.append(f"{_TYPE_FORMAT[type_]}: usual for {type_}")
        return _TYPE_FORMAT[type_], True
    if sig.words >= 80:
        why.append("article: prose")
        return "article", False
    why.append("other: too little text")
    return "other", False


def classify_audience(
    doc: ExtractedDocument, url: str, type_: str, sig: Signals, why: list[str]
) -> tuple[str, bool]:
    """(audience, strong): ``strong`` for job seekers, investors, partners and press (specific
    markup, paths or phrases); the vocabulary-rate and page-type defaults are weak."""
    path = urlsplit(url).path.lower()
    text = doc.text[:6000]
    words = max(sig.words, 1)
    if type_ in ("job", "careers"):
        why.append(f"job_seekers: {type_}")
        return "job_seekers", True
    if (
        re.search(r"/(investors?|ir)(/|$)", path)
        or (sig.head_bag or Bag(text)).count(_INVESTOR_WORDS) >= 3
    ):
        why.append("investors: investor path/words")
        return "investors", True
    if (
        re.search(r"/partners?(/|$)", path)
        or (sig.head_bag or Bag(text)).count(_PARTNER_WORDS) >= 2
    ):
        why.append("partners: partner program")
        return "partners", True
    if type_ == "news" and (_PRESS_RELEASE.search(text) or re.search(r"/(press|newsroom)", path)):
        why.append("press: press release")
        return "press", True
    dev_rate = (sig.dev_hits + sig.api_sigs * 2 + sig.code_lines) / words
    tech_rate = sig.tech_hits / words
    if type_ in ("docs", "api_reference", "changelog", "support", "blog", "integration") or (
        sig.code_lines >= 5
    ):
        if dev_rate >= 0.02 or sig.api_sigs >= 4:
            why.append(f"developers: dev rate {dev_rate:.3f}")
            return "developers", False
        if tech_rate + dev_rate >= 0.015:
            why.append(f"technical: tech rate {tech_rate:.3f}")
            return "technical", False
    if type_ in ("docs", "api_reference"):
        why.append("technical: documentation")
        return "technical", False
    if type_ in (
        "pricing",
        "product",
        "landing",
        "case_study",
        "integration",
        "homepage",
        "event",
        "blog",
    ):
        biz_rate = sig.biz_hits / words
        if biz_rate >= 0.008:
            why.append(f"business: b2b rate {biz_rate:.3f}")
            return "business", False
        if type_ in ("pricing", "product", "landing"):
            why.append("consumers: offering without b2b vocabulary")
            return "consumers", False
    why.append("general: no audience signal")
    return "general", False
