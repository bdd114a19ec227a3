/**
 * How many public pages a site has: a range with a confidence, never a single number.
 *
 * The evidence is what one crawl (its coverage ledger) saw:
 * - pages confirmed: ledger rows that ended `indexed` or `unchanged`;
 * - the frontier: URLs known but not fetched (`pending`, `budget`, `stoppedEarly`). How many of
 *   them are pages follows from the yield of the URLs already resolved from the same kind of
 *   source (sitemap-listed or found otherwise), with a Wilson score interval;
 * - URLs nobody has seen yet. Sitemaps and links are two independent "captures" of the site's
 *   URLs: with `n1` URLs in the sitemaps, `n2` linked from fetched pages and `m` in both, the
 *   Chapman (bias-corrected Lincoln-Petersen) estimator gives the size of the URL population
 *   `(n1+1)(n2+1)/(m+1) - 1` with its variance (Seber 1970), so a normal interval. Without a
 *   sitemap, the link incidences alone give Chao2 (URLs linked from exactly one / two fetched
 *   pages; Chao 1987) with its log-normal interval. The unseen URLs are weighted by the yield
 *   of link-found URLs.
 *
 * low = confirmed + frontier × yield_low + unseen_low × link_yield_low, high likewise. The rate
 * at which the latest fetched pages still reveal new URLs (the tail of the discovery curve) is
 * reported as evidence and lowers the confidence when discovery has not levelled off.
 */

import { chao2, chapman, type Interval, poissonRateHigh, wilson } from "./capture-recapture.ts";

const PAGE_BUCKETS: ReadonlySet<string> = new Set(["indexed", "unchanged"]);
const OPEN_BUCKETS: ReadonlySet<string> = new Set(["pending", "budget", "stoppedEarly"]);

/**
 * Last path segments that are never an HTML page. Links to such URLs form a yield class of their
 * own: a crawl reaches them late (pages come first in breadth-first order), so the yield of the
 * pages fetched says nothing about them.
 */
const FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    "pdf doc docx xls xlsx ppt pptx odt ods odp rtf epub ps eps png jpg jpeg gif webp svg ico " +
    "bmp tif tiff avif heic mp3 wav ogg oga flac m4a aac mp4 m4v webm mov avi mkv wmv flv zip gz " +
    "tgz bz2 xz zst 7z rar tar jar war whl egg deb rpm dmg pkg msi exe apk iso img bin css js mjs " +
    "map json woff woff2 ttf otf eot wasm csv tsv parquet"
  ).split(" "),
);

