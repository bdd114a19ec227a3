/**
 * A restart while a crawl goes on: the start-up check of each shard against SQLite runs beside
 * the resumed crawl's writes. A site is crawled into real shards on disk, the service stopped,
 * then reopened over the same files with a registry that holds one step of the check at a gate,
 * so a page can be stored exactly in the window a real restart leaves open.
 */
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { SearchIndexer } from "../../src/search/search-indexer.ts";
import type { PageInput } from "../../src/search/shard.ts";
import { ShardRegistry } from "../../src/search/shard-registry.ts";
import { createApp } from "../../src/server/app.ts";
import { RateLimiter } from "../../src/services/rate-limiter.ts";
import { tempDir } from "../helpers/app.ts";
import { type Crawler, crawler, searchCrawler } from "../helpers/crawl.ts";
import { storePage } from "../helpers/pages.ts";
import { countingEmbedder, restartedIndexer } from "../helpers/restarted-indexer.ts";
import { PROSE, page, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(60_000);

const DOMAIN = "acme.test";
const PAGES: Record<string, string> = {
  "/": page(
    "Acme",
    `<p>${PROSE}</p><a href="/queues.html">Queues</a> <a href="/pricing.html">Pricing</a>`,
  ),
  "/queues.html": page("Queues", `<p>${PROSE} Leases keep workers honest.</p>`),
  "/pricing.html": page("Pricing", `<p>${PROSE} The team plan costs 20 dollars a seat.</p>`),
};

/** A real registry whose `what` step waits at a gate until the test opens it. */
class GatedRegistry extends ShardRegistry {
  readonly reached = Promise.withResolvers<void>();
  readonly gate = Promise.withResolvers<void>();
  constructor(
    dir: string,
    readonly what: "pageVersions" | "upsertPages",
  ) {
    super({ dir, memoryBudgetBytes: 2 ** 30 });
  }
  override async pageVersions(domain: string): Promise<Map<string, string>> {
    if (this.what === "pageVersions") {
      this.reached.resolve();
      await this.gate.promise;
    }
    return super.pageVersions(domain);
  }
  override async upsertPages(domain: string, pages: readonly PageInput[]): Promise<void> {
    if (this.what === "upsertPages") {
      this.reached.resolve();
      await this.gate.promise;
    }
    return super.upsertPages(domain, pages);
  }
}

const { embedder } = countingEmbedder(() => ({
  embedPassages: () => Promise.reject(new Error("embeddings are off in this test")),
}));

let site: TestSite;
let dataDir: string;
let c: Crawler;
let jobId: string;
beforeAll(async () => {
  site = serveSite(DOMAIN, PAGES);
  dataDir = tempDir();
  const first = await searchCrawler({ CONNECT_TO: site.connectTo() }, dataDir);
  const view = await first.crawl(DOMAIN);
  expect(view.progress.indexed).toBe(3);
  jobId = view.id;
  await first.closeAsync();
  c = crawler({ CONNECT_TO: site.connectTo() }, dataDir);
});
afterAll(async () => {
  c?.close();
  await site?.stop();
});

const opened: SearchIndexer[] = [];
afterEach(async () => {
  for (const indexer of opened.splice(0)) await indexer.close();
});

function restart(what: GatedRegistry["what"]) {
  const registry = new GatedRegistry(join(dataDir, "shards"), what);
  const indexer = restartedIndexer(c, registry, embedder);
  opened.push(indexer);
  return { registry, indexer };
}

test("a page the resumed crawl stores while its shard is checked stays in the shard", async () => {
  const { registry, indexer } = restart("pageVersions");
  const checking = indexer.reconcileDomain(DOMAIN);
  await registry.reached.promise; // the check is reading what the shard holds
  const write = storePage(c.store.write, jobId, {
    url: `http://${DOMAIN}/stdtypes.html`,
    domain: DOMAIN,
    title: "Built-in Types",
    markdown: "# Built-in Types\n\nSequence types: list, tuple and range hold items in order.",
  });
  indexer.pageStored(write);
  await indexer.settled(); // the page is in the shard
  registry.gate.resolve();
  await checking;
  const held = await registry.pageVersions(DOMAIN);
  expect(held.has(write.id)).toBe(true);
  expect(held.size).toBe(4);
  const shard = await registry.shard(DOMAIN);
  expect(shard.searchText("sequence tuple range", 5).map((h) => h.pageId)).toContain(write.id);
});

test("a search of a domain whose shard is rebuilding says so, and stops saying so when it is back", async () => {
  const dir = join(dataDir, "shards");
  for (const f of readdirSync(dir).filter((f) => f.startsWith(DOMAIN))) rmSync(join(dir, f));
  const { registry, indexer } = restart("upsertPages");
  const app = createApp({
    config: c.config,
    store: c.store,
    limiter: new RateLimiter(30),
    embeddingBacklog: null,
    search: {
      registry,
      embedQuery: null,
      indexStatus: (domain) => indexer.indexStatus(domain),
    },
  });
  const search = async () => {
    const r = await app.handle(
      new Request(`http://localhost/api/search?q=team+plan+dollars&domain=${DOMAIN}`),
    );
    expect(r.status).toBe(200);
    return (await r.json()) as {
      data: { page_id: string }[];
      partial?: { reason: string; domains: { domain: string; status: string }[] };
    };
  };
  const pages =
    c.store.read.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM pages").get()?.n ?? 0;
  const reconciling = indexer.reconcile();
  await registry.reached.promise; // the rebuild holds its first slice
  const during = await search();
  expect(during.data).toEqual([]);
  expect(during.partial?.domains).toEqual([
    {
      domain: DOMAIN,
      status: `search index missing, rebuilding from the database: 0 of ${pages} pages back`,
    },
  ]);
  expect(during.partial?.reason).toContain("results may miss pages");
  const content = async () =>
    (await (
      await app.handle(new Request(`http://localhost/api/content?q=team+plan&domain=${DOMAIN}`))
    ).json()) as { partial?: { domains: { domain: string }[] } };
  expect((await content()).partial?.domains.map((d) => d.domain)).toEqual([DOMAIN]);
  const record = async () =>
    (
      (await (await app.handle(new Request(`http://localhost/api/domains/${DOMAIN}`))).json()) as {
        health: { search_index: unknown };
      }
    ).health.search_index;
  expect(await record()).toEqual({
    state: "rebuilding",
    detail: during.partial?.domains[0]?.status,
  });
  registry.gate.resolve();
  await reconciling;
  const after = await search();
  expect(after.partial).toBeUndefined();
  expect(await record()).toEqual({ state: "ready", detail: null });
  expect((await content()).partial).toBeUndefined();
  expect(after.data.length).toBeGreaterThan(0);
});
