/**
 * A lost shard rebuilt from SQLite: the local doc site crawled with embeddings off (`bun
 * src/cli.ts crawl` against test/sites/support/serve-doc-sites.ts), then
 *
 * - the embedding texts counted: chunks against distinct `embeddingText(chunk, title)` strings,
 *   what the vectors table dedupes;
 * - the vectors table filled, one vector per distinct text, through the indexer's own write path
 *   (`saveChunkVectors`). By default the vectors are pseudo-random unit vectors drawn from each
 *   text's key: a rebuild never looks at their values, and embedding 38k chunks takes ~8 min of
 *   both cores. `--embed` runs the real model instead (and prints its time);
 * - its disk cost: bytes of `vectors`, its key index and the growth of `chunks` per chunk
 *   (SQLite's dbstat), and of the database file;
 * - the rebuild: the domain's shard files deleted, then a fresh registry and indexer reconcile
 *   the domain (with an embedder that counts its calls and fails), up to the shard's snapshot
 *   on disk; `--runs` times, each from no shard files.
 *
 *   bun test/bench/shard-rebuild.ts [--site python|handbook|postgres] [--budget N] [--runs N]
 *                                   [--data DIR] [--embed]
 *
 * `--data DIR` keeps the crawled data dir and reuses it on the next run (the crawl is the slow
 * part). Figures are wall-clock on whatever machine runs it (ours: 2 cores shared with others).
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { testConfig } from "../../src/config.ts";
import { openStore } from "../../src/db/client.ts";
import { type ChunkVectorRow, saveChunkVectors } from "../../src/db/vectors-repo.ts";
import { embeddingText } from "../../src/search/chunking.ts";
import { EmbeddingPool } from "../../src/search/embedding-pool.ts";
import { MODEL_DIM } from "../../src/search/model-files.ts";
import { type PassageEmbedder, SearchIndexer } from "../../src/search/search-indexer.ts";
import { openShardRegistry } from "../../src/search/shard-registry.ts";
import { encodeVector, vectorKey } from "../../src/search/vector-codec.ts";
import { vectorModelId } from "../../src/search/vector-model.ts";
import { REPO_ROOT } from "../sites/support/debian-docs.ts";
import { docSites } from "../sites/support/doc-sites.ts";
import { startDocServer } from "./support/crawl-runners.ts";
import { median } from "./support/stats.ts";

const SITES: Readonly<Record<string, { host: string; budget: number }>> = {
  python: { host: "docs.python.org", budget: 2000 },
  postgres: { host: "www.postgresql.org", budget: 2000 },
  handbook: { host: "debian-handbook.info", budget: 5000 },
};

const { values } = parseArgs({
  options: {
    site: { type: "string", default: "python" },
    budget: { type: "string" },
    runs: { type: "string", default: "3" },
    data: { type: "string" },
    embed: { type: "boolean", default: false },
  },
});
const site = SITES[values.site ?? "python"];
if (!site) throw new Error(`--site: one of ${Object.keys(SITES).join(", ")}`);
const dataDir = values.data ?? mkdtempSync(join(tmpdir(), "wc-bench-rebuild-"));
const dbPath = join(dataDir, "webcorpus.db");
const config = testConfig({ DATA_DIR: dataDir, EMBEDDINGS: "false" });
const seconds = (ms: number) => Math.round(ms) / 1000;

async function crawl(): Promise<number> {
  docSites();
  const server = await startDocServer();
  const t0 = performance.now();
  try {
    const proc = Bun.spawn(
      [
        "bun",
        "src/cli.ts",
        "crawl",
        site?.host ?? "",
        "--budget",
        String(values.budget ?? site?.budget),
      ],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          WEBCORPUS_DATA_DIR: dataDir,
          WEBCORPUS_CONNECT_TO: server.connectTo,
          WEBCORPUS_CONNECT_TO_ONLY: "true",
          WEBCORPUS_CRAWL_DELAY_S: "0",
          WEBCORPUS_ADAPTIVE_DELAY: "false",
          WEBCORPUS_HOST_CONCURRENCY: "32",
          WEBCORPUS_MAX_CONCURRENCY: "32",
          WEBCORPUS_EMBEDDINGS: "false",
        },
        stdout: "ignore",
        stderr: "inherit",
      },
    );
    if ((await proc.exited) !== 0) throw new Error("the crawl failed");
  } finally {
    server.stop();
  }
  return performance.now() - t0;
}

/** A unit vector drawn from the key's bytes (xorshift seeded by them): stands in for the model's. */
function standIn(key: Uint8Array): Float32Array {
  let s = new DataView(key.buffer, key.byteOffset, 4).getUint32(0, true) | 1;
  const v = new Float32Array(MODEL_DIM);
  for (let i = 0; i < MODEL_DIM; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    v[i] = (s >>> 0) / 2 ** 32 - 0.5;
  }
  return v;
}

function tableBytes(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .query<{ name: string; bytes: number }, []>(
        "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name",
      )
      .all();
    return Object.fromEntries(rows.map((r) => [r.name, r.bytes]));
  } finally {
    db.close();
  }
}

const crawlMs = existsSync(dbPath) ? null : await crawl();
const model = vectorModelId(config.modelDir, config.embedVariant);
const store = openStore(dbPath);
const db = store.write;
/** The shard's domain (a root domain: python.org for docs.python.org). */
const domain =
  db.$client
    .query<{ domain: string }, []>(
      "SELECT domain FROM pages GROUP BY domain ORDER BY count(*) DESC LIMIT 1",
    )
    .get()?.domain ?? "";
const chunks = db.$client
  .query<{ id: number; heading: string; text: string; title: string | null }, [string]>(
    `SELECT c.id, c.heading, c.text, p.title FROM chunks c JOIN pages p ON p.id = c.page_id
     WHERE p.domain = ?1 ORDER BY c.id`,
  )
  .all(domain);
