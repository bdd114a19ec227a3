/**
 * Vectors kept in SQLite: a site crawled and embedded with the real model, then its shard files
 * deleted while the service is stopped. The restart rebuilds the shard from SQLite, vectors
 * included, with the same vector search answers and without one call to the model; identical
 * texts are embedded once. The embedder handed to the restarted indexer is the real one, counted.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { embeddingText } from "../../src/search/chunking.ts";
import { EmbeddingPool } from "../../src/search/embedding-pool.ts";
import { openShardRegistry, type ShardRegistry } from "../../src/search/shard-registry.ts";
import { type SearchCrawler, searchCrawler } from "../helpers/crawl.ts";
import { writePage } from "../helpers/pages.ts";
import { countingEmbedder, restartedIndexer } from "../helpers/restarted-indexer.ts";
import { article, serveSite, steps, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(180_000);

const SUPPORT =
  "<h2>Support</h2><p>Write to the support desk any day of the week; a person answers within one business day, and paying teams get a phone number too.</p>";

// Two pages titled alike end in the same section: one embedding text, stored and embedded once.
const PAGES: Record<string, string> = {
  "/": article(
    "Acme",
    '<p>Acme builds job queues for teams.</p><a href="/queues.html">Queues</a> <a href="/retries.html">Retries</a> <a href="/pricing.html">Pricing</a>',
  ),
  "/queues.html": article(
    "Acme docs",
    `<h2>Leases</h2><p>Each worker takes a lease on a job and renews it while it runs. A job whose lease lapses goes back to the queue, so a crashed worker never loses work.</p><p>${steps("a lease")}</p>${SUPPORT}`,
  ),
  "/retries.html": article(
    "Acme docs",
    `<h2>Retries</h2><p>Failed jobs are retried with exponential backoff up to five times, then parked for a human to look at.</p><p>${steps("a retry")}</p>${SUPPORT}`,
  ),
  "/pricing.html": article(
    "Pricing",
    "<p>The team plan costs 20 dollars per seat per month, billed yearly.</p>",
  ),
};
const QUERIES = [
  "what happens when a worker crashes",
  "how much does it cost per person",
  "how do I reach customer service",
  "backoff",
];

let site: TestSite;
let c: SearchCrawler;
let pool: EmbeddingPool;
/** Texts the restarted indexer handed to the model. */
const { embedder: counted, texts: modelTexts } = countingEmbedder(() => pool);
const queryVectors = new Map<string, Float32Array>();
const answersBefore = new Map<string, { chunkId: string; score: number }[]>();

const count = (sql: string) =>
  c.store.read.$client.query<{ n: number }, []>(sql).get()?.n ?? Number.NaN;

/** Vector hits per query; equal scores (chunks of one text) by chunk id, as slots may differ. */
async function answers(registry: ShardRegistry, k = 10) {
  const shard = await registry.shard("acme.test");
  const out = new Map<string, { chunkId: string; score: number }[]>();
  for (const [q, v] of queryVectors) {
    const hits = shard.searchVector(v, k).map((h) => ({ chunkId: h.chunkId, score: h.score }));
    out.set(
      q,
      hits.sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId)),
    );
  }
  return out;
}

beforeAll(async () => {
  site = serveSite("acme.test", PAGES);
  c = await searchCrawler({ CONNECT_TO: site.connectTo(), EMBEDDINGS: "true", EMBED_THREADS: "1" });
  pool = await EmbeddingPool.start({ lanes: 1, queryLane: false });
});
afterAll(async () => {
  await pool.close();
  await c.closeAsync();
  await site.stop();
});

test("the crawl stores one vector per distinct embedding text, every chunk pointing at one", async () => {
  const view = await c.crawl("acme.test");
  expect(view.state).toBe("completed");
  expect(view.progress.embedding_backlog).toBe(0);
  const rows = c.store.read.$client
    .query<{ heading: string; text: string; title: string | null }, []>(
      "SELECT c.heading, c.text, p.title FROM chunks c JOIN pages p ON p.id = c.page_id",
    )
    .all();
  const distinct = new Set(rows.map((r) => embeddingText(r, r.title)));
  expect(distinct.size).toBeLessThan(rows.length); // the shared Support section
  expect(count("SELECT count(*) AS n FROM vectors")).toBe(distinct.size);
  expect(count("SELECT count(*) AS n FROM chunks WHERE vector_id IS NULL OR embedded = 0")).toBe(0);
  expect(count("SELECT count(DISTINCT vector_id) AS n FROM chunks")).toBe(distinct.size);
  expect(count("SELECT min(length(vector)) AS n FROM vectors")).toBe(388);
  for (const q of QUERIES) {
    const v = await c.search.embedQuery?.(q);
    if (!v) throw new Error("no query embedder");
    queryVectors.set(q, v);
  }
  for (const [q, hits] of await answers(c.search.registry)) answersBefore.set(q, hits);
  expect(answersBefore.get(QUERIES[0] ?? "")?.length).toBe(rows.length);
});

