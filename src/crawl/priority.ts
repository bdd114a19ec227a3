/**
 * The expected value of a pending URL as a frontier priority (lower is fetched first), so that a
 * budget goes to the pages that matter rather than to the nearest ones (issue 32 §2). Pure: the
 * job hands it what it knows of the URL.
 *
 * - depth: one level is one unit, as breadth-first order had it;
 * - sitemap entries rank with depth-1 links, a stated `<priority>` moving them by up to ±0.5
 *   and a recent `lastmod` a little ahead;
 * - links from page bodies: each page linking to the URL from its body so far (its link not
 *   repeated on most pages: template links count for nothing, as in `inlinks_body`) brings it
 *   ahead, by the logarithm of their number; links to any translation of a page count once per
 *   linking section (`JobRun.addLinks`);
 * - the entry page's own links (the site's top navigation) before all else;
 * - URLs shaped like pages that index other pages (genindex, tag, category, archive, pagination,
 *   search) go after content pages of the next levels.
 *
 * Every tenth visit goes to a spread sample of the sitemap instead (`JobRun.next`). Measured in
 * docs/benchmarks.md ("What a budget reaches").
 */

/** What the frontier knows of a pending URL. */
export interface PriorityInput {
  readonly url: string;
  readonly depth: number;
  /** How the URL was found: entry, link, sitemap, known, … */
  readonly source: string;
  /** The sitemap's `<priority>` (0..1), if stated. */
  readonly sitemapPriority?: number | null;
  /** The sitemap's `lastmod` (ISO date), if stated. */
  readonly lastmod?: string | null;
  /** Pages linking to the URL so far whose link is not template. */
  readonly bodyLinks?: number;
  /** `indexShaped(url)`, when the caller has it. */
  readonly indexShaped?: boolean;
  /** Now, for the age of `lastmod` (ms since the epoch). */
  readonly nowMs?: number;
}

/** Depth levels an index-shaped URL gives up. */
export const INDEX_PENALTY = 3;
/** Depth levels gained per doubling of body links. */
export const BODY_LINK_WEIGHT = 0.75;
/** Most depth levels body links can gain. */
export const BODY_LINK_MAX = 4;

const INDEX_SEGMENT =
  /^(?:genindex(?:-[^/]*)?|py-modindex|modindex|bookindex|tags?|categor(?:y|ies)|archives?|page|search|authors?)(?:\.[a-z0-9]+)?$/i;
const INDEX_QUERY = /^(?:p|page|paged|start|offset|q|query|search|s|tag|category|sort|order)$/i;

/**
 * True for URLs whose pages index other pages: general and module indexes, tag/category/archive
 * listings, pagination and search results. Such pages are reached, but after content pages.
 */
export function indexShaped(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const segments = parsed.pathname.split("/").filter(Boolean);
  for (const s of segments) if (INDEX_SEGMENT.test(decodeSegment(s))) return true;
  // /2024/05/ date archives (a year segment followed by nothing but a month/day).
  if (segments.length > 0 && segments.every((s) => /^\d{1,4}$/.test(s))) return true;
  for (const key of parsed.searchParams.keys()) if (INDEX_QUERY.test(key)) return true;
  return false;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const DAY_MS = 86_400_000;

/**
 * The frontier priority of a URL: lower is fetched first. The entry page is -1, its own links
 * (depth 1) from 0 to 1; every other URL above 1, in the order of its estimated depth (depth,
 * less the gain of a stated sitemap priority, a recent lastmod and body links; plus the index
 * penalty), squashed into (1, ∞) so that no URL goes ahead of the entry page's own links.
 */
export function priorityOf(input: PriorityInput): number {
  if (input.source === "entry") return -1;
  const index = input.indexShaped ?? indexShaped(input.url);
  const gain = bodyGain(input.bodyLinks ?? 0);
  if (input.source === "link" && input.depth <= 1)
    return (index ? 0.5 : 0) + 0.5 * (1 - gain / BODY_LINK_MAX);
  let p = input.source === "sitemap" ? Math.min(input.depth, 1) + 0.5 : input.depth;
  if (input.sitemapPriority !== undefined && input.sitemapPriority !== null) {
    const sp = Math.min(1, Math.max(0, input.sitemapPriority));
    p -= sp - 0.5; // 1.0 → half a level ahead, 0.0 → half a level behind
  }
  if (input.lastmod && input.nowMs !== undefined) {
    const age = (input.nowMs - Date.parse(input.lastmod)) / DAY_MS;
    if (Number.isFinite(age) && age >= 0 && age < 365) p -= 0.25 * (1 - age / 365);
  }
  p -= gain;
  if (index) p += INDEX_PENALTY;
  // softplus: increasing, above 1, close to p for p above 3
  return 1 + Math.log1p(Math.exp(p - 1));
}

/** Depth levels that `n` body links gain. */
export function bodyGain(n: number): number {
  return n > 0 ? Math.min(BODY_LINK_MAX, BODY_LINK_WEIGHT * Math.log2(1 + n)) : 0;
}

/** Body-link counts at which a queued URL is ranked again: 1-4, then each half doubling. */
export function rerankAt(n: number): boolean {
  if (n <= 4) return n > 0;
  const k = 2 ** Math.floor(Math.log2(n));
  return n === k || n === 1.5 * k;
}

const LOCALE_SEGMENT = /^[a-z]{2}(?:[-_][A-Za-z]{2})?$/;

/**
 * The URL with its locale path segments (`en`, `en-US`, `pt_BR`) blanked, or null when it has
 * none: the translations of a page share it, and are cited alike (a handbook's `sect.apt-get`
 * in every language), so what the crawl learned of one ranks the others.
 */
export function translationKey(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const segments = parsed.pathname.split("/");
  let found = false;
  for (let i = 0; i < segments.length; i++)
    if (LOCALE_SEGMENT.test(segments[i] ?? "")) {
      segments[i] = "*";
      found = true;
    }
  return found ? `${parsed.host}${segments.join("/")}${parsed.search}` : null;
}

/** Whether a link seen on `linking` of `pages` pages is template so far (citations.ts's rule). */
export function templateSoFar(
  linking: number,
  pages: number,
  share: number,
  minPages: number,
): boolean {
  return pages >= minPages && linking > share * pages;
}
