/**
 * Search latency, memory and disk of the Orama shards (src/search) on real chunk texts.
 *
 *   bun run test/bench/search-latency.ts [--chunks 120000] [--shards 30] [--per-shard 10000]
 *                                        [--rounds 1] [--skip-multi] [--skip-single]
 *
 * Part 1, one shard of --chunks chunks: build, heap and RSS per chunk, snapshot bytes per
 * chunk, snapshot write and load time, p50/p95 per mode (text, vector, hybrid) with and
 * without filters over the 187 judged queries of test/eval/search. Part 2, --shards shards of
 * --per-shard chunks each, written and loaded through a ShardRegistry: all-domain search.
 *
 * Texts: the Debian doc sites (bench-corpus.ts: 38k chunks); past them, chunks are spliced
 * from two neighbouring chunks of the same page (second half of one, first half of the next),
 * so texts stay real prose with the sites' vocabulary and no chunk is a copy. Vectors and
 * query vectors are random unit vectors until the embedder lands: the vector scan costs the
 * same whatever the values. Timings print, never assert. Search only: the service adds the
 * query embedding (~4 ms) and HTTP.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type PageInput, Shard } from "../../src/search/shard.ts";
import { readSnapshotFile, writeSnapshotFile } from "../../src/search/shard-files.ts";
import { ShardRegistry } from "../../src/search/shard-registry.ts";
import { indexOf } from "../../src/search/shard-schema.ts";
import {
  type SearchFilters,
  type SearchMode,
  searchShards,
} from "../../src/search/shard-search.ts";
import { decodeSnapshot, encodeSnapshot } from "../../src/search/shard-snapshot.ts";
import { sharedArena } from "../../src/search/vector-arena.ts";
import { type BenchChunk, benchChunks, random, unitVector } from "./bench-corpus.ts";

const { values: args } = parseArgs({
  options: {
    chunks: { type: "string", default: "120000" },
    shards: { type: "string", default: "30" },
    "per-shard": { type: "string", default: "10000" },
    rounds: { type: "string", default: "1" },
    "skip-multi": { type: "boolean", default: false },
    "skip-single": { type: "boolean", default: false },
    "measure-load": { type: "string" },
  },
});

const TYPES = ["docs", "api_reference", "blog", "product", "support"];
const TOPICS = ["devtools", "databases", "security", "cloud", "analytics", "api-integration"];
const QUERIES: string[] = (
  await Bun.file(join(import.meta.dir, "../eval/search/queries.jsonl")).text()
)
  .split("\n")
  .filter(Boolean)
  .map((line) => (JSON.parse(line) as { query: string }).query);

const FILTERS: [string, SearchFilters][] = [
  ["none", {}],
  ["locale=en", { locales: ["en"] }],
  ["type=docs", { types: ["docs"] }],
  ["technicality>=0.5", { technicalityMin: 0.5 }],
  ["topics=databases", { topics: ["databases"] }],
  ["all four", { locales: ["en"], types: ["docs"], technicalityMin: 0.5, topics: ["devtools"] }],
];

/** `count` chunks: the real ones, then splices of neighbours (generation g pairs i, i + g). */
function* chunkStream(
  base: BenchChunk[],
  count: number,
  offset = 0,
): Generator<BenchChunk & { id: string }> {
  for (let n = offset; n < offset + count; n++) {
    const g = Math.floor(n / base.length);
    const i = n % base.length;
    const c = base[i] as BenchChunk;
    if (g === 0) {
      yield { ...c, id: c.page };
      continue;
    }
    const next = base[(i + g) % base.length] as BenchChunk;
    const a = c.text.split(" ");
    const b = next.text.split(" ");
    const text = [
      ...a.slice(Math.floor(a.length / 2)),
      ...b.slice(0, Math.ceil(b.length / 2)),
    ].join(" ");
    yield { ...c, text, id: `${c.page}~${g}` };
  }
}

/** Pages (consecutive chunks of one page id) with facets and random vectors. */
function* pages(
  chunks: Iterable<BenchChunk & { id: string }>,
  seed: number,
  prefix: string,
): Generator<PageInput> {
  const rand = random(seed);
  let current: (BenchChunk & { id: string })[] = [];
  let n = 0;
  const emit = (): PageInput => {
    const first = current[0] as BenchChunk & { id: string };
    const page: PageInput = {
      pageId: `${prefix}pg_${(n++).toString(36)}`,
      title: first.title,
      version: first.id,
      facets: {
        type: TYPES[Math.floor(rand() * TYPES.length)] ?? null,
        locale: first.locale,
        topics: TOPICS.filter(() => rand() < 0.3),
        technicality: Math.round(rand() * 100) / 100,
      },
      chunks: current.map((c) => ({ heading: c.heading, text: c.text, vector: unitVector(rand) })),
    };
    current = [];
    return page;
  };
  for (const c of chunks) {
    if (current.length > 0 && current[0]?.id !== c.id) yield emit();
    current.push(c);
  }
  if (current.length > 0) yield emit();
}

