/**
 * The corpora of the search latency benchmark, built once under `<repo>/.cache/search-eval` and
 * reused (the data dirs hold every vector computed: reruns embed nothing).
 *
 * - `bench-data`: the search evaluation's corpus (test/eval/search/corpus.ts: docs.python.org,
 *   the PostgreSQL docs, four handbook languages, crawled and embedded by the service), copied,
 *   then the Debian handbook crawled again with all its languages served: real pages, chunked
 *   and embedded by the real service, one shard per site.
 * - `bench-30`: 30 shards of ~10,000 chunks each, made from bench-data's pages: each shard takes
 *   whole pages in bench-data's order from its own offset (past the end it wraps, so shards
 *   beyond the real chunk count repeat earlier pages under another domain), with their real
 *   chunk texts and real vectors (the int8 rows of the source shard, decoded: re-encoding gives
 *   the same rows). Pages, chunks and topics go into SQLite as the crawler stores them (bodies
 *   left out: search never reads them), so the service starts on it as on a crawled data dir.
 */
import { Database } from "bun:sqlite";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../../src/db/client.ts";
import { type PageInput, Shard } from "../../../src/search/shard.ts";
import { writeSnapshotFile } from "../../../src/search/shard-files.ts";
import { ShardRegistry } from "../../../src/search/shard-registry.ts";
import { indexOf } from "../../../src/search/shard-schema.ts";
import { encodeSnapshot } from "../../../src/search/shard-snapshot.ts";
import {
  BUDGETS,
  buildCorpus,
  corpusStats,
  DEFAULT_DATA,
  EVAL_DIR,
  evalSites,
  loadQueries,
  type Manifest,
  readManifest,
} from "../../eval/search/corpus.ts";
import { docSites, HANDBOOK_HOST } from "../../sites/support/doc-sites.ts";

export const BENCH_DATA = join(EVAL_DIR, "bench-data");
export const BENCH_30 = join(EVAL_DIR, "bench-30");

/** The evaluation corpus (crawled when missing), then bench-data over it. */
export async function ensureBenchData(log: (line: string) => void): Promise<Manifest> {
  const known = readManifest(BENCH_DATA);
  if (known) return known;
  if (!readManifest(DEFAULT_DATA)) {
    log(`building the search evaluation's corpus first (${DEFAULT_DATA}) ...`);
    await buildCorpus(DEFAULT_DATA, evalSites(loadQueries()), BUDGETS, {}, log);
  }
  rmSync(BENCH_DATA, { recursive: true, force: true });
  cpSync(DEFAULT_DATA, `${BENCH_DATA}.part`, { recursive: true });
  rmSync(join(`${BENCH_DATA}.part`, "corpus.json"));
  log("crawling the Debian handbook in every language into bench-data ...");
  await buildCorpus(`${BENCH_DATA}.part`, docSites(), { [HANDBOOK_HOST]: 4000 }, {}, log);
  cpSync(`${BENCH_DATA}.part`, BENCH_DATA, { recursive: true });
  rmSync(`${BENCH_DATA}.part`, { recursive: true, force: true });
  return readManifest(BENCH_DATA) as Manifest;
}

interface SourcePage {
  readonly row: Record<string, unknown>;
  readonly chunks: { idx: number; heading: string; text: string; tokens: number }[];
}

/** Pages of `source` with their chunks, in (domain, id) order. */
function sourcePages(source: string): SourcePage[] {
  const db = new Database(join(source, "webcorpus.db"), { readonly: true });
  try {
    const chunks = new Map<string, SourcePage["chunks"]>();
    for (const c of db
      .query<{ page_id: string; idx: number; heading: string; text: string; tokens: number }, []>(
        "SELECT page_id, idx, heading, text, tokens FROM chunks ORDER BY page_id, idx",
      )
      .all()) {
      const list = chunks.get(c.page_id) ?? [];
      list.push(c);
      chunks.set(c.page_id, list);
    }
    return db
      .query<Record<string, unknown>, []>("SELECT * FROM pages ORDER BY domain, id")
      .all()
      .map((row) => ({ row, chunks: chunks.get(row.id as string) ?? [] }))
      .filter((p) => p.chunks.length > 0);
  } finally {
    db.close();
  }
}

