/**
 * What `render: "auto"` decides on the three doc sites (static HTML throughout: it must render
 * none of their pages) and what its detector costs there: every page through the crawl workers'
 * stage, then the worker's check (renderCandidate) and, for a page it hands back, the verdict
 * with the job's history as a crawl would build it.
 *
 *   WEBCORPUS_TEST_CACHE=/work/cache bun test/bench/render-detector.ts [--site python|postgres|handbook]
 */
import { parseArgs } from "node:util";
import {
  type RenderHistory,
  renderCandidate,
  renderVerdict,
  THIN_WORDS,
} from "../../src/crawl/render/detector.ts";
import { benchSite, SITE_NAMES, sitePages, workerStage } from "./support/doc-pages.ts";

const { values } = parseArgs({ options: { site: { type: "string" } } });
const stage = workerStage();
const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

let failures = 0;
for (const name of values.site ? [values.site] : SITE_NAMES) {
  const site = benchSite(name);
  const history: RenderHistory = { pages: 0, thin: 0, rendered: 0, gained: 0 };
  let pages = 0;
  let candidates = 0;
  let detectorMs = 0;
  let processMs = 0;
  const rendered: string[] = [];
  for (const page of sitePages(site)) {
    let t = cpu();
    const processed = stage.run(page);
    processMs += cpu() - t;
    t = cpu();
    const candidate = renderCandidate("auto", page.body, processed.doc.words);
    detectorMs += cpu() - t;
    pages++;
    history.pages++;
    if (processed.doc.words < THIN_WORDS) history.thin++;
    if (candidate === null) continue;
    candidates++;
    const verdict = renderVerdict(candidate.signals, history);
    if (verdict.render) rendered.push(`${page.url} (${verdict.reason})`);
  }
  if (rendered.length > 0) failures++;
  console.log(
    `${name}: ${pages} pages, ${candidates} scanned with scripts, ${rendered.length} to render; ` +
      `detector ${((detectorMs / pages) * 1000).toFixed(1)} µs/page CPU against ${(processMs / pages).toFixed(2)} ms/page processing`,
  );
  for (const line of rendered.slice(0, 10)) console.log(`  ${line}`);
}
process.exit(failures > 0 ? 1 : 0);
