/**
 * The network layer's parts composed the way the crawl will use them, over the hostile site:
 * robots.txt, sitemaps, URL screening and traps, paced fetches with retries, and each outcome's
 * bucket. The loop below is a stand-in for the scheduler (a plain queue), not a crawler.
 */
import { afterEach, expect, test } from "bun:test";
import { testConfig } from "../../src/config.ts";
import { Fetcher, fetcherOptions } from "../../src/crawl/fetcher.ts";
import { fetchOutcome } from "../../src/crawl/outcome.ts";
import { HostThrottle } from "../../src/crawl/politeness.ts";
import { RobotsReader } from "../../src/crawl/robots-cache.ts";
import { readSitemaps } from "../../src/crawl/sitemap-reader.ts";
import { screenUrl, TrapGuard, trapLimits } from "../../src/crawl/trap-guard.ts";
import { inScope, originOf } from "../../src/crawl/urls.ts";
import { type HostileSite, startHostileSite } from "./support/hostile-site.ts";

let site: HostileSite | null = null;
afterEach(async () => {
  await site?.stop();
  site = null;
});

const ROOT = "hostile.example";
const HOME = "http://hostile.example/";

test("every URL of the hostile site lands in the bucket the contract gives it", async () => {
  site = await startHostileSite();
  const config = testConfig({
    CONNECT_TO: `hostile.example:80:127.0.0.1:${site.port},internal.hostile.example:80:127.0.0.2:${site.port}`,
    ALLOW_NETWORKS: "127.0.0.1/32",
    READ_TIMEOUT_S: "1",
    CONNECT_TIMEOUT_S: "1",
    MAX_RETRIES: "1",
    MAX_RETRY_AFTER_S: "5",
    MAX_QUERY_VARIANTS_PER_PATH: "10",
    CRAWL_DELAY_S: "0",
  });
  const pacer = HostThrottle.fromConfig(config);
  const fetcher = new Fetcher({ ...fetcherOptions(config, { pacer }), backoffBaseMs: 10 });
  const scope = (url: string) => inScope(url, ROOT);
  const robots = new RobotsReader({
    fetcher,
    userAgent: config.userAgent,
    refuseHop: (url) => (scope(url) ? null : "out of scope"),
  });
  const traps = new TrapGuard(trapLimits(config));
  const ledger = new Map<string, { bucket: string; reason: string }>();
  const queue: { url: string; depth: number }[] = [];
  const book = (url: string, bucket: string, reason: string) => ledger.set(url, { bucket, reason });
  const meet = (raw: string, depth: number, base?: string) => {
    const verdict = screenUrl(raw, traps, { rootDomain: ROOT, depth, ...(base ? { base } : {}) });
    if (!verdict.ok) {
      if (verdict.bucket) book(new URL(raw, base).href, verdict.bucket, verdict.reason);
      return;
    }
    if (ledger.has(verdict.url)) return;
    book(verdict.url, "pending", "");
    queue.push({ url: verdict.url, depth });
  };

  const home = await robots.policy(HOME);
  expect(home.sitemaps).toEqual(["http://hostile.example/sitemap.xml"]);
  const sitemaps = await readSitemaps({
    fetcher,
    origin: originOf(HOME),
    listed: home.sitemaps,
    maxSitemaps: config.maxSitemaps,
    maxSitemapUrls: config.maxSitemapUrls,
    inScope: scope,
  });
  meet(HOME, 0);
  for (const entry of sitemaps.entries) meet(entry.loc, 1);

  for (let item = queue.shift(); item; item = queue.shift()) {
    const { url, depth } = item;
    const policy = await robots.policy(url);
    if (policy.status === "unreachable") {
      book(
        url,
        policy.httpStatus ? "robots" : "fetchError",
        `host unreachable (robots.txt: ${policy.httpStatus || "no answer"})`,
      );
      continue;
    }
    if (!policy.allowed(url)) {
      book(url, "robots", "disallowed by robots.txt");
      continue;
    }
    const result = await fetcher.fetch(url);
    const outcome = fetchOutcome(result);
    if (outcome.kind === "booked") {
      book(url, outcome.bucket, outcome.reason);
      if (outcome.target) meet(outcome.target, depth);
      continue;
    }
    book(url, "indexed", `HTTP ${outcome.status}`);
    const html = new TextDecoder().decode(result.body);
    for (const m of html.matchAll(/href="([^"]*)"/g)) meet(m[1] ?? "", depth + 1, url);
  }

  const bucket = (path: string) => ledger.get(new URL(path, HOME).href)?.bucket;
  const reason = (path: string) => ledger.get(new URL(path, HOME).href)?.reason ?? "";
  const expected: Record<string, string> = {
    "/": "indexed",
    "/ok": "indexed",
    "/gz": "indexed",
    "/flaky": "indexed", // 503 + Retry-After: 1, then 200
    "/flaky500": "indexed", // 500, then 200
    "/bomb": "fetchError",
    "/huge": "fetchError",
    "/slow": "fetchError",
    "/limited": "clientError", // 429 asking for an hour: not waited on
    "/gateway": "serverError",
    "/plain": "notHtml",
    "/noindex-header": "noindex",
    "/redirect/chain-1": "redirected",
    "/redirect/chain-2": "redirected",
    "/redirect/final": "indexed",
    "/redirect/loop-a": "redirected",
    "/redirect/loop-b": "redirected",
    "/redirect/to-loopback": "redirected", // its target is out of scope
    "/redirect/to-internal": "redirected",
    "http://internal.hostile.example/ssrf-target": "fetchError",
    "/redirect/to-file": "fetchError",
    "/status/404": "clientError",
    "/status/410": "clientError",
    "/status/500": "serverError",
    "/private/secret": "robots",
    "/files/report.pdf": "filtered",
    "/calendar?month=1": "indexed",
    "/a/": "indexed",
    "/a/a/a/a/": "filtered",
  };
  const wrong = Object.entries(expected).filter(([path, want]) => bucket(path) !== want);
  expect(
    wrong.map(([path, want]) => `${path}: want ${want}, got ${bucket(path)} (${reason(path)})`),
  ).toEqual([]);

  expect(reason("/bomb")).toStartWith("too_large");
  expect(reason("/huge")).toStartWith("too_large");
  expect(reason("/slow")).toStartWith("timeout");
  expect(reason("http://internal.hostile.example/ssrf-target")).toContain("no answer");
  expect(reason("/redirect/chain-1")).toBe("HTTP 301 to http://hostile.example/redirect/chain-2");
  const calendar = [...ledger.keys()].filter((u) => u.includes("/calendar?month="));
  expect(calendar.filter((u) => ledger.get(u)?.bucket === "indexed")).toHaveLength(10);
  expect(calendar.filter((u) => ledger.get(u)?.bucket === "filtered")).toHaveLength(1);
  expect(reason("/calendar?month=11")).toContain("query variants");
  expect([...ledger.values()].filter((e) => e.bucket === "pending")).toEqual([]);
  expect(site.ssrfHits).toEqual([]);
  expect(site.hits.some((h) => h.path === "/ssrf-target" || h.path === "/private/secret")).toBe(
    false,
  );
  expect(sitemaps.entries.map((e) => e.lastmod)).toEqual([
    "2026-03-02",
    "2026-03-02",
    "2026-03-02",
  ]);
}, 60_000);
