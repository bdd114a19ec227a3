/**
 * API load: wrk against a real `webcorpus serve` (and, with --reference, the Python reference's
 * `webcorpus serve` in the same run), per kind of request and concurrency: req/s, p50/p95
 * latency and server CPU per request.
 *
 *   bun run bench:api [--duration 6] [--concurrency 8,32] [--reference ../ref] [--rounds 2]
 *                     [--kinds page,list,search,bundle,openapi,missing-page] [--corpus DIR]
 *                     [--baseline DIR]
 *
 * Both servers answer from the same corpus: the PostgreSQL 15 docs of the Debian package (1,169
 * pages, test/bench/pg-corpus.ts) built once in --corpus (default
 * ~/.cache/webcorpus-test/pg-corpus) and copied into the reference's freshly migrated database.
 * Kinds, as the reference's bench/api_load.py has them: `page` (GET /api/content/<id>, ids
 * cycled), `list` (GET /api/content with filters and sorts, cycled, its full-text `q` query
 * included), `search` (GET /api/search, the reference's ten queries, `mode=text`: both servers
 * run without embeddings, as the reference's published text-search figure), `bundle` (the 50
 * most cited pages as one markdown file), plus
 * `openapi` and `missing-page` (a 404 problem). Needs wrk (`apt-get install wrk`); the reference
 * needs its venv (`cd ../ref && bash scripts/install.sh`). Crawl workers are off on both.
 * --baseline serves another checkout of webcorpus (e.g. `git archive main | tar -x -C DIR`, with
 * node_modules linked in) beside this one, for a before/after in the same run on a busy machine.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { copyToReference, PG_DOMAIN, pgCorpus } from "./pg-corpus.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    duration: { type: "string", default: "6" },
    concurrency: { type: "string", default: "8,32" },
    reference: { type: "string" },
    baseline: { type: "string" },
    rounds: { type: "string", default: "1" },
    kinds: { type: "string", default: "page,list,search,bundle,openapi,missing-page" },
    corpus: { type: "string", default: join(homedir(), ".cache", "webcorpus-test", "pg-corpus") },
  },
});

const LIST_QUERIES = [
  `domain=${PG_DOMAIN}&limit=20`,
  `domain=${PG_DOMAIN}&sort=words&limit=50`,
  "type=docs,api_reference&technicality_min=0.3&sort=technicality",
  "has_code=true&words_min=200&sort=cited&offset=40",
  "q=index&limit=20",
  "locale=en&sort=indexed&limit=100",
  "promotional_max=0.5&depth_min=0.2&sort=promotional",
];

/** The reference's bench/api_load.py queries. */
const SEARCH_QUERIES = [
  "create index on a table",
  "vacuum analyze autovacuum",
  "foreign key constraint",
  "window functions over partition",
  "streaming replication standby",
  "json operators jsonb",
  "transaction isolation level serializable",
  "pg_dump backup restore",
  "row level security policy",
  "full text search tsvector",
];

mkdirSync(values.corpus, { recursive: true });
const ids = pgCorpus(values.corpus);
const KINDS: Record<string, string[]> = {
  page: Array.from({ length: 500 }, (_, i) => `/api/content/${ids[(i * 7919) % ids.length]}`),
  list: LIST_QUERIES.map((q) => `/api/content?${q}`),
  search: SEARCH_QUERIES.map(
    (q) => `/api/search?${new URLSearchParams({ q, mode: "text", limit: "10" })}`,
  ),
  bundle: [`/api/domains/${PG_DOMAIN}/content.md?limit=50`],
  openapi: ["/api/openapi.json"],
  "missing-page": ["/api/content/pg_0123456789abcdef"],
};

const LUA = `paths = {%PATHS%}
i = 0
request = function()
  i = i + 1
  return wrk.format(nil, paths[((i - 1) % #paths) + 1])
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %.3f %.3f %d\\n", summary.requests, summary.duration,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, summary.errors.status))
end`;

interface Server {
  name: string;
  base: string;
  pid: number;
  stop(): Promise<void>;
}

function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port ?? 0;
  void s.stop(true);
  return port;
}

