/**
 * API load: wrk against a real `webcorpus serve` (and, with --reference, the Python reference's
 * `webcorpus serve` in the same run), per endpoint and concurrency: req/s, p50/p95 latency and
 * server CPU per request.
 *
 *   bun run bench:api [--duration 6] [--concurrency 8,32] [--reference ../ref] [--rounds 2]
 *
 * Needs wrk (`apt-get install wrk`). The reference needs its venv (`cd ../ref && bash
 * scripts/install.sh`). Both servers run on empty data dirs with their crawl workers off.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    duration: { type: "string", default: "6" },
    concurrency: { type: "string", default: "8,32" },
    reference: { type: "string" },
    rounds: { type: "string", default: "1" },
    kinds: { type: "string", default: "openapi,missing-page,content-list" },
  },
});

const KINDS: Record<string, string> = {
  openapi: "/api/openapi.json",
  "missing-page": "/api/content/pg_0123456789abcdef",
  "content-list": "/api/content?limit=20&type=docs,blog&technicality_min=0.2",
};

const LUA = `done = function(summary, latency, requests)
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
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}/api/openapi.json`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await Bun.sleep(100);
  }
  throw new Error(`${base} did not come up`);
}

async function start(name: string, cmd: string[], env: Record<string, string>): Promise<Server> {
  const port = freePort();
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const proc = Bun.spawn([...cmd, "--port", String(port)], {
    env: { ...process.env, WEBCORPUS_DATA_DIR: dir, WEBCORPUS_WORKER: "false", ...env },
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
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CPU seconds (user + system) of a process and its threads, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

async function wrk(url: string, concurrency: number, seconds: number, script: string) {
  const threads = Math.min(2, concurrency);
  const proc = Bun.spawn(
    [
      "wrk",
      "-t",
      String(threads),
      "-c",
      String(concurrency),
      "-d",
      `${seconds}s`,
      "-s",
      script,
      url,
    ],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const [, requests, durationUs, p50, p95, non2xx] = line.split(" ").map(Number);
  return {
    rps: (requests ?? 0) / ((durationUs ?? 1) / 1e6),
    p50: p50 ?? 0,
    p95: p95 ?? 0,
    requests: requests ?? 0,
    non2xx: non2xx ?? 0,
  };
}

const seconds = Number(values.duration);
const levels = values.concurrency.split(",").map(Number);
const kinds = values.kinds.split(",");
const script = join(mkdtempSync(join(tmpdir(), "wrk-")), "report.lua");
writeFileSync(script, LUA);

const servers: Server[] = [
  await start("bun", ["bun", resolve(import.meta.dir, "../../src/cli.ts"), "serve"], {}),
];
if (values.reference) {
  const venv = resolve(values.reference, ".venv/bin/webcorpus");
  servers.push(
    await start("reference", [venv, "serve", "--no-worker"], { WEBCORPUS_EMBEDDINGS: "false" }),
  );
}

console.log(
  `api-load: wrk, ${seconds} s per row, rounds ${values.rounds}, ${new Date().toISOString()}`,
);
console.log("server     endpoint       conc  req/s      p50 ms  p95 ms  CPU ms/req  non-2xx");
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const kind of kinds) {
      for (const c of levels) {
        for (const server of servers) {
          const path = KINDS[kind];
          if (!path) throw new Error(`unknown kind ${kind}`);
          await wrk(`${server.base}${path}`, c, 1, script); // warm-up
          const before = cpuSeconds(server.pid);
          const r = await wrk(`${server.base}${path}`, c, seconds, script);
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
}
