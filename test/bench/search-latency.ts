/**
 * Search latency, memory, disk and load time at corpus scale, through the real service.
 *
 *   WEBCORPUS_TEST_CACHE=/work/cache bun run test/bench/search-latency.ts [--queries 187]
 *       [--rounds 1] [--shards 30] [--per-shard 10000] [--skip-single] [--skip-multi]
 *
 * Part 1, bench-data (support/search-corpora.ts): the search evaluation's corpus plus the Debian
 * handbook in all its languages, every page crawled, chunked and embedded by the service (real
 * chunks, real vectors; built once, reused). Part 2, bench-30: 30 domains of ~10,000 chunks made
 * from bench-data's pages and vectors (300k chunks). For each: disk per chunk (shard files),
 * load time and memory of every shard in a fresh process (heap and RSS per chunk), then a
 * service (`bun src/cli.ts serve --no-worker`) answering `GET /api/search` on loopback at
 * concurrency 1, the query embedding included: p50/p95 per mode without and with filters over
 * the 187 judged queries of test/eval/search, the load average beside each row. Prints figures,
 * asserts nothing. `--measure-load DIR` is the child mode that loads DIR's shards.
 */
import { readdirSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ShardRegistry } from "../../src/search/shard-registry.ts";
import { indexOf } from "../../src/search/shard-schema.ts";
import { sharedArena } from "../../src/search/vector-arena.ts";
import { corpusStats, loadQueries } from "../eval/search/corpus.ts";
import { type Service, startService } from "../eval/search/service.ts";
import { BENCH_30, BENCH_DATA, ensureBench30, ensureBenchData } from "./support/search-corpora.ts";

const { values: args } = parseArgs({
  options: {
    queries: { type: "string", default: "187" },
    rounds: { type: "string", default: "1" },
    shards: { type: "string", default: "30" },
    "per-shard": { type: "string", default: "10000" },
    "skip-single": { type: "boolean", default: false },
    "skip-multi": { type: "boolean", default: false },
    "measure-load": { type: "string" },
  },
});

const MODES = ["text", "vector", "hybrid"] as const;
type Params = Record<string, string>;

function heapNow(): { heap: number; rss: number; arena: number } {
  Bun.gc(true);
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, arena: sharedArena().bytes };
}

/** Child mode: loads every shard of `dir` and prints the time and the memory they hold. */
async function measureLoad(dir: string): Promise<void> {
  const registry = await ShardRegistry.open({ dir, memoryBudgetBytes: 64 * 2 ** 30 });
  const domains = registry.domains();
  const before = heapNow();
  const t = performance.now();
  let chunks = 0;
  let vectorBytes = 0;
  for (const d of domains) {
    const shard = await registry.shard(d);
    chunks += shard.chunks;
    vectorBytes += indexOf(shard.db).vectors.bytes;
  }
  const loadMs = performance.now() - t;
  const after = heapNow();
  // JSC counts the WebAssembly memory (the vector arena) twice in heapUsed, and the arena keeps
  // freed blocks: its growth is taken out twice and the shards' own vector blocks added once.
  const memory = after.heap - before.heap - 2 * (after.arena - before.arena) + vectorBytes;
  console.log(
    JSON.stringify({
      loadMs,
      chunks,
      shards: domains.length,
      memory,
      vectorBytes,
      rss: after.rss - before.rss,
    }),
  );
}

/** Bytes of the regular files in `dir` (not below it), those starting with `prefix`. */
function diskBytes(dir: string, prefix = ""): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const stat = statSync(join(dir, name));
    if (stat.isFile() && name.startsWith(prefix)) total += stat.size;
  }
  return total;
}

function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function timeRow(
  service: Service,
  queries: readonly string[],
  mode: string,
  filters: Params,
  rounds: number,
): Promise<{ p50: number; p95: number; short: number }> {
  const times: number[] = [];
  let short = 0;
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const params = new URLSearchParams({ q, mode, limit: "10", ...filters });
      const t = performance.now();
      const res = await fetch(`${service.base}/api/search?${params}`);
      const body = (await res.json()) as { data?: unknown[] };
      times.push(performance.now() - t);
      if (!res.ok) throw new Error(`search ${params}: ${res.status} ${JSON.stringify(body)}`);
      if ((body.data?.length ?? 0) < 10) short++;
    }
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p95: pct(times, 95), short };
}

