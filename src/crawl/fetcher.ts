/**
 * The crawler's HTTP client: one URL at a time, SSRF-guarded at connect time, bounded in time and
 * size (http-exchange.ts), paced per host (a Pacer), retried as `classify` decides, with
 * conditional requests for refreshes. `fetch` returns a 3xx as is (the crawl books the hop as
 * `redirected` and queues its target); `fetchFollowing` follows redirects hop by hop for support
 * files (robots.txt, sitemaps), every hop checked like the first: scheme, the caller's scope
 * rule, the SSRF guard, loops and the hop limit. Never throws for network trouble.
 */
import type { Config } from "../config.ts";
import { counted } from "../plural.ts";
import { classify, type RetryClass } from "./fetch-errors.ts";
import { type FetchResult, failed, isRedirect, type RedirectHop } from "./fetch-result.ts";
import { ConnectGuard, type Resolver } from "./guard.ts";
import { type ExchangeLimits, exchange } from "./http-exchange.ts";
import { type Pacer, unpaced } from "./politeness.ts";

export const DEFAULT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
export const ACCEPT_ENCODING = "gzip, deflate, br, zstd";

export interface FetcherOptions extends ExchangeLimits {
  readonly userAgent: string;
  readonly maxRetries: number;
  readonly maxRetryAfterS: number;
  readonly maxRedirects: number;
  readonly guard: ConnectGuard;
  readonly pacer?: Pacer;
  readonly backoffBaseMs?: number;
  readonly backoffMaxMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly ca?: string | readonly string[];
}

export interface FetchOptions {
  readonly etag?: string | null;
  readonly lastModified?: string | null;
  readonly accept?: string;
  /** Keep the first this many body bytes of a longer body instead of refusing it (robots.txt). */
  readonly prefixBytes?: number;
}

export interface FollowOptions extends FetchOptions {
  /** Hops to follow at most (default: the fetcher's maxRedirects). */
  readonly maxHops?: number;
  /** A reason to refuse a hop's target (out of scope, say), or null to follow it. */
  readonly refuseHop?: (url: string) => string | null;
}

/** Fetcher options from the configuration; `resolver`, `pacer`, `ca` are the caller's. */
export function fetcherOptions(
  config: Config,
  deps: { resolver?: Resolver; pacer?: Pacer; ca?: string | readonly string[] } = {},
): FetcherOptions {
  const guard = new ConnectGuard({
    allow: config.allowNetworks,
    connectTo: config.connectTo,
    connectToOnly: config.connectToOnly,
    ...(deps.resolver ? { resolver: deps.resolver } : {}),
  });
  return {
    userAgent: config.userAgent,
    connectTimeoutMs: config.connectTimeoutS * 1000,
    readTimeoutMs: config.readTimeoutS * 1000,
    maxBodyBytes: config.maxBodyBytes,
    maxRetries: config.maxRetries,
    maxRetryAfterS: config.maxRetryAfterS,
    maxRedirects: config.maxRedirects,
    guard,
    ...(deps.pacer ? { pacer: deps.pacer } : {}),
    ...(deps.ca ? { ca: deps.ca } : {}),
  };
}

export class Fetcher {
  readonly options: FetcherOptions;
  readonly #pacer: Pacer;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;

  constructor(options: FetcherOptions) {
    this.options = options;
    this.#pacer = options.pacer ?? unpaced;
    this.#sleep = options.sleep ?? ((ms) => Bun.sleep(ms));
    this.#random = options.random ?? Math.random;
  }

  /** One URL, retried on transient failures; a 3xx is returned, not followed. */
  async fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failed(url, "protocol", "bad URL");
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      return failed(url, "bad_scheme", target.protocol.slice(0, -1));
    }
    const headers: Record<string, string> = {
      "User-Agent": this.options.userAgent,
      Accept: options.accept ?? DEFAULT_ACCEPT,
      "Accept-Encoding": ACCEPT_ENCODING,
    };
    if (options.etag) headers["If-None-Match"] = options.etag;
    if (options.lastModified) headers["If-Modified-Since"] = options.lastModified;

    const o = this.options;
    const host = target.hostname;
    let retries = 0;
    let throttledWaitS = 0;
    for (let attempt = 1; ; attempt++) {
      const release = await this.#pacer.acquire(host);
      let result: FetchResult;
      try {
        const request = {
          url: target,
          headers,
          ...(options.prefixBytes !== undefined ? { prefixBytes: options.prefixBytes } : {}),
        };
        result = await exchange(request, o, {
          guard: o.guard,
          ...(o.ca ? { ca: o.ca } : {}),
        });
      } finally {
        release();
      }
      result = { ...result, url, attempts: attempt };
      const decision = classify(result, o.maxRetryAfterS);
      // The host is held for a Retry-After we honour; one past the cap only slows it down.
      const hold = decision.retry === "throttled" ? decision.retryAfterS : null;
      this.#pacer.record(host, result.elapsedMs, result.status, hold);
      const wait = this.#waitFor(decision.retry, decision.retryAfterS, retries, throttledWaitS);
      if (wait === null) return result;
      if (decision.retry === "throttled") throttledWaitS += wait / 1000;
      else retries++;
      await this.#sleep(wait);
    }
  }

  /** Milliseconds to wait before the next attempt, or null to stop here. */
  #waitFor(
    retry: RetryClass,
    retryAfterS: number | null,
    retries: number,
    throttledS: number,
  ): number | null {
    const o = this.options;
    const base = o.backoffBaseMs ?? 500;
    const backoff = Math.min(
      o.backoffMaxMs ?? 30_000,
      base * 2 ** retries * (0.5 + this.#random()),
    );
    if (retry === "retryable") return retries < o.maxRetries ? backoff : null;
    if (retry !== "throttled") return null;
    // Throttled waits spend no retry; together they stay within the Retry-After cap.
    const wait = retryAfterS !== null ? retryAfterS * 1000 : Math.max(backoff, 1000);
    return throttledS + wait / 1000 <= o.maxRetryAfterS ? wait : null;
  }

  /** Follows redirects hop by hop; every hop is checked like the first URL. */
  async fetchFollowing(url: string, options: FollowOptions = {}): Promise<FetchResult> {
    const maxHops = options.maxHops ?? this.options.maxRedirects;
    const hops: RedirectHop[] = [];
    const seen = new Set<string>([url]);
    let current = url;
    for (;;) {
      const result = await this.fetch(current, options);
      if (!isRedirect(result)) return { ...result, redirects: hops };
      const raw = result.headers.location;
      const next = raw ? URL.parse(raw.trim(), current)?.href : undefined;
      const stop = (kind: "protocol" | "redirect" | "bad_scheme", detail: string) =>
        failed(current, kind, detail, {
          status: result.status,
          headers: result.headers,
          redirects: hops,
          attempts: result.attempts,
          address: result.address,
        });
      if (!next) return stop("protocol", `HTTP ${result.status} with an unusable Location`);
      hops.push({ url: current, status: result.status, location: next });
      if (!/^https?:/i.test(next))
        return stop("bad_scheme", `redirect to ${next.split(":")[0]}: refused`);
      if (seen.has(next)) return stop("redirect", `redirect loop back to ${next}`);
      if (hops.length > maxHops)
        return stop("redirect", `more than ${counted(maxHops, "redirect")}`);
      const refused = options.refuseHop?.(next) ?? null;
      if (refused) return { ...result, redirects: hops.slice(0, -1) };
      seen.add(next);
      current = next;
    }
  }
}
