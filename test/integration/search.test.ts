/**
 * Search end to end: a site crawled with the real embedding model, every chunk embedded before
 * the job is final, then text, vector and hybrid search over the persisted shard through the HTTP
 * API (filters inside both engines), and a deleted shard rebuilt from SQLite.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openSearch } from "../../src/search/search-runtime.ts";
import { createApp } from "../../src/server/app.ts";
import { RateLimiter } from "../../src/services/rate-limiter.ts";
import { appOver, expectInvariant, type SearchCrawler, searchCrawler } from "../helpers/crawl.ts";
import { serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(180_000);

const doc = (title: string, lang: string, body: string) =>
  `<!doctype html><html lang="${lang}"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const PAGES: Record<string, string> = {
  "/": doc(
    "Acme",
    "en",
    `<p>Acme builds job queues for teams.</p><a href="/queues.html">Queues</a> <a href="/install.html">Install</a> <a href="/pricing.html">Pricing</a> <a href="/de/warteschlange.html">Deutsch</a>`,
  ),
  "/queues.html": doc(
    "How leases work",
    "en",
    "<h2>Leases</h2><p>Each worker takes a lease on a job and renews it while it runs. A job whose lease lapses goes back to the queue, so a crashed worker never loses work.</p><h2>Retries</h2><p>Failed jobs are retried with exponential backoff up to five times.</p>",
  ),
  // A link in the heading, as API references have them ("Sequence Types — [`list`](…#list)").
  "/install.html": doc(
    "Install the CLI",
    "en",
    '<p>Install the command line tool with pip, then log in.</p><pre><code class="language-sh">pip install acme-queue\nacme login</code></pre>',
  ).replace(
    "<h1>Install the CLI</h1>",
    '<h1>Install the <a href="/queues.html">queue</a> CLI</h1>',
  ),
  "/pricing.html": doc(
    "Pricing",
    "en",
    "<p>The team plan costs 20 dollars per seat per month, billed yearly.</p>",
  ),
  "/de/warteschlange.html": doc(
    "Warteschlangen",
    "de",
    "<p>Jeder Arbeiter nimmt eine Aufgabe aus der Warteschlange und verlängert seine Sperre, solange er arbeitet.</p>",
  ),
};

let site: TestSite;
let c: SearchCrawler;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  site = serveSite("acme.test", PAGES);
  c = await searchCrawler({ CONNECT_TO: site.connectTo(), EMBEDDINGS: "true", EMBED_THREADS: "1" });
  app = appOver(c);
});
afterAll(async () => {
  await c.closeAsync();
  await site.stop();
});

interface Hit {
  url: string;
  title: string | null;
  page_id: string;
  heading: string;
  text: string;
  score: number;
  ranks: { text?: number; vector?: number };
}
async function search(params: Record<string, string>) {
  const r = await app.handle(
    new Request(`http://localhost/api/search?${new URLSearchParams(params)}`),
  );
  expect(r.status).toBe(200);
  return (await r.json()) as {
    data: Hit[];
    mode: string;
    filters: { applied: Record<string, unknown> };
  };
}

test("the job is final only once every chunk has its vector", async () => {
  const view = await c.crawl("acme.test");
  expectInvariant(view);
  expect(view.state).toBe("completed");
  expect(view.progress.indexed).toBe(5);
  expect(view.progress.embedding_backlog).toBe(0);
  const chunks = c.store.read.$client
    .query<{ n: number; embedded: number }, []>(
      "SELECT count(*) AS n, sum(embedded) AS embedded FROM chunks",
    )
    .get();
  expect(chunks?.n).toBeGreaterThanOrEqual(5);
  expect(chunks?.embedded).toBe(chunks?.n);
});

test("text, vector and hybrid find the page that answers, each with its engine ranks", async () => {
  for (const mode of ["text", "vector", "hybrid"]) {
    const body = await search({
      q: "what happens when a worker crashes and its lease lapses",
      mode,
    });
    expect(body.mode).toBe(mode);
    expect(body.data[0]?.url).toBe("http://acme.test/queues.html");
    const first = body.data[0];
    if (mode !== "vector") expect(first?.ranks.text).toBeGreaterThan(0);
    if (mode !== "text") expect(first?.ranks.vector).toBeGreaterThan(0);
  }
  const paraphrase = await search({ q: "how much does it cost per person", mode: "vector" });
  expect(paraphrase.data[0]?.url).toBe("http://acme.test/pricing.html");
  const hybrid = await search({ q: "pip install", mode: "hybrid", limit: "3" });
  expect(hybrid.data[0]?.url).toBe("http://acme.test/install.html");
  expect(hybrid.data[0]?.heading).toBe("Install the queue CLI");
  expect(hybrid.data.length).toBeLessThanOrEqual(3);
});

test("filters apply inside both engines and echo themselves", async () => {
  const german = await search({ q: "worker lease queue", mode: "hybrid", locale: "de" });
  expect(german.filters.applied).toEqual({ locale: ["de"] });
  expect(german.data.map((h) => h.url)).toEqual(["http://acme.test/de/warteschlange.html"]);
  const none = await search({ q: "worker lease queue", type: "pricing", domain: "other.test" });
  expect(none.data).toEqual([]);
});

test("any query string is safe", async () => {
  for (const q of [
    '"unbalanced',
    "NEAR(a b) OR *",
    "x".repeat(1000),
    "キュー 队列",
    "-- ; DROP TABLE pages",
  ]) {
    const r = await app.handle(
      new Request(`http://localhost/api/search?${new URLSearchParams({ q })}`),
    );
    expect(r.status).toBe(200);
  }
});

test("a restart keeps every vector: no rebuild marker, nothing embedded again", async () => {
  await c.search.close();
  const dir = join(c.dataDir, "shards");
  expect(readdirSync(dir).filter((f) => f.endsWith(".rebuild"))).toEqual([]);
  const reopened = await openSearch(c.config, c.store.write, () => {});
  try {
    await reopened.indexer.reconcile();
    await reopened.indexer.settled();
    const unembedded = c.store.read.$client
      .query<{ n: number }, []>("SELECT count(*) AS n FROM chunks WHERE embedded = 0")
      .get()?.n;
    expect(unembedded).toBe(0);
    expect((await reopened.registry.shard("acme.test")).chunksWithoutVectors()).toEqual([]);
  } finally {
    await reopened.close();
  }
});

test("a deleted shard file is rebuilt from SQLite on the next start", async () => {
  await c.search.registry.flush();
  const dir = join(c.dataDir, "shards");
  const files = readdirSync(dir).filter((f) => f.startsWith("acme.test"));
  expect(files.some((f) => f.endsWith(".shard"))).toBe(true);
  await c.search.close();
  for (const f of files) rmSync(join(dir, f));
  expect(existsSync(join(dir, "acme.test.shard"))).toBe(false);
  const reopened = await openSearch(c.config, c.store.write, () => {});
  try {
    await reopened.indexer.reconcile();
    await reopened.indexer.settled();
    // The vectors came back from SQLite with the pages: nothing waits for the model.
    const left = c.store.read.$client
      .query<{ n: number }, []>("SELECT count(*) AS n FROM chunks WHERE embedded = 0")
      .get()?.n;
    expect(left).toBe(0);
    expect((await reopened.registry.shard("acme.test")).chunksWithoutVectors()).toEqual([]);
    const rebuilt = createApp({
      config: c.config,
      store: c.store,
      limiter: new RateLimiter(30),
      embeddingBacklog: null,
      search: { registry: reopened.registry, embedQuery: reopened.embedQuery },
    });
    const r = await rebuilt.handle(
      new Request(
        `http://localhost/api/search?${new URLSearchParams({ q: "lease lapses", mode: "hybrid" })}`,
      ),
    );
    const body = (await r.json()) as { data: Hit[] };
    expect(body.data[0]?.url).toBe("http://acme.test/queues.html");
    expect(body.data[0]?.ranks.vector).toBeGreaterThan(0);
  } finally {
    await reopened.close();
  }
});
