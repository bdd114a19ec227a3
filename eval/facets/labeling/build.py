# ruff: noqa
# Labeling record: how labels.jsonl and ../pages/ were produced (run from this directory with
# /tmp/facets-docs unpacked). Page texts and labels are hand-written; see build.py.
import hashlib
import html
import json
import os
import re
import sys

sys.path.insert(0, "/tmp/flab")
import pages3  # noqa
from pages1 import P

OUT = "/work/main/eval/facets"
DOCS = "/tmp/facets-docs"
labels = []


def split(key):
    return "holdout" if int(hashlib.sha1(key.encode()).hexdigest(), 16) % 10 < 3 else "tune"


def L(source, ref, url, type_, fmt, aud, loc, code, pub, **extra):
    d = dict(
        id=f"{source}:{ref}",
        source=source,
        ref=ref,
        url=url,
        type=type_,
        format=fmt,
        audience=aud,
        locale=loc,
        has_code=code,
        published=pub,
    )
    d.update(extra)
    d["split"] = split(d["id"])
    labels.append(d)


# --- handmade pages: render with a site template
SITES = {}


def chrome(host):
    name = host.split(".")[-2].capitalize() if host.count(".") else host
    nav = "".join(
        f'<li><a href="https://{host}{p}">{t}</a></li>'
        for p, t in [
            ("/", "Home"),
            ("/product", "Product"),
            ("/pricing", "Pricing"),
            ("/docs", "Docs"),
            ("/blog", "Blog"),
            ("/about", "Company"),
        ]
    )
    foot = "".join(
        f'<a href="https://{host}{p}">{t}</a> '
        for p, t in [
            ("/legal/privacy", "Privacy"),
            ("/terms", "Terms"),
            ("/careers", "Careers"),
            ("/contact", "Contact"),
            ("/status", "Status"),
        ]
    )
    return (
        f'<header class="site-header"><a class="logo" href="https://{host}/">{name}</a><nav><ul>{nav}</ul></nav></header>',
        f'<footer class="site-footer"><p>© 2025 {name}. All rights reserved.</p><p>{foot}</p></footer>',
    )


for p in P:
    host = re.match(r"https?://([^/]+)", p["url"])[1]
    head, foot = chrome(host)
    meta = f'<meta property="og:type" content="{p["og"]}">' if p["og"] else ""
    if p["jsonld"]:
        meta += (
            '<script type="application/ld+json">'
            + json.dumps({"@context": "https://schema.org", **p["jsonld"]})
            + "</script>"
        )
    if p["lab"][5] and not p["jsonld"]:
        meta += f'<meta property="article:published_time" content="{p["lab"][5]}T09:00:00Z">'
    doc = f'''<!DOCTYPE html>
<html lang="{p["lang"]}"><head><meta charset="utf-8"><title>{html.escape(p["title"])}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">{meta}
<link rel="canonical" href="{p["url"]}"></head>
<body>{head}<main><article>{p["body"]}</article></main>{foot}</body></html>
'''
    open(f"{OUT}/pages/{p['slug']}.html", "w").write(doc)
    t, f, a, loc, code, pub = p["lab"]
    L("pages", f"{p['slug']}.html", p["url"], t, f, a, loc, code, pub)


def has_pre(path):
    s = open(path, encoding="utf-8", errors="replace").read()
    return bool(re.search(r"<pre[ >]", s))


# --- debian handbook: 26 languages x 4 pages. Read each page: several sections are left untranslated
# (English text under e.g. de-DE/), others are half translated (left out).
HB_EN = {
    "apt": "da el hr ko pl ro sv tr",
    "printing": "*",
    "rights": "cs da el hr ko nl pl ro tr vi",
    "internals": "da el hr ko ro",
}
HB_MIXED = {
    "rights": "ar ca nb",
    "internals": "cs fa nb zh tw ru tr vi",
    "apt": "ar ca cs de es fa fr id it ja nb nl pt ru vi zh tw",
}
HB_LOCALE = {}
for lang in os.listdir(f"{DOCS}/debian-handbook/usr/share/doc/debian-handbook/html"):
    short = lang.split("-")[0] if lang != "zh-TW" else "tw"
    for key, page in [
        ("apt", "sect.apt-cache.html"),
        ("printing", "sect.config-printing.html"),
        ("rights", "sect.rights-management.html"),
        ("internals", "sect.debian-internals.html"),
    ]:
        if lang == "en-US":
            HB_LOCALE[(lang, page)] = "en-US"
        elif short in HB_MIXED.get(key, "").split():
            HB_LOCALE[(lang, page)] = None
        elif HB_EN[key] == "*" or short in HB_EN[key].split():
            HB_LOCALE[(lang, page)] = "en"

