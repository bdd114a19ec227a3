/**
 * The main thread's per-page search work alone: every page of a doc site processed once (extract,
 * facets, chunks with the model's word pieces, as the crawl workers do), then timed on this
 * thread: chunking again, tokenizing the chunks, and upserting the pages into a fresh shard
 * (what the search indexer does for each stored page). Thread CPU ms per page, several rounds.
 *
 *   bun test/bench/index-stages.ts [--site python|postgres|handbook] [--limit N] [--rounds 3]
 *   bun --cpu-prof-md --cpu-prof-dir=/tmp/prof test/bench/index-stages.ts   (function profile)
 */
import { parseArgs } from "node:util";
import type { ProcessedPage } from "../../src/crawl/process-page.ts";
import { Shard, shardPage } from "../../src/search/shard.ts";
import { tokens } from "../../src/search/tokenizer.ts";
import { benchSite, sitePages, workerStage } from "./support/doc-pages.ts";

const { values } = parseArgs({
  options: {
    site: { type: "string", default: "python" },
    limit: { type: "string", default: "0" },
    rounds: { type: "string", default: "3" },
  },
});
const site = benchSite(values.site);
const { chunk, run } = workerStage();
const pages: { url: string; page: ProcessedPage }[] = sitePages(site, Number(values.limit)).map(
  (p) => ({ url: p.url, page: run(p) }),
);
const chunkCount = pages.reduce((n, p) => n + p.page.chunks.length, 0);
console.log(`${site.host}: ${pages.length} pages, ${chunkCount} chunks`);

const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const time = (f: () => void) => {
  const t = cpu();
  f();
  return (cpu() - t) / pages.length;
};
for (let round = 0; round <= Number(values.rounds); round++) {
  const chunkMs = time(() => {
    for (const { page } of pages) chunk(page.doc.markdown, page.doc.title);
  });
  const tokenizeMs = time(() => {
    for (const { page } of pages)
      for (const c of page.chunks) {
        tokens(page.doc.title ?? "");
        tokens(c.heading);
        tokens(c.text);
      }
  });
  const shard = new Shard("bench");
  const upsertMs = time(() => {
    for (const { url, page } of pages)
      shard.upsertPage(shardPage(url, page.doc.title, page.textHash, page.facets, page.chunks));
  });
  shard.dispose();
  console.log(
    `${round === 0 ? "warm-up" : `round ${round}`}: chunk ${chunkMs.toFixed(2)}, tokenize ${tokenizeMs.toFixed(2)}, shard upsert ${upsertMs.toFixed(2)} CPU ms/page`,
  );
}
