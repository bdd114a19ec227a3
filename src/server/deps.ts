import type { Config } from "../config.ts";
import type { Store } from "../db/client.ts";
import type { UrlFetching } from "../services/fetch-service.ts";
import type { RateLimiter } from "../services/rate-limiter.ts";
import type { SearchDeps } from "../services/search-service.ts";

/** What the routes are given: plain dependencies, no singletons. */
export interface AppDeps {
  readonly config: Config;
  readonly store: Store;
  readonly limiter: RateLimiter;
  /** Chunks of a job still waiting for vectors; null when the service embeds nothing. */
  readonly embeddingBacklog: ((jobId: string) => number) | null;
  /** The search index; null when this process serves no search (answers 501). */
  readonly search: Omit<SearchDeps, "config" | "db"> | null;
  /** One-URL fetching (POST /api/fetch, read_url); by default one per configuration. */
  readonly fetching?: UrlFetching;
  /** Called after a crawl is queued (wakes the crawl scheduler). */
  readonly onCrawlQueued?: () => void;
}
