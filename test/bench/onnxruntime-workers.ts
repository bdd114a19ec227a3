/**
 * Whether the installed onnxruntime-node holds up in Bun Workers, and its speed per run: what
 * data/models/README.md's choice of version rests on.
 *
 *     bun test/bench/onnxruntime-workers.ts [--starts 30] [--runs 40]
 *
 * - `pool starts`: `--starts` processes, each starting an `EmbeddingPool` of 2 passage lanes and
 *   the query lane, embedding passages and a query, closing (a segfault, an error or a hang past
 *   60 s counts as a failure);
 * - `concurrent loads`: `--starts` processes, each with two Workers loading onnxruntime-node and
 *   running the embedder at the same moment (the pool itself starts its lanes one at a time);
 * - per run, one thread, median of `--runs`: the int8 graph on one 256-word-piece passage, the
 *   precise graph on the same and on a 10-word query; the load-time self-check (both graphs on
 *   its passage) and its cosine.
 *
 * To compare versions, run it in clones whose package.json `overrides` name each version (after
 * `bun install`), rounds interleaved. Prints figures; asserts nothing.
 */
import { parseArgs } from "node:util";
import { loadEmbedder } from "../../src/search/embedder.ts";
import { EmbeddingPool } from "../../src/search/embedding-pool.ts";
import { checkGraphs } from "../../src/search/graph-check.ts";
import { median } from "./support/stats.ts";

const PASSAGE =
  "The river carries silt from the mountains down to the plain, where farmers have built levees for centuries. ".repeat(
    20,
  ); // past 256 word pieces: the model reads the first 256
const QUERY = "how do farmers protect their fields from river floods";

declare const self: Worker;

/** In a Worker: load the embedder, embed one passage, say "ok". */
async function workerMain(): Promise<void> {
  self.onmessage = async () => {
    try {
      const embedder = await loadEmbedder();
      const [vector] = await embedder.embedPassages([PASSAGE]);
      self.postMessage(vector?.length === 384 ? "ok" : "no vector");
    } catch (error) {
      self.postMessage(`error: ${String(error)}`);
    }
  };
}

async function poolStart(): Promise<void> {
  const pool = await EmbeddingPool.start({ lanes: 2 });
  const vectors = await pool.embedPassages([PASSAGE, "a short passage"]);
  const query = await pool.embedQuery(QUERY);
  await pool.close();
  if (vectors.length !== 2 || query.length !== 384) throw new Error("wrong vectors");
}

async function concurrentLoad(): Promise<void> {
  const answers = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<string>((resolve) => {
          const worker = new Worker(import.meta.url);
          worker.onmessage = (event: MessageEvent<string>) => {
            resolve(event.data);
            worker.terminate();
          };
          worker.onerror = (event: ErrorEvent) => {
            resolve(`error: ${event.message}`);
            worker.terminate();
          };
          worker.postMessage("go");
        }),
    ),
  );
  const wrong = answers.filter((a) => a !== "ok");
  if (wrong.length > 0) throw new Error(wrong.join("; "));
}

/** `mode` in `starts` child processes: ok / failed (first line of the reason) / hung. */
function repeat(mode: string, starts: number): string {
  let ok = 0;
  let hung = 0;
  const failures = new Map<string, number>();
  for (let i = 0; i < starts; i++) {
    const child = Bun.spawnSync([process.execPath, import.meta.path, "--mode", mode], {
      timeout: 60_000,
      stdout: "pipe",
      stderr: "pipe",
    });
    if (child.exitCode === 0) ok++;
    else if (child.signalCode === "SIGTERM") hung++;
    else {
      const text = `${child.stderr.toString()}${child.stdout.toString()}`;
      const line =
        text.split("\n").find((l) => /error|segmentation|signal/i.test(l)) ??
        `exit ${child.exitCode ?? child.signalCode}`;
      failures.set(line.slice(0, 160), (failures.get(line.slice(0, 160)) ?? 0) + 1);
    }
  }
  const why = [...failures].map(([line, n]) => `\n    ${n}x ${line}`).join("");
  return `${ok} ok, ${starts - ok - hung} failed, ${hung} hung (of ${starts})${why}`;
}

async function timed(runs: number, f: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 3; i++) await f();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await f();
    ms.push(performance.now() - start);
  }
  return `${median(ms).toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      starts: { type: "string", default: "30" },
      runs: { type: "string", default: "40" },
      mode: { type: "string" },
    },
  });
  if (values.mode === "pool-start") return poolStart();
  if (values.mode === "concurrent") return concurrentLoad();
  const version: unknown = (await import("onnxruntime-node/package.json")).version;
  console.log(`onnxruntime-node ${String(version)}, Bun ${Bun.version}`);
  const runs = Number(values.runs);
  const embedder = await loadEmbedder();
  const int8 = async (text: string) =>
    (await embedder.embedPassages([text]))[0] ?? new Float32Array();
  console.log(
    `  self-check cosine ${embedder.check?.cosine.toFixed(5)} (${embedder.check?.passagesOn})`,
  );
  console.log(`  int8 graph, 256 word pieces: ${await timed(runs, () => int8(PASSAGE))}`);
  console.log(
    `  precise graph, 256 word pieces: ${await timed(runs, () => embedder.embedQuery(PASSAGE))}`,
  );
  console.log(
    `  precise graph, 10-word query: ${await timed(runs, () => embedder.embedQuery(QUERY))}`,
  );
  console.log(
    `  self-check: ${await timed(Math.min(runs, 10), () => checkGraphs(int8, embedder.embedQuery))}`,
  );
  const starts = Number(values.starts);
  console.log(`  pool starts (2 lanes + query lane): ${repeat("pool-start", starts)}`);
  console.log(`  two Workers loading at once: ${repeat("concurrent", starts)}`);
}

if (Bun.isMainThread) await main();
else await workerMain();
