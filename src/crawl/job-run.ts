/**
 * The state of one running crawl job and the ledger operations every stage uses. The ledger in
 * SQLite is the one truth: every URL gets a row the moment it is known (`add`) and moves from
 * `pending` to exactly one final bucket (`book`, or the page write itself).
 */
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { JobParams, JobRow } from "../db/jobs-repo.ts";
import {
  addUrls,
  recordDiscovery,
  setUrl,
  type UrlEntry,
  type UrlUpdate,
} from "../db/ledger-repo.ts";
import type { PageWrite } from "../db/page-writes.ts";
import { SimhashIndex } from "../facets/simhash.ts";
import { TEMPLATE_SHARE } from "../facets/templates.ts";
import type { Bucket } from "./buckets.ts";
import { CanonicalWaits } from "./canonical-waits.ts";
import { TEMPLATE_MIN_PAGES } from "./citations.ts";
import type { Fetcher } from "./fetcher.ts";
import { Frontier, priorityFor } from "./frontier.ts";
import type { HostThrottle } from "./politeness.ts";
import { indexShaped, priorityOf, rerankAt, templateSoFar, translationKey } from "./priority.ts";
import type { RobotsReader } from "./robots-cache.ts";
import { CrawlScope } from "./scope.ts";
import type { TrapGuard } from "./trap-guard.ts";
import { inScope, nonPageExtension, normalizeUrl, pageId, urlHost } from "./urls.ts";
import type { CrawlPool } from "./worker-pool.ts";

/** Where a page's link points, as its link row records it. */
export interface LinkTarget {
  readonly url: string;
  readonly pageId: string;
  readonly host: string;
  readonly internal: boolean;
}

const LINK_TARGETS_CACHED = 50_000;

/** A link of a fetched page: its URL as extracted, and whether it sits in the page's body. */
export interface PageLink {
  readonly url: string;
  readonly body: boolean;
}

/** Told when a page is stored (handed what was written), so its chunks reach the search index. */
export interface PageIndexer {
  pageStored(page: PageWrite): void;
}

export interface JobDeps {
  readonly config: Config;
  readonly db: Db;
  readonly pool: CrawlPool;
  readonly throttle: HostThrottle;
  readonly fetcher: Fetcher;
  readonly owner: string;
  readonly indexer: PageIndexer | null;
  /** Chunks of the job still waiting for vectors; null when nothing is embedded. */
  readonly embeddingBacklog: ((jobId: string) => number) | null;
  readonly log: (message: string) => void;
}

