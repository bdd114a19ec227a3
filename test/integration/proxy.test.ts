/** A proxy in the environment does not take the crawler's connections elsewhere. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { crawler } from "../helpers/crawl.ts";
import { PROSE, page, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(60_000);

let site: TestSite | null = null;
afterEach(async () => {
  await site?.stop();
});

test("HTTP_PROXY is ignored: the crawl connects to the checked address itself", async () => {
  site = serveSite("proxy.test", { "/": page("Home", `<p>${PROSE}</p>`) });
  process.env.HTTP_PROXY = "http://127.0.0.1:9";
  process.env.http_proxy = "http://127.0.0.1:9";
  const c = crawler({ CONNECT_TO: site.connectTo() });
  try {
    const view = await c.crawl("proxy.test");
    expect(view.coverage.buckets.indexed.count).toBe(1);
    expect(process.env.HTTP_PROXY).toBeUndefined();
  } finally {
    c.close();
  }
});
