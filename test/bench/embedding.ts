/**
 * Embedding throughput on real documentation chunks, by lanes (Workers) and batch size, with the
 * reference implementation's embedder run on the same texts when its Python is given.
 *
 *     bun run test/bench/embedding.ts [--chunks 300] [--rounds 2] [--configs 1x2,2x2,...]
 *         [--texts-out FILE] [--reference-vectors FILE] [--reference-python /work/ref/.venv/bin/python]
 *
 * Texts: pages of the Debian python3.11-doc HTML (library/*.html, sorted), extracted by
 * src/extract (as the crawler does), chunked by src/search/chunking.ts, embedded as embeddingText();
 * the first `--chunks` chunks are embedded, the first `--pages` pages timed for chunking (CPU time,
 * beside the reference's chunker on the same markdown when its Python is given).
 * Configurations are lanes x batch size (`t2`: two onnxruntime threads per session). Every
 * runtime runs `rounds` passes over all texts, the rounds interleaved across runtimes (best kept):
 * wall time and process CPU time (all threads; less distorted by other load on a shared machine). `--reference-vectors`: a
 * float32 file of PyTorch fp32 vectors for the texts written by `--texts-out` (made with
 * test/eval/embedding/reference-vectors.ts), for cosines. Prints figures; asserts nothing.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { extractDocument } from "../../src/extract/extract-document.ts";
import { chunkMarkdown, embeddingText } from "../../src/search/chunking.ts";
import { loadEmbedder } from "../../src/search/embedder.ts";
import { EmbeddingPool } from "../../src/search/embedding-pool.ts";
import { DEFAULT_BATCH_SIZE, loadTokenCounter, MODEL_DIM } from "../../src/search/model-files.ts";
import { lineReader } from "./support/line-reader.ts";

const ROOT = Bun.env.WEBCORPUS_DOCS_ROOT ?? "/work/cache/root";
const DOCS = join(ROOT, "usr/share/doc/python3.11/html/library");
const QUERY = "how do I read a file line by line";

const { values: args } = parseArgs({
  options: {
    chunks: { type: "string", default: "300" },
    pages: { type: "string", default: "100" },
    rounds: { type: "string", default: "2" },
    configs: { type: "string", default: "1x1,1x2,1x4,1x16,2x1,2x2,2x4,2x16,1x2t2" },
    "texts-out": { type: "string" },
    "reference-vectors": { type: "string" },
    "reference-python": { type: "string" },
  },
});
const wanted = Number(args.chunks);
const rounds = Number(args.rounds);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? Number.NaN;
}

function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

interface Page {
  readonly title: string | null;
  readonly markdown: string;
}

/** Chunking CPU ms per page (median): a fresh counter (cold caches), then again (warm). */
function chunkingMs(pages: readonly Page[]): [number, number] {
  const counter = loadTokenCounter();
  const pass = () =>
    median(
      pages.map((page) => {
        const start = cpuSeconds();
        chunkMarkdown(page.markdown, counter, { title: page.title });
        return (cpuSeconds() - start) * 1000;
      }),
    );
  return [pass(), pass()];
}

/** The first `--pages` library pages (at least enough for `--chunks` chunks) and the chunk texts. */
async function loadTexts(): Promise<{ texts: string[]; pages: Page[] }> {
  const counter = loadTokenCounter();
  const pages: Page[] = [];
  const texts: string[] = [];
  for (const file of readdirSync(DOCS)
    .filter((f) => f.endsWith(".html"))
    .sort()) {
    if (texts.length >= wanted && pages.length >= Number(args.pages)) break;
    const html = await Bun.file(join(DOCS, file)).bytes();
    const doc = extractDocument(html, `https://docs.python.org/3.11/library/${file}`);
    const page: Page = { title: doc.title, markdown: doc.markdown };
    if (!page.markdown.trim()) continue;
    pages.push(page);
    const chunks = chunkMarkdown(page.markdown, counter, { title: page.title });
    texts.push(...chunks.map((c) => embeddingText(c, page.title)));
  }
  return { texts: texts.slice(0, wanted), pages };
}

interface Pass {
  readonly wall: number;
  readonly cpu: number;
  readonly vectors: Float32Array[];
}

/** One way to embed: passes over all texts (timed), query latency, shutdown. */
interface Runtime {
  readonly name: string;
  pass(texts: string[]): Promise<Pass>;
  queryMs(): Promise<number>;
  close(): Promise<void>;
}