export class JobRun {
  readonly deps: JobDeps;
  readonly job: JobRow;
  readonly params: JobParams;
  readonly domain: string;
  readonly frontier = new Frontier();
  /** Sitemap URLs in an order fixed by a hash of each: every `SAMPLE_EVERY`th visit takes the
   * next, so the body-link counts the frontier ranks by come from a spread of the site, not only
   * from the cluster the best-ranked pages link to. */
  readonly #sample = new Frontier();
  #turns = 0;
  /** Scope, include and exclude (scope.ts); a `host` scope learns its host at discovery. */
  scope: CrawlScope;
  /** URLs in this job's ledger. */
  readonly known: Set<string>;
  /** URLs taken from the frontier: never fetched twice. */
  readonly started = new Set<string>();
  /** URLs whose visit is under way. */
  readonly visiting = new Set<string>();
  /** Pages waiting for the fate of their canonical URL (canonical-waits.ts). */
  readonly canonicalWaits = new CanonicalWaits();
  /** In-scope link URLs already handled in this job. */
  readonly linked = new Set<string>();
  readonly lastmod = new Map<string, string>();
  /** Sitemap `<priority>` by URL, where stated. */
  readonly sitemapPriority = new Map<string, number>();
  readonly hops = new Map<string, number>();
  /** Origins whose robots.txt sitemaps this job has read (or is reading): each once. */
  readonly sitemapOrigins = new Set<string>();
  /** Link targets by the URL as extracted (null: not crawlable): a site's navigation links
   * recur on every page, and each needs a URL parse, a scope check and a SHA-256. */
  readonly #linkTargets = new Map<string, LinkTarget | null>();
  /** Out-of-scope link URLs seen lately (see `addLinks`). */
  readonly #outOfScope = new Set<string>();
  /** Frontier order by expected value (priority.ts); false: breadth-first (benchmarks). */
  readonly #ranked: boolean;
  /** Pages linking to each in-scope URL so far, and how many pages gave their links. */
  readonly #inlinks = new Map<string, number>();
  #linkingPages = 0;
  /** Pending ranked entries as last queued (re-queued ahead when body links raise them). */
  readonly #queued = new Map<string, { entry: UrlEntry; index: boolean; key: string | null }>();
  /** By translation key (priority.ts): the most body links of a translation so far, the pages
   * (by their own key) linking any translation, and the queued URLs sharing the key. */
  readonly #translated = new Map<string, number>();
  readonly #keySources = new Map<string, Set<string>>();
  readonly #byKey = new Map<string, Set<string>>();
  readonly #keys = new Map<string, string | null>();
  /** Text hashes of pages this job stored, before their writes are visible to queries. */
  readonly textHashes = new Map<string, string>();
  readonly simhashes: SimhashIndex;
  readonly info: Record<string, unknown>;
  robots!: RobotsReader;
  traps!: TrapGuard;
  fetched: number;
  budgetSpent = false;
  cancelled = false;
  lost = false;
  stopping = false;
  failure: Error | null = null;
  inFlight = 0;
  cpuMs = 0;
  /** Worker CPU milliseconds per processing stage, summed over the job's pages. */
  readonly stageMs: Record<string, number> = {};
  processed = 0;
  #wake: (() => void) | null = null;

  constructor(
    deps: JobDeps,
    job: JobRow,
    known: Set<string>,
    fetched: number,
    simhashes: [string, string][],
  ) {
    this.deps = deps;
    this.job = job;
    this.params = JSON.parse(job.params) as JobParams;
    this.domain = job.domain;
    this.known = known;
    this.fetched = fetched;
    this.info = JSON.parse(job.info) as Record<string, unknown>;
    const host = this.info.scope_host;
    this.scope = new CrawlScope(job.domain, this.params, typeof host === "string" ? host : null);
    this.#ranked = deps.config.frontierOrder !== "bfs";
    this.simhashes = new SimhashIndex(simhashes.map(([id, h]) => [id, BigInt(`0x${h}`)] as const));
  }

  get db(): Db {
    return this.deps.db;
  }

  get halted(): boolean {
    return this.cancelled || this.lost || this.stopping || this.failure !== null;
  }

