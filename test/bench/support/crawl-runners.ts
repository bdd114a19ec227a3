/**
 * The crawlers the crawl benchmark times, each as a process of its own on a fresh data dir
 * against the doc-site server (another process): the Bun build (`bun src/cli.ts crawl`), the
 * reference (`/work/ref/.venv/bin/webcorpus crawl`), Crawlee's CheerioCrawler with a do-nothing
 * handler. Each is timed the same way, from outside: the crawl window runs from the first
 * request the server answered for it to the process's exit (process start-up is left out, the
 * end of the job kept), CPU is the process tree's from /proc over the same window.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../../sites/support/debian-docs.ts";
import { type CpuSnapshot, ProcSampler } from "./proc-sampler.ts";

export const REFERENCE = "/work/ref";
export const REFERENCE_CLI = join(REFERENCE, ".venv/bin/webcorpus");

export interface DocServerProcess {
  readonly port: number;
  readonly control: number;
  readonly connectTo: string;
  stop(): void;
}

/** test/sites/support/serve-doc-sites.ts in a process of its own. */
export async function startDocServer(): Promise<DocServerProcess> {
  const proc = Bun.spawn(["bun", join(REPO_ROOT, "test/sites/support/serve-doc-sites.ts")], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the doc-site server exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const info = JSON.parse(text.slice(0, text.indexOf("\n"))) as {
    port: number;
    control: number;
    connectTo: string;
  };
  return { ...info, stop: () => proc.kill() };
}

export interface Window {
  readonly count: number;
  readonly first: number | null;
  readonly last: number | null;
  readonly statuses: Record<string, number>;
}

export async function control(
  server: DocServerProcess,
  path: string,
  method = "GET",
): Promise<Window> {
  const resp = await fetch(`http://127.0.0.1:${server.control}${path}`, { method });
  return (await resp.json()) as Window;
}

export interface RunResult {
  readonly crawler: string;
  readonly state: string;
  /** Pages the crawler fetched (its own count). */
  readonly fetched: number;
  /** Requests the server answered (robots.txt, sitemaps, redirects included). */
  readonly requests: number;
  readonly statuses: Record<string, number>;
  readonly wall_s: number;
  /** First request answered to process exit. */
  readonly crawl_s: number;
  readonly pages_per_min: number;
  readonly pages_per_min_wall: number;
  /** CPU of the process tree over the crawl window, per fetched page. */
  readonly cpu_ms_per_page: number;
  /** CPU before the first request (interpreter, imports, workers starting). */
  readonly startup_cpu_ms: number;
  /** Per thread kind of the root process (Bun), or the root against its child processes. */
  readonly cpu_ms_per_page_by: Record<string, number>;
  /** Processing stages, as the crawler reports them, per fetched page. */
  readonly stages_ms_per_page: Record<string, number> | null;
  readonly peak_rss_mb: number;
}

interface Timed {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallS: number;
  readonly crawlS: number;
  readonly window: Window;
  readonly cpuS: number;
  readonly startupCpuS: number;
  readonly by: Record<string, number>;
  readonly peakRssMb: number;
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

function diff(after: CpuSnapshot, before: CpuSnapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, cpu] of Object.entries(after.threads))
    out[kind] = cpu - (before.threads[kind] ?? 0);
  if (after.children > 0) out["child processes"] = after.children - before.children;
  return out;
}

