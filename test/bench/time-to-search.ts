/**
 * Time to search: how long a user waits from `POST /api/crawl` until every chunk of the crawl is
 * searchable in vector mode, for the Bun build and the reference, each as its own HTTP server on a
 * fresh data dir with embeddings on, crawling the local Python docs (test/sites/support, served by
 * a process of its own on loopback, politeness off). Runs are interleaved (bun, reference, bun,
 * reference …; who goes first alternates), so a busy minute on shared cores hits both.
 *
 *   bun run bench:time-to-search [--rounds N] [--only bun,reference] [--budget N]
 *                                [--site python|postgres|handbook] [--timeout S]
 *
 * Per run: the server starts (key made with `keys create` first; the reference's ONNX graph is
 * built once, before any run, into a cache dir outside the data dir), is polled until it answers,
 * then the crawl is posted and `GET /api/jobs/{id}` polled every 250 ms until the job is final
 * AND `progress.embedding_backlog == 0` (both builds keep a job running until its chunks have
 * vectors, and both report the backlog). Then a vector-mode search must find something, and the
 * chunk counts are read from the data dir's SQLite.
 *
 * Figures per run (JSON lines): `wall_s` POST → every chunk searchable; `fetch_done_s` POST → the
 * last request the doc server answered (the crawl's fetching, timed from outside the same way for
 * both); `chunks` (SQLite, the job's); `chunks_embedded` (texts the build says it sent to the
 * model when its job view reports such a count, else its chunks) and `distinct_texts` (distinct
 * embedding inputs among the job's chunks, computed here: what a build that embeds each distinct
 * text once would send); `chunks_per_s` chunks / (wall − fetch done) is the embedding tail's rate
 * and `chunks_per_s_wall` chunks / wall; `cpu_ms_per_page` the server's process tree CPU (from
 * /proc) from POST to searchable, per fetched page, and `cpu_s` its total; `load_1m` the machine's
 * load average at POST and at the end. At the end, the bun/reference ratios of `wall_s` and of
 * `cpu_s` in each round and their medians: on a machine shared with other work the CPU ratio is
 * the steadier one (a build that ran through a busy stretch waits longer for the same CPU).
 *
 * `--budget 40 --rounds 1` is a smoke run (a minute). A full Python-docs round keeps 2 cores busy
 * for ~20 min (~10 per build): on a shared machine, run few and say so beside the figures.
 */

import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { embeddingText } from "../../src/search/chunking.ts";
import { REPO_ROOT } from "../sites/support/debian-docs.ts";
import { docSites } from "../sites/support/doc-sites.ts";
import {
  cleanEnv,
  control,
  type DocServerProcess,
  REFERENCE,
  REFERENCE_CLI,
  startDocServer,
} from "./support/crawl-runners.ts";
import { ProcSampler } from "./support/proc-sampler.ts";
import { median } from "./support/stats.ts";

const SITES: Readonly<Record<string, { domain: string; budget: number; query: string }>> = {
  python: { domain: "docs.python.org", budget: 2000, query: "read a file line by line" },
  postgres: { domain: "www.postgresql.org", budget: 2000, query: "create an index concurrently" },
  handbook: { domain: "debian-handbook.info", budget: 5000, query: "configure a network bridge" },
};
const BUILDS = ["bun", "reference"] as const;
type Build = (typeof BUILDS)[number];
const FINAL = new Set(["completed", "partial", "failed", "cancelled"]);

const { values } = parseArgs({
  options: {
    site: { type: "string", default: "python" },
    rounds: { type: "string", default: "2" },
    only: { type: "string", default: "bun,reference" },
    budget: { type: "string" },
    timeout: { type: "string", default: "2400" },
    concurrency: { type: "string", default: "32" },
  },
});
const site = SITES[values.site ?? "python"];
if (!site) throw new Error(`--site: one of ${Object.keys(SITES).join(", ")}`);
const budget = Number(values.budget ?? site.budget);
const rounds = Math.max(1, Number(values.rounds));
const timeoutMs = Number(values.timeout) * 1000;
const concurrency = String(Number(values.concurrency));
const only = new Set((values.only ?? "").split(","));
const builds = BUILDS.filter((b) => only.has(b));
if (builds.length === 0) throw new Error("--only: bun, reference or both");
if (only.has("reference") && !existsSync(REFERENCE_CLI))
  throw new Error(`${REFERENCE_CLI} is missing: cd ${REFERENCE} && bash scripts/install.sh dev`);

/** The reference builds its ONNX graph from the packaged weights into its model dir on first
 * use: one cache for every run, built before anything is timed. */
