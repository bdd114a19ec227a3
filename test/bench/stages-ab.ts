/**
 * In-process A/B of the crawl workers' stage: processPage of two source trees (each with its own
 * node_modules, e.g. `git archive` of two commits plus `bun install`) over the same pages in one
 * process, alternating which goes first each round. On shared, loaded cores the two see the same
 * load, which separate runs do not (crawl-stages.ts run after run varied 17-23 CPU ms/page).
 *
 *   bun test/bench/stages-ab.ts DIR_A DIR_B [--rounds 8] [--limit N] [--site python]
 */
import { parseArgs } from "node:util";
import type { processPage as ProcessPage } from "../../src/crawl/process-page.ts";
import { benchSite, sitePages } from "./support/doc-pages.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "8" },
    limit: { type: "string", default: "0" },
    site: { type: "string", default: "python" },
  },
});
const [dirA, dirB] = positionals;
if (!dirA || !dirB) throw new Error("usage: stages-ab.ts DIR_A DIR_B");
const load = async (dir: string): Promise<typeof ProcessPage> =>
  (await import(`${dir}/src/crawl/process-page.ts`)).processPage;
const variants = [
  { name: "A", run: await load(dirA), ms: [] as number[], stages: {} as Record<string, number> },
  { name: "B", run: await load(dirB), ms: [] as number[], stages: {} as Record<string, number> },
];
const pages = sitePages(benchSite(values.site), Number(values.limit));
const headers = { "content-type": "text/html" };
const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const rounds = Number(values.rounds);
for (let round = 0; round <= rounds; round++) {
  const order = round % 2 ? variants : [...variants].reverse();
  for (const v of order) {
    Bun.gc(true);
    const t = cpu();
    for (const { url, body } of pages) {
      const page = v.run(body, url, { headers });
      if (round > 0)
        for (const [s, ms] of Object.entries(page.timings)) v.stages[s] = (v.stages[s] ?? 0) + ms;
    }
    if (round > 0) v.ms.push((cpu() - t) / pages.length); // round 0 warms the JIT
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
for (const v of variants) {
  const stages = Object.entries(v.stages)
    .map(([s, ms]) => `${s} ${(ms / rounds / pages.length).toFixed(2)}`)
    .join(", ");
  console.log(
    `${v.name}: median ${median(v.ms).toFixed(2)} CPU ms/page, rounds ${v.ms.map((x) => x.toFixed(1)).join(" ")}; ${stages}`,
  );
}
const [a, b] = variants as [(typeof variants)[0], (typeof variants)[0]];
const ratios = b.ms.map((x, i) => x / (a.ms[i] ?? x));
console.log(
  `B/A per round ${ratios.map((x) => x.toFixed(3)).join(" ")}; median ${median(ratios).toFixed(3)}`,
);
