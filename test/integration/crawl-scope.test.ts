/**
 * Issue 32 §1, crawled for real on two hosts of one domain: scope domain / host / URL prefix,
 * include and exclude globs, start URLs; every URL in one bucket, refusals booked with reasons;
 * bad fields a 400 (HTTP) or a tool error (MCP) naming the field and the pattern.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { CrawlBody } from "../../src/services/crawl-service.ts";
import { domainRecord } from "../../src/services/domains-service.ts";
import { type Crawler, crawler, expectInvariant } from "../helpers/crawl.ts";
import { type LiveServer, live } from "../helpers/live.ts";
import { call, errorText } from "../helpers/mcp.ts";
import { PROSE, page, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(60_000);

const DOMAIN = "acme.test";
const MAIN: Record<string, string> = {
  "/robots.txt": "User-agent: *\nSitemap: http://acme.test/sitemap.xml\n",
  "/sitemap.xml":
    '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://acme.test/</loc></url><url><loc>http://acme.test/blog/b1.html</loc></url><url><loc>http://docs.acme.test/3/a.html</loc></url></urlset>',
  "/": page(
    "Acme",
    `<p>${PROSE}</p><a href="/blog/b1.html">B1</a> <a href="/about.html">About</a> <a href="/genindex.html">Index</a> <a href="http://docs.acme.test/3/">Docs</a>`,
  ),
  "/blog/b1.html": page("Blog one", `<p>${PROSE} One.</p><a href="/blog/b2.html?page=2">B2</a>`),
  "/blog/b2.html": page("Blog two", `<p>${PROSE} Two.</p>`),
  "/about.html": page("About", `<p>${PROSE} About.</p>`),
  "/genindex.html": page("Index", `<p>${PROSE} Genindex.</p>`),
};
const DOCS: Record<string, string> = {
  "/robots.txt": "User-agent: *\nSitemap: http://docs.acme.test/sitemap.xml\n",
  "/sitemap.xml":
    '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://docs.acme.test/guide/hidden.html</loc></url></urlset>',
  "/guide/hidden.html": page("Hidden guide", `<p>${PROSE} Linked from no page.</p>`),
  "/": page("Docs home", `<p>${PROSE} Docs.</p><a href="/3/">Three</a> <a href="/2/">Two</a>`),
  "/3/": page(
    "Docs 3",
    `<p>${PROSE} Version three.</p><a href="/3/a.html">A</a> <a href="/3/genindex-all.html">Index</a> <a href="/2/old.html">Old</a> <a href="http://acme.test/">Acme</a>`,
  ),
  "/3/a.html": page("Docs A", `<p>${PROSE} Page A.</p>`),
  "/3/genindex-all.html": page("Docs index", `<p>${PROSE} Docs genindex.</p>`),
  "/2/": page("Docs 2", `<p>${PROSE} Version two.</p>`),
  "/2/old.html": page("Old", `<p>${PROSE} Old.</p>`),
};

let main: TestSite;
let docs: TestSite;
let connectTo: string;

beforeAll(() => {
  main = serveSite(DOMAIN, { ...MAIN });
  docs = serveSite(`docs.${DOMAIN}`, { ...DOCS });
  connectTo = `${main.connectTo()},${docs.connectTo()}`;
});
afterAll(async () => {
  await main.stop();
  await docs.stop();
});

interface Row {
  url: string;
  bucket: string;
  reason: string | null;
  source: string;
}

async function crawl(domain: string, body: Omit<CrawlBody, "domain">) {
  const c: Crawler = crawler({ CONNECT_TO: connectTo });
  try {
    const view = await c.crawl(domain, { budget: 50, ...body });
    expectInvariant(view);
    expect(view.state).toBe("completed");
    const rows = c.store.read.$client
      .query<Row, [string]>(
        "SELECT url, bucket, reason, source FROM job_urls WHERE job_id = ? ORDER BY url",
      )
      .all(view.id);
    const params = c.store.read.$client
      .query<{ params: string }, [string]>("SELECT params FROM jobs WHERE id = ?")
      .get(view.id);
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    const indexed = rows.filter((r) => r.bucket === "indexed").map((r) => r.url);
    const record = domainRecord(c.store.read, DOMAIN, true);
    return { view, rows, byUrl, indexed, record, params: JSON.parse(params?.params ?? "{}") };
  } finally {
    c.close();
  }
}

test("the default domain scope crawls both hosts; an exclude glob books its URLs filtered", async () => {
  const { indexed, byUrl, params, record } = await crawl(DOMAIN, { exclude: ["**/genindex*"] });
  expect(params.exclude).toEqual(["**/genindex*"]);
  expect(record.coverage.scope).toEqual({
    kind: "domain",
    covers: DOMAIN,
    include: [],
    exclude: ["**/genindex*"],
    label: "acme.test and its subdomains excluding **/genindex*",
  });
  expect(params.scope).toBeUndefined();
  expect(indexed).toContain("http://acme.test/about.html");
  expect(indexed).toContain("http://docs.acme.test/3/a.html");
  expect(indexed).toContain("http://acme.test/blog/b2.html?page=2");
  // Known only from the sitemap of docs.acme.test, read when the crawl first reached that host.
  expect(byUrl.get("http://docs.acme.test/guide/hidden.html")).toMatchObject({
    bucket: "indexed",
    source: "sitemap",
  });
  for (const url of ["http://acme.test/genindex.html", "http://docs.acme.test/3/genindex-all.html"])
    expect(byUrl.get(url)).toMatchObject({
      bucket: "filtered",
      reason: "excluded by pattern **/genindex*",
    });
  expect(main.count("/genindex.html")).toBe(0);
  expect(docs.count("/3/genindex-all.html")).toBe(0);
});

