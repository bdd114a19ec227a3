/**
 * One URL on demand (POST /api/fetch, the MCP tool `read_url`, `webcorpus inspect URL`): fetched
 * through the crawler's fetcher (its SSRF guard, `WEBCORPUS_CONNECT_TO`, timeouts and body cap;
 * redirects followed hop by hop, each hop checked), robots.txt read first for our user agent,
 * then extracted, scored and chunked as a crawled page (an HTML page or a PDF). Stored only when
 * asked (`store: true`: a one-URL crawl job stores it, see `fetchUrl`).
 *
 * Refusals, as problems (never a 500):
 * - a URL that is not http(s), has no host, is too long, or whose address the SSRF guard
 *   refuses: 400 naming `url`;
 * - a URL robots.txt disallows for our user agent: 451 `robots_disallowed`, naming robots.txt
 *   (451 rather than 403, which the API keeps for a key lacking a right);
 * - the site did not give a page (timeout, DNS, TLS, 4xx/5xx, too many redirects, body over the
 *   cap), or gave no answer to robots.txt (network trouble, 5xx, 429: the crawler reads that as
 *   "disallow all" and nothing is fetched): 502 `fetch_failed`;
 * - the answer is not a page the crawler would index (neither HTML nor PDF, noindex): 422
 *   `not_a_page`; a PDF that cannot be read: 502 `fetch_failed`;
 * - `store: true` while the URL's domain has a crawl under way: 409 `conflict`.
 */

import { type Config, disableProxies } from "../config.ts";
import { registrableDomain } from "../crawl/domains.ts";
import { refusedAddress } from "../crawl/fetch-errors.ts";
import type { FetchResult } from "../crawl/fetch-result.ts";
import { Fetcher, fetcherOptions } from "../crawl/fetcher.ts";
import { fetchOutcome } from "../crawl/outcome.ts";
import { HostThrottle } from "../crawl/politeness.ts";
import { processBody } from "../crawl/process-page.ts";
import { robotsUrl } from "../crawl/robots.ts";
import { RobotsReader } from "../crawl/robots-cache.ts";
import { normalizeUrl, pageId, urlHost } from "../crawl/urls.ts";
import type { Db } from "../db/client.ts";
import { pageState } from "../db/crawl-repo.ts";
import { chunkMarkdown } from "../search/chunking.ts";
import { anchorsOnly } from "../search/link-anchors.ts";
import { loadTokenCounter, MODEL_DIR, modelFiles } from "../search/model-files.ts";
import { indexEvidence, markdownShape } from "../search/vector-policy.ts";
import { pageWithFrontmatter } from "./content-service.ts";
import { type CrawlRequest, crawlRequest, startCrawl } from "./crawl-service.ts";
import { invalidBody, ServiceError } from "./errors.ts";
import { RateLimiter } from "./rate-limiter.ts";

/** The longest URL a fetch takes (characters). */
export const MAX_URL_CHARS = 2048;

/** Chunks as the crawl workers cut them: by the embedding model's own word pieces. */
export function chunkerFor(config: Config | null) {
  let dir = MODEL_DIR;
  try {
    // The tokenizer is the same for every variant; an fp32 graph that is missing does not matter.
    dir = modelFiles(config?.modelDir ?? null, "int8").dir;
  } catch {}
  const counter = loadTokenCounter(dir);
  return (markdown: string, title: string | null) => chunkMarkdown(markdown, counter, { title });
}

export type Chunker = ReturnType<typeof chunkerFor>;

/** The URL a caller gave, normalized, or a 400 naming `field` (`url` for the API). */
export function checkUrl(raw: string, field = "url"): string {
  if (raw.length > MAX_URL_CHARS)
    throw invalidBody(field, `is longer than ${MAX_URL_CHARS} characters`);
  const parsed = URL.parse(raw.trim());
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
    throw invalidBody(field, "must be an absolute http(s) URL");
  if (!parsed.hostname) throw invalidBody(field, "has no host");
  const url = normalizeUrl(raw.trim());
  if (url === null) throw invalidBody(field, "must be an absolute http(s) URL");
  return url;
}

