/**
 * Embedding shares its lanes between jobs (issue 29): a 5-page crawl started behind a 30k-chunk
 * backlog of an older job is searchable by vector within seconds of its pages being stored, not
 * after the backlog; a job whose fetching is over shows phase `embedding` with an ETA that covers
 * its backlog, and does not block a new crawl of its domain. Real SQLite, the real embedding
 * model, a real crawl of a site on loopback.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { CrawlScheduler } from "../../src/crawl/crawl-scheduler.ts";
import { embeddingBacklog } from "../../src/db/chunks-repo.ts";
import type { createApp } from "../../src/server/app.ts";
import { cancelJob, crawlRequest, startCrawl } from "../../src/services/crawl-service.ts";
import { writeBacklog } from "../helpers/backlog.ts";
import { appOver, type SearchCrawler, searchCrawler } from "../helpers/crawl.ts";
import { page, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(240_000);

const BIG = "job_0000000000000big";
const BACKLOG = 30_000;
/** "Within a few seconds" of its pages being stored, on a loaded 2-core machine: a round of the
 * backlog under way, then one round with the small job's slice. The old oldest-first order took
 * the whole backlog first (minutes at any speed this model reaches). */
const SEARCHABLE_WITHIN_MS = 15_000;

const TOPICS: Record<string, [string, string]> = {
  "/": ["Small Co", "Small Co makes garden tools: spades, rakes and hoes for allotments."],
  "/compost.html": ["Composting", "Turn the compost heap every two weeks so it heats evenly."],
  "/pruning.html": ["Pruning roses", "Cut rose stems just above an outward facing bud in March."],
  "/tomatoes.html": ["Growing tomatoes", "Pinch out the side shoots of cordon tomatoes weekly."],
  "/bees.html": ["Keeping bees", "A hive needs an open, sunny spot sheltered from the wind."],
};
const links = Object.keys(TOPICS)
  .map((path) => `<a href="${path}">${TOPICS[path]?.[0]}</a>`)
  .join(" ");
const PAGES = Object.fromEntries(
  Object.entries(TOPICS).map(([path, [title, text]]) => [
    path,
    page(title, `<p>${text}</p><h2>More</h2><p>${text} ${text}</p>`, links),
  ]),
);
const URLS = Object.keys(TOPICS).map((path) => `http://small.test${path}`);

let site: TestSite;
let c: SearchCrawler;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  site = serveSite("small.test", PAGES);
  c = await searchCrawler({ CONNECT_TO: site.connectTo(), EMBEDDINGS: "true", EMBED_THREADS: "1" });
  app = appOver(c);
  const chunks = writeBacklog(c.store.write, {
    domain: "big.test",
    jobId: BIG,
    pages: BACKLOG / 100,
    chunksPerPage: 100,
  });
  expect(chunks).toBe(BACKLOG);
});
afterAll(async () => {
  await c.closeAsync();
  await site.stop();
});

const backlog = (jobId: string) => embeddingBacklog(c.store.read, jobId);

function scheduler(only: string): CrawlScheduler {
  const s = new CrawlScheduler(
    {
      config: c.config,
      db: c.store.write,
      indexer: c.search.indexer,
      embeddingBacklog: c.search.embeddingBacklog,
      log: () => {},
    },
    { only },
  );
  s.start();
  return s;
}

async function until(what: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (what()) return true;
    await Bun.sleep(50);
  }
  return what();
}