/** heapUsed, RSS and the vector arena's size after a full GC. */
function heapMb(): { heap: number; rss: number; arena: number } {
  Bun.gc(true);
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, arena: sharedArena().bytes };
}

/**
 * Memory a shard added between two readings: JSC counts a WebAssembly memory twice in heapUsed
 * (a 62.5 MB memory adds 125 MB), and the arena keeps freed blocks, so the arena's growth is
 * taken out twice and the shard's own vector block added once.
 */
function shardMemory(
  before: ReturnType<typeof heapMb>,
  after: ReturnType<typeof heapMb>,
  shard: Shard,
): number {
  return (
    after.heap - before.heap - 2 * (after.arena - before.arena) + indexOf(shard.db).vectors.bytes
  );
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function fmt(times: number[]): string {
  const s = [...times].sort((a, b) => a - b);
  return `p50 ${pct(s, 50).toFixed(1)} / p95 ${pct(s, 95).toFixed(1)} ms`;
}

async function timeQueries(
  registry: ShardRegistry,
  domains: string[],
  mode: SearchMode,
  filters: SearchFilters,
  rounds: number,
): Promise<{ times: number[]; empty: number }> {
  const rand = random(7);
  const times: number[] = [];
  let empty = 0;
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const vector = unitVector(rand);
      const t = performance.now();
      const hits = await searchShards(registry, { q, mode, vector, domains, filters, limit: 10 });
      times.push(performance.now() - t);
      if (hits.length < 10) empty++;
    }
  }
  return { times, empty };
}

