/**
 * robots.txt per origin: read once through the fetcher (redirects followed, each hop checked),
 * then kept. `ok`/`missing` live `maxAgeMs`; `unreachable` only `retryAfterMs`, so the host is
 * asked again; `none yet` is never stored. Concurrent askers of one origin share one fetch.
 */
import type { Fetcher } from "./fetcher.ts";
import {
  MAX_ROBOTS_BYTES,
  MAX_ROBOTS_REDIRECTS,
  policyFromFetch,
  type RobotsPolicy,
  robotsUrl,
} from "./robots.ts";
import { originOf } from "./urls.ts";

export interface RobotsCacheOptions {
  readonly maxAgeMs?: number;
  readonly retryAfterMs?: number;
  readonly now?: () => number;
}

export class RobotsCache {
  readonly maxAgeMs: number;
  readonly retryAfterMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { expires: number; policy: RobotsPolicy }>();

  constructor(options: RobotsCacheOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? 24 * 3600 * 1000;
    this.retryAfterMs = options.retryAfterMs ?? 600 * 1000;
    this.#now = options.now ?? Date.now;
  }

  get(urlOrOrigin: string): RobotsPolicy | null {
    const key = originOf(urlOrOrigin);
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (this.#now() >= entry.expires) {
      this.#entries.delete(key);
      return null;
    }
    return entry.policy;
  }

  put(urlOrOrigin: string, policy: RobotsPolicy): void {
    if (policy.status === "none yet") return;
    const ttl = policy.status === "unreachable" ? this.retryAfterMs : this.maxAgeMs;
    this.#entries.set(originOf(urlOrOrigin), { expires: this.#now() + ttl, policy });
  }

  get size(): number {
    return this.#entries.size;
  }
}

export interface RobotsReaderOptions {
  readonly fetcher: Fetcher;
  readonly userAgent: string;
  readonly cache?: RobotsCache;
  /** A reason to refuse a redirect hop (say, out of the crawl's scope), or null to follow it. */
  readonly refuseHop?: (url: string) => string | null;
}

/** Reads and caches robots.txt per origin; one fetch per origin at a time. */
export class RobotsReader {
  readonly cache: RobotsCache;
  readonly #options: RobotsReaderOptions;
  readonly #pending = new Map<string, Promise<RobotsPolicy>>();

  constructor(options: RobotsReaderOptions) {
    this.#options = options;
    this.cache = options.cache ?? new RobotsCache();
  }

  /** The policy of `url`'s origin, fetched when not cached. */
  async policy(url: string): Promise<RobotsPolicy> {
    const origin = originOf(url);
    const cached = this.cache.get(origin);
    if (cached) return cached;
    let pending = this.#pending.get(origin);
    if (!pending) {
      pending = this.#read(origin).finally(() => this.#pending.delete(origin));
      this.#pending.set(origin, pending);
    }
    return pending;
  }

  async #read(origin: string): Promise<RobotsPolicy> {
    const { fetcher, userAgent, refuseHop } = this.#options;
    const result = await fetcher.fetchFollowing(robotsUrl(origin), {
      accept: "text/plain,*/*",
      maxHops: MAX_ROBOTS_REDIRECTS,
      // RFC 9309 §2.5: the first 500 KiB are read and parsed, whatever the page body cap; a
      // longer robots.txt is cut there (never refused as too large, which would disallow all).
      prefixBytes: MAX_ROBOTS_BYTES,
      ...(refuseHop ? { refuseHop } : {}),
    });
    const policy = policyFromFetch(result, userAgent);
    this.cache.put(origin, policy);
    return policy;
  }
}
