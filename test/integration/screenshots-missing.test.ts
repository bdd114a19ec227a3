/** A crawl that asks for screenshots without a browser: completed, the job view says why. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { crawler, expectInvariant } from "../helpers/crawl.ts";
import { PROSE, page, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(60_000);

let site: TestSite | null = null;
afterEach(async () => {
  await site?.stop();
});

test("no browser: the crawl completes and the report names the missing browser", async () => {
  site = serveSite("nobrowser.test", { "/": page("Home", `<p>${PROSE}</p>`) });
  const c = crawler({ CONNECT_TO: site.connectTo(), CHROMIUM_PATH: "/nonexistent/chromium" });
  try {
    const view = await c.crawl("nobrowser.test", { shots: true });
    expectInvariant(view);
    expect(view.state).toBe("completed");
    expect(view.params.shots).toBe(10);
    expect(view.screenshots).toEqual({
      requested: 1,
      taken: 0,
      failed: [],
      error: "no browser at WEBCORPUS_CHROMIUM_PATH=/nonexistent/chromium",
    });
  } finally {
    c.close();
  }
});