async function latencyTable(
  service: Service,
  queries: readonly string[],
  rows: readonly [string, Params][],
  rounds: number,
): Promise<void> {
  for (const mode of MODES) await timeRow(service, queries.slice(0, 30), mode, {}, 1); // warm-up
  console.log(`\n| filter | text p50 / p95 | vector p50 / p95 | hybrid p50 / p95 | load avg |`);
  console.log("|---|---|---|---|---|");
  for (const [name, filters] of rows) {
    const cells: string[] = [];
    for (const mode of MODES) {
      const { p50, p95, short } = await timeRow(service, queries, mode, filters, rounds);
      cells.push(`${p50.toFixed(1)} / ${p95.toFixed(1)} ms${short ? ` (${short} short)` : ""}`);
    }
    console.log(`| ${name} | ${cells.join(" | ")} | ${load()} |`);
  }
}

/** Disk, load and memory of `dataDir`'s shards, then latency through a service over it. */
async function measureCorpus(
  title: string,
  dataDir: string,
  rows: readonly [string, Params][],
  queries: readonly string[],
  rounds: number,
): Promise<void> {
  const stats = corpusStats(dataDir);
  console.log(
    `\n## ${title}: ${stats.pages.toLocaleString()} pages, ${stats.chunks.toLocaleString()} chunks (${stats.embedded.toLocaleString()} with vectors), ${Object.keys(stats.domains).length} domains`,
  );
  const perChunk = (bytes: number) => `${(bytes / stats.chunks / 1024).toFixed(2)} KB/chunk`;
  const disk = diskBytes(join(dataDir, "shards"));
  console.log(
    `disk (shard files): ${perChunk(disk)} (${(disk / 2 ** 20).toFixed(0)} MB); SQLite ${perChunk(diskBytes(dataDir, "webcorpus.db"))} beside it`,
  );
  for (let i = 0; i < 2; i++) {
    const child = Bun.spawnSync([
      process.execPath,
      import.meta.path,
      "--measure-load",
      join(dataDir, "shards"),
    ]);
    if (child.exitCode !== 0) throw new Error(child.stderr.toString());
    const m = JSON.parse(child.stdout.toString()) as {
      loadMs: number;
      chunks: number;
      shards: number;
      memory: number;
      vectorBytes: number;
      rss: number;
    };
    console.log(
      `load of ${m.shards} shards in a fresh process: ${(m.loadMs / 1000).toFixed(2)} s (${((m.loadMs / m.chunks) * 100).toFixed(2)} s per 100k chunks); heap ${perChunk(m.memory)} (vectors ${perChunk(m.vectorBytes)}), RSS +${perChunk(m.rss)} (load avg ${load()})`,
    );
  }
  const service = await startService(dataDir, { EMBEDDINGS: "true" }, { worker: false });
  try {
    const rss0 = service.rss();
    await latencyTable(service, queries, rows, rounds);
    console.log(
      `\nservice RSS: ${(rss0 / 2 ** 20).toFixed(0)} MB at start, ${(service.rss() / 2 ** 20).toFixed(0)} MB after the runs (${perChunk(service.rss())}, model and runtime included)`,
    );
  } finally {
    await service.stop();
  }
}

if (args["measure-load"]) {
  await measureLoad(args["measure-load"]);
  process.exit(0);
}

const queries = loadQueries()
  .map((q) => q.query)
  .slice(0, Number(args.queries));
const rounds = Number(args.rounds);
const log = (line: string) => console.log(line);
console.log(
  `Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, ${queries.length} queries x ${rounds} round(s) per row, load avg ${load()}`,
);

if (!args["skip-single"]) {
  const manifest = await ensureBenchData(log);
  for (const c of manifest.crawls) {
    console.log(
      `bench-data crawl: ${c.domain} ${c.indexed} pages / ${c.chunks} chunks in ${c.seconds} s; embedding ${c.embedPerS.whole} chunks/s over the job (${c.embedPerS.drain} after the pages)`,
    );
  }
  const rows: [string, Params][] = [
    ["none", {}],
    ["domain=debian-handbook.info", { domain: "debian-handbook.info" }],
    ["domain=python.org", { domain: "python.org" }],
    ["locale=en", { locale: "en" }],
    ["type=docs", { type: "docs" }],
    ["topics=databases", { topics: "databases" }],
    ["technicality_min=0.5", { technicality_min: "0.5" }],
    [
      "domain+type+locale+technicality",
      { domain: "postgresql.org", type: "docs", locale: "en", technicality_min: "0.5" },
    ],
  ];
  await measureCorpus("bench-data (real pages, real vectors)", BENCH_DATA, rows, queries, rounds);
}

if (!args["skip-multi"]) {
  const shards = Number(args.shards);
  const built = await ensureBench30(shards, Number(args["per-shard"]), log);
  const rows: [string, Params][] = [
    [`none (all ${shards} domains)`, {}],
    ["locale=en (all domains)", { locale: "en" }],
    [`domain=${built.domains[0]}`, { domain: built.domains[0] as string }],
  ];
  await measureCorpus(`bench-30 (${shards} shards)`, BENCH_30, rows, queries, rounds);
}
