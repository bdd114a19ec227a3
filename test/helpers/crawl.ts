/** Crawls in-process with the real scheduler and worker pool, on a real SQLite file. */
import { expect } from "bun:test";
import { type Config, type SettingName, testConfig } from "../../src/config.ts";
import { CrawlScheduler } from "../../src/crawl/crawl-scheduler.ts";
import { openStore, type Store } from "../../src/db/client.ts";
import { openSearch, type SearchRuntime } from "../../src/search/search-runtime.ts";
import { createApp } from "../../src/server/app.ts";
import { type CrawlBody, crawlRequest, startCrawl } from "../../src/services/crawl-service.ts";
import { type JobView, jobView, requireJob } from "../../src/services/jobs-service.ts";
import { RateLimiter } from "../../src/services/rate-limiter.ts";
import { tempDir } from "./app.ts";

export interface Crawler {
  readonly config: Config;
  readonly store: Store;
  readonly dataDir: string;
  crawl(domain: string, body?: Omit<CrawlBody, "domain">): Promise<JobView>;
  view(jobId: string): JobView;
  close(): void;
}

export interface SearchCrawler extends Crawler {
  readonly search: SearchRuntime;
  closeAsync(): Promise<void>;
}

/** A crawler whose pages go into the search shards (with embeddings when `EMBEDDINGS` is true). */
export async function searchCrawler(
  settings: Partial<Record<SettingName, string>>,
  dataDir = tempDir(),
): Promise<SearchCrawler> {
  const base = crawler(settings, dataDir);
  const search = await openSearch(base.config, base.store.write, () => {});
  const view = (jobId: string) =>
    jobView(
      { db: base.store.read, embeddingBacklog: search.embeddingBacklog },
      requireJob(base.store.read, jobId),
    );
  return {
    ...base,
    search,
    view,
    async crawl(domain, body = {}) {
      const job = startCrawl(
        base.store.write,
        crawlRequest(base.config, { domain, ...body }),
        null,
        null,
      );
      const scheduler = new CrawlScheduler(
        {
          config: base.config,
          db: base.store.write,
          indexer: search.indexer,
          embeddingBacklog: search.embeddingBacklog,
          log: () => {},
        },
        { only: job.id },
      );
      scheduler.start();
      await scheduler.waitFor(job.id);
      await scheduler.stop();
      await search.indexer.settled();
      return view(job.id);
    },
    async closeAsync() {
      await search.close();
      base.close();
    },
  };
}

/** The HTTP app over a search crawler's store and shards (crawl starts limited to 30 a minute). */
export function appOver(c: SearchCrawler): ReturnType<typeof createApp> {
  return createApp({
    config: c.config,
    store: c.store,
    limiter: new RateLimiter(30),
    embeddingBacklog: c.search.embeddingBacklog,
    search: { registry: c.search.registry, embedQuery: c.search.embedQuery },
  });
}

export function crawler(
  settings: Partial<Record<SettingName, string>>,
  dataDir = tempDir(),
): Crawler {
  const config = testConfig({
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_SUFFIXES: "true",
    CONNECT_TO_ONLY: "true",
    CRAWL_DELAY_S: "0",
    HOST_CONCURRENCY: "8",
    WORKER_PROCESSES: "1",
    EMBEDDINGS: "false",
    ...settings,
  });
  const store = openStore(config.databasePath);
  const view = (jobId: string) =>
    jobView({ db: store.read, embeddingBacklog: null }, requireJob(store.read, jobId));
  return {
    config,
    store,
    dataDir,
    view,
    async crawl(domain, body = {}) {
      const job = startCrawl(store.write, crawlRequest(config, { domain, ...body }), null, null);
      const scheduler = new CrawlScheduler(
        { config, db: store.write, log: () => {} },
        { only: job.id },
      );
      scheduler.start();
      await scheduler.waitFor(job.id);
      await scheduler.stop();
      return view(job.id);
    },
    close() {
      store.close();
    },
  };
}

const FINAL = ["completed", "partial", "failed", "cancelled"];

/** Every known URL in exactly one bucket: the sum is the total, `unaccounted` is 0. */
export function expectInvariant(view: JobView): void {
  const { buckets, total } = view.coverage;
  expect(buckets.unaccounted.count).toBe(0);
  expect(Object.values(buckets).reduce((n, b) => n + b.count, 0)).toBe(total);
  expect(total).toBe(view.progress.discovered);
  if (FINAL.includes(view.state)) expect(buckets.pending.count).toBe(0);
  if (view.state === "completed") {
    expect(buckets.budget.count).toBe(0);
    expect(buckets.stoppedEarly.count).toBe(0);
  }
}
