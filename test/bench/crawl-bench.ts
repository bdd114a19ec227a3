/**
 * The crawl benchmark: the Bun build and the reference crawl the same local doc site (served by
 * test/sites/support/serve-doc-sites.ts in a process of its own), interleaved, each run a fresh
 * process on a fresh data dir, politeness off (no delay, 32 requests in flight per host, no
 * adaptive delay) and embeddings off. Beside them, Crawlee's CheerioCrawler with a do-nothing
 * handler on the same site and `scrapy bench` (Scrapy's do-nothing spider on its own loopback
 * server: how fast the machine is right now). Prints every run as JSON, then medians, spreads
 * and the Bun/reference ratio of each round (the two ran back to back, so a busy minute on the
 * shared cores hits both).
 *
 *   bun test/bench/crawl-bench.ts [--site python|postgres|handbook] [--budget N] [--runs N]
 *                                 [--concurrency N] [--only bun,reference,crawlee,scrapy]
 *
 * `--site handbook --budget 5000` crawls the whole Debian handbook (~3,300 pages in 26
 * languages): watch `peak_rss_mb` (the Bun build aims at 1 GB at most).
 */

import { existsSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { docSites } from "../sites/support/doc-sites.ts";
import {
  type CrawlSpec,
  REFERENCE_CLI,
  type RunResult,
  runBun,
  runCrawlee,
  runReference,
  startDocServer,
} from "./support/crawl-runners.ts";
import { ensureScrapy, installCrawlee, scrapyBench } from "./support/peers.ts";
import { median } from "./support/stats.ts";

const SITES: Readonly<Record<string, { domain: string; host: string; budget: number }>> = {
  python: { domain: "docs.python.org", host: "docs.python.org", budget: 2000 },
  postgres: { domain: "www.postgresql.org", host: "www.postgresql.org", budget: 2000 },
  handbook: { domain: "debian-handbook.info", host: "debian-handbook.info", budget: 5000 },
};
const CRAWLERS = ["bun", "reference", "crawlee"] as const;
type CrawlerName = (typeof CRAWLERS)[number];

const { values } = parseArgs({
  options: {
    site: { type: "string", default: "python" },
    budget: { type: "string" },
    runs: { type: "string", default: "3" },
    concurrency: { type: "string", default: "32" },
    only: { type: "string", default: "bun,reference,crawlee,scrapy" },
  },
});
const site = SITES[values.site ?? "python"];
if (!site) throw new Error(`--site: one of ${Object.keys(SITES).join(", ")}`);
const spec: CrawlSpec = {
  domain: site.domain,
  host: site.host,
  budget: Number(values.budget ?? site.budget),
  concurrency: Number(values.concurrency),
};
const runs = Math.max(1, Number(values.runs));
const only = new Set((values.only ?? "").split(","));
const crawlers = CRAWLERS.filter((c) => only.has(c));
if (only.has("reference") && !existsSync(REFERENCE_CLI))
  throw new Error(
    `${REFERENCE_CLI} is missing: build it with cd /work/ref && bash scripts/install.sh`,
  );

docSites(); // fetch and unpack the packages before anything is timed
const scrapy = only.has("scrapy") ? ensureScrapy() : null;
const crawleeDir = only.has("crawlee") ? installCrawlee() : null;
const server = await startDocServer();

const results: (RunResult & { round: number; scrapy_bench: number | null })[] = [];
const benches: number[] = [];
const run = (name: CrawlerName): Promise<RunResult> => {
  if (name === "bun") return runBun(server, spec);
  if (name === "reference") return runReference(server, spec);
  if (!crawleeDir) throw new Error("crawlee not installed");
  return runCrawlee(server, spec, crawleeDir);
};

try {
  for (let round = 1; round <= runs; round++) {
    const reference = scrapy ? await scrapyBench(scrapy) : null;
    if (reference) benches.push(reference);
    if (reference)
      console.log(JSON.stringify({ round, scrapy_bench_pages_per_min: Math.round(reference) }));
    // Alternate who goes first: neither always gets the quieter minute.
    const order = crawlers.map(
      (_, i) => crawlers[(i + round - 1) % crawlers.length] as CrawlerName,
    );
    for (const name of order) {
      const r = await run(name);
      results.push({ ...r, round, scrapy_bench: reference ? Math.round(reference) : null });
      console.log(JSON.stringify({ round, ...r }));
    }
  }
} finally {
  server.stop();
  if (crawleeDir) rmSync(crawleeDir, { recursive: true, force: true });
}

const stats = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { median: r(median(s)), min: r(s[0] ?? 0), max: r(s.at(-1) ?? 0) };
};

const summary: Record<string, unknown> = { site: values.site, budget: spec.budget, runs };
for (const name of crawlers) {
  const mine = results.filter((r) => r.crawler === name);
  summary[name] = {
    fetched: stats(mine.map((r) => r.fetched)),
    pages_per_min: stats(mine.map((r) => r.pages_per_min)),
    pages_per_min_wall: stats(mine.map((r) => r.pages_per_min_wall)),
    cpu_ms_per_page: stats(mine.map((r) => r.cpu_ms_per_page)),
    peak_rss_mb: stats(mine.map((r) => r.peak_rss_mb)),
    ...(mine[0]?.scrapy_bench
      ? { ratio_to_scrapy_bench: stats(mine.map((r) => r.pages_per_min / (r.scrapy_bench ?? 1))) }
      : {}),
  };
}
const paired = (a: CrawlerName, b: CrawlerName, key: "pages_per_min" | "cpu_ms_per_page") => {
  const out: number[] = [];
  for (let round = 1; round <= runs; round++) {
    const x = results.find((r) => r.round === round && r.crawler === a);
    const y = results.find((r) => r.round === round && r.crawler === b);
    if (x && y && y[key] > 0) out.push(x[key] / y[key]);
  }
  return out.length ? stats(out) : null;
};
if (crawlers.includes("bun") && crawlers.includes("reference")) {
  summary["bun/reference pages_per_min (per round)"] = paired("bun", "reference", "pages_per_min");
  summary["bun/reference cpu_ms_per_page (per round)"] = paired(
    "bun",
    "reference",
    "cpu_ms_per_page",
  );
}
if (crawlers.includes("bun") && crawlers.includes("crawlee"))
  summary["bun/crawlee pages_per_min (per round)"] = paired("bun", "crawlee", "pages_per_min");
if (benches.length) summary.scrapy_bench_pages_per_min = stats(benches);
console.log(JSON.stringify(summary, null, 2));
