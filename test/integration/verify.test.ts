/**
 * `webcorpus verify`: two sites crawled and embedded with the real model, the service stopped,
 * then the CLI run as a user runs it against the data dir. A clean corpus exits 0; a chunk gone
 * from a shard, an orphan, a vector dropped or altered, a corrupt snapshot are each reported as
 * exactly that difference (domain and chunk ids), exit 1, with nothing on disk changed; `--repair`
 * rebuilds the shard from SQLite without the model (no chunk left waiting for it, SQLite's
 * vectors unchanged) and a second verify is clean.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openReader, openStore } from "../../src/db/client.ts";
import { type PageInput, type Shard, shardPage } from "../../src/search/shard.ts";
import { openShardRegistry, type ShardRegistry } from "../../src/search/shard-registry.ts";
import { readSnapshotHeader } from "../../src/search/shard-snapshot.ts";
import { runCli } from "../helpers/cli.ts";
import { type SearchCrawler, searchCrawler } from "../helpers/crawl.ts";
import { article, serveSite, steps, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(180_000);

const ACME: Record<string, string> = {
  "/": article(
    "Acme",
    '<p>Acme builds job queues for teams.</p><a href="/queues.html">Queues</a> <a href="/pricing.html">Pricing</a>',
  ),
  "/queues.html": article(
    "Acme queues",
    `<h2>Leases</h2><p>Each worker takes a lease on a job and renews it while it runs.</p><p>${steps("a lease")}</p><h2>Retries</h2><p>${steps("a retry")}</p>`,
  ),
  "/pricing.html": article("Pricing", "<p>The team plan costs 20 dollars per seat per month.</p>"),
};
const BETA: Record<string, string> = {
  "/": article("Beta", '<p>Beta makes bicycles.</p><a href="/frames.html">Frames</a>'),
  "/frames.html": article("Frames", `<h2>Steel</h2><p>${steps("a frame")}</p>`),
};

let acme: TestSite;
let beta: TestSite;
let c: SearchCrawler;
let env: Record<string, string>;
let shards: string;

/** SQLite read on a connection of its own, closed at once (--repair needs the lock; a cached
 * `query()` statement would keep the connection open after `close()`). */
function sql<T>(query: string): T[] {
  const db = openReader(c.config.databasePath);
  const statement = db.$client.prepare<T, []>(query);
  try {
    return statement.all();
  } finally {
    statement.finalize();
    db.$client.close();
  }
}
const count = (query: string) => sql<{ n: number }>(query)[0]?.n ?? Number.NaN;

/** The acme.test pages as SQLite holds them, ready for a shard, with the shard's vectors. */
function acmePages(shard: Shard): PageInput[] {
  const pages = sql<{
    id: string;
    title: string | null;
    version: string;
    type: string;
    locale: string | null;
    topics: string;
    technicality: number;
  }>(
    "SELECT id, title, text_hash AS version, type, locale, topics, technicality FROM pages WHERE domain = 'acme.test' ORDER BY url",
  );
  const chunks = sql<{ pageId: string; heading: string; text: string }>(
    "SELECT page_id AS pageId, heading, text FROM chunks ORDER BY page_id, idx",
  );
  return pages.map((p) => {
    const facets = { ...p, topics: JSON.parse(p.topics) as string[] };
    const own = chunks.filter((ch) => ch.pageId === p.id);
    const page = shardPage(p.id, p.title, p.version, facets, own);
    return {
      ...page,
      chunks: page.chunks.map((ch, n) => ({ ...ch, vector: shard.vectorOf(`${p.id}#${n}`) })),
    };
  });
}

/** Changes the acme.test shard through a registry (logged, then snapshotted at close). */
async function editShard(edit: (registry: ShardRegistry, shard: Shard) => Promise<void>) {
  const registry = await openShardRegistry(c.config);
  try {
    await edit(registry, await registry.shard("acme.test"));
  } finally {
    await registry.close();
  }
}

