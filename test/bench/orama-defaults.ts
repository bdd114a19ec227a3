/**
 * Orama with its default components beside a shard (src/search) on the same chunks, in one run:
 * heap per chunk, persisted bytes per chunk, and full-text / vector / hybrid latency, queries
 * interleaved so both see the same machine load.
 *
 *   bun run test/bench/orama-defaults.ts [--chunks 20000]
 *
 * Defaults: Orama 3.1.18's tokenizer (English, no stemming), radix index, default documents
 * store, sorter on, `persist(db, "binary")` of @orama/plugin-data-persistence; its hybrid mode
 * blends min-max normalised scores. Vectors are random unit vectors (no embedder here).
 */
import { parseArgs } from "node:util";
import { create, insert, search } from "@orama/orama";
import { persist } from "@orama/plugin-data-persistence";
import { Shard } from "../../src/search/shard.ts";
import { encodeSnapshot, joinParts } from "../../src/search/shard-snapshot.ts";
import { sharedArena } from "../../src/search/vector-arena.ts";
import { benchChunks, random, unitVector } from "./bench-corpus.ts";

const { values: args } = parseArgs({ options: { chunks: { type: "string", default: "20000" } } });
const count = Number(args.chunks);
const chunks = benchChunks().slice(0, count);
const rand = random(1);
const vectors = chunks.map(() => unitVector(rand));
const queries = (await Bun.file(new URL("../eval/search/queries.jsonl", import.meta.url)).text())
  .split("\n")
  .filter(Boolean)
  .map((l) => (JSON.parse(l) as { query: string }).query)
  .slice(0, 60);

function heap(): number {
  Bun.gc(true);
  return process.memoryUsage().heapUsed - sharedArena().bytes; // JSC counts wasm memory twice
}

const before = heap();
const shard = new Shard("bench.example");
let t = performance.now();
let page: { id: string; rows: number[] } = { id: "", rows: [] };
const flush = () => {
  if (page.rows.length === 0) return;
  const first = chunks[page.rows[0] as number];
  shard.upsertPage({
    pageId: `p${page.rows[0]}`,
    title: first?.title ?? "",
    facets: { type: "docs", locale: "en", topics: [], technicality: 0.5 },
    chunks: page.rows.map((r) => ({
      heading: chunks[r]?.heading ?? "",
      text: chunks[r]?.text ?? "",
      vector: vectors[r],
    })),
  });
};
for (const [i, c] of chunks.entries()) {
  if (c.page !== page.id) {
    flush();
    page = { id: c.page, rows: [] };
  }
  page.rows.push(i);
}
flush();
const shardBuild = performance.now() - t;
const shardHeap = heap() - before;
const snapshot = joinParts(await encodeSnapshot(shard.save(), 0));

const base = heap();
const db = create({
  schema: {
    pageId: "string",
    title: "string",
    heading: "string",
    text: "string",
    type: "enum",
    embedding: "vector[384]",
  } as const,
});
t = performance.now();
for (const [i, c] of chunks.entries()) {
  await insert(db, {
    id: `c${i}`,
    pageId: c.page,
    title: c.title,
    heading: c.heading,
    text: c.text,
    type: "docs",
    embedding: Array.from(vectors[i] as Float32Array),
  });
}
const defaultBuild = performance.now() - t;
const defaultHeap = heap() - base;
/** Bytes per chunk of the plugin's format, or why it failed. */
async function persisted(format: "binary" | "json"): Promise<string> {
  try {
    const out = (await persist(db, format)) as string;
    return `${(out.length / count / 1024).toFixed(2)} KB/chunk`;
  } catch (err) {
    return `fails: ${(err as Error).message}`;
  }
}
const binary = await persisted("binary");
const json = await persisted("json");

const times: Record<string, number[]> = {};
const time = (name: string, f: () => unknown) => {
  const start = performance.now();
  f();
  times[name] ??= [];
  times[name].push(performance.now() - start);
};
const qrand = random(9);
for (const q of queries) {
  const v = Array.from(unitVector(qrand));
  time("default text", () => search(db, { term: q, limit: 10 }));
  time("shard text", () => shard.searchText(q, 10));
  time("default vector", () =>
    search(db, {
      mode: "vector",
      vector: { value: v, property: "embedding" },
      similarity: 0,
      limit: 10,
    }),
  );
  time("shard vector", () => shard.searchVector(v, 10));
  time("default hybrid (score blend)", () =>
    search(db, {
      mode: "hybrid",
      term: q,
      vector: { value: v, property: "embedding" },
      similarity: 0,
      limit: 10,
    }),
  );
  time("shard text+vector, 100 each (RRF input)", () => {
    shard.searchText(q, 100);
    shard.searchVector(v, 100);
  });
}
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((p / 100) * xs.length)] ?? 0;
console.log(`${count.toLocaleString()} chunks, ${queries.length} queries, Bun ${Bun.version}`);
console.log(
  `build: defaults ${(defaultBuild / 1000).toFixed(1)} s, shard ${(shardBuild / 1000).toFixed(1)} s`,
);
console.log(
  `heap: defaults ${(defaultHeap / count / 1024).toFixed(2)} KB/chunk, shard ${(shardHeap / count / 1024).toFixed(2)} KB/chunk`,
);
console.log(
  `persisted: plugin binary (msgpack as hex text) ${binary}; plugin json ${json}; shard snapshot ${(snapshot.byteLength / count / 1024).toFixed(2)} KB/chunk`,
);
for (const [name, xs] of Object.entries(times)) {
  console.log(`${name}: p50 ${pct(xs, 50).toFixed(1)} / p95 ${pct(xs, 95).toFixed(1)} ms`);
}