H = "usr/share/doc/debian-handbook/html"
for lang in sorted(os.listdir(f"{DOCS}/debian-handbook/{H}")):
    for page, fmt in [
        ("sect.apt-cache.html", "reference"),
        ("sect.config-printing.html", "tutorial"),
        ("sect.rights-management.html", "article"),
        ("sect.debian-internals.html", "article"),
    ]:
        path = f"{DOCS}/debian-handbook/{H}/{lang}/{page}"
        if not os.path.exists(path):
            continue
        loc = HB_LOCALE.get((lang, page), lang)
        if loc is None:
            continue  # page half translated: no single language to label
        L(
            "debian-handbook",
            f"{H}/{lang}/{page}",
            f"https://debian-handbook.info/browse/{lang}/stable/{page}",
            "docs",
            fmt,
            "technical",
            loc,
            has_pre(path),
            None,
        )

# --- python docs
PY = "usr/share/doc/python3.11/html"
py = [
    (f"library/{m}.html", "api_reference", "reference")
    for m in [
        "os",
        "json",
        "asyncio-task",
        "datetime",
        "collections",
        "re",
        "pathlib",
        "sqlite3",
        "itertools",
        "functools",
        "subprocess",
        "logging",
        "argparse",
        "typing",
        "hashlib",
        "csv",
    ]
]
py += [(f"c-api/{m}.html", "api_reference", "reference") for m in ["list", "dict", "memory"]]
py += [
    (f"tutorial/{m}.html", "docs", "tutorial")
    for m in [
        "introduction",
        "controlflow",
        "datastructures",
        "modules",
        "errors",
        "classes",
        "venv",
        "inputoutput",
    ]
]
py += [
    (f"howto/{m}.html", "docs", "tutorial")
    for m in ["sorting", "logging", "argparse", "regex", "unicode", "descriptor"]
]
py += [(f"whatsnew/{m}.html", "changelog", "article") for m in ["3.11", "3.10", "3.9", "3.7"]]
py += [(f"faq/{m}.html", "docs", "faq") for m in ["general", "programming", "design"]]
py += [
    ("glossary.html", "docs", "reference"),
    ("genindex-A.html", "listing", "listing"),
    ("py-modindex.html", "listing", "listing"),
]
for ref, t, f in py:
    path = f"{DOCS}/python3.11-doc/{PY}/{ref}"
    aud = "general" if t == "listing" else "developers"
    L(
        "python3.11-doc",
        f"{PY}/{ref}",
        f"https://docs.python.org/3.11/{ref}",
        t,
        f,
        aud,
        "en",
        False if t == "listing" else has_pre(path),
        None,
    )

# --- postgres docs
PG = "usr/share/doc/postgresql-doc-15/html"
pg = [
    (f"sql-{m}.html", "api_reference", "reference", "developers")
    for m in [
        "select",
        "insert",
        "createtable",
        "altertable",
        "createindex",
        "copy",
        "vacuum",
        "grant",
        "createfunction",
        "explain",
    ]
]
pg += [
    (f"functions-{m}.html", "api_reference", "reference", "developers")
    for m in ["string", "json", "datetime", "math", "aggregate", "window"]
]
pg += [
    (f"runtime-config-{m}.html", "api_reference", "reference", "technical")
    for m in ["resource", "logging", "replication", "autovacuum"]
]
pg += [
    (f"tutorial-{m}.html", "docs", "tutorial", "developers")
    for m in ["createdb", "table", "select", "join", "transactions", "install"]
]
pg += [
    (m, "docs", "article", "technical")
    for m in [
        "backup-dump.html",
        "continuous-archiving.html",
        "mvcc-intro.html",
        "indexes-types.html",
        "client-authentication.html",
        "routine-vacuuming.html",
    ]
]
pg += [
    (f"release-15-{m}.html", "changelog", "article", "technical")
    for m in ["1", "5", "10", "15", "20"]
]
for ref, t, f, aud in pg:
    path = f"{DOCS}/postgresql-doc-15/{PG}/{ref}"
    s = open(path, encoding="utf-8", errors="replace").read()
    m = re.search(
        r"Release date:\s*</strong>\s*(\d{4}-\d{2}-\d{2})|Release date: (\d{4}-\d{2}-\d{2})", s
    )
    pub = (m[1] or m[2]) if m else None
    L(
        "postgresql-doc-15",
        f"{PG}/{ref}",
        f"https://www.postgresql.org/docs/15/{ref}",
        t,
        f,
        aud,
        "en",
        has_pre(path),
        pub,
    )