/** The decoded vector of every chunk of the source shards, by `<page id>#<idx>`. */
async function sourceVectors(
  source: string,
  domains: string[],
): Promise<Map<string, Float32Array>> {
  const registry = await ShardRegistry.open({
    dir: join(source, "shards"),
    memoryBudgetBytes: 64 * 2 ** 30,
  });
  const out = new Map<string, Float32Array>();
  for (const domain of domains) {
    const shard = await registry.shard(domain);
    const store = indexOf(shard.db);
    const ids = shard.db.internalDocumentIDStore.internalIdToId;
    for (let slot = 0; slot < store.slots; slot++) {
      if (store.live[slot] !== 1) continue;
      const vector = store.vectors.get(slot);
      if (vector) out.set(ids[(store.internalOf[slot] as number) - 1] as string, vector);
    }
    shard.dispose();
  }
  return out;
}

function hex16(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 16);
}

/** bench-30: `shards` domains of about `perShard` chunks each, from bench-data. */
export async function ensureBench30(
  shards: number,
  perShard: number,
  log: (line: string) => void,
): Promise<{ chunks: number; distinct: number; domains: string[] }> {
  const domains = Array.from(
    { length: shards },
    (_, i) => `bench${String(i + 1).padStart(2, "0")}.org`,
  );
  const marker = join(BENCH_30, `built-${shards}x${perShard}`);
  if (existsSync(marker)) {
    return { chunks: corpusStats(BENCH_30).chunks, distinct: -1, domains };
  }
  rmSync(BENCH_30, { recursive: true, force: true });
  const pages = sourcePages(BENCH_DATA);
  const vectors = await sourceVectors(BENCH_DATA, [
    ...new Set(pages.map((p) => p.row.domain as string)),
  ]);
  const total = pages.reduce((n, p) => n + p.chunks.length, 0);
  log(`bench-30: ${pages.length} source pages, ${total} chunks, ${vectors.size} vectors`);
  const store = openStore(join(BENCH_30, "webcorpus.db"));
  store.close();
  const db = new Database(join(BENCH_30, "webcorpus.db"), { strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  const columns = Object.keys(pages[0]?.row ?? {});
  const insertPage = db.prepare(
    `INSERT INTO pages (${columns.join(", ")}) VALUES (${columns.map((c) => `$${c}`).join(", ")})`,
  );
  const insertChunk = db.prepare(
    "INSERT INTO chunks (page_id, idx, heading, text, tokens, embedded) VALUES (?, ?, ?, ?, ?, 1)",
  );
  const insertTopic = db.prepare("INSERT INTO page_topics (page_id, topic) VALUES (?, ?)");
  const shardDir = join(BENCH_30, "shards");
  mkdirSync(shardDir, { recursive: true });
  // Cumulative chunk counts: shard i starts at the page holding chunk i × perShard (wrapped).
  const starts: number[] = [];
  let sum = 0;
  for (const p of pages) {
    starts.push(sum);
    sum += p.chunks.length;
  }
  const firstPage = (offset: number) => {
    const j = starts.findIndex((s) => s >= offset);
    return Math.max(j, 0);
  };
  let written = 0;
  for (const [i, domain] of domains.entries()) {
    let next = firstPage((i * perShard) % total);
    const shard = new Shard(domain);
    let chunks = 0;
    db.transaction(() => {
      while (chunks < perShard) {
        const page = pages[next++ % pages.length] as SourcePage;
        const row = page.row;
        const pageId = `pg_${hex16(`${domain} ${row.id}`)}`;
        const url = String(row.url).replace(/^(https?:\/\/)[^/]+/, `$1${domain}`);
        insertPage.run({
          ...Object.fromEntries(columns.map((c) => [`$${c}`, row[c] ?? null])),
          $id: pageId,
          $url: url,
          $canonical_url: url,
          $domain: domain,
          $host: domain,
          $job_id: null,
        } as never);
        const topics = JSON.parse(String(row.topics)) as string[];
        for (const t of topics) insertTopic.run(pageId, t);
        const input: PageInput = {
          pageId,
          title: (row.title as string | null) ?? "",
          version: String(row.text_hash),
          facets: {
            type: row.type as string,
            locale: row.locale as string | null,
            topics,
            technicality: row.technicality as number,
          },
          chunks: page.chunks.map((c) => {
            insertChunk.run(pageId, c.idx, c.heading, c.text, c.tokens);
            const vector = vectors.get(`${row.id}#${c.idx}`);
            if (!vector) throw new Error(`no vector for ${row.id}#${c.idx}`);
            return { heading: c.heading, text: c.text, vector };
          }),
        };
        shard.upsertPage(input);
        chunks += page.chunks.length;
      }
    })();
    await writeSnapshotFile(shardDir, domain, await encodeSnapshot(shard.save(), 0));
    shard.dispose();
    written += chunks;
    log(`  ${domain}: ${chunks} chunks`);
  }
  db.close();
  await Bun.write(marker, new Date().toISOString());
  return { chunks: written, distinct: Math.min(total, written), domains };
}
