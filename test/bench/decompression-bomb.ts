/**
 * Peak RSS of fetching gzip bombs through our Fetcher: N at once (default 1 and 8), each a 2 GiB
 * gzip stream (~2 MiB on the wire) served chunked by Bun.serve on 127.0.0.1, under the body cap
 * (default 10 MiB). Each case runs in a fresh process (`--child`), so one case's peak is not the
 * next one's baseline; the peak is the kernel's high-water mark (VmHWM, reset through
 * /proc/self/clear_refs, Linux only) against the RSS after a warm-up fetch and a full GC.
 *
 * Run: bun test/bench/decompression-bomb.ts [--cap BYTES] [--bomb MIB] [--rounds N]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { testConfig } from "../../src/config.ts";
import { Fetcher, fetcherOptions } from "../../src/crawl/fetcher.ts";
import { gzipBomb, serveGzipBomb } from "../integration/support/hostile-site.ts";

const MB = 1 << 20;
const { values } = parseArgs({
  options: {
    cap: { type: "string", default: String(10 * MB) },
    bomb: { type: "string", default: "2048" },
    rounds: { type: "string", default: "3" },
    child: { type: "string" },
  },
});
const cap = Number(values.cap);
const bombMib = Number(values.bomb);

async function child(n: number): Promise<void> {
  const bomb = gzipBomb(bombMib);
  const server = serveGzipBomb(bomb);
  const config = testConfig({ ALLOW_NETWORKS: "127.0.0.1/32", MAX_BODY_BYTES: String(cap) });
  const fetcher = new Fetcher(fetcherOptions(config));
  const url = `http://127.0.0.1:${server.port}/`;
  await fetcher.fetch(url);
  Bun.gc(true);
  const before = process.memoryUsage().rss / MB;
  writeFileSync("/proc/self/clear_refs", "5");
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: n }, () => fetcher.fetch(url)));
  const ms = performance.now() - started;
  const hwm =
    Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024;
  const errors = [...new Set(results.map((r) => r.error?.detail ?? "none"))];
  console.log(JSON.stringify({ n, before, peak: hwm, ms, errors }));
  await server.stop(true);
}

if (values.child) {
  await child(Number(values.child));
  process.exit(0);
}

console.log(`cap ${cap / MB} MiB, bomb ${bombMib} MiB inflated, ${values.rounds} runs per case`);
for (const n of [1, 8]) {
  const rows: { before: number; peak: number; ms: number; errors: string[] }[] = [];
  for (let i = 0; i < Number(values.rounds); i++) {
    const out = Bun.spawnSync([
      process.execPath,
      import.meta.path,
      "--child",
      String(n),
      "--cap",
      String(cap),
      "--bomb",
      String(bombMib),
    ]);
    rows.push(JSON.parse(out.stdout.toString().trim().split("\n").pop() ?? "{}"));
  }
  const grew = rows.map((r) => Math.round(r.peak - r.before));
  console.log(
    `${n} at once: peak RSS ${rows.map((r) => `${Math.round(r.before)}→${Math.round(r.peak)}`).join(", ")} MB (growth ${grew.join(", ")}; bound ${n} x (cap + 64 KiB) = ${((n * (cap + 65536)) / MB).toFixed(0)} MB of bodies); ${rows.map((r) => Math.round(r.ms)).join(", ")} ms; ${rows[0]?.errors.join("; ")}`,
  );
}
