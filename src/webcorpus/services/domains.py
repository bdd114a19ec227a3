"""The domain record: coverage with a page-count estimate, health, language properties,
sitemaps, changes since the previous crawl, outgoing links and shelves."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from typing import Any
from urllib.parse import urlsplit

from webcorpus.config import Settings
from webcorpus.crawl.domains import registrable_domain, validate_root_domain
from webcorpus.crawl.urls import in_scope
from webcorpus.facets.locale import normalize_tag
from webcorpus.services import estimate as estimate_mod
from webcorpus.services.clock import http_date_iso
from webcorpus.services.errors import invalid_param, not_found
from webcorpus.store import Store
from webcorpus.store.models import BUCKETS, unaccounted

CHANGE_SAMPLE = 20
LINKS_TO_LIMIT = 100
HREFLANG_LIMIT = 100
ROOT_SHARE = 0.8


def parse_domain(settings: Settings, value: str) -> str:
    try:
        return validate_root_domain(value, allow_private_suffixes=settings.allow_private_suffixes)
    except ValueError as exc:
        raise invalid_param("domain", str(exc)) from exc


def require_domain(store: Store, settings: Settings, value: str) -> str:
    domain = parse_domain(settings, value)
    if not store.domain_seen(domain):
        raise not_found(f"domain {domain}")
    return domain


def get_domain(store: Store, settings: Settings, domain: str) -> dict[str, Any]:
    domain = require_domain(store, settings, domain)
    latest = store.domain_job_ids(domain, finished_only=False, limit=1)
    finished = store.domain_job_ids(domain, finished_only=True, limit=2)
    latest_job = store.get_job(latest[0]) if latest else None
    sitemaps = sitemaps_section(store, domain)
    return {
        "domain": domain,
        "coverage": coverage_section(store, domain, latest_job),
        "health": health_section(store, domain, latest_job),
        "properties": properties_section(store, domain, sitemaps),
        "sitemaps": sitemaps,
        "changes": changes_section(store, finished),
        "links_to": links_to_section(store, domain, settings),
        "collections": [
            {"slug": c["slug"], "name": c["name"], "reason": c["reason"]}
            for c in store.domain_collections(domain)
        ],
    }


# ---------------------------------------------------------------- coverage
def coverage_section(store: Store, domain: str, job: Any) -> dict[str, Any]:
    stats = store.domain_page_stats(domain)
    pages = int(stats["pages"])
    if job is None:
        return {
            "known": pages,
            "indexed": pages,
            "job_id": None,
            "buckets": {},
            "estimate": None,
            "evidence": None,
        }
    counts = store.bucket_counts(job.id)
    buckets = {name: counts.get(name, 0) for name in BUCKETS}
    buckets["unaccounted"] = unaccounted(counts)
    est = page_estimate(store, job.id, pages)
    return {
        "known": sum(counts.values()),
        "indexed": pages,
        "job_id": job.id,
        "job_state": job.state,
        "buckets": buckets,
        "estimate": est["estimate"],
        "evidence": est["evidence"],
    }


def page_estimate(store: Store, job_id: str, corpus_pages: int = 0) -> dict[str, Any]:
    """{"estimate": {low, high, confidence, method}, "evidence": {...}} for one job's ledger."""
    evidence = estimate_mod.gather(store.estimate_rows(job_id))
    return estimate_mod.estimate(evidence, corpus_pages)


# ---------------------------------------------------------------- health
def health_section(store: Store, domain: str, job: Any) -> dict[str, Any]:
    row = store.get_domain(domain) or {}
    out: dict[str, Any] = {
        "robots_txt": {
            "status": row.get("robots_status"),
            "checked_at": row.get("robots_checked_at"),
        },
        "entry_url": row.get("entry_url"),
        "error_rate": None,
        "errors": None,
        "fetched": None,
        "median_response_s": None,
        "last_job": None,
        "last_job_state": None,
    }
    if job is None:
        return out
    h = store.job_health(job.id)
    out["fetched"] = h["fetched"]
    out["errors"] = {
        "clientError": h["client_errors"],
        "serverError": h["server_errors"],
        "fetchError": h["fetch_errors"],
    }
    out["error_rate"] = round(h["errors"] / h["fetched"], 3) if h["fetched"] else None
    if h["median_ms"] is not None:
        out["median_response_s"] = round(h["median_ms"] / 1000.0, 3)
    out["last_job"] = {
        "id": job.id,
        "state": job.state,
        "created_at": job.created_at,
        "finished_at": job.finished_at,
    }
    out["last_job_state"] = job.state
    return out


# ---------------------------------------------------------------- sitemaps
def sitemaps_section(store: Store, domain: str) -> list[dict[str, Any]]:
    return [
        {
            "url": s["url"],
            "url_count": s["url_count"],
            "status": s["status"],
            "last_modified": http_date_iso(s["last_modified"]),
            "fetched_at": s["fetched_at"],
        }
        for s in store.domain_sitemaps(domain)
    ]


# ---------------------------------------------------------------- properties
_PATH_TAG = re.compile(r"^([a-z]{2,3})[-_]([a-z]{2}|[a-z]{4}[-_][a-z]{2})$", re.I)


def _language(tag: str) -> str:
    return tag.split("-")[0].lower()


def _tokens(url: str) -> set[str]:
    parts = urlsplit(url)
    return {t.lower() for t in re.split(r"[/._?=&]+", parts.path + "?" + parts.query) if t}