# --- bench articles (labels written by hand in bench_labels.py)
from bench_labels import B

gt = json.load(open("/work/shared/bench/extraction-articles/ground-truth.json"))
keys = {k[:10]: k for k in gt}
for short, (t, f, a, loc, pub) in B.items():
    k = keys[short]
    L("bench", k, gt[k]["url"], t, f, a, loc, False, pub)

with open(f"{OUT}/labels.jsonl", "w") as fh:
    for d in labels:
        fh.write(json.dumps(d, ensure_ascii=False) + "\n")
import collections

print(
    len(labels),
    collections.Counter(d["source"] for d in labels),
    collections.Counter(d["split"] for d in labels),
)

# hand levels (0..4) for technicality / promotional on the handmade subset
TECH = {
    "stackmint-home": 1,
    "stackmint-pricing": 1,
    "stackmint-docs-quickstart": 4,
    "stackmint-api-branches": 4,
    "stackmint-blog-post": 4,
    "stackmint-changelog": 3,
    "stackmint-careers": 0,
    "stackmint-job": 2,
    "stackmint-privacy": 1,
    "stackmint-contact": 0,
    "stackmint-case-study": 2,
    "stackmint-integration-vercel": 3,
    "stackmint-event": 2,
    "stackmint-about": 0,
    "stackmint-support-faq": 2,
    "stackmint-press": 1,
    "ledgerly-home": 0,
    "ledgerly-product-invoicing": 0,
    "ledgerly-pricing": 0,
    "ledgerly-docs-webhooks": 4,
    "ledgerly-terms": 1,
    "ledgerly-case-study": 0,
    "ledgerly-blog": 1,
    "ledgerly-integration-xero": 1,
    "ledgerly-help-article": 1,
    "brightnest-home": 0,
    "brightnest-product": 0,
    "brightnest-support-install": 1,
    "brightnest-blog": 0,
    "brightnest-contact": 0,
    "brightnest-lp": 0,
    "brightnest-press-release": 0,
    "orbitly-webinar": 2,
    "orbitly-solution": 1,
    "orbitly-blog-tech": 4,
    "orbitly-sdk-ref": 4,
    "orbitly-security": 2,
    "orbitly-release-notes": 2,
    "orbitly-faq": 1,
}
PROMO = {
    "stackmint-home": 4,
    "stackmint-pricing": 3,
    "stackmint-docs-quickstart": 0,
    "stackmint-api-branches": 0,
    "stackmint-blog-post": 0,
    "stackmint-changelog": 0,
    "stackmint-careers": 2,
    "stackmint-job": 1,
    "stackmint-privacy": 0,
    "stackmint-contact": 1,
    "stackmint-case-study": 3,
    "stackmint-integration-vercel": 2,
    "stackmint-event": 2,
    "stackmint-about": 1,
    "stackmint-support-faq": 0,
    "stackmint-press": 1,
    "ledgerly-home": 4,
    "ledgerly-product-invoicing": 4,
    "ledgerly-pricing": 3,
    "ledgerly-docs-webhooks": 0,
    "ledgerly-terms": 0,
    "ledgerly-case-study": 2,
    "ledgerly-blog": 1,
    "ledgerly-integration-xero": 2,
    "ledgerly-help-article": 0,
    "brightnest-home": 4,
    "brightnest-product": 4,
    "brightnest-support-install": 0,
    "brightnest-blog": 1,
    "brightnest-contact": 0,
    "brightnest-lp": 4,
    "brightnest-press-release": 1,
    "orbitly-webinar": 2,
    "orbitly-solution": 4,
    "orbitly-blog-tech": 0,
    "orbitly-sdk-ref": 0,
    "orbitly-security": 1,
    "orbitly-release-notes": 0,
    "orbitly-faq": 1,
}
with open(f"{OUT}/labels.jsonl", "w") as fh:
    for d in labels:
        slug = d["ref"][:-5] if d["source"] == "pages" else None
        if slug in TECH:
            d["technicality_rank"] = TECH[slug]
            d["promotional_rank"] = PROMO[slug]
        fh.write(json.dumps(d, ensure_ascii=False) + "\n")