async function waitUp(base: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const up = await fetch(`${base}/api/openapi.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await Bun.sleep(100);
  }
  throw new Error(`${base} did not come up`);
}

/** A server builds its search index from SQLite at start: search is measured once it answers. */
async function waitSearch(base: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const hits = await fetch(`${base}/api/search?q=vacuum&mode=text&limit=1`).then(
      async (r) => (r.ok ? ((await r.json()) as { data: unknown[] }).data.length : 0),
      () => 0,
    );
    if (hits > 0) return;
    await Bun.sleep(100);
  }
  throw new Error(`${base} found nothing for "vacuum" within 120 s`);
}

async function start(
  name: string,
  cmd: string[],
  dir: string,
  env: Record<string, string>,
): Promise<Server> {
  const port = freePort();
  const proc = Bun.spawn([...cmd, "--port", String(port)], {
    env: {
      ...process.env,
      WEBCORPUS_DATA_DIR: dir,
      WEBCORPUS_WORKER: "false",
      WEBCORPUS_EMBEDDINGS: "false",
      ...env,
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUp(base);
  return {
    name,
    base,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** CPU seconds (user + system) of a process and its threads, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function wrk(url: string, concurrency: number, seconds: number, script: string) {
  const args = ["wrk", "-t", String(Math.min(2, concurrency)), "-c", String(concurrency)];
  args.push("-d", `${seconds}s`, "--timeout", "60s", "-s", script, url);
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const [, requests = 0, durationUs = 1, p50 = 0, p95 = 0, non2xx = 0] = line
    .split(" ")
    .map(Number);
  return { rps: requests / (durationUs / 1e6), p50, p95, requests, non2xx };
}

const seconds = Number(values.duration);
const levels = values.concurrency.split(",").map(Number);
const kinds = values.kinds.split(",");
const scripts = mkdtempSync(join(tmpdir(), "wrk-"));
for (const kind of kinds) {
  const paths = KINDS[kind];
  if (!paths) throw new Error(`unknown kind ${kind}`);
  const lua = LUA.replace("%PATHS%", paths.map((p) => JSON.stringify(p)).join(","));
  writeFileSync(join(scripts, `${kind}.lua`), lua);
}

// Each server gets its own copy of the corpus (the reference's schema is migrated first).
const ourDir = mkdtempSync(join(tmpdir(), "bench-bun-"));
cpSync(join(values.corpus, "webcorpus.db"), join(ourDir, "webcorpus.db"));
const servers: Server[] = [
  await start("bun", ["bun", resolve(import.meta.dir, "../../src/cli.ts"), "serve"], ourDir, {}),
];
let baseDir: string | null = null;
if (values.baseline) {
  baseDir = mkdtempSync(join(tmpdir(), "bench-base-"));
  cpSync(join(values.corpus, "webcorpus.db"), join(baseDir, "webcorpus.db"));
  const cli = resolve(values.baseline, "src/cli.ts");
  servers.push(await start("baseline", ["bun", cli, "serve"], baseDir, {}));
}
let refDir: string | null = null;
if (values.reference) {
  refDir = mkdtempSync(join(tmpdir(), "bench-ref-"));
  const cmd = [resolve(values.reference, ".venv/bin/webcorpus"), "serve", "--no-worker"];
  const env = { WEBCORPUS_EMBEDDINGS: "false" };
  await (await start("reference", cmd, refDir, env)).stop(); // creates and migrates its database
  copyToReference(join(ourDir, "webcorpus.db"), join(refDir, "webcorpus.db"));
  servers.push(await start("reference", cmd, refDir, env));
}

if (kinds.includes("search")) for (const server of servers) await waitSearch(server.base);
console.log(
  `api-load: wrk, ${ids.length} pages, ${seconds} s per row, rounds ${values.rounds}, ${new Date().toISOString()}`,
);
console.log("server     kind           conc  req/s      p50 ms  p95 ms  CPU ms/req  non-2xx");
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const kind of kinds) {
      for (const c of levels) {
        for (const server of servers) {
          const script = join(scripts, `${kind}.lua`);
          await wrk(server.base, c, 1, script); // warm-up
          const before = cpuSeconds(server.pid);
          const r = await wrk(server.base, c, seconds, script);
          const cpuMs = ((cpuSeconds(server.pid) - before) * 1000) / Math.max(1, r.requests);
          console.log(
            `${server.name.padEnd(10)} ${kind.padEnd(14)} ${String(c).padStart(4)}  ${r.rps.toFixed(0).padStart(8)}  ${r.p50.toFixed(2).padStart(7)} ${r.p95.toFixed(2).padStart(7)}  ${cpuMs.toFixed(3).padStart(10)}  ${r.non2xx}`,
          );
        }
      }
    }
  }
} finally {
  for (const server of servers) await server.stop();
  for (const dir of [ourDir, baseDir, refDir, scripts])
    if (dir) rmSync(dir, { recursive: true, force: true });
}
