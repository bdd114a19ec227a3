"""How many public pages a site has: a range with a confidence, never a single number.

The evidence is what one crawl (its coverage ledger) saw:

* pages confirmed: ledger rows that ended ``indexed`` or ``unchanged``;
* the frontier: URLs known but not fetched (``pending``, ``budget``, ``stoppedEarly``). How many
  of them are pages follows from the *yield* of the URLs already resolved from the same kind of
  source (sitemap-listed or found otherwise), with a Wilson score interval;
* URLs nobody has seen yet. Sitemaps and links are two independent "captures" of the site's URLs:
  with ``n1`` URLs in the sitemaps, ``n2`` URLs linked from fetched pages and ``m`` in both, the
  Chapman (bias-corrected Lincoln-Petersen) estimator gives the size of the URL population
  ``(n1+1)(n2+1)/(m+1) - 1`` with its variance (Seber 1970), so a normal interval. Without a
  sitemap, the link incidences alone give Chao2 (URLs linked from exactly one / two fetched
  pages; Chao 1987) with its log-normal interval. The unseen URLs are then weighted by the yield
  of link-found URLs.

low = confirmed + frontier * yield_low + unseen_low * link_yield_low, high likewise with the upper
bounds. The rate at which fetched pages still reveal new URLs (the tail of the discovery curve)
is reported as evidence and lowers the confidence when discovery has not levelled off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

Z = 1.96  # two-sided 95 %
PAGE_BUCKETS = frozenset({"indexed", "unchanged"})
OPEN_BUCKETS = frozenset({"pending", "budget", "stoppedEarly"})


def wilson(successes: int, trials: int, z: float = Z) -> tuple[float, float]:
    """Wilson score interval of a proportion; (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def chapman(n1: int, n2: int, m: int, z: float = Z) -> tuple[float, float, float]:
    """Chapman's estimate of a population from two captures, with a normal interval."""
    n_hat = (n1 + 1) * (n2 + 1) / (m + 1) - 1
    var = (n1 + 1) * (n2 + 1) * (n1 - m) * (n2 - m) / ((m + 1) ** 2 * (m + 2))
    sd = math.sqrt(max(0.0, var))
    low = max(float(n1 + n2 - m), n_hat - z * sd)
    return n_hat, low, n_hat + z * sd


def chao2(observed: int, q1: int, q2: int, units: int, z: float = Z) -> tuple[float, float, float]:
    """Chao2 incidence estimate of species richness (here: URLs), log-normal interval."""
    if units <= 0 or q1 == 0:
        return float(observed), float(observed), float(observed)
    a = (units - 1) / units
    if q2 > 0:
        f0 = a * q1 * q1 / (2 * q2)
        r = q1 / q2
        var = q2 * (a / 2 * r**2 + a * a * r**3 + a * a / 4 * r**4)
    else:
        f0 = a * q1 * (q1 - 1) / 2
        var = a * q1 * (q1 - 1) / 2 + a * a * q1 * (2 * q1 - 1) ** 2 / 4 - a**2 * q1**4 / (4 * f0)
        var = max(var, 0.0) if f0 > 0 else 0.0
    if f0 <= 0:
        return float(observed), float(observed), float(observed)
    c = math.exp(z * math.sqrt(math.log(1 + max(var, 0.0) / (f0 * f0))))
    return observed + f0, observed + f0 / c, observed + f0 * c


@dataclass
class Evidence:
    confirmed: int = 0
    sitemap_pages: int = 0
    sitemap_resolved: int = 0
    sitemap_open: int = 0
    other_pages: int = 0
    other_resolved: int = 0
    other_open: int = 0
    in_sitemaps: int = 0
    linked: int = 0
    both: int = 0
    seen: int = 0
    link_sources: int = 0
    linked_once: int = 0
    linked_twice: int = 0
    recent_new: int = 0  # new URLs revealed by the last quarter of fetched pages ...
    recent_pages: int = 0  # ... and how many pages that quarter holds (0: too few to tell)
    notes: list[str] = field(default_factory=list)

    @property
    def recent_new_per_page(self) -> float | None:
        return round(self.recent_new / self.recent_pages, 3) if self.recent_pages else None


def gather(rows: dict[str, Any]) -> Evidence:
    """Turn a store's ``estimate_rows`` into the counts the estimators need."""
    ev = Evidence()
    flags = {url: (s, ln) for url, s, ln in rows["evidence"]}
    use_flags = bool(flags)
    sitemap: set[str] = set()
    for url, source, _bucket in rows["ledger"]:
        if use_flags:
            if flags.get(url, (False, False))[0]:
                sitemap.add(url)
        elif source == "sitemap":
            sitemap.add(url)
    if use_flags:
        sitemap |= {u for u, (s, _) in flags.items() if s}
    ledger_urls: set[str] = set()
    for url, _source, bucket in rows["ledger"]:
        ledger_urls.add(url)
        page = bucket in PAGE_BUCKETS
        is_open = bucket in OPEN_BUCKETS
        ev.confirmed += page
        if url in sitemap:
            ev.sitemap_pages += page
            ev.sitemap_open += is_open
            ev.sitemap_resolved += not is_open
        else:
            ev.other_pages += page
            ev.other_open += is_open
            ev.other_resolved += not is_open
    linked = {t for t, _n, _first in rows["links"]}
    if use_flags:
        linked |= {u for u, (_, ln) in flags.items() if ln}
    ev.in_sitemaps = len(sitemap)
    ev.linked = len(linked)
    ev.both = len(sitemap & linked)
    ev.seen = len(sitemap | linked | ledger_urls)
    times = rows["source_times"]
    ev.link_sources = len(times)
    ev.linked_once = sum(1 for _t, n, _f in rows["links"] if n == 1)
    ev.linked_twice = sum(1 for _t, n, _f in rows["links"] if n == 2)
    if len(times) >= 20:
        cut = times[int(len(times) * 0.75)]
        tail = sum(1 for t in times if t >= cut)
        fresh = sum(1 for t, _n, first in rows["links"] if first >= cut and t not in sitemap)
        ev.recent_new, ev.recent_pages = fresh, max(1, tail)
    return ev


def poisson_rate_high(count: int, exposure: int, z: float = Z) -> float:
    """Upper bound of a rate observed as ``count`` events over ``exposure`` units (Poisson,
    square-root approximation: (sqrt(count + 1) + z/2)^2 events); a rate seen on the dozen
    pages of a small crawl's last quarter is noisy, and the bound shrinks as they grow."""
    return (math.sqrt(count + 1) + z / 2) ** 2 / max(1, exposure)


def estimate(ev: Evidence, corpus_pages: int = 0) -> dict[str, Any]:
    """The site's total public pages as {low, high, confidence, method} (plus the evidence)."""
    all_pages = ev.sitemap_pages + ev.other_pages
    all_resolved = ev.sitemap_resolved + ev.other_resolved
    ys = wilson(ev.sitemap_pages, ev.sitemap_resolved) if ev.sitemap_resolved else None
    yo = wilson(ev.other_pages, ev.other_resolved) if ev.other_resolved else None
    overall = wilson(all_pages, all_resolved)
    ys = ys or overall
    yo = yo or overall
    front_low = ev.sitemap_open * ys[0] + ev.other_open * yo[0]
    front_high = ev.sitemap_open * ys[1] + ev.other_open * yo[1]

    methods = ["confirmed pages", "frontier x Wilson yield"]
    unseen = (0.0, 0.0)
    population: dict[str, Any] | None = None
    if ev.in_sitemaps and ev.linked and ev.both >= 5:
        n_hat, lo, hi = chapman(ev.in_sitemaps, ev.linked, ev.both)
        seen = ev.in_sitemaps + ev.linked - ev.both
        unseen = (max(0.0, lo - seen), max(0.0, hi - seen))
        population = {
            "method": "chapman",
            "urls": round(n_hat),
            "low": round(lo),
            "high": round(hi),
        }
        methods.append("sitemap/link capture-recapture (Chapman)")
    elif ev.linked and ev.link_sources >= 5:
        n_hat, lo, hi = chao2(ev.linked, ev.linked_once, ev.linked_twice, ev.link_sources)
        open_urls = ev.sitemap_open + ev.other_open
        if open_urls:
            # Fetch order is breadth first, not random: Chao2 alone misjudges small samples.
            # The upper bound also lets every unfetched URL reveal new URLs at the rate the
            # latest fetched pages still did (its upper bound), and the URLs those reveal as many
            # again (two generations); the lower bound assumes nothing unseen.
            if ev.recent_pages:
                rate = poisson_rate_high(ev.recent_new, ev.recent_pages)
            else:
                rate = ev.linked / max(1, ev.link_sources)
            unseen = (0.0, max(0.0, hi - ev.linked, 2 * open_urls * rate))
        # else: every link of every fetched page was followed; links reveal nothing more.
        population = {"method": "chao2", "urls": round(n_hat)}
        population.update(low=round(lo), high=round(hi))
        methods.append("link incidence richness (Chao2)")
    # Unseen URLs are found by links: weight them by the yield of the URLs found that way,
    # but never below the overall yield's lower bound when few link-found URLs were resolved.
    link_yield = (min(yo[0], overall[0]), max(yo[1], overall[1]))
    low = ev.confirmed + front_low + unseen[0] * link_yield[0]
    high = ev.confirmed + front_high + unseen[1] * link_yield[1]
    low = max(float(ev.confirmed), low)
    low_i = max(math.floor(low), 0)
    high_i = max(math.ceil(high), low_i)

    resolved_share = all_resolved / max(1, all_resolved + ev.sitemap_open + ev.other_open)
    if all_resolved < 10:
        confidence = 0.5
    elif population is None:
        confidence = 0.8 if resolved_share >= 0.99 else 0.6
    else:
        confidence = 0.9
    if ev.recent_new_per_page is not None and ev.recent_new_per_page > 1 and not ev.in_sitemaps:
        confidence = min(confidence, 0.7)  # discovery has not levelled off
    out: dict[str, Any] = {
        "low": low_i,
        "high": high_i,
        "confidence": confidence,
        "method": "; ".join(methods),
    }
    evidence = {
        "confirmed_pages": ev.confirmed,
        "frontier_urls": ev.sitemap_open + ev.other_open,
        "sitemap_urls": ev.in_sitemaps,
        "linked_urls": ev.linked,
        "sitemap_and_linked": ev.both,
        "yield_sitemap": [round(ys[0], 3), round(ys[1], 3)],
        "yield_other": [round(yo[0], 3), round(yo[1], 3)],
        "url_population": population,
        "new_urls_per_page_recent": ev.recent_new_per_page,
        "corpus_pages": corpus_pages,
    }
    return {"estimate": out, "evidence": evidence}
