/**
 * The vector policy end to end: a loopback site with a generated index page (90 short link
 * lines, 12 chunks) crawled with the real model. The index page's first chunks get vectors, the
 * rest are stored embedded without one, and the job completes with nothing waiting; text search
 * still finds a word only a later chunk holds. A restart (reconcile over the shard as it is, then
 * over a deleted shard rebuilt from SQLite) asks the model for nothing. With
 * `WEBCORPUS_INDEX_PAGE_VECTORS=all` every chunk of the same page gets a vector.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { unstoredChunks } from "../../src/db/vectors-repo.ts";
import { EmbeddingPool } from "../../src/search/embedding-pool.ts";
import { openShardRegistry, type ShardRegistry } from "../../src/search/shard-registry.ts";
import { INDEX_PAGE_VECTORS } from "../../src/search/vector-policy.ts";
import { type SearchCrawler, searchCrawler } from "../helpers/crawl.ts";
import { countingEmbedder, restartedIndexer } from "../helpers/restarted-indexer.ts";
import { serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(180_000);

const doc = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"];
/** Only the 86th entry holds it: a chunk far past the ones that keep vectors. */
const RARE = "zygomorphic";
const entries = Array.from(
  { length: 90 },
  (_, i) =>
    `<li><a href="/queues.html#entry-${i}">${WORDS[i % WORDS.length]} ${i === 85 ? RARE : "setting"} ${i}</a></li>`,
).join("");
const PAGES: Record<string, string> = {
  "/": doc(
    "Acme",
    '<p>Acme builds job queues for teams.</p><a href="/queues.html">Queues</a> <a href="/pricing.html">Pricing</a> <a href="/genindex.html">Index</a>',
  ),
  "/queues.html": doc(
    "Queues",
    "<p>Each worker takes a lease on a job and renews it while it runs. A job whose lease lapses goes back to the queue, so a crashed worker never loses work.</p>",
  ),
  "/pricing.html": doc(
    "Pricing",
    "<p>The team plan costs 20 dollars per seat per month, billed yearly.</p>",
  ),
  "/genindex.html": doc(
    "General index",
    `<p>Every term of the Acme docs, A to Z.</p><ul>${entries}</ul>`,
  ),
};

let site: TestSite;
let c: SearchCrawler;
let pool: EmbeddingPool;
/** Texts the restarted indexers handed to the model. */
const { embedder: counted, texts: modelTexts } = countingEmbedder(() => pool);

interface ChunkState {
  idx: number;
  embedded: number;
  wanted: number;
  vectorId: number | null;
}
const indexChunks = (crawler: SearchCrawler) =>
  crawler.store.read.$client
    .query<ChunkState, []>(
      `SELECT c.idx, c.embedded, c.vector_wanted AS wanted, c.vector_id AS vectorId
       FROM chunks c JOIN pages p ON p.id = c.page_id
       WHERE p.url LIKE '%/genindex.html' ORDER BY c.idx`,
    )
    .all();
const count = (sql: string) =>
  c.store.read.$client.query<{ n: number }, []>(sql).get()?.n ?? Number.NaN;
const indexPageId = () =>
  c.store.read.$client
    .query<{ id: string }, []>("SELECT id FROM pages WHERE url LIKE '%/genindex.html'")
    .get()?.id ?? "";
/** Chunk ids (`page#idx`) of the index page the policy gives no vector. */
const skippedIds = () =>
  indexChunks(c)
    .filter((ch) => ch.wanted === 0)
    .map((ch) => `${indexPageId()}#${ch.idx}`)
    .sort();

async function rareHits(registry: ShardRegistry): Promise<string[]> {
  const shard = await registry.shard("acme.test");
  return shard.searchText(RARE, 10).map((h) => h.chunkId);
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

test("an index page keeps vectors for its first chunks; the rest are embedded without one", async () => {
  const view = await c.crawl("acme.test");
  expect(view.state).toBe("completed");
  expect(view.progress.embedding_backlog).toBe(0);
  const chunks = indexChunks(c);
  expect(chunks.length).toBeGreaterThan(4);
  const head = chunks.slice(0, INDEX_PAGE_VECTORS);
  const tail = chunks.slice(INDEX_PAGE_VECTORS);
  for (const ch of head) {
    expect(ch.wanted).toBe(1);
    expect(ch.embedded).toBe(1);
    expect(ch.vectorId).not.toBeNull();
  }
  for (const ch of tail) expect(ch).toEqual({ ...ch, embedded: 1, wanted: 0, vectorId: null });
  // Every other page's chunks have vectors; nothing waits.
  expect(
    count("SELECT count(*) AS n FROM chunks WHERE vector_wanted = 1 AND vector_id IS NULL"),
  ).toBe(0);
  expect(count("SELECT count(*) AS n FROM chunks WHERE embedded = 0")).toBe(0);
  expect(count("SELECT count(*) AS n FROM chunks WHERE vector_wanted = 0")).toBe(tail.length);
  // Not mistaken for chunks embedded before SQLite kept vectors (their vectors only in a shard).
  expect(unstoredChunks(c.store.write, "acme.test", 100)).toEqual([]);

  const shard = await c.search.registry.shard("acme.test");
  expect(shard.chunksWithoutVectors().sort()).toEqual(skippedIds());
  // BM25 finds a word only a chunk without a vector holds.
  const hits = await rareHits(c.search.registry);
  expect(hits.length).toBeGreaterThan(0);
  expect(skippedIds()).toContain(hits[0] ?? "");
});

test("a restart queues none of the skipped chunks: reconcile, then a deleted shard rebuilt", async () => {
  await c.search.close();
  const first = restartedIndexer(c, await openShardRegistry(c.config), counted);
  try {
    await first.reconcile();
    await first.idle();
  } finally {
    await first.close();
  }
  expect(modelTexts).toEqual([]);
  expect(count("SELECT count(*) AS n FROM chunks WHERE embedded = 0")).toBe(0);

  const dir = join(c.dataDir, "shards");
  for (const f of readdirSync(dir).filter((f) => f.startsWith("acme.test"))) rmSync(join(dir, f));
  const registry = await openShardRegistry(c.config);
  const second = restartedIndexer(c, registry, counted);
  try {
    await second.reconcile();
    await second.idle();
    expect(modelTexts).toEqual([]);
    expect(registry.health("acme.test")).toBe("ok");
    const shard = await registry.shard("acme.test");
    expect(shard.chunks).toBe(count("SELECT count(*) AS n FROM chunks"));
    expect(shard.chunksWithoutVectors().sort()).toEqual(skippedIds());
    expect(count("SELECT count(*) AS n FROM chunks WHERE embedded = 0")).toBe(0);
    expect(count("SELECT count(*) AS n FROM chunks WHERE vector_wanted = 0")).toBeGreaterThan(0);
    expect(skippedIds()).toContain((await rareHits(registry))[0] ?? "");
  } finally {
    await second.close();
  }
});

test("WEBCORPUS_INDEX_PAGE_VECTORS=all gives every chunk of the index page a vector", async () => {
  const all = await searchCrawler({
    CONNECT_TO: site.connectTo(),
    EMBEDDINGS: "true",
    EMBED_THREADS: "1",
    INDEX_PAGE_VECTORS: "all",
  });
  try {
    const view = await all.crawl("acme.test");
    expect(view.state).toBe("completed");
    const chunks = indexChunks(all);
    expect(chunks.length).toBeGreaterThan(4);
    for (const ch of chunks) expect(ch.wanted).toBe(1);
    for (const ch of chunks) expect(ch.vectorId).not.toBeNull();
  } finally {
    await all.closeAsync();
  }
});