test("a host scope keeps the crawl on the host it starts on", async () => {
  const before = main.count("/");
  const { indexed, byUrl, params, record } = await crawl(`docs.${DOMAIN}`, { scope: "host" });
  expect(params.scope).toBe("host");
  expect(record.coverage.scope).toMatchObject({ kind: "host", covers: "docs.acme.test" });
  expect(indexed.every((u) => u.startsWith("http://docs.acme.test/"))).toBe(true);
  expect(indexed).toContain("http://docs.acme.test/2/old.html");
  expect(byUrl.get("http://acme.test/")).toMatchObject({
    bucket: "filtered",
    reason: "outside scope: host docs.acme.test",
  });
  expect(main.count("/")).toBe(before);
});

test("a URL prefix scope starts at the prefix and crawls only under it", async () => {
  const { indexed, byUrl, params, record } = await crawl(DOMAIN, {
    scope: "http://docs.acme.test/3/",
    exclude: ["genindex*"],
  });
  expect(params.scope).toBe("http://docs.acme.test/3/");
  const label = "http://docs.acme.test/3/ excluding genindex*";
  expect(record.coverage.scope).toMatchObject({ kind: "prefix", label });
  expect(record.coverage.estimate?.scope).toBe(label);
  expect(indexed).toEqual(["http://docs.acme.test/3/", "http://docs.acme.test/3/a.html"]);
  expect(byUrl.get("http://docs.acme.test/3/")?.source).toBe("entry");
  const outside = "outside scope: http://docs.acme.test/3/";
  expect(byUrl.get("http://docs.acme.test/2/old.html")).toMatchObject({
    bucket: "filtered",
    reason: outside,
  });
  expect(byUrl.get("http://acme.test/")).toMatchObject({ bucket: "filtered", reason: outside });
  expect(byUrl.get("http://docs.acme.test/guide/hidden.html")).toMatchObject({
    bucket: "filtered",
    reason: outside,
  });
  expect(byUrl.get("http://docs.acme.test/3/genindex-all.html")).toMatchObject({
    bucket: "filtered",
    reason: "excluded by pattern genindex*",
  });
});

test("an https prefix on a site answering on http: the crawl starts on the scheme that answered", async () => {
  const { indexed } = await crawl(DOMAIN, { scope: "https://docs.acme.test/3/" });
  expect(indexed).toEqual([
    "http://docs.acme.test/3/",
    "http://docs.acme.test/3/a.html",
    "http://docs.acme.test/3/genindex-all.html",
  ]);
});

test("include globs: the entry page is fetched, only matching links follow", async () => {
  const { indexed, byUrl } = await crawl(DOMAIN, { scope: "host", include: ["/blog/**"] });
  expect(indexed).toEqual([
    "http://acme.test/",
    "http://acme.test/blog/b1.html",
    "http://acme.test/blog/b2.html?page=2",
  ]);
  expect(byUrl.get("http://acme.test/about.html")).toMatchObject({
    bucket: "filtered",
    reason: "excluded: matches no include pattern",
  });
  expect(byUrl.get("http://docs.acme.test/3/")?.reason).toBe("outside scope: host acme.test");
});

