/**
 * Crawl scope on a real documentation site (the Python docs served on loopback by doc-server.ts):
 * `exclude: ["**\/genindex*"]` over the whole domain, and a URL prefix with it (issue 32 §1).
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { type Crawler, expectInvariant } from "../helpers/crawl.ts";
import { docCrawls } from "./support/doc-crawls.ts";

setDefaultTimeout(1_200_000);

const docs = docCrawls();

interface Row {
  url: string;
  bucket: string;
  reason: string | null;
}

function ledger(c: Crawler, jobId: string): Row[] {
  return c.store.read.$client
    .query<Row, [string]>("SELECT url, bucket, reason FROM job_urls WHERE job_id = ?")
    .all(jobId);
}

const GENINDEX = /\/genindex[^/]*$/;

test("docs.python.org with **/genindex* and /whatsnew/** excluded: their pages filtered with the pattern, none fetched", async () => {
  // robots.txt disallows /genindex too: the pattern is applied first, as the URL is met.
  expect(docs.sites.python.pages.filter((p) => GENINDEX.test(p)).length).toBeGreaterThan(1);
  const whatsnew = docs.sites.python.allowedPages.filter((p) => p.startsWith("/whatsnew/"));
  expect(whatsnew.length).toBeGreaterThan(1);
  const c = docs.crawler();
  const view = await c.crawl("docs.python.org", {
    budget: 2000,
    exclude: ["**/genindex*", "/whatsnew/**"],
  });
  expectInvariant(view);
  expect(view.state).toBe("completed");
  const rows = ledger(c, view.id);
  const indexes = rows.filter((r) => GENINDEX.test(new URL(r.url).pathname));
  expect(indexes.length).toBeGreaterThan(1);
  for (const r of indexes)
    expect(r).toMatchObject({ bucket: "filtered", reason: "excluded by pattern **/genindex*" });
  const news = rows.filter((r) => new URL(r.url).pathname.startsWith("/whatsnew/"));
  expect(news.length).toBeGreaterThan(1);
  for (const r of news)
    expect(r).toMatchObject({ bucket: "filtered", reason: "excluded by pattern /whatsnew/**" });
  const indexed = rows.filter((r) => r.bucket === "indexed").length;
  expect(indexed).toBeGreaterThan((docs.sites.python.allowedPages.length - whatsnew.length) * 0.8);
});

test("a URL prefix scope on docs.python.org: only the library reference, to the end", async () => {
  const prefix = "http://docs.python.org/library/";
  const c = docs.crawler();
  const view = await c.crawl("docs.python.org", {
    budget: 2000,
    scope: prefix,
    exclude: ["**/genindex*"],
  });
  expectInvariant(view);
  expect(view.state).toBe("completed");
  const rows = ledger(c, view.id);
  const library = docs.sites.python.allowedPages.filter((p) => p.startsWith("/library/"));
  const indexed = rows.filter((r) => r.bucket === "indexed").map((r) => r.url);
  expect(indexed.length).toBeGreaterThan(library.length * 0.8);
  expect(indexed.every((u) => u.startsWith(prefix))).toBe(true);
  const outside = rows.filter((r) => !r.url.startsWith(prefix));
  expect(outside.length).toBeGreaterThan(0);
  for (const r of outside)
    expect(r).toMatchObject({ bucket: "filtered", reason: `outside scope: ${prefix}` });
});