async function ours(
  name: string,
  embed: (texts: string[]) => Promise<Float32Array[]>,
  query: (text: string) => Promise<Float32Array>,
  close: () => Promise<void>,
  texts: string[],
): Promise<Runtime> {
  await embed(texts.slice(0, 16)); // warm-up
  return {
    name,
    pass: async (all) => {
      const [w0, c0] = [performance.now(), cpuSeconds()];
      const vectors = await embed(all);
      return { wall: (performance.now() - w0) / 1000, cpu: cpuSeconds() - c0, vectors };
    },
    queryMs: async () => {
      await query(QUERY);
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t0 = performance.now();
        await query(QUERY);
        times.push(performance.now() - t0);
      }
      return median(times);
    },
    close,
  };
}

/** The reference's chunker on the same markdown: CPU ms per page (median), cold then warm. */
function referenceChunkingMs(python: string, pages: readonly Page[]): [number, number] {
  const input = `/tmp/embedding-bench-pages-${process.pid}.json`;
  writeFileSync(input, JSON.stringify(pages));
  const script = `
import json, statistics, sys, time
from webcorpus.index.chunking import chunk_markdown
pages = json.load(open(sys.argv[1]))
def run():
    ms = []
    for p in pages:
        t = time.process_time(); chunk_markdown(p["markdown"], title=p["title"]); ms.append((time.process_time() - t) * 1000)
    return statistics.median(ms)
print(json.dumps([run(), run()]))
`;
  const proc = Bun.spawnSync([python, "-c", script, input], { stderr: "inherit" });
  if (proc.exitCode !== 0) throw new Error(`reference chunker failed (${proc.exitCode})`);
  return JSON.parse(proc.stdout.toString().trim().split("\n").pop() ?? "[]");
}

/**
 * The reference's embedder (webcorpus 0.1: onnxruntime int8, its default lanes and batch) in a
 * Python process kept alive between passes, so that its rounds interleave with ours.
 */
async function reference(python: string, texts: string[]): Promise<Runtime> {
  const input = `/tmp/embedding-bench-${process.pid}.json`;
  const output = `${input}.f32`;
  writeFileSync(input, JSON.stringify(texts));
  const script = `
import json, statistics, sys, time
from pathlib import Path
from webcorpus.index.embedder import Embedder, BATCH_SIZE
texts = json.load(open(sys.argv[1]))
e = Embedder(Path("/tmp/embedding-bench-reference-cache"), variant="int8")
e.embed(texts[:16])
print(json.dumps({"name": f"reference {e.lanes} lanes x batch {BATCH_SIZE} (python)"}), flush=True)
for line in sys.stdin:
    if line.strip() == "pass":
        w, c = time.perf_counter(), time.process_time()
        v = e.embed(texts)
        out = {"wall": time.perf_counter() - w, "cpu": time.process_time() - c}
        v.astype("<f4").tofile(sys.argv[2])
    else:
        e.embed_query(${JSON.stringify(QUERY)})
        q = []
        for _ in range(30):
            t = time.perf_counter(); e.embed_query(${JSON.stringify(QUERY)}); q.append((time.perf_counter() - t) * 1000)
        out = {"query_ms": statistics.median(q)}
    print(json.dumps(out), flush=True)
`;
  const proc = Bun.spawn([python, "-c", script, input, output], { stdin: "pipe", stdout: "pipe" });
  const line = lineReader(proc.stdout, "the reference embedder");
  const next = async (): Promise<Record<string, number | string>> => JSON.parse(await line());
  const ask = async (command: string) => {
    proc.stdin.write(`${command}\n`);
    await proc.stdin.flush();
    return next();
  };
  const { name } = await next();
  return {
    name: String(name),
    pass: async () => {
      const { wall, cpu } = await ask("pass");
      const flat = new Float32Array(await Bun.file(output).arrayBuffer());
      const vectors = texts.map((_, i) => flat.slice(i * MODEL_DIM, (i + 1) * MODEL_DIM));
      return { wall: Number(wall), cpu: Number(cpu), vectors };
    },
    queryMs: async () => Number((await ask("query")).query_ms),
    close: async () => {
      await proc.stdin.end();
      await proc.exited;
    },
  };
}

