/**
 * Pages/s fetching a local static site (Python docs, ~530 pages, served by Bun.serve on
 * 127.0.0.1) at concurrency 32, politeness off: plain `fetch` against our Fetcher (SSRF guard,
 * IP + Host connect, caps, timeouts), by IP literal, by a connect-to name and by a name through
 * the system resolver; node:http with a guarded `lookup` (the alternative connect-time hook);
 * the reference's aiohttp Fetcher when its virtualenv is there. Also the guard's own cost.
 * Rounds are interleaved; medians and ratios to plain fetch are printed.
 *
 * Run: bun run test/bench/fetch-throughput.ts [--rounds N] [--site DIR]
 * (WEBCORPUS_BENCH_REF_PYTHON=/path/to/python to pick the reference's interpreter.)
 */
import { existsSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { testConfig } from "../../src/config.ts";
import { isPublicAddress } from "../../src/crawl/address-policy.ts";
import { Fetcher, fetcherOptions } from "../../src/crawl/fetcher.ts";
import { ConnectGuard, systemResolver } from "../../src/crawl/guard.ts";
import { parseIp, parseNetworks } from "../../src/crawl/ip.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    site: { type: "string", default: "/work/cache/root/usr/share/doc/python3.11/html" },
  },
});
const ROOT = values.site ?? "";
const ROUNDS = Number(values.rounds);
const CONCURRENCY = 32;

const files = [...new Bun.Glob("**/*.html").scanSync(ROOT)].sort();
// The site runs in its own process, so this process's CPU time is the client's alone.
const SERVER = `
const root = process.argv[1];
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) {
  const file = Bun.file(root + decodeURIComponent(new URL(req.url).pathname));
  return (await file.exists()) ? new Response(file, { headers: { "content-type": "text/html" } }) : new Response("no", { status: 404 });
} });
console.log(server.port);
`;
const serverProc = Bun.spawn([process.execPath, "-e", SERVER, ROOT], {
  stdout: "pipe",
  stderr: "inherit",
});
const portLine = await new Response(serverProc.stdout).body?.getReader().read();
const port = Number(new TextDecoder().decode(portLine?.value).trim());
const paths = files.map((f) => `/${f.split("/").map(encodeURIComponent).join("/")}`);
const bytes = files.reduce((n, f) => n + Bun.file(join(ROOT, f)).size, 0);
console.log(
  `site: ${files.length} pages, ${(bytes / 1e6).toFixed(1)} MB, concurrency ${CONCURRENCY}, ${ROUNDS} rounds`,
);

interface Figure {
  readonly pagesPerS: number;
  /** Client CPU (user + system) per page, ms. */
  readonly cpuMs: number;
}

async function pool(
  urls: readonly string[],
  one: (url: string) => Promise<number>,
): Promise<Figure> {
  let next = 0;
  let got = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < urls.length) {
        const url = urls[next++] as string;
        const n = await one(url); // not `got += await …`: that reads `got` before the await
        got += n;
      }
    }),
  );
  if (got !== urls.length) throw new Error(`only ${got} of ${urls.length} pages came back`);
  const used = process.cpuUsage(cpu);
  return {
    pagesPerS: urls.length / ((performance.now() - started) / 1000),
    cpuMs: (used.user + used.system) / 1000 / urls.length,
  };
}

const config = testConfig({
  ALLOW_NETWORKS: "127.0.0.1/32",
  CONNECT_TO: `docs.test:80:127.0.0.1:${port}`,
  MAX_RETRIES: "0",
});
const ours = new Fetcher(fetcherOptions(config));
const ok = (r: { status: number; body: Uint8Array }) =>
  r.status === 200 && r.body.byteLength > 0 ? 1 : 0;
const byIp = paths.map((p) => `http://127.0.0.1:${port}${p}`);
const byName = paths.map((p) => `http://docs.test${p}`);
const byLocalhost = paths.map((p) => `http://localhost:${port}${p}`);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const allow = parseNetworks(["127.0.0.1/32"]);
type LookupCb = (
  err: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;
const guardedLookup = (host: string, options: { all?: boolean }, cb: LookupCb) => {
  systemResolver(host).then(
    (found) => {
      const bad = found.find(
        (a) => !isPublicAddress(parseIp(a.address) ?? { version: 4, value: 0n }, allow),
      );
      if (bad) return cb(new Error(`ssrf: ${bad.address}`), "");
      if (options.all)
        return cb(
          null,
          found.map((a) => ({ address: a.address, family: a.family })),
        );
      const first = found[0];
      return first ? cb(null, first.address, first.family) : cb(new Error("no address"), "");
    },
    (err: Error) => cb(err, ""),
  );
};
const nodeGet = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const req = http.get(url, { agent, lookup: guardedLookup as never }, (res) => {
      let n = 0;
      res.on("data", (c: Buffer) => {
        n += c.byteLength;
      });
      res.on("end", () => resolve(res.statusCode === 200 && n > 0 ? 1 : 0));
    });
    req.on("error", reject);
  });