interface Report {
  domain: string;
  health: string;
  sqlite: { pages: number; chunks: number; vectors: number };
  shard: { pages: number; chunks: number; vectors: number };
  differences: number;
  missing_chunks: string[];
  orphan_chunks: string[];
  duplicate_chunks: string[];
  chunks_differ: { chunk_id: string; fields: string[] }[];
  pages_stale: string[];
  facets_differ: string[];
  vectors_missing: string[];
  vectors_differ: string[];
  vectors_extra: string[];
}

async function verifyJson(...args: string[]) {
  const run = await runCli(["verify", "--json", ...args], env);
  const out = JSON.parse(run.stdout) as {
    domains: Report[];
    differences: number;
    repaired: string[];
  };
  return { code: run.code, ...out, domain: (d: string) => out.domains.find((r) => r.domain === d) };
}

/** Every list of the report empty but `kind`, which holds `ids`. */
function expectOnly(r: Report | undefined, kind: keyof Report, ids: unknown[]) {
  if (!r) throw new Error("no report");
  const lists = [
    "missing_chunks",
    "orphan_chunks",
    "duplicate_chunks",
    "chunks_differ",
    "pages_stale",
    "facets_differ",
    "vectors_missing",
    "vectors_differ",
    "vectors_extra",
  ] as const;
  for (const name of lists) {
    expect({ name, ids: r[name] as unknown[] }).toEqual({ name, ids: name === kind ? ids : [] });
  }
}

/** `--repair` mends acme.test alone, with no model: then verify is clean and SQLite unchanged. */
async function expectRepaired() {
  const vectorsBefore = count("SELECT count(*) AS n FROM vectors");
  const repair = await runCli(["verify", "--repair"], env);
  expect(repair.code).toBe(0);
  expect(repair.stdout).toContain("repaired 1 domain (acme.test)");
  expect(repair.stdout).toMatch(/2 domains checked in [\d.]+ s; repaired .*: 0 differences\n$/);
  // No chunk waits for the model: every vector came from SQLite, none was dropped or added.
  expect(count("SELECT count(*) AS n FROM chunks WHERE embedded = 0")).toBe(0);
  expect(count("SELECT count(*) AS n FROM vectors")).toBe(vectorsBefore);
  const again = await runCli(["verify"], env);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain("0 differences");
  expect(readdirSync(shards).filter((f) => /\.(rebuild|corrupt)$/.test(f))).toEqual([]);
}

beforeAll(async () => {
  acme = serveSite("acme.test", ACME);
  beta = serveSite("beta.test", BETA);
  c = await searchCrawler({
    CONNECT_TO: `${acme.connectTo()},${beta.connectTo()}`,
    EMBEDDINGS: "true",
    EMBED_THREADS: "1",
  });
  for (const d of ["acme.test", "beta.test"]) {
    const view = await c.crawl(d);
    expect(view.state).toBe("completed");
    expect(view.progress.embedding_backlog).toBe(0);
  }
  await c.closeAsync();
  // close() leaves a connection with unfinalized statements open until they are collected
  // (sqlite3_close_v2), and --repair wants no other connection: collect them now.
  Bun.gc(true);
  env = { WEBCORPUS_DATA_DIR: c.dataDir };
  shards = join(c.dataDir, "shards");
});
afterAll(async () => {
  await acme.stop();
  await beta.stop();
  rmSync(c.dataDir, { recursive: true, force: true });
});