test("a 5-page crawl behind a 30k-chunk backlog is searchable within seconds of its pages being stored", async () => {
  // The lanes are busy with the backlog before the small crawl starts.
  c.search.indexer.wakeEmbedding();
  expect(await until(() => backlog(BIG) < BACKLOG, 60_000)).toBe(true);

  const job = startCrawl(
    c.store.write,
    crawlRequest(c.config, { domain: "small.test" }),
    null,
    null,
  );
  const crawl = scheduler(job.id);
  try {
    let storedAt = 0;
    const phases = new Set<string>();
    const searchable = await until(() => {
      const p = c.view(job.id).progress;
      phases.add(p.phase);
      if (!storedAt && p.indexed === URLS.length) storedAt = Date.now();
      return storedAt > 0 && p.embedding_backlog === 0;
    }, 120_000);
    const searchableAt = Date.now();
    const bigLeft = backlog(BIG);
    expect(storedAt).toBeGreaterThan(0);
    expect(searchable).toBe(true);
    expect(searchableAt - storedAt).toBeLessThan(SEARCHABLE_WITHIN_MS);
    // The backlog is far from done: the small job did not just wait for it.
    expect(bigLeft).toBeGreaterThan(5_000);

    await crawl.waitFor(job.id);
    const view = c.view(job.id);
    expect(view.state).toBe("completed");
    expect(phases.has("fetching")).toBe(true);
    expect(view.progress).toMatchObject({
      phase: "done",
      indexed: URLS.length,
      embedding_backlog: 0,
      searchable: URLS.length,
      eta: { low_s: 0, high_s: 0, confidence: 1 },
    });
    expect(view.progress.embedded_chunks).toBeGreaterThanOrEqual(URLS.length);
    expect(view.progress.chunks_per_s).toBeGreaterThan(0);
    expect(view.progress.searchable_per_min).toBeGreaterThan(0);

    // Every page of the small site answers in vector mode.
    const r = await app.handle(
      new Request(
        `http://localhost/api/search?${new URLSearchParams({ q: "gardening advice", mode: "vector", domain: "small.test", limit: "50" })}`,
      ),
    );
    expect(r.status).toBe(200);
    const hits = ((await r.json()) as { data: { url: string; ranks: { vector?: number } }[] }).data;
    expect(new Set(hits.map((h) => h.url))).toEqual(new Set(URLS));
    expect(hits.every((h) => (h.ranks.vector ?? 0) > 0)).toBe(true);
  } finally {
    await crawl.stop();
  }
});

test("a job whose fetching is over shows phase embedding with an ETA over its backlog, and the domain takes a new crawl", async () => {
  // The backlog's job, run for real: its URLs are all stored, so it goes straight to its end and
  // waits there for its chunks' vectors.
  const run = scheduler(BIG);
  try {
    // (Its rate is known from its second second on.)
    const embedding = () => {
      const p = c.view(BIG).progress;
      return p.phase === "embedding" && (p.chunks_per_s ?? 0) > 0;
    };
    expect(await until(embedding, 30_000)).toBe(true);
    const view = c.view(BIG);
    const p = view.progress;
    expect(view.state).toBe("running");
    expect(p.pending).toBe(0);
    expect(p.embedding_backlog).toBeGreaterThan(5_000);
    expect(p.chunks_per_s).toBeGreaterThan(0);
    // Not "0-5 s": the ETA covers the chunks still waiting, at the job's own rate.
    const eta = p.eta;
    expect(eta).not.toBeNull();
    const wait = (p.embedding_backlog ?? 0) / (p.chunks_per_s ?? 1);
    expect(eta?.low_s).toBeGreaterThanOrEqual(Math.floor(wait * 0.8));
    expect(eta?.high_s).toBeGreaterThan(Math.max(5, wait));
    expect(p.searchable).toBeLessThan(p.indexed);

    // Fetching is over: a new crawl of the domain is accepted, not refused with a conflict.
    const next = startCrawl(
      c.store.write,
      crawlRequest(c.config, { domain: "big.test" }),
      null,
      null,
    );
    expect(next.state).toBe("queued");
    expect(next.id).not.toBe(BIG);
    // While that one is queued (active), a third is refused, naming it.
    expect(() =>
      startCrawl(c.store.write, crawlRequest(c.config, { domain: "big.test" }), null, null),
    ).toThrow(next.id);
    cancelJob(c.store.write, next.id);
  } finally {
    await run.stop();
  }
});
