/**
 * Crawler-trap guards and the verdict on each URL the crawl meets: unusable, out of scope, a
 * resource that is no page, or a trap (depth, length, query parameters, repeated path segments,
 * too many query variants of one path). Every refusal carries the reason the ledger shows.
 */
import type { Config } from "../config.ts";
import { counted } from "../plural.ts";
import { inScope, nonPageExtension, normalizeUrl } from "./urls.ts";

export interface TrapLimits {
  readonly maxDepth: number;
  readonly maxUrlLength: number;
  readonly maxQueryParams: number;
  readonly maxRepeatedSegments: number;
  readonly maxQueryVariantsPerPath: number;
  /** Paths whose query variants are remembered (oldest forgotten first). */
  readonly maxTrackedPaths?: number;
}

export const DEFAULT_TRAP_LIMITS: TrapLimits = {
  maxDepth: 30,
  maxUrlLength: 1024,
  maxQueryParams: 8,
  maxRepeatedSegments: 3,
  maxQueryVariantsPerPath: 50,
};

export function trapLimits(config: Config): TrapLimits {
  return {
    maxDepth: config.maxDepth,
    maxUrlLength: config.maxUrlLength,
    maxQueryParams: config.maxQueryParams,
    maxRepeatedSegments: config.maxRepeatedSegments,
    maxQueryVariantsPerPath: config.maxQueryVariantsPerPath,
  };
}

/**
 * Highest number of times one path segment occurs. This also bounds back-to-back repetition
 * of longer blocks (`/a/b/a/b/a/b`): every segment of a block repeated r times occurs r times.
 */
function maxRepeats(segments: readonly string[]): number {
  const counts = new Map<string, number>();
  let max = 0;
  for (const s of segments) {
    const n = (counts.get(s) ?? 0) + 1;
    counts.set(s, n);
    if (n > max) max = n;
  }
  return max;
}

/** Filters URLs that look like crawler traps; remembers query variants per path (state). */
export class TrapGuard {
  readonly limits: Required<TrapLimits>;
  #variants = new Map<string, Set<string>>();

  constructor(limits: Partial<TrapLimits> = {}) {
    this.limits = { maxTrackedPaths: 100_000, ...DEFAULT_TRAP_LIMITS, ...limits };
  }

  /**
   * A reason when `url` (normalized) must be filtered, else null. A URL that passes is
   * recorded, so the same URL checked again still passes.
   */
  check(url: string, depth: number): string | null {
    const l = this.limits;
    if (depth > l.maxDepth) return `trap: link depth ${depth} exceeds max_depth ${l.maxDepth}`;
    if (url.length > l.maxUrlLength) {
      return `trap: URL length ${url.length} exceeds max_url_length ${l.maxUrlLength}`;
    }
    if (!URL.canParse(url)) return "trap: unparsable URL";
    const parts = new URL(url);
    const repeats = maxRepeats(parts.pathname.split("/").filter(Boolean));
    if (repeats > l.maxRepeatedSegments) {
      return `trap: path segments repeat ${counted(repeats, "time")} (max_repeated_segments ${l.maxRepeatedSegments})`;
    }
    const query = parts.search.slice(1);
    const params = query.split("&").filter(Boolean).length;
    if (params > l.maxQueryParams) {
      return `trap: ${counted(params, "query parameter")} (max_query_params ${l.maxQueryParams})`;
    }
    if (query) {
      const key = `${parts.protocol}//${parts.host}${parts.pathname}`;
      let seen = this.#variants.get(key);
      if (!seen) {
        seen = new Set();
        this.#variants.set(key, seen);
        if (this.#variants.size > l.maxTrackedPaths) {
          this.#variants.delete(this.#variants.keys().next().value as string);
        }
      }
      const digest = Bun.hash(query).toString(36);
      if (!seen.has(digest)) {
        if (seen.size >= l.maxQueryVariantsPerPath) {
          return `trap: more than ${counted(l.maxQueryVariantsPerPath, "query variant")} of ${key} (max_query_variants_per_path)`;
        }
        seen.add(digest);
      }
    }
    return null;
  }
}

/**
 * What the crawl does with a URL it met: `ok` with its normalized form, or a refusal. A refusal
 * with `bucket: null` is not the crawl's business (unusable, or outside the root domain) and is
 * not recorded; `filtered` lands in the ledger with its reason.
 */
export type UrlVerdict =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly bucket: "filtered" | null; readonly reason: string };

export interface ScreenOptions {
  readonly rootDomain: string;
  readonly depth: number;
  readonly base?: string;
  /** Refuse URLs whose extension names a resource that is no page (default true). */
  readonly skipNonPages?: boolean;
}

/** Normalizes, scopes and trap-checks one URL (a link's href resolved against `base`). */
export function screenUrl(raw: string, traps: TrapGuard, options: ScreenOptions): UrlVerdict {
  const url = normalizeUrl(raw, options.base);
  if (url === null) return { ok: false, bucket: null, reason: "not a crawlable http(s) URL" };
  if (!inScope(url, options.rootDomain)) {
    return { ok: false, bucket: null, reason: `outside ${options.rootDomain}` };
  }
  if (options.skipNonPages !== false) {
    const ext = nonPageExtension(url);
    if (ext) return { ok: false, bucket: "filtered", reason: `not a page: .${ext} resource` };
  }
  const trap = traps.check(url, options.depth);
  if (trap) return { ok: false, bucket: "filtered", reason: trap };
  return { ok: true, url };
}
