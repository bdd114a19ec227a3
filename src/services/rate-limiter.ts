import { counted } from "../plural.ts";
import { ServiceError } from "./errors.ts";

/** What a limiter counts: singular and plural. */
export type Noun = readonly [string, string];
const CRAWL_STARTS: Noun = ["crawl start", "crawl starts"];

/** The 429 for a key past its crawl starts (or `what`); `retry` seconds until one is free. */
export function rateLimited(
  perMinute: number,
  retry: number,
  what: Noun = CRAWL_STARTS,
): ServiceError {
  return new ServiceError(
    "rate_limited",
    `at most ${counted(perMinute, what[0], what[1])} per minute per key`,
    {
      headers: { "Retry-After": String(retry) },
    },
  );
}

/**
 * Crawl starts per key in a sliding one-minute window, counted in this process. Only accepted
 * crawls count: `withSlot` gives the start back when the guarded work throws (a 409 costs nothing).
 */
export class RateLimiter {
  readonly #perMinute: number;
  readonly #hits = new Map<string, number[]>();
  readonly #now: () => number;
  readonly #what: Noun;

  /** `what` names the counted action in the 429 ("crawl start", "URL fetch"). */
  constructor(
    perMinute: number,
    now: () => number = () => performance.now(),
    what: Noun = CRAWL_STARTS,
  ) {
    this.#perMinute = perMinute;
    this.#now = now;
    this.#what = what;
  }

  /** Takes one start now, or throws 429 with the seconds until one is free. */
  take(key: string): number {
    const now = this.#now();
    const hits = (this.#hits.get(key) ?? []).filter((t) => t > now - 60_000);
    this.#hits.set(key, hits);
    const oldest = hits[0];
    if (hits.length >= this.#perMinute && oldest !== undefined) {
      const retry = Math.max(1, Math.ceil((60_000 - (now - oldest)) / 1000));
      throw rateLimited(this.#perMinute, retry, this.#what);
    }
    hits.push(now);
    return now;
  }

  withSlot<T>(key: string, work: () => T): T {
    const stamp = this.take(key);
    try {
      return work();
    } catch (err) {
      const hits = this.#hits.get(key);
      const at = hits?.indexOf(stamp) ?? -1;
      if (hits && at >= 0) hits.splice(at, 1);
      throw err;
    }
  }
}
