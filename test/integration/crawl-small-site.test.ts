/** A hand-written site crawled for real: buckets, budget, refresh, duplicates, citations. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { type Crawler, crawler, expectInvariant } from "../helpers/crawl.ts";
import { PROSE, page, REDIRECT, STATUS, serveSite, type TestSite } from "../helpers/site.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const DOMAIN = "acme.test";
const NAV =
  '<a href="/">Home</a> <a href="/docs/install.html">Install</a> <a href="/blog/post1.html">Blog</a> <a href="/docs/usage.html">Usage</a>';

const PAGES: Record<string, string> = {
  "/robots.txt": "User-agent: *\nDisallow: /private/\nSitemap: http://acme.test/sitemap.xml\n",
  "/sitemap.xml":
    '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://acme.test/</loc></url><url><loc>http://acme.test/docs/usage.html</loc><lastmod>2026-02-01</lastmod></url><url><loc>http://acme.test/sitemap-only.html</loc></url></urlset>',
  "/": page(
    "Acme Widgets",
    `<p>${PROSE.repeat(3)}</p><p>Start with the <a href="/docs/install.html">install guide</a>. <a href="/private/admin.html">Admin</a> <a href="/old">Old docs</a> <a href="/gone.html">Gone</a> <a href="/broken.html">Broken</a> <a href="/copy.html">Copy</a> <a href="/alias.html">Alias</a> <a href="/hidden.html">Hidden</a> <a href="/manual.docx">Manual</a></p>`,
    NAV,
  ),
  "/docs/install.html": page(
    "Install",
    `<p>${PROSE.repeat(4)}</p><pre><code class="language-sh">pip install acme</code></pre>`,
    NAV,
  ),
  "/docs/usage.html": page("Usage", `<p>${PROSE.repeat(2)} Usage of queues.</p>`, NAV),
  "/blog/post1.html": page(
    "Why we lease jobs",
    `<p>${PROSE.repeat(3)} Leases.</p><p>See <a href="/docs/install.html">how to install it</a>.</p>`,
    NAV,
  ),
  "/sitemap-only.html": page("Only in the sitemap", `<p>${PROSE} Sitemap.</p>`, NAV),
  "/old": `${REDIRECT}/docs/usage.html`,
  "/gone.html": `${STATUS}410:gone`,
  "/broken.html": `${STATUS}500:boom`,
  "/copy.html": page(
    "Install",
    `<p>${PROSE.repeat(4)}</p><pre><code class="language-sh">pip install acme</code></pre>`,
    NAV,
  ),
  "/alias.html": `<!doctype html><html><head><title>Alias</title><link rel="canonical" href="http://acme.test/docs/usage.html"></head><body><main><p>${PROSE}</p></main></body></html>`,
  "/hidden.html": `<!doctype html><html><head><title>Hidden</title><meta name="robots" content="noindex"></head><body><main><p>${PROSE}</p></main></body></html>`,
  "/manual.docx": "PK",
};

let site: TestSite;
let c: Crawler;

beforeAll(() => {
  site = serveSite(DOMAIN, { ...PAGES });
  c = crawler({ CONNECT_TO: site.connectTo() });
});
afterAll(async () => {
  c.close();
  await site.stop();
});

test("a full crawl accounts for every URL and indexes every allowed page", async () => {
  const view = await c.crawl(DOMAIN);
  expectInvariant(view);
  expect(view.state).toBe("completed");
  const b = view.coverage.buckets;
  expect(b.indexed.count).toBe(5);
  expect(b.robots.sample).toEqual(["http://acme.test/private/admin.html"]);
  expect(b.redirected.sample).toEqual(["http://acme.test/old"]);
  expect(b.clientError.sample).toEqual(["http://acme.test/gone.html"]);
  expect(b.serverError.sample).toEqual(["http://acme.test/broken.html"]);
  expect(b.noindex.sample).toEqual(["http://acme.test/hidden.html"]);
  expect(b.filtered.sample).toEqual(["http://acme.test/manual.docx"]);
  expect(new Set(b.duplicate.sample)).toEqual(
    new Set(["http://acme.test/copy.html", "http://acme.test/alias.html"]),
  );
  expect(site.count("/private/admin.html")).toBe(0);
  expect(site.count("/manual.docx")).toBe(0);
  expect(site.count("/broken.html")).toBe(3); // two retries
  const pages = c.store.read.$client
    .query<{ url: string; published: string | null }, []>(
      "SELECT url, published FROM pages ORDER BY url",
    )
    .all();
  expect(pages.map((p) => p.url)).toEqual([
    "http://acme.test/",
    "http://acme.test/blog/post1.html",
    "http://acme.test/docs/install.html",
    "http://acme.test/docs/usage.html",
    "http://acme.test/sitemap-only.html",
  ]);
  expect(pages.find((p) => p.url.endsWith("/usage.html"))?.published).toBe("2026-02-01");
});

test("every fetched URL's ledger row, and each stored page's history row, has its response time", () => {
  const db = c.store.read.$client;
  const untimed = db
    .query<{ url: string }, []>(
      "SELECT url FROM job_urls WHERE http_status IS NOT NULL AND elapsed_ms IS NULL",
    )
    .all();
  expect(untimed).toEqual([]);
  const fetched = db
    .query<{ n: number }, []>("SELECT count(*) AS n FROM job_urls WHERE http_status IS NOT NULL")
    .get();
  expect(fetched?.n).toBeGreaterThanOrEqual(10);
  const history = db
    .query<{ url: string; ms: number | null }, []>(
      "SELECT p.url, h.elapsed_ms AS ms FROM page_history h JOIN pages p ON p.id = h.page_id",
    )
    .all();
  expect(history).toHaveLength(5);
  for (const row of history) expect(row.ms).toBeGreaterThanOrEqual(0);
});

test("body citations count links from other pages' content, not the navigation", () => {
  const rows = c.store.read.$client
    .query<{ url: string; n: number }, []>(
      "SELECT url, inlinks_body AS n FROM pages ORDER BY n DESC, url",
    )
    .all();
  expect(rows[0]).toEqual({ url: "http://acme.test/docs/install.html", n: 2 });
  expect(rows.find((r) => r.url === "http://acme.test/")?.n).toBe(0);
});

test("a budget leaves the rest in the budget bucket, with its reason: partial, never completed", async () => {
  const small = crawler({ CONNECT_TO: site.connectTo() });
  try {
    const view = await small.crawl(DOMAIN, { budget: 3 });
    expectInvariant(view);
    expect(view.state).toBe("partial");
    expect(view.progress.fetched).toBe(3);
    expect(view.coverage.buckets.budget.count).toBeGreaterThan(0);
    expect(view.coverage.buckets.budget.reasons).toEqual([
      { reason: "budget of 3 pages spent", count: view.coverage.buckets.budget.count },
    ]);
  } finally {
    small.close();
  }
});

test("a second crawl leaves indexed pages alone; refresh asks conditionally; an edit is re-indexed with history", async () => {
  const before = site.count("/docs/install.html");
  const again = await c.crawl(DOMAIN);
  expectInvariant(again);
  expect(again.coverage.buckets.unchanged.count).toBe(5);
  expect(again.coverage.buckets.indexed.count).toBe(0);
  expect(site.count("/docs/install.html")).toBe(before);

  site.pages["/docs/usage.html"] = page(
    "Usage",
    `<p>${PROSE.repeat(2)} Usage of queues, edited.</p>`,
    NAV,
  );
  const refreshed = await c.crawl(DOMAIN, { refresh: true });
  expectInvariant(refreshed);
  expect(refreshed.state).toBe("completed");
  expect(refreshed.coverage.buckets.indexed.sample).toEqual(["http://acme.test/docs/usage.html"]);
  expect(refreshed.coverage.buckets.unchanged.count).toBe(4);
  const history = c.store.read.$client
    .query<{ changed: number; status: number }, []>(
      "SELECT h.changed, h.status FROM page_history h JOIN pages p ON p.id = h.page_id WHERE p.url = 'http://acme.test/docs/usage.html' ORDER BY h.id",
    )
    .all();
  expect(history.length).toBeGreaterThanOrEqual(2);
  expect(history.at(-1)).toEqual({ changed: 1, status: 200 });
  const body = c.store.read.$client
    .query<{ markdown: string }, []>(
      "SELECT b.markdown FROM page_bodies b JOIN pages p ON p.id = b.page_id WHERE p.url = 'http://acme.test/docs/usage.html'",
    )
    .get();
  expect(body?.markdown).toContain("edited");
  const home = c.store.read.$client
    .query<{ status: number }, []>(
      "SELECT h.status FROM page_history h JOIN pages p ON p.id = h.page_id WHERE p.url = 'http://acme.test/' ORDER BY h.id DESC LIMIT 1",
    )
    .get();
  expect(home?.status).toBe(304);
});
