/**
 * Where a query's embedding time goes, and what the search service waits for.
 *
 *     bun run test/bench/query-embedding.ts [--queries 187] [--passages 120]
 *         [--reference-python /work/ref/.venv/bin/python]
 *
 * Queries: the judged queries of test/eval/search (their own lengths, 3-15 words). Per query,
 * rounds interleaved across the steps (load from other processes hits every step alike), p50 / p95:
 *
 * - `worker round trip`: postMessage to a Worker that echoes an embed request, and back;
 * - `tokenizer`: fastembed's tokenizer (encodeBatch of one text), as embedBatch calls it;
 * - `precise graph`/`int8 graph`: fastembed's embedBatch of the one text on each shipped graph
 *   (tokenizer, session.run, pooling): queries run on the precise one (src/search/embedder.ts);
 * - `in-process embedQuery`: src/search/embedder.ts on this thread;
 * - `pool embedQuery, idle`: through the service's EmbeddingPool (2 passage lanes, Workers), with
 *   its query lane (a Worker for queries alone, the default) and without (queries on the least
 *   busy passage lane, as before the query lane);
 * - `pool embedQuery, passages queued`: the same while the pool embeds `--passages` texts (the
 *   crawl's backlog): what a query waits for behind passage batches;
 * - `reference embed_query`: webcorpus 0.1's embedder (int8, onnxruntime in-process), same queries.
 *
 * Also: RSS of the process after each part is loaded. Prints figures; asserts nothing.
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { EmbeddingModel, FlagEmbedding } from "fastembed";
import { loadEmbedder } from "../../src/search/embedder.ts";
import { EmbeddingPool } from "../../src/search/embedding-pool.ts";
import { MODEL_MAX_TOKENS, modelFiles } from "../../src/search/model-files.ts";
import { loadQueries } from "../eval/search/corpus.ts";
import { lineReader } from "./support/line-reader.ts";

const { values: args } = parseArgs({
  options: {
    queries: { type: "string", default: "187" },
    passages: { type: "string", default: "120" },
    "reference-python": { type: "string" },
  },
});

const queries = loadQueries()
  .map((q) => q.query)
  .slice(0, Number(args.queries));
const passages: string[] = await Bun.file(
  new URL("../fixtures/embedding/texts.json", import.meta.url).pathname,
).json();
const backlog = Array.from(
  { length: Number(args.passages) },
  (_, i) => passages[i % passages.length] as string,
);

const rssMb = () => (process.memoryUsage().rss / 2 ** 20).toFixed(0);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** fastembed on one shipped graph with the embedder's session options (src/search/embedder.ts). */
async function graph(file: string, approximateGelu: boolean): Promise<FlagEmbedding> {
  const files = modelFiles(null);
  const optimization: Record<string, string> = {
    disable_specified_optimizers: "SkipLayerNormFusion",
  };
  if (approximateGelu) optimization.enable_gelu_approximation = "1";
  return FlagEmbedding.init({
    model: EmbeddingModel.CUSTOM,
    modelAbsoluteDirPath: files.dir,
    modelName: file,
    maxLength: MODEL_MAX_TOKENS,
    pooling: "mean",
    prefixes: { query: "", passage: "" },
    sessionOptions: {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      extra: { optimization, session: { "intra_op.allow_spinning": "1" } },
    },
  });
}

/** A Worker that answers each message with itself: the bare cost of the hop. */
function echoWorker(): { trip: (message: unknown) => Promise<void>; stop: () => void } {
  const source = "self.onmessage = (event) => self.postMessage(event.data);";
  const worker = new Worker(URL.createObjectURL(new Blob([source])));
  let wake: (() => void) | null = null;
  worker.onmessage = () => wake?.();
  return {
    trip: (message) =>
      new Promise<void>((resolve) => {
        wake = resolve;
        worker.postMessage(message);
      }),
    stop: () => worker.terminate(),
  };
}

