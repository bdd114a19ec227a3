// Crawlee's CheerioCrawler with a do-nothing handler (it only enqueues the page's links, as any
// crawl must), run by test/bench/crawl-bench.ts with node from the temp dir crawlee was
// installed in: node crawlee-crawl.mjs PORT HOST BUDGET CONCURRENCY STORAGE_DIR. Every request
// goes to 127.0.0.1:PORT with `Host: HOST`; prints Crawlee's final statistics as JSON.
import { CheerioCrawler, Configuration, log } from "crawlee";

const [port, host, budget, concurrency, storage] = process.argv.slice(2);
log.setLevel(log.LEVELS.WARNING);
const config = new Configuration({
  persistStorage: false,
  storageClientOptions: { localDataDirectory: storage },
});
const crawler = new CheerioCrawler(
  {
    maxRequestsPerCrawl: Number(budget),
    minConcurrency: Number(concurrency),
    maxConcurrency: Number(concurrency),
    maxRequestRetries: 0,
    preNavigationHooks: [
      (_context, gotOptions) => {
        gotOptions.headers = { ...gotOptions.headers, host };
      },
    ],
    async requestHandler({ enqueueLinks }) {
      await enqueueLinks();
    },
  },
  config,
);
const stats = await crawler.run([`http://127.0.0.1:${port}/`]);
console.log(JSON.stringify(stats));