test("start URLs replace the home page as the crawl's entry", async () => {
  const { indexed, byUrl, params } = await crawl(DOMAIN, {
    start: ["http://acme.test/blog/b1.html"],
    include: ["/blog/*"],
  });
  expect(params.start).toEqual(["http://acme.test/blog/b1.html"]);
  expect(byUrl.get("http://acme.test/blog/b1.html")?.source).toBe("entry");
  expect(indexed).toEqual([
    "http://acme.test/blog/b1.html",
    "http://acme.test/blog/b2.html?page=2",
  ]);
  // The home page is known from the sitemap only, and the include pattern refuses it.
  expect(byUrl.get("http://acme.test/")).toMatchObject({ bucket: "filtered", source: "sitemap" });
});

describe("bad scope fields", () => {
  let server: LiveServer;
  beforeAll(() => {
    server = live({ CRAWL_RATE_PER_MINUTE: "1000" }, false);
  });
  afterAll(() => server.close());

  const cases: [Record<string, unknown>, string, string][] = [
    [{ exclude: ["/a["] }, "exclude", '"/a[" has an unclosed ['],
    [{ include: ["/docs/{a,b"] }, "include", '"/docs/{a,b" has an unclosed {'],
    [{ include: ["https://acme.test/x"] }, "include", "is a URL"],
    [{ exclude: [""] }, "exclude", "is empty"],
    [{ exclude: ["x".repeat(201)] }, "exclude", "at most 200 characters"],
    [{ exclude: Array.from({ length: 21 }, (_, i) => `/p${i}`) }, "exclude", "at most 20"],
    [{ scope: "subdomains" }, "scope", '"domain", "host" or a URL prefix'],
    [{ scope: "https://other.org/docs/" }, "scope", "is not under acme.org"],
    [{ start: ["ftp://acme.org/"] }, "start", "not a crawlable"],
    [{ start: ["https://other.org/"] }, "start", "is outside acme.org"],
    [
      { scope: "https://acme.org/docs/", start: ["https://acme.org/blog/"] },
      "start",
      "outside scope: https://acme.org/docs/",
    ],
  ];

  test.each(cases)("HTTP %j is a 400 naming %s", async (fields, field, message) => {
    const r = await server.send("POST", "/api/crawl", { domain: "acme.org", ...fields });
    expect(r.status).toBe(400);
    const problem = (await r.json()) as { detail: string; errors?: { field: string }[] };
    expect(problem.errors?.[0]?.field).toBe(field);
    expect(problem.detail).toContain(message);
  });

  test("HTTP: the job keeps the normalized fields in its params", async () => {
    const r = await server.send("POST", "/api/crawl", {
      domain: "scoped.org",
      scope: "HTTPS://Docs.Scoped.org/3/",
      include: ["/3/**", "/3/**"],
      start: ["https://docs.scoped.org/3/library/#top"],
    });
    expect(r.status).toBe(202);
    const { job_id } = (await r.json()) as { job_id: string };
    const job = (await (await server.get(`/api/jobs/${job_id}`)).json()) as {
      params: Record<string, unknown>;
    };
    expect(job.params).toMatchObject({
      scope: "https://docs.scoped.org/3/",
      include: ["/3/**"],
      start: ["https://docs.scoped.org/3/library/"],
    });
    expect(job.params.exclude).toBeUndefined();
  });

  test("MCP start_crawl refuses a bad pattern naming it, and takes the scope fields", async () => {
    const url = `${server.base}/api/mcp`;
    const bad = await call(
      url,
      "start_crawl",
      { domain: "acme.org", exclude: ["/a["] },
      server.api.auth,
    );
    expect(errorText(bad)).toContain('"/a[" has an unclosed [');
    const good = await call(
      url,
      "start_crawl",
      {
        domain: "acme.org",
        budget: 3,
        scope: "https://docs.acme.org/3/",
        exclude: ["**/genindex*"],
        start: ["https://docs.acme.org/3/library/"],
      },
      server.api.auth,
    );
    expect(good.isError).toBeFalsy();
  });
});