const REF_MODELS = join(tmpdir(), "wc-ttsbench-ref-models");

const round1 = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

export interface TimeToSearch {
  readonly build: Build;
  readonly round: number;
  readonly state: string;
  readonly pages: number;
  /** Server spawn → it answers HTTP (model loading included where the build loads at start). */
  readonly startup_s: number;
  readonly wall_s: number;
  readonly fetch_done_s: number;
  readonly chunks: number;
  /** Chunks SQLite marks embedded (a build that leaves some chunks without vectors, by policy,
   * may mark them done or not: the job view's backlog is what decides "searchable"). */
  readonly chunks_marked_embedded: number;
  readonly chunks_embedded: number;
  readonly chunks_embedded_source: "job view" | "chunks";
  readonly distinct_texts: number;
  readonly chunks_per_s: number;
  readonly chunks_per_s_wall: number;
  readonly cpu_ms_per_page: number;
  readonly cpu_s: number;
  readonly peak_rss_mb: number;
  /** The machine's 1-minute load average at POST and at searchable (other users' work shows). */
  readonly load_1m: readonly [number, number];
  readonly vector_hits: number;
  readonly vector_top: string | null;
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port;
  await s.stop(true);
  if (port === undefined) throw new Error("no free port");
  return port;
}

/** Every descendant pid of `root` (from /proc), deepest last. */
function descendants(root: number): number[] {
  const out: number[] = [];
  const todo = [root];
  for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {}
    for (const tid of tasks) {
      let list = "";
      try {
        list = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8");
      } catch {}
      for (const c of list.trim().split(/\s+/))
        if (c) {
          out.push(Number(c));
          todo.push(Number(c));
        }
    }
  }
  return out;
}

function run(cmd: string[], env: Record<string, string>, cwd: string): string {
  const r = Bun.spawnSync(cmd, { cwd, env: { ...cleanEnv(), ...env }, stderr: "pipe" });
  if (r.exitCode !== 0)
    throw new Error(`${cmd.join(" ")} exited ${r.exitCode}: ${r.stderr.toString().slice(-2000)}`);
  return r.stdout.toString();
}

function prebuildReferenceModel(): void {
  mkdirSync(REF_MODELS, { recursive: true });
  run(
    [
      join(REFERENCE, ".venv/bin/python"),
      "-c",
      "import sys; from pathlib import Path; from webcorpus.index.embedder import cached_model_path; print(cached_model_path(Path(sys.argv[1])))",
      REF_MODELS,
    ],
    {},
    REFERENCE,
  );
}

interface BuildCommands {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly cli: string[];
}

function commands(build: Build, server: DocServerProcess, dataDir: string, port: number) {
  const env: Record<string, string> = {
    WEBCORPUS_DATA_DIR: dataDir,
    WEBCORPUS_HOST: "127.0.0.1",
    WEBCORPUS_PORT: String(port),
    WEBCORPUS_CONNECT_TO: server.connectTo,
    WEBCORPUS_CONNECT_TO_ONLY: "true",
    WEBCORPUS_CRAWL_DELAY_S: "0",
    WEBCORPUS_ADAPTIVE_DELAY: "false",
    WEBCORPUS_HOST_CONCURRENCY: concurrency,
    WEBCORPUS_MAX_CONCURRENCY: concurrency,
    WEBCORPUS_MAX_BUDGET: String(Math.max(budget, 10000)),
    WEBCORPUS_CRAWL_RATE_PER_MINUTE: "1000",
    WEBCORPUS_EMBEDDINGS: "true",
    ...(build === "reference" ? { WEBCORPUS_MODEL_DIR: REF_MODELS } : {}),
    ...(build === "bun" ? benchBunEnv() : {}),
  };
  const c: BuildCommands =
    build === "bun"
      ? { cwd: REPO_ROOT, env, cli: ["bun", "src/cli.ts"] }
      : { cwd: dataDir, env, cli: [REFERENCE_CLI] };
  return c;
}

/** e.g. BENCH_BUN_ENV="WEBCORPUS_EMBED_THREADS=1": settings for the Bun build's runs only. */
function benchBunEnv(): Record<string, string> {
  return Object.fromEntries(
    (process.env.BENCH_BUN_ENV?.split(" ").filter(Boolean) ?? []).map((kv) => {
      const at = kv.indexOf("=");
      return [kv.slice(0, at), kv.slice(at + 1)];
    }),
  );
}

