/**
 * Sitemap discovery and reading for one crawl: the sitemaps robots.txt lists plus
 * `/sitemap.xml` and `/sitemap_index.xml`, then the children of each index, breadth first, up to
 * `maxSitemaps` files and `maxSitemapUrls` URLs per file. Every fetch follows redirects hop by
 * hop within the crawl's scope (fetchFollowing). Entries come out normalized and in scope, each
 * with its `lastmod` date (the page's date signal when it has no better one).
 */
import { isOk } from "./fetch-result.ts";
import type { Fetcher } from "./fetcher.ts";
import {
  defaultSitemapUrls,
  parseSitemap,
  type SitemapEntry,
  type SitemapKind,
} from "./sitemaps.ts";
import { normalizeUrl } from "./urls.ts";

/** One sitemap file as the domain record shows it. */
export interface SitemapRecord {
  readonly url: string;
  /** "ok", the parse problem, or why it could not be read ("HTTP 404", "timeout", …). */
  readonly status: string;
  readonly kind: SitemapKind | null;
  /** URLs (or, for an index, child sitemaps) it listed. */
  readonly count: number;
  /** Its Last-Modified header as an ISO timestamp. */
  readonly lastModified: string | null;
}

export interface SitemapReadOptions {
  readonly fetcher: Fetcher;
  /** The crawl's entry origin, `scheme://host[:port]`. */
  readonly origin: string;
  /** Sitemaps robots.txt listed (absolute URLs). */
  readonly listed: readonly string[];
  readonly maxSitemaps: number;
  readonly maxSitemapUrls: number;
  /** The crawl's scope (root domain and its subdomains). */
  readonly inScope: (url: string) => boolean;
  /** A reason not to fetch a sitemap file (robots.txt disallows it), or null to fetch it. */
  readonly refuseFile?: (url: string) => string | null;
  /** Stop early (a cancelled job). */
  readonly cancelled?: () => boolean;
  /** Each file's entries as soon as it is read. */
  readonly onEntries?: (entries: readonly SitemapEntry[], sitemap: string) => void | Promise<void>;
}

export interface SitemapReadResult {
  readonly entries: readonly SitemapEntry[];
  readonly sitemaps: readonly SitemapRecord[];
}

const ACCEPT = "application/xml,text/xml,*/*";

function isoDate(httpDate: string | undefined): string | null {
  const ms = httpDate ? Date.parse(httpDate) : Number.NaN;
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export async function readSitemaps(options: SitemapReadOptions): Promise<SitemapReadResult> {
  const listed = new Set(options.listed);
  const queue = [...new Set([...options.listed, ...defaultSitemapUrls(options.origin)])];
  const seen = new Set<string>();
  const known = new Set<string>();
  const entries: SitemapEntry[] = [];
  const records: SitemapRecord[] = [];
  const refuseHop = (url: string) => (options.inScope(url) ? null : "outside the crawl's scope");
  while (queue.length > 0 && seen.size < options.maxSitemaps && !options.cancelled?.()) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    seen.add(url);
    const refused = options.refuseFile?.(url) ?? null;
    if (refused !== null) {
      if (listed.has(url))
        records.push({ url, status: refused, kind: null, count: 0, lastModified: null });
      continue;
    }
    const result = await options.fetcher.fetchFollowing(url, { accept: ACCEPT, refuseHop });
    if (!isOk(result)) {
      // A default location that is missing is no news; a listed one that fails is.
      if (listed.has(url)) {
        const status = result.error
          ? `${result.error.kind}: ${result.error.detail}`
          : `HTTP ${result.status}`;
        records.push({ url, status, kind: null, count: 0, lastModified: null });
      }
      continue;
    }
    const parsed = parseSitemap(result.body, result.url, { maxUrls: options.maxSitemapUrls });
    const fresh: SitemapEntry[] = [];
    for (const item of parsed.urls) {
      const norm = normalizeUrl(item.loc);
      if (norm && options.inScope(norm) && !known.has(norm)) {
        known.add(norm);
        fresh.push({ loc: norm, lastmod: item.lastmod });
      }
    }
    for (const child of parsed.children) {
      const norm = normalizeUrl(child);
      if (norm && options.inScope(norm) && !seen.has(norm)) queue.push(norm);
    }
    records.push({
      url,
      status:
        parsed.error ?? (parsed.truncated ? `ok (first ${options.maxSitemapUrls} URLs)` : "ok"),
      kind: parsed.kind,
      count: parsed.urls.length + parsed.children.length,
      lastModified: isoDate(result.headers["last-modified"]),
    });
    entries.push(...fresh);
    if (fresh.length > 0) await options.onEntries?.(fresh, url);
  }
  return { entries, sitemaps: records };
}
