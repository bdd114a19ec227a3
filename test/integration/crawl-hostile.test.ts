/**
 * The real crawler (scheduler, worker pool, ledger) over the hostile site: bombs, slow drips,
 * huge pages, throttling, redirect chains and loops, redirects to loopback, internal names and
 * file:, a calendar trap; every URL ends in the bucket the contract gives it, and nothing
 * reaches the address the SSRF guard refuses.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { listJobUrls } from "../../src/db/jobs-repo.ts";
import { crawler, expectInvariant } from "../helpers/crawl.ts";
import { type HostileSite, startHostileSite } from "./support/hostile-site.ts";

setDefaultTimeout(120_000);

let site: HostileSite | null = null;
afterEach(async () => {
  await site?.stop();
  site = null;
});

test("every URL of the hostile site lands in the bucket the contract gives it", async () => {
  site = await startHostileSite();
  const c = crawler({
    CONNECT_TO: `hostile.example:80:127.0.0.1:${site.port},internal.hostile.example:80:127.0.0.2:${site.port}`,
    ALLOW_NETWORKS: "127.0.0.1/32",
    READ_TIMEOUT_S: "1",
    CONNECT_TIMEOUT_S: "1",
    MAX_RETRIES: "1",
    MAX_RETRY_AFTER_S: "5",
    MAX_QUERY_VARIANTS_PER_PATH: "10",
    MAX_REDIRECTS: "3",
  });
  try {
    const view = await c.crawl("hostile.example");
    expectInvariant(view);
    expect(view.state).toBe("completed");
    const rows = listJobUrls(c.store.read, view.id, null, 1000, 0).rows;
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    const bucket = (path: string) =>
      byUrl.get(new URL(path, "http://hostile.example/").href)?.bucket;
    const reason = (path: string) =>
      byUrl.get(new URL(path, "http://hostile.example/").href)?.reason ?? "";
    const expected: Record<string, string> = {
      "/": "indexed",
      "/bomb": "fetchError",
      "/huge": "fetchError",
      "/slow": "fetchError",
      "/limited": "clientError",
      "/gateway": "serverError",
      "/plain": "notHtml",
      "/noindex-header": "noindex",
      "/redirect/chain-1": "redirected",
      "/redirect/loop-a": "redirected",
      "/redirect/to-loopback": "redirected",
      "/redirect/to-internal": "redirected",
      "http://internal.hostile.example/ssrf-target": "fetchError",
      "/redirect/to-file": "fetchError",
      "/status/404": "clientError",
      "/status/500": "serverError",
      "/private/secret": "robots",
      "/files/report.pdf": "fetchError", // a PDF cut after its header (src/extract/pdf/)
      "/a/a/a/a/": "filtered",
    };
    const wrong = Object.entries(expected).filter(([path, want]) => bucket(path) !== want);
    expect(
      wrong.map(([path, want]) => `${path}: want ${want}, got ${bucket(path)} (${reason(path)})`),
    ).toEqual([]);
    // Pages that answered only after a 503, a 500, gzip or a redirect chain are indexed.
    expect(["/ok", "/gz", "/flaky", "/flaky500", "/redirect/final"].map(bucket)).toEqual(
      Array(5).fill("indexed"),
    );
    expect(reason("/bomb")).toStartWith("too_large");
    expect(reason("/slow")).toStartWith("timeout");
    expect(reason("/redirect/chain-1")).toBe("HTTP 301 to http://hostile.example/redirect/chain-2");
    // The subdomain maps to 127.0.0.2, outside the allowlist: refused, not "unreachable".
    expect(reason("http://internal.hostile.example/ssrf-target")).toBe(
      "refused by the address policy (SSRF guard): internal.hostile.example is mapped to the non-public address 127.0.0.2; WEBCORPUS_ALLOW_NETWORKS allows a network",
    );
    // The calendar trap: ten query variants of one path, then the guard.
    const calendar = rows.filter((r) => r.url.includes("/calendar?month="));
    expect(calendar.filter((r) => r.bucket === "indexed" || r.bucket === "duplicate")).toHaveLength(
      10,
    );
    expect(calendar.filter((r) => r.bucket === "filtered")).toHaveLength(1);
    expect(reason("/calendar?month=11")).toContain("query variants");
    const lastmods = c.store.read.$client
      .query<{ lastmod: string }, [string]>(
        "SELECT lastmod FROM job_urls WHERE job_id = ? AND source = 'sitemap' ORDER BY url",
      )
      .all(view.id);
    // The home page came first as the entry; the sitemap's other two URLs keep their lastmod.
    expect(lastmods.map((r) => r.lastmod)).toEqual(["2026-03-02", "2026-03-02"]);
    expect(site.ssrfHits).toEqual([]);
    expect(site.hits.some((h) => h.path === "/ssrf-target" || h.path === "/private/secret")).toBe(
      false,
    );
  } finally {
    c.close();
  }
});

test("robots.txt answering 503 disallows the whole host: every URL in robots, nothing fetched", async () => {
  site = await startHostileSite();
  site.knobs.robots = 503;
  const c = crawler({
    CONNECT_TO: `hostile.example:80:127.0.0.1:${site.port}`,
    ALLOW_NETWORKS: "127.0.0.1/32",
  });
  try {
    const view = await c.crawl("hostile.example");
    expectInvariant(view);
    expect(view.coverage.buckets.robots.count).toBeGreaterThanOrEqual(1);
    expect(view.coverage.buckets.robots.reasons?.[0]?.reason).toContain("answered HTTP 503");
    expect(site.hits.filter((h) => h.path !== "/robots.txt")).toEqual([]);
  } finally {
    c.close();
  }
});
