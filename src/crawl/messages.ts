/**
 * Messages between the scheduler (main thread) and the crawl workers: tagged unions, plain data.
 * A page's body never crosses: the worker fetches and processes it and sends back the result.
 */
import type { Config } from "../config.ts";
import type { FetchFailure } from "./fetch-result.ts";
import type { FetchOutcome } from "./outcome.ts";
import type { ProcessedPage } from "./process-page.ts";
import type { RenderCandidate, RenderMode } from "./render/detector.ts";

export interface PageTask {
  readonly id: number;
  readonly url: string;
  /** Validators of the stored page, for a conditional request (refresh). */
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** The page's `<lastmod>` in a sitemap (YYYY-MM-DD): its date when it states none. */
  readonly sitemapLastmod: string | null;
  /** `auto` or `always`: the worker hands back the static body of a page to render. */
  readonly render?: RenderMode;
  /** The page as the browser rendered it: processed, not fetched. */
  readonly rendered?: { readonly html: string; readonly fetch: FetchMeta };
}

/** What the fetch gave, without the body. */
export interface FetchMeta {
  readonly status: number;
  readonly elapsedMs: number;
  readonly attempts: number;
  readonly error: FetchFailure | null;
  /** The response headers the ledger and the store keep (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
}

export type ToWorker =
  | { readonly type: "init"; readonly config: Config; readonly ca?: readonly string[] }
  | { readonly type: "page"; readonly task: PageTask }
  | { readonly type: "granted"; readonly ticket: number };

export type FromWorker =
  | { readonly type: "ready" }
  | { readonly type: "acquire"; readonly ticket: number; readonly host: string }
  | { readonly type: "release"; readonly ticket: number }
  | {
      readonly type: "record";
      readonly host: string;
      readonly elapsedMs: number;
      readonly status: number;
      readonly retryAfterS: number | null;
    }
  | { readonly type: "fetched"; readonly id: number; readonly status: number }
  | {
      readonly type: "done";
      readonly id: number;
      readonly fetch: FetchMeta;
      readonly outcome: FetchOutcome;
      readonly page: ProcessedPage | null;
      readonly render?: RenderCandidate;
    }
  | { readonly type: "failed"; readonly id: number; readonly error: string };

/** Response headers worth keeping from a page fetch. */
export const KEPT_HEADERS = [
  "content-type",
  "content-language",
  "etag",
  "last-modified",
  "location",
  "x-robots-tag",
  "retry-after",
] as const;