const pages = db.$client
  .query<{ n: number }, [string]>("SELECT count(*) AS n FROM pages WHERE domain = ?1")
  .get(domain)?.n;
const texts = chunks.map((c) => embeddingText(c, c.title));
const distinct = new Set(texts).size;
const distinctChunkTexts = new Set(chunks.map((c) => c.text)).size;
console.log(
  JSON.stringify({
    site: site.host,
    domain,
    crawl_s: crawlMs === null ? "reused" : seconds(crawlMs),
    pages,
    chunks: chunks.length,
    distinct_embedding_texts: distinct,
    repeats_pct: Math.round((1 - distinct / chunks.length) * 1000) / 10,
    // Chunk text alone (no title or heading path): not what the model embeds.
    distinct_chunk_texts: distinctChunkTexts,
    chunk_text_repeats_pct: Math.round((1 - distinctChunkTexts / chunks.length) * 1000) / 10,
  }),
);

// One vector per distinct text, every chunk pointing at it, as the embedding loop writes them.
const filled = db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM vectors").get()?.n;
if (!filled) {
  db.$client.run("VACUUM");
  const before = { file: statSync(dbPath).size, tables: tableBytes(dbPath) };
  const keys = texts.map((t) => vectorKey(model, t));
  const byKey = new Map<string, Buffer>();
  const t0 = performance.now();
  if (values.embed) {
    const pool = await EmbeddingPool.start({ queryLane: false });
    const todo = new Map<string, string>();
    for (const [i, k] of keys.entries()) todo.set(k.toString("hex"), texts[i] ?? "");
    const hexes = [...todo.keys()];
    for (let i = 0; i < hexes.length; i += 256) {
      const part = hexes.slice(i, i + 256);
      const vectors = await pool.embedPassages(part.map((h) => todo.get(h) ?? ""));
      for (const [j, h] of part.entries()) {
        byKey.set(h, encodeVector(vectors[j] ?? new Float32Array(0)));
      }
    }
    await pool.close();
  }
  const rows: ChunkVectorRow[] = chunks.map((c, i) => {
    const key = keys[i] as Buffer;
    const hex = key.toString("hex");
    let vector = byKey.get(hex);
    if (!vector) {
      vector = encodeVector(standIn(key));
      byKey.set(hex, vector);
    }
    return { chunkId: c.id, key, vector };
  });
  const fillMs = performance.now() - t0;
  const t1 = performance.now();
  for (let i = 0; i < rows.length; i += 64) saveChunkVectors(db, rows.slice(i, i + 64));
  const saveMs = performance.now() - t1;
  db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
  db.$client.run("VACUUM");
  const after = { file: statSync(dbPath).size, tables: tableBytes(dbPath) };
  const grew = (name: string) => (after.tables[name] ?? 0) - (before.tables[name] ?? 0);
  const perChunk = (bytes: number) => Math.round((bytes / chunks.length) * 10) / 10;
  console.log(
    JSON.stringify({
      vectors: values.embed ? "model" : "stand-in (pseudo-random unit vectors by key)",
      vectors_s: seconds(fillMs),
      save_s_batches_of_64: seconds(saveMs),
      vectors_table_bytes_per_chunk: perChunk(grew("vectors")),
      key_index_bytes_per_chunk: perChunk(grew("vectors_key_unique")),
      chunks_table_growth_bytes_per_chunk: perChunk(grew("chunks")),
      db_file_growth_bytes_per_chunk: perChunk(after.file - before.file),
      bytes_per_distinct_vector: Math.round(
        (grew("vectors") + grew("vectors_key_unique")) / byKey.size,
      ),
    }),
  );
}

let modelCalls = 0;
const refuses: PassageEmbedder = {
  async embedPassages(batch) {
    modelCalls += batch.length;
    throw new Error("a rebuild from SQLite called the model");
  },
};
const rebuilds: number[] = [];
for (let run = 0; run < Math.max(1, Number(values.runs)); run++) {
  const shards = join(dataDir, "shards");
  for (const f of existsSync(shards) ? readdirSync(shards) : []) {
    if (f.startsWith(domain)) rmSync(join(shards, f));
  }
  const registry = await openShardRegistry(config);
  const indexer = new SearchIndexer({
    registry,
    db,
    embedder: refuses,
    embeddingText: (chunk, title) => embeddingText(chunk, title),
    vectorModel: model,
    batch: 64,
    log: () => {},
  });
  const t0 = performance.now();
  await indexer.reconcileDomain(domain);
  // The rebuild ends with the snapshot written (markRebuilt).
  const rebuildMs = performance.now() - t0;
  const shard = await registry.shard(domain);
  const withoutVectors = shard.chunksWithoutVectors().length;
  const unembedded = db.$client
    .query<{ n: number }, []>("SELECT count(*) AS n FROM chunks WHERE embedded = 0")
    .get()?.n;
  rebuilds.push(rebuildMs);
  const snapshot = join(shards, `${domain}.shard`);
  console.log(
    JSON.stringify({
      run,
      rebuild_s: seconds(rebuildMs),
      shard_chunks: shard.chunks,
      chunks_without_vectors: withoutVectors,
      chunks_waiting_for_model: unembedded,
      model_calls: modelCalls,
      snapshot_mb: existsSync(snapshot) ? Math.round(statSync(snapshot).size / 1e5) / 10 : null,
    }),
  );
  await indexer.close();
}
console.log(
  JSON.stringify({ rebuild_median_s: seconds(median(rebuilds)), model_calls: modelCalls }),
);
store.close();
if (!values.data) rmSync(dataDir, { recursive: true, force: true });