/** What the crawler would store for one page: markdown, metadata, facets, chunks. */
export async function inspectPage(
  html: Uint8Array,
  url: string,
  headers: Record<string, string>,
  explain: boolean,
  options: { chunk?: Chunker; vectorPolicy?: boolean } = {},
) {
  const processOptions = {
    headers,
    ...(options.chunk ? { chunk: options.chunk } : {}),
    vectorPolicy: options.vectorPolicy ?? true,
  };
  const page = await processBody(html, url, processOptions);
  if ("error" in page)
    throw new ServiceError("fetch_failed", `${url}: fetchError: ${page.error}`, {
      extra: { bucket: "fetchError" },
    });
  const { doc, facets } = page;
  const host = urlHost(url) ?? "";
  const canonical = doc.canonicalUrl ? normalizeUrl(doc.canonicalUrl, url) : null;
  return {
    id: pageId(url),
    url,
    canonical_url: canonical ?? url,
    title: doc.title,
    description: doc.description,
    domain: registrableDomain(host, { allowPrivateSuffixes: true }) ?? host,
    facets,
    markdown: doc.markdown,
    metadata: {
      declared_language: doc.language,
      hreflang: doc.hreflang.map(([hreflang, href]) => ({ hreflang, url: href })),
      noindex: doc.noindex,
      nofollow: doc.nofollow,
      jsonld_types: doc.jsonldTypes,
      og_type: doc.ogType,
      published_extracted: doc.published,
    },
    assets: doc.assets,
    links: doc.links.map((l) => ({
      url: l.url,
      anchor_text: l.anchorText,
      position: l.position,
      nofollow: l.nofollow,
    })),
    // The chunks search indexes, each with its heading path and word pieces; `vector: false` for
    // those the vector policy leaves to text search (WEBCORPUS_INDEX_PAGE_VECTORS=policy).
    chunks: page.chunks.map((c) => ({
      index: c.index,
      heading: anchorsOnly(c.heading), // shown as search shows it: links read as their anchors
      tokens: c.tokens,
      vector: c.vectorWanted !== false,
      text: c.text,
    })),
    ...(explain ? { explain: page.explain } : {}),
    signals: {
      extract_ms: Math.round((page.timings.extract ?? 0) * 100) / 100,
      facets_ms: Math.round((page.timings.facets ?? 0) * 100) / 100,
      boilerplate_share: Math.round(page.boilerplate * 1000) / 1000,
      simhash: page.simhash,
      body_links: doc.links.filter((l) => l.position === "body").length,
      template_links: doc.links.filter((l) => l.position === "template").length,
      // Why the vector policy reads the page as a generated index (null: it does not); such a
      // page gives vectors to its first chunks only.
      index_page: indexEvidence({
        url,
        type: facets.type,
        chunks: page.chunks.length,
        shape: markdownShape(doc.markdown),
      }),
    },
  };
}

export type InspectedPage = Awaited<ReturnType<typeof inspectPage>>;

/** A fetched page: its body, final URL (after redirects) and response headers. */
export interface FetchedBody {
  readonly body: Uint8Array;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly fetchedAt: string;
}

function ssrfRefusal(field: string, detail: string): ServiceError {
  return invalidBody(field, refusedAddress(detail));
}

function robotsRefusal(url: string, why: string): ServiceError {
  return new ServiceError("robots_disallowed", `${url}: ${why}`, {
    extra: { robots_url: robotsUrl(url) },
  });
}

/** The problem for a fetch that gave no page, as the crawler would have booked it. */
function fetchRefusal(result: FetchResult, url: string, field: string): ServiceError {
  if (result.error?.kind === "ssrf") return ssrfRefusal(field, result.error.detail);
  if (result.error?.kind === "bad_scheme")
    return invalidBody(field, `redirected to a non-http(s) URL (${result.error.detail})`);
  const outcome = fetchOutcome({ ...result, url });
  if (outcome.kind === "page") throw new Error("fetchRefusal of a page");
  if (outcome.bucket === "notHtml" || outcome.bucket === "noindex")
    return new ServiceError(
      "not_a_page",
      `${url}: ${outcome.bucket}: ${outcome.reason}: not a page the crawler indexes`,
      { extra: { bucket: outcome.bucket } },
    );
  return new ServiceError("fetch_failed", `${url}: ${outcome.bucket}: ${outcome.reason}`, {
    extra: { bucket: outcome.bucket, ...(result.status ? { upstream_status: result.status } : {}) },
  });
}

/**
 * Fetches single URLs as the crawler does, for one process: one fetcher, robots.txt cached per
 * origin (a day; an unreachable one ten minutes), the chunker loaded on first use. Requests are
 * paced per host as the crawl paces them (`WEBCORPUS_CRAWL_DELAY_S`, host concurrency, robots.txt
 * Crawl-delay, Retry-After); `serve` hands it the crawl scheduler's pacer, so a site being
 * crawled and fetched on demand at once sees one pace.
 */
