/**
 * Per-host pacing: a concurrency cap and a minimum gap between request starts.
 *
 * Adaptive mode follows Scrapy's AutoThrottle: a host answering in `latency` gets one request
 * every `latency / targetConcurrency`, the delay moving halfway toward that target on each
 * response; 429/503 double it. It never drops below the floor (the configured delay, raised by
 * robots.txt Crawl-delay when larger) nor rises above `maxDelayMs`. A `Retry-After` holds the
 * host's next start until then (whatever the mode: the server said so).
 */
import type { Config } from "../config.ts";

export interface PolitenessOptions {
  readonly delayMs?: number;
  readonly concurrency?: number;
  readonly adaptive?: boolean;
  readonly maxDelayMs?: number;
  readonly targetConcurrency?: number;
  readonly backoffMinMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What the fetcher needs from pacing (HostThrottle, or a stand-in that does nothing). */
export interface Pacer {
  /** Waits for a slot on `host`; call the returned function when the request is done. */
  acquire(host: string): Promise<() => void>;
  /** Feeds back one response (status 0: none) and any Retry-After it carried. */
  record(host: string, elapsedMs: number, status: number, retryAfterS?: number | null): void;
}

/** No pacing at all (benchmarks, one-off fetches). */
export const unpaced: Pacer = {
  acquire: async () => () => {},
  record: () => {},
};

const BACKOFF_STATUSES = new Set([429, 503]);

interface HostState {
  floor: number;
  delay: number;
  nextStart: number;
  inFlight: number;
  readonly waiting: (() => void)[];
}

export class HostThrottle implements Pacer {
  readonly delayMs: number;
  readonly concurrency: number;
  readonly adaptive: boolean;
  readonly maxDelayMs: number;
  readonly targetConcurrency: number;
  readonly backoffMinMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #hosts = new Map<string, HostState>();

  constructor(options: PolitenessOptions = {}) {
    const concurrency = options.concurrency ?? 4;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError("host concurrency must be at least 1");
    }
    this.delayMs = Math.max(0, options.delayMs ?? 250);
    this.concurrency = concurrency;
    this.adaptive = options.adaptive ?? true;
    this.maxDelayMs = Math.max(options.maxDelayMs ?? 60_000, this.delayMs);
    this.targetConcurrency = options.targetConcurrency ?? concurrency;
    this.backoffMinMs = options.backoffMinMs ?? 1000;
    this.#now = options.now ?? performance.now.bind(performance);
    this.#sleep = options.sleep ?? ((ms) => Bun.sleep(ms));
  }

  static fromConfig(
    config: Config,
    deps: Pick<PolitenessOptions, "now" | "sleep"> = {},
  ): HostThrottle {
    return new HostThrottle({
      delayMs: config.crawlDelayS * 1000,
      concurrency: config.hostConcurrency,
      adaptive: config.adaptiveDelay,
      ...deps,
    });
  }

  #host(host: string): HostState {
    const key = host.toLowerCase();
    let state = this.#hosts.get(key);
    if (!state) {
      state = { floor: this.delayMs, delay: this.delayMs, nextStart: 0, inFlight: 0, waiting: [] };
      this.#hosts.set(key, state);
    }
    return state;
  }

  /** Current gap between request starts for `host`. */
  delay(host: string): number {
    return this.#host(host).delay;
  }

  /** robots.txt Crawl-delay (seconds): raises the floor, never below our own delay. */
  setCrawlDelayS(host: string, seconds: number): void {
    const state = this.#host(host);
    state.floor = Math.min(Math.max(this.delayMs, seconds * 1000), this.maxDelayMs);
    state.delay = Math.max(state.delay, state.floor);
  }

  async acquire(host: string): Promise<() => void> {
    const state = this.#host(host);
    if (state.inFlight >= this.concurrency) {
      await new Promise<void>((resolve) => state.waiting.push(resolve));
    } else {
      state.inFlight++;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = state.waiting.shift();
      if (next)
        next(); // the slot passes straight to the next waiter
      else state.inFlight--;
    };
    const now = this.#now();
    const start = Math.max(now, state.nextStart);
    state.nextStart = start + state.delay; // reserved before waiting: no race
    if (start > now) {
      try {
        await this.#sleep(start - now);
      } catch (err) {
        release();
        throw err;
      }
    }
    return release;
  }

  /** Runs `task` inside a slot of `host`. */
  async run<T>(host: string, task: () => Promise<T>): Promise<T> {
    const release = await this.acquire(host);
    try {
      return await task();
    } finally {
      release();
    }
  }

  record(host: string, elapsedMs: number, status: number, retryAfterS: number | null = null): void {
    const state = this.#host(host);
    if (retryAfterS !== null && retryAfterS > 0) {
      const until = this.#now() + Math.min(retryAfterS * 1000, this.maxDelayMs);
      state.nextStart = Math.max(state.nextStart, until);
    }
    if (!this.adaptive || status === 0) return;
    let next: number;
    if (BACKOFF_STATUSES.has(status)) {
      next = Math.max(state.delay * 2, this.backoffMinMs);
    } else {
      const target = Math.max(elapsedMs, 0) / this.targetConcurrency;
      next = Math.max(target, (state.delay + target) / 2);
      // Error pages and redirects are fast and small: they must not speed us up.
      const good = (status >= 200 && status < 300) || status === 304;
      if (!good && next < state.delay) return;
    }
    state.delay = Math.min(Math.max(next, state.floor), this.maxDelayMs);
  }
}