function cosines(vectors: Float32Array[], reference: Float32Array): { min: number; mean: number } {
  const c = vectors.map((v, i) =>
    v.reduce((s, x, d) => s + x * (reference[i * MODEL_DIM + d] ?? 0), 0),
  );
  return { min: Math.min(...c), mean: c.reduce((a, b) => a + b, 0) / c.length };
}

const { texts, pages } = await loadTexts();
const chunkMs = chunkingMs(pages);
const counter = loadTokenCounter();
const tokens = texts.map((t) => Math.min(256, counter.count(t) + 2));
const short = tokens.filter((n) => n < 32).length;
console.log(
  `${texts.length} chunks, ${tokens.reduce((a, b) => a + b, 0)} tokens (median ${median(tokens)}; ` +
    `${short} under 32) from ${pages.length} pages; chunking CPU ms/page (median): ` +
    `${chunkMs[0].toFixed(2)} cold caches, ` +
    `${chunkMs[1].toFixed(2)} warm; ${navigator.hardwareConcurrency} cores`,
);
if (args["reference-python"]) {
  const [cold, warm] = referenceChunkingMs(args["reference-python"], pages);
  console.log(
    `reference chunker, same pages: ${cold.toFixed(2)} ms/page cold, ${warm.toFixed(2)} warm`,
  );
}
if (args["texts-out"]) await Bun.write(args["texts-out"], JSON.stringify(texts));

const runtimes: Runtime[] = [];
for (const config of (args.configs ?? "").split(",").filter(Boolean)) {
  const [, lanes, batch, threads] = /^(\d+)x(\d+)(?:t(\d+))?$/.exec(config) ?? [];
  const pool = await EmbeddingPool.start({
    lanes: Number(lanes),
    batchSize: Number(batch),
    threads: Number(threads ?? 1),
  });
  const name = `pool ${lanes} lane(s) x batch ${batch}${threads ? ` x ${threads} threads` : ""}`;
  runtimes.push(
    await ours(
      name,
      (t) => pool.embedPassages(t),
      (q) => pool.embedQuery(q),
      () => pool.close(),
      texts,
    ),
  );
}
const direct = await loadEmbedder();
runtimes.push(
  await ours(
    `in-process, batch ${DEFAULT_BATCH_SIZE} (no Worker)`,
    direct.embedPassages,
    direct.embedQuery,
    async () => {},
    texts,
  ),
);
if (args["reference-python"]) runtimes.push(await reference(args["reference-python"], texts));

// Interleaved rounds: load from other processes on a shared machine hits every runtime alike.
const passes = new Map<Runtime, Pass[]>(runtimes.map((r) => [r, []]));
for (let round = 0; round < rounds; round++) {
  for (const runtime of runtimes) passes.get(runtime)?.push(await runtime.pass(texts));
}
const vectorsOf = new Map<Runtime, Float32Array[]>();
const query = new Map<Runtime, number>();
for (const runtime of runtimes) {
  query.set(runtime, await runtime.queryMs());
  await runtime.close();
}

const refVectors = args["reference-vectors"]
  ? new Float32Array(await Bun.file(args["reference-vectors"]).arrayBuffer())
  : null;
const base = runtimes.find((r) => r.name.startsWith("reference"));
const best = (r: Runtime, key: "wall" | "cpu") =>
  Math.min(...(passes.get(r) ?? []).map((p) => p[key]));
console.log(
  `${rounds} interleaved rounds, best kept; cpu = process CPU time (all threads)\n` +
    `${"runtime".padEnd(40)}${"chunks/s".padStart(9)}${"per cpu-s".padStart(10)}` +
    `${base ? "x ref cpu".padStart(10) : ""}${"query ms".padStart(9)}` +
    (refVectors ? `${"cos min".padStart(9)}${"cos mean".padStart(9)}` : ""),
);
for (const r of runtimes) {
  const vectors = passes.get(r)?.at(-1)?.vectors ?? [];
  vectorsOf.set(r, vectors);
  const c = refVectors ? cosines(vectors, refVectors) : null;
  console.log(
    r.name.padEnd(40) +
      (texts.length / best(r, "wall")).toFixed(1).padStart(9) +
      (texts.length / best(r, "cpu")).toFixed(1).padStart(10) +
      (base ? (best(base, "cpu") / best(r, "cpu")).toFixed(2).padStart(10) : "") +
      (query.get(r) ?? Number.NaN).toFixed(2).padStart(9) +
      (c ? c.min.toFixed(4).padStart(9) + c.mean.toFixed(4).padStart(9) : ""),
  );
}