export class UrlReader {
  readonly #config: Config;
  readonly #fetcher: Fetcher;
  readonly #throttle: HostThrottle;
  readonly #robots: RobotsReader;
  #chunk: Chunker | null = null;

  constructor(config: Config, options: { throttle?: HostThrottle } = {}) {
    disableProxies();
    this.#config = config;
    this.#throttle = options.throttle ?? HostThrottle.fromConfig(config);
    this.#fetcher = new Fetcher(fetcherOptions(config, { pacer: this.#throttle }));
    this.#robots = new RobotsReader({ fetcher: this.#fetcher, userAgent: config.userAgent });
  }

  get chunk(): Chunker {
    this.#chunk ??= chunkerFor(this.#config);
    return this.#chunk;
  }

  async #checkRobots(url: string, field: string): Promise<void> {
    const policy = await this.#robots.policy(url);
    if (policy.crawlDelayS) this.#throttle.setCrawlDelayS(urlHost(url) ?? "", policy.crawlDelayS);
    if (policy.allowed(url)) return;
    if (policy.failure?.kind === "ssrf") throw ssrfRefusal(field, policy.failure.detail);
    if (policy.status === "unreachable") {
      // The site gave no answer to robots.txt (network trouble, 5xx, 429): the crawler reads
      // that as "disallow all" and retries later; here it is the site failing, a 502.
      const why = policy.failure
        ? `${policy.failure.kind}: ${policy.failure.detail}`
        : `HTTP ${policy.httpStatus}`;
      throw new ServiceError(
        "fetch_failed",
        `${url}: robots.txt could not be read (${why}); nothing is fetched without it`,
        {
          extra: {
            bucket: "fetchError",
            robots_url: robotsUrl(url),
            ...(policy.httpStatus ? { upstream_status: policy.httpStatus } : {}),
          },
        },
      );
    }
    throw robotsRefusal(url, `disallowed by robots.txt for user agent ${policy.token}`);
  }

  /**
   * The page at `url` (normalized), or a problem: robots.txt of the URL (and of the final URL
   * after redirects) must allow it. `robots: false` skips robots.txt (`webcorpus inspect`).
   */
  async fetch(
    url: string,
    options: { robots?: boolean; field?: string } = {},
  ): Promise<FetchedBody> {
    const field = options.field ?? "url";
    const robots = options.robots ?? true;
    if (robots) await this.#checkRobots(url, field);
    // A redirect into a path robots.txt disallows is not followed when that origin's robots.txt
    // is known (the first URL's always is); other origins are checked after the fetch.
    let disallowedHop: string | null = null;
    const refuseHop = (next: string): string | null => {
      const policy = this.#robots.cache.get(next);
      if (policy?.status !== "ok" || policy.allowed(next)) return null;
      disallowedHop = next;
      return "disallowed by robots.txt";
    };
    const result = await this.#fetcher.fetchFollowing(url, robots ? { refuseHop } : {});
    if (disallowedHop !== null) {
      const hop: string = disallowedHop;
      throw robotsRefusal(hop, `redirected to a URL robots.txt disallows (from ${url})`);
    }
    const final = result.redirects.at(-1)?.location ?? url;
    const outcome = fetchOutcome({ ...result, url: final });
    if (outcome.kind !== "page") throw fetchRefusal(result, final, field);
    const finalUrl = normalizeUrl(final) ?? final;
    if (robots && finalUrl !== url) await this.#checkRobots(finalUrl, field);
    return {
      body: result.body,
      url: finalUrl,
      headers: { ...result.headers },
      fetchedAt: new Date().toISOString(),
    };
  }

  /** Fetched and processed as a crawled page. */
  async read(url: string, options: { explain?: boolean } = {}) {
    const page = await this.fetch(url);
    const inspected = await inspectPage(
      page.body,
      page.url,
      page.headers,
      options.explain ?? false,
      {
        chunk: this.chunk,
        vectorPolicy: this.#config.indexPageVectors === "policy",
      },
    );
    return { page: inspected, fetchedAt: page.fetchedAt };
  }
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A read page as the API answers it: the page view with a chunk summary. */
export function fetchedView(page: InspectedPage, fetchedAt: string) {
  const f = page.facets;
  return {
    id: page.id,
    url: page.url,
    canonical_url: page.canonical_url,
    title: page.title,
    description: page.description,
    domain: page.domain,
    facets: {
      type: f.type,
      format: f.format,
      audience: f.audience,
      locale: f.locale,
      topics: [...f.topics],
      technicality: round3(f.technicality),
      depth: round3(f.depth),
      originality: round3(f.originality),
      promotional: round3(f.promotional),
      has_code: f.has_code,
      words: f.words,
      published: f.published,
    },
    markdown: page.markdown,
    chunks: {
      count: page.chunks.length,
      tokens: page.chunks.reduce((sum, c) => sum + c.tokens, 0),
      headings: page.chunks.map((c) => c.heading),
    },
    fetched_at: fetchedAt,
    stored: false,
  };
}