  /** Wakes workers waiting for the frontier to fill or the job to end. */
  wake(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  waitForWork(): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    const previous = this.#wake;
    this.#wake = () => {
      previous?.();
      resolve();
    };
    return promise;
  }

  /**
   * Whether the job has visits enough under way: twice as many as its hosts run at once (the
   * rest of a visit, processing, overlaps the next fetches). Visits beyond that would only wait
   * for a host slot, and the URLs they hold would be taken in the order workers happened to free
   * up, not the frontier's: what a budget is spent on is decided here. Politeness is the
   * throttle's, unchanged.
   */
  slotsTaken(): boolean {
    if (this.inFlight === 0) return false;
    const hosts = new Set<string>();
    for (const url of this.visiting) hosts.add(urlHost(url) ?? "");
    return this.inFlight >= 2 * this.deps.throttle.concurrency * hosts.size;
  }

  /** Books a URL in its final bucket. */
  book(url: string, bucket: Bucket, reason: string | null, update: UrlUpdate = {}): void {
    setUrl(this.db, this.job.id, url, bucket, reason, update);
  }

  /**
   * Adds URLs the job did not know: scope- and trap-checked (`filtered` with the reason when
   * refused; an entry is held to the scope only, not to the patterns), recorded in the ledger,
   * queued if pending.
   */
  add(entries: UrlEntry[]): void {
    const fresh: UrlEntry[] = [];
    for (const e of entries) {
      if (this.known.has(e.url)) continue;
      this.known.add(e.url);
      if (e.bucket === "pending") {
        const reason =
          this.scope.refusal(e.url, e.source === "entry") ?? this.traps.check(e.url, e.depth);
        if (reason) {
          e.bucket = "filtered";
          e.reason = reason;
        }
      }
      if (e.bucket === "pending" && this.#ranked && e.source === "sitemap")
        this.#sample.push({ ...e, priority: Number(Bun.hash(e.url) % 1_000_000n) });
      if (e.bucket === "pending" && this.#ranked && RANKED_SOURCES.has(e.source)) {
        const index = indexShaped(e.url);
        const key = this.#keyOf(e.url);
        e.priority = this.#rank(e, index, key);
        this.#queued.set(e.url, { entry: e, index, key });
        if (key !== null) {
          const urls = this.#byKey.get(key);
          if (urls === undefined) this.#byKey.set(key, new Set([e.url]));
          else urls.add(e.url);
        }
      }
      fresh.push(e);
    }
    if (fresh.length === 0) return;
    for (const e of addUrls(this.db, this.job.id, fresh))
      if (e.bucket === "pending") this.frontier.push(e);
    this.wake();
  }

  /** The next URL to visit (null: none pending): the frontier's best, or the sample's next. */
  next(): UrlEntry | null {
    if (++this.#turns % SAMPLE_EVERY === 0) {
      for (let e = this.#sample.pop(); e !== null; e = this.#sample.pop())
        if (!this.started.has(e.url)) return e;
    }
    return this.frontier.pop();
  }

  /** Body links of a URL so far: none while its link is on most pages (template). */
  #bodyLinks(url: string): number {
    const n = this.#inlinks.get(url) ?? 0;
    return templateSoFar(n, this.#linkingPages, TEMPLATE_SHARE, TEMPLATE_MIN_PAGES) ? 0 : n;
  }

  #keyOf(url: string): string | null {
    let key = this.#keys.get(url);
    if (key === undefined) {
      key = translationKey(url);
      if (this.#keys.size >= LINK_TARGETS_CACHED) this.#keys.clear();
      this.#keys.set(url, key);
    }
    return key;
  }

  #rank(e: UrlEntry, index: boolean, key: string | null): number {
    const own = this.#bodyLinks(e.url);
    const translated = key === null ? 0 : (this.#translated.get(key) ?? 0);
    return priorityOf({
      url: e.url,
      depth: e.depth,
      source: e.source,
      sitemapPriority: this.sitemapPriority.get(e.url) ?? null,
      lastmod: e.lastmod,
      bodyLinks: Math.max(own, translated),
      indexShaped: index,
      nowMs: Date.now(),
    });
  }

  /** Queues pending URLs again ahead of their last place when new body links raised them. */
  #rerank(urls: Iterable<string>, always = false): void {
    for (const url of urls) {
      const q = this.#queued.get(url);
      if (q === undefined) continue;
      if (this.started.has(url)) {
        this.#queued.delete(url);
        if (q.key !== null) this.#byKey.get(q.key)?.delete(url);
        continue;
      }
      // Only at steps of its body links: each URL is queued again a few times, not per link.
      if (!always && !rerankAt(this.#bodyLinks(url))) continue;
      const p = this.#rank(q.entry, q.index, q.key);
      if (p >= q.entry.priority) continue;
      const entry = { ...q.entry, priority: p };
      this.#queued.set(url, { ...q, entry });
      this.frontier.push(entry); // the stale copy is skipped: its URL is started by then
    }
  }

  /** The normalized target of a link (absolute URL as extracted), or null when not crawlable. */
  linkTarget(raw: string): LinkTarget | null {
    let target = this.#linkTargets.get(raw);
    if (target === undefined) {
      const url = normalizeUrl(raw);
      target =
        url === null
          ? null
          : {
              url,
              pageId: pageId(url),
              host: urlHost(url) ?? "",
              internal: inScope(url, this.domain),
            };
      if (this.#linkTargets.size >= LINK_TARGETS_CACHED) this.#linkTargets.clear();
      this.#linkTargets.set(raw, target);
    }
    return target;
  }

  /**
   * Links of a page (absolute URLs as extracted): normalized and kept in scope, recorded as link
   * evidence, new ones added at `depth` (a link to a resource that is no page is `filtered`).
   * Each URL once per job: a link on every page is handled on the first. Only links in the
   * page's body count towards a URL's rank, as only they count towards `inlinks_body`. `from`:
   * the linking page (links are absolute already: not a base, which would defeat the URL cache).
   */
  addLinks(links: readonly PageLink[], depth: number, from: string): void {
    if (this.params.startOnly) return;
    const entries: UrlEntry[] = [];
    const evidence: string[] = [];
    const seen = this.#ranked ? new Set<string>() : null;
    for (const link of links) {
      const url = normalizeUrl(link.url);
      if (url === null || this.#outOfScope.has(url)) continue;
      if (this.linked.has(url)) {
        if (link.body) seen?.add(url);
        continue;
      }
      if (!inScope(url, this.domain)) {
        // Remembered (bounded: share links carry the page's own URL) so a link on every page
        // is parsed once, not on every page.
        if (this.#outOfScope.size >= LINK_TARGETS_CACHED) this.#outOfScope.clear();
        this.#outOfScope.add(url);
        continue;
      }
      this.linked.add(url);
      if (link.body) seen?.add(url);
      evidence.push(url);
      const ext = nonPageExtension(url);
      entries.push(
        ext
          ? entry(url, depth, "link", "filtered", `not a page: .${ext} resource`)
          : entry(url, depth, "link"),
      );
    }
    const siblings = new Set<string>();
    if (seen !== null) {
      this.#linkingPages++;
      for (const url of seen) {
        this.#inlinks.set(url, (this.#inlinks.get(url) ?? 0) + 1);
        const key = this.#keyOf(url);
        if (key === null) continue;
        let n = this.#bodyLinks(url);
        if (n === 0) continue; // template so far
        // Pages linking any translation, counted once per page whatever its language: the
        // links a crawl has seen in four languages are evidence for all of them.
        let sources = this.#keySources.get(key);
        if (sources === undefined) {
          sources = new Set();
          this.#keySources.set(key, sources);
        }
        sources.add(this.#keyOf(from) ?? from);
        n = Math.max(n, sources.size);
        if (n <= (this.#translated.get(key) ?? 0)) continue;
        this.#translated.set(key, n);
        if (rerankAt(n)) for (const u of this.#byKey.get(key) ?? []) siblings.add(u);
      }
    }
    recordDiscovery(this.db, this.job.id, evidence, "link");
    this.add(entries);
    if (seen !== null) this.#rerank(seen);
    this.#rerank(siblings, true);
  }
}

/** One visit in this many takes the next sitemap URL of the spread sample (`JobRun.next`). */
export const SAMPLE_EVERY = 10;

/** Sources whose entries the frontier ranks by expected value (others keep their priority). */
const RANKED_SOURCES = new Set(["link", "sitemap", "known"]);

export function entry(
  url: string,
  depth: number,
  source: string,
  bucket: Bucket = "pending",
  reason: string | null = null,
  lastmod: string | null = null,
  priority: number = priorityFor(depth, source),
): UrlEntry {
  return { url, bucket, reason, depth, source, priority, lastmod };
}
