/**
 * What a budget reaches (issue 32 §2): for each doc site of the site suite, a full crawl ranks its
 * pages by `inlinks_body` (body citations, template links left out); then crawls with budgets of
 * 10%, 25% and 50% of the site's pages, once in the frontier's expected-value order (the default)
 * and once breadth-first (`WEBCORPUS_FRONTIER_ORDER=bfs`, the former order), count how many of
 * the top 100 pages each reached. Each crawl is `bun src/cli.ts crawl` on a fresh data dir
 * against test/sites/support/serve-doc-sites.ts, embeddings off. Prints a markdown table.
 *
 *   WEBCORPUS_TEST_CACHE=/work/cache bun test/bench/budget-priority.ts \
 *     [--sites python,postgres,handbook] [--budgets 10,25,50] [--top 100]
 *
 * The handbook (every language) is the slow one: its full crawl takes a minute or two.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../sites/support/debian-docs.ts";
import { docSites } from "../sites/support/doc-sites.ts";
import { cleanEnv, type DocServerProcess, startDocServer } from "./support/crawl-runners.ts";

const SITES: Readonly<Record<string, string>> = {
  python: "docs.python.org",
  postgres: "www.postgresql.org",
  handbook: "debian-handbook.info",
};

const { values } = parseArgs({
  options: {
    sites: { type: "string", default: "python,postgres,handbook" },
    budgets: { type: "string", default: "10,25,50" },
    top: { type: "string", default: "100" },
  },
});
const siteNames = (values.sites ?? "").split(",").filter(Boolean);
const shares = (values.budgets ?? "").split(",").map(Number);
const TOP = Number(values.top);
for (const name of siteNames)
  if (!SITES[name]) throw new Error(`--sites: ${name} is not one of ${Object.keys(SITES)}`);

interface Crawled {
  readonly urls: Set<string>;
  /** Pages ranked above the 100th page's `inlinks_body`, and those tied with it. */
  readonly above: string[];
  readonly tied: string[];
  readonly seconds: number;
}

/**
 * How many of the top `TOP` a crawl reached. Pages tied with the `TOP`th on `inlinks_body` are
 * all equally "in the top": any of them counts, up to the places left (the handbook has 26 pages
 * tied for its last 22 places; an order by URL would make the count depend on the alphabet).
 */
function reachedTop(full: Crawled, urls: Set<string>): number {
  const above = full.above.filter((u) => urls.has(u)).length;
  const tied = full.tied.filter((u) => urls.has(u)).length;
  return above + Math.min(tied, TOP - full.above.length);
}

async function crawl(
  server: DocServerProcess,
  domain: string,
  budget: number,
  order: "value" | "bfs",
): Promise<Crawled> {
  const dataDir = mkdtempSync(join(tmpdir(), "wc-bench-priority-"));
  const t0 = performance.now();
  try {
    const proc = Bun.spawn(["bun", "src/cli.ts", "crawl", domain, "--budget", String(budget)], {
      cwd: REPO_ROOT,
      env: {
        ...cleanEnv(),
        WEBCORPUS_DATA_DIR: dataDir,
        WEBCORPUS_CONNECT_TO: server.connectTo,
        WEBCORPUS_CONNECT_TO_ONLY: "true",
        WEBCORPUS_CRAWL_DELAY_S: "0",
        WEBCORPUS_ADAPTIVE_DELAY: "false",
        WEBCORPUS_HOST_CONCURRENCY: "8",
        WEBCORPUS_MAX_CONCURRENCY: "8",
        WEBCORPUS_EMBEDDINGS: "false",
        WEBCORPUS_MAX_BUDGET: "100000",
        WEBCORPUS_FRONTIER_ORDER: order,
      },
      stdout: "ignore",
      stderr: "inherit",
    });
    if ((await proc.exited) !== 0) throw new Error(`the crawl of ${domain} failed`);
    const db = new Database(join(dataDir, "webcorpus.db"), { readonly: true });
    try {
      const rows = db
        .query<{ url: string; n: number }, []>(
          "SELECT url, inlinks_body AS n FROM pages ORDER BY inlinks_body DESC, url",
        )
        .all();
      const cut = rows[TOP - 1]?.n ?? 0;
      return {
        urls: new Set(rows.map((r) => r.url)),
        above: rows.filter((r) => r.n > cut).map((r) => r.url),
        tied: rows.filter((r) => r.n === cut).map((r) => r.url),
        seconds: (performance.now() - t0) / 1000,
      };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

docSites();
const server = await startDocServer();
const lines: string[] = [
  `| site | pages | budget | top ${TOP} reached, breadth-first | top ${TOP} reached, expected value |`,
  "|---|--:|--:|--:|--:|",
];
try {
  for (const name of siteNames) {
    const domain = SITES[name] as string;
    const full = await crawl(server, domain, 100_000, "value");
    const n = full.urls.size;
    console.error(`${domain}: full crawl ${n} pages in ${full.seconds.toFixed(0)} s`);
    for (const share of shares) {
      const budget = Math.round((share / 100) * n);
      const reached: Record<string, number> = {};
      for (const order of ["bfs", "value"] as const) {
        const run = await crawl(server, domain, budget, order);
        reached[order] = reachedTop(full, run.urls);
        console.error(
          `${domain} budget ${budget} (${share}%) ${order}: ${reached[order]}/${TOP} (${run.seconds.toFixed(0)} s)`,
        );
      }
      lines.push(
        `| ${domain} | ${n} | ${budget} (${share}%) | ${reached.bfs} | ${reached.value} |`,
      );
    }
  }
} finally {
  server.stop();
}
console.log(lines.join("\n"));