export type FetchedView = ReturnType<typeof fetchedView>;

/** The page as markdown behind a YAML frontmatter, as /api/content/{id}.md renders a page. */
export function fetchedMarkdown(view: FetchAnswer): string {
  return pageWithFrontmatter(
    {
      id: view.id,
      url: view.url,
      canonical_url: view.canonical_url,
      title: view.title,
      domain: view.domain,
      locale: view.facets.locale,
      type: view.facets.type,
      published: view.facets.published,
      fetched_at: view.fetched_at,
      words: view.facets.words,
      ...(view.job_id ? { job_id: view.job_id } : {}),
    },
    view.markdown,
  );
}

export interface FetchRequest {
  readonly url: string;
  readonly store?: boolean;
}

/** The corpus a fetch reads (is the page stored?) and stores into (`store: true`). */
export interface FetchCorpus {
  readonly db: Db;
  readonly config: Config;
  /** Wakes the crawl scheduler once a store job is queued. */
  readonly onQueued?: () => void;
}

/** A fetched page, whether the corpus holds it, and the job storing it (`store: true`). */
export type FetchAnswer = FetchedView & { readonly job_id: string | null };

/** Pages a store job may fetch: the URL and the canonical it may name. */
const STORE_BUDGET = 2;

/** The one-URL crawl that stores `url`, or a 400 naming `store` when its host cannot be crawled. */
function storeRequest(config: Config, url: string): CrawlRequest {
  const host = urlHost(url) ?? "";
  try {
    return {
      ...crawlRequest(config, { domain: host, start: [url], budget: STORE_BUDGET, refresh: true }),
      startOnly: true,
    };
  } catch (err) {
    if (err instanceof ServiceError && err.code === "invalid_body")
      throw invalidBody(
        "store",
        `${url} cannot be stored: ${err.errors[0]?.message ?? err.message}`,
      );
    throw err;
  }
}

/**
 * One URL on demand for a key: checked, counted against the key's fetches per minute, fetched
 * and processed, answered at once. With `store: true` a one-URL crawl job (`startOnly`: no
 * sitemaps, no links followed) then stores it through the crawler's own path (robots, pacing,
 * duplicates, canonical, chunks, vectors), fetching it once more; `job_id` names it, and a domain
 * whose crawl is under way answers 409. `stored` says whether the corpus holds the page now.
 */
export async function fetchUrl(
  reader: UrlReader,
  limiter: RateLimiter,
  request: FetchRequest,
  keyId: string | null,
  corpus: FetchCorpus | null = null,
): Promise<FetchAnswer> {
  const url = checkUrl(request.url);
  const store = request.store === true;
  if (store) {
    if (corpus === null) throw invalidBody("store", "this server keeps no corpus to store into");
    storeRequest(corpus.config, url); // refused before anything is fetched
  }
  limiter.take(keyId ?? "");
  const { page, fetchedAt } = await reader.read(url);
  const view = fetchedView(page, fetchedAt);
  const stored = corpus !== null && pageState(corpus.db, page.id) !== null;
  if (!store || corpus === null) return { ...view, stored, job_id: null };
  const job = startCrawl(corpus.db, storeRequest(corpus.config, page.url), keyId, null);
  corpus.onQueued?.();
  return { ...view, stored, job_id: job.id };
}

/** The reader and the per-key limiter of one-URL fetches, shared by the API and MCP. */
export interface UrlFetching {
  readonly reader: UrlReader;
  readonly limiter: RateLimiter;
}

const shared = new WeakMap<Config, UrlFetching>();

/**
 * The process's one-URL fetching for a configuration (made on first use; `throttle`: the crawl
 * scheduler's, when the process crawls).
 */
export function urlFetching(config: Config, throttle?: HostThrottle): UrlFetching {
  let fetching = shared.get(config);
  if (!fetching) {
    fetching = {
      reader: new UrlReader(config, throttle ? { throttle } : {}),
      limiter: new RateLimiter(config.fetchRatePerMinute, undefined, ["URL fetch", "URL fetches"]),
    };
    shared.set(config, fetching);
  }
  return fetching;
}
