/**
 * Screenshots in Debian's Chromium: every request of the browser answered by the crawler's
 * fetcher (the SSRF guard refuses an internal address, robots.txt keeps a disallowed image
 * unasked); a browser that dies mid-page is reported and the crawl is unaffected.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { inflateSync } from "node:zlib";
import { pageId } from "../../src/crawl/urls.ts";
import { pageScreenshot, pageView } from "../../src/services/content-service.ts";
import { crawler, expectInvariant } from "../helpers/crawl.ts";
import { PROSE, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(120_000);

const STYLED = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><link rel="stylesheet" href="/style.css"></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

function pages(): Record<string, string> {
  return {
    "/robots.txt": "User-agent: *\nDisallow: /private/\n",
    "/": STYLED(
      "Acme Widgets",
      `<p>${PROSE}</p><a href="/docs.html">docs</a><img src="http://10.0.0.1/secret.png" alt=""><img src="/private/logo.png" alt="">`,
    ),
    "/docs.html": STYLED("Docs", `<p>${PROSE} Docs.</p>`),
    "/style.css": "body { background: #ffddee; margin: 0 }",
  };
}

/** RGB of a PNG's first pixel (8-bit RGB or RGBA, as Chromium writes them). */
function topLeftPixel(png: Uint8Array): [number, number, number] {
  const view = Buffer.from(png);
  const width = view.readUInt32BE(16);
  const chunks: Buffer[] = [];
  for (let pos = 8; pos < view.length; ) {
    const length = view.readUInt32BE(pos);
    if (view.toString("latin1", pos + 4, pos + 8) === "IDAT")
      chunks.push(view.subarray(pos + 8, pos + 8 + length));
    pos += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(chunks));
  expect(rows.length).toBeGreaterThan(width);
  return [rows[1] ?? -1, rows[2] ?? -1, rows[3] ?? -1];
}

let site: TestSite | null = null;
afterEach(async () => {
  await site?.stop();
});

test("the homepage and the most cited page are shot through the crawler's fetcher", async () => {
  site = serveSite("shots.test", pages());
  const c = crawler({ CONNECT_TO: site.connectTo() });
  try {
    const view = await c.crawl("shots.test", { shots: 2 });
    expectInvariant(view);
    expect(view.state).toBe("completed");
    expect(view.screenshots).toEqual({ requested: 2, taken: 2, failed: [] });
    expect(site.count("/private/logo.png")).toBe(0);
    const home = pageView(c.store.read, pageId("http://shots.test/"));
    expect(home.screenshots[0]?.width).toBe(1280);
    const png = pageScreenshot(c.store.read, pageId("http://shots.test/"));
    expect(topLeftPixel(png)).toEqual([0xff, 0xdd, 0xee]);
  } finally {
    c.close();
  }
});

test("a browser that dies mid-page is reported; the crawl completes", async () => {
  const p = pages();
  site = serveSite("dying.test", p);
  const original = p["/style.css"] as string;
  // Chromium is killed at its first stylesheet request: whatever the machine's speed.
  p["/style.css"] = "killed";
  const c = crawler({ CONNECT_TO: site.connectTo() });
  const killer = setInterval(() => {
    if (site?.count("/style.css")) {
      Bun.spawnSync(["pkill", "-9", "-f", "--", "--proxy-server=http://127.0.0.1:9"]);
      clearInterval(killer);
    }
  }, 5);
  try {
    const view = await c.crawl("dying.test", { shots: 2 });
    expect(view.state).toBe("completed");
    expect(view.coverage.buckets.indexed.count).toBe(2);
    const report = view.screenshots as { taken: number; error?: string };
    expect(report.taken).toBe(0);
    expect(report.error).toMatch(/browser/);
  } finally {
    clearInterval(killer);
    p["/style.css"] = original;
    c.close();
  }
});