async function timed(
  server: DocServerProcess,
  cmd: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Timed> {
  await control(server, "/reset", "POST");
  const started = Date.now();
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { ...cleanEnv(), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const sampler = new ProcSampler(proc.pid);
  const [stdout, stderr] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  const exitCode = await proc.exited;
  const ended = Date.now();
  sampler.sample();
  const usage = sampler.stop();
  const window = await control(server, "/window");
  const rusage = proc.resourceUsage();
  const cpuS = rusage ? Number(rusage.cpuTime.total) / 1e6 : usage.last.main + usage.last.children;
  const first = window.first ?? started;
  const before = usage.at(first);
  return {
    exitCode,
    stdout,
    stderr,
    wallS: (ended - started) / 1000,
    crawlS: (ended - first) / 1000,
    window,
    cpuS,
    startupCpuS: before.main + before.children,
    by: diff(usage.last, before),
    peakRssMb: Math.max(usage.peakRssMb, (rusage?.maxRSS ?? 0) / 2 ** 20),
  };
}

/** The bench's environment without WEBCORPUS_ settings: each crawler gets only its own. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("WEBCORPUS_")) env[k] = v;
  return env;
}

function result(
  crawler: string,
  t: Timed,
  state: string,
  fetched: number,
  stages: Record<string, number> | null,
): RunResult {
  const pages = Math.max(1, fetched);
  const crawlCpu = t.cpuS - t.startupCpuS;
  const by: Record<string, number> = {};
  for (const [kind, s] of Object.entries(t.by).sort((a, b) => b[1] - a[1]))
    if (s > 0.005) by[kind] = round((s / pages) * 1000, 2);
  return {
    crawler,
    state,
    fetched,
    requests: t.window.count,
    statuses: t.window.statuses,
    wall_s: round(t.wallS, 2),
    crawl_s: round(t.crawlS, 2),
    pages_per_min: round((fetched / t.crawlS) * 60),
    pages_per_min_wall: round((fetched / t.wallS) * 60),
    cpu_ms_per_page: round((crawlCpu / pages) * 1000, 2),
    startup_cpu_ms: round(t.startupCpuS * 1000, 0),
    cpu_ms_per_page_by: by,
    stages_ms_per_page: stages,
    peak_rss_mb: round(t.peakRssMb, 0),
  };
}

function fail(name: string, t: Timed): never {
  throw new Error(
    `${name} exited ${t.exitCode}:\n${t.stderr.slice(-3000)}\n${t.stdout.slice(-2000)}`,
  );
}

export interface CrawlSpec {
  readonly domain: string;
  readonly host: string;
  readonly budget: number;
  readonly concurrency: number;
}

/** The settings both builds read (same names): politeness off, embeddings off. */
function crawlEnv(server: DocServerProcess, spec: CrawlSpec, dataDir: string) {
  return {
    WEBCORPUS_DATA_DIR: dataDir,
    WEBCORPUS_CONNECT_TO: server.connectTo,
    WEBCORPUS_CONNECT_TO_ONLY: "true",
    WEBCORPUS_CRAWL_DELAY_S: "0",
    WEBCORPUS_ADAPTIVE_DELAY: "false",
    WEBCORPUS_HOST_CONCURRENCY: String(spec.concurrency),
    WEBCORPUS_MAX_CONCURRENCY: String(spec.concurrency),
    WEBCORPUS_EMBEDDINGS: "false",
  };
}

interface Summary {
  readonly state: string;
  readonly progress: { readonly fetched: number };
}

function summary(stdout: string): Summary {
  return JSON.parse(stdout.slice(stdout.indexOf("{"))) as Summary;
}

/** The `info` of the one job in a crawler's database (both builds keep its CPU figures there). */
function jobInfo(path: string): {
  cpu_ms_per_page?: number;
  cpu_ms_per_stage?: Record<string, number>;
} {
  const db = new Database(path, { readonly: true });
  try {
    return JSON.parse(db.query<{ info: string }, []>("SELECT info FROM jobs").get()?.info ?? "{}");
  } finally {
    db.close();
  }
}

export async function runBun(server: DocServerProcess, spec: CrawlSpec): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), "wc-bench-bun-"));
  try {
    const t = await timed(
      server,
      [
        "bun",
        // e.g. BENCH_BUN_FLAGS=--smol: Bun's own flags for the crawl process
        ...(process.env.BENCH_BUN_FLAGS?.split(" ").filter(Boolean) ?? []),
        "src/cli.ts",
        "crawl",
        spec.domain,
        "--budget",
        String(spec.budget),
      ],
      {
        ...crawlEnv(server, spec, join(dir, "data")),
        // e.g. BENCH_BUN_ENV="WEBCORPUS_WORKER_PROCESSES=1": settings for the Bun build's runs only
        ...Object.fromEntries(
          (process.env.BENCH_BUN_ENV?.split(" ").filter(Boolean) ?? []).map((kv) => {
            const at = kv.indexOf("=");
            return [kv.slice(0, at), kv.slice(at + 1)];
          }),
        ),
      },
      REPO_ROOT,
    );
    if (t.exitCode !== 0) fail("bun src/cli.ts crawl", t);
    const s = summary(t.stdout);
    // The workers' CPU per processed page and stage, as the job records it (like the reference's).
    const info = jobInfo(join(dir, "data", "webcorpus.db"));
    return result("bun", t, s.state, s.progress.fetched, info.cpu_ms_per_stage ?? null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runReference(server: DocServerProcess, spec: CrawlSpec): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), "wc-bench-ref-"));
  try {
    const t = await timed(
      server,
      [REFERENCE_CLI, "crawl", spec.domain, "--budget", String(spec.budget)],
      crawlEnv(server, spec, dir),
      dir,
    );
    if (t.exitCode !== 0) fail("the reference's webcorpus crawl", t);
    const s = summary(t.stdout);
    const info = jobInfo(join(dir, "webcorpus.db"));
    const stages = info.cpu_ms_per_page ? { "processing (job info)": info.cpu_ms_per_page } : null;
    return result("reference", t, s.state, s.progress.fetched, stages);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runCrawlee(
  server: DocServerProcess,
  spec: CrawlSpec,
  crawleeDir: string,
): Promise<RunResult> {
  const storage = mkdtempSync(join(tmpdir(), "wc-bench-crawlee-"));
  try {
    const t = await timed(
      server,
      [
        "node",
        join(crawleeDir, "crawlee-crawl.mjs"),
        String(server.port),
        spec.host,
        String(spec.budget),
        String(spec.concurrency),
        storage,
      ],
      { CRAWLEE_STORAGE_DIR: storage, CRAWLEE_PURGE_ON_START: "true" },
      crawleeDir,
    );
    if (t.exitCode !== 0) fail("crawlee", t);
    const stats = JSON.parse(t.stdout.slice(t.stdout.lastIndexOf("\n{") + 1)) as {
      requestsFinished: number;
      requestsFailed: number;
    };
    return result("crawlee", t, "done", stats.requestsFinished + stats.requestsFailed, null);
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}
