/**
 * Reads while the largest shard rebuilds: a crawled data dir (e.g. the one `shard-rebuild.ts
 * --site handbook --data DIR` keeps) gets its largest domain's shard files deleted, `webcorpus
 * serve` starts over it in a process of its own (the rebuild runs in the background at start),
 * and this process reads from it until the rebuild is done: one page at a time
 * (`/api/content/<id>`, ids of that domain), with a text search of the rebuilding domain every
 * tenth request (which must say `partial` until the rebuild ends). Prints the rebuild's length and
 * the latency of both kinds of read, p50 / p95 / p99 / max. Aim: page reads p99 under 100 ms on
 * 2 cores.
 *
 *   bun test/bench/rebuild-reads.ts --data DIR [--domain D] [--concurrency N] [--seconds N]
 *
 * The data dir's database is used as it is; its shard files of the domain are deleted (a copy of
 * the dir is not made: rerun `shard-rebuild.ts` or let the rebuild finish to have them back).
 */
import { Database } from "bun:sqlite";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../helpers/cli.ts";
import { REPO_ROOT } from "../sites/support/debian-docs.ts";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    domain: { type: "string" },
    concurrency: { type: "string", default: "2" },
    seconds: { type: "string", default: "300" },
  },
});
const dataDir = values.data;
if (!dataDir) throw new Error("--data DIR: a crawled data dir");
const shards = join(dataDir, "shards");

const largest = () =>
  readdirSync(shards)
    .filter((f) => f.endsWith(".shard"))
    .map((f) => ({ domain: f.replace(/\.shard$/, ""), bytes: statSync(join(shards, f)).size }))
    .sort((a, b) => b.bytes - a.bytes)[0]?.domain;
const domain = values.domain ?? largest();
if (!domain) throw new Error(`no shard in ${shards}: pass --domain`);

const db = new Database(join(dataDir, "webcorpus.db"), { readonly: true });
const ids = db
  .query<{ id: string }, [string]>("SELECT id FROM pages WHERE domain = ? ORDER BY id LIMIT 2000")
  .all(domain)
  .map((r) => r.id);
const chunks =
  db
    .query<{ n: number }, [string]>(
      "SELECT count(*) AS n FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.domain = ?",
    )
    .get(domain)?.n ?? 0;
db.close();
if (ids.length === 0) throw new Error(`no page of ${domain} in ${dataDir}`);
for (const f of readdirSync(shards).filter((f) => f.startsWith(`${domain}.`)))
  rmSync(join(shards, f));
console.log(`${domain}: ${ids.length} page ids read, ${chunks} chunks to rebuild; shard deleted`);

const server = Bun.spawn(
  ["bun", "src/cli.ts", "serve", "--port", String(freePort()), "--no-worker"],
  {
    cwd: REPO_ROOT,
    env: { ...process.env, WEBCORPUS_DATA_DIR: dataDir, WEBCORPUS_EMBEDDINGS: "false" },
    stdout: "ignore",
    stderr: "pipe",
  },
);
const started = performance.now();
let base = "";
const decoder = new TextDecoder();
for await (const piece of server.stderr) {
  const line = decoder.decode(piece);
  const found = /on (http:\/\/[^ ]+) /.exec(line);
  if (found?.[1]) {
    base = found[1];
    break;
  }
}
if (!base) throw new Error("the server did not say where it listens");

const pageMs: number[] = [];
/** The slowest page reads: when they started (s after the server did) and how long they took. */
const slowest: { at: number; ms: number }[] = [];
const searchMs: number[] = [];
let partialAnswers = 0;
let rebuilt: number | null = null;
let n = 0;
const deadline = started + Number(values.seconds) * 1000;

async function reader(): Promise<void> {
  while (rebuilt === null && performance.now() < deadline) {
    const i = n++;
    const t0 = performance.now();
    if (i % 10 === 9) {
      const r = await fetch(`${base}/api/search?q=package+install&mode=text&domain=${domain}`);
      const body = (await r.json()) as { partial?: unknown };
      searchMs.push(performance.now() - t0);
      if (body.partial) partialAnswers++;
      else rebuilt = performance.now() - started;
    } else {
      const r = await fetch(`${base}/api/content/${ids[i % ids.length]}?markdown=false`);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`page read answered ${r.status}`);
      const ms = performance.now() - t0;
      pageMs.push(ms);
      slowest.push({ at: (t0 - started) / 1000, ms });
      slowest.sort((a, b) => b.ms - a.ms);
      slowest.length = Math.min(slowest.length, 5);
    }
  }
}
await Promise.all(Array.from({ length: Number(values.concurrency) }, reader));
server.kill("SIGTERM");
await server.exited;

const pct = (xs: number[], p: number) => {
  const s = xs.toSorted((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const row = (name: string, xs: number[]) =>
  `${name}: ${xs.length} requests, p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)}, p99 ${pct(xs, 99).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}`;
console.log(
  rebuilt === null
    ? `the rebuild did not end within ${values.seconds} s`
    : `rebuild of ${chunks} chunks done ${(rebuilt / 1000).toFixed(1)} s after the server started`,
);
console.log(row("page reads (/api/content/<id>)", pageMs));
console.log(
  `slowest page reads: ${slowest.map((s) => `${s.ms.toFixed(0)} ms at ${s.at.toFixed(1)} s`).join(", ")}`,
);
console.log(
  `${row("searches of the rebuilding domain", searchMs)}; ${partialAnswers} said partial`,
);