def _path_tag(url: str) -> str | None:
    """A regional language tag named by one of the first three path segments (/de-DE/ ...)."""
    for seg in urlsplit(url).path.split("/")[1:4]:
        if _PATH_TAG.match(seg):
            return normalize_tag(seg)
    return None


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _root_url(tag: str, urls: list[str], alternate: str | None) -> str:
    """The root of a language property: when paths name the locale (/browse/de-DE/stable/),
    the deepest directory most of those pages share; else the page an hreflang alternate
    names for it; else the property's most common origin."""
    named = [u for u in urls if tag.lower() in {s.lower() for s in urlsplit(u).path.split("/")}]
    if not named and alternate:
        return alternate.rsplit("/", 1)[0] + "/"
    pool = named or urls
    origin = Counter(_origin(u) for u in pool).most_common(1)[0][0]
    if not named:
        return origin + "/"  # the language is not in the paths: the property is the host
    dirs = [urlsplit(u).path.split("/")[1:-1] for u in pool if _origin(u) == origin]
    prefix: list[str] = []
    need = max(1, math.ceil(len(dirs) * ROOT_SHARE))
    while True:
        depth = len(prefix)
        nxt = Counter(d[depth] for d in dirs if len(d) > depth and d[:depth] == prefix)
        if not nxt:
            break
        seg, count = nxt.most_common(1)[0]
        if count < need:
            break
        prefix.append(seg)
    return origin + "/" + "".join(p + "/" for p in prefix)


def properties_section(
    store: Store, domain: str, sitemaps: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One property per language. A page belongs to the language its path names (/fr-FR/),
    else to its locale facet. Languages that hreflang alternates of the site's pages name
    within the domain are properties too, with the pages not crawled yet."""
    groups: dict[str, list[str]] = defaultdict(list)
    for locale, url in store.domain_page_locales(domain):
        facet = normalize_tag(locale) if locale and locale != "und" else None
        key = _path_tag(url) or facet or "und"
        groups[key].append(url)
    alternates_all: dict[str, str] = {}
    rows = store.domain_hreflang(domain)
    for row in rows:
        tag = normalize_tag(row["hreflang"])
        if tag and row["url"] and in_scope(row["url"], domain):
            alternates_all.setdefault(tag, row["url"])
    for tag in alternates_all:
        groups.setdefault(tag, [])
    # A bare language tag joins the one regional property of that language, if there is one
    # (a site's root page saying lang="en" beside its /en-US/ book).
    renamed: dict[str, str] = {}
    for tag in [t for t in groups if "-" not in t and t != "und"]:
        regional = [t for t in groups if "-" in t and _language(t) == tag]
        if len(regional) == 1:
            groups[regional[0]].extend(groups.pop(tag))
            renamed[tag] = regional[0]
    if "und" in groups and len(groups) > 1:
        groups.pop("und")  # too little text to tell; not a language of its own

    declared: dict[str, dict[str, str]] = defaultdict(dict)
    for row in rows:
        facet = normalize_tag(row["locale"]) if row["locale"] else None
        owner = _path_tag(row["page_url"]) or facet or "und"
        owner = renamed.get(owner, owner)
        tag = normalize_tag(row["hreflang"]) or row["hreflang"]
        declared[owner].setdefault(tag, row["url"])

    tagged: dict[str, list[str]] = defaultdict(list)
    shared: list[dict[str, Any]] = []
    for s in sitemaps:
        toks = _tokens(s["url"])
        hits = [t for t in groups if t.lower() in toks]
        for t in hits:
            tagged[t].append(s["url"])
        if not hits:
            shared.append(s)
    out: list[dict[str, Any]] = []
    for tag, urls in groups.items():
        root = _root_url(tag, urls, alternates_all.get(tag))
        own = tagged.get(tag) or [
            s["url"] for s in shared if urlsplit(s["url"]).netloc == urlsplit(root).netloc
        ]
        alternates = [
            {"hreflang": h, "url": u}
            for h, u in sorted(declared.get(tag, {}).items())
            if h.lower() != tag.lower()
        ][:HREFLANG_LIMIT]
        out.append(
            {
                "locale": tag,
                "root_url": root,
                "pages": len(urls),
                "sitemaps": sorted(own),
                "hreflang_alternates": alternates,
            }
        )
    out.sort(key=lambda p: (-p["pages"], p["locale"]))
    return out


# ---------------------------------------------------------------- changes
def changes_section(store: Store, finished: list[str]) -> dict[str, Any]:
    if not finished:
        return {
            "job_id": None,
            "previous_job_id": None,
            "added": {"count": 0, "pages": []},
            "removed": {"count": 0, "pages": []},
            "modified": {"count": 0, "pages": []},
        }
    job_id = finished[0]
    previous = finished[1] if len(finished) > 1 else None
    found = store.job_changes(job_id, previous, CHANGE_SAMPLE)
    return {"job_id": job_id, "previous_job_id": previous, **found}


# ---------------------------------------------------------------- links
def links_to_section(store: Store, domain: str, settings: Settings) -> list[dict[str, Any]]:
    links: Counter[str] = Counter()
    pages: dict[str, set[str]] = defaultdict(set)
    hosts: dict[str, set[str]] = defaultdict(set)
    for host, src, n in store.domain_external_links(domain):
        target = (
            registrable_domain(host, allow_private_suffixes=settings.allow_private_suffixes) or host
        )
        if target == domain:
            continue
        links[target] += n
        pages[target].add(src)
        hosts[target].add(host)
    rows: list[dict[str, Any]] = [
        {"domain": d, "links": links[d], "pages": len(pages[d]), "hosts": sorted(hosts[d])[:10]}
        for d in links
    ]
    rows.sort(key=lambda r: (-r["pages"], -r["links"], r["domain"]))
    return rows[:LINKS_TO_LIMIT]