/** The reference's embedder in a Python process answering one query per line with its ms. */
function reference(python: string) {
  const script = `
import sys, time
from pathlib import Path
from webcorpus.index.embedder import Embedder
e = Embedder(Path("/tmp/embedding-bench-reference-cache"), variant="int8")
e.embed_query("warm up")
print("ready", flush=True)
for line in sys.stdin:
    q = line.rstrip("\\n")
    t = time.perf_counter(); e.embed_query(q); ms = (time.perf_counter() - t) * 1000
    print(ms, flush=True)
`;
  const proc = Bun.spawn([python, "-c", script], { stdin: "pipe", stdout: "pipe" });
  const line = lineReader(proc.stdout, "the reference embedder");
  return {
    ready: line(),
    /** The reference's own time for `q` (in its process, without the pipe). */
    async ms(q: string): Promise<number> {
      proc.stdin.write(`${q.replaceAll("\n", " ")}\n`);
      await proc.stdin.flush();
      return Number(await line());
    },
    async close() {
      await proc.stdin.end();
      await proc.exited;
    },
  };
}

type Step = (q: string) => Promise<number | undefined>;

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

console.log(
  `Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, ${queries.length} queries, load avg ${load()}; RSS ${rssMb()} MB`,
);
const precise = await graph("model-precise.onnx", false);
const int8 = await graph("model.onnx", true);
console.log(`RSS with the two graphs of one embedder in-process: ${rssMb()} MB`);
const tokenizer = (
  precise as unknown as { tokenizer: { encodeBatch(t: string[]): Promise<unknown> } }
).tokenizer;
const inProcess = await loadEmbedder();
const echo = echoWorker();
let rss = process.memoryUsage().rss;
const grown = () => {
  const before = rss;
  rss = process.memoryUsage().rss;
  return `+${((rss - before) / 2 ** 20).toFixed(0)} MB`;
};
const shared = await EmbeddingPool.start({ lanes: 2, queryLane: false });
console.log(`RSS of a pool of 2 passage lanes (Workers): ${grown()}`);
const pool = await EmbeddingPool.start({ lanes: 2 });
console.log(
  `RSS of a pool of 2 passage lanes and a query lane: ${grown()} (now ${rssMb()} MB in all)`,
);
const ref = args["reference-python"] ? reference(args["reference-python"]) : null;
await ref?.ready;

const steps: [string, Step][] = [
  ["worker round trip", (q) => timed(() => echo.trip({ type: "embed", id: 1, texts: [q] }))],
  ["tokenizer", (q) => timed(() => tokenizer.encodeBatch([q]))],
  ["precise graph (embedBatch)", (q) => timed(() => precise.embedBatch([q]))],
  ["int8 graph (embedBatch)", (q) => timed(() => int8.embedBatch([q]))],
  ["in-process embedQuery", (q) => timed(() => inProcess.embedQuery(q))],
  ["pool embedQuery, idle, no query lane", (q) => timed(() => shared.embedQuery(q))],
  ["pool embedQuery, idle, query lane", (q) => timed(() => pool.embedQuery(q))],
  ...(ref ? [["reference embed_query (python)", (q: string) => ref.ms(q)] as [string, Step]] : []),
];
const times = new Map<string, number[]>(steps.map(([name]) => [name, []]));
for (const [name, step] of steps) await step(queries[0] ?? "warm up").then(() => name);
for (const q of queries) {
  for (const [name, step] of steps) times.get(name)?.push((await step(q)) ?? Number.NaN);
}

/** Query times while `on` works through a passage backlog (a crawl's embedding). */
async function whileEmbedding(on: EmbeddingPool): Promise<{ queries: number[]; ms: number }> {
  const queries: number[] = [];
  let busy = true;
  const backlogMs = timed(() => on.embedPassages(backlog)).finally(() => {
    busy = false;
  });
  for (const q of queriesList) {
    if (!busy) break;
    queries.push(await timed(() => on.embedQuery(q)));
    await Bun.sleep(5);
  }
  return { queries, ms: await backlogMs };
}
const queriesList = queries;
const backlogMs: string[] = [];
for (const [name, on] of [
  ["no query lane", shared],
  ["query lane", pool],
] as const) {
  const run = await whileEmbedding(on);
  times.set(`pool embedQuery, ${backlog.length} passages queued, ${name}`, run.queries);
  backlogMs.push(`${(run.ms / 1000).toFixed(1)} s (${name})`);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
console.log(`\n| step | p50 ms | p95 ms | n |\n|---|---|---|---|`);
for (const [name, xs] of times) {
  console.log(`| ${name} | ${pct(xs, 50).toFixed(2)} | ${pct(xs, 95).toFixed(2)} | ${xs.length} |`);
}
console.log(
  `\n${backlog.length} passages in ${backlogMs.join(", ")} beside the queries; load avg ${load()}`,
);
echo.stop();
await shared.close();
await pool.close();
await ref?.close();