/** True when the URL's last path segment has an extension that is never an HTML page. */
export function looksLikeFile(url: string): boolean {
  const path = url.replace(/[?#].*$/, "");
  const last = path.slice(path.lastIndexOf("/") + 1);
  const dot = last.lastIndexOf(".");
  return dot > 0 && FILE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}

/** What a job's ledger holds about the size of its site (read by `estimateRows` in src/db). */
export interface EstimateRows {
  readonly ledger: readonly { url: string; source: string; bucket: string }[];
  /** The crawler's own flags of how each URL was found (empty: fall back on ledger sources). */
  readonly evidence: readonly { url: string; bySitemap: boolean; byLink: boolean }[];
  /** Internal link targets of the job's stored pages: distinct sources, first source's time. */
  readonly links: readonly { target: string; sources: number; firstAt: number }[];
  /** When each stored page of the job was resolved, ascending (seconds). */
  readonly sourceTimes: readonly number[];
}

export interface Evidence {
  confirmed: number;
  sitemapPages: number;
  sitemapResolved: number;
  sitemapOpen: number;
  otherPages: number;
  otherResolved: number;
  otherOpen: number;
  filePages: number;
  fileResolved: number;
  fileOpen: number;
  inSitemaps: number;
  linked: number;
  both: number;
  seen: number;
  linkSources: number;
  linkedOnce: number;
  linkedTwice: number;
  /** New URLs revealed by the last quarter of fetched pages … */
  recentNew: number;
  /** … and how many pages that quarter holds (0: too few pages to tell). */
  recentPages: number;
}

const recentPerPage = (ev: Evidence): number | null =>
  ev.recentPages ? Math.round((ev.recentNew / ev.recentPages) * 1000) / 1000 : null;

/** Turns a job's rows into the counts the estimators need. */
export function gather(rows: EstimateRows): Evidence {
  const ev: Evidence = {
    confirmed: 0,
    sitemapPages: 0,
    sitemapResolved: 0,
    sitemapOpen: 0,
    otherPages: 0,
    otherResolved: 0,
    otherOpen: 0,
    filePages: 0,
    fileResolved: 0,
    fileOpen: 0,
    inSitemaps: 0,
    linked: 0,
    both: 0,
    seen: 0,
    linkSources: 0,
    linkedOnce: 0,
    linkedTwice: 0,
    recentNew: 0,
    recentPages: 0,
  };
  const useFlags = rows.evidence.length > 0;
  const sitemap = new Set<string>();
  if (useFlags) {
    for (const e of rows.evidence) if (e.bySitemap) sitemap.add(e.url);
  } else {
    for (const row of rows.ledger) if (row.source === "sitemap") sitemap.add(row.url);
  }
  const ledgerUrls = new Set<string>();
  for (const { url, bucket } of rows.ledger) {
    ledgerUrls.add(url);
    const page = PAGE_BUCKETS.has(bucket) ? 1 : 0;
    const open = OPEN_BUCKETS.has(bucket) ? 1 : 0;
    ev.confirmed += page;
    if (sitemap.has(url)) {
      ev.sitemapPages += page;
      ev.sitemapOpen += open;
      ev.sitemapResolved += 1 - open;
    } else if (looksLikeFile(url)) {
      ev.filePages += page;
      ev.fileOpen += open;
      ev.fileResolved += 1 - open;
    } else {
      ev.otherPages += page;
      ev.otherOpen += open;
      ev.otherResolved += 1 - open;
    }
  }
  const linked = new Set(rows.links.map((l) => l.target));
  if (useFlags) for (const e of rows.evidence) if (e.byLink) linked.add(e.url);
  ev.inSitemaps = sitemap.size;
  ev.linked = linked.size;
  for (const url of sitemap) if (linked.has(url)) ev.both += 1;
  ev.seen = new Set([...sitemap, ...linked, ...ledgerUrls]).size;
  const times = rows.sourceTimes;
  ev.linkSources = times.length;
  for (const l of rows.links) {
    if (l.sources === 1) ev.linkedOnce += 1;
    else if (l.sources === 2) ev.linkedTwice += 1;
  }
  if (times.length >= 20) {
    const cut = times[Math.floor(times.length * 0.75)] ?? 0;
    const tail = times.filter((t) => t >= cut).length;
    ev.recentNew = rows.links.filter((l) => l.firstAt >= cut && !sitemap.has(l.target)).length;
    ev.recentPages = Math.max(1, tail);
  }
  return ev;
}

export interface PageEstimate {
  readonly low: number;
  readonly high: number;
  readonly confidence: number;
  readonly method: string;
}

export interface EstimateEvidence {
  readonly confirmed_pages: number;
  readonly frontier_urls: number;
  readonly sitemap_urls: number;
  readonly linked_urls: number;
  readonly sitemap_and_linked: number;
  readonly yield_sitemap: Interval;
  readonly yield_other: Interval;
  readonly yield_files: Interval;
  readonly url_population: {
    method: "chapman" | "chao2";
    urls: number;
    low: number;
    high: number;
  } | null;
  readonly new_urls_per_page_recent: number | null;
  readonly corpus_pages: number;
}

const r3 = (n: number) => Math.round(n * 1000) / 1000;

/** The site's total public pages as {low, high, confidence, method}, with the evidence. */
export function estimate(
  ev: Evidence,
  corpusPages = 0,
): { estimate: PageEstimate; evidence: EstimateEvidence } {
  const allPages = ev.sitemapPages + ev.otherPages + ev.filePages;
  const allResolved = ev.sitemapResolved + ev.otherResolved + ev.fileResolved;
  const overall = wilson(allPages, allResolved);
  const ys = ev.sitemapResolved ? wilson(ev.sitemapPages, ev.sitemapResolved) : overall;
  // URLs outside the sitemaps are often no pages at all (files, dead links): while none of them
  // is resolved, their yield is unknown ([0, 1]), not the sitemap's. (The reference took the
  // overall yield here; on a site whose links reach PDFs late in the crawl its low bound then
  // passed the true count.) Without a sitemap, this class is every URL: the overall yield.
  const yo = ev.otherResolved
    ? wilson(ev.otherPages, ev.otherResolved)
    : ev.sitemapResolved
      ? wilson(0, 0)
      : overall;
  const yf = wilson(ev.filePages, ev.fileResolved);
  const frontLow = ev.sitemapOpen * ys[0] + ev.otherOpen * yo[0] + ev.fileOpen * yf[0];
  const frontHigh = ev.sitemapOpen * ys[1] + ev.otherOpen * yo[1] + ev.fileOpen * yf[1];
  const open = ev.sitemapOpen + ev.otherOpen + ev.fileOpen;

  const methods = ["confirmed pages", "frontier x Wilson yield"];
  let unseen: Interval = [0, 0];
  let population: EstimateEvidence["url_population"] = null;
  if (ev.inSitemaps && ev.linked && ev.both >= 5) {
    const [nHat, lo, hi] = chapman(ev.inSitemaps, ev.linked, ev.both);
    const seen = ev.inSitemaps + ev.linked - ev.both;
    unseen = [Math.max(0, lo - seen), Math.max(0, hi - seen)];
    population = {
      method: "chapman",
      urls: Math.round(nHat),
      low: Math.round(lo),
      high: Math.round(hi),
    };
    methods.push("sitemap/link capture-recapture (Chapman)");
  } else if (ev.linked && ev.linkSources >= 5) {
    const [nHat, lo, hi] = chao2(ev.linked, ev.linkedOnce, ev.linkedTwice, ev.linkSources);
    if (open) {
      // Fetch order is breadth first, not random: Chao2 alone misjudges small samples. The upper
      // bound also lets every unfetched URL reveal new URLs at the rate the latest fetched pages
      // still did (its upper bound), and the URLs those reveal as many again (two generations);
      // the lower bound assumes nothing unseen.
      const rate = ev.recentPages
        ? poissonRateHigh(ev.recentNew, ev.recentPages)
        : ev.linked / Math.max(1, ev.linkSources);
      unseen = [0, Math.max(0, hi - ev.linked, 2 * open * rate)];
    }
    // else: every link of every fetched page was followed; links reveal nothing more.
    population = {
      method: "chao2",
      urls: Math.round(nHat),
      low: Math.round(lo),
      high: Math.round(hi),
    };
    methods.push("link incidence richness (Chao2)");
  }
  // Unseen URLs are found by links: weight them by the yield of the URLs found that way, but
  // never below the overall yield's lower bound when few link-found URLs were resolved.
  const linkYield: Interval = [Math.min(yo[0], overall[0]), Math.max(yo[1], overall[1])];
  const low = Math.max(ev.confirmed, ev.confirmed + frontLow + unseen[0] * linkYield[0]);
  const high = ev.confirmed + frontHigh + unseen[1] * linkYield[1];
  const lowI = Math.max(Math.floor(low), 0);
  const highI = Math.max(Math.ceil(high), lowI);

  const resolvedShare = allResolved / Math.max(1, allResolved + open);
  let confidence: number;
  if (allResolved < 10) confidence = 0.5;
  else if (population === null) confidence = resolvedShare >= 0.99 ? 0.8 : 0.6;
  else confidence = 0.9;
  const recent = recentPerPage(ev);
  if (recent !== null && recent > 1 && !ev.inSitemaps) {
    confidence = Math.min(confidence, 0.7); // discovery has not levelled off
  }
  return {
    estimate: { low: lowI, high: highI, confidence, method: methods.join("; ") },
    evidence: {
      confirmed_pages: ev.confirmed,
      frontier_urls: open,
      sitemap_urls: ev.inSitemaps,
      linked_urls: ev.linked,
      sitemap_and_linked: ev.both,
      yield_sitemap: [r3(ys[0]), r3(ys[1])],
      yield_other: [r3(yo[0]), r3(yo[1])],
      yield_files: [r3(yf[0]), r3(yf[1])],
      url_population: population,
      new_urls_per_page_recent: recent,
      corpus_pages: corpusPages,
    },
  };
}