interface JobView {
  readonly id: string;
  readonly state: string;
  readonly progress: {
    readonly fetched: number;
    readonly embedding_backlog: number | null;
  } & Record<string, unknown>;
}

async function getJson<T>(url: string, key: string, init: RequestInit = {}): Promise<T> {
  const resp = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  });
  const text = await resp.text();
  if (!resp.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${resp.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The job's chunks, and how many distinct embedding inputs they make (title + heading + text). */
function chunkCounts(dbPath: string, jobId: string) {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .query<{ heading: string; text: string; title: string | null; embedded: number }, [string]>(
        "SELECT c.heading, c.text, p.title, c.embedded FROM chunks c JOIN pages p ON p.id = c.page_id WHERE c.job_id = ?",
      )
      .all(jobId);
    const distinct = new Set<bigint | number>();
    let embedded = 0;
    for (const r of rows) {
      distinct.add(Bun.hash(embeddingText({ heading: r.heading, text: r.text }, r.title)));
      if (r.embedded) embedded++;
    }
    return { chunks: rows.length, embedded, distinct: distinct.size };
  } finally {
    db.close();
  }
}

/** A count of texts sent to the model, if the build's job view reports one. */
function reportedEmbedded(progress: Record<string, unknown>): number | null {
  for (const name of ["texts_embedded", "embedded_texts", "distinct_texts_embedded"]) {
    const v = progress[name];
    if (typeof v === "number") return v;
  }
  return null;
}

async function stopServer(proc: ReturnType<typeof Bun.spawn>): Promise<void> {
  const tree = descendants(proc.pid);
  proc.kill("SIGTERM");
  const done = await Promise.race([
    proc.exited.then(() => true),
    Bun.sleep(30_000).then(() => false),
  ]);
  if (!done) proc.kill("SIGKILL");
  await proc.exited;
  for (const pid of tree)
    try {
      process.kill(pid, 0);
      process.kill(pid, "SIGKILL"); // a pool process the server left behind
    } catch {}
}

async function timeToSearch(
  build: Build,
  round: number,
  server: DocServerProcess,
): Promise<TimeToSearch> {
  const dir = mkdtempSync(join(tmpdir(), `wc-tts-${build}-`));
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  const port = await freePort();
  const c = commands(build, server, dataDir, port);
  try {
    const key = run([...c.cli, "keys", "create", "bench"], c.env, c.cwd)
      .trim()
      .split(/\s+/)
      .at(-1);
    if (!key) throw new Error(`${build}: keys create printed no key`);
    const spawned = Date.now();
    const proc = Bun.spawn([...c.cli, "serve"], {
      cwd: c.cwd,
      env: { ...cleanEnv(), ...c.env },
      stdout: Bun.file(join(dir, "server.out")),
      stderr: Bun.file(join(dir, "server.err")),
    });
    const sampler = new ProcSampler(proc.pid);
    const base = `http://127.0.0.1:${port}`;
    try {
      for (;;) {
        if (proc.exitCode !== null)
          throw new Error(
            `${build} server exited ${proc.exitCode}: ${tail(join(dir, "server.err"))}`,
          );
        if (Date.now() - spawned > 180_000) throw new Error(`${build} server did not answer`);
        try {
          if ((await fetch(`${base}/api/jobs`)).status < 500) break;
        } catch {}
        await Bun.sleep(100);
      }
      const ready = Date.now();
      await control(server, "/reset", "POST");
      sampler.sample();
      const posted = Date.now();
      const loadAtPost = loadavg()[0] ?? 0;
      const accepted = await getJson<{ id?: string; job_id?: string; job?: { id: string } }>(
        `${base}/api/crawl`,
        key,
        { method: "POST", body: JSON.stringify({ domain: site?.domain, budget }) },
      );
      const jobId = accepted.job?.id ?? accepted.id ?? accepted.job_id;
      if (!jobId) throw new Error(`${build}: no job id in ${JSON.stringify(accepted)}`);
      let view: JobView;
      let lastLog = 0;
      for (;;) {
        view = await getJson<JobView>(`${base}/api/jobs/${jobId}`, key);
        if (FINAL.has(view.state) && view.progress.embedding_backlog === 0) break;
        if (FINAL.has(view.state) && view.progress.embedding_backlog === null)
          throw new Error(`${build}: embeddings are off (embedding_backlog null)`);
        if (proc.exitCode !== null)
          throw new Error(
            `${build} server exited ${proc.exitCode}: ${tail(join(dir, "server.err"))}`,
          );
        if (Date.now() - posted > timeoutMs)
          throw new Error(`${build}: timed out, ${JSON.stringify(view)}`);
        if (Date.now() - lastLog > 30_000) {
          lastLog = Date.now();
          console.error(
            `  ${build} ${((lastLog - posted) / 1000).toFixed(0)} s: ${view.state}, fetched ${view.progress.fetched}, backlog ${view.progress.embedding_backlog}`,
          );
        }
        await Bun.sleep(250);
      }
      const searchable = Date.now();
      sampler.sample();
      const usage = sampler.stop();
      const window = await control(server, "/window");
      const q = encodeURIComponent(site?.query ?? "");
      const found = await getJson<{ data: { url?: string; page?: { url?: string } }[] }>(
        `${base}/api/search?q=${q}&mode=vector&domain=${site?.domain}&limit=5`,
        key,
      );
      const first = found.data[0];
      await stopServer(proc);
      const counts = chunkCounts(join(dataDir, "webcorpus.db"), jobId);
      if (found.data.length === 0) throw new Error(`${build}: vector search found nothing`);
      const before = usage.at(posted);
      const cpuS = usage.last.main + usage.last.children - (before.main + before.children);
      const wallS = (searchable - posted) / 1000;
      const fetchDoneS = ((window.last ?? posted) - posted) / 1000;
      const reported = reportedEmbedded(view.progress);
      const pages = Math.max(1, view.progress.fetched);
      return {
        build,
        round,
        state: view.state,
        pages: view.progress.fetched,
        startup_s: round1((ready - spawned) / 1000, 2),
        wall_s: round1(wallS, 2),
        fetch_done_s: round1(fetchDoneS, 2),
        chunks: counts.chunks,
        chunks_marked_embedded: counts.embedded,
        chunks_embedded: reported ?? counts.chunks,
        chunks_embedded_source: reported === null ? "chunks" : "job view",
        distinct_texts: counts.distinct,
        chunks_per_s: round1(counts.chunks / Math.max(0.001, wallS - fetchDoneS)),
        chunks_per_s_wall: round1(counts.chunks / wallS),
        cpu_ms_per_page: round1((cpuS / pages) * 1000),
        cpu_s: round1(cpuS),
        peak_rss_mb: Math.round(usage.peakRssMb),
        load_1m: [round1(loadAtPost, 2), round1(loadavg()[0] ?? 0, 2)],
        vector_hits: found.data.length,
        vector_top: first?.url ?? first?.page?.url ?? null,
      };
    } finally {
      if (proc.exitCode === null) await stopServer(proc);
    }
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.error(`  kept ${dir}`);
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, "utf8").slice(-3000);
  } catch {
    return "";
  }
}