test("shard files deleted while stopped: rebuilt from SQLite, same answers, no model call", async () => {
  await c.search.close();
  const dir = join(c.dataDir, "shards");
  const files = readdirSync(dir).filter((f) => f.startsWith("acme.test"));
  expect(files.length).toBeGreaterThan(0);
  for (const f of files) rmSync(join(dir, f));
  expect(existsSync(join(dir, "acme.test.shard"))).toBe(false);

  const registry = await openShardRegistry(c.config);
  const indexer = restartedIndexer(c, registry, counted);
  try {
    await indexer.reconcile();
    await indexer.idle();
    expect(modelTexts).toEqual([]);
    expect(registry.health("acme.test")).toBe("ok");
    const shard = await registry.shard("acme.test");
    expect(shard.chunksWithoutVectors()).toEqual([]);
    expect(shard.chunks).toBe(count("SELECT count(*) AS n FROM chunks"));
    expect(count("SELECT count(*) AS n FROM chunks WHERE embedded = 0")).toBe(0);
    expect(await answers(registry)).toEqual(answersBefore);

    // Vectors lost from a shard that is otherwise whole (the page indexed again without them).
    const pricing = c.store.read.$client
      .query<{ id: string; text_hash: string }, []>(
        "SELECT id, text_hash FROM pages WHERE url LIKE '%/pricing.html'",
      )
      .get();
    if (!pricing) throw new Error("no pricing page");
    await registry.upsertPages("acme.test", [
      {
        pageId: pricing.id,
        title: "Pricing",
        version: pricing.text_hash,
        facets: { type: null, locale: null, topics: [], technicality: null },
        chunks: [{ heading: "", text: "The team plan costs 20 dollars per seat per month." }],
      },
    ]);
    expect(shard.chunksWithoutVectors()).toEqual([`${pricing.id}#0`]);
    await indexer.reconcileDomain("acme.test");
    expect(shard.chunksWithoutVectors()).toEqual([]);
    expect(modelTexts).toEqual([]);
  } finally {
    await indexer.close();
  }

  // And the restart after that finds the rebuilt shard on disk.
  const again = await openShardRegistry(c.config);
  try {
    expect(await again.check("acme.test")).toBe("ok");
    expect(await answers(again)).toEqual(answersBefore);
  } finally {
    await again.close();
  }
});

test("only texts SQLite lacks go to the model, each once however often it repeats", async () => {
  const jobId = c.store.read.$client
    .query<{ id: string }, []>("SELECT id FROM jobs LIMIT 1")
    .get()?.id;
  if (!jobId) throw new Error("no job");
  const fresh =
    "Queues can be paused from the dashboard; paused queues keep their jobs and hand none out.";
  const known = c.store.read.$client
    .query<{ heading: string; text: string }, []>(
      "SELECT c.heading, c.text FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.title = 'Pricing'",
    )
    .get();
  if (!known) throw new Error("no pricing chunk");
  // Two new pages titled as the pricing page: its chunk (stored) and a new one, twice.
  for (const n of [1, 2]) {
    writePage(c.store.write, jobId, {
      url: `http://acme.test/pricing-${n}.html`,
      domain: "acme.test",
      title: "Pricing",
      chunks: [
        { index: 0, heading: known.heading, text: known.text, tokens: 20 },
        { index: 1, heading: "Pausing", text: fresh, tokens: 20 },
      ],
    });
  }
  expect(count("SELECT count(*) AS n FROM chunks WHERE embedded = 0")).toBe(4);
  const registry = await openShardRegistry(c.config);
  const indexer = restartedIndexer(c, registry, counted);
  try {
    await indexer.reconcile();
    await indexer.idle();
    expect(modelTexts).toEqual([embeddingText({ heading: "Pausing", text: fresh }, "Pricing")]);
    expect(count("SELECT count(*) AS n FROM chunks WHERE embedded = 0")).toBe(0);
    const shard = await registry.shard("acme.test");
    expect(shard.chunksWithoutVectors()).toEqual([]);
  } finally {
    await indexer.close();
  }
});

test("a database from before the vectors table: vectors copied from the shard once, then rebuilds need no model", async () => {
  // As migration 0002 leaves an older database: chunks embedded, no vector stored.
  c.store.write.$client.run("DELETE FROM vectors");
  c.store.write.$client.run("UPDATE chunks SET vector_id = NULL");
  const calls = modelTexts.length;
  const registry = await openShardRegistry(c.config);
  const indexer = restartedIndexer(c, registry, counted);
  let before: Map<string, { chunkId: string; score: number }[]>;
  try {
    await indexer.reconcile();
    await indexer.idle();
    before = await answers(registry, 100);
  } finally {
    await indexer.close();
  }
  expect(modelTexts.length).toBe(calls);
  const rows = c.store.read.$client
    .query<{ heading: string; text: string; title: string | null }, []>(
      "SELECT c.heading, c.text, p.title FROM chunks c JOIN pages p ON p.id = c.page_id",
    )
    .all();
  expect(count("SELECT count(*) AS n FROM vectors")).toBe(
    new Set(rows.map((r) => embeddingText(r, r.title))).size,
  );
  expect(count("SELECT count(*) AS n FROM chunks WHERE vector_id IS NULL OR embedded = 0")).toBe(0);

  const dir = join(c.dataDir, "shards");
  for (const f of readdirSync(dir).filter((f) => f.startsWith("acme.test"))) rmSync(join(dir, f));
  const rebuilt = await openShardRegistry(c.config);
  const again = restartedIndexer(c, rebuilt, counted);
  try {
    await again.reconcile();
    await again.idle();
    expect(modelTexts.length).toBe(calls);
    // Every chunk (k = 100), the same scores up to float32 rounding: these vectors were not
    // stored as the shard was given them (they came from its int8 rows), so not bit for bit.
    const after = await answers(rebuilt, 100);
    for (const [q, hits] of before) {
      const scores = new Map(after.get(q)?.map((h) => [h.chunkId, h.score]));
      expect(scores.size).toBe(hits.length);
      for (const h of hits) expect(scores.get(h.chunkId) ?? Number.NaN).toBeCloseTo(h.score, 6);
    }
  } finally {
    await again.close();
  }
});