test("a clean corpus: exit 0, 0 differences, the counts of SQLite and the shards equal", async () => {
  const text = await runCli(["verify"], env);
  expect(text.stderr).toBe("");
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/^acme\.test: SQLite \d+ pages, \d+ chunks, \d+ vectors; shard ok, /);
  expect(text.stdout).toMatch(/\n2 domains checked in [\d.]+ s: 0 differences\n$/);

  const json = await verifyJson();
  expect(json.code).toBe(0);
  expect(json.differences).toBe(0);
  expect(json.domains.map((d) => d.domain)).toEqual(["acme.test", "beta.test"]);
  for (const r of json.domains) {
    expect(r.health).toBe("ok");
    expect(r.shard).toEqual(r.sqlite);
    expect(r.sqlite.chunks).toBeGreaterThan(1);
    expectOnly(r, "missing_chunks", []);
  }
  const acmeReport = json.domain("acme.test");
  expect(acmeReport?.sqlite.chunks).toBe(
    count(
      "SELECT count(*) AS n FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.domain = 'acme.test'",
    ),
  );
  expect(acmeReport?.sqlite.vectors).toBe(acmeReport?.sqlite.chunks);
  const one = await verifyJson("--domain", "beta.test");
  expect(one.domains.map((d) => d.domain)).toEqual(["beta.test"]);
});

test("a chunk gone from the shard's log: exactly that chunk missing, exit 1; --repair mends it", async () => {
  let gone = "";
  await editShard(async (registry, shard) => {
    const page = acmePages(shard).find((p) => p.chunks.length > 1);
    if (!page) throw new Error("no page of several chunks");
    gone = `${page.pageId}#${page.chunks.length - 1}`;
    await registry.upsertPages("acme.test", [{ ...page, chunks: page.chunks.slice(0, -1) }]);
  });
  const text = await runCli(["verify"], env);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain(`acme.test: SQLite`);
  expect(text.stdout).toContain(`  missing chunk (in SQLite, not in the shard): ${gone}\n`);
  expect(text.stdout).toContain("1 difference in acme.test; `webcorpus verify --repair`");
  const json = await verifyJson();
  expect(json.code).toBe(1);
  expect(json.differences).toBe(1);
  expectOnly(json.domain("acme.test"), "missing_chunks", [gone]);
  expect(json.domain("beta.test")?.differences).toBe(0);
  await expectRepaired();
});

test("an orphan page in the shard: its chunk reported, exit 1; --repair removes it", async () => {
  await editShard(async (registry) => {
    await registry.upsertPages("acme.test", [
      {
        pageId: "0000orphan",
        title: "Gone",
        version: "v1",
        facets: { type: null, locale: null, topics: [], technicality: null },
        chunks: [{ heading: "", text: "A page SQLite never stored." }],
      },
    ]);
  });
  const json = await verifyJson();
  expect(json.code).toBe(1);
  expectOnly(json.domain("acme.test"), "orphan_chunks", ["0000orphan#0"]);
  expect(json.differences).toBe(1);
  await expectRepaired();
});

test("a vector dropped and another altered in the shard: both reported, exit 1; --repair", async () => {
  let dropped = "";
  let altered = "";
  await editShard(async (registry, shard) => {
    const [first, second] = acmePages(shard);
    if (!first || !second) throw new Error("two pages wanted");
    dropped = `${first.pageId}#0`;
    altered = `${second.pageId}#0`;
    await registry.upsertPages("acme.test", [
      { ...first, chunks: first.chunks.map((ch, n) => (n === 0 ? { ...ch, vector: null } : ch)) },
    ]);
    const other = new Float32Array(384).fill(0.05);
    other[7] = 1;
    await registry.setVectors("acme.test", [{ chunkId: altered, vector: other }]);
  });
  const json = await verifyJson();
  expect(json.code).toBe(1);
  const r = json.domain("acme.test");
  expect(r?.vectors_missing).toEqual([dropped]);
  expect(r?.vectors_differ).toEqual([altered]);
  expect(r?.differences).toBe(2);
  expect(r?.shard.vectors).toBe((r?.sqlite.vectors ?? 0) - 1);
  await expectRepaired();
});