docSites(); // fetch and unpack the packages before anything is timed
if (builds.includes("reference")) prebuildReferenceModel();
const server = await startDocServer();
const results: TimeToSearch[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    // Alternate who goes first: neither always gets the quieter minutes.
    const order = builds.map((_, i) => builds[(i + round - 1) % builds.length] as Build);
    for (const build of order) {
      const r = await timeToSearch(build, round, server);
      results.push(r);
      console.log(JSON.stringify({ site: values.site, budget, ...r }));
    }
  }
} finally {
  server.stop();
}

const summary: Record<string, unknown> = { site: values.site, budget, rounds };
for (const build of builds) {
  const mine = results.filter((r) => r.build === build);
  summary[build] = {
    wall_s: median(mine.map((r) => r.wall_s)),
    fetch_done_s: median(mine.map((r) => r.fetch_done_s)),
    chunks: median(mine.map((r) => r.chunks)),
    chunks_per_s: median(mine.map((r) => r.chunks_per_s)),
    cpu_ms_per_page: median(mine.map((r) => r.cpu_ms_per_page)),
  };
}
if (builds.length === 2) {
  const paired = (key: "wall_s" | "cpu_s") => {
    const ratios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const b = results.find((r) => r.round === round && r.build === "bun");
      const ref = results.find((r) => r.round === round && r.build === "reference");
      if (b && ref && ref[key] > 0) ratios.push(round1(b[key] / ref[key], 3));
    }
    return ratios;
  };
  const wall = paired("wall_s");
  summary["bun/reference wall_s per round"] = wall;
  summary["bun/reference wall_s median"] = round1(median(wall), 3);
  // CPU over the same window: what each build cost, less bent by other users' load than wall.
  const cpu = paired("cpu_s");
  summary["bun/reference cpu_s per round"] = cpu;
  summary["bun/reference cpu_s median"] = round1(median(cpu), 3);
}
console.log(JSON.stringify(summary));
