import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { testConfig } from "../../src/config.ts";
import { Fetcher, fetcherOptions } from "../../src/crawl/fetcher.ts";
import { MAX_ROBOTS_BYTES } from "../../src/crawl/robots.ts";
import { RobotsReader } from "../../src/crawl/robots-cache.ts";
import { readSitemaps } from "../../src/crawl/sitemap-reader.ts";
import { inScope } from "../../src/crawl/urls.ts";
import { crawler, expectInvariant } from "../helpers/crawl.ts";
import { page, serveSite } from "../helpers/site.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

type Route = (req: Request) => Response | Promise<Response>;
const servers: { stop(force?: boolean): unknown }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop(true);
});

/** A site answering `routes` by path; crawled as http://site.test through a connect-to rule. */
function serve(routes: Record<string, Route>) {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      hits.push(`${req.headers.get("host")}${u.pathname}`);
      const route = routes[u.pathname];
      return route ? route(req) : new Response("not found", { status: 404 });
    },
  });
  servers.push(server);
  const config = testConfig({
    CONNECT_TO: `site.test:80:127.0.0.1:${server.port},www.site.test:80:127.0.0.1:${server.port},other.test:80:127.0.0.1:${server.port}`,
    MAX_RETRIES: "0",
  });
  return { hits, fetcher: new Fetcher(fetcherOptions(config)), config };
}

const text =
  (body: string, type = "text/plain") =>
  () =>
    new Response(body, { headers: { "content-type": type } });
const redirect = (to: string) => () =>
  new Response(null, { status: 301, headers: { location: to } });
