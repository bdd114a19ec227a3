/**
 * Preloaded into `bun src/cli.ts crawl` by the crawl benchmark (`bun --preload`): sums the CPU
 * milliseconds per processing stage the crawl workers report with each page (extract, facets,
 * chunk, simhash, hashes) and writes them to $BENCH_STAGES_FILE when the process exits. The
 * crawl itself runs unchanged: only CrawlPool.run's results are read on their way back.
 */
import { writeFileSync } from "node:fs";
import { CrawlPool } from "../../../src/crawl/worker-pool.ts";

const out = process.env.BENCH_STAGES_FILE;
if (out && Bun.isMainThread) {
  const totals: Record<string, number> = {};
  let pages = 0;
  const run = CrawlPool.prototype.run;
  CrawlPool.prototype.run = async function (this: CrawlPool, task) {
    const result = await run.call(this, task);
    if (result.kind === "done" && result.page) {
      pages++;
      for (const [stage, ms] of Object.entries(result.page.timings))
        totals[stage] = (totals[stage] ?? 0) + ms;
    }
    return result;
  };
  process.on("exit", () => writeFileSync(out, JSON.stringify({ pages, totals })));
}
