/**
 * The crawl workers' CPU stage alone, on one thread: every page of a doc site (as the server
 * serves it) through processPage, the function the workers run. Prints thread CPU ms per page
 * (process.threadCpuUsage) and each stage's share (processPage's own laps), after a warm-up pass
 * so the JIT has compiled what a long crawl runs. For the functions inside the stages:
 *
 *   bun test/bench/crawl-stages.ts [--site python|postgres|handbook] [--limit N] [--rounds 2]
 *   bun --cpu-prof-md --cpu-prof-dir=/tmp/prof test/bench/crawl-stages.ts   (function profile)
 */
import { parseArgs } from "node:util";
import { processPage } from "../../src/crawl/process-page.ts";
import { benchSite, sitePages } from "./support/doc-pages.ts";

const { values } = parseArgs({
  options: {
    site: { type: "string", default: "python" },
    limit: { type: "string", default: "0" },
    rounds: { type: "string", default: "2" },
  },
});
const site = benchSite(values.site);
const pages = sitePages(site, Number(values.limit));
const bytes = pages.reduce((n, p) => n + p.body.length, 0);
console.log(
  `${site.host}: ${pages.length} pages, ${(bytes / pages.length / 1024).toFixed(0)} KB each on average`,
);

const headers = { "content-type": "text/html" };
for (let round = 0; round <= Number(values.rounds); round++) {
  const stages: Record<string, number> = {};
  const cpu0 = process.threadCpuUsage();
  const wall0 = performance.now();
  for (const { url, body } of pages) {
    const page = processPage(body, url, { headers });
    for (const [stage, ms] of Object.entries(page.timings))
      stages[stage] = (stages[stage] ?? 0) + ms;
  }
  const cpu = process.threadCpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / pages.length;
  const wallMs = (performance.now() - wall0) / pages.length;
  const total = Object.values(stages).reduce((a, b) => a + b, 0);
  const shares = Object.entries(stages)
    .map(([s, ms]) => `${s} ${((ms / total) * 100).toFixed(1)}%`)
    .join(", ");
  console.log(
    `${round === 0 ? "warm-up" : `round ${round}`}: ${cpuMs.toFixed(1)} CPU ms/page (${wallMs.toFixed(1)} wall); ${shares}`,
  );
}