const xml = (body: string) => text(body, "application/xml");
const urlset = (...locs: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc><lastmod>2025-01-02</lastmod></url>`).join("")}</urlset>`;

test("robots.txt answers map to policies: 503 disallows all, 404 allows all", async () => {
  const { fetcher } = serve({ "/robots.txt": () => new Response("busy", { status: 503 }) });
  const down = await new RobotsReader({ fetcher, userAgent: "webcorpus/0.2.0" }).policy(
    "http://site.test/a",
  );
  expect([down.status, down.httpStatus, down.allowed("http://site.test/a")]).toEqual([
    "unreachable",
    503,
    false,
  ]);
  const { fetcher: f2 } = serve({});
  const none = await new RobotsReader({ fetcher: f2, userAgent: "webcorpus" }).policy(
    "http://site.test/",
  );
  expect([none.status, none.httpStatus, none.allowed("http://site.test/anything")]).toEqual([
    "missing",
    404,
    true,
  ]);
});

test("robots.txt is fetched once per origin, even by concurrent askers, and redirects are followed", async () => {
  const { fetcher, hits } = serve({
    "/robots.txt": redirect("/robots-real.txt"),
    "/robots-real.txt": text(
      "User-agent: webcorpus\nDisallow: /private/\nCrawl-delay: 2\nSitemap: /sm.xml\n",
    ),
  });
  const reader = new RobotsReader({ fetcher, userAgent: "webcorpus/0.2.0" });
  const [a, b] = await Promise.all([
    reader.policy("http://site.test/x"),
    reader.policy("http://site.test/y"),
  ]);
  expect(a).toBe(b);
  expect(a.status).toBe("ok");
  expect(a.allowed("http://site.test/private/x")).toBe(false);
  expect(a.crawlDelayS).toBe(2);
  expect(a.sitemaps).toEqual(["http://site.test/sm.xml"]);
  expect(hits).toEqual(["site.test/robots.txt", "site.test/robots-real.txt"]);
  await reader.policy("http://site.test/z");
  expect(hits).toHaveLength(2); // cached
});

test("a robots.txt redirect out of scope is not followed (RFC 9309: a 3xx left over allows all)", async () => {
  const { fetcher, hits } = serve({ "/robots.txt": redirect("http://other.test/robots.txt") });
  const reader = new RobotsReader({
    fetcher,
    userAgent: "webcorpus",
    refuseHop: (url) => (inScope(url, "site.test") ? null : "out of scope"),
  });
  const policy = await reader.policy("http://site.test/");
  expect([policy.status, policy.httpStatus]).toEqual(["missing", 301]);
  expect(hits).toEqual(["site.test/robots.txt"]);
});

test("sitemaps: listed ones, the defaults, an index with a gzip child; scope and dates kept", async () => {
  const child = Bun.gzipSync(
    new TextEncoder().encode(urlset("http://site.test/c1", "http://site.test/c2")),
  );
  const { fetcher } = serve({
    "/listed.xml": xml(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://site.test/child.xml.gz</loc></sitemap><sitemap><loc>http://evil.example/x.xml</loc></sitemap></sitemapindex>`,
    ),
    "/child.xml.gz": () => new Response(child, { headers: { "content-type": "application/gzip" } }),
    "/sitemap.xml": () =>
      new Response(
        urlset(
          "http://site.test/",
          "http://www.site.test/docs",
          "http://evil.example/p",
          "http://site.test/c1",
        ),
        {
          headers: { "last-modified": "Mon, 02 Mar 2026 10:00:00 GMT" },
        },
      ),
  });
  const seen: string[] = [];
  const result = await readSitemaps({
    fetcher,
    origin: "http://site.test",
    listed: ["http://site.test/listed.xml", "http://site.test/gone.xml"],
    maxSitemaps: 10,
    maxSitemapUrls: 100,
    inScope: (url) => inScope(url, "site.test"),
    onEntries: (entries, sitemap) => void seen.push(`${sitemap}:${entries.length}`),
  });
  expect(result.entries.map((e) => e.loc)).toEqual([
    "http://site.test/",
    "http://www.site.test/docs",
    "http://site.test/c1",
    "http://site.test/c2",
  ]);
  expect(result.entries.every((e) => e.lastmod === "2025-01-02")).toBe(true);
  expect(result.sitemaps.map((s) => [s.url, s.status, s.count])).toEqual([
    ["http://site.test/listed.xml", "ok", 2],
    ["http://site.test/gone.xml", "HTTP 404", 0],
    ["http://site.test/sitemap.xml", "ok", 4],
    ["http://site.test/child.xml.gz", "ok", 2],
  ]);
  expect(result.sitemaps[2]?.lastModified).toBe("2026-03-02T10:00:00.000Z");
  expect(seen).toEqual(["http://site.test/sitemap.xml:3", "http://site.test/child.xml.gz:1"]);
});

test("MAX_SITEMAPS and MAX_SITEMAP_URLS bound the reading", async () => {
  const routes: Record<string, Route> = {
    "/sitemap.xml": xml(
      `<sitemapindex>${Array.from({ length: 20 }, (_, i) => `<sitemap><loc>http://site.test/s${i}.xml</loc></sitemap>`).join("")}</sitemapindex>`,
    ),
  };
  for (let i = 0; i < 20; i++) {
    routes[`/s${i}.xml`] = xml(
      urlset(...Array.from({ length: 30 }, (_, j) => `http://site.test/p${i}-${j}`)),
    );
  }
  const { fetcher, hits } = serve(routes);
  const result = await readSitemaps({
    fetcher,
    origin: "http://site.test",
    listed: [],
    maxSitemaps: 4,
    maxSitemapUrls: 10,
    inScope: (url) => inScope(url, "site.test"),
  });
  expect(hits).toHaveLength(4); // sitemap.xml, sitemap_index.xml (404), s0, s1
  expect(result.entries).toHaveLength(20);
  expect(result.sitemaps.map((s) => s.status)).toEqual([
    "ok (first 10 URLs)",
    "ok (first 10 URLs)",
    "ok (first 10 URLs)",
  ]);
});

const MIB = 1 << 20;
/**
 * A robots.txt of more than 10 MiB (the default body cap): its first lines allow the site but
 * /private/, then comment lines, then (far past 500 KiB) a group disallowing everything that
 * must never be read.
 */
function hugeRobots(mib: number): string {
  const head = "User-agent: *\nDisallow: /private/\nAllow: /\n";
  const comment = `# ${"padding ".repeat(12).trim()}\n`;
  const lines = Math.ceil((mib * MIB) / comment.length);
  return `${head}${comment.repeat(lines)}User-agent: *\nDisallow: /\n`;
}

test("a robots.txt over the body cap is read to 500 KiB and obeyed, not taken for disallow-all (crawled)", async () => {
  const robots = hugeRobots(11);
  expect(robots.length).toBeGreaterThan(10 * MIB);
  const site = serveSite("huge-robots.test", {
    "/robots.txt": robots,
    "/": page("Home", '<p>Welcome.</p><a href="/a.html">A</a> <a href="/private/x.html">X</a>'),
    "/a.html": page("A page", "<p>Allowed by the first lines of robots.txt.</p>"),
    "/private/x.html": page("Private", "<p>Disallowed early in robots.txt.</p>"),
  });
  const c = crawler({ CONNECT_TO: site.connectTo() });
  try {
    const view = await c.crawl("huge-robots.test");
    expectInvariant(view);
    expect(view.state).toBe("completed");
    const b = view.coverage.buckets;
    expect(new Set(b.indexed.sample)).toEqual(
      new Set(["http://huge-robots.test/", "http://huge-robots.test/a.html"]),
    );
    expect(b.robots.sample).toEqual(["http://huge-robots.test/private/x.html"]);
    expect(site.count("/private/x.html")).toBe(0);
    expect(site.count("/robots.txt")).toBe(1);
  } finally {
    c.close();
    await site.stop();
  }
});

test("a huge robots.txt streamed without Content-Length, or gzip-encoded, is cut at its last whole line within 500 KiB", async () => {
  const robots = hugeRobots(12);
  const bytes = new TextEncoder().encode(robots);
  const gzipped = Bun.gzipSync(bytes);
  const chunked = () => {
    let at = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(c) {
          if (at >= bytes.length) return c.close();
          c.enqueue(bytes.subarray(at, at + 64 * 1024));
          at += 64 * 1024;
        },
      }),
      { headers: { "content-type": "text/plain" } },
    );
  };
  for (const route of [
    chunked,
    () => new Response(gzipped, { headers: { "content-encoding": "gzip" } }),
  ]) {
    const { fetcher } = serve({ "/robots.txt": route });
    const result = await fetcher.fetchFollowing("http://site.test/robots.txt", {
      prefixBytes: MAX_ROBOTS_BYTES,
    });
    expect(result.error).toBeNull();
    expect(result.truncated).toBe(true);
    expect(result.body.byteLength).toBe(MAX_ROBOTS_BYTES);
    const policy = await new RobotsReader({ fetcher, userAgent: "webcorpus/0.2.0" }).policy(
      "http://site.test/",
    );
    expect(policy.status).toBe("ok");
    expect(policy.allowed("http://site.test/docs/a.html")).toBe(true);
    expect(policy.allowed("http://site.test/private/x.html")).toBe(false);
  }
});
