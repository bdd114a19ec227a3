/**
 * A small crawl behind an embedding backlog, end to end (issue 29: a 16-page crawl started
 * behind the backlog took 173 s to become searchable): a backlog of realistic chunks (~120 words)
 * of an older job being embedded on the default lanes, then a crawl of a 16-page site on
 * loopback. Prints when its pages were stored and when every chunk of it had its vector.
 *
 *   bun test/bench/fair-embedding.ts [backlog chunks, default 30000] [pages, default 16]
 */
import { rmSync } from "node:fs";
import { CrawlScheduler } from "../../src/crawl/crawl-scheduler.ts";
import { embeddingBacklog } from "../../src/db/chunks-repo.ts";
import { crawlRequest, startCrawl } from "../../src/services/crawl-service.ts";
import { tempDir } from "../helpers/app.ts";
import { searchCrawler } from "../helpers/crawl.ts";
import { testJob, writePage } from "../helpers/pages.ts";
import { PROSE, page, serveSite } from "../helpers/site.ts";

const backlogChunks = Number(process.argv[2] ?? 30_000);
const pages = Number(process.argv[3] ?? 16);
const paths = Array.from({ length: pages }, (_, i) => (i === 0 ? "/" : `/p${i}.html`));
const nav = paths.map((p) => `<a href="${p}">${p}</a>`).join(" ");
const site = serveSite(
  "small.test",
  Object.fromEntries(
    paths.map((p, i) => [
      p,
      page(
        `Page ${i}`,
        `<h2>One</h2><p>${PROSE.repeat(4)} ${i}</p><h2>Two</h2><p>${PROSE.repeat(4)}</p>`,
        nav,
      ),
    ]),
  ),
);
const dir = tempDir();
const c = await searchCrawler({ CONNECT_TO: site.connectTo(), EMBEDDINGS: "true" }, dir);
const db = c.store.write;
const BIG = "job_0000000000000big";
testJob(db, "big.test", BIG);
const text = `${PROSE}${PROSE}${PROSE}`.trim(); // ~120 words, a docs paragraph
db.$client.transaction(() => {
  for (let p = 0; p < backlogChunks / 100; p++)
    writePage(db, BIG, {
      url: `http://big.test/p${p}.html`,
      chunks: Array.from({ length: 100 }, (_, i) => ({
        index: i,
        heading: `S${i}`,
        text: `${text} ${p}.${i}`,
        tokens: 160,
      })),
    });
})();
c.search.indexer.wakeEmbedding();
while (embeddingBacklog(c.store.read, BIG) === backlogChunks) await Bun.sleep(50);
const t0 = performance.now();
const job = startCrawl(db, crawlRequest(c.config, { domain: "small.test" }), null, null);
const scheduler = new CrawlScheduler(
  {
    config: c.config,
    db,
    indexer: c.search.indexer,
    embeddingBacklog: c.search.embeddingBacklog,
    log: () => {},
  },
  { only: job.id },
);
scheduler.start();
let stored = 0;
for (;;) {
  const p = c.view(job.id).progress;
  if (!stored && p.indexed === pages) stored = performance.now();
  if (stored && p.embedding_backlog === 0) break;
  await Bun.sleep(50);
}
const searchable = performance.now();
const p = c.view(job.id).progress;
console.log(
  JSON.stringify({
    backlog: backlogChunks,
    pages,
    small_job_chunks: p.embedded_chunks,
    stored_s: Math.round((stored - t0) / 100) / 10,
    searchable_s: Math.round((searchable - t0) / 100) / 10,
    stored_to_searchable_s: Math.round((searchable - stored) / 100) / 10,
    backlog_left: embeddingBacklog(c.store.read, BIG),
    lanes: c.config.embedThreads || navigator.hardwareConcurrency,
  }),
);
await scheduler.stop();
await c.closeAsync();
await site.stop();
rmSync(dir, { recursive: true, force: true });