async function singleShard(base: BenchChunk[], count: number, rounds: number): Promise<void> {
  console.log(`\n## One shard, ${count.toLocaleString()} chunks`);
  const dir = mkdtempSync(join(tmpdir(), "wc-shards-"));
  try {
    const before = heapMb();
    let shard: Shard | null = new Shard("big.example");
    let t = performance.now();
    let built = 0;
    for (const page of pages(chunkStream(base, count), 1, "")) {
      shard.upsertPage(page);
      built += page.chunks.length;
    }
    const buildS = (performance.now() - t) / 1000;
    const after = heapMb();
    const perChunk = (bytes: number) => `${(bytes / built / 1024).toFixed(2)} KB/chunk`;
    console.log(
      `build: ${built.toLocaleString()} chunks, ${shard.pages.toLocaleString()} pages in ${buildS.toFixed(1)} s (${Math.round(built / buildS)} chunks/s)`,
    );
    console.log(
      `memory as built: ${perChunk(shardMemory(before, after, shard))} (RSS +${perChunk(after.rss - before.rss)}); registry estimate ${perChunk(shard.estimatedBytes)}`,
    );
    t = performance.now();
    const pending = encodeSnapshot(shard.save(), 0); // synchronous up to zstd (off the thread)
    const blockedMs = performance.now() - t;
    const parts = await pending;
    const bytes = { byteLength: parts.reduce((n, p) => n + p.byteLength, 0) };
    const encodeMs = performance.now() - t;
    console.log(
      `snapshot: ${perChunk(bytes.byteLength)} on disk (${(bytes.byteLength / 2 ** 20).toFixed(1)} MB), save+encode ${encodeMs.toFixed(0)} ms, of which ${blockedMs.toFixed(0)} ms block the event loop`,
    );
    t = performance.now();
    await writeSnapshotFile(dir, "big.example", parts);
    console.log(`snapshot write + fsync + rename: ${(performance.now() - t).toFixed(0)} ms`);
    const probe = QUERIES.slice(0, 20);
    const expected = probe.map((q) => JSON.stringify((shard as Shard).searchText(q, 10)));
    shard.dispose();
    shard = null;
    const child = Bun.spawnSync([
      process.execPath,
      import.meta.path,
      "--measure-load",
      join(dir, "big.example.shard"),
    ]);
    const fresh = JSON.parse(child.stdout.toString()) as {
      loadMs: number;
      chunks: number;
      memory: number;
      rss: number;
      vectors: number;
    };
    console.log(
      `load in a fresh process (read + decode + Orama load): ${fresh.loadMs.toFixed(0)} ms, ${(((fresh.loadMs / built) * 100_000) / 1000).toFixed(2)} s per 100k chunks; memory as loaded ${perChunk(fresh.memory)} (vectors ${perChunk(fresh.vectors)}), RSS +${perChunk(fresh.rss)}`,
    );
    t = performance.now();
    const file = await readSnapshotFile(dir, "big.example");
    const loaded = Shard.fromRaw("big.example", (await decodeSnapshot(file as Uint8Array)).raw);
    console.log(`load in this process: ${(performance.now() - t).toFixed(0)} ms`);
    const same = probe.every((q, i) => JSON.stringify(loaded.searchText(q, 10)) === expected[i]);
    console.log(`text results identical after reload (20 queries): ${same}`);
    await timeAll(new FixedRegistry(loaded), ["big.example"], rounds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A registry stand-in over one in-memory shard (the timing excludes loading). */
class FixedRegistry {
  readonly #shard: Shard;
  constructor(shard: Shard) {
    this.#shard = shard;
  }
  async shard(): Promise<Shard> {
    return this.#shard;
  }
}

async function timeAll(registry: unknown, domains: string[], rounds: number): Promise<void> {
  const r = registry as ShardRegistry;
  console.log(
    `(load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${navigator.hardwareConcurrency} cores)`,
  );
  // Warm-up: one pass of each mode.
  for (const mode of ["text", "vector", "hybrid"] as const)
    await timeQueries(r, domains, mode, {}, 1);
  console.log(`\n| filter | text | vector | hybrid |\n|---|---|---|---|`);
  for (const [name, filters] of FILTERS) {
    const cells: string[] = [];
    for (const mode of ["text", "vector", "hybrid"] as const) {
      const { times, empty } = await timeQueries(r, domains, mode, filters, rounds);
      cells.push(`${fmt(times)}${empty ? ` (${empty} short)` : ""}`);
    }
    console.log(`| ${name} | ${cells.join(" | ")} |`);
  }
}

async function multiShard(
  base: BenchChunk[],
  shards: number,
  perShard: number,
  rounds: number,
): Promise<void> {
  console.log(
    `\n## ${shards} shards of ${perShard.toLocaleString()} chunks (${(shards * perShard).toLocaleString()}), all-domain search`,
  );
  const dir = mkdtempSync(join(tmpdir(), "wc-shards-"));
  try {
    const domains = Array.from({ length: shards }, (_, i) => `site${i}.example`);
    let t = performance.now();
    // Built in memory and snapshotted straight to disk (the registry's log is for live changes).
    for (const [i, domain] of domains.entries()) {
      const shard = new Shard(domain);
      for (const page of pages(chunkStream(base, perShard, i * perShard), 100 + i, `${i}_`)) {
        shard.upsertPage(page);
      }
      await writeSnapshotFile(dir, domain, await encodeSnapshot(shard.save(), 0));
      shard.dispose();
    }
    console.log(`build + snapshot: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    let disk = 0;
    for (const d of domains) disk += statSync(join(dir, `${d}.shard`)).size;
    console.log(
      `disk: ${(disk / (shards * perShard) / 1024).toFixed(2)} KB/chunk (${(disk / 2 ** 20).toFixed(0)} MB)`,
    );
    Bun.gc(true);
    const before = heapMb();
    const registry = await ShardRegistry.open({ dir, memoryBudgetBytes: 16 * 2 ** 30 });
    t = performance.now();
    for (const d of domains) await registry.shard(d);
    const loadMs = performance.now() - t;
    const after = heapMb();
    let vectorBytes = 0;
    for (const d of domains) vectorBytes += indexOf((await registry.shard(d)).db).vectors.bytes;
    const memory = after.heap - before.heap - 2 * (after.arena - before.arena) + vectorBytes;
    console.log(
      `load of all ${shards} shards: ${(loadMs / 1000).toFixed(2)} s (${((loadMs / (shards * perShard)) * 100).toFixed(2)} s per 100k chunks); memory ${(memory / (shards * perShard) / 1024).toFixed(2)} KB/chunk, process RSS ${(after.rss / 2 ** 20).toFixed(0)} MB`,
    );
    await timeAll(registry, domains, rounds);
    const one = await timeQueries(registry, [domains[0] as string], "hybrid", {}, rounds);
    console.log(`\nhybrid, domain filter (one shard of ${perShard}): ${fmt(one.times)}`);
    await registry.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Child mode (`--measure-load FILE`): loads one snapshot in a fresh process and prints JSON with
 * the load time and the memory the loaded shard holds (no garbage of a build in the way).
 */
async function measureLoad(file: string): Promise<void> {
  new Shard("warm.example").dispose();
  const before = heapMb();
  const t = performance.now();
  let bytes: Uint8Array | null = new Uint8Array(await Bun.file(file).arrayBuffer());
  const shard = Shard.fromRaw("load.example", (await decodeSnapshot(bytes)).raw);
  const loadMs = performance.now() - t;
  bytes = null;
  const after = heapMb();
  console.log(
    JSON.stringify({
      loadMs,
      chunks: shard.chunks,
      memory: shardMemory(before, after, shard),
      rss: after.rss - before.rss,
      vectors: indexOf(shard.db).vectors.bytes,
    }),
  );
}

if (args["measure-load"]) {
  await measureLoad(args["measure-load"]);
  process.exit(0);
}

const base = benchChunks();
console.log(
  `corpus: ${base.length.toLocaleString()} real chunks (Debian doc sites), ${QUERIES.length} queries; vectors random unit (no embedder on this branch); Bun ${Bun.version}`,
);
const rounds = Number(args.rounds);
if (!args["skip-single"]) await singleShard(base, Number(args.chunks), rounds);
if (!args["skip-multi"])
  await multiShard(base, Number(args.shards), Number(args["per-shard"]), rounds);
