/** The crawl worker pool: a worker that dies mid-page is replaced and the page retried; a page
 * that runs past the processing timeout lands in fetchError and its worker is replaced. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { testConfig } from "../../src/config.ts";
import { HostThrottle } from "../../src/crawl/politeness.ts";
import { CrawlPool } from "../../src/crawl/worker-pool.ts";
import { crawler, expectInvariant } from "../helpers/crawl.ts";
import { PROSE, page, SLOW, serveSite, type TestSite } from "../helpers/site.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

let site: TestSite | null = null;
let pool: CrawlPool | null = null;
afterEach(async () => {
  await pool?.close();
  await site?.stop();
  pool = null;
});

const task = (url: string) => ({ url, etag: null, lastModified: null, sitemapLastmod: null });

test("a page whose worker is killed mid-fetch is retried on the replacement", async () => {
  site = serveSite("pool.test", { "/slow.html": `${SLOW}0.5:${page("Slow", `<p>${PROSE}</p>`)}` });
  const config = testConfig({
    CONNECT_TO: site.connectTo(),
    CONNECT_TO_ONLY: "true",
    CRAWL_DELAY_S: "0",
  });
  pool = new CrawlPool(config, { size: 1, pacer: HostThrottle.fromConfig(config) });
  const running = pool.run(task("http://pool.test/slow.html"));
  // Killed once its request has reached the site: deterministic whatever the machine's speed.
  while (site.count("/slow.html") === 0) await Bun.sleep(10);
  const [worker] = pool.workers();
  worker?.terminate();
  const result = await running;
  expect(result.kind).toBe("done");
  if (result.kind === "done") expect(result.page?.doc.title).toBe("Slow");
  expect(pool.replaced).toBe(1);
  expect(site.count("/slow.html")).toBe(2);
});

test("a page past the processing timeout lands in fetchError; the crawl goes on", async () => {
  site = serveSite("hang.test", {
    "/": page("Home", `<p>${PROSE.repeat(40)}</p><a href="/a.html">a</a>`),
    "/a.html": page("A", `<p>${PROSE.repeat(40)}</p>`),
  });
  const c = crawler({ CONNECT_TO: site.connectTo(), PROCESSING_TIMEOUT_S: "0.0001" });
  try {
    const view = await c.crawl("hang.test");
    expectInvariant(view);
    expect(view.coverage.buckets.fetchError.count).toBeGreaterThanOrEqual(1);
    expect(view.coverage.buckets.fetchError.reasons?.[0]?.reason).toContain(
      "processing ran past 0.0001 s",
    );
    expect(["completed", "partial"]).toContain(view.state);
  } finally {
    c.close();
  }
});