test("a chunk's text and a page's facets changed in the shard: each reported, exit 1; --repair", async () => {
  let chunk = "";
  let pageId = "";
  await editShard(async (registry, shard) => {
    const [page] = acmePages(shard);
    if (!page) throw new Error("no page");
    pageId = page.pageId;
    chunk = `${page.pageId}#0`;
    await registry.upsertPages("acme.test", [
      {
        ...page,
        chunks: page.chunks.map((ch, n) => (n === 0 ? { ...ch, text: `${ch.text} (edited)` } : ch)),
      },
    ]);
    await registry.setFacets("acme.test", page.pageId, {
      ...page.facets,
      topics: [...page.facets.topics, "not-a-topic"],
    });
  });
  const json = await verifyJson();
  expect(json.code).toBe(1);
  const r = json.domain("acme.test");
  expect(r?.chunks_differ).toEqual([{ chunk_id: chunk, fields: ["text"] }]);
  expect(r?.facets_differ).toEqual([pageId]);
  expect(r?.differences).toBe(2);
  await expectRepaired();
});

test("a torn log: the shard reported torn, exit 1; --repair", async () => {
  const { nextLog } = readSnapshotHeader(readFileSync(join(shards, "acme.test.shard")));
  writeFileSync(join(shards, `acme.test.${nextLog}.log`), new Uint8Array([40, 0, 0, 0, 1, 2, 3]));
  const text = await runCli(["verify"], env);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain("acme.test: SQLite");
  expect(text.stdout).toContain("shard torn: a log ends in a damaged record");
  const json = await verifyJson();
  expectOnly(json.domain("acme.test"), "missing_chunks", []);
  expect(json.differences).toBe(1);
  await expectRepaired();
  expect(readdirSync(shards).filter((f) => f.endsWith(".log"))).toEqual([]);
});

test("a corrupt snapshot: reported corrupt with every chunk missing, the files left as they were", async () => {
  const path = join(shards, "acme.test.shard");
  const bytes = readFileSync(path);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  writeFileSync(path, bytes);
  const before = readdirSync(shards).sort();
  const text = await runCli(["verify", "--domain", "acme.test"], env);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain("acme.test: SQLite");
  expect(text.stdout).toContain("shard corrupt, 0 pages, 0 chunks, 0 vectors");
  expect(text.stdout).toContain("  shard corrupt: its snapshot failed its checks\n");
  const json = await verifyJson("--domain", "acme.test");
  const r = json.domain("acme.test");
  expect(r?.health).toBe("corrupt");
  expect(r?.missing_chunks.length).toBe(r?.sqlite.chunks);
  expect(r?.differences).toBe((r?.sqlite.chunks ?? 0) + 1);
  // Read-only: not set aside, no rebuild marker, the same bytes.
  expect(readdirSync(shards).sort()).toEqual(before);
  expect(readFileSync(path).equals(bytes)).toBe(true);
  await expectRepaired();
});

test("--repair is refused while another process has the database open; verify alone runs", async () => {
  const store = openStore(c.config.databasePath);
  try {
    store.read.$client.query("SELECT count(*) FROM pages").get();
    const refused = await runCli(["verify", "--repair"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("is open in another process: stop the server");
    const alone = await runCli(["verify"], env);
    expect(alone.code).toBe(0);
  } finally {
    store.close();
  }
});

test("--help explains every option; a bad domain or argument is a usage error", async () => {
  const help = await runCli(["verify", "--help"], env);
  expect(help.code).toBe(0);
  for (const option of ["--domain DOMAIN", "--repair", "--json", "Exit status"])
    expect(help.stdout).toContain(option);
  expect((await runCli(["verify", "extra"], env)).code).toBe(2);
  const bad = await runCli(["verify", "--domain", "Not A Domain"], env);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("is not a root domain");
  const none = await runCli(["verify"], { WEBCORPUS_DATA_DIR: join(c.dataDir, "nothing") });
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("no database at");
  expect(existsSync(join(c.dataDir, "nothing"))).toBe(false);
});