const variants: [string, () => Promise<Figure>][] = [
  [
    "plain fetch (IP URL)",
    () => pool(byIp, async (u) => ((await (await fetch(u)).arrayBuffer()).byteLength > 0 ? 1 : 0)),
  ],
  ["Fetcher, IP literal URL", () => pool(byIp, async (u) => ok(await ours.fetch(u)))],
  ["Fetcher, connect-to name", () => pool(byName, async (u) => ok(await ours.fetch(u)))],
  [
    "Fetcher, name via system resolver",
    () => pool(byLocalhost, async (u) => ok(await ours.fetch(u))),
  ],
  ["node:http + guarded lookup", () => pool(byLocalhost, nodeGet)],
];

const REF_PYTHON = Bun.env.WEBCORPUS_BENCH_REF_PYTHON ?? "/work/ref/.venv/bin/python";
const REF_SCRIPT = `
import asyncio, json, sys, time
from webcorpus.config import Settings
from webcorpus.crawl.fetcher import Fetcher
urls = json.load(sys.stdin)
async def main():
    s = Settings(_env_file=None, allow_networks=["127.0.0.1/32"], max_retries=0)
    async with Fetcher(s) as f:
        queue = list(urls); ok = 0
        async def worker():
            nonlocal ok
            while queue:
                r = await f.fetch(queue.pop())
                ok += r.status == 200 and len(r.body) > 0
        t0, c0 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(worker() for _ in range(${CONCURRENCY})))
        dt = time.perf_counter() - t0
        cpu = time.process_time() - c0
    assert ok == len(urls), ok
    print(len(urls) / dt, cpu * 1000 / len(urls))
asyncio.run(main())
`;
if (existsSync(REF_PYTHON)) {
  variants.push([
    "reference aiohttp Fetcher (Python)",
    async () => {
      const proc = Bun.spawn([REF_PYTHON, "-c", REF_SCRIPT], {
        stdin: new TextEncoder().encode(JSON.stringify(byIp)),
        stdout: "pipe",
        stderr: "pipe",
        cwd: "/work/ref",
        env: { ...Bun.env, PYTHONPATH: "/work/ref/src" },
      });
      const [out, err] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
      ]);
      if ((await proc.exited) !== 0)
        throw new Error(`reference fetcher failed: ${err.slice(-400)}`);
      const [pagesPerS = 0, cpuMs = 0] = out.trim().split(" ").map(Number);
      return { pagesPerS, cpuMs };
    },
  ]);
}

try {
  const results = new Map<string, Figure[]>(variants.map(([name]) => [name, []]));
  await pool(byIp.slice(0, 64), async (u) =>
    (await (await fetch(u)).arrayBuffer()).byteLength > 0 ? 1 : 0,
  ); // warm up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of variants) results.get(name)?.push(await run());
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const plain = results.get("plain fetch (IP URL)") ?? [];
  const baseRate = median(plain.map((f) => f.pagesPerS));
  const baseCpu = median(plain.map((f) => f.cpuMs));
  for (const [name, figures] of results) {
    const rate = median(figures.map((f) => f.pagesPerS));
    const cpu = median(figures.map((f) => f.cpuMs));
    console.log(
      `${name.padEnd(36)} ${rate.toFixed(0).padStart(5)} pages/s (${(rate / baseRate).toFixed(2)}x)  client CPU ${cpu.toFixed(3)} ms/page (${(cpu / baseCpu).toFixed(2)}x)  rounds: ${figures.map((f) => f.pagesPerS.toFixed(0)).join(", ")}`,
    );
  }

  // The guard's own cost per request.
  const guard = ours.options.guard;
  const lookups = new ConnectGuard({ allow, resolver: systemResolver });
  for (const [name, g, url] of [
    ["guard.target, IP literal", guard, new URL(`http://127.0.0.1:${port}/x`)],
    ["guard.target, connect-to name", guard, new URL("http://docs.test/x")],
    ["guard.target, system resolver (localhost)", lookups, new URL(`http://localhost:${port}/x`)],
  ] as const) {
    const n = 5000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await g.target(url);
    console.log(
      `${name.padEnd(42)} ${(((performance.now() - t0) / n) * 1000).toFixed(1)} µs per request`,
    );
  }
  agent.destroy();
} finally {
  serverProc.kill();
}
